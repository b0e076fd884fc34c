"""``horde tune``: for each team level and player count, the value of one whole-number knob whose
team win rate is closest to a target, playing only the games the search needs; at every setting
of other knobs (a second numeric knob, categorical knobs, house rules) when asked.

Taking the win rate to be monotone in the knob, the search measures both ends of the range and
then bisects between the last value above the target and the last below; each value is played in
batches until its Wilson 99% interval lies wholly on one side of the target (the wider interval
pays for looking after every batch) or until a cap, so values far from the target cost one batch.
Where the curve is flat the answer is a range: the neighbours of the best value are measured too,
outward while their Wilson 95% interval still holds the target. Batch ``b`` is played with the
seed ``(seed, b)`` at every value, so values are compared on the same games. Stalls (H14) are
counted apart: every point has its stall share and its win rate among decided games. Imports
neither pandas nor matplotlib.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from horde.lab.stats import Z95, wilson
from horde.play import prepare
from horde.setup import KNOBS, GameSetup, SetupError, convert, setup_from_dict
from horde.team.skill import level_of

Z99 = 2.5758293035489004  # the 99.5% point of the standard normal: a two-sided 99% interval
STALL_WARNING = 0.05  # tune says so when more of a setting's games than this stall (H14)

# The searchable knobs and the range searched when --low/--high are not given (None: the
# knob's own bound; strong_mix is searched as the number of Zombie Giants, 0 to strong_tokens).
SEARCHABLE: dict[str, tuple[int, int | None]] = {
    "cards_per_player": (5, 40),
    "grace_turns": (0, 10),
    "strong_mix": (0, None),
    "strong_tokens": (0, 15),
    "life_per_player": (5, 60),
    "reveal_base": (1, 10),
    "max_turns": (10, 120),
    "token_percent": (20, 90),
    "creatures_per_player": (0, 12),
    "spells_per_player": (0, 8),
}
VARY_STEPS = 6  # a numeric knob varied without values: at most this many values, evenly spread


def _check_knob(knob: str) -> None:
    if knob not in SEARCHABLE:
        raise SetupError(f"knob '{knob}' can't be searched; searchable knobs are: {', '.join(SEARCHABLE)}")


def search_range(setup: GameSetup, knob: str, low: int | None = None, high: int | None = None,
                 deck_cards: int | None = None) -> tuple[int, int]:
    """The two ends of the range searched: ``low`` and ``high``, or the knob's defaults
    (``SEARCHABLE``); each end checked as a value of the knob. ``deck_cards``: the size of a
    fixed Horde deck, which bounds the default top of ``cards_per_player`` (H3: the deck must
    hold players x cards). Raises SetupError."""
    _check_knob(knob)
    default_low, default_high = SEARCHABLE[knob]
    if knob == "cards_per_player" and deck_cards is not None and default_high is not None:
        default_high = max(1, min(default_high, deck_cards // setup.players))  # H3
        default_low = min(default_low, default_high)
    ends = []
    for flag, value, default in (("--low", low, default_low), ("--high", high, default_high)):
        if knob == "strong_mix":
            value = (setup.strong_tokens if default is None else default) if value is None else value
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= setup.strong_tokens:
                raise SetupError(f"{flag}: knob 'strong_mix' = {value!r}: expected the number of Zombie Giants, "
                                 f"a whole number from 0 to {setup.strong_tokens} (strong_tokens)")
        else:
            value = convert(knob, default if value is None else value, flag)
        ends.append(value)
    if ends[0] > ends[1]:
        raise SetupError(f"--low {ends[0]} is above --high {ends[1]}: the range is empty")
    if knob == "strong_mix" and setup.strong_tokens == 0:
        raise SetupError("knob 'strong_mix' can't be searched with strong_tokens = 0")
    return ends[0], ends[1]


def label_of(setup: GameSetup, knob: str, value: int) -> str:
    """A searched value as the knob reads it: ``3:2`` for 3 Giants of 5 strong tokens."""
    if knob == "strong_mix":
        return f"{value}:{setup.strong_tokens - value}"
    return str(value)


def setup_at(setup: GameSetup, knob: str, value: int, players: int | None = None) -> GameSetup:
    """``setup`` with ``knob`` at ``value`` (for strong_mix: that many Giants) and ``players``
    players, validated as ``make_setup`` validates. Raises SetupError."""
    _check_knob(knob)
    values = setup.to_dict()
    values[knob] = label_of(setup, knob, value) if knob == "strong_mix" else value
    if players is not None:
        values["players"] = players
    return setup_from_dict(values)


def vary_values(setup: GameSetup, knob: str, values: Sequence | None = None) -> list:
    """The values a varied knob takes: ``values``, each checked as a value of the knob, or by
    default every choice of a categorical knob, both sides of a house rule (true, false), or at
    most ``VARY_STEPS`` values spread evenly over a searchable knob's default range. Raises
    SetupError."""
    spec = KNOBS.get(knob)
    if spec is None or knob in ("players", "preset"):
        raise SetupError(f"--vary {knob.replace('_', '-')}: not a knob that can be varied; knobs are: "
                         f"{', '.join(k for k in KNOBS if k not in ('players', 'preset'))}")
    if values:
        return [convert(knob, value, f"--vary {knob.replace('_', '-')}") for value in values]
    if spec.kind == "bool":
        return [True, False]
    if spec.choices:
        return list(spec.choices)
    if knob in SEARCHABLE and knob != "strong_mix":
        low, high = search_range(setup, knob)
        step = max(1, math.ceil((high - low) / (VARY_STEPS - 1)))
        return list(range(low, high + 1, step))
    raise SetupError(f"--vary {knob.replace('_', '-')}: give its values, like --vary {knob.replace('_', '-')}=A,B")


@dataclass
class Point:
    """One setting measured: its games, the team's wins, the stalls (H14), and the Wilson 95%
    interval of the team win rate among all games and among decided ones."""

    value: int | None
    label: str
    games: int = 0
    wins: int = 0
    stalls: int = 0
    losses: int = 0  # the Horde's wins (games aborted by the work budget, H15, are neither)
    decided: int = 0  # +1: clearly above the target (Wilson 99%), -1: clearly below, 0: not decided

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the team's win rate."""
        return wilson(self.wins, self.games, Z95)

    @property
    def stall_rate(self) -> float:
        return self.stalls / self.games if self.games else math.nan

    @property
    def decided_games(self) -> int:
        return self.wins + self.losses

    @property
    def decided_rate(self) -> float:
        """The team's win rate among the games someone won (stalls and aborted games left out)."""
        return self.wins / self.decided_games if self.decided_games else math.nan

    @property
    def decided_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.decided_games, Z95)

    def holds(self, target: float) -> bool:
        """Whether the Wilson 95% interval of the team win rate holds the target."""
        low, high = self.interval
        return low <= target <= high

    def add(self, winners: Iterable[str]) -> None:
        for winner in winners:
            self.games += 1
            self.wins += winner == "team"
            self.losses += winner == "horde"
            self.stalls += winner == "stall"

    def to_dict(self) -> dict:
        low, high = self.interval
        decided_low, decided_high = self.decided_interval
        return {"value": self.label, "games": self.games, "team_wins": self.wins, "team_win_rate": self.rate,
                "team_win_low": low, "team_win_high": high, "stalls": self.stalls, "stall_rate": self.stall_rate,
                "decided_games": self.decided_games, "decided_win_rate": self.decided_rate,
                "decided_win_low": decided_low, "decided_win_high": decided_high}


