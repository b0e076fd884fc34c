"""Batches of seeded games: the chunk a worker plays (``play_cell_chunk``), the check that every
worker runs the same code on the same files, and ``play_many``, which plays a batch in memory on
the same backends as a run (``horde.lab.runner.backends``).

Game ``i`` of a batch (or of any cell of an experiment) with seed ``S`` is played with the seed
``(S, i)``: its result depends on nothing else, so any number of workers, any chunking and any
backend give the same records.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass

from horde import __version__
from horde.cards.catalogue import decks_dir
from horde.engine.state import Winner
from horde.errors import HordeError, RunError
from horde.lab.experiments import data_digest
from horde.lab.runner.backends import open_backend
from horde.lab.runner.store import code_digest, games_table, turns_table
from horde.lab.stats import wilson
from horde.play import GameResult, play_game, prepare
from horde.setup import GameSetup


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
    approximated: bool = False  # the run's games have an ``approximated`` column (--approximate)


@dataclass
class ChunkResult:
    cell: int
    start: int
    stop: int
    counts: tuple  # (team wins, Horde wins, stalls, aborted games)
    games: object  # pyarrow Table
    turns: object  # pyarrow Table or None
    engine_seconds: float
    seconds: float


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def play_games(task: ChunkTask) -> list[GameResult]:
    """Games ``task.start`` to ``task.stop - 1`` of ``task.setup``, game ``i`` with the seed
    ``(task.seed, i)``, in order. A fresh policy for every game (new_game makes it): a policy
    that remembered anything between games would make results depend on the chunking."""
    prepared = prepare(task.setup)
    return [play_game(prepared, (task.seed, i), record_turns=task.turns) for i in range(task.start, task.stop)]


def play_many(setup: GameSetup, seed: int, games: int, workers: int | None = None, chunk_size: int = 200,
              progress: bool = True, record_turns: bool = False, start: int = 0) -> Iterator[GameResult]:
    """Yield the GameResults of ``games`` seeded games in order (game ``i`` with the seed
    ``(seed, i)``, ``i`` from ``start``), on ``workers`` local processes (default: one per core;
    one plays in this process) with a progress bar (``horde.lab.progress``: a line per tenth in a
    log). The setup is prepared here first, so a bad one fails before any worker starts."""
    from horde.lab.progress import progress_bar

    prepare(setup)
    backend = open_backend(workers)
    bar = progress_bar(games, progress, smoothing=0.1)
    finished = False
    try:
        todo = deque((start + first, start + last) for first, last in chunks(games, chunk_size))
        in_flight: deque[Future[list[GameResult]]] = deque()
        while todo or in_flight:
            while todo and len(in_flight) < backend.window:
                start, stop = todo.popleft()
                task = ChunkTask("", "", 0, setup, seed, start, stop, record_turns, __version__, "", "")
                in_flight.append(backend.submit(play_games, task))
            future = in_flight.popleft()
            while not future.done():  # the backend reads its results as it waits (in this thread)
                backend.wait([future])
            try:
                results = future.result()
            except Exception as error:
                failure = backend.failure(error, "a chunk")
                if failure is not None:  # a worker lost: one line, not a traceback
                    raise RunError(failure) from None
                raise
            bar.update(len(results))
            yield from results
        finished = True
    finally:
        bar.close()
        backend.close(cancel=not finished)


def summarise(results) -> dict:
    """Games, team wins, Horde wins, stalls (H14) and their share, games aborted by the work budget
    (H15), the team win rate with its Wilson 95% interval among all games and among the decided
    ones (won by either side), and the mean game length in turns."""
    games = team = horde = stall = aborted = turns = 0
    for r in results:
        games += 1
        turns += r.turns
        if r.winner == Winner.TEAM:
            team += 1
        elif r.winner == Winner.HORDE:
            horde += 1
        elif r.winner == Winner.STALL:
            stall += 1
        else:
            aborted += 1
    low, high = wilson(team, games)
    decided = team + horde
    decided_low, decided_high = wilson(team, decided)
    return {"games": games, "team_wins": team, "horde_wins": horde, "stalls": stall, "aborted": aborted,
            "team_win_rate": team / games if games else 0.0, "ci_low": low, "ci_high": high,
            "stall_rate": stall / games if games else 0.0, "decided_games": decided,
            "decided_win_rate": team / decided if decided else 0.0, "decided_low": decided_low,
            "decided_high": decided_high, "mean_turns": turns / games if games else 0.0}


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
        raise HordeError(f"worker on {host}: its deck and card files ({decks_dir()}) differ from the run's; "
                         "give every worker the same files (HORDE_DECKS)")
    _AGREED.add(key)


def play_cell_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk of a cell and return its rows as Arrow tables (what a worker runs)."""
    started = time.perf_counter()
    check_worker(task)
    engine_start = time.perf_counter()
    results = play_games(task)
    engine = time.perf_counter() - engine_start
    winners = [r.winner for r in results]
    counts = (winners.count(Winner.TEAM), winners.count(Winner.HORDE), winners.count(Winner.STALL),
              winners.count(Winner.ABORTED))
    approximated = list(prepare(task.setup).approximated) if task.approximated else None
    games = games_table(results, task.setup, task.seed, task.start, task.cell, task.experiment, task.experiment_hash,
                        approximated)
    turns = turns_table(results, task.start, task.cell) if task.turns else None
    return ChunkResult(task.cell, task.start, task.stop, counts, games, turns, engine,
                       time.perf_counter() - started)
