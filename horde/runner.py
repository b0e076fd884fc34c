"""Batches of seeded games, and experiments: every cell of a sweep, on local processes or on a
Dask cluster, streamed to Parquet part files and resumable.

Game ``i`` of a batch (or of any cell of an experiment) with seed ``S`` is played with the seed
``(S, i)``: its result depends on nothing else, so any number of workers, any chunking and any
backend give the same records. Every cell of an experiment uses the same seeds on purpose
(common random numbers): cells that differ only on the team's side see the same Horde shuffles
and dice, so their results pair game by game.

An experiment run writes ``OUT/NAME-HASH/``: ``experiment.toml`` (the resolved file),
``manifest.json`` (versions, seeds, chunk size, timings, cell summaries), part files under
``parts/`` while it runs, and at the end ``games.parquet`` and ``turns.parquet``. A part file is
written to a temporary name and renamed, so a stopped run keeps every finished chunk; running
it again plays only what is missing and ends with the same files as a run never stopped. A run
stopped by Ctrl-C records ``interrupted`` in its manifest and raises RunInterrupted; one whose
workers or cluster fail records ``failed`` and raises RunError (one line, no traceback).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import platform
import re
import shutil
import socket
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from horde import __version__
from horde.engine import play_game, prepare
from horde.errors import HordeError, RunError, RunInterrupted
from horde.experiments import Experiment, data_digest, parse_experiment
from horde.presets import FIELD_NAMES, KNOBS, GameSetup, setup_from_dict
from horde.stats import wilson, wilson_half_width


def play_chunk(setup: GameSetup | dict, seed, start: int, stop: int, record_turns: bool = False) -> list:
    """Play games ``start`` to ``stop - 1`` of a batch; returns their GameResults in order."""
    if isinstance(setup, dict):
        setup = setup_from_dict(setup)
    prepared = prepare(setup)
    # A fresh policy for every game (new_game makes it): a policy that remembers anything
    # between games would otherwise make results depend on the chunking.
    return [play_game(prepared, (seed, i), record_turns=record_turns) for i in range(start, stop)]


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def play_many(setup: GameSetup, seed, games: int, workers: int | None = None, chunk_size: int = 200,
              progress: bool = True, record_turns: bool = False) -> Iterator:
    """Yield the GameResults of ``games`` seeded games in order, on ``workers`` processes
    (default: one per core) with a tqdm progress bar."""
    from tqdm import tqdm

    workers = workers or os.cpu_count() or 1
    bar = tqdm(total=games, unit="game", disable=not progress, smoothing=0.1)
    try:
        if workers == 1:
            for start, stop in chunks(games, chunk_size):
                results = play_chunk(setup, seed, start, stop, record_turns)
                bar.update(len(results))
                yield from results
            return
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(play_chunk, setup, seed, start, stop, record_turns)
                       for start, stop in chunks(games, chunk_size)]
            for future in futures:
                results = future.result()
                bar.update(len(results))
                yield from results
    finally:
        bar.close()


def summarise(results) -> dict:
    """Games, team wins, Horde wins, stalls, the team win rate with its Wilson 95% interval, and
    the mean game length in turns."""
    games = team = horde = stall = turns = 0
    for r in results:
        games += 1
        turns += r.turns
        if r.winner == "team":
            team += 1
        elif r.winner == "horde":
            horde += 1
        else:
            stall += 1
    low, high = wilson(team, games)
    return {"games": games, "team_wins": team, "horde_wins": horde, "stalls": stall,
            "team_win_rate": team / games if games else 0.0, "ci_low": low, "ci_high": high,
            "mean_turns": turns / games if games else 0.0}


def should_stop(wins: int, games: int, precision: float, cap: int) -> bool:
    """The adaptive stopping rule: stop a cell once it has played ``cap`` games, or once the
    Wilson 95% half-width of its team win rate (``wins`` of ``games``) is at most ``precision``.
    The runner asks only at whole windows of ``check_every`` games (and at the cap)."""
    return games >= cap or (games > 0 and wilson_half_width(wins, games) <= precision)


# ---------------------------------------------------------------- result tables

ROW_GROUP = 100_000  # rows per row group of the final files (fixed: same data, same bytes)
DEFAULT_CHUNK = 250  # games per chunk: 1-2 s of engine time, so a chunk's own cost is a few per cent at most
_KNOB_TYPES = {"int": "int32", "optional_int": "int32", "bool": "bool_", "str": "string", "decks": "string",
               "params": "string"}


@functools.cache
def games_schema():
    """The columns of games.parquet (docs/experiments.md describes each)."""
    import pyarrow as pa

    knob_fields = [(name, getattr(pa, _KNOB_TYPES[KNOBS[name].kind])()) for name in FIELD_NAMES]
    count = pa.int32()
    return pa.schema(
        [("experiment", pa.string()), ("experiment_hash", pa.string()), ("cell", count)] + knob_fields
        + [("setup_hash", pa.string()), ("version", pa.string()), ("seed", pa.int64()), ("game", pa.int64()),
           ("winner", pa.string()), ("turns", count), ("horde_turns", count), ("team_life", count),
           ("team_life_min", count), ("horde_cards_left", count), ("cards_revealed", count),
           ("longest_token_streak", count), ("biggest_horde_turn", count),
           ("revealed", pa.list_(pa.struct([("card", pa.string()), ("horde_turn", count)]))),
           ("boss_drawn", pa.string()), ("boss_uses", pa.map_(pa.string(), count)),
           ("lieutenant_entries", count), ("lieutenant_defeats", count)])


@functools.cache
def turns_schema():
    """The columns of turns.parquet: one row per game and turn, joined to games by (cell, game)."""
    import pyarrow as pa

    count = pa.int32()
    return pa.schema([("cell", count), ("game", pa.int64()), ("turn", count), ("team_life", count),
                      ("horde_power", count), ("horde_library", count)])


def knob_columns(setup: GameSetup) -> dict:
    """The setup's knobs as column values: team decks comma-joined, policy parameters as JSON."""
    values = setup.to_dict()
    values["team_decks"] = ",".join(setup.team_decks)
    values["policy_params"] = json.dumps(dict(setup.policy_params), sort_keys=True)
    return values


