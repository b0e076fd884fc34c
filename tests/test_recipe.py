"""The recipe's composition as knobs (R1, docs/decisions.md): each player's creatures and spells,
and what a deck below 25 cards per player gives up first."""

from __future__ import annotations

import random

import pytest

from horde.cards.decks import load_horde_deck, recipe
from horde.play import prepare
from horde.setup import SetupError, make_setup


def library(test_decks, **knobs):
    setup = make_setup(horde_deck="mini-recipe", team_decks=["white"] * 4, boss="none", players=2, **knobs)
    deck = load_horde_deck("mini-recipe")
    return recipe(deck, setup, random.Random(5))


def kinds(cards) -> dict[str, int]:
    counted = {"creature": 0, "spell": 0, "Zombie": 0, "strong": 0}
    for card in cards:
        kind = card.name if card.name == "Zombie" else "strong" if card.is_token else \
            "creature" if card.is_creature else "spell"
        counted[kind] += 1
    return counted


def test_R1_creatures_and_spells_per_player_are_knobs(test_decks):
    # 2 players x (3 creatures, 1 spell, 5 strong tokens) = 18 cards; base tokens fill 50 - 18 = 32.
    cards = library(test_decks, creatures_per_player=3, spells_per_player=1)
    assert kinds(cards) == {"creature": 6, "spell": 2, "Zombie": 32, "strong": 10}
    assert kinds(library(test_decks, creatures_per_player=0, spells_per_player=0)) == {
        "creature": 0, "spell": 0, "Zombie": 40, "strong": 10}


def test_R1_a_smaller_recipe_deck_loses_its_base_tokens_first_unless_cut_at_random(test_decks):
    # 10 cards per player: R1's creatures, spells and strong tokens (2 x 14 = 28 at these counts)
    # alone pass the 20 cards, so R1 as written keeps no base token: a deck of bombs.
    as_written = kinds(library(test_decks, cards_per_player=10, creatures_per_player=6, spells_per_player=3))
    assert as_written["Zombie"] == 0 and sum(as_written.values()) == 20
    # A random 20 of the whole 50-card recipe (22 base tokens of 50) keeps about R1's mix.
    cut = kinds(library(test_decks, cards_per_player=10, creatures_per_player=6, spells_per_player=3,
                        recipe_cut="random"))
    assert sum(cut.values()) == 20 and cut["Zombie"] == 5  # seeded; 8.8 expected (20 x 22 / 50)
    # At 25 cards per player and above, both readings build the same deck.
    assert library(test_decks, recipe_cut="random") == library(test_decks)


def test_the_recipe_knobs_are_refused_where_nothing_reads_them(test_decks):
    with pytest.raises(Exception, match="knob 'creatures_per_player' = 3 is not used by this setup: the Horde deck"):
        prepare(make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", creatures_per_player=3))
    with pytest.raises(Exception, match="knob 'recipe_cut' = 'random' is not used by this setup: token_percent"):
        prepare(make_setup(horde_deck="mini-recipe", team_decks=["white"] * 4, boss="none", token_percent=50,
                           recipe_cut="random"))
    with pytest.raises(SetupError, match="knob 'spells_per_player' = 'many': expected a whole number from 0 to 200, "
                                         "or 'deck'"):
        make_setup(spells_per_player="many")
