"""Hybrid, two-brid and Phyrexian mana (107.4e-f) as MTGJSON writes them: read in costs and card
files, counted in mana value (202.3f), colour and colour identity (202.2, 903.4), and paid by a
team player the cheapest way it can (docs/cards.md)."""

import pytest
from conftest import put

from horde.cards.catalogue import build_from_lines, load_catalogue, parse_cost
from horde.cards.decklists import parse_decklist
from horde.cards.decks import parse_team_deck
from horde.engine import rules
from horde.engine.cards import ManaCost, mana_symbol, pip_payments
from horde.errors import DeckError


@pytest.mark.parametrize(
    "text, pips, value, colours",
    [
        ("{1}{G/W}{G/W}", ("G/W", "G/W"), 3, "GW"),  # Kitchen Finks
        ("{W/U}", ("W/U",), 1, "UW"),
        ("{U/W}", ("W/U",), 1, "UW"),  # either order, kept as printed
        ("{2/W}{2/U}{2/B}{2/R}{2/G}", ("2/W", "2/U", "2/B", "2/R", "2/G"), 10, "BGRUW"),  # Reaper King: 202.3f
        ("{1}{B/P}{B/P}", ("B/P", "B/P"), 3, "B"),  # Dismember
        ("{G/U/P}", ("G/U/P",), 1, "GU"),  # hybrid Phyrexian (Tamiyo's Safekeeping's kin)
        ("{2}{b}{g/w}", ("B", "G/W"), 4, "BGW"),
    ],
)
def test_107_4_hybrid_symbols_in_costs(text, pips, value, colours):
    cost = parse_cost(text, "cards.txt", 3)
    assert cost.pips == pips
    assert cost.value == value  # 202.3f: {2/W} counts 2
    assert "".join(sorted(cost.colours)) == colours  # 202.2d
    assert str(cost) == text.upper().replace("{U/W}", "{W/U}")


@pytest.mark.parametrize("symbol", ["W/W", "2/P", "P", "W/U/B", "2/W/P", "X/W", "S", "H/W"])
def test_107_4_symbols_beyond_the_vocabulary_are_refused(symbol):
    assert mana_symbol(symbol) is None
    with pytest.raises(DeckError, match=r"^cards.txt:3: mana symbol '\{" + symbol.replace("/", "/") + r"\}' is beyond "
                                        r"the vocabulary: expected a number, X, W, U, B, R, G, C, a hybrid symbol"):
        parse_cost("{1}{" + symbol + "}", "cards.txt", 3)


def test_a_cost_of_more_than_eight_hybrid_symbols_is_refused():
    with pytest.raises(DeckError, match=r"at most 8 hybrid, two-brid and Phyrexian symbols \(docs/limits.md\)"):
        parse_cost("{W/U}" * 9, "cards.txt", 3)


def test_107_4_the_ways_to_pay_each_symbol():
    assert pip_payments("W") == (("W", 0, 0),)
    assert pip_payments("W/U") == (("W", 0, 0), ("U", 0, 0))
    assert pip_payments("2/W") == (("W", 0, 0), ("", 2, 0))
    assert pip_payments("W/P") == (("W", 0, 0), ("", 0, 2))
    assert pip_payments("G/U/P") == (("G", 0, 0), ("U", 0, 0), ("", 0, 2))


KITCHEN_FINKS = ["Name: Kitchen Finks", "Cost: {1}{G/W}{G/W}", "Type: Creature — Ouphe", "PT: 3/2",
                 "Text: When this creature enters, you gain 2 life.", "Enters: gain_life amount=2"]


def test_903_4_a_card_file_with_hybrid_mana_is_both_colours():
    card = build_from_lines(KITCHEN_FINKS, "cards.txt")
    assert card.cost == ManaCost(1, ("G/W", "G/W")) and card.mana_value == 3
    assert card.colours == card.identity == frozenset("GW")


def test_903_4_a_hybrid_card_is_outside_a_mono_coloured_commander(catalogue):
    """903.4: a hybrid symbol counts both its colours for colour identity, so Kitchen Finks can't
    be in a mono-white deck even though white mana pays for it."""
    finks = build_from_lines(KITCHEN_FINKS, "cards.txt")
    mine = catalogue.copy()
    mine.add(finks, "cards.txt", 1)
    text = "Commander\n1 Isamaru, Hound of Konda\nDeck\n1 Kitchen Finks\n98 Plains\n"
    with pytest.raises(DeckError, match=r"deck.txt:4: 'Kitchen Finks' has colour identity GW outside the "
                                        r"commander's W \(C1, 903.4\)"):
        parse_team_deck(parse_decklist(text, "deck.txt", "team"), mine)


