"""Batches of seeded games on local processes, with a progress bar.

Game ``i`` of a batch with seed ``S`` is played with the seed ``(S, i)``: its result depends on
nothing else, so any number of workers or any chunking gives the same records.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from horde.engine import play_game
from horde.presets import GameSetup, setup_from_dict


def play_chunk(setup: GameSetup | dict, seed, start: int, stop: int, record_turns: bool = False) -> list:
    """Play games ``start`` to ``stop - 1`` of a batch; returns their GameResults in order."""
    if isinstance(setup, dict):
        setup = setup_from_dict(setup)
    from horde.policies import make_policy

    policy = make_policy(setup.policy, **dict(setup.policy_params))
    return [play_game(setup, (seed, i), policy=policy, record_turns=record_turns) for i in range(start, stop)]


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
    from horde.stats import wilson

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
