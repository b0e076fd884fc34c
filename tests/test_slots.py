"""How much of a deck is real: every simulate, run, play and report states per deck how many card
slots are exact, approximated and blank (approximated with nothing read), in the text output, the
JSON and the results folder (manifest.json, games.parquet's metadata, the HTML report); and the
names old lists spell (AEther, Æther), coverage of every line, the hint for an unknown name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from horde.cards.cardindex import import_atomic_cards
from horde.cards.catalogue import catalogue_for
from horde.cards.decklists import parse_decklist
from horde.cards.decks import parse_horde_deck
from horde.cli import cli
from horde.play import DeckSlots, prepare
from horde.setup import make_setup

DATA = Path(__file__).parent / "data" / "mtgjson"
# The shared precons beside the checkout (../shared), or beside the folder of worktrees it sits in.
SHARED = next((p / "shared" / "cards" / "precons" for p in Path(__file__).resolve().parents[2:4]
               if (p / "shared" / "cards" / "precons").is_dir()), Path("../shared/cards/precons"))
# 4 + 2 + 20 exact (compiled, hand-written token), 3 approximated (Gravecrawler: its graveyard
# casting dropped), 2 + 1 blank (Bonecrusher Giant and Delver of Secrets: nothing of their text read).
HORDE_LIST = """About
Kind horde
Build fixed

Deck
4 Lord of the Undead
3 Gravecrawler
2 Bonecrusher Giant
1 Delver of Secrets
2 Doom Blade

