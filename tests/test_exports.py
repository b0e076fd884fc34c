"""Commander decks as the deck sites export them (Archidekt, Moxfield, MTGO .txt and .dek, Arena,
TappedOut) play as the same deck; commanders by their text (903.3) and in pairs (702.124)."""

from collections import Counter
from pathlib import Path

import pytest

from horde.cards.catalogue import default_catalogue
from horde.cards.decklists import parse_decklist
from horde.cards.decks import (
    commander_problem,
    inspect_deck,
    load_team_deck,
    pair_problem,
    parse_team_deck,
    read_deck,
)
from horde.engine.cards import CardDef, ManaCost
from horde.errors import DeckError

EXPORTS = Path(__file__).parent / "data" / "decks" / "exports"


def card(name, types=("Creature",), supertypes=("Legendary",), subtypes=(), text="", identity=""):
    return CardDef(name, ManaCost(), frozenset(types), frozenset(subtypes), frozenset(supertypes), power=1,
                   toughness=1, text=text, identity=frozenset(identity))


@pytest.mark.parametrize("export", ["archidekt.txt", "moxfield.txt", "moxfield-categories.txt", "mtgo.txt",
                                    "mtgo.dek", "tappedout.txt", "arena.txt"])
def test_C1_each_export_of_a_commander_deck_is_the_same_deck(export):
    catalogue = default_catalogue()
    bundled = load_team_deck("go-wide", catalogue)
    path = EXPORTS / export
    deck = parse_team_deck(read_deck(path, "team", catalogue), catalogue)
    assert deck.commander is bundled.commander and deck.partner is None
    assert Counter(c.name for c in deck.cards) == Counter(c.name for c in bundled.cards)
    check = inspect_deck(str(path), catalogue)
    assert (check.kind, check.problems) == ("team", [])
    assert [section for section, _, _ in check.ignored] == (["maybeboard"] if export == "archidekt.txt" else [])


def test_C1_an_mtgo_sideboard_of_more_than_two_cards_is_no_commander(tmp_path):
    text = (EXPORTS / "mtgo.txt").read_text().replace("1 Tolsimir Wolfblood", "1 Tolsimir Wolfblood\r\n1 Negate\r\n1 Duress")
    path = tmp_path / "mtgo.txt"
    path.write_text(text)
    catalogue = default_catalogue()
    problems = inspect_deck(str(path), catalogue, kind="team").problems
    assert [p.message for p in problems][:1] == [
        "expected exactly one card in a 'Commander' section, found 0 (two: partners, 702.124; C1, 903.3)"]


def test_903_3_a_card_whose_text_says_so_can_be_your_commander():
    walker = card("Daretti, Scrap Savant", types=("Planeswalker",),
                  text="+2: Discard up to two cards, then draw that many cards. Daretti, Scrap Savant can be your "
                       "commander.")
    assert commander_problem(walker) is None
    assert commander_problem(card("Grizzly Bears", supertypes=())) == (
        "commander 'Grizzly Bears' is not a legendary creature (903.3), and its text does not say it can be your "
        "commander")
    assert commander_problem(card("Ajani Goldmane", types=("Planeswalker",))) is not None


PARTNER = "Partner (You can have two commanders if both have partner.)"


@pytest.mark.parametrize(
    "first, second, legal",
    [
        (card("Thrasios, Triton Hero", text="{4}: Scry 1, then reveal the top card of your library. " + PARTNER),
         card("Tymna the Weaver", text="Lifelink " + PARTNER), True),
        (card("Pir, Imaginative Rascal", text="Partner with Toothy, Imaginary Friend (When this creature enters, "
                                               "target player may put Toothy into their hand from their library, then "
                                               "shuffle.) If one or more counters would be put on a permanent your "
                                               "team controls, that many plus one are put on it instead."),
         card("Toothy, Imaginary Friend", text="Partner with Pir, Imaginative Rascal (When this creature enters, "
                                                "target player may put Pir into their hand from their library, then "
                                                "shuffle.)"), True),
        (card("Pir, Imaginative Rascal", text="Partner with Toothy, Imaginary Friend"),
         card("Tymna the Weaver", text=PARTNER), False),
        (card("Wilson, Refined Grizzly", text="Choose a Background (You can have a Background as a second commander.)"),
         card("Raised by Giants", types=("Enchantment",), subtypes=("Background",)), True),
        (card("Tymna the Weaver", text=PARTNER), card("Krenko, Mob Boss"), False),
        (card("Cecily, Haunted Mage", text="Friends forever (You can have two commanders if both have friends "
                                           "forever.)"),
         card("Othelm, Sigardian Outcast", text="Friends forever (You can have two commanders if both have friends "
                                                "forever.)"), True),
    ],
)
def test_702_124_partners_and_backgrounds(first, second, legal):
    assert (pair_problem(first, second) is None) == legal
    assert (pair_problem(second, first) is None) == legal


