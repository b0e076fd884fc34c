"""Experiment files: cells, the resolved file and its hash, paired cells, bad input as one line with
nothing written, and every example experiment run in reduced form."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS

from horde.cli import cli
from horde.lab.experiments import ExperimentError, load_experiment, parse_experiment
from horde.play import new_game, prepare
from horde.setup import KNOBS

ROOT = Path(__file__).resolve().parent.parent
SETUP = '[setup]\nhorde_deck = "mini-recipe"\nteam_decks = ["white", "white", "white", "white"]\nboss = "none"\n'


def small(**changes) -> dict:
    data = {"name": "small", "seed": 3,
            "setup": {"horde_deck": "mini-recipe", "team_decks": ["white"] * 4, "boss": "none"},
            "sweep": {"players": [2, 4], "policy": ["baseline", {"name": "baseline", "wrath_threshold": 4}]},
            "run": {"games": 10}}
    data.update(changes)
    return data


def test_cells_are_the_product_of_the_sweep_in_file_order(decks):
    experiment = parse_experiment(small(), "small.toml")
    assert [c.label for c in experiment.cells] == [
        "players=2 policy=baseline", "players=2 policy=baseline(wrath_threshold=4)",
        "players=4 policy=baseline", "players=4 policy=baseline(wrath_threshold=4)"]
    setups = [c.setup for c in experiment.cells]
    assert [s.players for s in setups] == [2, 2, 4, 4]
    assert [s.policy_params for s in setups] == [(), (("wrath_threshold", 4),)] * 2
    assert all(s.horde_deck == "mini-recipe" and s.boss == "none" for s in setups)


def test_a_file_without_sweep_is_one_cell(decks):
    experiment = parse_experiment({k: v for k, v in small().items() if k != "sweep"}, "one.toml")
    assert len(experiment.cells) == 1 and experiment.cells[0].label == "base setup"


def test_the_resolved_file_reads_back_to_the_same_experiment(decks, tmp_path):
    experiment = parse_experiment(small(description="x", run={"games": "auto", "precision": 0.05}), "small.toml")
    assert experiment.run.max_games == 100_000 and experiment.run.check_every == 500
    path = tmp_path / "resolved.toml"
    path.write_text(experiment.to_toml())
    again = load_experiment(path)
    assert again.key() == experiment.key() and again.digest() == experiment.digest()
    assert again.to_toml().splitlines()[1:] == experiment.to_toml().splitlines()[1:]


def test_the_hash_covers_what_the_results_depend_on(decks):
    base = parse_experiment(small(), "a.toml")
    assert parse_experiment(small(description="other words"), "b.toml").digest() == base.digest()
    assert parse_experiment(small(seed=4), "a.toml").digest() != base.digest()
    assert parse_experiment(small(), "a.toml", games=5).digest() != base.digest()
    assert parse_experiment(small(), "a.toml", games=5).run.games == 5
    capped = parse_experiment(small(run={"games": "auto", "precision": 0.05, "max_games": 900}), "a.toml",
                              max_games=300)
    assert (capped.run.max_games, capped.run.check_every, capped.run.check_points()) == (300, 300, [300])
    assert base.folder == f"small-{base.digest()}" and len(base.digest()) == 10


def test_the_hash_covers_the_deck_files(decks, tmp_path, monkeypatch):
    base = parse_experiment(small(), "a.toml")
    copy = tmp_path / "decks"
    shutil.copytree(TEST_DECKS, copy)
    monkeypatch.setenv("HORDE_DECKS", str(copy))
    assert parse_experiment(small(), "a.toml").digest() == base.digest()
    with open(copy / "team" / "white.txt", "a") as handle:
        handle.write("\n# one more comment\n")
    assert parse_experiment(small(), "a.toml").digest() != base.digest()


def test_team_side_cells_share_the_horde_shuffle_and_dice(decks):
    """Every cell plays game i with the seed (seed, i): cells that differ only on the team's side
    (here the policy and the mulligan) set up the same Horde library and the same boss."""
    data = small(setup={"horde_deck": "mini-recipe", "team_decks": ["white"] * 4, "boss": "none", "players": 4},
                 sweep={"policy": ["baseline", "random"], "mulligan": ["london", "partial_paris"]})
    experiment = parse_experiment(data, "paired.toml")
    assert all(KNOBS[k].team_side for k in experiment.sweep)
    for game in range(5):
        libraries = {tuple(c.name for c in new_game(prepare(cell.setup), (experiment.seed, game)).horde.library)
                     for cell in experiment.cells}
        assert len(libraries) == 1


def test_policy_tables_and_team_decks_in_the_sweep(decks):
    data = small(setup={"horde_deck": "mini-recipe", "boss": "none", "players": 2},
                 sweep={"team_decks": [["white", "white"], "white,white"]})
    with pytest.raises(ExperimentError, match=r"\[sweep\] team_decks: the value white,white is listed twice"):
        parse_experiment(data, "decks.toml")


# ---------------------------------------------------------------- bad input


def run_cli(args):
    return CliRunner().invoke(cli, ["run", *args])


BAD = [
    ("unknown-knob", 'name = "b"\nseed = 1\n' + SETUP + 'colour = "red"\n[run]\ngames = 5\n',
     ["bad.toml", "[setup]", "unknown knob 'colour'"]),
    ("wrong-type", 'name = "b"\nseed = 1\n' + SETUP + '[sweep]\nplayers = [2, "three"]\n[run]\ngames = 5\n',
     ["bad.toml", "[sweep]", "'players'", "whole number"]),
    ("empty-list", 'name = "b"\nseed = 1\n' + SETUP + '[sweep]\nplayers = []\n[run]\ngames = 5\n',
     ["bad.toml", "[sweep] players", "non-empty list"]),
    ("empty-sweep", 'name = "b"\nseed = 1\n' + SETUP + '[sweep]\n[run]\ngames = 5\n',
     ["bad.toml", "[sweep] is empty"]),
    ("unreadable-deck", 'name = "b"\nseed = 1\n' + SETUP.replace("mini-recipe", "nope") + '[run]\ngames = 5\n',
     ["bad.toml", "[setup] horde_deck = nope", "unknown bundled Horde deck 'nope'", "mini-recipe"]),
    ("deck-too-small", 'name = "b"\nseed = 1\n' + SETUP.replace("mini-recipe", "mini")
     + '[sweep]\ncards_per_player = [25, 30]\n[run]\ngames = 5\n',
     ["bad.toml", "cell 1 (cards_per_player=30)", "need 120"]),
    ("unknown-policy", 'name = "b"\nseed = 1\n' + SETUP + '[sweep]\npolicy = ["baseline", "nobody"]\n[run]\ngames = 5\n',
     ["bad.toml", "[sweep] policy = nobody", "unknown policy"]),
    ("bad-policy-parameter", 'name = "b"\nseed = 1\n' + SETUP
     + 'policy = {name = "random", boldness = 3}\n[run]\ngames = 5\n',
     ["bad.toml", "[setup] policy", "no parameter 'boldness'"]),
    ("sweep-and-setup", 'name = "b"\nseed = 1\n' + SETUP + 'players = 2\n[sweep]\nplayers = [2, 3]\n[run]\ngames = 5\n',
     ["bad.toml", "[sweep] players", "also set in [setup]"]),
    ("no-run", 'name = "b"\nseed = 1\n' + SETUP, ["bad.toml", "missing [run]"]),
    ("games", 'name = "b"\nseed = 1\n[run]\ngames = 0\n', ["bad.toml", "[run] games = 0", "whole number"]),
    ("auto-without-precision", 'name = "b"\nseed = 1\n[run]\ngames = "auto"\n', ["bad.toml", "[run] precision"]),
    ("precision-range", 'name = "b"\nseed = 1\n[run]\ngames = "auto"\nprecision = 2\n',
     ["bad.toml", "[run] precision = 2", "at most 0.5"]),
    ("precision-with-games", 'name = "b"\nseed = 1\n[run]\ngames = 5\nprecision = 0.1\n',
     ["bad.toml", "[run] precision", "only applies"]),
    ("run-key", 'name = "b"\nseed = 1\n[run]\ngames = 5\nspeed = 2\n', ["bad.toml", "[run] unknown key 'speed'"]),
    ("top-key", 'name = "b"\nseed = 1\nseeds = 2\n[run]\ngames = 5\n', ["bad.toml", "unknown key 'seeds'"]),
    ("name", 'name = "a/b"\nseed = 1\n[run]\ngames = 5\n', ["bad.toml", "name = 'a/b'"]),
    ("seed", 'name = "b"\nseed = "one"\n[run]\ngames = 5\n', ["bad.toml", "seed = 'one'", "whole number"]),
    ("toml", 'name = "b"\nseed = 1\n[run\n', ["bad.toml", "not valid TOML", "line 3"]),
]


def one_line_error(result, fragments):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("name, text, fragments", BAD, ids=[b[0] for b in BAD])
def test_bad_experiment_is_one_line_and_nothing_written(decks, tmp_path, monkeypatch, name, text, fragments):
    monkeypatch.chdir(tmp_path)
    Path("bad.toml").write_text(text)
    one_line_error(run_cli(["bad.toml", "--out", "out", "--workers", "1"]), fragments)
    assert not Path("out").exists()


def test_missing_experiment_file(decks, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(run_cli(["nothing.toml", "--out", "out"]), ["nothing.toml", "cannot read experiment file"])
    assert not Path("out").exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address, fragments", [
    ("localhost:8786", ["--scheduler 'localhost:8786'", "tcp://HOST:PORT"]),
    ("tcp://127.0.0.1:{port}", ["--scheduler tcp://127.0.0.1:", "cannot reach a Dask scheduler"]),
])
def test_bad_scheduler_address(decks, tmp_path, monkeypatch, address, fragments):
    monkeypatch.chdir(tmp_path)
    Path("ok.toml").write_text('name = "ok"\nseed = 1\n' + SETUP + '[run]\ngames = 5\n')
    result = run_cli(["ok.toml", "--out", "out", "--scheduler", address.format(port=free_port())])
    one_line_error(result, fragments)
    assert not Path("out").exists()


def test_an_earlier_run_of_another_experiment_is_never_overwritten(decks, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.toml").write_text('name = "a"\nseed = 1\n' + SETUP + '[run]\ngames = 4\n')
    assert run_cli(["a.toml", "--out", "out", "--workers", "1", "--quiet"]).exit_code == 0
    folder = next(Path("out").iterdir())
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["key"]["seed"] = 99  # as if another experiment had this folder's name
    (folder / "manifest.json").write_text(json.dumps(manifest))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    one_line_error(run_cli(["a.toml", "--out", "out", "--workers", "1"]),
                   [str(folder), "holds a different experiment"])
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_run_prints_each_cell_and_the_folder(decks, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("e.toml").write_text('name = "e"\nseed = 1\n' + SETUP + '[sweep]\nplayers = [2, 3]\n[run]\ngames = 6\n')
    result = run_cli(["e.toml", "--out", "out", "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "card slots:" not in line]  # each cell also says its slots
    assert "players=2" in lines[0] and "6 games" in lines[0] and "stopped by games" in lines[0]
    assert "players=3" in lines[1]
    assert lines[-1].startswith("results: out/e-")
    again = run_cli(["e.toml", "--out", "out", "--workers", "1", "--quiet"])
    assert "already complete" in again.output and again.output.splitlines()[-1] == lines[-1]


# ---------------------------------------------------------------- the example experiments

EXAMPLES = sorted((ROOT / "experiments").glob("*.toml"))

REDUCED = r"""
import os, sys, tomllib
from pathlib import Path
from horde.cards.catalogue import decks_dir
from horde.lab.experiments import load_experiment, parse_experiment
from horde.team.policies import POLICIES
from horde.lab.runner import run_experiment