@dataclass
class TuneResult:
    """The search for one level, setting of the varied knobs and player count: the recommended
    value (``point``, with its Wilson 95% interval), the values around it whose interval holds the
    target too (``flat``: the range to report where the curve is flat), whether the target lies
    within the range (``reached``), every value tried, and the games played. With no knob
    searched, ``point`` is the setting itself, measured."""

    players: int
    knob: str | None
    target: float
    point: Point
    reached: bool
    tried: list[Point] = field(default_factory=list)
    games_played: int = 0
    level: str = "club"
    setting: dict = field(default_factory=dict)  # the varied knobs' values of this search
    flat: list[Point] = field(default_factory=list)
    setup: GameSetup | None = None  # the setup searched (the searched knob at its own value)

    @property
    def value(self) -> int | None:
        return self.point.value

    @property
    def label(self) -> str:
        return self.point.label

    @property
    def range_label(self) -> str:
        """The answer as a range where several values hold the target (``26-29``), else the value."""
        values = [p for p in self.flat if p.value is not None]
        if len(values) < 2:
            return self.label
        return f"{values[0].label}-{values[-1].label}"

    @property
    def stalls_warned(self) -> bool:
        """More than ``STALL_WARNING`` of the recommended setting's games stalled (H14)."""
        return self.point.stall_rate > STALL_WARNING

    def to_dict(self) -> dict:
        low, high = self.point.interval
        decided_low, decided_high = self.point.decided_interval
        return {"level": self.level, "players": self.players, "knob": self.knob,
                "setting": {k: _plain(v) for k, v in self.setting.items()}, "target": self.target,
                "value": self.label, "range": self.range_label, "team_win_rate": self.point.rate,
                "team_win_low": low, "team_win_high": high, "stall_rate": self.point.stall_rate,
                "decided_win_rate": self.point.decided_rate, "decided_win_low": decided_low,
                "decided_win_high": decided_high, "games": self.point.games, "reached": self.reached,
                "games_played": self.games_played, "flat": [p.label for p in self.flat],
                "tried": [p.to_dict() for p in sorted(self.tried, key=_order)]}


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def _order(point: Point) -> int:
    return point.value if point.value is not None else 0


