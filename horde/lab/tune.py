"""``horde tune``: for each player count, the value of one whole-number knob whose team win rate is
closest to a target, playing only the games the search needs. Taking the win rate to be monotone
in the knob, it measures both ends of the range and then bisects between the last value above
the target and the last below; each value is played in batches until its Wilson 99% interval
lies wholly on one side of the target (the wider interval pays for looking after every batch) or
until a cap, so values far from the target cost one batch. Batch ``b`` is played with the seed
``(seed, b)`` at every value, so values are compared on the same games. The recommendation is
reported with the Wilson 95% interval of all its games. Imports neither pandas nor matplotlib.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from horde.lab.stats import Z95, wilson
from horde.play import prepare
from horde.setup import GameSetup, SetupError, convert, setup_from_dict

Z99 = 2.5758293035489004  # the 99.5% point of the standard normal: a two-sided 99% interval

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
}


def _check_knob(knob: str) -> None:
    if knob not in SEARCHABLE:
        raise SetupError(f"knob '{knob}' can't be searched; searchable knobs are: {', '.join(SEARCHABLE)}")


def search_range(setup: GameSetup, knob: str, low: int | None = None, high: int | None = None) -> tuple[int, int]:
    """The two ends of the range searched: ``low`` and ``high``, or the knob's defaults
    (``SEARCHABLE``); each end checked as a value of the knob. Raises SetupError."""
    _check_knob(knob)
    default_low, default_high = SEARCHABLE[knob]
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


@dataclass
class Point:
    """One value measured: its games, the team's wins and the Wilson 95% interval of the rate."""

    value: int
    label: str
    games: int = 0
    wins: int = 0
    decided: int = 0  # +1: clearly above the target (Wilson 99%), -1: clearly below, 0: not decided

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the team's win rate."""
        return wilson(self.wins, self.games, Z95)

    def to_dict(self) -> dict:
        low, high = self.interval
        return {"value": self.label, "games": self.games, "team_wins": self.wins, "team_win_rate": self.rate,
                "team_win_low": low, "team_win_high": high}


@dataclass
class TuneResult:
    """The search for one player count: the recommended value (``point``, with its Wilson 95%
    interval), whether the target lies within the range (``reached``), every value tried, and
    the games played."""

    players: int
    knob: str
    target: float
    point: Point
    reached: bool
    tried: list[Point] = field(default_factory=list)
    games_played: int = 0

    @property
    def value(self) -> int:
        return self.point.value

    @property
    def label(self) -> str:
        return self.point.label

    def to_dict(self) -> dict:
        low, high = self.point.interval
        return {"players": self.players, "knob": self.knob, "target": self.target, "value": self.label,
                "team_win_rate": self.point.rate, "team_win_low": low, "team_win_high": high,
                "games": self.point.games, "reached": self.reached, "games_played": self.games_played,
                "tried": [p.to_dict() for p in sorted(self.tried, key=lambda p: p.value)]}


def play_winners(setup: GameSetup, seed, games: int, workers: int | None = None) -> list[str]:
    """The winners of ``games`` seeded games of ``setup`` (game ``i`` with the seed ``(seed, i)``),
    on ``workers`` processes (default: one per core)."""
    from horde.lab.runner import play_many

    workers = max(1, min(workers or os.cpu_count() or 1, games))
    chunk = max(1, math.ceil(games / workers))
    return [r.winner for r in play_many(setup, seed, games, workers=workers, chunk_size=chunk, progress=False)]


def tune(setup: GameSetup, knob: str, target: float = 0.5, players: Iterable[int] = (2, 3, 4),
         low: int | None = None, high: int | None = None, *, seed: int = 1, batch: int = 200,
         max_games: int = 2000, workers: int | None = None, play: Callable | None = None,
         progress: Callable[[str], object] | None = None) -> list[TuneResult]:
    """For each player count, the value of ``knob`` from ``low`` to ``high`` whose team win rate
    is closest to ``target``: both ends measured, then bisection (the rate is taken to be
    monotone in the knob). A value is played in batches of ``batch`` games, batch ``b`` with the
    seed ``(seed, b)``, until its Wilson 99% interval lies wholly on one side of the target or it
    has ``max_games`` games; the recommendation carries its Wilson 95% interval.

    ``play(setup, seed, games)`` returns the winners of the games (default: ``play_winners`` on
    ``workers`` processes); ``progress(line)`` hears of each value measured. Every setup at both
    ends is checked before any game is played; raises SetupError (or the deck's error)."""
    _check_knob(knob)
    if isinstance(target, bool) or not isinstance(target, int | float) or not 0 < target < 1:
        raise SetupError(f"target {target!r}: expected a team win rate between 0 and 1 (exclusive)")
    if batch < 1 or max_games < 1:
        raise SetupError(f"batch {batch}, max_games {max_games}: expected whole numbers of at least 1")
    counts = [convert("players", p, "players") for p in players]
    ends = search_range(setup, knob, low, high)
    real = play is None
    for count in counts:  # both ends prepared before playing: a bad setup fails at once
        for value in ends:
            checked = setup_at(setup, knob, value, count)
            if real:
                prepare(checked)
    if play is None:
        def play(at: GameSetup, batch_seed, games: int) -> list[str]:
            return play_winners(at, batch_seed, games, workers=workers)
    return [_search(setup, knob, float(target), count, ends, seed, batch, max_games, play, progress)
            for count in counts]


def _search(setup, knob, target, players, ends, seed, batch, max_games, play, progress) -> TuneResult:
    measured: dict[int, Point] = {}
    played = 0

    def measure(value: int) -> Point:
        nonlocal played
        point = Point(value, label_of(setup, knob, value))
        at = setup_at(setup, knob, value, players)
        number = 0
        while point.games < max_games:
            games = min(batch, max_games - point.games)
            winners = play(at, (seed, number), games)
            number += 1
            point.games += len(winners)
            point.wins += sum(1 for w in winners if w == "team")
            played += len(winners)
            low, high = wilson(point.wins, point.games, Z99)
            if low > target or high < target:
                point.decided = 1 if low > target else -1
                break
        measured[value] = point
        if progress is not None:
            low, high = point.interval
            progress(f"{players} players: {knob} {point.label}: team {point.rate:.1%} (Wilson 95% {low:.1%} - "
                     f"{high:.1%}) in {point.games} games")
        return point

    def above(point: Point) -> bool:
        return point.decided > 0 if point.decided else point.rate >= target

    first = measure(ends[0])
    last = measure(ends[1]) if ends[1] != ends[0] else first
    reached = above(first) != above(last)
    if reached:
        up, down = (first, last) if above(first) else (last, first)
        while abs(up.value - down.value) > 1:
            middle = measure((up.value + down.value) // 2)
            if above(middle):
                up = middle
            else:
                down = middle
    tried = sorted(measured.values(), key=lambda p: p.value)
    best = min(tried, key=lambda p: (abs(p.rate - target), -p.games, p.value))
    return TuneResult(players, knob, target, best, reached, tried, played)
