"""Running an experiment: every cell of a sweep, chunk by chunk on a backend, streamed to Parquet
part files and resumable; the bookkeeping of each cell's finished chunks, the adaptive stopping
rule, the manifest of every run, and the final files.

Every cell of an experiment uses the same seeds on purpose (common random numbers): cells that
differ only on the team's side see the same Horde shuffles and dice, so their results pair game
by game.

An experiment run writes ``OUT/NAME-HASH/``: ``experiment.toml`` (the resolved file),
``manifest.json`` (versions, seeds, chunk size, timings, cell summaries), part files under
``parts/`` while it runs, and at the end ``games.parquet`` and ``turns.parquet``. A part file is
written to a temporary name and renamed, so a stopped run keeps every finished chunk; running
it again plays only what is missing and ends with the same files as a run never stopped. A run
stopped by Ctrl-C records ``interrupted`` in its manifest and raises RunInterrupted; one whose
workers or cluster fail, or that can't write (a full disk, a read-only folder), records
``failed`` and raises RunError (one line, no traceback). A results folder is never followed out:
one that is a link, or holds links or special files, is refused before anything is read or
written (``horde.files.check_tree``); a folder left by a run killed before it wrote its manifest
(only its temporary files) is taken up again.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shutil
import time
from collections import deque
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from horde import __version__, build
from horde.errors import HordeError, RunError, RunInterrupted
from horde.files import TEMPORARY, WriteError, check_tree, make_folder
from horde.lab.experiments import Experiment
from horde.lab.runner.backends import open_backend
from horde.lab.runner.batch import ChunkResult, ChunkTask, play_cell_chunk
from horde.lab.runner.store import (
    HELD,
    PART_RE,
    ROW_GROUP,
    code_digest,
    games_schema,
    parquet_rows,
    part_path,
    read_manifest,
    read_parquet,
    turns_schema,
    write_atomically,
    write_json,
)
from horde.lab.stats import wilson, wilson_half_width
from horde.play import prepare


def should_stop(wins: int, games: int, precision: float, cap: int) -> bool:
    """The adaptive stopping rule: stop a cell once it has played ``cap`` games, or once the
    Wilson 95% half-width of its team win rate (``wins`` of ``games``) is at most ``precision``.
    The runner asks only at whole windows of ``check_every`` games (and at the cap)."""
    return games >= cap or (games > 0 and wilson_half_width(wins, games) <= precision)


DEFAULT_CHUNK = 250  # games per chunk: 1-2 s of engine time, so a chunk's own cost is a few per cent at most
MANIFEST_EVERY = 1.0  # seconds between the manifest's notes of a run's progress


class CellState:
    """The finished chunks of one cell and, once known, how many games it plays."""
    def __init__(self, cell, experiment: Experiment):
        self.cell = cell
        self.run = experiment.run
        self.final = None if self.run.adaptive else self.run.games
        self.reason = None if self.run.adaptive else "games"
        self.points = self.run.check_points() if self.run.adaptive else []
        self.checked = 0  # check points already decided
        self.parts: dict[int, tuple[int, tuple]] = {}  # start -> (stop, (team, horde, stall, aborted))

    @property
    def needed(self) -> int:
        return self.final if self.final is not None else self.run.cap

    def add(self, start: int, stop: int, counts) -> None:
        """A finished chunk and its (team, horde, stall[, aborted]) counts."""
        self.parts[start] = (stop, (tuple(counts) + (0, 0, 0, 0))[:4])
        self.decide()

    def decide(self) -> None:
        """Adaptive cells: evaluate, in order, every check point the finished chunks now reach."""
        while self.final is None and self.checked < len(self.points):
            point = self.points[self.checked]
            covered, counts = self.prefix(point)
            if not covered:
                return
            self.checked += 1
            precision = self.run.precision or 0.0  # adaptive runs have one
            if should_stop(counts[0], point, precision, self.run.cap):
                self.final = point
                precise = wilson_half_width(counts[0], point) <= precision
                self.reason = "precision" if precise else "cap"

    def prefix(self, games: int) -> tuple[bool, tuple]:
        """Whether games 0 to ``games - 1`` are all played, and their (team, horde, stall, aborted) counts."""
        position, totals = 0, [0, 0, 0, 0]
        while position < games:
            part = self.parts.get(position)
            if part is None:
                return False, ()
            stop, counts = part
            for k in range(4):
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

    def summary(self) -> dict[str, Any]:
        games = self.final
        assert games is not None, "only for a finished cell"
        _, (team, horde, stall, aborted) = self.prefix(games)
        low, high = wilson(team, games)
        return {"cell": self.cell.index, "label": self.cell.label, "values": self.cell.values,
                "setup": self.cell.setup.to_dict(), "setup_hash": self.cell.setup.digest(), "games": games,
                "stopped_by": self.reason, "team_wins": team, "horde_wins": horde, "stalls": stall,
                "aborted": aborted,
                "team_win_rate": team / games, "ci_low": low, "ci_high": high,
                "half_width": (high - low) / 2}


@dataclass
class RunOutcome:
    """What ``run_experiment`` did: the results folder and each cell's summary."""
    folder: Path
    cells: list
    games_played: int
    already_complete: bool = False