def play_winners(setup: GameSetup, seed, games: int, workers: int | None = None) -> list[str]:
    """The winners of ``games`` seeded games of ``setup`` (game ``i`` with the seed ``(seed, i)``),
    on ``workers`` processes (default: one per core)."""
    from horde.lab.runner import play_many

    workers = max(1, min(workers or os.cpu_count() or 1, games))
    chunk = max(1, math.ceil(games / workers))
    return [r.winner for r in play_many(setup, seed, games, workers=workers, chunk_size=chunk, progress=False)]


def tune(setup: GameSetup, knob: str | None, target: float = 0.5, players: Iterable[int] = (2, 3, 4),
         low: int | None = None, high: int | None = None, *, vary: dict[str, Sequence | None] | None = None,
         skills: Sequence[str] = (), seed: int = 1, batch: int = 200, max_games: int = 2000, flat: bool = True,
         workers: int | None = None, play: Callable | None = None,
         progress: Callable[[str], object] | None = None) -> list[TuneResult]:
    """For each skill level (``skills``: values of the ``skill`` knob; default the setup's own),
    each setting of the ``vary`` knobs (knob -> its values, or None for ``vary_values``'
    defaults) and each player count, the value of ``knob`` from ``low`` to ``high`` whose team win
    rate is closest to ``target``: both ends measured, then bisection (the rate is taken to be
    monotone in the knob), then, with ``flat``, the neighbours of the best value while their
    Wilson 95% interval holds the target. A value is played in batches of ``batch`` games, batch
    ``b`` with the seed ``(seed, b)``, until its Wilson 99% interval lies wholly on one side of the
    target or it has ``max_games`` games; the recommendation carries its Wilson 95% interval.
    With ``knob`` None, every setting of the ``vary`` knobs is measured as one point.

    The default ``high`` of ``cards_per_player`` is bounded by a fixed Horde deck's size (H3).
    ``play(setup, seed, games)`` returns the winners of the games (default: ``play_winners`` on
    ``workers`` processes); ``progress(line)`` hears of each value measured. Every setup at both
    ends is checked before any game is played; raises SetupError (or the deck's error)."""
    if knob is not None:
        _check_knob(knob)
    if isinstance(target, bool) or not isinstance(target, int | float) or not 0 < target < 1:
        raise SetupError(f"target {target!r}: expected a team win rate between 0 and 1 (exclusive)")
    if batch < 1 or max_games < 1:
        raise SetupError(f"batch {batch}, max_games {max_games}: expected whole numbers of at least 1")
    if knob is None and not vary:
        raise SetupError("nothing to tune: give a knob to search, or knobs to vary")
    vary = dict(vary or {})
    if knob is not None and knob in vary:
        raise SetupError(f"knob '{knob}' is both searched and varied: give it once")
    counts = [convert("players", p, "players") for p in players]
    levels = [convert("skill", s, "--skill") for s in skills] or [setup.skill]
    varied = {name: vary_values(setup, name, values) for name, values in vary.items()}
    settings = [dict(zip(varied, values, strict=True)) for values in itertools.product(*varied.values())]
    real = play is None
    if play is None:
        def play(at: GameSetup, batch_seed, games: int) -> list[str]:
            return play_winners(at, batch_seed, games, workers=workers)
    searches = []
    for skill in levels:  # every setup prepared before playing: a bad one fails at once
        for setting in settings:
            base = setup_from_dict(setup.to_dict() | setting | {"skill": skill})
            for count in counts:
                at = setup_from_dict(base.to_dict() | {"players": count})
                ends = None
                if knob is not None:
                    deck_cards = None
                    if real and knob == "cards_per_player" and high is None:
                        deck = prepare(setup_at(at, knob, 1)).horde_deck  # one card a player: any deck holds it
                        deck_cards = len(deck.cards) if deck.build == "fixed" else None
                    ends = search_range(at, knob, low, high, deck_cards)
                    for value in ends:
                        checked = setup_at(at, knob, value)
                        if real:
                            prepare(checked)
                elif real:
                    prepare(at)
                searches.append((at, setting, ends))
    return [_search(at, knob, float(target), ends, setting, seed, batch, max_games, flat, play, progress)
            for at, setting, ends in searches]


