"""A stopped ``horde run`` always ends: SIGTERM at any moment or a full disk, on two local workers,
ends the command with its one line, no traceback, the right exit code and no worker left, and the
same command then ends with the files of a run never stopped. The pool reads its workers' results
in the run's own thread, so a worker killed halfway through sending one is read as dead, never
waited for; a stop swallowed where Python drops exceptions (a finaliser) or by the code it lands
in still stops the run. ``make stress`` runs hundreds of these stops on a loaded machine."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import scaled
from stress_stops import INTERRUPTED, stress, summary

import horde.lab.runner.run
from horde.cli import cli
from horde.lab.runner.backends import ProcessBackend, WorkerDied

RUN_FILE = ('name = "r"\nseed = 3\n[setup]\nhorde_deck = "mini-recipe"\nboss = "none"\n'
            'team_decks = ["white", "white", "white", "white"]\n[sweep]\nplayers = [2, 3]\n[run]\ngames = 20\n')


def result_of(size: int) -> bytes:
    return b"x" * size


def test_a_worker_killed_halfway_through_sending_its_result_fails_its_chunk_and_leaves_nothing_to_wait_on():
    threads = set(threading.enumerate())
    backend = ProcessBackend(1)
    worker = multiprocessing.active_children()[0]
    future = backend.submit(result_of, 64 * 2**20)  # far more than a pipe holds: the worker blocks sending it
    # Nothing reads the result until ``wait``: once its first bytes are there, the worker is sending it.
    multiprocessing.connection.wait([backend.workers[0].connection])
    os.kill(worker.pid, signal.SIGKILL)
    assert backend.wait([future]) == {future}  # read as dead, not waited for
    assert isinstance(future.exception(), WorkerDied)
    assert backend.failure(future.exception(), "cell 0, games 0-9").startswith("a worker process died (out of memory?)")
    backend.close(cancel=True)
    assert multiprocessing.active_children() == [] and set(threading.enumerate()) == threads  # nothing to join


def test_a_stopped_pool_ends_its_workers_at_once_and_leaves_no_thread():
    threads = set(threading.enumerate())
    backend = ProcessBackend(2)
    futures = [backend.submit(time.sleep, 3600) for _ in range(4)]  # two playing, two waiting
    backend.close(cancel=True)
    assert multiprocessing.active_children() == [] and set(threading.enumerate()) == threads
    assert all(future.done() for future in futures[2:]) and all(future.cancelled() for future in futures[2:])


def test_a_pool_plays_every_chunk_on_its_workers_and_hands_each_its_own_result():
    """The first two chunks go to the two idle workers, the others as workers come free."""
    backend = ProcessBackend(2)
    try:
        futures = [backend.submit(_pid_and, n) for n in range(6)]
        while not all(future.done() for future in futures):
            backend.wait([f for f in futures if not f.done()])
        results = [future.result() for future in futures]
    finally:
        backend.close()
    assert [n for n, _ in results] == list(range(6))
    assert len({pid for _, pid in results}) == 2 and os.getpid() not in {pid for _, pid in results}
    assert multiprocessing.active_children() == []


def _pid_and(n: int) -> tuple[int, int]:
    return n, os.getpid()


class StopInItsFinaliser:
    """An object whose finaliser gets the SIGTERM: the handler's KeyboardInterrupt is raised inside
    ``__del__``, where Python prints it ("Exception ignored in ...") and drops it."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        sum(range(3))  # the handler runs here, in the finaliser


def stopped_run(decks, tmp_path, monkeypatch, swallow) -> tuple:
    """``horde run`` in this process, its third chunk getting a SIGTERM that ``swallow`` swallows;
    the result and the folder."""
    monkeypatch.chdir(tmp_path)
    Path("r.toml").write_text(RUN_FILE)
    real = horde.lab.runner.run.play_cell_chunk
    calls = []

    def third_stopped(task):
        calls.append(task)
        if len(calls) == 3:
            swallow()
        return real(task)

    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", third_stopped)
    result = CliRunner().invoke(cli, ["run", "r.toml", "--out", "out", "--workers", "1", "--chunk-size", "5", "--quiet"])
    return result, next(Path("out").iterdir())


def swallowed_by_a_finaliser() -> None:
    StopInItsFinaliser()  # dropped at once: its __del__ runs here


def swallowed_by_the_code() -> None:
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        sum(range(3))
    except KeyboardInterrupt:  # code that takes every KeyboardInterrupt for its own
        pass


@pytest.mark.parametrize("swallow", [swallowed_by_a_finaliser, swallowed_by_the_code], ids=["finaliser", "code"])
def test_a_sigterm_swallowed_where_it_lands_still_stops_the_run(decks, tmp_path, monkeypatch, swallow):
    """A SIGTERM whose KeyboardInterrupt a finaliser or the code swallowed went on to finish with
    exit 0 (and "Exception ignored in ... KeyboardInterrupt" for the finaliser): it stops the run,
    with its one line and exit 143, and the run continues to the files of a run never stopped."""
    before = signal.getsignal(signal.SIGTERM)
    result, folder = stopped_run(decks, tmp_path, monkeypatch, swallow)
    assert signal.getsignal(signal.SIGTERM) is before
    assert result.exit_code == 143, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and INTERRUPTED.fullmatch(lines[0]) and lines[0].startswith("interrupted: "), result.output
    assert "games are kept" in lines[0] and not (folder / "games.parquet").exists()
    monkeypatch.undo()
    os.chdir(tmp_path)
    again = CliRunner().invoke(cli, ["run", "r.toml", "--out", "out", "--workers", "1", "--quiet"],
                               env={"HORDE_DECKS": str(decks)})
    assert again.exit_code == 0, again.output
    whole = CliRunner().invoke(cli, ["run", "r.toml", "--out", "whole", "--workers", "1", "--quiet"],
                               env={"HORDE_DECKS": str(decks)})
    assert whole.exit_code == 0, whole.output
    other = next(Path("whole").iterdir())
    for name in ("games.parquet", "turns.parquet"):
        if (other / name).exists():
            assert (folder / name).read_bytes() == (other / name).read_bytes()


@pytest.mark.slow
def test_stops_of_a_run_on_two_workers_end_at_once_and_continue_to_the_same_files(tmp_path):
    """SIGTERM to the command and to its process group at random moments, and a disk that fills up
    at a random byte (ENOSPC injected at the writer), on two workers: each stop ends with its one
    line, the right exit code, no traceback and no worker left behind, and the command run again
    ends with the files of a run never stopped. No time limit: a stop that hangs fails by the
    suite's guard (make stress measures how long stops take)."""
    kinds = ["sigterm", "disk", "sigterm-group", "disk", "sigterm", "sigterm"]
    stops = stress(max(len(kinds), scaled(4 * len(kinds))), seed=7, games=20, disk="inject", root=tmp_path,
                   kinds=kinds)
    assert [stop for stop in stops if stop.problem] == [], summary(stops, "inject")
    assert {stop.kind for stop in stops} == {"sigterm", "sigterm-group", "disk"}
    assert sum(stop.ended == "failed" for stop in stops) >= 1  # a full disk that stopped a run
