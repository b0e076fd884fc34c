"""Results folders are never followed out (links and special files refused, temporary files made
with O_EXCL | O_NOFOLLOW next to their target); a full disk or a read-only folder is one line and a
manifest that says so; a folder a kill left with only temporary files is taken up again; the
command line's numbers have limits. Each test names the item of issue 17 it is the regression
test of."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, one_line_error

import horde.files
import horde.lab.runner.run
from horde.cli import cli
from horde.files import WriteError, write_file
from horde.lab.runner import FolderLock, turns_schema
from horde.lab.runner.store import games_schema

EXPERIMENT = ('name = "r"\nseed = 3\n[setup]\nhorde_deck = "mini-recipe"\nboss = "none"\n'
              'team_decks = ["white", "white", "white", "white"]\n[sweep]\nplayers = [2, 3]\n[run]\ngames = 20\n')


@pytest.fixture
def experiment(decks, tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "r.toml"
    path.write_text(EXPERIMENT)
    return path


def run(*arguments):
    return CliRunner().invoke(cli, ["run", *[str(a) for a in arguments], "--workers", "1", "--quiet"])



def folder_of(out: Path) -> Path:
    folder, = out.iterdir()
    return folder


def tree(root: Path) -> dict:
    """Every file and link under ``root`` with its content or target."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(root))] = ("link", os.readlink(path))
        elif path.is_file():
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


@pytest.fixture
def whole(experiment, tmp_path) -> Path:
    """The results folder of the experiment run once, never stopped."""
    assert run(experiment, "--out", tmp_path / "whole").exit_code == 0
    return folder_of(tmp_path / "whole")


# ---------------------------------------------------------------- 13: never followed out


def test_item13_a_temporary_file_that_is_a_link_is_not_written_through(experiment, tmp_path, whole):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    out = tmp_path / "out"
    folder = out / whole.name
    folder.mkdir(parents=True)
    (folder / "experiment.toml.tmp").symlink_to(outside)
    one_line_error(run(experiment, "--out", out), "experiment.toml.tmp, which is a symbolic link",
                   "never follows links")
    assert outside.read_text() == "precious"


def test_item13_parts_that_link_elsewhere_are_refused_and_nothing_outside_is_deleted(experiment, tmp_path, whole):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "games-000000000-000000005.parquet").write_bytes(b"not mine to delete")
    (outside / "x.tmp").write_bytes(b"nor this")
    out = tmp_path / "out"
    assert run(experiment, "--out", out, "--max-games", "5").exit_code == 0  # another folder: a reduced run
    folder = out / whole.name
    (folder / "parts").mkdir(parents=True)
    (folder / "manifest.json").write_bytes((whole / "manifest.json").read_bytes().replace(b'"complete"', b'"running"'))
    (folder / "parts" / "cell-0000").symlink_to(outside)
    before = tree(outside)
    one_line_error(run(experiment, "--out", out), "parts/cell-0000, which is a symbolic link")
    assert tree(outside) == before


def test_item13_a_results_folder_that_is_a_link_is_refused(experiment, tmp_path, whole):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / whole.name).symlink_to(elsewhere, target_is_directory=True)
    one_line_error(run(experiment, "--out", out), "the results folder is a symbolic link, not a folder")
    assert list(elsewhere.iterdir()) == []


def test_item13_an_out_folder_that_is_a_link_to_a_folder_is_fine(experiment, tmp_path, whole):
    disk = tmp_path / "disk"
    disk.mkdir()
    (tmp_path / "results-link").symlink_to(disk, target_is_directory=True)
    assert run(experiment, "--out", tmp_path / "results-link").exit_code == 0
    assert (folder_of(disk) / "games.parquet").read_bytes() == (whole / "games.parquet").read_bytes()


def test_item13_a_named_pipe_in_the_folder_is_refused(experiment, tmp_path, whole):
    out = tmp_path / "out"
    folder = out / whole.name
    folder.mkdir(parents=True)
    os.mkfifo(folder / "manifest.json")
    one_line_error(run(experiment, "--out", out), "manifest.json, which is a named pipe (FIFO)")