def lands(game, catalogue, *names):
    return [put(game, catalogue, name, side="team") for name in names]


@pytest.mark.parametrize(
    "pips, generic, land_names, payable",
    [
        (("W/U",), 0, ["Plains"], True),  # 107.4e: either colour
        (("W/U",), 0, ["Island"], True),
        (("W/U",), 0, ["Swamp"], False),
        (("G/W", "G/W"), 1, ["Forest", "Plains", "Swamp"], True),
        (("G/W", "G/W"), 1, ["Forest", "Swamp", "Swamp"], False),
        (("2/W",), 0, ["Plains"], True),  # the colour
        (("2/W",), 0, ["Swamp", "Swamp"], True),  # or {2}
        (("2/W",), 0, ["Swamp"], False),
    ],
)
def test_107_4e_a_team_player_pays_hybrid_and_two_brid_mana(make_game, catalogue, pips, generic, land_names, payable):
    game = make_game(players=1)
    lands(game, catalogue, *land_names)
    assert rules.can_pay(game, 0, generic, pips) is payable
    assert rules.pay(game, 0, generic, pips) is payable
    assert game.team_life == 20


def test_107_4e_two_brid_mana_takes_the_colour_when_it_can(make_game, catalogue):
    game = make_game(players=1)
    plains, swamp, other_swamp = lands(game, catalogue, "Plains", "Swamp", "Swamp")
    assert rules.pay(game, 0, 0, ("2/W",))
    assert (plains.tapped, swamp.tapped, other_swamp.tapped) == (True, False, False)


def test_107_4f_phyrexian_mana_is_paid_with_mana_before_life(make_game, catalogue):
    game = make_game(players=1)
    swamp, plains = lands(game, catalogue, "Swamp", "Plains")
    life = game.team_life
    assert rules.pay(game, 0, 1, ("B/P",))  # Dismember's kin: {1}{B/P}
    assert (swamp.tapped, plains.tapped, game.team_life) == (True, True, life)


def test_107_4f_phyrexian_mana_is_paid_with_2_life_when_mana_cannot(make_game, catalogue):
    game = make_game(players=1)
    (plains,) = lands(game, catalogue, "Plains")
    life = game.team_life
    assert rules.can_pay(game, 0, 1, ("B/P", "B/P"))  # {1}{B/P}{B/P}: the Plains and 4 life
    assert rules.pay(game, 0, 1, ("B/P", "B/P"))
    assert plains.tapped and game.team_life == life - 4 and game.life_lost == 4


def test_119_4_a_team_never_pays_its_last_life_for_phyrexian_mana(make_game, catalogue):
    game = make_game(players=1)
    game.team_life = 2
    assert not rules.can_pay(game, 0, 0, ("B/P",))
    assert not rules.pay(game, 0, 0, ("B/P",))
    game.team_life = 3
    assert rules.pay(game, 0, 0, ("B/P",)) and game.team_life == 1


def test_107_4f_hybrid_phyrexian_mana(make_game, catalogue):
    game = make_game(players=1)
    (island,) = lands(game, catalogue, "Island")
    assert rules.pay(game, 0, 0, ("G/U/P",)) and island.tapped and game.team_life == 20
    assert rules.pay(game, 0, 0, ("G/U/P",)) and game.team_life == 18


def test_107_4_a_spell_with_hybrid_mana_is_cast_and_paid(make_game, catalogue):
    game = make_game(players=1)
    finks = build_from_lines(KITCHEN_FINKS, "cards.txt")
    game.players[0].hand.append(finks)
    forest, swamp = lands(game, catalogue, "Forest", "Swamp")
    assert (finks, "hand") not in rules.castable(game, 0)  # {1}{G/W}{G/W}: one green or white source
    plains = put(game, catalogue, "Plains", side="team")
    assert (finks, "hand") in rules.castable(game, 0)
    rules.team_cast(game, 0, finks, "hand")
    assert all(p.tapped for p in (forest, swamp, plains))
    assert any(p.card is finks for p in game.battlefield.team) and game.team_life == 22


