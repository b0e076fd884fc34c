"""Building the Horde deck (R1-R3) and the team's Commander decks (C1-C4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.decklists import parse_decklist
from horde.cards.decks import build_horde_library, load_horde_deck, parse_team_deck, recipe
from horde.engine import rules, turns
from horde.setup import make_setup


def test_R1_recipe_per_player(catalogue, test_decks):
    deck = load_horde_deck("mini-recipe", catalogue)
    # A bigger pool so the counts are not capped by it.
    deck.creatures = [catalogue.get(n) for n in ("Walking Corpse", "Grave Titan", "Maggot Carrier",
                                                 "Fleshbag Marauder", "Lord of the Undead", "Walking Corpse")]
    deck.spells = [catalogue.get(n) for n in ("Damnation", "Bad Moon", "Blaze", "Damnation")]
    setup = make_setup(players=1, team_decks=["white"] * 4, strong_mix="3:2")
    for seed in range(50):
        cards = recipe(deck, setup, random.Random(seed))
        names = Counter(c.name for c in cards)
        creatures = sum(1 for c in cards if c.is_creature and not c.is_token)
        spells = sum(1 for c in cards if not c.is_creature)
        assert 5 <= creatures <= 6 and 3 <= spells <= 4
        assert names["Zombie Giant"] == 3 and names["Zombie Army"] == 2
        assert names["Zombie"] == 25 - 5 - creatures - spells  # base tokens fill the rest
        assert len(cards) == 25


def test_R1_strong_mix_scales_to_players(catalogue, test_decks):
    deck = load_horde_deck("mini-recipe", catalogue)
    setup = make_setup(players=4, team_decks=["white"] * 4, strong_mix="1:0")
    cards = build_horde_library(deck, setup, random.Random(1))
    names = Counter(c.name for c in cards)
    assert names["Zombie Giant"] == 20 and names["Zombie Army"] == 0 and len(cards) == 100


def test_R2_zombie_army_gives_each_zombie_x_counters(make_game, catalogue):
    game = make_game(players=1)
    zombie = put(game, catalogue, "Zombie")
    first = rules.put_onto_battlefield(game, catalogue.get("Zombie Army"), HORDE, HORDE)
    assert (zombie.plus, first.plus) == (1, 1)
    second = rules.put_onto_battlefield(game, catalogue.get("Zombie Army"), HORDE, HORDE)
    # X = 2 armies: each Zombie gets two more counters, once.
    assert (zombie.plus, first.plus, second.plus) == (3, 3, 2)
    assert rules.power(game, zombie) == 5 and rules.toughness(game, second) == 2


def test_R2_per_army_option_triggers_once_per_army(make_game, catalogue):
    game = make_game(players=1, army_trigger="per_army")
    zombie = put(game, catalogue, "Zombie")
    rules.put_onto_battlefield(game, catalogue.get("Zombie Army"), HORDE, HORDE)
    rules.put_onto_battlefield(game, catalogue.get("Zombie Army"), HORDE, HORDE)
    assert zombie.plus == 1 + 2 * 2


def test_R3_banned_card_leaves_the_game_and_is_replaced(make_game, catalogue):
    """R3: the banned Serra Angel is thrown away, not discarded: it is in no zone of the game, so
    nothing that returns cards from a graveyard can find it; the Plains under it is drawn."""
    game = make_game(players=1)
    player = game.players[0]
    player.banned = frozenset({"Serra Angel"})
    player.library[:] = [catalogue.get("Plains"), catalogue.get("Serra Angel")]
    player.hand.clear()
    game.drivers.trace = []
    rules.draw(game, player)
    assert [c.name for c in player.hand] == ["Plains"]
    assert player.graveyard == [] and player.exile == [] and player.library == []
    assert [c.name for c in player.out_of_game] == ["Serra Angel"]
    assert [e["event"] for e in game.drivers.trace] == ["banned_removed"]


def test_R3_bundled_team_decks_hold_no_banned_card():
    """R3: no bundled team deck holds a card of the default banlist (go-wide and superfriends held
    Elesh Norn, Grand Cenobite, which Breath of Life and Twilight's Call brought back)."""
    from pathlib import Path

    from horde.cards.decks import inspect_deck

    folder = Path(__file__).resolve().parent.parent / "decks" / "team"
    decks = sorted(folder.glob("*.txt"))
    assert len(decks) == 5
    for path in decks:
        check = inspect_deck(str(path), banlist="default", kind="team")
        assert check.warnings == [] and check.problems == [], (path.name, check.warnings, check.problems)


def test_R3_default_banlist_is_the_sources(test_decks):
    from horde.cards.decks import load_banlist

    banned = load_banlist("default")
    assert len(banned) == 42 and "teferi's moat" in banned and "platinum angel" in banned  # names in lower case
    assert load_banlist("none") == frozenset()


WHITE = """Commander
1 Isamaru, Hound of Konda
Deck
1 Serra Angel
1 Savannah Lions
1 Raise the Alarm
1 Wrath of God
1 Swords to Plowshares
1 Glorious Anthem
1 Holy Day
1 Sol Ring
1 Arcane Signet
1 Command Tower
89 Plains
"""


def test_C1_legal_deck_passes(catalogue):
    problems = []
    deck = parse_team_deck(parse_decklist(WHITE, "white.txt"), catalogue, problems)
    assert problems == [] and len(deck.cards) == 99 and deck.commander.name == "Isamaru, Hound of Konda"


@pytest.mark.parametrize("change, message", [
    (("89 Plains", "88 Plains"), "deck has 99 cards with its commander: expected exactly 100 (C1, 903.5a)"),
    (("1 Serra Angel", "2 Serra Angel"), "'Serra Angel' appears more than once"),
    (("1 Holy Day", "1 Lightning Bolt"), "'Lightning Bolt' has colour identity R outside the commander's W"),
    (("1 Isamaru, Hound of Konda", "1 Serra Angel"), "is not a legendary creature (903.3)"),
])
def test_C1_illegal_decks_are_reported_with_the_rule(catalogue, change, message):
    text = WHITE.replace(*change)
    problems = []
    parse_team_deck(parse_decklist(text, "white.txt"), catalogue, problems)
    assert any(message in p.one_line() for p in problems), [p.one_line() for p in problems]
    assert all(p.one_line().startswith("white.txt") for p in problems)
    allowed = []
    parse_team_deck(parse_decklist(text, "white.txt"), catalogue, allowed, allow_illegal=True)
    assert allowed == []


def test_C1_missing_commander(catalogue):
    problems = []
    parse_team_deck(parse_decklist(WHITE.replace("Commander\n1 Isamaru, Hound of Konda\n", ""), "w.txt"),
                    catalogue, problems)
    assert any("expected exactly one card in a 'Commander' section, found 0" in p.one_line() for p in problems)


def test_C2_commander_tax_and_return_to_command_zone(make_game, catalogue):
    game = make_game(players=1)
    player = game.players[0]
    for _ in range(3):
        put(game, catalogue, "Plains", side="team")
    assert rules.spell_cost(game, player.commander, 0, "command") == (0, ("W",))
    rules.team_cast(game, 0, player.commander, "command")
    isamaru = next(p for p in game.battlefield.team if p.card is player.commander)
    rules.destroy(game, isamaru)
    assert player.command == [player.commander] and player.graveyard == []
    assert rules.spell_cost(game, player.commander, 0, "command") == (2, ("W",))
    rules.team_cast(game, 0, player.commander, "command")
    assert rules.spell_cost(game, player.commander, 0, "command") == (4, ("W",))


def test_C2_commander_casts_knob_limits_casts(make_game, catalogue):
    game = make_game(players=1, commander_casts=1)
    player = game.players[0]
    put(game, catalogue, "Plains", side="team")
    rules.team_cast(game, 0, player.commander, "command")
    isamaru = next(p for p in game.battlefield.team if p.card is player.commander)
    rules.destroy(game, isamaru)
    assert rules.spell_cost(game, player.commander, 0, "command") is None


def test_C3_london_mulligan_first_is_free(make_game, catalogue):
    answers = iter(["mulligan", "mulligan", "keep"])
    game = make_game(players=1, policy=Scripted(mulligan=lambda d: next(answers)))
    turns.opening_hands(game)
    assert len(game.players[0].hand) == 6  # two mulligans, the first free
    assert len(game.players[0].library) == 99 - 6


def test_C3_partial_paris_option(make_game, catalogue):
    calls = []

    def exile(decision):
        calls.append(len(decision.options))
        return list(decision.options)[:3] if len(calls) == 1 else []

    game = make_game(players=1, mulligan="partial_paris", policy=Scripted(paris_exile=exile))
    turns.opening_hands(game)
    assert len(game.players[0].hand) == 4 + 2  # exiled three, drew two
    assert len(game.players[0].library) + len(game.players[0].hand) == 99


def test_C4_generic_mana_option(make_game, catalogue):
    game = make_game(players=1)
    put(game, catalogue, "Wastes", side="team")
    angel = catalogue.get("Savannah Lions")
    assert not rules.can_pay(game, 0, *rules.spell_cost(game, angel, 0, "hand"))
    game.players[0].generic_mana = True
    assert rules.can_pay(game, 0, *rules.spell_cost(game, angel, 0, "hand"))


def test_C4_coloured_payment_uses_the_least_flexible_source(make_game, catalogue):
    game = make_game(players=1)
    tower = put(game, catalogue, "Command Tower", side="team")
    plains = put(game, catalogue, "Plains", side="team")
    wastes = put(game, catalogue, "Wastes", side="team")
    assert rules.pay(game, 0, 1, ("W",))
    # the Tower makes only its commander's colours (903.4): here no more than a Wastes can, so
    # either pays the generic mana; the Plains pays the {W}, and one source stays untapped
    assert plains.tapped and wastes.tapped + tower.tapped == 1
    wastes.tapped = tower.tapped = True
    sol = put(game, catalogue, "Sol Ring", side="team")
    assert rules.pay(game, 0, 1, ())
    assert sol.tapped and game.players[0].pool == [frozenset({"C"})]  # the second mana floats


def test_C4_a_players_mana_comes_from_the_sources_it_controls_now(make_game, catalogue):
    game = make_game(players=2)
    plains = put(game, catalogue, "Plains", side="team", player=0)
    wastes = put(game, catalogue, "Wastes", side="team", player=1)
    sol = put(game, catalogue, "Sol Ring", side="team", player=0)
    assert [rules.available_mana(game, i) for i in (0, 1)] == [3, 1]
    game.battlefield.change_control(plains, 1)  # it keeps its place on the battlefield, before Wastes
    assert [u[2] for u in rules.mana_units(game, 1)] == [plains, wastes]
    assert [rules.available_mana(game, i) for i in (0, 1)] == [2, 2]
    game.battlefield.change_control(sol, HORDE)
    assert rules.available_mana(game, 0) == 0
    game.battlefield.change_control(sol, 0)
    rules.destroy(game, wastes)
    assert [rules.available_mana(game, i) for i in (0, 1)] == [2, 1]


def test_R1_token_percent_knob_sets_the_share_of_tokens(catalogue, test_decks):
    deck = load_horde_deck("mini-recipe", catalogue)
    setup = make_setup(players=2, team_decks=["white"] * 4, token_percent=40, strong_mix="1:1")
    cards = recipe(deck, setup, random.Random(3))
    names = Counter(c.name for c in cards)
    assert len(cards) == 50
    assert sum(1 for c in cards if c.is_token) == 20  # 40% of 50
    assert names["Zombie Giant"] + names["Zombie Army"] == round(20 * 5 / 15)  # R1's 5 strong per 15 tokens
    assert sum(1 for c in cards if c.is_creature and not c.is_token) == round(30 * 11 / 18)