def test_write_file_never_follows_a_link_and_leaves_no_temporary_file(tmp_path):
    outside = tmp_path / "outside"
    outside.write_text("precious")
    (tmp_path / "target.tmp").symlink_to(outside)
    write_file(tmp_path / "target", "new")
    assert (tmp_path / "target").read_text() == "new" and outside.read_text() == "precious"
    assert not (tmp_path / "target.tmp").exists()
    (tmp_path / "link").symlink_to(outside)
    with pytest.raises(WriteError, match="it is a symbolic link"):
        write_file(tmp_path / "link", "new")
    with pytest.raises(WriteError, match="it is a folder"):
        write_file(tmp_path, "new")
    assert outside.read_text() == "precious"


# ---------------------------------------------------------------- 14: a kill in the first milliseconds


def test_item14_a_folder_left_with_only_temporary_files_is_taken_up_again(experiment, tmp_path, whole):
    out = tmp_path / "out"
    folder = out / whole.name
    folder.mkdir(parents=True)
    (folder / ".lock").write_text("")
    (folder / "experiment.toml.tmp").write_text("name = \"r\"\n")
    (folder / "manifest.json.tmp").write_text("{\"experim")
    assert run(experiment, "--out", out).exit_code == 0
    assert (folder / "games.parquet").read_bytes() == (whole / "games.parquet").read_bytes()
    assert not list(folder.glob("*.tmp"))


def test_item14_a_folder_with_other_files_is_still_refused(experiment, tmp_path, whole):
    folder = tmp_path / "out" / whole.name
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    one_line_error(run(experiment, "--out", tmp_path / "out"), "is not from a horde run")


# ---------------------------------------------------------------- 6: out of disk, read-only, files in the way


def test_item6_out_naming_a_file_is_one_line(experiment, tmp_path):
    (tmp_path / "file").write_text("x")
    one_line_error(run(experiment, "--out", tmp_path / "file"), "it is a file, not a folder")


class _NoRoom:
    """A new file on a full disk: every write fails with ENOSPC."""

    def __init__(self, handle):
        self.handle = handle

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()