def games_table(task: ChunkTask, results: list):
    import pyarrow as pa

    n = len(results)
    columns = {"experiment": [task.experiment] * n, "experiment_hash": [task.experiment_hash] * n,
               "cell": [task.cell] * n}
    for name, value in knob_columns(task.setup).items():
        columns[name] = [value] * n
    columns["setup_hash"] = [task.setup.digest()] * n
    columns["version"] = [__version__] * n
    columns["seed"] = [task.seed] * n
    columns["game"] = list(range(task.start, task.stop))
    for name in ("winner", "turns", "horde_turns", "team_life", "team_life_min", "horde_cards_left",
                 "cards_revealed", "longest_token_streak", "biggest_horde_turn"):
        columns[name] = [getattr(r, name) for r in results]
    columns["revealed"] = [[{"card": card, "horde_turn": turn} for card, turn in r.revealed] for r in results]
    columns["boss_drawn"] = [r.boss for r in results]  # the card; the knob ``boss`` says how it was chosen
    columns["boss_uses"] = [sorted(r.boss_uses.items()) for r in results]
    columns["lieutenant_entries"] = [r.lieutenant_entries for r in results]
    columns["lieutenant_defeats"] = [r.lieutenant_defeats for r in results]
    return pa.table(columns, schema=games_schema())


def turns_table(task: ChunkTask, results: list):
    import pyarrow as pa

    games, turn, life, power, library = [], [], [], [], []
    for i, r in enumerate(results, task.start):
        for row in r.turn_rows:
            games.append(i)
            turn.append(row[0])
            life.append(row[1])
            power.append(row[2])
            library.append(row[3])
    return pa.table({"cell": [task.cell] * len(games), "game": games, "turn": turn, "team_life": life, "horde_power": power,
                     "horde_library": library}, schema=turns_schema())


# ---------------------------------------------------------------- one chunk, on a worker


@dataclass(frozen=True)
class ChunkTask:
    """Games ``start`` to ``stop - 1`` of one cell, and what the worker must agree on."""

    experiment: str
    experiment_hash: str
    cell: int
    setup: GameSetup
    seed: int
    start: int
    stop: int
    turns: bool
    version: str
    code: str
    data: str


@dataclass
class ChunkResult:
    cell: int
    start: int
    stop: int
    counts: tuple  # (team wins, Horde wins, stalls)
    games: object  # pyarrow Table
    turns: object  # pyarrow Table or None
    engine_seconds: float
    seconds: float