def check_folder(folder: Path, experiment: Experiment) -> dict | None:
    """The earlier run's manifest if ``folder`` holds this very experiment; None if it is new;
    an error if it holds anything else (results are never overwritten by another experiment)."""
    check_tree(folder, "results folder")  # no link or special file anywhere in it
    manifest = read_manifest(folder)
    if manifest is None:
        # A run killed before its manifest was written leaves at most these: it is taken up again.
        if os.path.exists(folder) and any(p.name not in (".lock", "experiment.toml") and not p.name.endswith(TEMPORARY)
                                   for p in folder.iterdir()):
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
    return all(os.path.exists(folder / name) for name in files)


def scan_parts(folder: Path, states: list, turns: bool) -> None:
    """Read what an earlier run finished: each part's winners (a part unreadable or missing its
    turns file is deleted and played again)."""
    for leftover in folder.glob("*" + TEMPORARY):  # a stopped write (never a link: check_tree)
        leftover.unlink()
    parts = folder / "parts"
    if not os.path.exists(parts):
        return
    for leftover in parts.rglob("*" + TEMPORARY):
        leftover.unlink()
    for state in states:
        directory = parts / f"cell-{state.cell.index:04d}"
        if not os.path.exists(directory):
            continue
        for path in sorted(directory.glob("games-*.parquet")):
            match = PART_RE.fullmatch(path.name)
            if not match:
                continue
            start, stop = int(match[1]), int(match[2])
            turns_path = part_path(folder, "turns", state.cell.index, start, stop)
            try:
                if turns:
                    parquet_rows(turns_path)  # a turns part missing or torn (its footer unread) is played again
                winners = read_parquet(path, columns=["winner"]).column("winner").to_pylist()
                if len(winners) != stop - start:
                    raise OSError("wrong length")
            except Exception:  # noqa: BLE001 - an unreadable part is deleted and played again
                path.unlink(missing_ok=True)
                turns_path.unlink(missing_ok=True)
                continue
            state.parts[start] = (stop, (winners.count("team"), winners.count("horde"), winners.count("stall"),
                                         winners.count("aborted")))
        state.decide()


def chunk_size_for(experiment: Experiment, states: list, slots: int, chunk_size: int | None) -> int:
    """The requested chunk size, or ``DEFAULT_CHUNK`` games made smaller when there are too few
    games to keep every worker busy (the size never changes the results)."""
    if chunk_size:
        return chunk_size
    remaining = sum(state.needed - state.done_games() for state in states)
    return max(1, min(DEFAULT_CHUNK, math.ceil(remaining / (4 * slots)) if remaining else DEFAULT_CHUNK))


def environment() -> dict[str, str | None]:
    versions: dict[str, str | None] = {"horde": __version__, "build": build.describe(),
                                       "python": platform.python_version(), "platform": platform.platform()}
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
        self.handle: IO[str] | None = None

    def __enter__(self) -> FolderLock:
        try:  # never through a link (check_tree refused one; this closes the gap)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0),
                         0o666)
        except OSError as error:
            raise WriteError(f"cannot write the lock file: {error.strerror or error}", str(self.path),
                             error.errno) from None
        handle = self.handle = os.fdopen(fd, "a+")  # closed by __exit__
        try:
            import fcntl

            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a POSIX lock: worker processes don't inherit it
        except ImportError:
            pass
        except OSError:
            handle.close()
            raise HordeError("another horde run is writing to this results folder", str(self.path.parent)) from None
        HELD.add(os.path.abspath(self.path.parent))
        return self

    def __exit__(self, *exc: object) -> None:
        HELD.discard(os.path.abspath(self.path.parent))
        if self.handle is not None:
            self.handle.close()


