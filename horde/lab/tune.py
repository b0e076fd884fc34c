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

import functools
import itertools
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from horde.lab.cache import play_winners
from horde.lab.calibrate import CalibrationFile, read_calibration
from horde.lab.stats import Z95, wilson
from horde.play import prepare
from horde.setup import KNOBS, SKILL_LEVELS, GameSetup, SetupError, convert, setup_from_dict
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
    skill: float | None = None  # a calibrated skill, whose points are read between two grid skills

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
                "tried": [p.to_dict() for p in sorted(self.tried, key=_order)]} | (
                    {"skill": self.skill, "read_between_grid_skills": True} if self.skill is not None else {})


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def _order(point: Point) -> int:
    return point.value if point.value is not None else 0


@dataclass
class Recommendation:
    """What a calibration file's skill asks of a knob, for one setting and player count: the
    answers at the interval's low end, at the estimate and at its high end (``answers``), the
    range of values from one end's answer to the other's (their flat ranges included), and for
    each value of the range the chance that the group's team win rate lies within ``band`` of
    the target given what the games say of its skill (``chances``: the calibration's likelihood
    over the skills between the grid skills played, as a distribution)."""

    calibration: CalibrationFile
    players: int
    knob: str
    target: float
    band: float
    setting: dict
    answers: dict[str, TuneResult]
    low: int
    high: int
    chances: list[tuple[int, str, float]]  # (value, label, chance)
    grid: tuple[float, ...]  # the grid skills played
    games_played: int = 0

    @property
    def best(self) -> tuple[int, str, float] | None:
        """The value of the range with the greatest chance (the estimate's answer on a tie)."""
        if not self.chances:
            return None
        middle = self.answers["estimate"].value
        return max(self.chances, key=lambda c: (round(c[2], 6), -abs(c[0] - (middle if middle is not None else c[0]))))

    @property
    def range_label(self) -> str:
        labels = [label for _, label, _ in self.chances]
        if not labels:
            return ""
        return labels[0] if len(labels) == 1 else f"{labels[0]}-{labels[-1]}"

    def to_dict(self) -> dict:
        best = self.best
        return {"calibration": self.calibration.to_dict(), "players": self.players, "knob": self.knob,
                "setting": {k: _plain(v) for k, v in self.setting.items()}, "target": self.target, "band": self.band,
                "range": self.range_label, "low": self.low, "high": self.high,
                "answers": {name: r.range_label for name, r in self.answers.items()},
                "chances": {label: chance for _, label, chance in self.chances},
                "best": best[1] if best else None, "best_chance": best[2] if best else None,
                "grid_skills_played": list(self.grid), "games_played": self.games_played}


def calibration_of(skill: str) -> CalibrationFile | None:
    """The calibration file a ``--skill`` value names (a .toml file, or any file that is not a
    games file), else None (a level or a number)."""
    text = skill.strip() if isinstance(skill, str) else ""
    if not text or text.lower() in SKILL_LEVELS:
        return None
    try:
        float(text)
        return None
    except ValueError:
        pass
    if text.lower().endswith(".toml") or (os.path.isfile(text) and not text.lower().endswith((".csv", ".tsv", ".txt"))):
        return read_calibration(text)
    return None


