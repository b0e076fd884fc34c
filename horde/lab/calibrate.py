"""``horde calibrate``: the team skill that best explains a group's own games, from everything
each game records.

A group keeps a small CSV file of its real games (``read_games``: one line a game, its result, the
knobs it was played with and, where the group noted them, how far it went: the turn it ended, the
cards left in the Horde's library, the team's life at the end and at its lowest). For each
distinct setup among them, games are simulated at each skill of a grid along the ladder
(``horde.team.skill``), game ``i`` on the same seed at every skill (common random numbers).

The likelihood of a game at a skill (``log_likelihood``, which takes per-game ``Observation``s,
whatever recorded them: a CSV line, a simulated game, a game's event log) is the chance of its
result times the density of what it recorded given that result. The chance of each result is
the share of the simulated games with that result, straight between two skills of the grid. The
recorded numbers are read on the scale of the simulated games with the same result (each one's
normal score: the normal quantile of its rank among them), where they are taken to be normal, with
a mean that moves with the skill (each skill's mean, straight between two) and a covariance
shared by every skill: a game that went further than the simulated games of one skill usually
go is evidence for a stronger one. A number a game did not record is left out of its density (a
margin of the normal), so a file may hold any mix of games with and without them.

The skill of maximum likelihood (in steps of 0.01) is the answer, with the likelihood-ratio 95%
interval (every skill whose log likelihood is within 1.92 of the best). The simulated games are
finite, so the answer carries their own error: the fit is repeated on bootstrap resamples of the
simulated games' seeds, and the interval is widened by that error. The games are played in
batches, doubling, until that error is small beside the interval (``PRECISION``) or the most
games a skill are played; every game is kept in the games cache (``horde.lab.cache``), so a
second run plays none. ``write_calibration`` writes the answer as a TOML file that the ``skill``
knob reads, with the likelihood at every skill for ``horde tune``. Imports neither pandas nor
matplotlib.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from horde.errors import HordeError, did_you_mean
from horde.files import read_text, shown, write_file
from horde.lab.cache import TRACK_TURNS, Record, play_records
from horde.limits import quoted, whole_number
from horde.play import prepare
from horde.setup import KNOBS, SKILL_LEVELS, GameSetup, SetupError, setup_from_dict

CHI2_95 = 3.841458820694124  # the 95% point of chi-square with one degree of freedom
Z95 = 1.959963984540054
GRID = (0.0, 0.5, 1.0, 1.5, 2.0)  # novice to expert: the skills simulated
FIRST_GAMES = 100  # games a skill and setup in the first batch; each batch doubles them
SIMULATED_MAX = 2000  # the most games a skill and setup (--games)
BOOTSTRAPS = 40  # resamples of the simulated games that measure their own error
PRECISION = 0.3  # stop once the simulation's own error (1.96 sd) is below this share of the interval's half-width
PRECISION_FLOOR = 0.02  # ... or below this, in skill
STEP = 0.01  # the steps of skill the likelihood is read at
FEW_GAMES = 20  # fewer games than this: too few to tell (a warning)
WIDE = 0.5  # an interval wider than this share of the range searched: too wide to tell levels apart
# The limits of a games file (docs/limits.md): its games, its distinct setups (each is simulated
# at every skill of the grid) and the characters of one cell.
GAMES_MAX = 10_000
SETUPS_MAX = 50
CELL_MAX = 4_096
GRID_MAX = 13  # skills in --grid (0 to 3 by quarters)

# A result as a group writes it -> as the fit reads it; "abandoned" games are kept but not fitted.
RESULTS = {"won": "won", "win": "won", "yes": "won", "lost": "lost", "loss": "lost", "no": "lost",
           "draw": "draw", "stall": "draw", "stalled": "draw", "abandoned": "abandoned"}
# What a game records besides its result, and which of it each result's likelihood reads: a
# won game's turn and life (at the end and at its lowest), a lost game's turn and the cards
# left in the Horde's library. (A lost game's life is 0 or less and a won game's library empty.)
OBSERVED = ("turn", "horde_left", "team_life", "life_min")
TRACKS = ("life_track", "horde_track")  # the team's life and the Horde's library after each of the Horde's turns
CHECKPOINTS = (2, 4, 6)  # the Horde turns after which the likelihood reads the tracks
TRACKED = tuple(f"{kind}_h{turn}" for turn in CHECKPOINTS for kind in ("life", "horde"))
FEATURES = {"won": ("turn", "team_life", "life_min", *TRACKED), "lost": ("turn", "horde_left", *TRACKED),
            "draw": ()}
TRACK_MAX = 500  # entries of one track (a game of 1,000 turns has 500 Horde turns)
NOTES = ("date", "notes", "note", "seed")  # columns kept for the record, never fitted
# The command line's names, as columns; and a results folder's names of what a game recorded (the
# table's games-full.csv writes them).
COLUMN_NAMES = {"horde": "horde_deck", "team": "team_decks", "horde_cards_left": "horde_left",
                "team_life_min": "life_min", "turns": "turn"}
NOT_COLUMNS = ("skill", "policy", "policy_params")  # the team's play is what calibration finds
WINNERS = {"team": "won", "horde": "lost", "stall": "draw", "aborted": "draw"}  # a simulated game's result
NUMBER_MAX = 1_000_000_000  # |a recorded number|


class CalibrationError(HordeError):
    """A games file that can't be read as written."""


