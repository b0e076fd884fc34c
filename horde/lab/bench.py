"""The benchmark behind ``make bench``: the reference scenario's speed and memory.

Reference scenario: 4 players, ``zombie-horde`` with boss and lieutenants, the four bundled team
decks, the ``baseline`` policy. Prints which build runs (``horde.build``), games per second on one
core (the median of 5 runs after a warm-up) and, for a compiled build, the same for its pure-Python
sources (a child process with ``HORDE_BUILD=pure``) and the ratio; the speed-up on 2 worker
processes, and the peak memory of the process. Speed is measured here and only here, never by a
timed test. ``make bench`` runs it on the installed build (``.venv-fast``).
The ``expert`` policy, which plays its important decisions forward on fair copies of the game
(the future drawn again), is timed on the same scenario (the median and range of 5 runs of 50
games), and so is the clairvoyant ``lookahead`` (median of 3 runs), each beside ``baseline`` on
the same seeds.

It then times a whole ``horde run`` of the reference scenario on 2 worker processes (start-up,
Parquet parts and the final files included), projects the time of 1,000,000 games from it, and
reports the peak memory of the run's main process and of its largest worker.

    python -m horde.lab.bench [--games N] [--runs 5] [--seed 1] [--run-games 4000] [--lookahead-games 10]
                              [--expert-games 50]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from horde import __version__, build
from horde.lab.experiments import Experiment, parse_experiment
from horde.lab.runner import play_many, run_experiment
from horde.play import play_game, prepare
from horde.setup import GameSetup, make_setup
from horde.team.policies import make_policy


def one_core(setup, games: int, seed: int, policy_name: str | None = None) -> float:
    """Games per second playing ``games`` games in this process (with ``policy_name`` instead of
    the setup's policy when given)."""
    policy = make_policy(policy_name or setup.policy)
    start = time.perf_counter()
    for i in range(games):
        play_game(setup, (seed, i), policy=policy)
    return games / (time.perf_counter() - start)


def workers(setup, games: int, seed: int, count: int) -> float:
    """Games per second on ``count`` worker processes (process start-up included)."""
    start = time.perf_counter()
    done = sum(1 for _ in play_many(setup, seed, games, workers=count, progress=False))
    return done / (time.perf_counter() - start)


def whole_run(setup: GameSetup, games: int, seed: int, count: int) -> float:
    """Games per second of ``horde run`` of ``games`` reference games on ``count`` workers."""
    return bench_workers(setup, games, count, seed)


def single_cell(setup: GameSetup, games: int, seed: int = 1, name: str = "bench") -> Experiment:
    """An experiment of one cell: ``games`` games of ``setup``."""
    knobs = setup.to_dict()
    knobs["commander_casts"] = "unlimited" if setup.commander_casts is None else setup.commander_casts
    return parse_experiment({"name": name, "seed": seed, "setup": knobs, "run": {"games": games}}, name)


def bench_workers(setup: GameSetup, games: int, workers: int, seed: int = 1) -> float:
    """Games per second of a whole experiment run of ``games`` games of ``setup`` on ``workers``
    local processes: start-up, Arrow tables, part files and the final files included."""
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


def peak_memory_mb() -> float:
    """Peak resident memory of this process and its finished children, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024  # Linux reports kilobytes


def one_core_median(setup: GameSetup, games: int, runs: int, seed: int) -> tuple[float, list[float]]:
    """The median games per second on one core of ``runs`` runs after a warm-up, and the runs."""
    one_core(setup, max(20, games // 10), seed + 1000)  # warm-up: decks loaded, caches filled
    rates = [one_core(setup, games, seed + run) for run in range(runs)]
    return statistics.median(rates), rates


def pure_median(games: int, runs: int, seed: int) -> float:
    """The one-core median of this install's pure-Python sources, measured in a child process."""
    environment = dict(os.environ, HORDE_BUILD="pure")
    output = subprocess.run([sys.executable, "-P", "-m", "horde.lab.bench", "--one-core-only", "--games", str(games),
                             "--runs", str(runs), "--seed", str(seed)], env=environment, capture_output=True,
                            text=True, check=True).stdout
    return float(output.split()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per timed run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run-games", type=int, default=4000, help="games of the timed horde run (0: skip it)")
    parser.add_argument("--lookahead-games", type=int, default=10, help="games per timed run of lookahead (0: skip)")
    parser.add_argument("--expert-games", type=int, default=50, help="games per timed run of expert (0: skip)")
    parser.add_argument("--one-core-only", action="store_true", help=argparse.SUPPRESS)  # for pure_median
    args = parser.parse_args(argv)
    setup = make_setup("zombie-horde", players=4)
    if args.one_core_only:
        print(one_core_median(setup, args.games, args.runs, args.seed)[0])
        return
    print(f"horde {__version__}, {build.describe()}, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"reference scenario: {setup.players} players, {setup.horde_deck} (boss {setup.boss}, lieutenants "
          f"{setup.lieutenants}), team decks {', '.join(setup.team_decks)}, policy {setup.policy}")
    median, rates = one_core_median(setup, args.games, args.runs, args.seed)
    line = (f"one core: {median:,.0f} games/s (median of {args.runs} runs of {args.games} games; "
            f"min {min(rates):,.0f}, max {max(rates):,.0f})")
    if build.build() == "compiled":
        pure = pure_median(args.games, args.runs, args.seed)
        line += f"; pure Python {pure:,.0f} games/s; compiled/pure {median / pure:.2f}x"
    print(line)
    if args.expert_games:
        expert = make_policy("expert")
        fair = [one_core(setup, args.expert_games, args.seed + run, "expert") for run in range(args.runs)]
        level = [one_core(setup, args.expert_games, args.seed + run) for run in range(args.runs)]
        print(f"expert (samples {expert.samples}, candidates {expert.candidates}, horizon {expert.horizon}): "
              f"{statistics.median(fair):,.2f} games/s (median of {args.runs} runs of {args.expert_games} games; "
              f"min {min(fair):,.2f}, max {max(fair):,.2f}); baseline on the same games "
              f"{statistics.median(level):,.0f} games/s: {statistics.median(level) / statistics.median(fair):,.0f}x slower")
    if args.lookahead_games:
        ahead = [one_core(setup, args.lookahead_games, args.seed + run, "lookahead") for run in range(3)]
        level = [one_core(setup, args.lookahead_games, args.seed + run) for run in range(3)]
        print(f"lookahead (budget {make_policy('lookahead').budget}): {statistics.median(ahead):,.2f} games/s "
              f"(median of 3 runs of {args.lookahead_games} games; min {min(ahead):,.2f}, max {max(ahead):,.2f}); "
              f"baseline on the same games {statistics.median(level):,.0f} games/s: "
              f"{statistics.median(level) / statistics.median(ahead):,.0f}x slower")
    games = args.games * 4
    single = workers(setup, games, args.seed, 1)
    double = workers(setup, games, args.seed, 2)
    print(f"workers: 1 -> {single:,.0f} games/s, 2 -> {double:,.0f} games/s, speed-up {double / single:.2f}x "
          f"({games} games each); 1,000,000 games would take {1_000_000 / double / 60:,.1f} min on 2 workers")
    print(f"peak memory: {peak_memory_mb():,.0f} MB")
    if args.run_games:
        rate = whole_run(setup, args.run_games, args.seed, 2)
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"horde run, 2 workers: {rate:,.0f} games/s ({args.run_games} games); 1,000,000 games would take "
              f"{1_000_000 / rate / 60:,.1f} min; peak memory {own:,.0f} MB main process, {worker:,.0f} MB "
              f"largest worker")
    print(f"load average after: {os.getloadavg()[0]:.1f} (the 2 cores may be shared: compare builds by "
          "instruction counts, docs/speed.md)")


if __name__ == "__main__":
    main()