@functools.cache
def code_digest() -> str:
    """A digest of the horde package's source: partial results from other code are not resumed."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


_AGREED: set = set()


def check_worker(task: ChunkTask) -> None:
    """A worker must run the same horde code on the same deck and card files as the run."""
    key = (task.code, task.data, task.setup)
    if key in _AGREED:
        return
    host = socket.gethostname()
    if task.version != __version__ or task.code != code_digest():
        raise HordeError(f"worker on {host}: horde {__version__} (code {code_digest()}) differs from the run's "
                         f"horde {task.version} (code {task.code}); install the same horde on every worker")
    if data_digest(task.setup) != task.data:
        from horde.catalogue import decks_dir

        raise HordeError(f"worker on {host}: its deck and card files ({decks_dir()}) differ from the run's; "
                         "give every worker the same files (HORDE_DECKS)")
    _AGREED.add(key)


def play_cell_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk of a cell and return its rows as Arrow tables (what a worker runs)."""
    started = time.perf_counter()
    check_worker(task)
    engine_start = time.perf_counter()
    prepared = prepare(task.setup)
    results = [play_game(prepared, (task.seed, i), record_turns=task.turns) for i in range(task.start, task.stop)]
    engine = time.perf_counter() - engine_start
    winners = [r.winner for r in results]
    counts = (winners.count("team"), winners.count("horde"), winners.count("stall"))
    games = games_table(task, results)
    turns = turns_table(task, results) if task.turns else None
    return ChunkResult(task.cell, task.start, task.stop, counts, games, turns, engine,
                       time.perf_counter() - started)


# ---------------------------------------------------------------- backends


def _start_worker() -> None:
    """A local worker leaves Ctrl-C to the parent, and ends when the parent is gone (killed)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's handlers: the command line's SIGTERM handler stops the
    # run in the parent, while a worker told to end (the pool's terminate) must simply end.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class InlineBackend:
    """Chunks played in this process, one at a time (``--workers 1``)."""

    name = "inline"
    slots = 1
    window = 1  # each chunk is saved before the next starts

    def submit(self, function, task) -> Future:
        future: Future = Future()
        try:
            future.set_result(function(task))
        except Exception as error:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(error)
        return future

    def wait(self, futures) -> set:
        return set(futures)

    def failure(self, error: BaseException, chunk: str) -> str | None:
        return None  # the chunk's own error, raised as it is

    def close(self, cancel: bool = False) -> None:
        pass


class ProcessBackend:
    """Chunks on local worker processes (``concurrent.futures``)."""

    name = "processes"

    def __init__(self, workers: int):
        code_digest()  # computed once here, so forked workers agree with the parent
        self.slots = workers
        self.window = 2 * workers
        self.pool = ProcessPoolExecutor(workers, initializer=_start_worker)

    def submit(self, function, task) -> Future:
        return self.pool.submit(function, task)

    def wait(self, futures) -> set:
        return wait_futures(futures, return_when=FIRST_COMPLETED).done

    def failure(self, error: BaseException, chunk: str) -> str | None:
        """One line for a pool that lost a worker (every chunk in hand fails with it), else None."""
        if isinstance(error, BrokenProcessPool):
            return ("a worker process died (out of memory?): use a smaller --chunk-size or fewer --workers, "
                    "or give the machine more memory")
        return None

    def close(self, cancel: bool = False) -> None:
        if cancel:
            processes = list(getattr(self.pool, "_processes", {}).values())
            self.pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a stopped run should stop now, not after the chunks in hand
                process.terminate()
        else:
            self.pool.shutdown()


SCHEDULER_RE = re.compile(r"(tcp|tls|ucx|ws|wss)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}")


class DaskBackend:
    """Chunks on an existing Dask distributed cluster, given by its scheduler's address."""

    name = "dask"

    def __init__(self, address: str, timeout: float = 10):
        if not SCHEDULER_RE.fullmatch(address):
            raise HordeError(f"--scheduler {address!r}: expected a Dask scheduler address like tcp://HOST:PORT")
        try:
            from distributed import Client
        except ImportError:
            raise HordeError("--scheduler needs Dask: install the optional extra with pip install "
                             "'horde[dask]'") from None
        if address.startswith("tcp://"):
            host, _, port = address[len("tcp://"):].rpartition(":")
            try:  # a quick look first: Dask itself retries a refused connection until its timeout
                socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
            except OSError as error:
                raise HordeError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                                 f"({error.strerror or error})") from None
        # Dask's own log lines (a lost connection, its retries, with tracebacks) would come on top of
        # the one line this backend gives for each failure: quiet while the backend is open.
        self.levels = quiet_dask_logs()
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            restore_levels(self.levels)
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise HordeError(f"--scheduler {address}: cannot reach a Dask scheduler there ({reason})") from None
        self.address = address
        try:
            self.client.wait_for_workers(1, timeout=60)
        except (OSError, TimeoutError):
            self.close(cancel=True)
            raise HordeError(f"--scheduler {address}: no Dask worker joined the cluster within 60 s") from None
        self.slots = max(1, sum(self.client.nthreads().values()))
        self.window = 2 * self.slots
        self.executor = self.client.get_executor(pure=False)  # concurrent.futures on the cluster

    def submit(self, function, task) -> Future:
        return self.executor.submit(function, task)

    def wait(self, futures) -> set:
        return wait_futures(futures, return_when=FIRST_COMPLETED).done

    def failure(self, error: BaseException, chunk: str) -> str | None:
        """One line for a chunk that killed its workers, or a scheduler gone away; else None."""
        from distributed import KilledWorker
        from distributed.client import ClosedClientError
        from distributed.comm import CommClosedError

        if isinstance(error, KilledWorker):
            tries = getattr(error, "allowed_failures", 0)
            each = f"; each of the {tries + 1} workers that tried it died" if isinstance(tries, int) and tries else ""
            return (f"a Dask worker died playing {chunk}{each} (out of memory?): use a smaller --chunk-size or "
                    "give the workers more memory (dask worker --memory-limit)")
        if isinstance(error, (CancelledError, ClosedClientError, CommClosedError)):
            # the client cancels every future in hand when it loses the scheduler (an error of the
            # chunk itself, an OSError say, comes back as it was raised and is not one of these)
            return (f"lost the connection to the Dask scheduler at {self.address}: check that the scheduler is "
                    "still running and reachable at that address")
        return None

    def close(self, cancel: bool = False) -> None:
        try:
            if hasattr(self, "executor"):
                self.executor.shutdown(wait=not cancel)
            self.client.close()
        except Exception:  # noqa: BLE001 - a run already stopping by its own error: that error is the one to report
            if not cancel:
                raise
        finally:
            restore_levels(self.levels)