@dataclass(frozen=True)
class Observation:
    """What is known of one game: its result (won, lost, draw or abandoned) and, where it was
    recorded, the turn it ended (both sides' turns counted from 1, H2), the cards left in the
    Horde's library, and the team's life at the end and at its lowest."""

    result: str
    turn: int | None = None
    horde_left: int | None = None
    team_life: int | None = None
    life_min: int | None = None
    life_track: tuple[int, ...] = ()  # the team's life at the end of each of the Horde's turns
    horde_track: tuple[int, ...] = ()  # the cards in the Horde's library at the end of each of the Horde's turns

    def value(self, name: str) -> int | None:
        """A number the likelihood reads: a column's, or a track's at a checkpoint (``life_h4``:
        the team's life after the Horde's 4th turn; None when the game ended before it)."""
        if name in OBSERVED:
            return getattr(self, name)
        kind, _, turn = name.rpartition("_h")
        track = self.life_track if kind == "life" else self.horde_track
        return track[int(turn) - 1] if len(track) >= int(turn) else None

    def recorded(self) -> tuple[str, ...]:
        """The numbers its result's likelihood reads that this game recorded."""
        return tuple(name for name in FEATURES.get(self.result, ()) if self.value(name) is not None)


def observation_of(record: Record) -> Observation:
    """A simulated game as a group would have recorded it, every number noted."""
    return Observation(WINNERS[record.winner], record.turn, record.horde_left, record.team_life, record.life_min,
                       record.life_track, record.horde_track)


def observation_from_events(events: Sequence[dict], start_life: int | None = None) -> Observation:
    """A game's Observation from its event log (``horde play --json``'s events, docs/events.md):
    the result and turn of its ``game_over``, the Horde's library and the team's life then, the
    lowest life any event left the team at, and both after each of the Horde's turns (the last
    ``team_life`` and ``library`` an event told before the next turn began; the team's life is
    ``start_life`` until an event tells it, and a track stops where neither is known)."""
    over = next((e for e in reversed(events) if e.get("event") == "game_over"), None)
    if over is None:
        raise ValueError("the event log has no game_over event: the game did not end")
    life = start_life
    library: int | None = None
    lives: list[int] = [] if start_life is None else [start_life]
    life_track: list[int] = []
    horde_track: list[int] = []
    horde_turn = False

    def close_turn() -> None:
        if horde_turn and len(life_track) < TRACK_TURNS and life is not None and library is not None:
            life_track.append(life)
            horde_track.append(library)
    for event in events:
        if event.get("event") in ("turn_begins", "game_over"):
            close_turn()
            horde_turn = event.get("side") == "horde" and event.get("event") == "turn_begins"
        if isinstance(event.get("team_life"), int):
            life = event["team_life"]
            lives.append(life)
        for field_name in ("library", "horde_library"):
            if isinstance(event.get(field_name), int):
                library = event[field_name]
    return Observation(WINNERS.get(str(over["winner"]), "draw"), over["turn"], over.get("horde_library"),
                       over.get("team_life"), min(lives) if lives else over.get("team_life"), tuple(life_track),
                       tuple(horde_track))


@dataclass(frozen=True)
class Game:
    """One real game: its setup, what it recorded, and its line in the games file."""

    setup: GameSetup
    observation: Observation
    line: int

    @property
    def won(self) -> bool:
        return self.observation.result == "won"


# ---------------------------------------------------------------- the games file


def _columns() -> list[str]:
    """Every column a games file may have, as the docs name them."""
    knobs = [name for name in KNOBS if name not in (*NOT_COLUMNS, "players", "horde_deck", "team_decks")]
    return ["result", "players", "horde", "team", *OBSERVED, *TRACKS, *NOTES, *knobs]


def _delimiter(first: str) -> str:
    """The delimiter of a games file, from its first line: a comma, else a semicolon (as a
    spreadsheet of a comma-decimal locale saves CSV), else a tab."""
    for mark in (",", ";", "\t"):
        if mark in first:
            return mark
    return ","


def _number(name: str, text: str, path: str, line: int, low: int = -NUMBER_MAX) -> int:
    try:
        return whole_number(text, low, NUMBER_MAX if name != "turn" else KNOBS["max_turns"].high or NUMBER_MAX)
    except ValueError as problem:
        raise CalibrationError(f"{name} {quoted(text)}: {problem}".replace(f", got {quoted(text)}", ""), path,
                               line) from None


def read_games(path: str, house: dict | None = None, check: bool = True) -> list[Game]:
    """The games of a group's CSV file. Its first line names the columns: ``result`` (won, lost,
    draw or abandoned) and ``players`` are required; ``turn``, ``horde_left``, ``team_life`` and
    ``life_min`` (how far the game went) are optional, and so are ``date``, ``notes`` and ``seed``
    (kept for the record); every other column is a knob by its name (``horde`` and ``team`` for
    the Horde deck and the team decks, as on the command line; team decks comma-separated in one
    quoted cell); an empty cell leaves the knob at the house rules' value (``house``, as
    ``make_setup`` takes them), else the preset's. With ``check``, every distinct setup is
    prepared (its decks read). A file named ``*.jsonl`` is read as ``horde table``'s games log
    (``read_event_log``). Raises CalibrationError naming the file and line."""
    if path.lower().endswith(".jsonl"):
        return _checked(read_event_log(read_text(path, "table's games log", CalibrationError), path), path, check)
    text = read_text(path, "games file", CalibrationError)
    first = text.lstrip("\ufeff").split("\n", 1)[0].split("\r", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=_delimiter(first))
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
            if len(rows) > GAMES_MAX + 1:
                raise CalibrationError(f"more than {GAMES_MAX:,} games: a games file holds at most {GAMES_MAX:,} "
                                       "(docs/limits.md)", path, reader.line_num)
    except csv.Error as problem:
        raise CalibrationError(f"not CSV as written ({problem}); a cell holds at most {CELL_MAX:,} characters",
                               path, reader.line_num) from None
    for number, row in rows:
        for cell in row:
            if len(cell) > CELL_MAX:
                raise CalibrationError(f"a cell of {len(cell):,} characters: a cell holds at most {CELL_MAX:,} "
                                       "(docs/limits.md)", path, number)
    if not rows or not any(cell.strip() for cell in rows[0][1]):
        raise CalibrationError("expected a first line naming the columns, like result,players,horde,turn", path, 1)
    header = _header(rows[0][1], path, rows[0][0])
    games: list[Game] = []
    for number, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise CalibrationError(f"{len(row)} cells, expected {len(header)} (one per column)", path, number)
        cells = {name: cell.strip() for name, cell in zip(header, row, strict=True)}
        observation = _observation(cells, path, number)
        for name in NOTES:
            cells.pop(name, None)
        knobs = dict(house or {}) | {name: value for name, value in cells.items() if value}
        if "policy" in knobs or "policy_params" in knobs:  # the house's policy: what calibration finds
            knobs.pop("policy", None)
            knobs.pop("policy_params", None)
        knobs.pop("skill", None)
        try:
            setup = setup_from_dict(knobs, where=f"{shown(path)}:{number}")
        except SetupError as error:
            raise CalibrationError(error.message) from None
        games.append(Game(setup, observation, number))
    if not games:
        raise CalibrationError("no games: expected one line a game after the column names", path)
    return _checked(games, path, check)


