"""Many seeded games: batches played in memory, and experiments run cell by cell into results
folders, on local processes or a Dask cluster. One room per concern, bottom to top:

- ``store``: what a results folder holds (the Parquet schema, shared with ``horde.lab.analysis``);
- ``backends``: where chunks are played (this process, local workers, a Dask cluster);
- ``batch``: the chunk a worker plays, the worker check, ``play_many`` and ``summarise``;
- ``run``: ``run_experiment`` and its bookkeeping (cells, stopping rule, manifest, final files).

This package re-exports their public names (``from horde.lab.runner import play_many``).
"""

from __future__ import annotations

from horde.lab.runner.backends import DaskBackend, InlineBackend, ProcessBackend, open_backend
from horde.lab.runner.batch import (
    ChunkResult,
    ChunkTask,
    check_worker,
    chunks,
    play_cell_chunk,
    play_games,
    play_many,
    summarise,
)
from horde.lab.runner.run import (
    DEFAULT_CHUNK,
    CellState,
    FolderLock,
    RunOutcome,
    approximations,
    compact,
    deck_slots,
    describe_cell,
    run_experiment,
    save_chunk,
    should_stop,
)
from horde.lab.runner.store import (
    ROW_GROUP,
    code_digest,
    games_schema,
    games_table,
    part_path,
    turns_schema,
    turns_table,
    write_atomically,
)

__all__ = [
    "DEFAULT_CHUNK", "ROW_GROUP", "CellState", "ChunkResult", "ChunkTask", "DaskBackend", "FolderLock",
    "InlineBackend", "ProcessBackend", "RunOutcome", "approximations", "check_worker", "chunks", "code_digest",
    "compact", "deck_slots", "describe_cell", "games_schema", "games_table", "open_backend", "part_path", "play_cell_chunk",
    "play_games", "play_many", "run_experiment", "save_chunk", "should_stop", "summarise", "turns_schema",
    "turns_table", "write_atomically",
]
