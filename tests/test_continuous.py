"""Continuous effects apply everywhere (CR 613): a keyword or +N/+N another permanent gives (an
anthem, equipment, an Aura) counts for every check that reads the printed one: whether a creature
may attack or tap, blocks, targets, damage, and the team's view. Tiny boards, exact outcomes."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.catalogue import build_from_lines, load_catalogue
from horde.engine import rules, turns
from horde.engine.filters import Context
from horde.play import new_game, prepare
from horde.setup import make_setup
from horde.team.view import TeamView

# Hand-written anthems that give each keyword the checks read (each as a card file writes it).
GIVERS = {
    "Horde Wings": ("Creatures you control have flying.", 'anthem filter="creature yours" keywords=flying'),
    "Horde Reach": ("Creatures you control have reach.", 'anthem filter="creature yours" keywords=reach'),
    "Cowed Foes": ("Creatures your opponents control can't block.",
                   'anthem filter="creature opponents" keywords="can\'t block"'),
    "Pacified Foes": ("Creatures your opponents control can't attack.",
                      'anthem filter="creature opponents" keywords="can\'t attack"'),
    "Dread Banner": ("Creatures you control have menace.", 'anthem filter="creature yours" keywords=menace'),
    "Veil of Mist": ("Creatures you control can't be blocked.", 'anthem filter="creature yours" keywords=unblockable'),
    "Shroud Banner": ("Creatures you control have hexproof.", 'anthem filter="creature yours" keywords=hexproof'),
    "Black Ward": ("Creatures you control have protection from black.",
                   'anthem filter="creature yours" keywords="protection from black"'),
    "Venom Banner": ("Creatures you control have deathtouch.", 'anthem filter="creature yours" keywords=deathtouch'),
    "Life Banner": ("Creatures you control have lifelink.", 'anthem filter="creature yours" keywords=lifelink'),
    "Quick Banner": ("Creatures you control have first strike.",
                     'anthem filter="creature yours" keywords="first strike"'),
    "Glorious Banner": ("Creatures you control get +2/+2.", 'anthem filter="creature yours" power=2 toughness=2'),
}


@pytest.fixture(scope="module")
def cards():
    catalogue = load_catalogue().copy()
    for name, (text, line) in GIVERS.items():
        catalogue.add(build_from_lines([f"Name: {name}", "Cost: {2}", "Type: Enchantment", f"Text: {text}",
                                        f"Static: {line}"], f"test:{name}"), "test", 0)
    return catalogue


@pytest.fixture
def game(cards):
    g = new_game(prepare(make_setup("knudson-2011", players=1), cards), 0, Scripted(blocks=[]))
    g.horde.library[:] = [cards.get("Zombie")] * 20
    return g


def arrive(game, cards, name, side="team"):
    """A card entering as a spell would put it: summoning sick (the Horde's creatures have haste: H8)."""
    controller = HORDE if side == "horde" else 0
    return rules.put_onto_battlefield(game, cards.get(name), controller, controller, triggers=False)


# ---------------------------------------------------------------- attacking and tapping: haste


def test_302_6_a_creature_given_haste_by_fervor_attacks_the_turn_it_arrives(game, cards):
    bears = arrive(game, cards, "Grizzly Bears")
    assert bears.sick and not turns.can_attack(game, bears)  # summoning sick, no haste
    put(game, cards, "Fervor", side="team")  # "Creatures you control have haste."
    assert rules.has_keyword(game, bears, "haste") and turns.can_attack(game, bears)
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    turns.team_combat(game)
    assert game.horde_milled == 2  # the 2/2 attacked the Horde, unblocked


def test_302_6_haste_given_by_fervor_lets_a_mana_creature_tap_at_once(game, cards):
    elves = arrive(game, cards, "Llanowar Elves")
    assert rules.available_mana(game, 0) == 0
    put(game, cards, "Fervor", side="team")
    assert rules.available_mana(game, 0) == 1
    assert TeamView(game).mana(0) == 1  # the team's view counts it too
    assert rules.summoning_sick(game, elves) is False


def test_302_6_granted_haste_lets_a_creature_activate_a_mana_ability_with_a_cost(game, cards):
    """A {T} mana ability with other costs (602.5b) is asked the same way as the free one."""
    cleric = build_from_lines(["Name: Test Cleric", "Cost: {1}{B}", "Type: Creature — Human Cleric", "PT: 1/1",
                               "Mana: {1}, {T} -> B B"], "test")
    put(game, cards, "Swamp", side="team")
    rules.put_onto_battlefield(game, cleric, 0, 0, triggers=False)
    assert rules.mana_options(game, 0) == [] and not rules.can_pay(game, 0, 0, ("B", "B"))
    put(game, cards, "Fervor", side="team")
    assert [(p.card.name, ability.describe()) for p, ability, _ in rules.mana_options(game, 0)] == [
        ("Test Cleric", "{1}, {T} -> B B")]
    assert rules.pay(game, 0, 0, ("B", "B"))


def test_302_6_haste_from_equipment_counts(game, cards):
    bears = arrive(game, cards, "Grizzly Bears")
    harness = put(game, cards, "Strider Harness", side="team")  # equipped creature gets +1/+1 and has haste
    game.battlefield.attach(harness, bears)
    assert turns.can_attack(game, bears) and rules.power(game, bears) == 3
    assert TeamView(game).can_attack(bears)


def test_302_6_a_creature_loses_granted_haste_when_the_anthem_leaves(game, cards):
    bears = arrive(game, cards, "Grizzly Bears")
    fervor = put(game, cards, "Fervor", side="team")
    assert turns.can_attack(game, bears)
    rules.leave_battlefield(game, fervor, "graveyard")
    assert not turns.can_attack(game, bears)


def test_302_6_printed_haste_still_attacks_at_once(game, cards):
    spark = arrive(game, cards, "Spark Elemental")  # haste printed
    assert turns.can_attack(game, spark)


def test_granted_cant_attack_keeps_horde_creatures_home(game, cards):
    put(game, cards, "Walking Corpse")
    put(game, cards, "Pacified Foes", side="team")
    life = game.team_life
    turns.horde_combat(game, set())
    assert game.team_life == life


# ---------------------------------------------------------------- blocking


def test_granted_flying_is_blocked_only_by_flying_or_reach(game, cards):
    bears = put(game, cards, "Grizzly Bears", side="team")
    corpse = put(game, cards, "Walking Corpse")
    assert rules.can_block(game, corpse, bears)
    put(game, cards, "Horde Wings", side="team")
    assert not rules.can_block(game, corpse, bears)
    put(game, cards, "Horde Reach", side="horde")  # the Horde's creatures get reach
    assert rules.can_block(game, corpse, bears)


def test_granted_cant_block_and_unblockable(game, cards):
    bears = put(game, cards, "Grizzly Bears", side="team")
    corpse = put(game, cards, "Walking Corpse")
    put(game, cards, "Cowed Foes", side="team")  # the Horde's creatures can't block
    assert not rules.can_block(game, corpse, bears)
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    turns.team_combat(game)
    assert game.horde_milled == 2 and corpse.damage == 0


def test_granted_unblockable(game, cards):
    bears = put(game, cards, "Grizzly Bears", side="team")
    corpse = put(game, cards, "Walking Corpse")
    put(game, cards, "Veil of Mist", side="team")
    assert not rules.can_block(game, corpse, bears)
    assert not TeamView(game).can_block(corpse, bears)


def test_granted_menace_needs_two_blockers(game, cards):
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    put(game, cards, "Grizzly Bears", side="team")
    put(game, cards, "Zombie")  # one untapped Horde blocker can't block a creature with menace alone
    put(game, cards, "Dread Banner", side="team")
    turns.team_combat(game)
    assert game.horde_milled == 2


# ---------------------------------------------------------------- targets


def _bolt(cards):
    return build_from_lines(["Name: Test Bolt", "Cost: {R}", "Type: Instant", "Text: Test Bolt deals 3 damage to "
                             "target creature.", "Cast: damage amount=3 target=creature"], "test:bolt")


def test_granted_hexproof_and_protection_stop_targets(game, cards):
    bolt = _bolt(cards)
    effect = bolt.hooks["Cast"][0]
    bears = put(game, cards, "Grizzly Bears", side="team")
    horde_ctx = Context(bolt, None, HORDE)
    assert rules.legal_targets(game, horde_ctx, effect) == [bears]
    banner = put(game, cards, "Shroud Banner", side="team")  # hexproof: the other side can't target it
    assert rules.legal_targets(game, horde_ctx, effect) == []
    assert rules.legal_targets(game, Context(bolt, None, 0), effect) == [bears]  # its own side still can
    rules.leave_battlefield(game, banner, "graveyard")
    black = build_from_lines(["Name: Black Bolt", "Cost: {B}", "Type: Instant", "Cast: damage amount=3 "
                              "target=creature"], "test:black")
    assert rules.legal_targets(game, Context(black, None, HORDE), black.hooks["Cast"][0]) == [bears]
    put(game, cards, "Black Ward", side="team")
    assert rules.legal_targets(game, Context(black, None, HORDE), black.hooks["Cast"][0]) == []
    assert rules.legal_targets(game, horde_ctx, effect) == [bears]  # a red source still can


# ---------------------------------------------------------------- damage


def test_granted_protection_prevents_damage(game, cards):
    bears = put(game, cards, "Grizzly Bears", side="team")
    corpse = put(game, cards, "Walking Corpse")  # black
    put(game, cards, "Black Ward", side="team")
    assert rules.damage_permanent(game, corpse, HORDE, bears, 2) == 0 and bears.damage == 0


def test_granted_deathtouch_and_lifelink_deal_damage_as_printed(game, cards):
    bears = put(game, cards, "Grizzly Bears", side="team")
    put(game, cards, "Venom Banner", side="team")
    put(game, cards, "Life Banner", side="team")
    giant = put(game, cards, "Zombie Giant")  # 5/5
    life = game.team_life
    rules.damage_permanent(game, bears, 0, giant, 1)
    rules.check_state(game)
    assert not rules.on_battlefield(game, giant) and game.team_life == life + 1


def test_granted_first_strike_kills_before_damage_back(game, cards):
    bears = put(game, cards, "Grizzly Bears", side="team")  # 2/2
    put(game, cards, "Quick Banner", side="team")
    zombie = put(game, cards, "Zombie")  # 2/2
    game.drivers.policy = Scripted(blocks=[(bears, zombie)])
    turns.horde_combat(game, set())
    assert not rules.on_battlefield(game, zombie) and bears.damage == 0


def test_granted_power_deals_its_damage(game, cards):
    put(game, cards, "Grizzly Bears", side="team")
    put(game, cards, "Glorious Banner", side="team")
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    turns.team_combat(game)
    assert game.horde_milled == 4


# ---------------------------------------------------------------- the team's view


def test_the_team_view_reads_granted_keywords(game, cards):
    bears = arrive(game, cards, "Grizzly Bears")
    view = TeamView(game)
    assert not view.can_attack(bears) and not view.has(bears, "haste")
    put(game, cards, "Fervor", side="team")
    put(game, cards, "Venom Banner", side="team")
    assert view.can_attack(bears) and view.has(bears, "haste") and view.has(bears, "deathtouch")
