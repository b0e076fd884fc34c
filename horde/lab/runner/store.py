"""What a results folder holds: the columns of games.parquet and turns.parquet, the Arrow tables
of played games, part file names, files written whole or not at all (``horde.files``: never
through a link) and read by any name (``read_parquet``), and the manifest, with what it says of a
run not finished (``run_progress``).

This module sits below both the run (``horde.lab.runner.run``, which writes results) and the analysis
layer (``horde.lab.analysis``, which reads them and builds the same tables for games played in
memory), so both agree on one schema.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horde import __version__, build
from horde.errors import HordeError, escaped
from horde.files import WriteError, read_text, write_file
from horde.play import GameResult
from horde.setup import FIELD_NAMES, KNOBS, GameSetup

if TYPE_CHECKING:
    import pyarrow as pa  # imported where used: batches played in memory need no pyarrow

ROW_GROUP = 100_000  # rows per row group of the final files (fixed: same data, same bytes)


_KNOB_TYPES = {"int": "int32", "optional_int": "int32", "bool": "bool_", "str": "string", "decks": "string",
               "params": "string", "paths": "string",
               "skill": "string"}


@functools.cache
def games_schema(approximated: bool = False) -> pa.Schema:
    """The columns of games.parquet (docs/experiments.md describes each); a run with a cell that
    approximates cards (--approximate) adds ``approximated``: the names of those cards."""
    import pyarrow as pa

    knob_fields = [(name, getattr(pa, _KNOB_TYPES[KNOBS[name].kind])()) for name in FIELD_NAMES]
    count = pa.int32()
    life = pa.int64()  # life and power have no bound of their own (docs/limits.md): 64 bits
    return pa.schema(
        [("experiment", pa.string()), ("experiment_hash", pa.string()), ("cell", count)] + knob_fields
        + [("setup_hash", pa.string()), ("version", pa.string()), ("seed", pa.int64()), ("game", pa.int64()),
           ("winner", pa.string()), ("turns", count), ("horde_turns", count), ("team_life", life),
           ("team_life_min", life), ("horde_cards_left", count), ("cards_revealed", count),
           ("longest_token_streak", count), ("biggest_horde_turn", count),
           ("revealed", pa.list_(pa.struct([("card", pa.string()), ("horde_turn", count)]))),
           ("boss_drawn", pa.string()), ("boss_uses", pa.map_(pa.string(), count)),
           ("lieutenant_entries", count), ("lieutenant_defeats", count),
           ("lieutenants_drawn", pa.list_(pa.string()))]
        + ([("approximated", pa.list_(pa.string()))] if approximated else []))


@functools.cache
def turns_schema() -> pa.Schema:
    """The columns of turns.parquet: one row per game and turn, joined to games by (cell, game)."""
    import pyarrow as pa

    count = pa.int32()
    return pa.schema([("cell", count), ("game", pa.int64()), ("turn", count), ("team_life", pa.int64()),
                      ("horde_power", pa.int64()), ("horde_library", count)])


def knob_columns(setup: GameSetup) -> dict:
    """The setup's knobs as column values: team decks comma-joined, policy parameters as JSON; a
    file name that is not UTF-8 with its bytes shown as ``\\xNN`` (a column holds UTF-8 text)."""
    values = setup.to_dict()
    values["team_decks"] = ",".join(setup.team_decks)
    values["policy_params"] = json.dumps(dict(setup.policy_params), sort_keys=True)
    values["cards"] = ",".join(setup.cards)
    return {name: escaped(value) if isinstance(value, str) else value for name, value in values.items()}


def games_table(results: list[GameResult], setup: GameSetup, seed: int, start: int, cell: int = 0,
                experiment: str = "", experiment_hash: str = "", approximated: list[str] | None = None) -> pa.Table:
    """games.parquet's rows for games ``start``, ``start + 1``, ... of ``setup`` played with the
    seeds ``(seed, start)``, ...: one row per game, every knob, the seed and what happened.
    ``approximated`` (a run with an --approximate cell): the cards of this setup's decks that play
    approximated (--approximate), an ``approximated`` column."""
    import pyarrow as pa

    n = len(results)
    columns: dict[str, list[Any]] = {"experiment": [experiment] * n, "experiment_hash": [experiment_hash] * n,
                                     "cell": [cell] * n}
    for name, value in knob_columns(setup).items():
        columns[name] = [value] * n
    columns["setup_hash"] = [setup.digest()] * n
    columns["version"] = [__version__] * n
    columns["seed"] = [seed] * n
    columns["game"] = list(range(start, start + n))
    for name in ("winner", "turns", "horde_turns", "team_life", "team_life_min", "horde_cards_left",
                 "cards_revealed", "longest_token_streak", "biggest_horde_turn"):
        columns[name] = [getattr(r, name) for r in results]
    columns["revealed"] = [[{"card": card, "horde_turn": turn} for card, turn in r.revealed] for r in results]
    columns["boss_drawn"] = [r.boss for r in results]  # the card; the knob ``boss`` says how it was chosen
    columns["boss_uses"] = [sorted(r.boss_uses.items()) for r in results]
    columns["lieutenant_entries"] = [r.lieutenant_entries for r in results]
    columns["lieutenant_defeats"] = [r.lieutenant_defeats for r in results]
    columns["lieutenants_drawn"] = [list(r.lieutenants_drawn) for r in results]
    if approximated is not None:
        columns["approximated"] = [approximated] * n
    return pa.table(columns, schema=games_schema(approximated is not None))


def turns_table(results: list[GameResult], start: int, cell: int = 0) -> pa.Table:
    """turns.parquet's rows for games ``start``, ``start + 1``, ... (each played with record_turns)."""
    import pyarrow as pa

    games, turn, life, power, library = [], [], [], [], []
    for i, r in enumerate(results, start):
        for row in r.turn_rows or ():
            games.append(i)
            turn.append(row[0])
            life.append(row[1])
            power.append(row[2])
            library.append(row[3])
    return pa.table({"cell": [cell] * len(games), "game": games, "turn": turn, "team_life": life, "horde_power": power,
                     "horde_library": library}, schema=turns_schema())