def quiet_dask_logs() -> dict:
    """Silence the ``distributed`` loggers (those with a level of their own too); returns their levels."""
    levels = {}
    for name in ["distributed"] + [n for n in list(logging.root.manager.loggerDict) if n.startswith("distributed.")]:
        logger = logging.getLogger(name)
        if name == "distributed" or logger.level != logging.NOTSET:
            levels[name] = logger.level
            logger.setLevel(logging.CRITICAL)
    return levels


def restore_levels(levels: dict) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def open_backend(workers: int | None = None, scheduler: str | None = None):
    """The Dask cluster at ``scheduler``, else ``workers`` local processes (default: one per
    core; one worker plays in this process)."""
    if scheduler:
        return DaskBackend(scheduler)
    workers = workers or os.cpu_count() or 1
    return InlineBackend() if workers == 1 else ProcessBackend(workers)


# ---------------------------------------------------------------- one cell's progress


class CellState:
    """The finished chunks of one cell and, once known, how many games it plays."""

    def __init__(self, cell, experiment: Experiment):
        self.cell = cell
        self.run = experiment.run
        self.final = None if self.run.adaptive else self.run.games
        self.reason = None if self.run.adaptive else "games"
        self.points = self.run.check_points() if self.run.adaptive else []
        self.checked = 0  # check points already decided
        self.parts: dict[int, tuple[int, tuple]] = {}  # start -> (stop, (team, horde, stall))

    @property
    def needed(self) -> int:
        return self.final if self.final is not None else self.run.cap

    def add(self, start: int, stop: int, counts) -> None:
        self.parts[start] = (stop, tuple(counts))
        self.decide()

    def decide(self) -> None:
        """Adaptive cells: evaluate, in order, every check point the finished chunks now reach."""
        while self.final is None and self.checked < len(self.points):
            point = self.points[self.checked]
            covered, counts = self.prefix(point)
            if not covered:
                return
            self.checked += 1
            if should_stop(counts[0], point, self.run.precision, self.run.cap):
                self.final = point
                precise = wilson_half_width(counts[0], point) <= self.run.precision
                self.reason = "precision" if precise else "cap"

    def prefix(self, games: int) -> tuple[bool, tuple]:
        """Whether games 0 to ``games - 1`` are all played, and their (team, horde, stall) counts."""
        position, totals = 0, [0, 0, 0]
        while position < games:
            part = self.parts.get(position)
            if part is None:
                return False, ()
            stop, counts = part
            for k in range(3):
                totals[k] += counts[k]
            position = stop
        return position == games, tuple(totals)

    def done_games(self) -> int:
        """Games played within the games this cell (still) needs."""
        return sum(stop - start for start, (stop, _) in self.parts.items() if stop <= self.needed)

    def finished(self) -> bool:
        """Whether every game this cell plays is on disk."""
        return self.final is not None and self.prefix(self.final)[0]

    def missing(self, chunk_size: int) -> list[tuple[int, int]]:
        """The chunks still to play: gaps in [0, needed), split at check points and chunk size."""
        boundaries = set(self.points) | {self.needed}
        out, position = [], 0
        taken = sorted((start, stop) for start, (stop, _) in self.parts.items())
        taken.append((self.needed, self.needed))
        for start, stop in taken:
            if start > position:
                end = min(start, self.needed)
                while position < end:
                    limit = min([b for b in boundaries if b > position] + [end])
                    step_end = min(position + chunk_size, limit)
                    out.append((position, step_end))
                    position = step_end
            position = max(position, stop)
            if position >= self.needed:
                break
        return out

    def summary(self) -> dict:
        games = self.final
        _, (team, horde, stall) = self.prefix(games)
        low, high = wilson(team, games)
        return {"cell": self.cell.index, "label": self.cell.label, "values": self.cell.values,
                "setup": self.cell.setup.to_dict(), "setup_hash": self.cell.setup.digest(), "games": games,
                "stopped_by": self.reason, "team_wins": team, "horde_wins": horde, "stalls": stall,
                "team_win_rate": team / games, "ci_low": low, "ci_high": high,
                "half_width": (high - low) / 2}