@pytest.fixture
def full_disk(monkeypatch):
    """A disk that fills up: once ``state['full']`` is set, every new file fails with ENOSPC when
    it is written, or when it is flushed to disk (where a real full disk may show only then);
    files already there can be rewritten."""
    state = {"full": False, "after": None, "files": 0}
    fsync, fdopen = os.fsync, os.fdopen

    def new_file(fd) -> bool:
        if not os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            return False
        state["files"] += 1
        if state["after"] is not None and state["files"] > state["after"]:
            state["full"] = True
        return state["full"]

    def full_fdopen(fd, *args, **kwargs):
        handle = fdopen(fd, *args, **kwargs)
        return _NoRoom(handle) if new_file(fd) else handle

    def full_fsync(fd):
        if state["full"] and os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        fsync(fd)

    monkeypatch.setattr(horde.files.os, "fdopen", full_fdopen)
    monkeypatch.setattr(horde.files.os, "fsync", full_fsync)
    return state


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc to name a descriptor's file")
def test_item6_a_full_disk_is_one_line_the_manifest_says_failed_and_the_run_continues(experiment, tmp_path, whole,
                                                                                        full_disk):
    full_disk["after"] = 6  # experiment.toml, the manifest, then two chunks' parts; the disk is full
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["run", str(experiment), "--out", str(out), "--workers", "1", "--quiet",
                                      "--chunk-size", "5"])
    line = one_line_error(result, "cannot write: the disk is full (No space left on device)",
                          "10 finished games are kept: free some space")
    folder = out / whole.name
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "failed" and manifest["runs"][0]["status"] == "failed"
    assert manifest["runs"][0]["error"] == line.removeprefix("error: ")
    assert manifest["runs"][0]["games_done"] == 10
    assert not list(folder.rglob("*.tmp"))
    full_disk["after"], full_disk["full"] = None, False  # space freed
    assert run(experiment, "--out", out).exit_code == 0
    assert (folder / "games.parquet").read_bytes() == (whole / "games.parquet").read_bytes()


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_item6_a_read_only_folder_is_one_line(experiment, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        one_line_error(run(experiment, "--out", out), "Permission denied")
    finally:
        out.chmod(0o755)


def test_item6_report_images_or_out_in_the_way_are_one_line(experiment, tmp_path, whole):
    (tmp_path / "file").write_text("x")
    report = CliRunner().invoke(cli, ["report", str(whole), "--images", str(tmp_path / "file")])
    one_line_error(report, "cannot make the folder: a file of that name is in the way")
    report = CliRunner().invoke(cli, ["report", str(whole), "--out", str(tmp_path)])
    one_line_error(report, "cannot write: it is a folder")
    outside = tmp_path / "outside.html"
    outside.write_text("precious")
    (whole / "report.html").symlink_to(outside)
    one_line_error(CliRunner().invoke(cli, ["report", str(whole)]), "report.html: cannot write: it is a symbolic link")
    assert outside.read_text() == "precious"


@pytest.mark.parametrize("damage, fragment", [
    (lambda f: (f / "manifest.json").write_bytes("{\"é\": 1}".encode("latin-1")), "manifest.json: cannot read manifest"),
    (lambda f: (f / "experiment.toml").write_bytes("name = \"é\"".encode("utf-16")), "experiment.toml: cannot read"),
    (lambda f: (f / "manifest.json").write_text("[" * 100_000), "nested too deeply"),
])
def test_item1_a_damaged_results_folder_is_one_line_for_summary_report_and_run(experiment, tmp_path, whole, damage,
                                                                                fragment):
    damage(whole)
    for command in (["summary", str(whole)], ["report", str(whole)]):
        one_line_error(CliRunner().invoke(cli, command), fragment)
    result = run(experiment, "--out", whole.parent)  # a complete run reads only its manifest
    assert result.exit_code in (0, 2) and "Traceback" not in result.output


# ---------------------------------------------------------------- 9: numbers the results store


def test_item9_life_and_power_are_stored_in_64_bits():
    assert turns_schema().field("horde_power").type == pa.int64()
    assert turns_schema().field("team_life").type == pa.int64()
    assert games_schema().field("team_life").type == pa.int64() and games_schema().field("seed").type == pa.int64()
    table = pa.table({"cell": [0], "game": [0], "turn": [1], "team_life": [-(2 ** 40)], "horde_power": [2 ** 40],
                      "horde_library": [3]}, schema=turns_schema())
    assert table.column("horde_power").to_pylist() == [2 ** 40]


# ---------------------------------------------------------------- 7, 8: the command line's numbers


@pytest.mark.parametrize("arguments, fragment", [
    (["simulate", "--games", "100000000000000000000"], "'--games': 100000000000000000000 is not in the range"),
    (["simulate", "--games", "1e20"], "'--games': '1e20' is not a valid integer range"),
    (["simulate", "--workers", "100000"], "'--workers': 100000 is not in the range 1<=x<=256"),
    (["play", "--seed", str(2 ** 63)], "'--seed': 9223372036854775808 is not in the range"),
    (["play", "--seed", "-1"], "'--seed': -1 is not in the range"),
    (["run", "x.toml", "--chunk-size", "1000000"], "'--chunk-size': 1000000 is not in the range 1<=x<=100000"),
    (["simulate", "--nope"], "horde simulate: No such option '--nope'"),
])
def test_item8_numbers_of_the_command_line_have_limits_and_errors_are_one_line(arguments, fragment):
    one_line_error(CliRunner().invoke(cli, arguments, prog_name="horde"), fragment)


def test_item7_a_scheduler_that_cannot_be_used_is_one_line_at_once(experiment, tmp_path, monkeypatch):
    """A scheduler address nothing answers at, or a scheme whose settings are missing, is one line
    before any game is played: the address is tried once, and Dask's client (which retries a
    refused connection until its timeout) is never started."""
    import socket

    import distributed

    tried = []
    connect = socket.create_connection

    def create_connection(address, *args, **kwargs):
        tried.append(address)
        return connect(address, *args, **kwargs)

    def never(*args, **kwargs):
        raise AssertionError("not to be called")

    monkeypatch.setattr(socket, "create_connection", create_connection)
    monkeypatch.setattr(distributed, "Client", never)
    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", never)
    for address, tries in (("tls://127.0.0.1:1", []), ("tcp://127.0.0.1:1", [("127.0.0.1", 1)]),
                           ("ws://127.0.0.1:1", [("127.0.0.1", 1)])):
        tried.clear()
        one_line_error(run(experiment, "--out", tmp_path / "out", "--scheduler", address), f"--scheduler {address}")
        assert tried == tries
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- issue 29: names not UTF-8, counts, runs in progress


def stop_at_the_third_chunk(monkeypatch) -> Callable[[], None]:
    """The run stops (as Ctrl-C stops it) when its third chunk starts; returns what undoes it."""
    real = horde.lab.runner.run.play_cell_chunk
    calls: list = []

    def stop(task):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", stop)
    return lambda: monkeypatch.setattr(horde.lab.runner.run, "play_cell_chunk", real)


def test_issue29_item1_a_results_folder_whose_name_is_not_utf8_completes_resumes_and_is_read(
        experiment, tmp_path, whole, monkeypatch):
    """``--out $'out-\\xff'``: the parts were merged through pyarrow, which takes a path only as
    UTF-8 text, so the run played every game and then failed. Now it is stopped, resumed,
    merged, summarised and reported, and every message shows the name as ``\\xff``."""
    out = tmp_path / "out-\udcff"  # b"out-\xff", as Python holds a name that is not UTF-8
    undo = stop_at_the_third_chunk(monkeypatch)
    stopped = CliRunner().invoke(cli, ["run", str(experiment), "--out", str(out), "--workers", "1", "--quiet",
                                       "--chunk-size", "5"])
    assert stopped.exit_code == 130
    assert stopped.output == (f"interrupted: 10 of 40 games are kept in {tmp_path}/out-\\xff/{whole.name}; to "
                              f"continue, run: horde run {experiment} --out $'{tmp_path}/out-\\xff'\n")
    undo()
    resumed = run(experiment, "--out", out, "--chunk-size", "5")
    assert resumed.exit_code == 0 and f"results: {tmp_path}/out-\\xff/{whole.name}" in resumed.output
    folder = out / whole.name
    for name in ("games.parquet", "turns.parquet"):
        assert (folder / name).read_bytes() == (whole / name).read_bytes()
    summary = CliRunner().invoke(cli, ["summary", str(folder)])
    assert summary.exit_code == 0 and summary.output == CliRunner().invoke(cli, ["summary", str(whole)]).output
    both = CliRunner().invoke(cli, ["summary", str(folder), str(whole)])  # one name: each folder's path, as text
    assert both.exit_code == 0 and f"{tmp_path}/out-\\xff/{whole.name} " in both.output, both.output
    compared = CliRunner().invoke(cli, ["compare", str(folder), str(whole)])
    assert compared.exit_code == 0 and f"A: {tmp_path}/out-\\xff/{whole.name} (" in compared.output, compared.output
    page, images = tmp_path / "page-\udcff.html", tmp_path / "images-\udcff"
    report = CliRunner().invoke(cli, ["report", str(folder), "--out", str(page), "--images", str(images)])
    assert report.exit_code == 0 and report.output == f"report: {tmp_path}/page-\\xff.html\n"
    assert page.stat().st_size > 10_000 and list(images.glob("*.png"))


def test_issue29_item1_an_experiment_file_whose_name_is_not_utf8_runs(decks, tmp_path, monkeypatch):
    """An experiment file named with bytes that are not UTF-8, in such a folder, naming card files
    beside it: the run completes; the resolved experiment.toml (UTF-8, as TOML is) and the
    results' ``cards`` column show the names as ``\\xff``."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "experiments-\udcff"
    (folder / "my-cards").mkdir(parents=True)
    (folder / "my-cards" / "extra.txt").write_text("Name: Hostile Walker\nCost: {1}{B}\nType: Creature — Zombie\n"
                                                   "PT: 2/2\n")
    path = folder / "r-\udcff.toml"
    path.write_text(EXPERIMENT.replace("[sweep]", 'cards = ["my-cards"]\n[sweep]'))
    assert run(path, "--out", tmp_path / "out").exit_code == 0
    results = folder_of(tmp_path / "out")
    text = (results / "experiment.toml").read_text(encoding="utf-8")
    assert f"from {tmp_path}/experiments-\\xff/r-\\xff.toml; hash" in text
    assert f'cards = ["{tmp_path}/experiments-\\\\xff/my-cards"]' in text
    import pyarrow.parquet as pq

    assert set(pq.read_table(results / "games.parquet").column("cards").to_pylist()) == {
        f"{tmp_path}/experiments-\\xff/my-cards"}
    assert CliRunner().invoke(cli, ["summary", str(results)]).exit_code == 0
    one_line_error(run(folder / "none-\udcff.toml"), f"{tmp_path}/experiments-\\xff/none-\\xff.toml: cannot read "
                                                      "experiment file: No such file or directory")


def test_issue29_item5_a_finished_runs_manifest_counts_every_game(experiment, tmp_path, whole, monkeypatch):
    """The games a run had done were noted once a second at most, so a finished run's manifest
    kept the count of its last note (1,480 of 1,600, say): it says every game now."""
    manifest = json.loads((whole / "manifest.json").read_text())
    assert {"status": "complete", "games_done": 40, "games_total": 40, "cells_done": 2}.items() <= \
        manifest["runs"][-1].items()
    out = tmp_path / "again"
    undo = stop_at_the_third_chunk(monkeypatch)
    run(experiment, "--out", out, "--chunk-size", "5")
    undo()
    assert run(experiment, "--out", out).exit_code == 0
    runs = json.loads((folder_of(out) / "manifest.json").read_text())["runs"]
    assert [(r["status"], r["games_done"], r["games_total"]) for r in runs] == [("interrupted", 10, 40),
                                                                                ("complete", 40, 40)]


def test_issue29_item6_summary_and_report_of_a_run_not_finished_say_so_and_how_far(experiment, tmp_path, monkeypatch):
    """Without games.parquet, summary and report read the manifest: a run in progress (its lock
    held, by this process or another) says how far it is; a run interrupted or killed says how
    to go on. Before, each said 'no games.parquet here'."""
    out = tmp_path / "out"
    stop_at_the_third_chunk(monkeypatch)
    run(experiment, "--out", out, "--chunk-size", "5")
    folder = folder_of(out)

    def says(*fragments):
        for command in (["summary", str(folder)], ["report", str(folder)]):
            one_line_error(CliRunner().invoke(cli, command), *fragments)

    says("the run was interrupted after 10 of 40 games, so it has no games.parquet yet; run the same horde run "
         "command again to complete it")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["status"] = manifest["runs"][-1]["status"] = "running"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    says("the run ended without a word (killed?) after 10 of 40 games")
    with FolderLock(folder):  # the run, in this process
        says(f"{folder}: the run is still in progress: 10 of 40 games done, as its manifest last noted (once a "
             "second); summarise it once it is complete")
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys; f = open(sys.argv[1], 'a+'); "
                               "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
                               str(folder / ".lock")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:  # the run, in another process
        assert holder.stdout.readline() == "held\n"
        says("the run is still in progress: 10 of 40 games done")
    finally:
        holder.kill()
        holder.wait()


def test_issue29_item6_a_long_boss_name_is_cut_in_the_one_line_error():
    line = one_line_error(CliRunner().invoke(cli, ["play", "--boss", "Nicol " * 400]),
                          "boss 'Nicol Nicol Nicol", "... (2400 characters)' is not in the boss list")
    assert len(line) < 400


def test_issue29_item1_decks_and_card_files_whose_names_are_not_utf8_are_read_and_shown_escaped(decks, tmp_path,
                                                                                               monkeypatch):
    """Every output stream shows a name that is not UTF-8 as ``\\xff`` (the codec error handler
    ``horde.escaped``): never an error, even where the terminal's encoding is strict."""
    deck = tmp_path / "deck-\udcff.txt"
    deck.write_text((TEST_DECKS / "horde" / "mini.txt").read_text())
    checked = CliRunner().invoke(cli, ["decks", "check", str(deck)])
    assert checked.exit_code == 0 and checked.output.startswith(f"{tmp_path}/deck-\\xff.txt (horde deck): ok")
    played = CliRunner().invoke(cli, ["simulate", "--games", "2", "--quiet", "--workers", "1", "--horde", str(deck),
                                      "--boss", "none", "--players", "2", "--team", "white", "--team", "white"])
    assert played.exit_code == 0 and f"Horde deck {tmp_path}/deck-\\xff.txt," in played.output
    cards = tmp_path / "cards-\udcff"
    cards.mkdir()
    (cards / "extra.txt").write_text("Name: Hostile Walker\nCost: {1}{B}\nType: Creature — Zombie\nPT: 2/2\n")
    compared = CliRunner().invoke(cli, ["compare", "--games", "2", "--quiet", "--workers", "1", "--cards", str(cards),
                                        "--boss", "none", "--horde", "mini", "--team", "white", "--team", "white",
                                        "--a", "--players 1", "--b", "--players 2"])
    assert compared.exit_code == 0, compared.output
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))  # the index of this test only
    source = tmp_path / "AtomicCards-\udcff.json"
    source.write_bytes((Path(__file__).parent / "data" / "mtgjson" / "AtomicCards.json").read_bytes())
    imported = CliRunner().invoke(cli, ["cards", "import", str(source), "--quiet"])
    assert imported.exit_code == 0 and imported.output.startswith("imported 12 cards from AtomicCards-\\xff.json into")