def read_parquet(path: Path, columns: list[str] | None = None) -> pa.Table:
    """The Parquet file ``path``, opened here: pyarrow takes a path only as UTF-8 text, and a
    results folder's name may hold any bytes (a name made on another system). Read on this
    thread: a read through a Python file object on pyarrow's thread pool can leave a worker
    that aborts the process at exit ("terminate called without an active exception", exit -6,
    seen under load after a one-line error)."""
    import pyarrow.parquet as pq

    with open(path, "rb") as handle:
        return pq.read_table(handle, columns=columns, use_threads=False)


def part_path(folder: Path, kind: str, cell: int, start: int, stop: int) -> Path:
    return folder / "parts" / f"cell-{cell:04d}" / f"{kind}-{start:09d}-{stop:09d}.parquet"


PART_RE = re.compile(r"games-(\d{9})-(\d{9})\.parquet")


def write_atomically(path: Path, write, flush: bool = True) -> None:
    """``write(binary file)`` into a temporary file next to ``path``, then rename: a reader sees
    the whole file or none, and no link is followed (``horde.files.write_file``; ``flush``: flushed
    to disk before the rename). Raises WriteError (one line) when the disk is full or the folder
    read-only."""
    write_file(path, write, flush)


def parquet_rows(path: Path) -> int:
    """The rows a Parquet file says it holds (its footer alone is read); an error if it is not whole."""
    import pyarrow.parquet as pq

    with open(path, "rb") as handle:
        return pq.read_metadata(handle).num_rows


