"""Keyword abilities in combat, on small boards with bundled cards and exact values."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.catalogue import load_catalogue
from horde.engine import rules, turns
from horde.engine.filters import Context
from horde.play import new_game, prepare
from horde.setup import make_setup


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


@pytest.fixture
def game(bundled):
    g = new_game(prepare(make_setup("knudson-2011", players=1), bundled), 0, Scripted(blocks=[]))
    g.horde.library[:] = [bundled.get("Zombie")] * 20
    return g


def test_keyword_flying_needs_flying_or_reach_to_block(game, bundled):
    angel = put(game, bundled, "Serra Angel", side="team")
    zombie = put(game, bundled, "Zombie")
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert not rules.can_block(game, zombie, angel)
    assert rules.can_block(game, spider, angel)


def test_keyword_fear_needs_black_or_artifact(game, bundled):
    legion = put(game, bundled, "Severed Legion")
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert not rules.can_block(game, spider, legion)


def test_keyword_swampwalk_when_the_defender_has_a_swamp(game, bundled):
    raiders = put(game, bundled, "Bog Raiders")
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert rules.can_block(game, spider, raiders)
    put(game, bundled, "Swamp", side="team")
    assert not rules.can_block(game, spider, raiders)


def test_keyword_menace_needs_two_blockers(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Boggart Brute", side="team")
    put(game, bundled, "Zombie")  # a single untapped Horde blocker can't block it alone
    turns.team_combat(game)
    assert game.horde_milled == 3


def test_keyword_first_strike_kills_before_damage_back(game, bundled):
    knight = put(game, bundled, "Attended Knight", side="team")  # 2/2 first strike
    zombie = put(game, bundled, "Zombie")
    game.drivers.policy = Scripted(blocks=[(knight, zombie)])
    turns.horde_combat(game, set())
    assert not rules.on_battlefield(game, zombie) and knight.damage == 0 and rules.on_battlefield(game, knight)


def test_keyword_trample_assigns_lethal_then_the_rest_mills(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Spark Elemental", side="team")  # 3/1 trample, haste
    put(game, bundled, "Walking Corpse")  # 2/2 untapped: it blocks
    turns.team_combat(game)
    assert game.horde_milled == 1


def test_keyword_lifelink_gains_the_team_life(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Child of Night", side="team")  # 2/1 lifelink
    turns.team_combat(game)
    assert game.team_life == 22 and game.horde_milled == 2


def test_keyword_deathtouch_destroys_with_one_damage(game, bundled):
    titan = put(game, bundled, "Grave Titan")
    angel = put(game, bundled, "Serra Angel", side="team")
    rules.damage_permanent(game, titan, -1, angel, 1)
    rules.check_state(game)
    assert not rules.on_battlefield(game, angel)


def test_keyword_defender_cant_attack(game, bundled):
    wall = put(game, bundled, "Mnemonic Wall", side="team")
    steward = put(game, bundled, "Steward of Valeron", side="team")
    assert not turns.can_attack(game, wall) and turns.can_attack(game, steward)


def test_keyword_vigilance_attacks_without_tapping(game, bundled):
    steward = put(game, bundled, "Steward of Valeron", side="team")
    game.drivers.policy = Scripted(attackers=lambda d: [steward])
    turns.team_combat(game)
    assert not steward.tapped


def test_keyword_flanking_shrinks_a_blocker_without_it(game, bundled):
    knight = put(game, bundled, "Skulking Knight")  # 3/3 flanking
    lions = put(game, bundled, "Sentinel Spider", side="team")  # 4/4 reach
    game.drivers.policy = Scripted(blocks=[(lions, knight)])
    turns.horde_combat(game, set())
    # The 4/4 spider became 3/3 when it blocked, so the knight's 3 damage is lethal: both die.
    assert not rules.on_battlefield(game, knight) and not rules.on_battlefield(game, lions)


def test_keyword_indestructible_survives_destroy_and_lethal_damage(game, bundled):
    avacyn = put(game, bundled, "Avacyn, Angel of Hope", side="team")
    assert not rules.destroy(game, avacyn)
    rules.damage_permanent(game, None, -1, avacyn, 20)
    rules.check_state(game)
    assert rules.on_battlefield(game, avacyn)


def test_keyword_haste_attacks_the_turn_it_enters(game, bundled):
    goblin = rules.put_onto_battlefield(game, bundled.get("Raging Goblin"), 0, 0)
    bears = rules.put_onto_battlefield(game, bundled.get("Sentinel Spider"), 0, 0)
    assert turns.can_attack(game, goblin) and not turns.can_attack(game, bears)


def test_keyword_reach_blocks_flying(game, bundled):
    angel = put(game, bundled, "Serra Angel", side="team")
    assert rules.can_block(game, put(game, bundled, "Sentinel Spider"), angel)


def test_keyword_double_strike_deals_damage_in_both_steps(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, bundled, "Mirran Crusader", side="team")  # 2/2 double strike
    turns.team_combat(game)
    assert game.horde_milled == 4


def test_keyword_enters_tapped(game, bundled):
    ghoul = rules.put_onto_battlefield(game, bundled.get("Diregraf Ghoul"), HORDE, HORDE)
    assert ghoul.tapped


def test_keyword_cant_attack_and_cant_block(game, bundled):
    corpse = put(game, bundled, "Walking Corpse", side="team")
    corpse.temp_keywords = frozenset({"can't attack"})
    assert not turns.can_attack(game, corpse)
    interloper = put(game, bundled, "Vampire Interloper", side="team")  # can't block
    assert not rules.can_block(game, interloper, put(game, bundled, "Zombie"))


def test_keyword_cant_block_a_horde_creature_that_cant_block(game, bundled):
    shambler = put(game, bundled, "Walking Corpse")
    shambler.temp_keywords = frozenset({"can't block"})
    assert not rules.can_block(game, shambler, put(game, bundled, "Llanowar Elves", side="team"))


def test_keyword_islandwalk_and_forestwalk_when_the_defender_has_the_land(game, bundled):
    boa = put(game, bundled, "River Boa")  # islandwalk
    walker = put(game, bundled, "Walking Corpse")
    walker.temp_keywords = frozenset({"forestwalk"})
    spider = put(game, bundled, "Sentinel Spider", side="team")
    assert rules.can_block(game, spider, boa) and rules.can_block(game, spider, walker)
    put(game, bundled, "Island", side="team")
    put(game, bundled, "Forest", side="team")
    assert not rules.can_block(game, spider, boa) and not rules.can_block(game, spider, walker)


def test_keyword_islandwalk_alone(game, bundled):
    leviathan = put(game, bundled, "Inkwell Leviathan", side="team")
    blocker = put(game, bundled, "Zombie")
    assert rules.can_block(game, blocker, leviathan)
    put(game, bundled, "Island")  # the Horde controls an Island
    assert not rules.can_block(game, blocker, leviathan)


def test_keyword_forestwalk_alone(game, bundled):
    walker = put(game, bundled, "Walking Corpse")
    walker.temp_keywords = frozenset({"forestwalk"})
    elf = put(game, bundled, "Llanowar Elves", side="team")
    assert rules.can_block(game, elf, walker)
    put(game, bundled, "Forest", side="team")
    assert not rules.can_block(game, elf, walker)


def test_keyword_shroud_cant_be_targeted_even_by_its_controller(game, bundled):
    leviathan = put(game, bundled, "Inkwell Leviathan", side="team")
    murder = bundled.get("Murder")
    assert leviathan not in rules.legal_targets(game, Context(murder, None, 0), murder.hooks["Cast"][0])


def test_keyword_hexproof_cant_be_targeted_by_the_other_side(game, bundled):
    corpse = put(game, bundled, "Walking Corpse", side="team")
    corpse.temp_keywords = frozenset({"hexproof"})
    murder = bundled.get("Murder")
    assert corpse not in rules.legal_targets(game, Context(murder, None, HORDE), murder.hooks["Cast"][0])
    assert corpse in rules.legal_targets(game, Context(murder, None, 0), murder.hooks["Cast"][0])


def test_keyword_intimidate_blocked_only_by_artifacts_or_a_shared_colour(game, bundled):
    mikaeus = put(game, bundled, "Mikaeus, the Unhallowed")
    assert not rules.can_block(game, put(game, bundled, "Llanowar Elves", side="team"), mikaeus)
    assert rules.can_block(game, put(game, bundled, "Typhoid Rats", side="team"), mikaeus)


def test_keyword_unblockable(game, bundled):
    kraken = put(game, bundled, "Tidal Kraken", side="team")
    assert not rules.can_block(game, put(game, bundled, "Zombie"), kraken)


def test_keyword_assigns_no_combat_damage(game, bundled):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    corpse = put(game, bundled, "Walking Corpse", side="team")
    corpse.temp_keywords = frozenset({"assigns no combat damage"})
    turns.team_combat(game)
    assert game.horde_milled == 0
