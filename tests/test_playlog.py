"""`horde play` as a Magic player reads it: turn headers by side, plays and draws by player, the
boss's abilities in the words of its card, the command zone, the entry roll explained by L2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from horde.cards.catalogue import bundled_catalogue
from horde.cli import cli
from horde.cli.playlog import describe
from horde.engine.cards import ability_text
from horde.engine.events import problems


@pytest.fixture(scope="module")
def log_lines():
    result = CliRunner().invoke(cli, ["play", "--seed", "7", "--players", "4"])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_H2_turn_headers_name_the_side_and_count_its_turns_apart(log_lines):
    headers = [line for line in log_lines if line.startswith("== Turn")]
    assert headers[:6] == [
        "== Turn 1: the team's turn 1", "== Turn 2: the team's turn 2", "== Turn 3: the team's turn 3",
        "== Turn 4: the Horde's turn 1", "== Turn 5: the team's turn 4", "== Turn 6: the Horde's turn 2"]
    assert headers[-1] == "== Turn 10: the Horde's turn 4"


def test_plays_casts_and_draws_are_by_player(log_lines):
    turn1 = log_lines[log_lines.index("== Turn 1: the team's turn 1"):log_lines.index("== Turn 2: the team's turn 2")]
    assert turn1[1:6] == ["  Player 1 plays Forest", "  Player 1 casts Birds of Paradise", "  Player 2 plays Forest",
                          "  Player 3 plays Island", "  Player 4 plays Mountain"]
    assert not any("enters" in line for line in turn1)  # a land played or a spell cast is not told twice
    turn5 = log_lines.index("== Turn 5: the team's turn 4")
    assert log_lines[turn5 + 1:turn5 + 4] == ["  Player 1 draws Avacyn, Angel of Hope", "  Player 2 draws Forest",
                                              "  Player 3 draws Swamp"]
    turn2 = log_lines.index("== Turn 2: the team's turn 2")
    assert log_lines[turn2 + 5:turn2 + 8] == ["  Player 1 plays Plains", "  Player 1 casts Inspiring Overseer",
                                              "  The team gains 1 life (team life 81)"]
    assert not any("Team's control" in line for line in log_lines)


def test_B3_boss_ability_in_the_words_of_its_card(log_lines):
    assert ('  Elspeth, Knight-Errant activates "+1: Create a 1/1 white Soldier creature token." (loyalty 4 -> 5): '
            'its loyalty is too low for a minus ability, so a plus ability (B3)') in log_lines
    seed12 = CliRunner().invoke(cli, ["play", "--seed", "12", "--players", "4"]).output.splitlines()
    assert ('  Elspeth, Knight-Errant activates "+1: Target creature gets +3/+3 and gains flying until end of turn." '
            '(loyalty 9 -> 10): d20 roll 5, 1-12: the plus ability (B3)') in seed12
    assert ('  Lieutenant Boris Devilboon activates "{2}{B}{R}, {T}: Create a 1/1 black and red Demon creature token '
            'named Minor Demon." instead of attacking (L8)') in log_lines
    assert not any("create_tokens" in line for line in log_lines)


def test_B3_a_boss_with_no_minus_ability_uses_its_second_on_13_to_18():
    result = CliRunner().invoke(cli, ["play", "--seed", "13", "--players", "1", "--boss", "Elspeth, Knight-Errant"])
    assert result.exit_code == 0, result.output
    assert ('  Elspeth, Knight-Errant activates "+1: Target creature gets +3/+3 and gains flying until end of turn." '
            '(loyalty 8 -> 9): d20 roll 16, 13-18: the minus ability (B3); it has no minus ability it can use '
            'there, so a plus ability') in result.output.splitlines()


def test_C2_the_commander_goes_to_the_command_zone(log_lines):
    line = "  Kodama of the North Tree would die; player 2 puts it into the command zone instead (C2: 903.11)"
    assert line in log_lines
    assert "  Kodama of the North Tree dies" not in log_lines
    # and is cast from there again (seed 2's game)
    lines = CliRunner().invoke(cli, ["play", "--seed", "2", "--players", "4"]).output.splitlines()
    line = "  Princess Lucrezia would die; player 3 puts it into the command zone instead (C2: 903.11)"
    assert "  Player 3 casts Princess Lucrezia from the command zone" in lines[lines.index(line):]


def test_L2_entry_roll_explained_by_the_rule(log_lines):
    assert ("  Lieutenant entry roll: d20 8 + 0 entry counters = 8, below 18: no lieutenant enters, and the Horde "
            "gets an entry counter (L2)") in log_lines
    assert "  Lieutenant entry roll: d20 17 + one entry counter = 18, 18 or more: a lieutenant enters (L2)" in log_lines


def test_json_adds_only_the_documented_events():
    result = CliRunner().invoke(cli, ["play", "--seed", "7", "--players", "4", "--json"])
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(not problems(e) for e in events)
    kinds = {e["event"] for e in events}
    assert {"turn_begins", "draw", "land_played", "command_zone"} <= kinds
    assert next(e for e in events if e["event"] == "command_zone") == {
        "turn": 8, "side": "team", "event": "command_zone", "player": 2, "card": "Kodama of the North Tree",
        "instead_of": "graveyard"}


def test_B3_ability_text_keeps_every_sentence_of_the_ability():
    card = bundled_catalogue().get("Liliana, Death Mage")
    assert ability_text(card, card.abilities("Minus")[0]) == "−3: Destroy target creature. Its controller loses 2 life."


def test_boss_ability_rolled_too_dear_says_so():
    event = {"event": "boss_ability", "name": "Liliana, Death Mage", "roll": 20, "ability": "minus",
             "text": "−3: Destroy target creature. Its controller loses 2 life.", "loyalty_before": 4,
             "loyalty_after": 1}
    assert describe(event) == ('Liliana, Death Mage activates "−3: Destroy target creature. Its controller loses 2 '
                               'life." (loyalty 4 -> 1): d20 roll 20, 19-20: the ultimate (B3); it can\'t pay for '
                               'that one, so the dearest minus ability it can')


@pytest.mark.parametrize("policy", ["baseline", "expert"])
def test_hands_show_every_team_decision_and_play_the_same_game(policy):
    """`horde play --hands`: every decision of the team, with each player's hand and mana as it is
    taken, beside the very game played without it (a searching policy's copies included)."""
    from horde.play import play_game
    from horde.setup import make_setup

    setup = make_setup("zombie-horde", players=2, policy=policy)
    plain = play_game(setup, 5, trace=True).events
    shown = play_game(setup, 5, trace=True, hands=True).events
    assert [e for e in shown if e["event"] != "decision"] == plain
    decisions = [e for e in shown if e["event"] == "decision"]
    assert {e["kind"] for e in decisions} >= {"mulligan", "land", "cast", "attackers"}
    assert all(problems(e) == [] and len(e["hands"]) == 2 for e in decisions)
    first = decisions[0]
    assert first["kind"] == "mulligan" and first["player"] == 1 and first["answer"] in ("keep", "mulligan")
    assert first["hands"][0].startswith("player 1 (0 of 0 mana open): ") and first["hands"][1] == \
        "player 2 (0 of 0 mana open): no card"


def test_hands_in_the_play_log():
    result = CliRunner().invoke(cli, ["play", "--seed", "5", "--players", "2", "--hands"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # a decision shows the hands unless they are as the decision before it showed them
    keep = lines.index("  [Player 1 decides mulligan: keep]")
    assert lines[keep + 1].startswith("      player 1 (") and lines[keep + 2].startswith("      player 2 (")
    shown = [i for i, line in enumerate(lines) if line.startswith("  [Player 1 decides land: ")
             and lines[i + 1].startswith("      player 1 (")]
    assert shown and lines[shown[0] + 2].startswith("      player 2 (")
    assert any(line.startswith("  [The team decides attackers: ") for line in lines)


def test_a_kicker_decision_reads_as_times_kicked_not_as_a_player():
    """An outside reader took '[Player 3 decides kick: player 1]' for a kicked Into the Roil that
    drew no card: the answer is the number of times the spell is kicked (0 there)."""
    from horde.play import answer_words

    assert answer_words("kick", 0) == "not kicked"
    assert answer_words("kick", 1) == "kicked 1 time"
    assert answer_words("kick", 2) == "kicked 2 times"
    assert answer_words("target", 0) == "player 1"
