"""The effect vocabulary, one test per verb, keyword, filter term and amount, each named after
what it checks (``test_verb_NAME_...``, ``test_keyword_NAME_...``, ``test_filter_TERM_...``,
``test_amount_KIND_...``), on small boards of bundled cards with exact values.
``test_every_verb_keyword_filter_term_and_amount_is_named_by_a_test`` fails when one has no test."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, put

from horde import rules
from horde.catalogue import load_catalogue
from horde.engine import new_game, prepare
from horde.filters import Context, compile_amount, compile_condition, compile_filter, evaluate
from horde.presets import make_setup


class FixedRng:
    """A stand-in for the Horde's random stream that always picks the first option."""

    def randrange(self, start, stop=None):
        return 0 if stop is None else start

    def random(self):
        return 0.0


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


@pytest.fixture
def game(bundled):
    """Four team players (80 life), no boss, an empty battlefield, a Horde library of 20 Zombies."""
    g = new_game(prepare(make_setup("knudson-2011", players=4), bundled), 0, Scripted())
    g.horde.library[:] = [bundled.get("Zombie")] * 20
    return g


def ctx_of(p):
    return Context(p.card, p, p.controller)


# ---------------------------------------------------------------- filters


def test_filter_or_matches_either_alternative(game, bundled):
    flt = compile_filter("artifact | enchantment")
    moon = put(game, bundled, "Bad Moon")
    splitter = put(game, bundled, "Bonesplitter")
    zombie = put(game, bundled, "Zombie")
    source = Context(None, None, HORDE)
    assert [flt(game, source, p) for p in (moon, splitter, zombie)] == [True, True, False]


def test_filter_or_alternatives_keep_their_own_relations(game, bundled):
    """Death Baron: Skeletons you control and other Zombies you control (each once)."""
    baron = put(game, bundled, "Death Baron")
    zombie = put(game, bundled, "Zombie")
    theirs = put(game, bundled, "Walking Corpse", side="team")
    assert (rules.power(game, zombie), rules.power(game, baron), rules.power(game, theirs)) == (3, 2, 2)


# ---------------------------------------------------------------- amounts


def test_amount_count_counts_permanents_matching_its_filter(game, bundled):
    put(game, bundled, "Zombie")
    put(game, bundled, "Zombie")
    put(game, bundled, "Walking Corpse", side="team")
    horde = Context(None, None, HORDE)
    assert evaluate(game, horde, compile_amount("count:zombie yours")) == 2
    assert evaluate(game, horde, compile_amount("count:zombie")) == 3
    assert evaluate(game, horde, compile_amount("2*count:zombie opponents+1")) == 3


def test_amount_graveyard_counts_cards_never_token_cards(game, bundled):
    game.horde.graveyard[:] = [bundled.get("Walking Corpse"), bundled.get("Zombie"), bundled.get("Bad Moon")]
    game.players[2].graveyard[:] = [bundled.get("Grave Titan")]
    horde = Context(None, None, HORDE)
    assert evaluate(game, horde, compile_amount("graveyard:creature yours")) == 1
    assert evaluate(game, horde, compile_amount("graveyard:creature opponents")) == 1
    assert evaluate(game, horde, compile_amount("graveyard:creature")) == 2
    assert evaluate(game, horde, compile_amount("graveyard:enchantment | creature")) == 3


def test_amount_hand_counts_the_cards_in_hand(game, bundled):
    game.players[1].hand[:] = [bundled.get("Forest")] * 3
    assert evaluate(game, Context(None, None, 1), compile_amount("hand:yours")) == 3
    assert evaluate(game, Context(None, None, 1), compile_amount("hand:yours land")) == 3
    assert evaluate(game, Context(None, None, 0), compile_amount("hand:yours")) == 0


def test_amount_half_rounds_down(game, bundled):
    for _ in range(5):
        put(game, bundled, "Zombie")
    assert evaluate(game, Context(None, None, HORDE), compile_amount("half:count:zombie yours")) == 2


def test_amount_named_amounts_are_aliases_of_counts(game, bundled):
    for _ in range(3):
        put(game, bundled, "Zombie")
    alias = compile_amount("zombies_you_control")
    assert alias.text == "zombies_you_control" and alias.canonical == "count:zombie yours"
    assert evaluate(game, Context(None, None, HORDE), alias) == 3


def test_amount_x_and_kicked_come_from_the_spell(game):
    ctx = Context(None, None, 0, x=4, kicked=2)
    assert evaluate(game, ctx, compile_amount("X")) == 4 and evaluate(game, ctx, compile_amount("2*kicked")) == 4


# ---------------------------------------------------------------- conditions


def test_condition_if_and_unless_compare_an_amount(game, bundled):
    horde = Context(None, None, HORDE)
    put(game, bundled, "Zombie")
    assert compile_condition("count:creature")(game, horde)
    assert not compile_condition("count:creature", negate=True)(game, horde)
    assert compile_condition("count:zombie yours <= 1")(game, horde)
    assert not compile_condition("count:zombie yours >= 2")(game, horde)


def test_condition_unless_sacrifices_call_to_the_grave_only_with_no_creatures(game, bundled):
    grave = put(game, bundled, "Call to the Grave")
    zombie = put(game, bundled, "Zombie")
    rules.run_hook(game, grave, "EndStep")
    assert rules.on_battlefield(game, grave)
    rules.sacrifice(game, zombie)
    rules.run_hook(game, grave, "EndStep")
    assert not rules.on_battlefield(game, grave)


# ---------------------------------------------------------------- target player


def test_verb_lose_life_target_player_costs_a_four_player_team_one_life_per_death(game, bundled):
    """Blood Artist of the Horde: each death makes one target player lose 1 life, off the shared
    total once (H1), not once per team player; the Horde's target is random (H9)."""
    game.horde_rng = FixedRng()  # the first option: team player 1
    put(game, bundled, "Blood Artist")
    for _ in range(3):
        rules.destroy(game, put(game, bundled, "Zombie"))
    assert game.team_life == 80 - 3


def test_verb_lose_life_target_opponent_of_a_team_card_is_the_horde(game, bundled):
    put(game, bundled, "Blood Artist", side="team")
    zombie = put(game, bundled, "Zombie")
    rules.destroy(game, zombie)
    assert game.horde_milled == 1 and game.team_life == 80 + 1  # Blood Artist's gain: the team's


# ---------------------------------------------------------------- static verbs, at their points


def test_verb_cant_gain_life_stops_the_teams_life_gain(game, bundled):
    rules.gain_life(game, 3)
    put(game, bundled, "Forsaken Wastes")
    rules.gain_life(game, 3)
    assert game.team_life == 83 and game.life_gained == 3


def test_verb_cost_reduction_lowers_generic_mana_of_matching_spells_of_its_controller(game, bundled):
    put(game, bundled, "Goblin Warchief", side="team", player=1)
    chief = bundled.get("Goblin Chieftain")  # {1}{R}{R}, a Goblin
    assert rules.spell_cost(game, chief, 1, "hand") == (0, ("R", "R"))
    assert rules.spell_cost(game, chief, 0, "hand") == (1, ("R", "R"))  # a teammate's spell: not "you"
    assert rules.spell_cost(game, bundled.get("Shock"), 1, "hand") == (0, ("R",))


def test_verb_damage_removes_counters_prevents_damage_for_a_counter(game, bundled):
    horde = put(game, bundled, "Unbreathing Horde", plus=2)
    assert rules.damage_permanent(game, None, 0, horde, 4) == 0
    assert horde.plus == 1 and horde.damage == 0