def _checked(games: list[Game], path: str, check: bool) -> list[Game]:
    """``games``, once their setups are within the limits and (with ``check``) each prepared."""
    first_line: dict[GameSetup, int] = {}
    for game in games:
        if game.setup not in first_line:
            first_line[game.setup] = game.line
            if len(first_line) > SETUPS_MAX:
                raise CalibrationError(f"a {len(first_line)}th distinct setup: a games file may name at most "
                                       f"{SETUPS_MAX} (each is simulated at every skill of the grid; docs/limits.md)",
                                       path, game.line)
    if check:
        for setup, line in first_line.items():
            try:
                prepare(setup)  # a bad deck or boss named on this line, before any game is played
            except HordeError as error:
                raise CalibrationError(error.one_line(), path, line) from None
    return games


# A table game's winner -> its result (an aborted game, H15, or one the players ended with no
# winner is kept, not fitted).
TABLE_RESULTS = {"team": "won", "horde": "lost", "stall": "draw"}


def read_event_log(text: str, path: str) -> list[Game]:
    """The games of ``horde table``'s ``games.jsonl``: one JSON object a line, each a finished
    game whole (``record``: its setup and seed; ``result``; ``events``: its event log,
    docs/events.md). Each game's Observation is read from its events (``observation_from_events``):
    its result and turn, the Horde's library and the team's life at the end and at its lowest,
    and both after each of the Horde's turns; its setup is the record's, less the team's play
    (what calibration finds). Raises CalibrationError naming the file and line."""
    games: list[Game] = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        if not line.strip():
            continue
        if len(games) >= GAMES_MAX:
            raise CalibrationError(f"more than {GAMES_MAX:,} games: a games file holds at most {GAMES_MAX:,} "
                                   "(docs/limits.md)", path, number)
        try:
            data = json.loads(line)
            knobs = {name: value for name, value in data["record"]["setup"].items() if name not in NOT_COLUMNS}
            events = data["events"]
            winner = str(data["result"]["winner"])
            if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
                raise TypeError
        except (ValueError, KeyError, TypeError, AttributeError):
            raise CalibrationError("expected a finished game of horde table's games.jsonl: a JSON object with its "
                                   "record (and the record's setup), result and events", path, number) from None
        try:
            setup = setup_from_dict(knobs, where=f"{shown(path)}:{number}")  # every knob: no house rule
            seen = observation_from_events(events, start_life=setup.start_life)
        except SetupError as error:
            raise CalibrationError(error.message) from None
        except (ValueError, TypeError) as problem:
            raise CalibrationError(f"its events: {problem}", path, number) from None
        games.append(Game(setup, replace(seen, result=TABLE_RESULTS.get(winner, "abandoned")), number))
    if not games:
        raise CalibrationError("no games: expected one finished game a line", path)
    return games


def _header(cells: list[str], path: str, line: int) -> list[str]:
    """The columns of a games file's first line, as the fit names them."""
    allowed = _columns()
    header: list[str] = []
    for cell in cells:
        name = cell.strip().lower().replace("-", "_").replace(" ", "_")
        if name in NOT_COLUMNS:
            raise CalibrationError(f"column {quoted(cell.strip())}: the team's play is what calibration finds; "
                                   "leave it out", path, line)
        if name not in allowed and name not in COLUMN_NAMES and name not in ("horde_deck", "team_decks"):
            raise CalibrationError(f"unknown column {quoted(cell.strip())}: {did_you_mean(name, allowed)}the columns "
                                   f"are {', '.join(allowed)}", path, line)
        name = COLUMN_NAMES.get(name, name)
        if name in header:
            raise CalibrationError(f"column {quoted(cell.strip())} is named twice", path, line)
        header.append(name)
    for name in ("result", "players"):
        if name not in header:
            raise CalibrationError(f"no '{name}' column: expected columns result, players, and knobs (like "
                                   "result,players,horde,turn)", path, line)
    return header