# ---------------------------------------------------------------- running an experiment


@dataclass
class RunOutcome:
    """What ``run_experiment`` did: the results folder and each cell's summary."""

    folder: Path
    cells: list
    games_played: int
    already_complete: bool = False


def part_path(folder: Path, kind: str, cell: int, start: int, stop: int) -> Path:
    return folder / "parts" / f"cell-{cell:04d}" / f"{kind}-{start:09d}-{stop:09d}.parquet"


PART_RE = re.compile(r"games-(\d{9})-(\d{9})\.parquet")


def write_atomically(path: Path, write) -> None:
    """``write(temporary path)``, then rename: a reader sees the whole file or none."""
    temporary = path.with_name(path.name + ".tmp")
    write(temporary)
    os.replace(temporary, path)


def write_json(path: Path, data: dict) -> None:
    write_atomically(path, lambda p: p.write_text(json.dumps(data, indent=2, default=str) + "\n"))


def read_manifest(folder: Path) -> dict | None:
    path = folder / "manifest.json"
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        raise HordeError("cannot read the manifest of an earlier run; move the folder away to start again",
                         str(path)) from None


def check_folder(folder: Path, experiment: Experiment) -> dict | None:
    """The earlier run's manifest if ``folder`` holds this very experiment; None if it is new;
    an error if it holds anything else (results are never overwritten by another experiment)."""
    manifest = read_manifest(folder)
    if manifest is None:
        if folder.exists() and any(p.name not in (".lock", "experiment.toml") for p in folder.iterdir()):
            raise HordeError("the results folder exists and is not from a horde run; move it away or use "
                             "--out", str(folder))
        return None
    key = json.loads(json.dumps(experiment.key()))
    if manifest.get("key") != key:
        raise HordeError("the results folder holds a different experiment (see its experiment.toml); move it "
                         "away or use --out", str(folder))
    return manifest


def is_complete(folder: Path, manifest: dict | None, experiment: Experiment) -> bool:
    if not manifest or manifest.get("status") != "complete":
        return False
    files = ["games.parquet"] + (["turns.parquet"] if experiment.run.turns else [])
    return all((folder / name).exists() for name in files)


def scan_parts(folder: Path, states: list, turns: bool) -> None:
    """Read what an earlier run finished: each part's winners (a part unreadable or missing its
    turns file is deleted and played again)."""
    import pyarrow.parquet as pq

    parts = folder / "parts"
    if not parts.exists():
        return
    for leftover in parts.rglob("*.tmp"):
        leftover.unlink()
    for state in states:
        directory = parts / f"cell-{state.cell.index:04d}"
        if not directory.exists():
            continue
        for path in sorted(directory.glob("games-*.parquet")):
            match = PART_RE.fullmatch(path.name)
            if not match:
                continue
            start, stop = int(match[1]), int(match[2])
            turns_path = part_path(folder, "turns", state.cell.index, start, stop)
            try:
                if turns and not turns_path.exists():
                    raise OSError("no turns part")
                winners = pq.read_table(path, columns=["winner"]).column("winner").to_pylist()
                if len(winners) != stop - start:
                    raise OSError("wrong length")
            except Exception:  # noqa: BLE001 - an unreadable part is deleted and played again
                path.unlink(missing_ok=True)
                turns_path.unlink(missing_ok=True)
                continue
            state.parts[start] = (stop, (winners.count("team"), winners.count("horde"), winners.count("stall")))
        state.decide()