def write_json(path: Path, data: dict) -> None:
    """Write a JSON file (the manifest) whole. On a full disk, where a new file can't be made, an
    existing manifest is rewritten in place instead (its blocks are already on the disk), so a
    run stopped by a full disk still leaves a manifest that says so."""
    text = readable_json(data).encode("utf-8")
    try:
        write_file(path, text)
    except WriteError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT) or not _rewrite_in_place(path, text):
            raise


def readable_json(data: dict) -> str:
    """JSON a person can read, made by the C encoder only (``indent`` makes Python's own encoder do
    it, slow enough to be most of a sweep's time for a manifest of thousands of cells): each key
    on a line of its own and each item of a list value on a line of its own, the rest compact."""
    def value(item) -> str:
        if isinstance(item, list) and item:
            return "[\n  " + ",\n  ".join(json.dumps(x, default=str) for x in item) + "\n ]"
        return json.dumps(item, default=str)

    return "{\n" + ",\n".join(f" {json.dumps(str(key))}: {value(item)}" for key, item in data.items()) + "\n}\n"


def _rewrite_in_place(path: Path, text: bytes) -> bool:
    """Overwrite an existing regular file (never a link) with ``text``; False when that fails too."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.write(fd, text)
        os.ftruncate(fd, len(text))
        os.fsync(fd)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def read_manifest(folder: Path) -> dict | None:
    """The manifest of an earlier run in ``folder`` (None without one); a manifest that can't be
    read (not a regular file, not UTF-8 JSON, nested too deep) is one HordeError line."""
    path = folder / "manifest.json"
    if not os.path.lexists(path):
        return None
    text = read_text(path, "manifest")
    try:
        manifest = json.loads(text)
    except (ValueError, RecursionError):
        manifest = None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("runs", []), list):
        raise HordeError("cannot read the manifest of an earlier run (not a horde manifest); move the folder away "
                         "to start again", str(path))
    return manifest


HELD: set[str] = set()  # the results folders whose lock this process holds (its own POSIX lock is not seen)


def lock_held(folder: Path) -> bool:
    """Whether a run holds the lock of the results folder ``folder`` now (``FolderLock``), in this
    process or another."""
    if os.path.abspath(folder) in HELD:
        return True  # testing it here would release it: closing any descriptor of a file drops its POSIX locks
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = os.open(folder / ".lock", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                     | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def run_progress(folder: Path) -> str | None:
    """What the manifest of a results folder without its final files says: a run still in
    progress and how far it is, or a run that ended before its end and how to go on; None if
    there is no manifest (or it can't be read) or it says nothing of the kind."""
    try:
        manifest = read_manifest(folder)
    except HordeError:
        return None
    runs = manifest.get("runs") if manifest else None
    last = runs[-1] if runs else None
    if not isinstance(last, dict):
        return None
    done, total = last.get("games_done", last.get("games_before")), last.get("games_total")
    whole = [n for n in (done, total) if isinstance(n, int) and not isinstance(n, bool)]
    far = f"{done:,} of {total:,} games" if len(whole) == 2 else f"{done:,} games" if done in whole else "some games"
    status = manifest.get("status") if isinstance(manifest, dict) else None
    if status == "running" and lock_held(folder):
        return (f"the run is still in progress: {far} done, as its manifest last noted (once a second); "
                "summarise it once it is complete")
    ended = {"running": "ended without a word (killed?)", "interrupted": "was interrupted", "failed": "failed",
             "killed": "ended without a word (killed?)"}
    if status in ended:
        return (f"the run {ended[status]} after {far}, so it has no games.parquet yet; run the same horde run "
                "command again to complete it")
    return None


@functools.cache
def code_digest() -> str:
    """A digest of the horde package's source (every module, by its path in the package) and of
    the build that runs (``horde.build``: pure Python, or the compiled modules' own bytes): a run
    records it, and partial results from other code or another build are not resumed."""
    package = Path(build.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(build.build().encode() + b"\0")
    for path in build.compiled_files():
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