def _observation(cells: dict[str, str], path: str, line: int) -> Observation:
    """The result and the recorded numbers of a line's cells (popped from ``cells``)."""
    given = cells.pop("result")
    result = RESULTS.get(given.lower())
    if result is None:
        spellings = ", ".join(RESULTS)
        raise CalibrationError(f"result {quoted(given)}: {did_you_mean(given.lower(), RESULTS)}expected won, lost, "
                               f"draw or abandoned (accepted: {spellings})", path, line)
    numbers: dict[str, int | None] = {}
    for name in OBSERVED:
        text = cells.pop(name, "")
        numbers[name] = _number(name, text, path, line, 1 if name == "turn" else 0 if name == "horde_left"
                                else -NUMBER_MAX) if text else None
    tracks: dict[str, tuple[int, ...]] = {}
    for name in TRACKS:
        entries = cells.pop(name, "").replace("/", " ").split()
        if len(entries) > TRACK_MAX:
            raise CalibrationError(f"{name}: {len(entries):,} numbers, expected at most {TRACK_MAX} (one after each of "
                                   "the Horde's turns)", path, line)
        tracks[name] = tuple(_number(name, e, path, line, 0 if name == "horde_track" else -NUMBER_MAX)
                             for e in entries)
    return Observation(result, numbers["turn"], numbers["horde_left"], numbers["team_life"], numbers["life_min"],
                       tracks["life_track"], tracks["horde_track"])


# ---------------------------------------------------------------- the likelihood


def _number_or_nan(value: int | None) -> float:
    return math.nan if value is None else float(value)