def test_702_124_two_partners_play_with_their_joint_colour_identity(tmp_path):
    """Two partners are the commanders (the second in ``partner``); a card of either's colours is
    inside the deck's identity (903.4), one outside both is not."""
    from horde.cards.catalogue import Catalogue, Origin

    catalogue = default_catalogue().copy()
    thrasios = card("Thrasios, Triton Hero", text=PARTNER, identity="GU")
    tymna = card("Tymna the Weaver", text=PARTNER, identity="WB")
    for c in (thrasios, tymna):
        catalogue.add(c, "test", 1, Origin("hand-written", "test"))
    assert isinstance(catalogue, Catalogue)
    basics = "\n".join(f"{n} {land}" for n, land in ((25, "Plains"), (25, "Island"), (24, "Swamp"), (20, "Forest")))
    text = f"Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n1 Sol Ring\n1 Llanowar Elves\n" \
           f"1 Murder\n1 Counterspell\n{basics}\n"
    deck = parse_team_deck(parse_decklist(text, "partners.txt", "team"), catalogue)
    assert (deck.commander, deck.partner) == (thrasios, tymna)
    assert [c.name for c in deck.commanders] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    with pytest.raises(DeckError, match=r"partners.txt:6: 'Lightning Bolt' has colour identity R outside the "
                                         r"commander's BGUW \(C1, 903.4\)"):
        parse_team_deck(parse_decklist(text.replace("1 Sol Ring", "1 Lightning Bolt"), "partners.txt", "team"),
                        catalogue)


def test_903_10_two_partners_start_in_the_command_zone_each_with_its_own_tax(make_game, catalogue):
    """702.124: both partners start in the command zone; 903.10: each one's tax counts its own casts."""
    from conftest import put

    from horde.engine import rules

    game = make_game(players=1)
    player = game.players[0]
    partner = card("Tymna the Weaver", text=PARTNER, identity="WB")
    player.command.append(partner)
    for _ in range(3):
        put(game, catalogue, "Plains", side="team")
    rules.team_cast(game, 0, player.commander, "command")
    first = next(p for p in game.battlefield.team if p.card is player.commander)
    rules.destroy(game, first)
    assert rules.spell_cost(game, player.commander, 0, "command") == (2, ("W",))
    assert rules.spell_cost(game, partner, 0, "command") == (0, ())


def test_a_malformed_dek_line_is_one_line_naming_the_file_and_line(tmp_path):
    from click.testing import CliRunner
    from conftest import one_line_error

    from horde.cli import cli

    path = tmp_path / "deck.dek"
    lines = (EXPORTS / "mtgo.dek").read_text().splitlines()
    lines[6] = '  <Cards CatID="0" Quantity="one" Sideboard="false" Name="Sol Ring" Annotation="0" />'
    path.write_text("\n".join(lines))
    result = CliRunner().invoke(cli, ["simulate", "--games", "1", "--players", "1", "--team", str(path)])
    one_line_error(result, f"{path}:7: bad count 'one': expected a whole number from 1 to 999")
    checked = CliRunner().invoke(cli, ["decks", "check", str(path)])
    assert checked.exit_code == 2 and f"{path}:7: bad count 'one'" in checked.output


@pytest.mark.parametrize("export", ["archidekt.txt", "tappedout.txt"])
def test_a_malformed_line_of_an_export_names_the_file_and_line(tmp_path, export):
    path = tmp_path / export
    lines = (EXPORTS / export).read_text().splitlines()
    lines[4] = "1x [Ramp]" if export == "archidekt.txt" else "Sol Ring *CMDR*"
    path.write_text("\n".join(lines))
    with pytest.raises(DeckError) as caught:
        read_deck(path, "team")
    assert (caught.value.path, caught.value.line) == (str(path), 5)
    assert caught.value.message.startswith("expected '<count> <card name>', e.g. '1 Sol Ring', got ")
