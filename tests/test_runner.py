"""The runner: the same files whatever the workers, chunks or backend; resume after a stop, an
interrupt (Ctrl-C, SIGTERM) or a failed worker or cluster; the adaptive stopping rule; the output
columns and the manifest."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, scaled

import horde.cards.catalogue
import horde.cards.decks
import horde.lab.runner.run
from horde.cli import cli
from horde.errors import HordeError, RunError, RunInterrupted
from horde.lab.bench import bench_workers
from horde.lab.experiments import parse_experiment
from horde.lab.runner import (
    CellState,
    ProcessBackend,
    games_schema,
    play_many,
    run_experiment,
    should_stop,
    summarise,
    turns_schema,
)
from horde.lab.stats import Z95, wilson_half_width
from horde.play import play_game
from horde.setup import FIELD_NAMES, make_setup


def experiment(**run):
    """Four cells of the test decks: players by policy."""
    data = {"name": "tiny", "seed": 7,
            "setup": {"horde_deck": "mini-recipe", "team_decks": ["white"] * 4, "boss": "none"},
            "sweep": {"players": [2, 4], "policy": ["baseline", "random"]},
            "run": run or {"games": 12}}
    return parse_experiment(data, "tiny.toml")


def files(outcome) -> dict:
    return {name: (outcome.folder / name).read_bytes() for name in ("games.parquet", "turns.parquet")}


def parts_match(folder: Path, whole: Path) -> int:
    """Every part file a stopped run left is whole and holds the rows of a run never stopped;
    returns the games in them."""
    games = pq.read_table(whole / "games.parquet").to_pylist()
    turns = pq.read_table(whole / "turns.parquet").to_pylist()
    assert not list(folder.glob("parts/*/*.tmp"))
    played = 0
    for path in folder.glob("parts/*/games-*.parquet"):
        _, start, stop = path.stem.split("-")
        cell, start, stop = int(path.parent.name.split("-")[1]), int(start), int(stop)
        assert pq.read_table(path).to_pylist() == [r for r in games if r["cell"] == cell and start <= r["game"] < stop]
        turns_part = path.with_name(path.name.replace("games-", "turns-"))
        assert pq.read_table(turns_part).to_pylist() == [r for r in turns
                                                         if r["cell"] == cell and start <= r["game"] < stop]
        played += stop - start
    return played


def small_setup(**knobs):
    return make_setup("zombie-horde", horde_deck="mini-recipe", team_decks=["white"] * 4, boss="none", **knobs)


# ---------------------------------------------------------------- batches (the simulate command)


def test_play_many_gives_the_games_of_play_game_in_order(decks):
    setup = small_setup(players=2)
    results = list(play_many(setup, 5, 7, workers=1, chunk_size=3, progress=False))
    assert [r.seed for r in results] == [(5, i) for i in range(7)]
    assert [r.record() for r in results] == [play_game(setup, (5, i)).record() for i in range(7)]
    summary = summarise(results)
    assert summary["games"] == 7 and summary["team_wins"] + summary["horde_wins"] + summary["stalls"] == 7


# ---------------------------------------------------------------- the stopping rule


def test_should_stop_at_the_cap_or_within_precision():
    assert should_stop(0, 100, 0.01, 100)  # the cap
    assert not should_stop(50, 100, 0.01, 10_000)
    # p = 0.5: the Wilson half-width first reaches 0.01 between 9550 and 9600 games
    assert not should_stop(4775, 9550, 0.01, 10**6)
    assert should_stop(4800, 9600, 0.01, 10**6)
    assert wilson_half_width(4800, 9600) <= 0.01 < wilson_half_width(4775, 9550)
    assert not should_stop(0, 0, 0.5, 10)


@pytest.mark.parametrize("rate", [0.1, 0.3, 0.5])
def test_should_stop_on_a_known_win_rate(rate):
    """A stub game that the team wins with probability ``rate``: checked every 100 games, the rule
    stops at the first window whose half-width is within 0.02, near z^2 p (1 - p) / 0.02^2 games."""
    rng = random.Random(f"stub/{rate}")
    precision, step, cap = 0.02, 100, 50_000
    wins = games = 0
    while True:
        wins += sum(rng.random() < rate for _ in range(step))
        games += step
        if should_stop(wins, games, precision, cap):
            break
        assert wilson_half_width(wins, games) > precision
    expected = Z95 ** 2 * rate * (1 - rate) / precision ** 2
    assert games < cap and wilson_half_width(wins, games) <= precision
    assert abs(games - expected) <= 0.2 * expected + step, (games, expected)


def test_a_cell_stops_at_the_first_window_within_precision_whatever_order_chunks_finish(decks):
    exp = experiment(games="auto", precision=0.1, check_every=40, max_games=400)
    state = CellState(exp.cells[0], exp)
    assert state.points == [40, 80, 120, 160, 200, 240, 280, 320, 360, 400]
    # 40 games at 50%: half-width 0.147; 80 games at 50%: 0.106; 120 games: 0.087 (stop)
    for start in (100, 80, 60, 40):  # later chunks first
        state.add(start, start + 20, (10, 10, 0))
    assert state.final is None
    state.add(20, 40, (10, 10, 0))
    assert state.final is None
    state.add(0, 20, (10, 10, 0))
    assert (state.final, state.reason) == (120, "precision")
    assert state.summary()["games"] == 120 and state.summary()["team_wins"] == 60


def test_a_cell_missing_chunks_respect_earlier_parts_and_windows(decks):
    exp = experiment(games="auto", precision=0.01, check_every=200, max_games=500)
    state = CellState(exp.cells[0], exp)
    state.parts = {0: (100, (0, 100, 0)), 250: (300, (0, 50, 0))}  # from a run with other chunks
    assert state.missing(120) == [(100, 200), (200, 250), (300, 400), (400, 500)]
    assert state.missing(60) == [(100, 160), (160, 200), (200, 250), (300, 360), (360, 400), (400, 460),
                                 (460, 500)]


# ---------------------------------------------------------------- same files however it runs


def test_same_files_whatever_the_workers_and_chunks(decks, tmp_path):
    exp = experiment(games=15)
    one = run_experiment(exp, tmp_path / "one", workers=1, progress=False)
    two = run_experiment(exp, tmp_path / "two", workers=2, chunk_size=4, progress=False)
    assert files(one) == files(two)
    assert one.cells == two.cells


def test_adaptive_cells_give_the_same_files_whatever_the_workers(decks, tmp_path):
    exp = experiment(games="auto", precision=0.12, check_every=20, max_games=200)
    one = run_experiment(exp, tmp_path / "one", workers=1, chunk_size=20, progress=False)
    two = run_experiment(exp, tmp_path / "two", workers=2, chunk_size=7, progress=False)
    assert files(one) == files(two)


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HORDE_DECKS", str(TEST_DECKS))  # the workers inherit it
        with distributed.LocalCluster(n_workers=2, processes=True, host="127.0.0.1", threads_per_worker=1,
                                      dashboard_address=None) as cluster:
            yield cluster.scheduler_address


def test_a_dask_cluster_gives_the_local_files(decks, tmp_path, dask_cluster):
    exp = experiment(games=15)
    local = run_experiment(exp, tmp_path / "local", workers=2, progress=False)
    remote = run_experiment(exp, tmp_path / "dask", scheduler=dask_cluster, chunk_size=5, progress=False)
    assert files(local) == files(remote)
    manifest = json.loads((remote.folder / "manifest.json").read_text())
    assert manifest["runs"][0]["backend"] == "dask" and manifest["runs"][0]["scheduler"] == dask_cluster


def test_run_command_on_a_dask_cluster(decks, tmp_path, monkeypatch, dask_cluster):
    monkeypatch.chdir(tmp_path)
    Path("d.toml").write_text('name = "d"\nseed = 2\n[setup]\nhorde_deck = "mini-recipe"\nboss = "none"\n'
                              'team_decks = ["white", "white", "white", "white"]\n[sweep]\nplayers = [2, 3]\n'
                              '[run]\ngames = 8\n')
    result = CliRunner().invoke(cli, ["run", "d.toml", "--scheduler", dask_cluster, "--out", "out", "--quiet"])
    assert result.exit_code == 0, result.output
    local = CliRunner().invoke(cli, ["run", "d.toml", "--workers", "1", "--out", "local", "--quiet"])
    folder = result.output.splitlines()[-1].split(": ")[1]
    assert Path(folder, "games.parquet").read_bytes() == Path(local.output.splitlines()[-1].split(": ")[1],
                                                              "games.parquet").read_bytes()


# ---------------------------------------------------------------- stopping and resuming


@pytest.mark.parametrize("run", [{"games": 30}, {"games": "auto", "precision": 0.12, "check_every": 20,
                                                 "max_games": 120}], ids=["games", "auto"])
def test_resume_after_a_stop_gives_the_files_of_a_run_never_stopped(decks, tmp_path, monkeypatch, run):
    exp = experiment(**run)
    whole = run_experiment(exp, tmp_path / "whole", workers=2, progress=False)

    calls = []
    real = horde.lab.runner.run.play_cell_chunk

    def stop_at_the_fourth(task):
        calls.append(task)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", stop_at_the_fourth)
    with pytest.raises(RunInterrupted) as stop:  # a KeyboardInterrupt, after the manifest is written
        run_experiment(exp, tmp_path / "stopped", workers=1, chunk_size=10, progress=False)
    folder = tmp_path / "stopped" / exp.folder
    assert (stop.value.folder, stop.value.games_done) == (folder, 30)
    assert not (folder / "games.parquet").exists()
    assert len(list(folder.glob("parts/*/games-*.parquet"))) == 3
    assert parts_match(folder, whole.folder) == 30
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    entry = manifest["runs"][0]
    assert (entry["status"], entry["games_done"], entry["games_played"]) == ("interrupted", 30, 30)
    assert "finished" in entry and "error" not in entry
    assert sum(cell["games_done"] for cell in manifest["cells"]) == 30
    assert entry["cells_done"] == sum(cell["done"] for cell in manifest["cells"]) == 1  # cell 0 is whole
    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", real)

    resumed = run_experiment(exp, tmp_path / "stopped", workers=2, chunk_size=7, progress=False)
    assert files(resumed) == files(whole)
    assert resumed.games_played < sum(c["games"] for c in whole.cells) + 50
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert [r["status"] for r in manifest["runs"]] == ["interrupted", "complete"]
    assert manifest["runs"][1]["games_before"] == 30
    assert not (folder / "parts").exists()


def start_two_workers(path: Path, out: Path):
    """Start ``horde run PATH`` (chunks of 5 games, two workers) in its own process group and
    return (command, env, process) once it has written 4 games parts."""
    command = [sys.executable, "-m", "horde.cli", "run", str(path), "--out", str(out), "--quiet", "--chunk-size", "5"]
    env = dict(os.environ, HORDE_DECKS=str(TEST_DECKS))
    process = subprocess.Popen(command + ["--workers", "2"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    while len(list(out.glob("*/parts/*/games-*.parquet"))) < 4:
        assert process.poll() is None, process.stderr.read()
        time.sleep(0.02)
    return command, env, process


def test_a_killed_run_keeps_its_chunks_and_resumes(decks, tmp_path):
    """The command killed outright (SIGKILL) while it runs on two processes; run again, it marks
    the killed run as such and ends with the files of a run never stopped."""
    path = tmp_path / "k.toml"
    path.write_text('name = "k"\nseed = 4\n[setup]\nhorde_deck = "mini-recipe"\nboss = "none"\n'
                    'team_decks = ["white", "white", "white", "white"]\n[sweep]\nplayers = [2, 4]\n'
                    '[run]\ngames = 150\n')
    command, env, process = start_two_workers(path, tmp_path / "out")
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = len(list(tmp_path.glob("out/*/parts/*/games-*.parquet")))
    assert kept >= 4 and not list(tmp_path.glob("out/*/games.parquet"))
    manifest_path, = tmp_path.glob("out/*/manifest.json")
    assert json.loads(manifest_path.read_text())["runs"][0]["status"] == "running"  # nobody could say otherwise
    again = subprocess.run(command + ["--workers", "1", "--chunk-size", "23"], env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    manifest = json.loads(manifest_path.read_text())
    assert [run["status"] for run in manifest["runs"]] == ["killed", "complete"]
    assert manifest["runs"][1]["games_before"] == 5 * kept
    # The killed run's entry says what it left on disk (it said games_played 0 when it could not speak).
    assert manifest["runs"][0]["games_done"] == manifest["runs"][0]["games_played"] == 5 * kept
    subprocess.run(command[:6] + [str(tmp_path / "whole"), "--quiet"], env=env, check=True, capture_output=True)
    for name in ("games.parquet", "turns.parquet"):
        resumed, = tmp_path.glob(f"out/*/{name}")
        whole, = tmp_path.glob(f"whole/*/{name}")
        assert resumed.read_bytes() == whole.read_bytes()


RUN_FILE = ('name = "r"\nseed = 3\n[setup]\nhorde_deck = "mini-recipe"\nboss = "none"\n'
            'team_decks = ["white", "white", "white", "white"]\n[sweep]\nplayers = [2, 3]\n[run]\ngames = 20\n')


def run_cli(*args):
    return CliRunner().invoke(cli, ["run", *args])


def whole_run(tmp_path) -> Path:
    """The folder of a run of RUN_FILE never stopped."""
    result = run_cli("r.toml", "--out", str(tmp_path / "whole"), "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    return Path(result.output.splitlines()[-1].split(": ")[1])


def same_files(one: Path, two: Path) -> bool:
    return all((one / name).read_bytes() == (two / name).read_bytes() for name in ("games.parquet", "turns.parquet"))


def only_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_command_says_how_to_continue_and_continues(decks, tmp_path, monkeypatch, signum):
    """Ctrl-C, or SIGTERM to the command's process, after two chunks: one line saying what is
    kept and the command that continues, exit 128 + the signal, the SIGTERM handler put back; the
    command it prints ends with the files of a run never stopped."""
    monkeypatch.chdir(tmp_path)
    Path("r.toml").write_text(RUN_FILE)
    real = horde.lab.runner.run.play_cell_chunk
    calls = []

    def stop_at_the_third(task):
        calls.append(task)
        if len(calls) == 3:
            if signum == signal.SIGINT:
                raise KeyboardInterrupt  # what Ctrl-C raises in the main thread
            if signal.getsignal(signal.SIGTERM) in (before, signal.SIG_DFL):
                raise AssertionError("no SIGTERM handler while the run runs")  # rather than end pytest
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler interrupts this
            raise AssertionError("SIGTERM did not stop the run")
        return real(task)

    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", stop_at_the_third)
    before = signal.getsignal(signal.SIGTERM)
    result = run_cli("r.toml", "--out", "out", "--workers", "1", "--chunk-size", "5", "--quiet")
    assert signal.getsignal(signal.SIGTERM) is before
    assert result.exit_code == 128 + signum, result.output
    line = only_line(result)
    folder = next(Path("out").iterdir())
    assert line == f"interrupted: 10 of 40 games are kept in {folder}; to continue, run: horde run r.toml --out out"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == manifest["runs"][0]["status"] == "interrupted"
    assert manifest["runs"][0]["games_done"] == 10

    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", real)
    whole = whole_run(tmp_path)
    assert parts_match(folder, whole) == 10
    again = run_cli(*shlex.split(line.split("to continue, run: horde run ")[1]), "--quiet")
    assert again.exit_code == 0, again.output
    assert same_files(folder, whole)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["runs"][1]["games_before"] == 10


def test_sigterm_stops_local_workers_like_ctrl_c(decks, tmp_path):
    """SIGTERM to the command while two worker processes play: the manifest says interrupted,
    one line on stderr (no worker prints a traceback), exit 143, no worker left behind, and the
    same command ends with the files of a run never stopped."""
    path = tmp_path / "t.toml"
    path.write_text(RUN_FILE.replace("games = 20", "games = 100"))
    command, env, process = start_two_workers(path, tmp_path / "out")
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate()
    assert process.returncode == 143, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("interrupted: ") and "to continue, run: horde run" in stderr
    folder, = tmp_path.glob("out/*")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["runs"][0]["games_done"] == 5 * len(list(folder.glob("parts/*/games-*.parquet")))
    with pytest.raises(ProcessLookupError):  # the command ends its workers before it exits: its group is empty
        os.killpg(process.pid, 0)
    again = subprocess.run(command + ["--workers", "1"], env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    whole = subprocess.run(command[:6] + [str(tmp_path / "whole"), "--quiet", "--workers", "1"], env=env,
                           capture_output=True, text=True)
    assert whole.returncode == 0, whole.stderr
    assert same_files(folder, next(tmp_path.glob("whole/*")))


@pytest.mark.parametrize("gap", [0.05, 0.3])
def test_issue29_item6_two_sigterms_in_a_row_exit_143(decks, tmp_path, gap):
    """A second SIGTERM while the first stops the run (50 ms later, or while it exits) is
    ignored: the command exits with 143 after its one line, not killed by the signal (-15)."""
    path = tmp_path / "t.toml"
    path.write_text(RUN_FILE.replace("games = 20", "games = 100"))
    _, _, process = start_two_workers(path, tmp_path / "out")
    process.send_signal(signal.SIGTERM)
    time.sleep(gap)
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate()
    assert process.returncode == 143, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("interrupted: "), stderr
    folder, = tmp_path.glob("out/*")
    assert json.loads((folder / "manifest.json").read_text())["status"] == "interrupted"


def test_a_dead_worker_process_fails_the_run_in_one_line_and_keeps_its_parts(decks, tmp_path):
    """A local worker killed (out of memory, say): RunError naming it, the manifest says failed,
    the finished parts stay whole and the run continues from them."""
    exp = experiment(games=40)
    backend = ProcessBackend(2)
    folder = tmp_path / "out" / exp.folder

    real_save = horde.lab.runner.run.save_chunk
    saved = []

    def save_then_kill(folder, result):
        real_save(folder, result)
        saved.append(result)
        if len(saved) == 4:
            os.kill(backend.workers[0].process.pid, signal.SIGKILL)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(horde.lab.runner.run, "save_chunk", save_then_kill)
        with pytest.raises(RunError) as failed:
            run_experiment(exp, tmp_path / "out", chunk_size=5, progress=False, backend=backend)
    line = failed.value.one_line()
    assert line.startswith(f"{folder}: a worker process died (out of memory?)") and "\n" not in line
    assert "--chunk-size" in line and "run the command again to continue" in line
    manifest = json.loads((folder / "manifest.json").read_text())
    entry = manifest["runs"][0]
    assert manifest["status"] == entry["status"] == "failed" and entry["error"] == line
    assert entry["games_done"] == 5 * len(list(folder.glob("parts/*/games-*.parquet"))) >= 20
    whole = run_experiment(exp, tmp_path / "whole", workers=1, progress=False)
    assert parts_match(folder, whole.folder) == entry["games_done"]
    resumed = run_experiment(exp, tmp_path / "out", workers=1, progress=False)
    assert files(resumed) == files(whole)


class FakeDaskClient:
    """Stands in for ``distributed.Client``: the first ``good`` chunks are played here, then each
    chunk fails as a real client's future does when its workers die (KilledWorker) or when the
    client loses its scheduler (every future cancelled)."""

    good = 3
    failure = "killed-worker"

    def __init__(self, address, timeout, set_as_default):
        self.address = address
        self.submitted = 0

    def wait_for_workers(self, n, timeout):
        pass

    def nthreads(self):
        return {"tcp://127.0.0.1:40001": 1}

    def get_executor(self, pure):
        return self

    def submit(self, function, task):
        from distributed import KilledWorker

        self.submitted += 1
        future = Future()
        if self.submitted <= self.good:
            future.set_result(function(task))
        elif self.failure == "killed-worker":
            worker = SimpleNamespace(address="tcp://127.0.0.1:40001")
            future.set_exception(KilledWorker(f"play_cell_chunk-{self.submitted}", worker, 3))
        else:
            future.cancel()
            future.set_running_or_notify_cancel()  # as distributed's executor does
        return future

    def shutdown(self, wait=True):
        pass

    def close(self):
        pass


@pytest.mark.parametrize("failure, fragments", [
    ("killed-worker", ["a Dask worker died playing cell", "each of the 4 workers that tried it died",
                       "smaller --chunk-size", "more memory"]),
    ("scheduler-lost", ["lost the connection to the Dask scheduler at tcp://127.0.0.1:",
                        "check that the scheduler is still running and reachable"]),
], ids=["killed-worker", "scheduler-lost"])
def test_a_dask_failure_is_one_line_and_the_run_continues(decks, tmp_path, monkeypatch, failure, fragments):
    distributed = pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    Path("r.toml").write_text(RUN_FILE)
    monkeypatch.setattr(distributed, "Client", FakeDaskClient)
    monkeypatch.setattr(FakeDaskClient, "failure", failure)
    with socket.socket() as scheduler:  # somewhere to connect to: the backend looks before it starts the client
        scheduler.bind(("127.0.0.1", 0))
        scheduler.listen()
        address = f"tcp://127.0.0.1:{scheduler.getsockname()[1]}"
        result = run_cli("r.toml", "--out", "out", "--scheduler", address, "--chunk-size", "5", "--quiet")
    assert result.exit_code == 2, result.output
    line = only_line(result)
    folder = next(Path("out").iterdir())
    assert line.startswith(f"error: {folder}: ")
    for fragment in fragments + ["finished games are kept: run the command again to continue"]:
        assert fragment in line, line
    manifest = json.loads((folder / "manifest.json").read_text())
    entry = manifest["runs"][0]
    assert manifest["status"] == entry["status"] == "failed" and entry["backend"] == "dask"
    assert entry["error"] == line.removeprefix("error: ")
    kept = entry["games_done"]
    assert 5 <= kept <= 15 and f"; {kept} finished games are kept" in line

    whole = whole_run(tmp_path)
    assert parts_match(folder, whole) == kept
    again = run_cli("r.toml", "--out", "out", "--workers", "1", "--quiet")
    assert again.exit_code == 0, again.output
    assert same_files(folder, whole)


def test_partial_results_of_other_code_are_not_resumed(decks, tmp_path, monkeypatch):
    exp = experiment(games=20)

    def stop(task):
        raise KeyboardInterrupt

    real = horde.lab.runner.run.play_cell_chunk
    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", lambda task: real(task) if task.start == 0 else stop(task))
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, tmp_path, workers=1, chunk_size=10, progress=False)
    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", real)
    monkeypatch.setattr(horde.lab.runner.run, "code_digest", lambda: "0123456789abcdef")
    with pytest.raises(HordeError, match="made by other horde code"):
        run_experiment(exp, tmp_path, workers=1, progress=False)


def test_one_run_at_a_time_per_folder(decks, tmp_path):
    exp = experiment(games=4)
    folder = tmp_path / exp.folder
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; "
                               "from horde.lab.runner import FolderLock\nwith FolderLock(Path(sys.argv[1])):\n"
                               "    print('held', flush=True); sys.stdin.read()", str(folder)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(HordeError, match="another horde run is writing"):
            run_experiment(exp, tmp_path, workers=1, progress=False)
    finally:
        holder.communicate("")
    assert run_experiment(exp, tmp_path, workers=1, progress=False).cells[0]["games"] == 4


# ---------------------------------------------------------------- what is written


def test_games_and_turns_columns(decks, tmp_path):
    import pandas as pd

    exp = experiment(games=6)
    outcome = run_experiment(exp, tmp_path, workers=1, progress=False)
    games = pd.read_parquet(outcome.folder / "games.parquet")
    turns = pd.read_parquet(outcome.folder / "turns.parquet")
    assert list(games.columns) == games_schema().names and list(turns.columns) == turns_schema().names
    assert set(FIELD_NAMES) <= set(games.columns)
    assert len(games) == 24 and list(games["game"]) == list(range(6)) * 4 and list(games["cell"]) == [0] * 6 + \
        [1] * 6 + [2] * 6 + [3] * 6
    assert (games["seed"] == 7).all() and (games["experiment_hash"] == exp.digest()).all()
    assert list(games["policy"].unique()) == ["baseline", "random"]
    assert games["team_decks"].iloc[0] == "white,white,white,white"
    # each row is the game play_game plays with the seed (experiment seed, game index)
    row = games.iloc[15]
    cell = exp.cells[int(row["cell"])]
    result = play_game(cell.setup, (7, int(row["game"])), record_turns=True)
    assert row["setup_hash"] == cell.setup.digest() and row["winner"] == result.winner
    assert (row["turns"], row["team_life"], row["team_life_min"], row["horde_cards_left"], row["cards_revealed"]) == \
        (result.turns, result.team_life, result.team_life_min, result.horde_cards_left, result.cards_revealed)
    assert [(r["card"], r["horde_turn"]) for r in row["revealed"]] == list(result.revealed)
    mine = turns[(turns["cell"] == row["cell"]) & (turns["game"] == row["game"])]
    assert [tuple(t) for t in mine[["turn", "team_life", "horde_power", "horde_library"]].itertuples(index=False)] \
        == [tuple(t) for t in result.turn_rows]
    assert len(turns) == games["turns"].sum()
    metadata = pq.read_schema(outcome.folder / "games.parquet").metadata
    assert metadata[b"horde.hash"] == exp.digest().encode()


def test_turns_can_be_left_out(decks, tmp_path):
    exp = experiment(games=3, turns=False)
    outcome = run_experiment(exp, tmp_path, workers=1, progress=False)
    assert (outcome.folder / "games.parquet").exists() and not (outcome.folder / "turns.parquet").exists()


def test_the_manifest_records_versions_seeds_chunks_and_timings(decks, tmp_path):
    exp = experiment(games=8)
    outcome = run_experiment(exp, tmp_path, workers=2, chunk_size=3, progress=False)
    manifest = json.loads((outcome.folder / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["seed"] == 7 and manifest["hash"] == exp.digest()
    assert {"horde", "python", "numpy", "pyarrow"} <= set(manifest["environment"])
    run = manifest["runs"][0]
    assert run["chunk_size"] == 3 and run["workers"] == 2 and run["backend"] == "processes"
    assert run["games_played"] == 32 and run["engine_seconds"] > 0 and run["wall_seconds"] > 0
    assert [c["games"] for c in manifest["cells"]] == [8] * 4
    assert (outcome.folder / "experiment.toml").read_text() == exp.to_toml()


def test_bench_workers_is_games_per_second(decks):
    assert bench_workers(small_setup(players=2), 10, 1) > 0


@pytest.mark.slow
def test_adaptive_precision_on_the_engine(decks, tmp_path):
    """Real games: every cell stops at the first window whose half-width is within the precision
    (or at the cap), and its rows are the first games of the cell."""
    precision, step, cap = 0.05, 50, scaled(2000)
    exp = experiment(games="auto", precision=precision, check_every=step, max_games=cap)
    outcome = run_experiment(exp, tmp_path, workers=2, progress=False)
    table = pq.read_table(outcome.folder / "games.parquet", columns=["cell", "game", "winner"]).to_pandas()
    for summary in outcome.cells:
        rows = table[table["cell"] == summary["cell"]]
        n = len(rows)
        assert list(rows["game"]) == list(range(n)) and n == summary["games"]
        wins = list(rows["winner"] == "team")
        assert n == cap or wilson_half_width(sum(wins), n) <= precision
        assert n % step == 0 or n == cap
        for point in range(step, n, step):
            assert wilson_half_width(sum(wins[:point]), point) > precision


def test_make_bench_prints_every_figure_and_a_consistent_projection(capsys, monkeypatch):
    """`make bench` (python -m horde.lab.bench), cut down: one core, 1 and 2 workers, memory, and a whole run
    whose projected time for a million games follows from its rate."""
    import re

    from horde import __version__, build
    from horde.lab import bench

    monkeypatch.delenv("HORDE_DECKS", raising=False)  # the bundled decks (the Dask fixture sets it for the module)
    bench.main(["--games", "4", "--runs", "1", "--run-games", "8", "--lookahead-games", "1", "--expert-games", "1"])
    out = capsys.readouterr().out
    assert out.startswith(f"horde {__version__}, {build.describe()}, Python ")
    assert re.search(r"one core: [\d,]+ games/s \(median of 1 runs of 4 games", out)
    if build.build() == "compiled":  # the pure-Python sources beside it
        assert re.search(r"; pure Python [\d,]+ games/s; compiled/pure [\d.]+x", out)
    assert re.search(r"workers: 1 -> [\d,]+ games/s, 2 -> [\d,]+ games/s, speed-up [\d.]+x \(16 games each\); "
                     r"1,000,000 games would take [\d,.]+ min on 2 workers", out)
    assert re.search(r"peak memory: [\d,]+ MB", out)
    assert re.search(r"lookahead \(budget 4\): [\d,.]+ games/s \(median of 3 runs of 1 games; .*x slower", out)
    assert re.search(r"expert \(samples 2, candidates 5, horizon 1\): [\d,.]+ games/s \(median of 1 runs of 1 games; "
                     r"min [\d,.]+, max [\d,.]+\); baseline on the same games [\d,]+ games/s: [\d,]+x slower", out)
    run = re.search(r"horde run, 2 workers: ([\d,]+) games/s \(8 games\); 1,000,000 games would take ([\d,.]+) min", out)
    rate, minutes = (float(group.replace(",", "")) for group in run.groups())
    # Both figures are printed rounded: the true rate lies within half a game of the one shown.
    assert 1_000_000 / (rate + 0.5) / 60 - 0.05 <= minutes <= 1_000_000 / (rate - 0.5) / 60 + 0.05