def test_C4_generic_mana_pays_hybrid_symbols_with_any_mana(make_game, catalogue):
    game = make_game(players=1)
    game.players[0].generic_mana = True
    finks = build_from_lines(KITCHEN_FINKS, "cards.txt")
    lands(game, catalogue, "Swamp", "Swamp", "Swamp")
    assert rules.spell_cost(game, finks, 0, "hand") == (3, ())


def test_107_4_index_cards_with_hybrid_and_phyrexian_costs_play(tmp_path, monkeypatch):
    """The fault: a card whose MTGJSON manaCost holds {G/W}, {B/P} or {2/W} was refused even with
    --approximate. Kitchen Finks, Dismember and Reaper King now compile (its {2/W} reminder is reminder text)."""
    from pathlib import Path

    from horde.cards.cardindex import import_atomic_cards
    from horde.cards.catalogue import catalogue_for

    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_atomic_cards(Path(__file__).parent / "data" / "mtgjson" / "AtomicCards-decks.json")
    catalogue = catalogue_for(approximate=True)
    finks, dismember, king = (catalogue.get(n) for n in ("Kitchen Finks", "Dismember", "Reaper King"))
    assert (finks.cost.pips, finks.identity) == (("G/W", "G/W"), frozenset("GW"))
    assert dismember.cost == ManaCost(1, ("B/P", "B/P")) and dismember.hooks["Cast"][0].verb == "pump"
    assert king.cost.value == 10 and king.colours == frozenset("WUBRG")
    assert [catalogue.origins[c.name].kind for c in (finks, dismember, king)] == ["compiled", "compiled", "compiled"]


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


@pytest.mark.parametrize(("hand", "tapped"), [
    (["Llanowar Visionary"], "Plains"),  # {2}{G} in hand: the Forest stays untapped
    (["Watchwolf", "Raise the Alarm"], "Forest"),  # {G}{W} and {1}{W}: the white is wanted more
    ([], "Forest"),  # nothing wanted: the first land
])
def test_601_2h_generic_mana_comes_from_the_colour_the_hand_needs_least(make_game, bundled, hand, tapped):
    game = make_game(players=1)
    forest, plains = lands(game, bundled, "Forest", "Plains")
    game.players[0].hand = [bundled.get(name) for name in hand]
    assert rules.pay(game, 0, 1, ())  # Sol Ring's {1}
    assert {"Forest": forest, "Plains": plains}[tapped].tapped
    assert forest.tapped != plains.tapped


def sol_ring_in_black(colours_line: str) -> list[str]:
    return ["Name: Sol Ring", "Cost: {1}{B}", "Type: Artifact", colours_line, "Mana: C C"]


@pytest.mark.parametrize("colours_line", ["Colors: colorless", "Colors: G"])
def test_903_4_a_colors_line_leaves_the_cost_s_colours_in_the_identity(colours_line):
    """A card's colour (a Colors line: its colour indicator) is not its colour identity: the
    mana symbols of its cost count whatever its colour (903.4)."""
    card = build_from_lines(sol_ring_in_black(colours_line), "cards.txt")
    assert card.colours == (frozenset() if "colorless" in colours_line else frozenset("G"))
    assert card.identity == card.colours | frozenset("B")


def test_903_4_a_card_coloured_away_by_its_colors_line_is_still_outside_the_commander_s_colours(catalogue):
    ring = build_from_lines(sol_ring_in_black("Colors: colorless"), "cards.txt")
    mine = catalogue.copy()
    mine.add(ring, "cards.txt", 1, replace=True)  # the catalogue's own Sol Ring, as a card file gives it
    text = "Commander\n1 Isamaru, Hound of Konda\nDeck\n1 Sol Ring\n98 Plains\n"
    with pytest.raises(DeckError, match=r"deck.txt:4: 'Sol Ring' has colour identity B outside the "
                                        r"commander's W \(C1, 903.4\)"):
        parse_team_deck(parse_decklist(text, "deck.txt", "team"), mine)


@pytest.mark.parametrize("line, colour", [("Flashback: {1}{R}", "R"), ("Kicker: {U}", "U"), ("Equip: {B}", "B")])
def test_903_4_the_mana_symbols_of_the_rules_text_count_in_the_identity(line, colour):
    card = build_from_lines(["Name: Test Card", "Cost: {1}{W}", "Type: Instant" if "Equip" not in line
                             else "Type: Artifact — Equipment", line], "cards.txt")
    assert card.colours == frozenset("W") and card.identity == frozenset("W" + colour)
