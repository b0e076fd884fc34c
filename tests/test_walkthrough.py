"""The README's walkthrough, as a group would take it: four Commander decks exported from four
sites and a Horde list of described tokens, checked, then played with --approximate; each refused
card named with the sentences to write by hand. Cards from the sample index
tests/data/mtgjson/AtomicCards-decks.json (real entries: hybrid and Phyrexian costs, a planeswalker
that can be a commander, partners, token makers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from horde.cards.cardindex import import_atomic_cards
from horde.cards.catalogue import catalogue_for
from horde.cli import cli
from horde.play import new_game, prepare
from horde.setup import make_setup

DATA = Path(__file__).parent / "data"
WALK = DATA / "walkthrough"
TEAMS = [DATA / "decks" / "exports" / "archidekt.txt", WALK / "partners.dek", WALK / "daretti.txt",
         WALK / "reaper-king.txt"]
HORDE = WALK / "dinosaur-horde.txt"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_atomic_cards(DATA / "mtgjson" / "AtomicCards-decks.json")
    return tmp_path / "home"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_the_walkthrough_names_what_to_write_by_hand_then_plays_approximated(home):
    refused = run("decks", "check", *TEAMS, HORDE)
    assert refused.exit_code == 2
    names = ["Thrasios, Triton Hero", "Tymna the Weaver", "Daretti, Scrap Savant"]
    for name in names:
        assert f"card '{name}' (compiler) is refused: not understood: " in refused.output
    assert "reaper-king.txt (team deck): ok" in refused.output  # its Scarecrows' anthem and trigger: exact
    assert "Kitchen Finks" not in refused.output and "Dismember" not in refused.output  # hybrid, Phyrexian: exact
    assert "Regisaur Alpha" not in refused.output  # its Dinosaur token is bundled
    assert "Brood Monitor" not in refused.output  # its Eldrazi Scion token read from its text (111.4)
    checked = run("decks", "check", "--approximate", *TEAMS, HORDE)
    assert checked.exit_code == 0, checked.output
    assert checked.output.count("(team deck): ok") == 4 and "dinosaur-horde.txt (horde deck): ok" in checked.output
    teams = [arg for path in TEAMS for arg in ("--team", path)]
    played = run("simulate", "--approximate", "--horde", HORDE, *teams, "--players", "4", "--games", "10", "--seed", "1")
    assert played.exit_code == 0, played.output
    assert "APPROXIMATED: 3 card(s) play approximated" in played.output and "games        10" in played.output


def test_702_124_partners_start_together_in_the_command_zone(home):
    setup = make_setup("zombie-horde", horde_deck=str(HORDE), team_decks=[str(WALK / "partners.dek")], players=1,
                       approximate=True, boss="none", lieutenants=False)
    game = new_game(prepare(setup, catalogue_for(approximate=True)), 1)
    player = game.players[0]
    assert [card.name for card in player.command] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    assert player.identity == frozenset("WUBG") and player.deck_size == 100 and len(player.library) == 98


def test_coverage_names_each_card_of_the_horde_list_with_its_source(home):
    result = run("cards", "coverage", HORDE)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.split()[:5] == ["14", "2/2", "green", "Ooze", "with"] and "described     a token of the list's "
               "description: Token Creature — Ooze 2/2" in line for line in lines)
    assert any("Kitchen Finks" in line and "compiled" in line for line in lines)
    assert any(line.split()[:3] == ["4", "Brood", "Monitor"] and "compiled" in line for line in lines)
    assert lines[-2:] == ["100 cards: 14 compiled, 14 described, 72 hand-written",
                          "card slots: 100 exact, 0 approximated, 0 blank, 0 refused"]
