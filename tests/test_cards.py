"""Bundled cards behave as printed: small boards with exact values for the trickier 2011 cards
and the lieutenants, using the bundled catalogue."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.catalogue import load_catalogue
from horde.cards.decks import load_horde_deck
from horde.engine import boss, rules, turns
from horde.engine.state import Lieutenant
from horde.play import new_game, prepare
from horde.setup import make_setup


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


@pytest.fixture
def game(bundled):
    setup = make_setup("knudson-2011", players=2)
    g = new_game(prepare(setup, bundled), 0, Scripted())
    g.horde.library[:] = [bundled.get("Zombie")] * 5
    return g


def test_every_card_of_the_2011_deck_is_modelled(bundled):
    deck = load_horde_deck("knudson-2011", bundled)
    names = {c.name for c in deck.cards if not c.is_token}
    assert len(deck.cards) == 100 and len(names) == 18 + 4 + 5  # names of creatures, enchantments, sorceries
    assert sum(1 for c in deck.cards if c.is_creature and not c.is_token) == 29
    assert sum(1 for c in deck.cards if "Enchantment" in c.types) == 5
    assert sum(1 for c in deck.cards if "Sorcery" in c.types) == 6


def test_carrion_wurm_assigns_no_combat_damage_when_a_player_exiles_three(game, bundled):
    game.drivers.policy = Scripted(blocks=[])
    game.players[0].graveyard[:] = [bundled.get("Forest")] * 3
    put(game, bundled, "Carrion Wurm")
    turns.horde_combat(game, set())
    assert game.team_life == 40 and len(game.players[0].exile) == 3 and not game.players[0].graveyard


def test_carrion_wurm_deals_damage_when_nobody_can_exile(game, bundled):
    game.drivers.policy = Scripted(blocks=[])
    put(game, bundled, "Carrion Wurm")
    turns.horde_combat(game, set())
    assert game.team_life == 34


def test_soulless_one_counts_zombies_and_zombie_cards(game, bundled):
    soulless = put(game, bundled, "Soulless One")
    put(game, bundled, "Zombie")
    game.players[1].graveyard.append(bundled.get("Walking Corpse"))
    game.horde.graveyard.append(bundled.get("Zombie"))  # a token card: not a card (docs/decisions.md)
    assert rules.power(game, soulless) == 3 and rules.toughness(game, soulless) == 3


def test_death_baron_and_bad_moon(game, bundled):
    put(game, bundled, "Death Baron")
    put(game, bundled, "Bad Moon")
    zombie = put(game, bundled, "Zombie")
    assert (rules.power(game, zombie), rules.toughness(game, zombie)) == (4, 4)
    assert rules.has_keyword(game, zombie, "deathtouch")


def test_unbreathing_horde_enters_with_counters_and_damage_removes_one(game, bundled):
    put(game, bundled, "Zombie")
    put(game, bundled, "Zombie")
    game.horde.graveyard.append(bundled.get("Walking Corpse"))
    horde = rules.put_onto_battlefield(game, bundled.get("Unbreathing Horde"), HORDE, HORDE)
    assert horde.plus == 3
    rules.damage_permanent(game, None, 0, horde, 5)
    assert horde.plus == 2 and horde.damage == 0


def test_skulking_knight_is_sacrificed_when_targeted(game, bundled):
    knight = put(game, bundled, "Skulking Knight")
    game.drivers.policy = Scripted(target=lambda d: knight)
    put(game, bundled, "Mountain", side="team")
    game.players[0].hand[:] = [bundled.get("Lightning Bolt")]
    rules.team_cast(game, 0, bundled.get("Lightning Bolt"), "hand")
    assert not rules.on_battlefield(game, knight) and knight.damage == 0


def test_vengeful_dead_drains_when_a_zombie_dies(game, bundled):
    put(game, bundled, "Vengeful Dead")
    zombie = put(game, bundled, "Zombie")
    rules.destroy(game, zombie)
    assert game.team_life == 40 - 2  # each of the two team players loses 1 from the shared total


def test_mikaeus_gives_undying_and_destroys_humans(game, bundled):
    put(game, bundled, "Mikaeus, the Unhallowed")
    corpse = put(game, bundled, "Walking Corpse")
    assert rules.power(game, corpse) == 3
    rules.destroy(game, corpse)
    back = [p for p in game.battlefield.horde if p.card.name == "Walking Corpse"]
    assert len(back) == 1 and back[0].plus == 1  # undying
    rules.destroy(game, back[0])
    assert not [p for p in game.battlefield.horde if p.card.name == "Walking Corpse"]  # had a counter
    human = put(game, bundled, "Vulshok Berserker", side="team")
    assert "Human" in human.card.subtypes
    rules.damage_horde(game, 1, human)
    assert not rules.on_battlefield(game, human)


def test_intimidate_blocks_only_by_artifacts_or_shared_colours(game, bundled):
    mikaeus = put(game, bundled, "Mikaeus, the Unhallowed")
    forest_bear = put(game, bundled, "Llanowar Elves", side="team")
    assert not rules.can_block(game, forest_bear, mikaeus)


def test_balthor_lieutenant_exiles_itself_to_return_black_and_red_creatures(bundled):
    setup = make_setup("zombie-horde", players=3)
    game = new_game(prepare(setup, bundled), 0, Scripted())
    game.horde.library.clear()
    game.lieutenants.drawn[:] = [Lieutenant(bundled.get("Balthor the Defiled"))]
    game.lieutenants.equipment.clear()
    boss.lieutenant_enters(game, game.lieutenants.drawn[0])
    game.horde.graveyard.append(bundled.get("Walking Corpse"))
    game.players[0].graveyard.append(bundled.get("Llanowar Elves"))
    acted = boss.lieutenants_act(game)
    assert len(acted) == 1
    assert [p.card.name for p in game.battlefield.horde] == ["Walking Corpse"]
    assert game.lieutenants.exiled == game.lieutenants.drawn  # L6: exiled with time counters
    assert game.players[0].graveyard == [bundled.get("Llanowar Elves")]  # green: stays


def test_team_activates_abilities_in_its_second_main_phase(game, bundled):
    """Tolsimir's {T}: create Voja, used by the baseline when it only adds to the team."""
    tolsimir = put(game, bundled, "Tolsimir Wolfblood", side="team")
    game.drivers.policy = Scripted()
    turns.activate_step(game, 0)
    assert tolsimir.tapped
    assert [p.card.name for p in game.battlefield.team if p.card.is_token] == ["Voja"]