path, out = Path(sys.argv[1]), sys.argv[2]
bundled = (decks_dir() / "horde" / "zombie-horde.txt").exists() and (decks_dir() / "team" / "aggro.txt").exists()
data = tomllib.loads(path.read_text())
policies = data.get("sweep", {}).get("policy", [])
registered = all((p if isinstance(p, str) else p["name"]) in POLICIES for p in policies)
if bundled and registered:
    load_experiment(path)  # the file as written checks out
    experiment = load_experiment(path, games=2)
else:  # a reduced copy on the test decks, without policies not yet registered
    os.environ["HORDE_DECKS"] = sys.argv[3]
    data["setup"].update(horde_deck="mini-recipe", team_decks=["white"] * 4, boss="none")
    if policies:
        data["sweep"]["policy"] = [p for p in policies if (p if isinstance(p, str) else p["name"]) in POLICIES]
    experiment = parse_experiment(data, str(path), games=2)
    print("reduced copy on the test decks", file=sys.stderr)
outcome = run_experiment(experiment, out, workers=1, progress=False)
print(len(outcome.cells), sum(c["games"] for c in outcome.cells))
"""


def test_the_examples_include_deck_size_presets_and_policies():
    assert {p.stem for p in EXAMPLES} >= {"deck-size", "presets", "policies"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_experiment_runs_reduced(path, tmp_path):
    """In a fresh process: the bundled decks when they are there, else the test decks."""
    result = subprocess.run([sys.executable, "-c", REDUCED, str(path), str(tmp_path), str(TEST_DECKS)], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    cells, games = (int(x) for x in result.stdout.split())
    assert cells >= 1 and games == 2 * cells  # reference.toml is a single cell
    folder = next(tmp_path.iterdir())
    assert (folder / "games.parquet").exists() and (folder / "turns.parquet").exists()