def _normal_scores(pooled: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each of ``values`` as the normal quantile of its mid-rank among ``pooled`` (one feature;
    NaN, a number not recorded, is left out of the ranks and stays NaN)."""
    ordered = np.sort(pooled[~np.isnan(pooled)])
    below = np.searchsorted(ordered, values, side="left")
    upto = np.searchsorted(ordered, values, side="right")
    share = (below + 0.5 * (upto - below) + 0.5) / (len(ordered) + 1)
    inverse = statistics.NormalDist().inv_cdf
    unique, where = np.unique(share, return_inverse=True)  # whole numbers: few distinct shares
    scores = np.array([inverse(float(p)) for p in unique])[where.ravel()]
    return np.where(np.isnan(values), math.nan, scores)


@dataclass
class _Result:
    """One result's part of a setup's model: the simulated games with it, as normal scores (NaN
    where a game did not reach a checkpoint of its tracks)."""

    pooled: np.ndarray  # games x features (raw numbers), every skill's games together
    scores: list[np.ndarray]  # per skill: games with this result x features (normal scores)
    index: list[np.ndarray]  # per skill: which of the skill's games (their seed's place) they are
    covariance: np.ndarray  # features x features, within a skill, shared by every skill


def _column_means(values: np.ndarray) -> np.ndarray:
    """The mean of each column over the numbers it holds (NaN: not recorded); NaN for a column
    that holds none (a checkpoint no game reached), without numpy's warning of an empty slice."""
    present = ~np.isnan(values)
    counts = present.sum(axis=0)
    sums = np.where(present, values, 0.0).sum(axis=0)
    return np.where(counts > 0, sums / np.maximum(counts, 1), math.nan)


def _covariance(scores: list[np.ndarray]) -> np.ndarray:
    """The covariance of the features within a skill, each pair from the games that recorded
    both (less each skill's mean), made positive definite."""
    residuals = [s - _column_means(s) for s in scores if len(s)]
    r = np.vstack(residuals)
    present = ~np.isnan(r)
    filled = np.where(present, r, 0.0)
    pairs = present.T.astype(float) @ present.astype(float)
    covariance = (filled.T @ filled) / np.maximum(1.0, pairs - len(residuals))
    values, vectors = np.linalg.eigh((covariance + covariance.T) / 2)
    return (vectors * np.maximum(values, 0.01)) @ vectors.T


@dataclass
class SetupModel:
    """What the simulated games of one setup say about a game's chances at each skill of the grid:
    ``records[k][i]`` is game ``i`` at ``grid[k]`` (game ``i`` plays the same seed at every skill;
    a skill may have fewer games than another: the first ones)."""

    grid: tuple[float, ...]
    records: list[list[Record]]
    results: dict[str, _Result] = field(default_factory=dict)
    codes: list[np.ndarray] = field(default_factory=list)  # per skill: each game's result, 0 won, 1 lost, 2 drawn

    def __post_init__(self) -> None:
        if len(self.records) != len(self.grid) or any(not games for games in self.records):
            raise ValueError("every skill of the grid needs simulated games, at least one")
        outcomes = [[WINNERS[r.winner] for r in games] for games in self.records]
        self.codes = [np.array([("won", "lost", "draw").index(o) for o in per]) for per in outcomes]
        for result, names in FEATURES.items():
            if not names:
                continue
            rows = [[i for i, o in enumerate(per) if o == result] for per in outcomes]
            seen = [[observation_of(self.records[k][i]) for i in rows[k]] for k in range(len(self.grid))]
            raw = [np.array([[_number_or_nan(o.value(name)) for name in names] for o in per], dtype=float)
                   .reshape(-1, len(names)) for per in seen]
            pooled = np.vstack(raw)
            if len(pooled) < 2:
                continue
            scores = [np.column_stack([_normal_scores(pooled[:, j], r[:, j]) for j in range(len(names))])
                      if len(r) else r for r in raw]
            self.results[result] = _Result(pooled, scores, [np.array(r, dtype=int) for r in rows], _covariance(scores))

    @property
    def games(self) -> int:
        """The most games of any skill (the length of a bootstrap's weights)."""
        return max(len(games) for games in self.records)

    def outcome_counts(self, weights: np.ndarray | None = None) -> np.ndarray:
        """Per skill: the (weighted) simulated games won, lost and drawn (grid x 3)."""
        w = np.ones(self.games) if weights is None else weights
        return np.array([np.bincount(codes, weights=w[:len(codes)], minlength=3) for codes in self.codes])

    def means(self, result: str, weights: np.ndarray | None = None) -> np.ndarray:
        """Per skill: the mean normal scores of the simulated games with ``result`` (grid x
        features), each drawn toward the mean of every skill by one game's weight."""
        part = self.results[result]
        overall = np.nan_to_num(_column_means(np.vstack([s for s in part.scores if len(s)])))
        rows = []
        for scores, index in zip(part.scores, part.index, strict=True):
            if not len(index):
                rows.append(overall)
                continue
            w = np.ones(len(index)) if weights is None else weights[index]
            present = ~np.isnan(scores)
            weight = (w[:, None] * present).sum(axis=0)
            rows.append(((w[:, None] * np.where(present, scores, 0.0)).sum(axis=0) + overall) / (weight + 1))
        return np.array(rows)


def _between(grid: Sequence[float], skills: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each skill: the grid's step it lies in (k: between grid[k] and grid[k + 1]) and how far (0 to 1)."""
    g = np.asarray(grid)
    k = np.clip(np.searchsorted(g, skills, side="right") - 1, 0, len(g) - 2)
    return k, (skills - g[k]) / (g[k + 1] - g[k])


@dataclass
class Recorded:
    """A setup's games as its model reads them: how many of each result, and for each set of
    numbers recorded together, their count, the sum of their normal scores and the precision
    (inverse covariance) of those numbers: all the likelihood needs of them."""

    counts: np.ndarray  # won, lost, drawn
    groups: list[tuple[str, list[int], int, np.ndarray, np.ndarray]]  # (result, features, games, score sum, precision)


def recorded(observations: Sequence[Observation], model: SetupModel) -> Recorded:
    """``observations`` (games of the setup ``model`` simulates) prepared for ``log_likelihood``."""
    counts = np.array([sum(o.result == r for o in observations) for r in ("won", "lost", "draw")], dtype=float)
    groups = []
    for result, names in FEATURES.items():
        if result not in model.results:
            continue
        part = model.results[result]
        by_pattern: dict[tuple[str, ...], list[Observation]] = {}
        for o in observations:
            if o.result == result:
                pattern = o.recorded()
                if pattern:
                    by_pattern.setdefault(pattern, []).append(o)
        for pattern, group in by_pattern.items():
            columns = [names.index(name) for name in pattern]
            values = np.array([[o.value(name) for name in pattern] for o in group], dtype=float)
            z = np.column_stack([_normal_scores(part.pooled[:, j], values[:, n]) for n, j in enumerate(columns)])
            precision = np.linalg.inv(part.covariance[np.ix_(columns, columns)])
            groups.append((result, columns, len(group), z.sum(axis=0), precision))
    return Recorded(counts, groups)


def log_likelihood(observations: Sequence[Observation] | Recorded, model: SetupModel,
                   skills: Sequence[float] | np.ndarray,
                   weights: np.ndarray | None = None) -> np.ndarray:
    """The log likelihood (up to a constant) of the games ``observations`` of one setup at each
    of ``skills``, from the setup's simulated games (``weights``: how often each simulated seed
    counts, for a bootstrap). A game's likelihood is the chance of its result times the normal
    density of the normal scores of the numbers it recorded (those its result reads, section
    ``FEATURES``); an abandoned game counts for nothing. Any source of per-game observations
    will do: a games file, simulated games, event logs (``observation_from_events``); or the
    same games once ``recorded`` against the model, to read them again and again."""
    games = observations if isinstance(observations, Recorded) else recorded(observations, model)
    s = np.asarray(skills, dtype=float)
    k, t = _between(model.grid, s)
    counts = model.outcome_counts(weights)
    shares = (counts + 0.5) / (counts.sum(axis=1, keepdims=True) + 1.5)
    chance = (1 - t)[:, None] * shares[k] + t[:, None] * shares[k + 1]  # skills x (won, lost, draw)
    total = np.log(chance) @ games.counts
    means = {result: model.means(result, weights) for result in {g[0] for g in games.groups}}
    for result, columns, count, score_sum, precision in games.groups:
        mu = (1 - t)[:, None] * means[result][k][:, columns] + t[:, None] * means[result][k + 1][:, columns]
        # the sum over games of -(z - mu)' P (z - mu) / 2, less the part that doesn't depend on the skill
        total += mu @ precision @ score_sum - 0.5 * count * np.einsum("sf,fg,sg->s", mu, precision, mu)
    return total


@dataclass
class Fit:
    """The skill of maximum likelihood and its likelihood-ratio 95% interval, on the skills read."""

    skill: float
    low: float
    high: float
    profile: np.ndarray  # the log likelihood at each skill read, 0 at the best


def _fit(games: dict[GameSetup, Recorded], models: dict[GameSetup, SetupModel], skills: np.ndarray,
         weights: dict[GameSetup, np.ndarray] | None = None) -> Fit:
    total = np.zeros(len(skills))
    for setup, model in models.items():
        total += log_likelihood(games[setup], model, skills, None if weights is None else weights[setup])
    best = int(np.argmax(total))
    inside = skills[2 * (total[best] - total) <= CHI2_95 + 1e-9]
    return Fit(float(skills[best]), float(inside.min()), float(inside.max()), total - total[best])


# ---------------------------------------------------------------- the calibration


@dataclass
class SetupCurve:
    """One setup's simulated games: its label (the knobs that set it apart), and per skill of
    the grid the games and the team's wins."""

    setup: GameSetup
    label: str
    simulated: list[tuple[float, int, int]]  # (skill, games, team wins)
    games: int  # the group's games of this setup

    def rate(self, skill: float) -> float:
        """The simulated team win rate at ``skill``, straight between two skills of the grid."""
        grid = [s for s, _, _ in self.simulated]
        k, t = _between(grid, np.array([skill]))
        rates = [w / n for _, n, w in self.simulated]
        return float((1 - t[0]) * rates[k[0]] + t[0] * rates[k[0] + 1])


@dataclass
class Calibration:
    """The answer: the skill of maximum likelihood and its 95% interval (the likelihood-ratio
    interval, each end's distance from the best skill widened in quadrature by 1.96 times its
    standard deviation over bootstrap resamples of the simulated games; ``error``: the larger of
    the two), the range searched, the games it
    explains (won, drawn, abandoned and unfitted), the columns it read, the games simulated at
    each skill of each setup, the log likelihood at every skill read (``profile``), and warnings."""

    skill: float
    low: float
    high: float
    searched: tuple[float, float]
    games: int
    wins: int
    curves: list[SetupCurve]
    warnings: list[str] = field(default_factory=list)
    error: float = 0.0
    ratio_interval: tuple[float, float] = (0.0, 0.0)
    draws: int = 0
    abandoned: int = 0
    recorded: dict[str, int] = field(default_factory=dict)  # column -> games whose likelihood read it
    simulated: int = 0  # games at each skill of each setup
    grid: tuple[float, ...] = GRID
    profile: list[tuple[float, float]] = field(default_factory=list)  # (skill, log likelihood - best)
    seed: int = 1

    def level(self) -> str:
        """The skill as the ladder names it: a level, or between which two."""
        return level_words(self.skill)


def level_words(skill: float) -> str:
    """A skill as the ladder names it: a level, or between which two."""
    below = min(int(math.floor(skill)), len(SKILL_LEVELS) - 1)
    if skill - below < 0.005:
        return SKILL_LEVELS[below]
    return f"between {SKILL_LEVELS[below]} and {SKILL_LEVELS[below + 1]}"


Play = Callable[[GameSetup, object, int, int], list[Record]]


def calibrate(games: Sequence[Game], grid: Sequence[float] = GRID, simulated: int = SIMULATED_MAX, seed: int = 1,
              workers: int | None = None, play: Play | None = None, progress: Callable[[str], object] | None = None,
              first: int = FIRST_GAMES, precision: float = PRECISION, labels: dict[GameSetup, str] | None = None,
              cache: bool = True, memo: dict | None = None) -> Calibration:
    """The skill that best explains ``games``: each distinct setup simulated at each skill of
    ``grid`` (game ``i`` with the seed ``((seed, "calibrate"), i)`` at every skill), ``first``
    games a skill in the first batch and twice as many in each batch after it, until the
    simulation's own error is below ``precision`` of the interval's half-width (or
    ``PRECISION_FLOOR``) or ``simulated`` games a skill are played. ``play(setup, seed, start,
    stop)`` returns the Records of games ``start`` to ``stop - 1`` (default: the games cache,
    then real games on ``workers`` processes; none from the cache without ``cache``); ``progress(line)`` hears of each batch, with the
    time the next one should take; ``labels`` names each setup in its lines; ``memo`` keeps the
    setups' models between calls that play the same games (a recovery's trials)."""
    if not games:
        raise SetupError("no games to calibrate from")
    grid = sorted({float(g) for g in grid})
    if not 2 <= len(grid) <= GRID_MAX or grid[0] < 0 or grid[-1] > len(SKILL_LEVELS) - 1:
        raise SetupError(f"grid {grid}: expected 2 to {GRID_MAX} skills from 0 to {len(SKILL_LEVELS) - 1}")
    if simulated < 2:
        raise SetupError(f"simulated {simulated}: expected at least 2 games a skill")
    fitted = [g for g in games if g.observation.result != "abandoned"]
    if not fitted:
        raise SetupError("every game was abandoned: no result to calibrate from")
    if play is None:
        def play(at: GameSetup, series, start: int, stop: int) -> list[Record]:
            return play_records(at, series, start, stop, workers, cache=cache)
    setups = list(dict.fromkeys(g.setup for g in fitted))
    observations: dict[GameSetup, list[Observation]] = {setup: [] for setup in setups}
    for game in fitted:
        observations[game.setup].append(game.observation)
    names = labels or {setup: f"setup {n}" for n, setup in enumerate(setups, 1)}
    at = {(setup, skill): setup_from_dict(setup.to_dict() | {"skill": f"{skill:g}"}) for setup in setups
          for skill in grid}
    records: dict[GameSetup, list[list[Record]]] = {setup: [[] for _ in grid] for setup in setups}
    per_game: dict[float, float] = {}  # seconds a game at each skill, as last measured (0: cached)
    skills = np.round(np.arange(grid[0], grid[-1] + STEP / 2, STEP), 2)
    rng = np.random.default_rng(random.Random(f"{seed}/calibrate/bootstrap").getrandbits(64))
    counts = {setup: [min(first, simulated)] * len(grid) for setup in setups}  # games wanted at each skill
    if progress is not None:
        progress(f"{len(setups)} setup(s) x {len(grid)} skills: {min(first, simulated)} simulated games each first "
                 f"({len(setups) * len(grid) * min(first, simulated):,} games, those the games cache holds not played "
                 f"again), then more where the interval needs them, at most {simulated} each")
    while True:
        for setup in setups:
            for k, skill in enumerate(grid):
                have, want = len(records[setup][k]), counts[setup][k]
                if have >= want:
                    continue
                started = time.perf_counter()
                records[setup][k].extend(play(at[setup, skill], (seed, "calibrate"), have, want))
                per_game[skill] = (time.perf_counter() - started) / (want - have)
                if progress is not None:
                    wins = sum(r.winner == "team" for r in records[setup][k])
                    progress(f"  {names[setup]}, skill {skill:g}: team {wins / want:.0%} of {want} simulated games "
                             f"({_seconds(per_game[skill] * (want - have))})")
        models = {}
        for setup in setups:
            key = (setup, tuple(grid), tuple(len(r) for r in records[setup]), seed)
            model = memo.get(key) if memo is not None else None
            if model is None:
                model = SetupModel(tuple(grid), records[setup])
                if memo is not None:
                    memo[key] = model
            models[setup] = model
        prepared = {setup: recorded(observations[setup], models[setup]) for setup in setups}
        best = _fit(prepared, models, skills)
        replicates = []
        for _ in range(BOOTSTRAPS):
            weights = {}
            for setup in setups:
                n = models[setup].games
                weights[setup] = np.bincount(rng.integers(0, n, n), minlength=n).astype(float)
            replicates.append(_fit(prepared, models, skills, weights))
        errors = (float(np.std([r.low for r in replicates])), float(np.std([r.high for r in replicates])))
        half = (best.high - best.low) / 2
        enough = Z95 * max(errors) <= max(PRECISION_FLOOR, precision * half)
        # The interval's ends are read between the grid skills around them: only those need more games.
        low, high = _widened(best, errors, grid)
        around = [k for k, skill in enumerate(grid)
                  if max((g for g in grid if g <= low + 1e-9), default=grid[0]) - 1e-9 <= skill
                  <= min((g for g in grid if g >= high - 1e-9), default=grid[-1]) + 1e-9]
        more = {setup: [min(2 * n, simulated) if k in around else n for k, n in enumerate(counts[setup])]
                for setup in setups}
        done = enough or more == counts
        if progress is not None:
            line = (f"{_counted(counts, grid)}: skill {best.skill:.2f}, likelihood-ratio interval {best.low:.2f} "
                    f"to {best.high:.2f}; the simulation's own error +/-{Z95 * max(errors):.2f}")
            if done:
                progress(line + (": small enough" if enough else f": the most games a skill (--games {simulated})"))
            else:
                cost = sum(per_game.get(grid[k], 0.0) * (more[setup][k] - counts[setup][k]) for setup in setups
                           for k in range(len(grid)))
                most = sum(per_game.get(grid[k], 0.0) * (simulated - counts[setup][k]) for setup in setups
                           for k in range(len(grid)))
                progress(line + f"; next {_counted(more, grid)}, about {_seconds(cost)} (at most {_seconds(most)} to "
                         f"{simulated} games at every skill)")
        if done:
            break
        counts = more
    return _calibration(games, fitted, models, best, errors, grid, max(max(n) for n in counts.values()), names, seed,
                        skills)


def _widened(best: Fit, errors: tuple[float, float], grid: Sequence[float]) -> tuple[float, float]:
    """The interval with the simulation's own error added to each end's distance from the best
    skill (in quadrature: the two errors are independent)."""
    low = max(grid[0], round(best.skill - math.hypot(best.skill - best.low, Z95 * errors[0]), 2))
    high = min(grid[-1], round(best.skill + math.hypot(best.high - best.skill, Z95 * errors[1]), 2))
    return low, high


def _counted(counts: dict[GameSetup, list[int]], grid: Sequence[float]) -> str:
    """The simulated games a skill, as a line says it: ``400 games a skill`` or ``skill 0: 100, ...``."""
    per_skill = [max(c[k] for c in counts.values()) for k in range(len(grid))]
    if len(set(per_skill)) == 1:
        return f"{per_skill[0]} simulated games a skill"
    return "simulated games by skill " + ", ".join(f"{g:g}: {n}" for g, n in zip(grid, per_skill, strict=True))


def _calibration(games, fitted, models, best: Fit, errors: tuple[float, float], grid, count: int, names, seed: int,
                 skills: np.ndarray) -> Calibration:
    low, high = _widened(best, errors, grid)
    wins = sum(g.observation.result == "won" for g in fitted)
    draws = sum(g.observation.result == "draw" for g in fitted)
    recorded = {name: sum(name in g.observation.recorded() for g in fitted) for name in OBSERVED}
    curves = []
    for setup, model in models.items():
        counts = model.outcome_counts()
        curves.append(SetupCurve(setup, names[setup], [(s, int(c.sum()), int(c[0])) for s, c in zip(grid, counts,
                                                                                                   strict=True)],
                                 sum(g.setup == setup for g in fitted)))
    warnings = []
    if len(fitted) < FEW_GAMES:
        warnings.append(f"only {len(fitted)} games: at least {FEW_GAMES} are needed to tell the levels apart")
    if high - low > WIDE * (grid[-1] - grid[0]):
        warnings.append(f"the interval {low:.2f} to {high:.2f} covers more than {WIDE:.0%} of the range searched: "
                        "too few games (or too little difference between the levels) to tell")
    if wins in (0, len(fitted)):
        warnings.append(f"the team {'won' if wins else 'did not win'} every game: the skill is only bounded on one "
                        "side")
    outside = _outside(fitted, models)
    if outside:
        warnings.append(f"line {', '.join(str(n) for n in outside[:3])}{' and more' if len(outside) > 3 else ''}: "
                        "a recorded number beyond every simulated game of its setup and result; check the file")
    step = max(1, round(0.05 / STEP))
    profile = [(float(s), round(float(v), 3)) for s, v in zip(skills[::step], best.profile[::step], strict=True)]
    return Calibration(best.skill, low, high, (grid[0], grid[-1]), len(fitted), wins, curves, warnings, max(errors),
                       (best.low, best.high), draws, len(games) - len(fitted), recorded, count, tuple(grid),
                       profile, seed)


def _outside(games: Sequence[Game], models: dict[GameSetup, SetupModel]) -> list[int]:
    """The lines of the games that recorded a number beyond every simulated game with their result."""
    lines = []
    for game in games:
        o = game.observation
        part = models[game.setup].results.get(o.result)
        if part is None:
            continue
        names = FEATURES[o.result]
        for name in o.recorded():
            column = part.pooled[:, names.index(name)]
            if not np.nanmin(column) <= (o.value(name) or 0) <= np.nanmax(column):
                lines.append(game.line)
                break
    return lines


def _seconds(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# ---------------------------------------------------------------- the calibration file


def calibration_text(result: Calibration, source: str) -> str:
    """The calibration as the TOML file the ``skill`` knob reads (``skill = ...``), with the
    likelihood at every skill read for ``horde tune``."""
    used = [name for name, count in result.recorded.items() if count]
    lines = [f"# The team skill that best explains the games of {shown(source)}, written by horde calibrate.",
             "# Give this file as the skill: --skill FILE, or skill = \"FILE\" in an experiment.",
             f"skill = {result.skill:.2f}",
             f"skill_low = {result.low:.2f}  # the 95% interval: likelihood ratio, widened by the simulation's error",
             f"skill_high = {result.high:.2f}",
             f"level = \"{result.level()}\"",
             f"games = {result.games}",
             f"team_wins = {result.wins}",
             f"draws = {result.draws}",
             f"abandoned = {result.abandoned}  # kept in the file, not fitted",
             f"recorded = [{', '.join(_toml_string(name) for name in used)}]  # the numbers the fit read",
             f"searched = [{result.searched[0]:g}, {result.searched[1]:g}]",
             f"grid = [{', '.join(f'{s:g}' for s in result.grid)}]",
             f"simulated = {result.simulated}  # games at each skill of each setup",
             f"simulation_error = {result.error:.3f}  # an interval end's standard deviation over resampled simulations",
             f"seed = {result.seed}",
             f"source = {_toml_string(shown(source))}",
             "# The log likelihood of the games at each skill, 0 at the best (horde tune reads it):",
             f"profile_skills = [{', '.join(f'{s:g}' for s, _ in result.profile)}]",
             f"profile = [{', '.join(f'{v:g}' for _, v in result.profile)}]"]
    lines += [f"warning = {_toml_string(w)}" for w in result.warnings[:1]]
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_calibration(result: Calibration, source: str, path: str) -> None:
    write_file(path, calibration_text(result, source))


@dataclass(frozen=True)
class CalibrationFile:
    """What ``horde tune`` reads of a calibration file: the skill, its interval, the grid it was
    simulated on, and the log likelihood at every skill read (empty for a file written before
    the likelihood was kept)."""

    path: str
    skill: float
    low: float
    high: float
    games: int
    grid: tuple[float, ...] = GRID
    profile: tuple[tuple[float, float], ...] = ()
    warning: str = ""

    def level(self) -> str:
        return level_words(self.skill)

    def posterior(self) -> list[tuple[float, float]]:
        """The chance of each skill read given the games (flat over the range searched before
        them): the likelihood, normalised."""
        if not self.profile:
            return [(self.skill, 1.0)]
        weights = [math.exp(v) for _, v in self.profile]
        total = sum(weights)
        return [(s, w / total) for (s, _), w in zip(self.profile, weights, strict=True)]

    def to_dict(self) -> dict:
        return {"file": shown(self.path), "skill": self.skill, "low": self.low, "high": self.high,
                "level": self.level(), "games": self.games, "warning": self.warning}


def read_calibration(path: str) -> CalibrationFile:
    """A calibration file written by ``horde calibrate``. Raises SetupError naming it."""
    import tomllib

    text = read_text(path, "calibration file", SetupError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SetupError(f"not a calibration file ({error})", path) from None
    try:
        skill = float(data["skill"])
        low, high = float(data.get("skill_low", skill)), float(data.get("skill_high", skill))
        grid = tuple(float(s) for s in data.get("grid", GRID))
        skills, values = data.get("profile_skills", []), data.get("profile", [])
        if len(skills) != len(values):
            raise ValueError
        profile = tuple((float(s), float(v)) for s, v in zip(skills, values, strict=True))
        games = int(data.get("games", 0))
    except (KeyError, TypeError, ValueError):
        raise SetupError("not a calibration file: expected skill = NUMBER, skill_low, skill_high and the profile "
                         "(written by horde calibrate)", path) from None
    if not (0 <= low <= skill <= high <= len(SKILL_LEVELS) - 1) or any(not math.isfinite(v) for _, v in profile):
        raise SetupError(f"not a calibration file: skill {skill:g} and its interval {low:g} to {high:g} are not on "
                         "the ladder", path)
    return CalibrationFile(path, skill, low, high, games, grid, profile, str(data.get("warning", "")))


def check_out(out: str, games_file: str) -> None:
    """Refuse, before any game is played, a calibration that would be written over the games
    file, over a file that is not a calibration (``write_calibration``'s first line), into a
    folder that is not there, or as a folder. Raises CalibrationError naming ``out``."""
    same = os.path.abspath(out) == os.path.abspath(games_file)
    try:
        same = same or (os.path.exists(out) and os.path.samefile(out, games_file))
    except (OSError, ValueError):
        pass
    if same:
        raise CalibrationError("the calibration would be written over the games file it reads: give another --out",
                               out)
    parent = os.path.dirname(out) or "."
    if not os.path.isdir(parent):
        raise CalibrationError("cannot write the calibration: its folder is not there", out)
    if os.path.lexists(out):
        if not os.path.isfile(out) or os.path.islink(out):
            raise CalibrationError("cannot write the calibration: it is not a regular file (horde never writes "
                                   "through a link)", out)
        try:
            with open(out, "rb") as handle:
                head = handle.read(200)
        except OSError as problem:
            raise CalibrationError(f"cannot write the calibration: {problem.strerror}", out) from None
        if b"written by horde calibrate" not in head:
            raise CalibrationError("is not a calibration written by horde calibrate: it is left as it is; give "
                                   "another --out, or move it away", out)


def default_out(games_file: str) -> str:
    """Where a calibration goes by default: GAMES with .toml for its extension, or GAMES with
    -calibration.toml added when GAMES is itself a .toml file (never the games file)."""
    root, extension = os.path.splitext(games_file)
    if extension.lower() == ".toml":
        return root + "-calibration.toml"
    return root + ".toml"