def test_602_1_a_sacrifice_this_cost_sacrifices_the_permanent_itself(game, bundled):
    """Sakura-Tribe Elder: 'Sacrifice ~: Search your library for a basic land card, put that card
    onto the battlefield tapped, then shuffle.'"""
    from horde.cards.catalogue import build_from_lines

    elder = build_from_lines(["Name: Sakura-Tribe Elder", "Cost: {1}{G}", "Type: Creature — Snake Shaman", "PT: 1/1",
                              "Activated: sacrifice this -> ramp count=1 tapped=true to_hand=0"], "test")
    p = rules.put_onto_battlefield(game, elder, 0, 0, triggers=False)
    game.players[0].library[:] = [bundled.get("Forest")]
    game.drivers.policy = Scripted(activate=lambda d: d.options[0])
    turns.activate_step(game, 0)
    assert not rules.on_battlefield(game, p) and game.players[0].graveyard == [elder]
    assert [(q.card.name, q.tapped) for q in game.battlefield.team] == [("Forest", True)]


def test_119_4_costs_of_discarding_a_card_and_paying_life(game, bundled):
    """'{1}, Discard a card: Draw a card' and '{T}, Pay 2 life: Draw a card': paid by the team
    player (the shared life, H1) and only while it can (a card in hand; 119.4: enough life)."""
    from horde.cards.catalogue import build_from_lines

    def card(costs):
        return build_from_lines(["Name: Test", "Cost: {1}", "Type: Creature — Human", "PT: 1/1",
                                 f"Activated: {costs} -> draw who=you count=1"], "test")

    player = game.players[0]
    player.library[:] = [bundled.get("Forest")] * 3
    put(game, bundled, "Island", side="team")
    looter = rules.put_onto_battlefield(game, card("{1}, discard a card"), 0, 0, triggers=False)
    game.drivers.policy = Scripted(activate=lambda d: d.options[0])
    turns.activate_step(game, 0)
    assert player.hand == [] and player.graveyard == []  # nothing to discard: not activated
    player.hand[:] = [bundled.get("Island")]
    turns.activate_step(game, 0)
    assert [c.name for c in player.hand] == ["Forest"] and [c.name for c in player.graveyard] == ["Island"]
    rules.sacrifice(game, looter)
    rules.put_onto_battlefield(game, card("{T}, pay 2 life"), 0, 0, triggers=False).sick = False
    life = game.team_life
    turns.activate_step(game, 0)
    assert game.team_life == life - 2 and len(player.hand) == 2
    game.team_life = 1
    assert not turns._can_pay_activation(game, game.battlefield.team[-1], game.battlefield.team[-1].card.abilities(
        "Activated")[0])