def chunk_size_for(experiment: Experiment, states: list, slots: int, chunk_size: int | None) -> int:
    """The requested chunk size, or ``DEFAULT_CHUNK`` games made smaller when there are too few
    games to keep every worker busy (the size never changes the results)."""
    if chunk_size:
        return chunk_size
    remaining = sum(state.needed - state.done_games() for state in states)
    return max(1, min(DEFAULT_CHUNK, math.ceil(remaining / (4 * slots)) if remaining else DEFAULT_CHUNK))


def environment() -> dict:
    versions = {"horde": __version__, "python": platform.python_version(), "platform": platform.platform()}
    for package in ("numpy", "pyarrow", "pandas", "dask", "distributed"):
        try:
            versions[package] = metadata.version(package)  # without importing it
        except metadata.PackageNotFoundError:
            versions[package] = None
    return versions


class FolderLock:
    """One run at a time per results folder (released when the process ends, however it ends)."""

    def __init__(self, folder: Path):
        self.path = folder / ".lock"
        self.handle = None

    def __enter__(self):
        self.handle = open(self.path, "a+")
        try:
            import fcntl

            fcntl.lockf(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a POSIX lock: worker processes don't inherit it
        except ImportError:
            pass
        except OSError:
            self.handle.close()
            raise HordeError("another horde run is writing to this results folder", str(self.path.parent)) from None
        return self

    def __exit__(self, *exc):
        self.handle.close()


def run_experiment(experiment: Experiment, out="results", *, workers: int | None = None,
                   scheduler: str | None = None, chunk_size: int | None = None, progress: bool = True,
                   backend=None, on_start=None) -> RunOutcome:
    """Run every cell of ``experiment`` into ``out/NAME-HASH/`` and return what was done.

    ``workers`` local processes (default one per core) or the Dask cluster at ``scheduler``;
    ``chunk_size`` games per chunk (default: ``DEFAULT_CHUNK``, less for small runs);
    ``on_start(folder)`` is called once the backend is ready, before anything is written. Resumes an
    earlier run of the same experiment; raises HordeError, with nothing written, for a folder
    holding another experiment or a scheduler it cannot reach. Stopped by KeyboardInterrupt, it
    records ``interrupted`` in the manifest and raises RunInterrupted; when a worker dies or the
    Dask scheduler goes away it records ``failed`` and raises RunError. Either way every part file
    written stays, and running again continues."""
    folder = Path(out) / experiment.folder
    manifest = check_folder(folder, experiment)
    if is_complete(folder, manifest, experiment):
        shutil.rmtree(folder / "parts", ignore_errors=True)
        return RunOutcome(folder, manifest["cells"], 0, already_complete=True)
    if manifest and manifest.get("code") != code_digest() and (folder / "parts").exists():
        raise HordeError(f"the partial results here were made by other horde code (code {manifest.get('code')}, "
                         f"now {code_digest()}); move the folder away or use --out to start again", str(folder))
    backend = backend or open_backend(workers, scheduler)
    cancelled = True
    try:
        if on_start is not None:
            on_start(folder)
        folder.mkdir(parents=True, exist_ok=True)
        with FolderLock(folder):
            outcome = _run(experiment, folder, manifest, backend, chunk_size, progress,
                           scheduler if scheduler else None)
        cancelled = False
        return outcome
    finally:
        backend.close(cancel=cancelled)


def _run(experiment, folder, manifest, backend, chunk_size, progress, scheduler) -> RunOutcome:
    from tqdm import tqdm

    digest = experiment.digest()
    write_atomically(folder / "experiment.toml", lambda p: p.write_text(experiment.to_toml()))
    manifest = manifest or {"experiment": experiment.name, "hash": digest, "key": experiment.key(),
                            "code": code_digest(), "seed": experiment.seed,
                            "game_seeds": "game i of every cell: (seed, i)", "runs": []}
    for earlier in manifest["runs"]:
        if earlier.get("status") == "running":
            earlier["status"] = "killed"  # this run holds the folder's lock, so that one ended without a word
    states = [CellState(cell, experiment) for cell in experiment.cells]
    scan_parts(folder, states, experiment.run.turns)
    size = chunk_size_for(experiment, states, backend.slots, chunk_size)
    session = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "status": "running", "backend": backend.name,
               "workers": backend.slots, "scheduler": scheduler, "chunk_size": size,
               "games_before": sum(s.done_games() for s in states), "games_played": 0, "chunks": 0,
               "wall_seconds": 0.0, "engine_seconds": 0.0, "worker_seconds": 0.0, "write_seconds": 0.0}
    manifest.update(status="running", code=code_digest(), environment=environment(), chunk_size=size,
                    cells=[{"cell": c.index, "label": c.label, "values": c.values, "setup_hash": c.setup.digest()}
                           for c in experiment.cells])
    manifest["runs"].append(session)
    write_json(folder / "manifest.json", manifest)

    queue = deque()
    for state in states:
        for start, stop in state.missing(size):
            window = start // experiment.run.check_every if experiment.run.adaptive else 0
            queue.append(((window, state.cell.index, start), state, start, stop))
    queue = deque(sorted(queue, key=lambda item: item[0]))
    in_flight: dict = {}
    began = time.perf_counter()

    def wanted(state, start) -> bool:
        return state.final is None or start < state.final

    def outstanding() -> int:
        return sum(stop - start for _, state, start, stop in queue if wanted(state, start)) + \
            sum(stop - start for state, start, stop in in_flight.values())

    def kept() -> int:
        return sum(state.done_games() for state in states)

    def backend_failed(error: Exception, state, start, stop) -> None:
        """Raise RunError if ``error`` is the backend's own failure (a worker or the cluster lost)."""
        failure = backend.failure(error, f"cell {state.cell.index}, games {start}-{stop - 1}")
        if failure is not None:
            raise RunError(f"{failure}; {kept()} finished games are kept: run the command again to continue",
                           str(folder)) from None

    def collect(future) -> None:
        state, start, stop = in_flight.pop(future)
        try:
            result = future.result()
        except Exception as error:
            backend_failed(error, state, start, stop)
            raise
        if wanted(state, start):
            written = time.perf_counter()
            try:
                save_chunk(folder, result)
            finally:
                # A stop (Ctrl-C, SIGTERM) may land between writing a part and counting it: what
                # is on disk is kept, so it is counted.
                if part_path(folder, "games", result.cell, start, stop).exists():
                    state.add(start, stop, result.counts)
            session["write_seconds"] += time.perf_counter() - written
        session["games_played"] += stop - start
        session["chunks"] += 1
        session["engine_seconds"] += result.engine_seconds
        session["worker_seconds"] += result.seconds
        bar.update(stop - start)
        bar.total = bar.n + outstanding()
        bar.refresh()

    def stopped(status: str, error: BaseException | None = None) -> None:
        """Record in the manifest that this run ended early, why, and what every cell has finished."""
        session["status"] = manifest["status"] = status
        if error is not None:
            session["error"] = error.one_line() if isinstance(error, HordeError) else \
                (f"{type(error).__name__}: {error}".splitlines() or [""])[0]
        session["games_done"] = kept()
        session["cells_done"] = sum(state.finished() for state in states)
        for entry, state in zip(manifest["cells"], states, strict=True):
            entry.update(games_done=state.done_games(), done=state.finished())

    done = session["games_before"]
    bar = tqdm(total=done + outstanding(), initial=done, unit="game", desc=experiment.name,
               disable=not progress, smoothing=0.05, dynamic_ncols=True)
    try:
        while queue or in_flight:
            while queue and len(in_flight) < backend.window:
                _, state, start, stop = queue.popleft()
                if not wanted(state, start):
                    continue
                task = ChunkTask(experiment.name, digest, state.cell.index, state.cell.setup, experiment.seed,
                                 start, stop, experiment.run.turns, __version__, code_digest(), state.cell.data)
                try:
                    future = backend.submit(play_cell_chunk, task)
                except Exception as error:
                    backend_failed(error, state, start, stop)
                    raise
                in_flight[future] = (state, start, stop)
            for future in backend.wait(in_flight):
                collect(future)
        bar.close()
        assert all(state.final is not None for state in states)
        compacted = time.perf_counter()
        compact(folder, experiment, states)
        session["compact_seconds"] = time.perf_counter() - compacted
    except KeyboardInterrupt:
        session["status"] = manifest["status"] = "interrupted"  # recorded even if the collecting below fails
        for future in [f for f in in_flight if f.done() and not f.cancelled() and f.exception() is None]:
            collect(future)  # chunks finished while stopping are kept too
        stopped("interrupted")
        total = sum(state.needed for state in states)
        raise RunInterrupted(folder, kept(), total, all(state.final is not None for state in states)) from None
    except BaseException as error:
        stopped("failed", error)
        raise
    finally:
        bar.close()
        session["wall_seconds"] = time.perf_counter() - began
        if session["status"] != "running":
            session["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
            write_json(folder / "manifest.json", manifest)

    engine = session["engine_seconds"]
    if engine:
        session["overhead"] = (session["wall_seconds"] * backend.slots - engine) / engine
    session["status"] = "complete"
    session["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    cells = [state.summary() for state in states]
    manifest.update(status="complete", cells=cells, games=sum(c["games"] for c in cells))
    write_json(folder / "manifest.json", manifest)
    shutil.rmtree(folder / "parts", ignore_errors=True)
    (folder / ".lock").unlink(missing_ok=True)
    return RunOutcome(folder, cells, session["games_played"])


def save_chunk(folder: Path, result: ChunkResult) -> None:
    """Write a chunk's part files: turns first, then games (a games part marks the chunk done)."""
    import pyarrow.parquet as pq

    path = part_path(folder, "games", result.cell, result.start, result.stop)
    path.parent.mkdir(parents=True, exist_ok=True)
    if result.turns is not None:
        write_atomically(part_path(folder, "turns", result.cell, result.start, result.stop),
                         lambda p: pq.write_table(result.turns, p))
    write_atomically(path, lambda p: pq.write_table(result.games, p))


def compact(folder: Path, experiment: Experiment, states: list) -> None:
    """Join each cell's parts, in cell and game order, into games.parquet and turns.parquet,
    one part in memory at a time, in row groups of fixed size: the same data gives the same bytes
    however it was chunked."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    kinds = [("games", games_schema())] + ([("turns", turns_schema())] if experiment.run.turns else [])
    metadata = {"horde.experiment": experiment.name, "horde.hash": experiment.digest(), "horde.version": __version__}
    for kind, schema in kinds:
        schema = schema.with_metadata(metadata)

        def write(path, kind=kind, schema=schema):
            with pq.ParquetWriter(path, schema) as writer:
                pending, rows = [], 0
                for state in states:
                    position = 0
                    for start in sorted(state.parts):
                        stop = state.parts[start][0]
                        if stop > state.final:
                            continue
                        assert start == position, "a gap in the parts of a finished cell"
                        position = stop
                        table = pq.read_table(part_path(folder, kind, state.cell.index, start, stop))
                        pending.append(table.cast(schema))
                        rows += table.num_rows
                        while rows >= ROW_GROUP:
                            merged = pa.concat_tables(pending)
                            writer.write_table(merged.slice(0, ROW_GROUP), row_group_size=ROW_GROUP)
                            pending, rows = [merged.slice(ROW_GROUP)], rows - ROW_GROUP
                if rows:
                    writer.write_table(pa.concat_tables(pending), row_group_size=ROW_GROUP)

        write_atomically(folder / f"{kind}.parquet", write)


# ---------------------------------------------------------------- measuring


def single_cell(setup: GameSetup, games: int, seed: int = 1, name: str = "bench") -> Experiment:
    """An experiment of one cell: ``games`` games of ``setup``."""
    knobs = setup.to_dict()
    knobs["commander_casts"] = "unlimited" if setup.commander_casts is None else setup.commander_casts
    return parse_experiment({"name": name, "seed": seed, "setup": knobs, "run": {"games": games}}, name)


def bench_workers(setup: GameSetup, games: int, workers: int, seed: int = 1) -> float:
    """Games per second of a whole experiment run of ``games`` games of ``setup`` on ``workers``
    local processes: start-up, Arrow tables, part files and the final files included."""
    import tempfile

    experiment = single_cell(setup, games, seed)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        run_experiment(experiment, out, workers=workers, progress=False)
        return games / (time.perf_counter() - start)


def bench_engine(setup: GameSetup, games: int, seed: int = 1, record_turns: bool = True) -> float:
    """Games per second of the engine alone in this process (the base of the runner's overhead)."""
    prepared = prepare(setup)
    start = time.perf_counter()
    for i in range(games):
        play_game(prepared, (seed, i), record_turns=record_turns)
    return games / (time.perf_counter() - start)


def describe_cell(summary: dict, width: int = 40) -> str:
    """One line for a cell's summary (the command line prints these)."""
    return (f"{summary['cell']:>4}  {summary['label']:{width}s} {summary['games']:>8} games  team "
            f"{summary['team_win_rate']:6.1%} ({summary['ci_low']:.1%} - {summary['ci_high']:.1%})  "
            f"stopped by {summary['stopped_by']}")