def run_experiment(experiment: Experiment, out="results", *, workers: int | None = None,
                   scheduler: str | None = None, chunk_size: int | None = None, progress: bool = True,
                   backend=None, on_start=None, stop_requested=None) -> RunOutcome:
    """Run every cell of ``experiment`` into ``out/NAME-HASH/`` and return what was done.

    ``workers`` local processes (default one per core) or the Dask cluster at ``scheduler``;
    ``chunk_size`` games per chunk (default: ``DEFAULT_CHUNK``, less for small runs);
    ``on_start(folder)`` is called once the backend is ready, before anything is written;
    ``stop_requested()``, asked between chunks, says that a stop was asked for (a signal whose
    KeyboardInterrupt something swallowed): the run then stops as if interrupted. Resumes an
    earlier run of the same experiment; raises HordeError, with nothing written, for a folder
    holding another experiment or a scheduler it cannot reach. Stopped by KeyboardInterrupt, it
    records ``interrupted`` in the manifest and raises RunInterrupted; when a worker dies or the
    Dask scheduler goes away it records ``failed`` and raises RunError. Either way every part file
    written stays, and running again continues."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise HordeError("cannot write results there: it is a file, not a folder (give --out a folder)", str(out))
    folder = Path(out) / experiment.folder
    manifest = check_folder(folder, experiment)
    if manifest is not None and is_complete(folder, manifest, experiment):
        shutil.rmtree(folder / "parts", ignore_errors=True)
        return RunOutcome(folder, manifest["cells"], 0, already_complete=True)
    if manifest and manifest.get("code") != code_digest() and os.path.exists(folder / "parts"):
        raise HordeError(f"the partial results here were made by other horde code (code {manifest.get('code')}, "
                         f"now {code_digest()}); move the folder away or use --out to start again", str(folder))
    backend = backend or open_backend(workers, scheduler)
    cancelled = True
    try:
        if on_start is not None:
            on_start(folder)
        make_folder(folder)
        with FolderLock(folder):
            outcome = _run(experiment, folder, manifest, backend, chunk_size, progress,
                           scheduler if scheduler else None, stop_requested or (lambda: False))
        cancelled = False
        return outcome
    finally:
        backend.close(cancel=cancelled)


def _run(experiment, folder, manifest, backend, chunk_size, progress, scheduler, stop_requested) -> RunOutcome:
    from horde.lab.progress import progress_bar

    digest = experiment.digest()
    write_atomically(folder / "experiment.toml", experiment.to_toml().encode("utf-8"))
    manifest = manifest or {"experiment": experiment.name, "hash": digest, "key": experiment.key(),
                            "code": code_digest(), "seed": experiment.seed,
                            "game_seeds": "game i of every cell: (seed, i)", "runs": []}
    states = [CellState(cell, experiment) for cell in experiment.cells]
    scan_parts(folder, states, experiment.run.turns)
    on_disk = sum(s.done_games() for s in states)
    for earlier in manifest["runs"]:
        if isinstance(earlier, dict) and earlier.get("status") == "running":
            # This run holds the folder's lock, so that one ended without a word: what it left is on disk.
            earlier["status"] = "killed"
            before = earlier["games_before"] if isinstance(earlier.get("games_before"), int) else 0
            earlier["games_done"] = on_disk
            earlier["games_played"] = max(earlier.get("games_played") or 0, on_disk - before)
    size = chunk_size_for(experiment, states, backend.slots, chunk_size)
    session = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "status": "running", "backend": backend.name,
               "workers": backend.slots, "scheduler": scheduler, "chunk_size": size,
               "games_before": sum(s.done_games() for s in states), "games_played": 0, "chunks": 0,
               "wall_seconds": 0.0, "engine_seconds": 0.0, "worker_seconds": 0.0, "write_seconds": 0.0}
    # How far it is, for `horde summary` of a run in progress: the games on disk, of how many
    # (for an adaptive run, the most its cells may play).
    session.update(games_done=session["games_before"], games_total=sum(s.needed for s in states))
    manifest.update(status="running", code=code_digest(), environment=environment(), chunk_size=size,
                    cells=[{"cell": c.index, "label": c.label, "values": c.values, "setup_hash": c.setup.digest()}
                           for c in experiment.cells])
    manifest["runs"].append(session)
    approximated = approximations(experiment)
    if approximated:  # --approximate: these results are not exact, and say which cards make them so
        manifest["approximated"] = approximated
    manifest["decks"] = deck_slots(experiment)  # how much of each cell's decks is real
    write_json(folder / "manifest.json", manifest)

    queue: deque[tuple[tuple[int, int, int], CellState, int, int]] = deque()
    for state in states:
        for start, stop in state.missing(size):
            window = start // experiment.run.check_every if experiment.run.adaptive else 0
            queue.append(((window, state.cell.index, start), state, start, stop))
    queue = deque(sorted(queue, key=lambda item: item[0]))
    in_flight: dict = {}
    began = time.perf_counter()
    noted = [began, 0.0, 0.0]  # when the manifest last noted progress, how long that took; the bar's total

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
        if failure is not None and stop_requested():
            raise KeyboardInterrupt  # a worker ended by the same stop (SIGTERM to the process group)
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
                if os.path.exists(part_path(folder, "games", result.cell, start, stop)):
                    state.add(start, stop, result.counts)
            session["write_seconds"] += time.perf_counter() - written
        session["games_played"] += stop - start
        session["chunks"] += 1
        session["engine_seconds"] += result.engine_seconds
        session["worker_seconds"] += result.seconds
        now = time.perf_counter()
        if now - noted[0] >= max(MANIFEST_EVERY, 10 * noted[1]):
            # A run killed outright (SIGKILL, power cut) leaves a manifest that says how far it got;
            # a manifest of thousands of cells is noted less often (at most a tenth of the time).
            session.update(games_done=kept(), games_total=sum(state.needed for state in states))
            session["wall_seconds"] = now - began
            write_json(folder / "manifest.json", manifest)
            noted[0], noted[1] = time.perf_counter(), time.perf_counter() - now
        bar.update(stop - start)
        if not bar.disable and now - noted[2] >= 0.5:  # the total, counted anew twice a second at most
            bar.total = bar.n + outstanding()
            bar.refresh()
            noted[2] = now

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
    bar = progress_bar(done + outstanding(), progress, initial=done, desc=experiment.name, smoothing=0.05,
                       dynamic_ncols=True)
    try:
        while queue or in_flight:
            if stop_requested():  # a stop whose KeyboardInterrupt was swallowed still stops the run
                raise KeyboardInterrupt
            while queue and len(in_flight) < backend.window:
                _, state, start, stop = queue.popleft()
                if not wanted(state, start):
                    continue
                task = ChunkTask(experiment.name, digest, state.cell.index, state.cell.setup, experiment.seed,
                                 start, stop, experiment.run.turns, __version__, code_digest(), state.cell.data,
                                 bool(approximated))
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
    except WriteError as error:  # a full disk, a folder made read-only: what is on disk is kept
        failure = RunError(f"{error.message} ({error.path}); {kept()} finished games are kept: free some space (or "
                           "make the folder writable) and run the command again to continue", str(folder))
        stopped("failed", failure)
        raise failure from None
    except BaseException as error:
        stopped("failed", error)
        raise
    finally:
        bar.close()
        session["wall_seconds"] = time.perf_counter() - began
        if session["status"] != "running":
            session["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
            try:
                write_json(folder / "manifest.json", manifest)
            except WriteError:
                pass  # the disk is full even for the manifest: the error above is the one to report

    engine = session["engine_seconds"]
    if engine:
        session["overhead"] = (session["wall_seconds"] * backend.slots - engine) / engine
    session["status"] = "complete"
    session["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    cells = [state.summary() for state in states]
    # The counts noted while it ran lag the chunks collected since (once a second at most).
    session.update(games_done=sum(c["games"] for c in cells), games_total=sum(c["games"] for c in cells),
                   cells_done=len(cells))
    manifest.update(status="complete", cells=cells, games=sum(c["games"] for c in cells))
    write_json(folder / "manifest.json", manifest)
    shutil.rmtree(folder / "parts", ignore_errors=True)
    (folder / ".lock").unlink(missing_ok=True)
    return RunOutcome(folder, cells, session["games_played"])


def approximations(experiment: Experiment) -> list[dict[str, Any]]:
    """For each cell that plays with --approximate, the cards it approximates and the text each drops."""
    found = []
    for cell in experiment.cells:
        cards = prepare(cell.setup).approximated if cell.setup.approximate else {}
        if cards:
            found.append({"cell": cell.index, "label": cell.label,
                          "cards": {name: list(dropped) for name, dropped in cards.items()}})
    return found


def deck_slots(experiment: Experiment) -> list[dict[str, Any]]:
    """For each cell, its decks' card slots: how many are exact, approximated and blank
    (``horde.play.Prepared.slots``)."""
    return [{"cell": cell.index, "label": cell.label, "decks": [deck.record() for deck in prepare(cell.setup).slots()]}
            for cell in experiment.cells]


def save_chunk(folder: Path, result: ChunkResult) -> None:
    """Write a chunk's part files: turns first, then games (a games part marks the chunk done)."""
    import pyarrow.parquet as pq

    path = part_path(folder, "games", result.cell, result.start, result.stop)
    make_folder(path.parent)
    # Not flushed to disk one by one (a sweep of thousands of small cells spent most of its time
    # there): a part a crash left torn does not read back whole, and scan_parts plays it again.
    if result.turns is not None:
        write_atomically(part_path(folder, "turns", result.cell, result.start, result.stop),
                         lambda p: pq.write_table(result.turns, p), flush=False)
    write_atomically(path, lambda p: pq.write_table(result.games, p), flush=False)


