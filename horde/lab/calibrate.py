"""``horde calibrate``: the team skill that best explains a group's own games.

A group keeps a small CSV file of its real games (``read_games``: one row a game, its result and
the knobs it was played with). For each distinct setup among them, games are simulated at a grid
of skills along the ladder (``horde.team.skill``), every grid point on the same seeds (common
random numbers, so the curve is smooth), and a logistic curve of the team win rate against the
skill is fitted to them by maximum likelihood. The skill that makes the group's wins and losses
most likely is the answer, with the likelihood-ratio 95% interval (every skill whose log
likelihood is within 1.92 of the best) and a warning when the games are too few to tell levels
apart. ``write_calibration`` writes the answer as a TOML file that the ``skill`` knob reads.
Imports neither pandas nor matplotlib.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from horde.errors import HordeError
from horde.files import read_text, write_file
from horde.lab.tune import play_winners
from horde.play import prepare
from horde.setup import FIELD_NAMES, KNOBS, SKILL_LEVELS, GameSetup, SetupError, setup_from_dict

CHI2_95 = 3.841458820694124  # the 95% point of chi-square with one degree of freedom
GRID = (0.0, 0.5, 1.0, 1.5, 2.0)  # novice to expert: the skills simulated
FEW_GAMES = 20  # fewer games than this: too few to tell (a warning)
WIDE = 0.5  # an interval wider than this share of the range searched: too wide to tell levels apart
RESULTS = {"won": True, "win": True, "yes": True, "lost": False, "loss": False, "no": False}
COLUMN_NAMES = {"horde": "horde_deck", "team": "team_decks"}  # the command line's names, as columns


class CalibrationError(HordeError):
    """A games file that can't be read as written."""


@dataclass(frozen=True)
class Game:
    """One real game: its setup, whether the team won, and the turn it ended (None: not kept)."""

    setup: GameSetup
    won: bool
    turn: int | None
    line: int


def read_games(path: str) -> list[Game]:
    """The games of a group's CSV file. Its first line names the columns: ``result`` (won or
    lost) and ``players`` are required; ``turn`` (the turn the game ended) is optional; every
    other column is a knob by its name (``horde`` and ``team`` for the Horde deck and the team
    decks, as on the command line; team decks comma-separated in one quoted cell); an empty cell
    leaves the knob at its default. Raises CalibrationError naming the file and line."""
    text = read_text(path, "games file", CalibrationError)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise CalibrationError("expected a first line naming the columns, like result,players,horde,turn", path, 1)
    header = [COLUMN_NAMES.get(cell.strip().lower(), cell.strip().lower().replace("-", "_")) for cell in rows[0]]
    for name in ("result", "players"):
        if name not in header:
            raise CalibrationError(f"no '{name}' column: expected columns result, players, and knobs", path, 1)
    for name in header:
        if name not in ("result", "turn") and name not in KNOBS:
            raise CalibrationError(f"column {name!r} is neither result, turn nor a knob (knobs: "
                                   f"{', '.join(FIELD_NAMES)})", path, 1)
        if name in ("skill", "policy", "policy_params"):
            raise CalibrationError(f"column {name!r}: the team's play is what calibration finds; leave it out", path, 1)
    games: list[Game] = []
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise CalibrationError(f"{len(row)} cells, expected {len(header)} (one per column)", path, number)
        cells = {name: cell.strip() for name, cell in zip(header, row, strict=True)}
        result = RESULTS.get(cells.pop("result").lower())
        if result is None:
            raise CalibrationError("result: expected won or lost", path, number)
        turn_text = cells.pop("turn", "")
        turn = None
        if turn_text:
            if not turn_text.isdigit() or not 1 <= int(turn_text) <= KNOBS["max_turns"].high:  # type: ignore[operator]
                raise CalibrationError(f"turn {turn_text!r}: expected a whole number from 1 to "
                                       f"{KNOBS['max_turns'].high}", path, number)
            turn = int(turn_text)
        knobs = {name: value for name, value in cells.items() if value}
        try:
            setup = setup_from_dict(knobs, where=f"{path}:{number}")
        except SetupError as error:
            raise CalibrationError(error.message) from None
        games.append(Game(setup, result, turn, number))
    if not games:
        raise CalibrationError("no games: expected one line a game after the column names", path)
    return games


@dataclass
class Curve:
    """The team win rate against the skill for one setup, ``1 / (1 + exp(-(a + b * skill)))``,
    fitted to ``simulated``: (skill, games, team wins) at each grid point."""

    a: float
    b: float
    simulated: list[tuple[float, int, int]] = field(default_factory=list)

    def rate(self, skill: float) -> float:
        return 1 / (1 + math.exp(-(self.a + self.b * skill)))


def fit_curve(simulated: Sequence[tuple[float, int, int]]) -> Curve:
    """The logistic curve of maximum likelihood through (skill, games, wins) points, by Newton's
    method; half a win and half a loss are added at every point so that a point won (or lost)
    every time keeps the fit finite."""
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for skill, games, wins in simulated:
            p = 1 / (1 + math.exp(-(a + b * skill)))
            n, k = games + 1, wins + 0.5
            ga += k - n * p
            gb += (k - n * p) * skill
            w = n * p * (1 - p)
            haa += w
            hab += w * skill
            hbb += w * skill * skill
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return Curve(a, b, list(simulated))