def tune(setup: GameSetup, knob: str | None, target: float = 0.5, players: Iterable[int] = (2, 3, 4),
         low: int | None = None, high: int | None = None, *, vary: dict[str, Sequence | None] | None = None,
         skills: Sequence[str | CalibrationFile] = (), seed: int = 1, batch: int = 200, max_games: int = 2000,
         flat: bool = True,
         workers: int | None = None, play: Callable | None = None, band: float = 0.05,
         recommendations: list[Recommendation] | None = None,
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

    A skill that names a calibration file (``horde calibrate``) is answered over its interval:
    the values are played at the skills of the calibration's grid around the interval (those
    at or just outside its ends), and the rate at any skill between two of them is read on the
    straight line between their rates (as the calibration reads its games); the search runs at
    the interval's low end, at the estimate and at its high end (three results, each naming
    where it stands), and a ``Recommendation`` per setting and player count, appended to
    ``recommendations``, gives the range between the ends' answers and each value's chance that
    the group's win rate lies within ``band`` of the target.

    The default ``high`` of ``cards_per_player`` is bounded by a fixed Horde deck's size (H3).
    ``play(setup, seed, games)`` returns the winners of the games (default: ``play_winners`` on
    ``workers`` processes, through the games cache); ``progress(line)`` hears of each value
    measured. Every setup at both ends is checked before any game is played; raises SetupError
    (or the deck's error)."""
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
    levels: list[float | str | CalibrationFile] = []
    for skill in skills:
        calibration = skill if isinstance(skill, CalibrationFile) else calibration_of(skill)
        levels.append(calibration if calibration is not None else convert("skill", skill, "--skill"))
    levels = levels or [setup.skill]
    if any(isinstance(level, CalibrationFile) for level in levels) and knob is None:
        raise SetupError("--skill FILE answers over the calibrated interval for a searched knob: give --knob")
    varied = {name: vary_values(setup, name, values) for name, values in vary.items()}
    settings = [dict(zip(varied, values, strict=True)) for values in itertools.product(*varied.values())]
    real = play is None
    if play is None:
        def play(at: GameSetup, batch_seed, games: int) -> list[str]:
            return play_winners(at, batch_seed, games, workers=workers)
    searches = []
    for level in levels:  # every setup prepared before playing: a bad one fails at once
        grid: list[float] | None = _grid_around(level) if isinstance(level, CalibrationFile) else None
        for setting in settings:
            for count in counts:
                played: list = list(reversed(grid)) if grid else [level]
                for at_skill in played:  # a calibration's search is labelled by its lowest grid skill
                    at = setup_from_dict(setup.to_dict() | setting | {"skill": f"{at_skill:g}" if grid else at_skill,
                                                                      "players": count})
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
                searches.append((level, grid, at, setting, ends))
    found: list[TuneResult] = []
    for level, grid, at, setting, ends in searches:
        if grid is None:
            found.append(_search(at, knob, float(target), ends, setting, seed, batch, max_games, flat, play,
                                 progress))
            continue
        assert isinstance(level, CalibrationFile) and knob is not None and ends is not None
        points = _GridPoints(at, knob, grid, float(target), seed, batch, max_games, play, progress)
        answers = {}
        for where, end in (("low", level.low), ("estimate", level.skill), ("high", level.high)):
            name = f"{_short(level.path)} {where} {end:.2f}"
            measure_at: Callable[[int], Point] = functools.partial(points.at, skill=end)
            answers[where] = _search(at, knob, float(target), ends, setting, seed, batch, max_games, flat, play,
                                     progress, measure_at=measure_at, level=name)
            answers[where].skill = end
            found.append(answers[where])
        recommendation = _recommend(level, answers, points, float(target), band, setting, at)
        if recommendations is not None:
            recommendations.append(recommendation)
    return found


def _short(path: str) -> str:
    from horde.files import shown

    return shown(os.path.basename(path) or path)


def _grid_around(calibration: CalibrationFile) -> list[float]:
    """The skills of the calibration's grid from the last at or below its interval's low end to
    the first at or above its high end."""
    grid = sorted(calibration.grid)
    below = max((g for g in grid if g <= calibration.low + 1e-9), default=grid[0])
    above = min((g for g in grid if g >= calibration.high - 1e-9), default=grid[-1])
    chosen = [g for g in grid if below <= g <= above]
    return chosen if len(chosen) >= 2 else (chosen * 2 if chosen else grid[:2])


class _GridPoints:
    """The values of one setting and player count measured at the grid skills of a calibration,
    shared by the searches at its low end, estimate and high end: the point at a skill between
    two grid skills is read on the straight line between theirs, as a point of as many games as
    would give its precision."""

    def __init__(self, setup: GameSetup, knob: str, grid: list[float], target: float, seed, batch: int,
                 max_games: int, play: Callable, progress) -> None:
        self.setup, self.knob, self.grid, self.target = setup, knob, sorted(set(grid)), target
        self.seed, self.batch, self.max_games, self.play, self.progress = seed, batch, max_games, play, progress
        self.points: dict[tuple[int, float], tuple[Point, list[int]]] = {}

    def point(self, value: int, skill: float) -> Point:
        """The point of ``value`` at the grid skill ``skill``, with at least one batch played."""
        if (value, skill) not in self.points:
            self.points[value, skill] = (Point(value, label_of(self.setup, self.knob, value)), [0])
            self.more(value, skill)
        return self.points[value, skill][0]

    def more(self, value: int, skill: float) -> bool:
        """One more batch of ``value`` at the grid skill ``skill``; False at ``max_games``."""
        point, number = self.points[value, skill]
        if point.games >= self.max_games:
            return False
        at = setup_at(setup_from_dict(self.setup.to_dict() | {"skill": f"{skill:g}"}), self.knob, value)
        point.add(self.play(at, (self.seed, number[0]), min(self.batch, self.max_games - point.games)))
        number[0] += 1
        return True

    def between(self, skill: float) -> tuple[float, float, float]:
        grid = self.grid
        k = max(0, min(len(grid) - 2, max(i for i, g in enumerate(grid) if g <= skill + 1e-9) if skill >= grid[0]
                       else 0))
        t = min(1.0, max(0.0, (skill - grid[k]) / (grid[k + 1] - grid[k])))
        return grid[k], grid[k + 1], t

    def read(self, value: int, skill: float) -> Point:
        """The point of ``value`` at ``skill`` from the two grid skills around it."""
        below, above, t = self.between(skill)
        a, b = self.point(value, below), self.point(value, above)
        if t == 0 or t == 1:
            source = a if t == 0 else b
            point = Point(value, source.label, source.games, source.wins, source.stalls, source.losses)
        else:
            games = 1 / ((1 - t) ** 2 / a.games + t ** 2 / b.games)  # the mixture's precision, as games

            def mixed(x: int, y: int) -> int:
                return round(((1 - t) * x / a.games + t * y / b.games) * games)
            point = Point(value, a.label, round(games), mixed(a.wins, b.wins), mixed(a.stalls, b.stalls),
                          mixed(a.losses, b.losses))
        low, high = wilson(point.wins, point.games, Z99)
        point.decided = 1 if low > self.target else -1 if high < self.target else 0
        return point

    def at(self, value: int, skill: float) -> Point:
        """The point of ``value`` at ``skill``, both grid skills around it played in batches until
        its Wilson 99% interval lies on one side of the target or both have ``max_games``."""
        below, above, t = self.between(skill)
        while True:
            point = self.read(value, skill)
            if point.decided:
                break
            # the grid skill whose games narrow the mixture most: the one weighing more for its games
            order = sorted(((t if g == above else 1 - t) / max(1, self.point(value, g).games), g)
                           for g in {below, above} if (g == above and t > 0) or (g == below and t < 1))
            if not any(self.more(value, g) for _, g in reversed(order)):
                break
        if self.progress is not None:
            low, high = point.interval
            self.progress(f"skill {skill:.2f}, {self.setup.players} players: {self.knob} {point.label}: team "
                          f"{point.rate:.1%} (Wilson 95% {low:.1%} - {high:.1%}) read between the grid skills "
                          f"{below:g} and {above:g}")
        return point

    def settle(self, value: int, skill: float, band: float) -> None:
        """Play ``value`` at the grid skill ``skill`` until its Wilson 99% interval lies inside the
        band around the target, or wholly outside it, or it has ``max_games``."""
        while True:
            point = self.point(value, skill)
            low, high = wilson(point.wins, point.games, Z99)
            inside = self.target - band <= low and high <= self.target + band
            outside = high < self.target - band or low > self.target + band
            if inside or outside or not self.more(value, skill):
                return


def _recommend(calibration: CalibrationFile, answers: dict[str, TuneResult], points: _GridPoints, target: float,
               band: float, setting: dict, setup: GameSetup) -> Recommendation:
    values = [p.value for r in answers.values() for p in (r.flat or [r.point]) if p.value is not None]
    low, high = min(values), max(values)
    grid = points.grid
    posterior = [(s, w) for s, w in calibration.posterior() if grid[0] - 1e-9 <= s <= grid[-1] + 1e-9]
    total = sum(w for _, w in posterior) or 1.0
    chances = []
    for value in range(low, high + 1):
        for skill in grid:
            points.settle(value, skill, band)
        chance = sum(w for s, w in posterior if abs(points.read(value, s).rate - target) <= band + 1e-12) / total
        chances.append((value, label_of(setup, points.knob, value), chance))
    return Recommendation(calibration, setup.players, points.knob, target, band, setting, answers, low, high,
                          chances, tuple(grid), sum(point.games for point, _ in points.points.values()))


def _search(setup: GameSetup, knob: str | None, target: float, ends: tuple[int, int] | None, setting: dict, seed,
            batch: int, max_games: int, flat: bool, play: Callable, progress,
            measure_at: Callable[[int], Point] | None = None, level: str | None = None) -> TuneResult:
    measured: dict[int | None, Point] = {}
    played = 0
    level = level or level_of(setup)
    where = ", ".join([f"{k} {_plain(v)}" for k, v in setting.items()])

    def measure(value: int | None) -> Point:
        nonlocal played
        if value in measured:
            return measured[value]
        if measure_at is not None and value is not None:
            measured[value] = measure_at(value)
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
    if measure_at is not None:
        played = 0  # the grid's games are counted once, by the recommendation
    return TuneResult(setup.players, knob, target, best, reached, tried, played, level, setting, holding, setup)


def in_band(results: Iterable[TuneResult], target: float, band: float) -> list[tuple[TuneResult, Point]]:
    """Every setting measured whose team win rate lies within ``band`` of ``target``: a whole
    setting a group can play (level, players, the varied knobs and the searched knob's value);
    not the points read between two grid skills for a calibrated skill."""
    return [(result, point) for result in results for point in result.tried
            if result.skill is None and abs(point.rate - target) <= band + 1e-12]
