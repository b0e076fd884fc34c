"""Decklists as Horde players write them: blank lines separate groups of a Horde deck (only a
Sideboard header starts a sideboard), team decks keep MTGO's rule; decks check names what it
ignores, takes bundled names and warns of banlisted cards (R3)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from horde.cards.catalogue import bundled_catalogue
from horde.cards.decklists import parse_decklist
from horde.cards.decks import check_deck, load_horde_deck, read_deck
from horde.cli import cli

# As the Horde helper apps export a list: groups separated by blank lines, no headers.
HELPER_APP_LIST = """1 Grave Titan
1 Fleshbag Marauder
1 Cackling Fiend
1 Infectious Horror
1 Maggot Carrier
1 Severed Legion
1 Carrion Wurm
1 Nested Ghoul
1 Blind Creeper
1 Vengeful Dead
1 Walking Corpse
1 Rotting Fensnake
1 Skulking Knight
1 Soulless One
1 Undead Warchief
1 Yixlid Jailer
1 Death Baron
1 Unbreathing Horde
1 Bad Moon
1 Call to the Grave
1 Damnation
1 Delirium Skeins
1 Endless Ranks of the Dead
1 Forsaken Wastes
1 Plague Wind
1 Twilight's Call
1 Army of the Damned
1 Nocturnal Raid
1 Grave Pact

55 2/2 Zombie tokens

11 Zombie Giant (TMH2)

5 Zombie Army
"""


def test_blank_lines_separate_groups_of_a_horde_list(tmp_path):
    path = tmp_path / "helper.txt"
    path.write_text(HELPER_APP_LIST)
    assert {e.section for e in read_deck(path).entries} == {"deck"}
    deck = load_horde_deck(str(path), bundled_catalogue())
    assert len(deck.cards) == 100
    names = [c.name for c in deck.cards]
    assert names.count("Zombie") == 55 and names.count("Zombie Giant") == 11 and names.count("Zombie Army") == 5
    assert check_deck(str(path), bundled_catalogue()) == []


def test_only_a_sideboard_header_starts_a_horde_sideboard(tmp_path):
    path = tmp_path / "horde.txt"
    path.write_text("About\nKind horde\n\nDeck\n1 Grave Titan\n\n20 Zombie\n\nSideboard\n2 Damnation\n3 Plague Wind\n")
    result = CliRunner().invoke(cli, ["decks", "check", str(path)])
    assert f"{path}:10: note: section 'sideboard' (5 cards) is not played in a horde deck" in result.output
    assert len(load_horde_deck(str(path), bundled_catalogue()).cards) == 21


def test_team_decks_keep_the_mtgo_rule():
    text = "1 Sol Ring\n1 Island\n\n1 Negate\n"
    assert [e.section for e in parse_decklist(text, kind="team").entries] == ["deck", "deck", "sideboard"]
    assert [e.section for e in parse_decklist(text, kind="horde").entries] == ["deck", "deck", "deck"]


def test_decks_check_takes_bundled_names_of_both_kinds():
    result = CliRunner().invoke(cli, ["decks", "check", "zombie-horde", "knudson-2011", "control"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "decks/horde/zombie-horde.txt (horde deck): ok; plays 1-4 players" in lines[0]
    assert "decks/horde/knudson-2011.txt (horde deck): ok; plays 1-4 players" in lines[1]
    assert lines[2].endswith("decks/team/control.txt (team deck): ok")


def test_R3_decks_check_warns_of_banlisted_cards_in_a_team_deck(tmp_path):
    deck = Path(__file__).resolve().parent.parent / "decks" / "team" / "go-wide.txt"
    banned = tmp_path / "go-wide.txt"
    banned.write_text(deck.read_text().replace("1 Geist-Honored Monk", "1 Elesh Norn, Grand Cenobite"))
    result = CliRunner().invoke(cli, ["decks", "check", str(banned)])
    assert result.exit_code == 0
    warning, ok = result.output.splitlines()
    assert warning.endswith("warning: 'Elesh Norn, Grand Cenobite' is on the banlist: a player who draws it "
                            "removes it from the game and draws another (R3)")
    assert ok.endswith("(team deck): ok")


def test_token_lines_as_players_write_them():
    catalogue = bundled_catalogue()
    assert catalogue.get("Zombie") is catalogue.get("2/2 Zombie tokens") is catalogue.get("Zombie token")
    assert catalogue.get("5/5 Zombie Giant").name == "Zombie Giant"
    text = "About\nKind horde\nDeck\n55 Zombie\n5 Zombie Giant (TMH2)\n1 Grave Titan\n"
    entries = parse_decklist(text).entries
    assert [(e.count, catalogue.get(e.name).name) for e in entries] == [
        (55, "Zombie"), (5, "Zombie Giant"), (1, "Grave Titan")]


def test_B1_a_planeswalker_plays_only_as_a_boss(tmp_path):
    path = tmp_path / "walker.txt"
    path.write_text("About\nKind horde\nDeck\n1 Elspeth Tirel\n20 Zombie\nBosses\n1 Liliana, Death Mage\n")
    problems = check_deck(str(path), bundled_catalogue())
    assert [p.one_line() for p in problems] == [
        f"{path}:4: 'Elspeth Tirel' is a planeswalker: the engine plays planeswalkers only as bosses (B1), in a "
        "Bosses section"]
