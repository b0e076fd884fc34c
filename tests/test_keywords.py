"""Keyword abilities in combat, on small boards with bundled cards and exact values."""

from __future__ import annotations

import pytest
from conftest import Scripted, put

from horde import rules, turns
from horde.catalogue import load_catalogue
from horde.engine import new_game, prepare
from horde.presets import make_setup


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


@pytest.fixture
def game(bundled):
    g = new_game(prepare(make_setup("knudson-2011", players=1), bundled), 0, Scripted(blocks=[]))
    g.horde.library[:] = [bundled.get("Zombie")] * 20
    return g


def test_flying_needs_flying_or_reach(game, bundled):
    angel = put(game, bundled, "Serra Angel", side="team")
    zombie = put(game, bundled, "Zombie")
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert not rules.can_block(game, zombie, angel)
    assert rules.can_block(game, spider, angel)


def test_fear_needs_black_or_artifact(game, bundled):
    legion = put(game, bundled, "Severed Legion")
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert not rules.can_block(game, spider, legion)


def test_swampwalk_when_the_defender_has_a_swamp(game, bundled):
    raiders = put(game, bundled, "Bog Raiders")
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert rules.can_block(game, spider, raiders)
    put(game, bundled, "Swamp", side="team")
    assert not rules.can_block(game, spider, raiders)


def test_menace_needs_two_blockers(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Boggart Brute", side="team")
    put(game, bundled, "Zombie")  # a single untapped Horde blocker can't block it alone
    turns.team_combat(game)
    assert game.horde_milled == 3


def test_first_strike_kills_before_damage_back(game, bundled):
    knight = put(game, bundled, "Attended Knight", side="team")  # 2/2 first strike
    zombie = put(game, bundled, "Zombie")
    game.drivers.policy = Scripted(blocks=[(knight, zombie)])
    turns.horde_combat(game, set())
    assert not rules.on_battlefield(game, zombie) and knight.damage == 0 and rules.on_battlefield(game, knight)


def test_trample_assigns_lethal_then_the_rest_mills(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Spark Elemental", side="team")  # 3/1 trample, haste
    put(game, bundled, "Walking Corpse")  # 2/2 untapped: it blocks
    turns.team_combat(game)
    assert game.horde_milled == 1


def test_lifelink_gains_the_team_life(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Child of Night", side="team")  # 2/1 lifelink
    turns.team_combat(game)
    assert game.team_life == 22 and game.horde_milled == 2


def test_deathtouch_destroys_with_one_damage(game, bundled):
    titan = put(game, bundled, "Grave Titan")
    angel = put(game, bundled, "Serra Angel", side="team")
    rules.damage_permanent(game, titan, -1, angel, 1)
    rules.check_state(game)
    assert not rules.on_battlefield(game, angel)


def test_defender_and_vigilance(game, bundled):
    wall = put(game, bundled, "Mnemonic Wall", side="team")
    steward = put(game, bundled, "Steward of Valeron", side="team")
    assert not turns.can_attack(game, wall) and turns.can_attack(game, steward)
    game.drivers.policy = Scripted(attackers=lambda d: [steward])
    turns.team_combat(game)
    assert not steward.tapped


def test_flanking_shrinks_a_blocker_without_it(game, bundled):
    knight = put(game, bundled, "Skulking Knight")  # 3/3 flanking
    lions = put(game, bundled, "Sentinel Spider", side="team")  # 4/4 reach
    game.drivers.policy = Scripted(blocks=[(lions, knight)])
    turns.horde_combat(game, set())
    # The 4/4 spider became 3/3 when it blocked, so the knight's 3 damage is lethal: both die.
    assert not rules.on_battlefield(game, knight) and not rules.on_battlefield(game, lions)


def test_indestructible_survives_destroy_and_lethal_damage(game, bundled):
    avacyn = put(game, bundled, "Avacyn, Angel of Hope", side="team")
    assert not rules.destroy(game, avacyn)
    rules.damage_permanent(game, None, -1, avacyn, 20)
    rules.check_state(game)
    assert rules.on_battlefield(game, avacyn)


def test_haste_attacks_the_turn_it_enters(game, bundled):
    goblin = rules.put_onto_battlefield(game, bundled.get("Raging Goblin"), 0, 0)
    bears = rules.put_onto_battlefield(game, bundled.get("Sentinel Spider"), 0, 0)
    assert turns.can_attack(game, goblin) and not turns.can_attack(game, bears)
