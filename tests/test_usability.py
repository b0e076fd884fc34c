"""A newcomer's first hour: names that forgive case and say what they could be, the README's
commands as written in a checkout and after an install, options that explain themselves, output
in players' words, house rules kept in a file, and results in the formats other tools read."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, one_line_error

from horde.cli import cli
from horde.errors import HordeError, match_name
from horde.lab.experiments import resolve_experiment
from horde.setup import SetupError, make_setup

SMALL = ["--horde", "mini", "--team", "white", "--team", "white", "--players", "2", "--boss", "none"]


@pytest.fixture
def runner(monkeypatch):
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    return CliRunner()


# ---------------------------------------------------------------- names forgive case, say the closest and the list


def test_match_name_forgives_case_and_names_the_closest_and_every_name():
    assert match_name("Knudson-2011", ["zombie-horde", "knudson-2011"], "preset") == "knudson-2011"
    with pytest.raises(HordeError) as error:
        match_name("knudsen-2011", ["zombie-horde", "knudson-2011"], "preset", "--preset")
    assert error.value.one_line() == ("--preset: unknown preset 'knudsen-2011': did you mean 'knudson-2011'? "
                                      "the presets are zombie-horde, knudson-2011")


def test_P_preset_and_knob_choices_forgive_case_and_keep_the_setup_hash():
    assert make_setup("Knudson-2011", reveal="Escalating") == make_setup("knudson-2011", reveal="escalating")
    assert make_setup(preset="zombie-horde", Grace_Turns=2).grace_turns == 2
    with pytest.raises(SetupError, match="did you mean 'knudson-2011'.*expected one of zombie-horde"):
        make_setup("knudsen")
    with pytest.raises(SetupError, match="unknown knob 'grace_turn': did you mean 'grace_turns'"):
        make_setup(grace_turn=2)


def test_policy_names_forgive_case_and_say_the_closest(runner):
    one_line_error(runner.invoke(cli, ["play", "--policy", "basline", *SMALL]),
                   "unknown policy 'basline': did you mean 'baseline'?", "baseline, aggro", "or module:Class")
    assert runner.invoke(cli, ["play", "--policy", "Baseline", *SMALL]).exit_code == 0


def test_bundled_team_deck_and_decks_check_say_the_closest_and_the_list(runner):
    one_line_error(runner.invoke(cli, ["play", "--horde", "mini", "--team", "whit", "--players", "1", "--boss",
                                       "none"]), "unknown bundled team deck 'whit': did you mean 'white'?")
    result = runner.invoke(cli, ["decks", "check", "nosuchdeck"])
    assert result.exit_code == 2 and "unknown bundled deck 'nosuchdeck'" in result.output
    assert str(TEST_DECKS) not in result.output
    assert runner.invoke(cli, ["play", "--horde", "MINI", "--team", "White", "--players", "1", "--boss",
                               "none"]).exit_code == 0


def test_B1_a_boss_name_forgives_case_and_the_list_is_split_by_semicolons(runner):
    bundled = {"HORDE_DECKS": ""}  # the bundled zombie-horde and its four bosses
    result = runner.invoke(cli, ["play", "--players", "1", "--boss", "elspeth"], env=bundled)
    line = one_line_error(result, "boss 'elspeth' is not in the boss list of the Horde deck zombie-horde", "did you mean")
    assert ("its bosses are Liliana, Dreadhorde General; Liliana, Death Mage; Elspeth Tirel; Elspeth, Knight-Errant; or random, "
            "or none") in line
    assert "decks/horde" not in line


def test_experiments_by_name_and_by_the_readme_path_outside_a_checkout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no experiments/ folder here: the README's path names the bundled one
    assert resolve_experiment("experiments/difficulty.toml") == resolve_experiment("difficulty")
    assert resolve_experiment("Difficulty").name == "difficulty.toml"
    assert resolve_experiment("mine/difficulty.toml") == tmp_path.joinpath("mine/difficulty.toml").relative_to(tmp_path)
    with pytest.raises(HordeError, match="unknown bundled experiment 'dificulty': did you mean 'difficulty'"):
        resolve_experiment("dificulty")