def test_L8_a_lieutenant_never_pays_a_discard_or_life_cost(game, bundled):
    from horde.cards.catalogue import build_from_lines

    card = build_from_lines(["Name: Test", "Cost: {1}", "Type: Creature — Human", "PT: 1/1",
                             "Activated: pay 2 life -> draw who=you count=1"], "test")
    p = rules.put_onto_battlefield(game, card, HORDE, HORDE, triggers=False)
    assert not boss.can_activate(game, p, card.abilities("Activated")[0])


def test_modal_spell_offers_the_modes_it_can_carry_out(game, bundled):
    """Abrade: 3 damage to target creature, or destroy target artifact; the team's policy picks."""
    seen = []
    game.drivers.policy = Scripted(mode=lambda d: seen.append(len(d.options)) or d.options[0])
    abrade = bundled.get("Abrade")
    put(game, bundled, "Mountain", side="team")
    put(game, bundled, "Mountain", side="team")
    collar = put(game, bundled, "Bonesplitter")  # a Horde artifact, no Horde creature
    game.players[0].hand[:] = [abrade]
    rules.team_cast(game, 0, abrade, "hand")
    assert seen == [1] and not rules.on_battlefield(game, collar)  # only "destroy artifact" was possible
    zombie = put(game, bundled, "Zombie Giant")
    game.drivers.policy = Scripted()
    put(game, bundled, "Mountain", side="team")
    put(game, bundled, "Mountain", side="team")
    game.players[0].hand[:] = [abrade]
    rules.team_cast(game, 0, abrade, "hand")
    assert zombie.damage == 3  # the baseline takes the mode that hurts the Horde


def test_704_5g_equipment_moved_off_a_damaged_creature_leaves_it_to_die(game, bundled):
    """State-based actions run after the equip step: Short Sword (+1/+1) moved from a damaged
    2/2 to another creature leaves the first with 2 damage and toughness 2, so it dies."""
    sword = put(game, bundled, "Short Sword", side="team", player=0)
    goblin = put(game, bundled, "Goblin Chieftain", side="team", player=0)
    other = put(game, bundled, "Raging Goblin", side="team", player=0)
    for _ in range(2):
        put(game, bundled, "Mountain", side="team", player=0)
    game.battlefield.attach(sword, goblin)
    rules.damage_permanent(game, None, HORDE, goblin, 2)
    rules.check_state(game)
    assert rules.on_battlefield(game, goblin) and rules.toughness(game, goblin) == 3
    game.drivers.policy = Scripted(equip=lambda d: (sword, other) if (sword, other) in d.options else None)
    turns.equip_step(game, 0)
    assert sword.attached_to is other
    assert not rules.on_battlefield(game, goblin)
    assert bundled.get("Goblin Chieftain") in game.players[0].graveyard