Tokens
20 Zombie
"""
SMALL = ["--players", "1", "--cards-per-player", "32", "--boss", "none", "--no-lieutenants", "--quiet"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    both = json.loads((DATA / "AtomicCards.json").read_text())
    both["data"].update(json.loads((DATA / "AtomicCards-more.json").read_text())["data"])
    (tmp_path / "AtomicCards.json").write_text(json.dumps(both, ensure_ascii=False))
    import_atomic_cards(tmp_path / "AtomicCards.json")
    return tmp_path


@pytest.fixture
def horde_list(home):
    path = home / "half-modelled.txt"
    path.write_text(HORDE_LIST)
    return str(path)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


EXPECTED = DeckSlots("half-modelled", "Horde", 26, 3, 3)


def test_the_slots_of_a_half_modelled_deck(horde_list):
    setup = make_setup("zombie-horde", horde_deck=horde_list, players=1, cards_per_player=32, boss="none",
                       lieutenants=False, approximate=True)
    slots = prepare(setup, catalogue_for(approximate=True)).slots()
    assert slots[0] == EXPECTED and slots[0].slots == 32
    assert slots[0].describe() == "half-modelled (Horde): 32 card slots, 26 exact, 3 approximated, 3 blank"
    assert [(s.role, s.exact, s.slots) for s in slots[1:]] == [("player 1", 100, 100)]


def test_simulate_says_per_deck_what_is_real_in_its_text_and_its_json(horde_list):
    result = run("simulate", "--horde", horde_list, "--games", "3", "--workers", "1", "--approximate", *SMALL)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("NOT EXACT: card slots per deck"))
    assert lines[start + 1:start + 3] == ["  half-modelled (Horde): 32 card slots, 26 exact, 3 approximated, 3 blank",
                                          "  Go Wide (player 1): 100 card slots, 100 exact, 0 approximated, 0 blank"]
    machine = run("simulate", "--horde", horde_list, "--games", "3", "--workers", "1", "--approximate", "--json",
                  *SMALL)
    summary = json.loads(machine.stdout)
    assert summary["decks"][0] == {"deck": "half-modelled", "role": "Horde", "slots": 32, "exact": 26,
                                   "approximated": 3, "blank": 3}


def test_an_exact_setup_says_so_in_one_line(home):
    result = run("simulate", "--games", "2", "--workers", "1", "--players", "1", "--quiet")
    assert "card slots: every deck exact (zombie-horde (Horde) 115, Go Wide (player 1) 100)" in result.output


def test_play_says_it_too_on_stderr_with_json(horde_list):
    result = run("play", "--horde", horde_list, "--approximate", "--json", *SMALL[:-1])
    assert result.exit_code == 0
    assert "  half-modelled (Horde): 32 card slots, 26 exact, 3 approximated, 3 blank" in result.stderr
    assert all(json.loads(line) for line in result.stdout.splitlines())  # stdout: the game's events alone
    text = run("play", "--horde", horde_list, "--approximate", *SMALL[:-1])
    assert "NOT EXACT: card slots per deck" in text.output


def test_a_run_records_the_slots_in_its_manifest_parquet_and_report(horde_list, home):
    import pyarrow.parquet as pq

    experiment = home / "half.toml"
    experiment.write_text(f'name = "half"\nseed = 1\n[setup]\nhorde_deck = "{horde_list}"\nplayers = 1\n'
                          'cards_per_player = 32\nboss = "none"\nlieutenants = false\napproximate = true\n'
                          '[run]\ngames = 4\n')
    result = run("run", str(experiment), "--out", str(home / "results"), "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert "  half-modelled (Horde): 32 card slots, 26 exact, 3 approximated, 3 blank" in result.output
    folder = next((home / "results").iterdir())
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["decks"][0]["decks"][0] == EXPECTED.record()
    metadata = pq.read_schema(folder / "games.parquet").metadata
    assert json.loads(metadata[b"horde.decks"])[0]["decks"][0]["blank"] == 3
    report = run("report", str(folder))
    assert report.exit_code == 0, report.output
    page = (folder / "report.html").read_text()
    assert "Card slots of the decks" in page and "Some card slots did NOT play as printed" in page
    assert "<td>26</td><td>3</td><td>3</td>" in page


# ---------------------------------------------------------------- old spellings, counts and hints


def test_old_spellings_of_aether_find_the_card_both_ways(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    data = {"meta": {}, "data": {
        "Aethersnipe": [{"name": "Aethersnipe", "manaCost": "{5}{U}", "manaValue": 6, "colors": ["U"],
                         "colorIdentity": ["U"], "type": "Creature — Elemental", "types": ["Creature"],
                         "subtypes": ["Elemental"], "supertypes": [], "power": "4", "toughness": "4",
                         "text": "Flying", "layout": "normal"}],
        "Æther Figment": [{"name": "Æther Figment", "manaCost": "{1}{U}{U}", "manaValue": 3, "colors": ["U"],
                         "colorIdentity": ["U"], "type": "Creature — Human Wizard", "types": ["Creature"],
                         "subtypes": ["Human", "Wizard"], "supertypes": [], "power": "2", "toughness": "2",
                         "text": "Flying", "layout": "normal"}]}}
    (tmp_path / "AtomicCards.json").write_text(json.dumps(data, ensure_ascii=False))
    import_atomic_cards(tmp_path / "AtomicCards.json")
    catalogue = catalogue_for()
    for name in ("AEthersnipe", "Æthersnipe", "aethersnipe", "ÆTHERSNIPE"):
        assert catalogue.get(name).name == "Aethersnipe"
    for name in ("Aether Figment", "AEther Figment", "Æther Figment"):  # an index of the older spelling
        assert catalogue.get(name).name == "Æther Figment"
    shown = run("cards", "show", "AEther Figment")
    assert shown.exit_code == 0 and shown.output.startswith("Æther Figment")
    assert catalogue.get("Æther Adept") is catalogue.get("Aether Adept")  # a bundled card's too


def test_old_spellings_on_the_banlist(tmp_path):
    from horde.cards.decks import banned_cards, load_banlist

    flash = tmp_path / "banlist.txt"
    flash.write_text("Deck\n1 Æther Flash\n")
    assert load_banlist(str(flash)) == frozenset({"aether flash"})

    class Deck:
        cards = [type("Card", (), {"name": "AEther Flash"})()]
        commanders: list = []

    assert banned_cards(load_banlist(str(flash)), [Deck()]) == frozenset({"AEther Flash"})  # type: ignore[list-item]


def test_coverage_counts_every_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "empty"))
    path = tmp_path / "twice.txt"
    path.write_text("Commander\n1 Grave Titan\n\nDeck\n1 Swamp\n1 Walking Corpse\n1 Swamp\n3 Swamp\n")
    result = run("cards", "coverage", str(path))
    lines = result.output.splitlines()
    assert [line.split()[:2] for line in lines[:5]] == [["1", "Grave"], ["1", "Swamp"], ["1", "Walking"],
                                                        ["1", "Swamp"], ["3", "Swamp"]]
    assert lines[-2:] == ["7 cards: 7 hand-written", "card slots: 7 exact, 0 approximated, 0 blank, 0 refused"]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared precons (../shared/cards/precons) are not here")
def test_coverage_of_a_100_card_precon_shows_100(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "empty"))
    result = run("cards", "coverage", str(SHARED / "mind-seize.txt"))
    assert result.output.splitlines()[-2].startswith("100 cards: ")


def test_an_unknown_card_of_a_horde_list_gets_the_import_hint_not_a_token_s(tmp_path, monkeypatch):
    """The fault: without an imported card file, a Horde list's real cards got a token's hint."""
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "empty"))
    catalogue = catalogue_for()
    text = ("About\nKind horde\nBuild fixed\n\nDeck\n1 All Is Dust\n1 Living Death\n1 Smallpox\n1 Syphon Flesh\n"
            "2 Ooze\n2 Zombie Giants\n\nTokens\n20 Zombie\n9 Spawn\n")
    problems: list = []
    parse_horde_deck(parse_decklist(text, "horde.txt", "horde"), catalogue, problems)
    messages = {p.line: p.one_line() for p in problems}
    for line, name in ((6, "All Is Dust"), (7, "Living Death"), (8, "Smallpox"), (9, "Syphon Flesh")):
        assert messages[line].startswith(f"horde.txt:{line}: unknown card '{name}': not in the card catalogue "
                                         "(import MTGJSON's AtomicCards with 'horde cards import' to play any card)")
    assert messages[10].startswith("horde.txt:10: unknown card or token 'Ooze': a token is described in the list")
    assert messages[11].startswith("horde.txt:11: unknown card or token 'Zombie Giants' (close names: 'Zombie Giant')")
    assert messages[15].startswith("horde.txt:15: unknown token 'Spawn'")
