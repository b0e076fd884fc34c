"""Experiment files: a name, a seed, a base setup, a sweep and how many games each cell plays.

``load_experiment(path)`` reads ``experiments/NAME.toml``, checks every key, knob, deck and policy
and returns an ``Experiment``: the resolved file (every value converted, run defaults filled in),
its cells (the product of the sweep's lists, in the file's order, each a validated GameSetup) and
a short hash of all that plus the package version and the deck and card files each cell reads.
Nothing here plays more than the set-up of one game per cell; ``horde.lab.runner`` runs experiments.
Bad input raises ``ExperimentError`` (or another HordeError) with one line naming the file and key.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from horde import __version__
from horde.errors import HordeError, escaped, match_name
from horde.files import read_bytes, read_text, shown
from horde.limits import CELLS_MAX, GAMES_MAX, SEED_MAX, TOML_DEPTH_MAX, quoted
from horde.play import prepare
from horde.setup import KNOBS, GameSetup, convert, make_setup


class ExperimentError(HordeError):
    """An experiment file that cannot be run as written."""


TOP_KEYS = ("name", "seed", "description", "setup", "sweep", "run")
RUN_KEYS = ("games", "precision", "max_games", "check_every", "turns")
DEFAULT_MAX_GAMES = 100_000
DEFAULT_CHECK_EVERY = 500
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
BARE_KEY_RE = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class RunSettings:
    """How many games each cell plays: ``games`` of them, or (``games`` None) whole windows of
    ``check_every`` games until the Wilson 95% half-width of the team's win rate is at most
    ``precision``, up to ``max_games``. ``turns``: also record one row per turn."""

    games: int | None = None
    precision: float | None = None
    max_games: int | None = None
    check_every: int | None = None
    turns: bool = True

    @property
    def adaptive(self) -> bool:
        return self.games is None

    @property
    def cap(self) -> int:
        """The most games a cell can play."""
        cap = self.max_games if self.games is None else self.games
        assert cap is not None, "an adaptive run has max_games"
        return cap

    def check_points(self) -> list[int]:
        """Adaptive runs: the game counts at which a cell may stop (whole windows, then the cap)."""
        step, cap = self.check_every, self.max_games
        assert step is not None and cap is not None, "only for adaptive runs"
        return list(range(step, cap, step)) + [cap]

    def to_dict(self) -> dict:
        if not self.adaptive:
            return {"games": self.games, "turns": self.turns}
        return {"games": "auto", "precision": self.precision, "max_games": self.max_games,
                "check_every": self.check_every, "turns": self.turns}


@dataclass(frozen=True)
class Cell:
    """One combination of the sweep's values: ``values`` (knob -> value as in the resolved
    file), the full validated ``setup`` and ``data``, a digest of the deck and card files it reads."""

    index: int
    values: dict
    setup: GameSetup
    data: str

    @property
    def label(self) -> str:
        return " ".join(f"{k}={describe_value(v)}" for k, v in self.values.items()) or "base setup"


@dataclass(frozen=True)
class Experiment:
    """A resolved experiment: plain values only (as the resolved TOML file shows them)."""

    name: str
    seed: int
    description: str
    setup: dict
    sweep: dict
    run: RunSettings
    cells: tuple
    source: str = ""

    def key(self) -> dict:
        """Everything the results depend on (what the hash covers); JSON-ready."""
        return {"name": self.name, "seed": self.seed, "setup": dict(sorted(self.setup.items())),
                "sweep": [[k, list(v)] for k, v in self.sweep.items()], "run": self.run.to_dict(),
                "version": __version__, "cells": [[c.setup.digest(), c.data] for c in self.cells]}

    def digest(self) -> str:
        text = json.dumps(self.key(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    @property
    def folder(self) -> str:
        """The results folder's name: ``NAME-HASH``."""
        return f"{self.name}-{self.digest()}"

    def to_toml(self) -> str:
        """The resolved experiment as TOML; reading it back gives the same experiment and hash
        (but for a file name that is not UTF-8: TOML is UTF-8, so its bytes are shown as ``\\xNN``)."""
        lines = [f"# Resolved by horde {__version__}" + (f" from {shown(self.source)}" if self.source else "")
                 + f"; hash {self.digest()}.",
                 f"# {len(self.cells)} cell(s), the product of [sweep] in this order; game i of every "
                 "cell is played with the seed (seed, i).",
                 f"name = {toml_value(self.name)}", f"seed = {self.seed}"]
        if self.description:
            lines.append(f"description = {toml_value(self.description)}")
        lines += ["", "[setup]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in sorted(self.setup.items())]
        if self.sweep:
            lines += ["", "[sweep]"] + [f"{toml_key(k)} = {toml_value(list(v))}" for k, v in self.sweep.items()]
        lines += ["", "[run]"] + [f"{k} = {toml_value(v)}" for k, v in self.run.to_dict().items()]
        lines += ["", "# cells:"] + [f"# {c.index}: {c.label} (setup {c.setup.digest()})" for c in self.cells]
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- reading and checking


def load_experiment(path, games: int | None = None, max_games: int | None = None,
                    check_decks: bool = True, house_rules: dict | None = None) -> Experiment:
    """Read and check an experiment file. ``games`` makes every cell play that many games;
    ``max_games`` caps the games of every cell (both for reduced runs; both change the hash);
    ``house_rules`` (knobs as a [setup] table holds them) set what neither the file's [setup] nor
    its [sweep] sets (they are in every cell's setup, so they change the hash too)."""
    path = resolve_experiment(str(path))
    where = str(path)
    data = read_toml(read_text(path, "experiment file", ExperimentError), where, ExperimentError)
    if house_rules and isinstance(data.get("setup", {}), dict) and isinstance(data.get("sweep", {}), dict):
        taken = set(data.get("setup", {})) | set(data.get("sweep", {}))
        data["setup"] = {k: v for k, v in house_rules.items() if k not in taken} | data.get("setup", {})
    return parse_experiment(data, where, games, max_games, check_decks)


def read_toml(text: str, where: str, error: type[HordeError] = HordeError) -> dict:
    """Parse TOML text; tables and arrays nested deeper than ``TOML_DEPTH_MAX`` are refused (and
    never reach the parser's recursion). Raises ``error`` (one line naming ``where``)."""
    depth = _nesting(text)
    if depth > TOML_DEPTH_MAX:
        raise error(f"arrays and tables are nested {depth} deep; an experiment file nests them at most "
                    f"{TOML_DEPTH_MAX} deep (docs/limits.md)", where)
    try:
        data = tomllib.loads(text)
    except ValueError as problem:  # TOMLDecodeError, or a number of more than 4,300 digits
        message = str(problem).split("; use sys.set_int_max_str_digits")[0]
        line = re.search(r"line (\d+)", message)
        raise error(f"not valid TOML: {message}", where, int(line[1]) if line else None) from None
    except RecursionError:
        raise error("not valid TOML: nested too deeply", where) from None
    return data


def _nesting(text: str) -> int:
    """How deep ``[`` and ``{`` nest in TOML text, outside strings and comments (a table header's
    brackets count as one level)."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in "\"'":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                i += 2 if c == '"' and text[i] == "\\" else 1
            i += len(quote)
            continue
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest


def resolve_experiment(name: str) -> Path:
    """An experiment file by path, or a bundled one by name whatever its case (``reference`` is
    ``experiments/reference.toml`` of the project, or of the installed package). A path that does
    not exist but names a bundled experiment in an ``experiments`` folder (``horde run
    experiments/difficulty.toml`` as the README writes it, outside a checkout) is that bundled
    experiment; an unknown name is an ExperimentError naming the closest bundled
    experiments and every one."""
    from horde.bundled import bundled_folder

    path = Path(name)
    if os.path.exists(path):
        return path
    folder = bundled_folder("experiments")
    bundled = sorted(p.stem for p in folder.glob("*.toml"))
    pathlike = bool(path.suffix) or "/" in name
    if pathlike and not (path.suffix == ".toml" and path.parent.name == "experiments" and path.stem in bundled):
        return path  # a file of the user's that isn't there: reading it says so
    found = match_name(path.stem if pathlike else name, bundled, "bundled experiment", error=ExperimentError,
                       more=" (or give an experiment file's path)")
    return folder / f"{found}.toml"


def parse_experiment(data: dict, where: str, games: int | None = None, max_games: int | None = None,
                     check_decks: bool = True) -> Experiment:
    """Check an experiment given as a dict (a parsed TOML file); ``where`` names it in errors."""
    for key in data:
        if key not in TOP_KEYS:
            raise ExperimentError(f"unknown key {quoted(key)}: expected {', '.join(TOP_KEYS)}", where)
    name = data.get("name")
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise ExperimentError(f"name = {name!r}: expected a name of letters, digits, '-', '_' or '.' "
                              "(it names the results folder)", where)
    seed = data.get("seed")
    if type(seed) is not int or not 0 <= seed <= SEED_MAX:
        raise ExperimentError(f"seed = {quoted(seed)}: expected a whole number from 0 to {SEED_MAX} (2^63 - 1: what "
                              "the results store)", where)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ExperimentError(f"description = {quoted(description)}: expected a text", where)
    setup = _table(data, "setup", where)
    sweep = _table(data, "sweep", where)
    if "run" not in data:
        raise ExperimentError("missing [run] table: expected games = N, or games = \"auto\" with precision", where)
    run = parse_run(_table(data, "run", where), where, games, max_games)

    plain_setup = {knob: plain_knob(knob, value, f"{where}: [setup]") for knob, value in setup.items()}
    if "cards" in plain_setup:  # card files are named relative to the experiment file
        base = Path(where).resolve().parent
        plain_setup["cards"] = [os.path.normpath(base / p) for p in plain_setup["cards"]]
    if "sweep" in data and not sweep:
        raise ExperimentError("[sweep] is empty: expected at least one knob with a list of values "
                              "(leave [sweep] out for a single cell)", where)
    plain_sweep: dict = {}
    for knob, values in sweep.items():
        if knob in setup:
            raise ExperimentError(f"[sweep] {knob}: also set in [setup]; give it in one place", where)
        if not isinstance(values, list) or not values:
            raise ExperimentError(f"[sweep] {knob} = {quoted(values)}: expected a non-empty list of values", where)
        converted = [plain_knob(knob, value, f"{where}: [sweep]") for value in values]
        seen = set()
        for value in converted:
            text = json.dumps(value, sort_keys=True)
            if text in seen:
                raise ExperimentError(f"[sweep] {knob}: the value {describe_value(value)} is listed twice", where)
            seen.add(text)
        plain_sweep[knob] = tuple(converted)

    count = math.prod(len(values) for values in plain_sweep.values())
    if count > CELLS_MAX:
        raise ExperimentError(f"[sweep] makes {count:,} cells; an experiment has at most {CELLS_MAX:,} "
                              "(docs/limits.md)", where)
    cells = []
    for index, combination in enumerate(itertools.product(*plain_sweep.values())):
        values = dict(zip(plain_sweep, combination, strict=True))
        cells.append(build_cell(index, plain_setup, values, where, check_decks))
    experiment = Experiment(name, seed, description, plain_setup, plain_sweep, run, tuple(cells), where)
    if check_decks:
        check_cells(experiment, where)
    return experiment


def _table(data: dict, key: str, where: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ExperimentError(f"{key} = {quoted(value)}: expected a table [{key}]", where)
    return value


def parse_run(run: dict, where: str, games: int | None = None, max_games: int | None = None) -> RunSettings:
    """The [run] table, with the command line's ``games`` and ``max_games`` applied."""
    for key in run:
        if key not in RUN_KEYS:
            raise ExperimentError(f"[run] unknown key {quoted(key)}: expected {', '.join(RUN_KEYS)}", where)
    turns = run.get("turns", True)
    if not isinstance(turns, bool):
        raise ExperimentError(f"[run] turns = {quoted(turns)}: expected true or false", where)
    count = run.get("games")
    if count == "auto":
        precision = run.get("precision")
        if precision is None:
            raise ExperimentError("[run] precision: missing; games = \"auto\" needs the largest Wilson 95% "
                                  "half-width to stop at, e.g. precision = 0.01", where)
        if isinstance(precision, bool) or not isinstance(precision, int | float) or not 0 < precision <= 0.5:
            raise ExperimentError(f"[run] precision = {quoted(precision)}: expected a number above 0 and at most 0.5 "
                                  "(e.g. 0.01)", where)
        cap = _whole(run, "max_games", DEFAULT_MAX_GAMES, where)
        step = _whole(run, "check_every", min(DEFAULT_CHECK_EVERY, cap), where)
        settings = RunSettings(None, float(precision), cap, min(step, cap), turns)
    elif type(count) is int and 1 <= count <= GAMES_MAX:
        for key in ("precision", "max_games", "check_every"):
            if key in run:
                raise ExperimentError(f"[run] {key}: only applies with games = \"auto\"", where)
        settings = RunSettings(count, turns=turns)
    else:
        raise ExperimentError(f"[run] games = {quoted(count)}: expected a whole number of games per cell from 1 to "
                              f"{GAMES_MAX:,}, or \"auto\" with a precision", where)
    if games is not None:
        settings = RunSettings(games, turns=turns)
    if max_games is not None:
        if settings.adaptive:
            cap = min(settings.cap, max_games)
            settings = RunSettings(None, settings.precision, cap, min(settings.check_every or cap, cap), turns)
        else:
            settings = RunSettings(min(settings.cap, max_games), turns=turns)
    return settings


def _whole(run: dict, key: str, default: int, where: str) -> int:
    value = run.get(key, default)
    if type(value) is not int or not 1 <= value <= GAMES_MAX:
        raise ExperimentError(f"[run] {key} = {quoted(value)}: expected a whole number from 1 to {GAMES_MAX:,}", where)
    return value


def plain_knob(knob: str, value, where: str):
    """Check one knob value (``convert``) and return it as the resolved file shows it: a deck list
    as a list, policy parameters as a table, an unlimited count as "unlimited", and ``policy``
    as a name or a table ``{name = ..., parameter = value}``."""
    if knob == "policy" and isinstance(value, dict):
        name = value.get("name")
        if not isinstance(name, str):
            raise ExperimentError(f"knob 'policy' = {quoted(value)}: expected a policy name or a table "
                                  "{name = \"...\", parameter = value}", where)
        params = convert("policy_params", {k: v for k, v in value.items() if k != "name"}, where)
        return {"name": convert("policy", name, where), **dict(params)}
    converted = convert(knob, value, where)
    kind = KNOBS[knob].kind
    if kind in ("decks", "paths"):
        return list(converted)
    if kind == "params":
        return dict(converted)
    if kind == "optional_int" and converted is None:
        return KNOBS[knob].unset
    return converted


def knobs_of(values: dict) -> dict:
    """Knob values as ``make_setup`` takes them (a policy table split into name and parameters)."""
    knobs = dict(values)
    policy = knobs.get("policy")
    if isinstance(policy, dict):
        knobs["policy"] = policy["name"]
        knobs["policy_params"] = {k: v for k, v in policy.items() if k != "name"}
    return knobs


def build_cell(index: int, setup: dict, values: dict, where: str, check_decks: bool = True) -> Cell:
    knobs = knobs_of({**setup, **values})
    preset = knobs.pop("preset", "zombie-horde")
    label = " ".join(f"{k}={describe_value(v)}" for k, v in values.items())
    game_setup = make_setup(preset, f"{where}: cell {index} ({label or 'base setup'})", **knobs)
    return Cell(index, values, game_setup, data_digest(game_setup) if check_decks else "")


def check_cells(experiment: Experiment, where: str) -> None:
    """Prepare every cell's setup (its decks, banlist and policy loaded, its games checked to set
    up), so a bad name or a deck too small fails here, naming the key it came from, before
    anything runs."""
    for cell in experiment.cells:
        try:
            prepare(cell.setup)
        except HordeError as error:
            if error.knob is None:
                raise ExperimentError(f"cell {cell.index} ({cell.label}): {error.one_line()}", where) from None
            raise ExperimentError(f"{_origin(experiment, cell, error.knob)} = {describe_value(error.value)}: "
                                  f"{error.one_line()}", where) from None


def _origin(experiment: Experiment, cell: Cell, knob: str) -> str:
    """Where a knob's value came from, for error messages."""
    if knob in cell.values:
        return f"[sweep] {knob}"
    if knob in experiment.setup:
        return f"[setup] {knob}"
    if "preset" in cell.values or "preset" in experiment.setup:
        return f"{knob} (from preset '{cell.setup.preset}')"
    return f"{knob} (the default)"


# ---------------------------------------------------------------- files the results depend on


def data_digest(setup: GameSetup) -> str:
    """A digest of the card files (bundled and the user's), Horde deck, team decks and banlist
    ``setup`` reads, and of the card index when its decks use a card from it: results from other
    deck files or card facts are other results. Files are named relative to their folder so the same
    files anywhere give the same digest; a missing file counts as missing."""
    from horde.cards.catalogue import card_files, decks_dir, user_card_paths
    from horde.cards.decks import resolve_path
    from horde.team.draft import cube_path, mode_of

    root = decks_dir()
    files = [("card", p) for p in sorted((root / "cards").glob("*.txt"))]
    try:
        files += [("user card", p) for p in card_files(user_card_paths(setup.cards))]
    except HordeError:
        files.append(("user card", Path("missing")))

    def deck(name: str, kind: str) -> Path:
        try:
            return resolve_path(name, kind)
        except HordeError:  # no such bundled deck: it counts as missing (checking the cells says so)
            return Path("missing")

    files.append(("horde", deck(setup.horde_deck, "horde")))
    if mode_of(setup) is not None:  # X1: the decks are drafted from the cube
        files.append(("cube", cube_path(setup.cube)))
    else:
        files += [("team", deck(n, "team")) for n in setup.team_decks[:setup.players]]
    if setup.banlist != "none":
        files.append(("banlist", root / "banlist.txt" if setup.banlist == "default" else Path(setup.banlist)))
    digest = hashlib.sha256()
    sizes = {"card": "card file", "user card": "card file", "banlist": "banlist"}
    for kind, path in files:
        try:
            content = hashlib.sha256(read_bytes(path, sizes.get(kind, "decklist"))).hexdigest()
        except HordeError:  # not there, not a regular file, too large: the check of the cells names it
            content = "missing"
        digest.update(f"{kind}:{Path(path).name}:{content}\n".encode())
    try:
        prepared = prepare(setup)
    except HordeError:
        return digest.hexdigest()[:16]  # the check of the cells names the problem
    indexed = [name for name, origin in prepared.origins().items() if origin.kind in ("compiled", "approximated")]
    if indexed:
        from horde.cards.cardindex import open_index

        index = open_index(prepared.catalogue.index_path)
        digest.update(f"index:{index.digest if index else 'missing'}:{','.join(indexed)}\n".encode())
    return digest.hexdigest()[:16]


# ---------------------------------------------------------------- writing values back


def describe_value(value) -> str:
    """A short readable form of a knob value (cell labels)."""
    if isinstance(value, dict):
        if "name" in value:
            params = ",".join(f"{k}={v}" for k, v in value.items() if k != "name")
            return f"{value['name']}({params})" if params else value["name"]
        return ",".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def toml_key(key: str) -> str:
    return key if BARE_KEY_RE.fullmatch(key) else json.dumps(key)


def toml_value(value) -> str:
    """A value in TOML (strings, numbers, booleans, lists and inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"no TOML for {value}")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(escaped(value), ensure_ascii=False)  # a file name's bytes that are not UTF-8: \\xNN
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"no TOML for {value!r}")
