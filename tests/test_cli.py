"""The command line: play, simulate, decks check, cards show; bad input is one line and exit 2."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, one_line_error
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from horde.cli import cli
from horde.errors import HordeError

SMALL = ["--horde", "mini", "--team", "white", "--team", "white", "--players", "2", "--boss", "none"]


@pytest.fixture
def runner(monkeypatch):
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    return CliRunner()



def test_play_prints_a_whole_game(runner):
    result = runner.invoke(cli, ["play", "--seed", "7", *SMALL])
    assert result.exit_code == 0, result.output
    assert "== Turn 4" in result.output and "Horde reveals" in result.output
    assert "Game over:" in result.output


def test_play_json_lines_have_turn_side_event(runner):
    result = runner.invoke(cli, ["play", "--seed", "7", "--json", *SMALL])
    assert result.exit_code == 0
    events = [json.loads(line) for line in result.stdout.splitlines()]  # the card slots go to stderr
    assert result.stderr.startswith("card slots: every deck exact")
    assert all({"turn", "side", "event"} <= set(e) for e in events)
    assert {e["side"] for e in events} == {"team", "horde"}
    assert events[-1]["event"] == "game_over"


def test_simulate_prints_the_summary(runner):
    result = runner.invoke(cli, ["simulate", "--games", "40", "--seed", "3", "--workers", "1", "--quiet", *SMALL])
    assert result.exit_code == 0, result.output
    for label in ("games        40", "team wins", "Horde wins", "stalls", "Wilson 95%", "mean length",
                  "of the games; H14: games still going after", "decided games (no stall): team", "team level club"):
        assert label in result.output


def test_simulate_json_is_the_same_for_any_worker_count(runner):
    outputs = []
    for workers in ("1", "2"):
        result = runner.invoke(cli, ["simulate", "--games", "30", "--seed", "5", "--workers", workers, "--quiet",
                                     "--json", *SMALL])
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.output))
    assert outputs[0] == outputs[1]


def test_players_outside_one_to_four(runner):
    one_line_error(runner.invoke(cli, ["simulate", "--players", "5"]), "players", "from 1 to 4")


def test_bad_knob_value(runner):
    one_line_error(runner.invoke(cli, ["play", "--grace-turns", "many", *SMALL]), "grace_turns", "whole number")
    one_line_error(runner.invoke(cli, ["play", "--strong-mix", "3-2", *SMALL]), "strong_mix", "GIANTS:ARMIES")


def test_unknown_horde_deck(runner):
    line = one_line_error(runner.invoke(cli, ["play", "--horde", "mini-bos", "--boss", "none"]),
                          "unknown bundled Horde deck 'mini-bos'", "did you mean 'mini-boss'",
                          "the bundled Horde decks are mini, mini-boss, mini-recipe")
    assert str(TEST_DECKS) not in line  # the name given, never the folder it would be installed in


def test_a_missing_deck_file_still_names_the_file(runner, tmp_path):
    one_line_error(runner.invoke(cli, ["play", "--horde", str(tmp_path / "nope.txt"), "--boss", "none"]),
                   "nope.txt", "cannot read decklist")


def write_team(tmp_path, text):
    path = tmp_path / "team.txt"
    path.write_text(text)
    return str(path)


TEAM = (TEST_DECKS / "team" / "white.txt").read_text()


def test_decks_check_ok(runner):
    result = runner.invoke(cli, ["decks", "check", str(TEST_DECKS / "team" / "white.txt")])
    assert result.exit_code == 0 and result.output.strip().endswith(": ok")


def test_unknown_card_name_suggests_close_names(runner, tmp_path):
    path = write_team(tmp_path, TEAM.replace("1 Serra Angel", "1 Sera Angel"))
    line = one_line_error(runner.invoke(cli, ["decks", "check", path]), "unknown card 'Sera Angel'",
                          "did you mean 'Serra Angel'")
    assert line.startswith(f"{path}:")


def test_bad_count(runner, tmp_path):
    path = write_team(tmp_path, TEAM.replace("1 Serra Angel", "0 Serra Angel"))
    one_line_error(runner.invoke(cli, ["decks", "check", path]), f"{path}:", "bad count '0'")


def test_missing_commander(runner, tmp_path):
    path = write_team(tmp_path, TEAM.replace("Commander\n1 Isamaru, Hound of Konda\n", "About\nKind team\n"))
    result = runner.invoke(cli, ["decks", "check", path])
    assert result.exit_code == 2
    assert "expected exactly one card in a 'Commander' section, found 0" in result.output


def test_illegal_commander(runner, tmp_path):
    path = write_team(tmp_path, TEAM.replace("1 Isamaru, Hound of Konda", "1 Grizzly Bears"))
    result = runner.invoke(cli, ["decks", "check", path])
    assert result.exit_code == 2 and "commander 'Grizzly Bears' is not a legendary creature" in result.output


@pytest.mark.parametrize("change, words", [
    (("55 Plains", "56 Plains"), "deck has 101 cards"),
    (("55 Plains", "54 Plains"), "deck has 99 cards"),
])
def test_deck_over_or_under_size(runner, tmp_path, change, words):
    path = write_team(tmp_path, TEAM.replace(*change))
    result = runner.invoke(cli, ["decks", "check", path])
    assert result.exit_code == 2 and words in result.output and "expected exactly 100" in result.output


def card_folder(tmp_path, text):
    folder = tmp_path / "decks"
    shutil.copytree(TEST_DECKS, folder)
    (folder / "cards" / "bad.txt").write_text(text)
    return folder


def test_unknown_verb_in_a_card_file(runner, tmp_path, monkeypatch):
    folder = card_folder(tmp_path, "Name: Bad Card\nCost: {B}\nType: Sorcery\nCast: explode amount=3\n")
    monkeypatch.setenv("HORDE_DECKS", str(folder))
    one_line_error(runner.invoke(cli, ["cards", "show", "Bad Card"]), "bad.txt:4:", "unknown verb 'explode'")


def test_unknown_hook_in_a_card_file(runner, tmp_path, monkeypatch):
    folder = card_folder(tmp_path, "Name: Bad Card\nCost: {B}\nType: Sorcery\nOnTuesday: draw count=1\n")
    monkeypatch.setenv("HORDE_DECKS", str(folder))
    one_line_error(runner.invoke(cli, ["cards", "show", "Bad Card"]), "bad.txt:4:", "unknown field or hook 'OnTuesday'")


def test_bad_argument_in_a_card_file(runner, tmp_path, monkeypatch):
    folder = card_folder(tmp_path, "Name: Bad Card\nCost: {B}\nType: Sorcery\nCast: draw count=lots\n")
    monkeypatch.setenv("HORDE_DECKS", str(folder))
    one_line_error(runner.invoke(cli, ["cards", "show", "Bad Card"]), "bad.txt:4:", "argument count")


def test_cards_show(runner):
    result = runner.invoke(cli, ["cards", "show", "grave titan"])
    assert result.exit_code == 0
    assert "Enters: create_tokens token=Zombie count=2" in result.output
    assert "Keywords: deathtouch" in result.output


def test_policies_lists_baseline(runner):
    result = runner.invoke(cli, ["policies"])
    assert result.exit_code == 0 and "baseline" in result.output and "random" in result.output


def test_bad_policy_name(runner):
    one_line_error(runner.invoke(cli, ["play", "--policy", "reckless", *SMALL]), "unknown policy 'reckless'")


def test_bad_policy_parameter(runner):
    one_line_error(runner.invoke(cli, ["play", "--policy-param", "courage=3", *SMALL]),
                   "takes no parameter 'courage'")


# ---------------------------------------------------------------- property: no other kind of failure

VALID = TEAM.splitlines()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_decklists_fail_only_with_deck_errors(catalogue, data):
    from horde.cards.decklists import parse_decklist
    from horde.cards.decks import parse_team_deck

    lines = list(VALID)
    for _ in range(data.draw(st.integers(0, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "dup", "insert", "count"]))
        if action == "drop":
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "insert":
            pos = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + data.draw(st.text(max_size=4)) + lines[i][pos:]
        else:
            lines[i] = f"{data.draw(st.integers(-5, 2000))} " + lines[i].partition(" ")[2]
    try:
        problems = []
        parse_team_deck(parse_decklist("\n".join(lines), "fuzz.txt"), catalogue, problems)
        assert all(isinstance(p, HordeError) for p in problems)
    except HordeError as error:
        assert "\n" not in error.one_line()


KNOB_VALUES = st.one_of(st.integers(-3, 300), st.text(max_size=6), st.booleans(), st.none(),
                        st.lists(st.text(max_size=5), max_size=3))


@settings(max_examples=150, deadline=None)
@given(knobs=st.dictionaries(st.sampled_from(["players", "grace_turns", "cards_per_player", "reveal",
                                              "strong_mix", "commander_casts", "boss", "max_turns",
                                              "mulligan", "lieutenants", "army_trigger", "team_decks",
                                              "life_per_player", "reveal_base", "unknown_knob"]),
                             KNOB_VALUES, max_size=4))
def test_mutated_setups_fail_only_with_setup_errors(knobs):
    from horde.setup import make_setup

    try:
        make_setup("zombie-horde", **knobs)
    except HordeError as error:
        assert "\n" not in error.one_line()


def test_compare_plays_two_setups_on_the_same_seeds(runner):
    """The white deck against itself with either blocking rule: both arms play seeds (1, 0) to
    (1, 29); the pairs are the games and the pooled row repeats them."""
    base = ["--games", "30", "--workers", "1", "--quiet", "--horde", "mini", "--team", "white", "--team", "white",
            "--boss", "none"]
    result = runner.invoke(cli, ["compare", *base, "--a", "--players 2 --blocking team",
                                 "--b", "--players 2 --blocking defender"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("A: --players 2 --blocking team (setup ")
    assert lines[1].startswith("B: --players 2 --blocking defender (setup ")
    assert lines[2].startswith("30 games each, seeds (1, 0) to (1, 29), horde ")
    assert lines[3].split()[:3] == ["pairs", "A", "wins"]
    assert lines[4].split()[0] == "30" and len(lines) == 5
    same = runner.invoke(cli, ["compare", *base, "--a", "--players 2", "--b", "--players 2"])
    assert same.output.splitlines()[-1].split()[3:6] == ["0", "0", "+0.0"]  # the same games: no pair differs


@pytest.mark.parametrize(("arguments", "fragment"), [
    (["--a", "--polcy control", "--b", "--policy baseline"], "--a '--polcy control': No such option '--polcy'"),
    (["--a", "--policy control"], "give two results folders, or both --a and --b"),
    (["--a", "", "--b", "--policy baseline"], "--a '': give at least one knob option"),
    (["--a", "--help", "--b", "--policy baseline"], "--a '--help': No such option '--help'"),
    (["--a", "--players 9", "--b", "--policy baseline"], "--a: knob 'players' = '9': expected a whole number"),
    (["--a", "--policy 'x", "--b", "--policy baseline"], "No closing quotation"),
    (["results/a", "results/b", "--a", "--policy control", "--b", "--policy baseline"], "not both"),
    ([], "give two results folders, or both --a and --b"),
])
def test_compare_explains_bad_arms_in_one_line(runner, arguments, fragment):
    one_line_error(runner.invoke(cli, ["compare", *arguments]), fragment)


def test_play_shows_each_mechanic_of_the_grave_horde_in_the_log():
    """The demonstration: the bundled grave-horde deck (flashback, unearth, regeneration, wither,
    an Aura, kicker, protection) against the bundled team decks (a flash creature, protection),
    seed 631 (645 before the merged card work changed the games, 373 before a granted haste counted,
    302.6): each mechanic shows in the readable log
    and in the JSON events."""
    runner = CliRunner()
    seed = ["play", "--horde", "grave-horde", "--seed", "631"]
    events = [json.loads(line) for line in runner.invoke(cli, [*seed, "--json"]).stdout.splitlines()]
    readable = runner.invoke(cli, seed).output
    shown = {
        "flashback": [e for e in events if e["event"] == "cast" and e["origin"] == "flashback"],
        "unearth": [e for e in events if e["event"] == "unearth"],
        "regeneration": [e for e in events if e["event"] == "regenerate"],
        "wither": [e for e in events if e["event"] == "damage" and e["as_counters"]
                   and e["source"] in ("Sickle Ripper", "Midnight Banshee")],
        "aura": [e for e in events if e["event"] == "enchant"],
        "flash": [e for e in events if e["event"] == "flash"],
        "kicker": [e for e in events if e["event"] == "cast" and e["kicked"]],
        "protection": [e for e in events if e["event"] == "protection"],
    }
    assert [name for name, found in shown.items() if not found] == []
    lines = readable.splitlines()
    for line in ("  The Horde casts Moan of the Unhallowed from its graveyard (flashback)",
                 "  The Horde unearths Dregscape Zombie",
                 "  Mortivore regenerates (paid {B}): tapped, damage removed, out of combat",
                 "  Sickle Ripper deals 2 damage to Wall of Omens as -1/-1 counters",
                 "  Pacifism enchants Mortivore",
                 "  Player 3 casts Unsummon with flash before blocks",
                 "  The Horde casts Bloodhusk Ritualist kicked 3 times",
                 "  Mirran Crusader has protection from Mortivore: its 27 damage is prevented"):
        assert line in lines, line