@dataclass
class Calibration:
    """The answer: the skill of maximum likelihood, its likelihood-ratio 95% interval, the range
    searched, the games it explains, the fitted curve of each setup, and warnings."""

    skill: float
    low: float
    high: float
    searched: tuple[float, float]
    games: int
    wins: int
    curves: list[tuple[GameSetup, Curve]]
    warnings: list[str] = field(default_factory=list)

    def level(self) -> str:
        """The skill as the ladder names it: a level, or between which two."""
        below = min(int(math.floor(self.skill)), len(SKILL_LEVELS) - 1)
        fraction = self.skill - below
        if fraction < 0.005:
            return SKILL_LEVELS[below]
        return f"between {SKILL_LEVELS[below]} and {SKILL_LEVELS[below + 1]}"


def log_likelihood(games: Sequence[Game], curves: dict[GameSetup, Curve], skill: float) -> float:
    total = 0.0
    for game in games:
        p = min(max(curves[game.setup].rate(skill), 1e-12), 1 - 1e-12)
        total += math.log(p if game.won else 1 - p)
    return total


def calibrate(games: Sequence[Game], grid: Sequence[float] = GRID, simulated: int = 400, seed: int = 1,
              workers: int | None = None, play: Callable | None = None,
              progress: Callable[[str], object] | None = None) -> Calibration:
    """The skill that best explains ``games``: ``simulated`` games of each distinct setup at each
    skill of ``grid`` (game ``i`` with the seed ``((seed, "calibrate"), i)`` at every skill), a
    logistic curve fitted per setup, the log likelihood of the group's results maximised over the
    grid's range in steps of 0.01, and the likelihood-ratio 95% interval. ``play(setup, seed,
    games)`` returns winners (default: ``play_winners`` on ``workers`` processes)."""
    if not games:
        raise SetupError("no games to calibrate from")
    grid = sorted(set(float(g) for g in grid))
    if len(grid) < 2 or grid[0] < 0 or grid[-1] > len(SKILL_LEVELS) - 1:
        raise SetupError(f"grid {grid}: expected at least two skills from 0 to {len(SKILL_LEVELS) - 1}")
    if play is None:
        def play(at: GameSetup, batch_seed, count: int) -> list[str]:
            return play_winners(at, batch_seed, count, workers=workers)
        for setup in {g.setup for g in games}:
            prepare(setup)  # every setup checked before any game is played
    curves: dict[GameSetup, Curve] = {}
    for setup in dict.fromkeys(g.setup for g in games):
        points = []
        for skill in grid:
            at = setup_from_dict(setup.to_dict() | {"skill": _skill_text(skill)})
            winners = play(at, (seed, "calibrate"), simulated)
            points.append((skill, len(winners), sum(1 for w in winners if w == "team")))
            if progress is not None:
                progress(f"{setup.players} players, Horde deck {setup.horde_deck}: skill {skill:g}: team "
                         f"{points[-1][2] / max(1, points[-1][1]):.1%} in {points[-1][1]} games")
        curves[setup] = fit_curve(points)
    steps = round((grid[-1] - grid[0]) / 0.01)
    skills = [round(grid[0] + i * 0.01, 2) for i in range(steps + 1)]
    likelihoods = [log_likelihood(games, curves, s) for s in skills]
    best = max(range(len(skills)), key=lambda i: likelihoods[i])
    inside = [s for s, ll in zip(skills, likelihoods, strict=True) if 2 * (likelihoods[best] - ll) <= CHI2_95]
    low, high = min(inside), max(inside)
    wins = sum(g.won for g in games)
    warnings = []
    if len(games) < FEW_GAMES:
        warnings.append(f"only {len(games)} games: at least {FEW_GAMES} are needed to tell the levels apart")
    if high - low > WIDE * (grid[-1] - grid[0]):
        warnings.append(f"the interval {low:.2f} to {high:.2f} covers more than {WIDE:.0%} of the range searched: "
                        "too few games (or too little difference between the levels) to tell")
    if wins in (0, len(games)):
        warnings.append(f"the team {'won' if wins else 'lost'} every game: the skill is only bounded on one side")
    return Calibration(skills[best], low, high, (grid[0], grid[-1]), len(games), wins,
                       [(setup, curve) for setup, curve in curves.items()], warnings)


def _skill_text(skill: float) -> str:
    return f"{skill:g}"


def calibration_text(result: Calibration, source: str) -> str:
    """The calibration as the TOML file the ``skill`` knob reads (``skill = ...``)."""
    lines = [f"# The team skill that best explains the games of {source}, written by horde calibrate.",
             "# Give this file as the skill: --skill FILE, or skill = \"FILE\" in an experiment.",
             f"skill = {result.skill:.2f}",
             f"skill_low = {result.low:.2f}  # the likelihood-ratio 95% interval",
             f"skill_high = {result.high:.2f}",
             f"level = \"{result.level()}\"",
             f"games = {result.games}",
             f"team_wins = {result.wins}",
             f"searched = [{result.searched[0]:g}, {result.searched[1]:g}]"]
    lines += [f"warning = {_toml_string(w)}" for w in result.warnings[:1]]
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_calibration(result: Calibration, source: str, path: str) -> None:
    write_file(path, calibration_text(result, source))