def _search(setup: GameSetup, knob: str | None, target: float, ends: tuple[int, int] | None, setting: dict, seed,
            batch: int, max_games: int, flat: bool, play: Callable, progress) -> TuneResult:
    measured: dict[int | None, Point] = {}
    played = 0
    level = level_of(setup)
    where = ", ".join([f"{k} {_plain(v)}" for k, v in setting.items()])

    def measure(value: int | None) -> Point:
        nonlocal played
        if value in measured:
            return measured[value]
        if value is None or knob is None:
            point, at = Point(None, where or "as set"), setup
        else:
            point, at = Point(value, label_of(setup, knob, value)), setup_at(setup, knob, value)
        number = 0
        while point.games < max_games:
            games = min(batch, max_games - point.games)
            winners = play(at, (seed, number), games)
            number += 1
            point.add(winners)
            played += len(winners)
            low, high = wilson(point.wins, point.games, Z99)
            if low > target or high < target:
                point.decided = 1 if low > target else -1
                break
        measured[value] = point
        if progress is not None:
            low, high = point.interval
            what = f"{knob} {point.label}" if knob is not None else point.label
            progress(f"{level}, {setup.players} players{', ' + where if where and knob else ''}: {what}: team "
                     f"{point.rate:.1%} (Wilson 95% {low:.1%} - {high:.1%}), stalls {point.stall_rate:.1%}, in "
                     f"{point.games} games")
        return point

    def above(point: Point) -> bool:
        return point.decided > 0 if point.decided else point.rate >= target

    if knob is None or ends is None:
        point = measure(None)
        return TuneResult(setup.players, None, target, point, point.holds(target), [point], played, level, setting,
                          [point] if point.holds(target) else [], setup)
    first = measure(ends[0])
    last = measure(ends[1]) if ends[1] != ends[0] else first
    reached = above(first) != above(last)
    if reached:
        up, down = (first, last) if above(first) else (last, first)
        while abs(up.value - down.value) > 1:  # type: ignore[operator]  # searched points have values
            middle = measure((up.value + down.value) // 2)  # type: ignore[operator]
            if above(middle):
                up = middle
            else:
                down = middle
    best = min(measured.values(), key=lambda p: (abs(p.rate - target), -p.games, p.value))
    holding: list[Point] = []
    if flat and reached and best.holds(target):
        holding = [best]
        for step in (-1, 1):  # outward while the interval still holds the target
            value = best.value + step  # type: ignore[operator]
            while ends[0] <= value <= ends[1]:
                point = measure(value)
                if not point.holds(target):
                    break
                holding.append(point)
                value += step
        holding.sort(key=_order)
    tried = sorted(measured.values(), key=_order)
    return TuneResult(setup.players, knob, target, best, reached, tried, played, level, setting, holding, setup)


def in_band(results: Iterable[TuneResult], target: float, band: float) -> list[tuple[TuneResult, Point]]:
    """Every setting measured whose team win rate lies within ``band`` of ``target``: a whole
    setting a group can play (level, players, the varied knobs and the searched knob's value)."""
    return [(result, point) for result in results for point in result.tried
            if abs(point.rate - target) <= band + 1e-12]