def compact(folder: Path, experiment: Experiment, states: list) -> None:
    """Join each cell's parts, in cell and game order, into games.parquet and turns.parquet,
    one part in memory at a time, in row groups of fixed size: the same data gives the same bytes
    however it was chunked."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    kinds = [("games", games_schema(bool(approximations(experiment))))] + \
        ([("turns", turns_schema())] if experiment.run.turns else [])
    metadata = {"horde.experiment": experiment.name, "horde.hash": experiment.digest(), "horde.version": __version__,
                "horde.decks": json.dumps(deck_slots(experiment), sort_keys=True)}  # each cell's decks' card slots
    for kind, schema in kinds:
        schema = schema.with_metadata(metadata)

        def write(handle, kind=kind, schema=schema):
            with pq.ParquetWriter(handle, schema) as writer:
                pending, rows = [], 0
                for state in states:
                    position = 0
                    for start in sorted(state.parts):
                        stop = state.parts[start][0]
                        if stop > state.final:
                            continue
                        assert start == position, "a gap in the parts of a finished cell"
                        position = stop
                        table = read_parquet(part_path(folder, kind, state.cell.index, start, stop))
                        pending.append(table.cast(schema))
                        rows += table.num_rows
                        while rows >= ROW_GROUP:
                            merged = pa.concat_tables(pending)
                            writer.write_table(merged.slice(0, ROW_GROUP), row_group_size=ROW_GROUP)
                            pending, rows = [merged.slice(ROW_GROUP)], rows - ROW_GROUP
                if rows:
                    writer.write_table(pa.concat_tables(pending), row_group_size=ROW_GROUP)

        write_atomically(folder / f"{kind}.parquet", write)


def describe_cell(summary: dict, width: int = 40) -> str:
    """One line for a cell's summary (the command line prints these)."""
    return (f"{summary['cell']:>4}  {summary['label']:{width}s} {summary['games']:>8} games  team "
            f"{summary['team_win_rate']:6.1%} ({summary['ci_low']:.1%} - {summary['ci_high']:.1%})  "
            f"stopped by {summary['stopped_by']}" + (f"  ABORTED {summary['aborted']} (H15)" if summary.get("aborted") else ""))
