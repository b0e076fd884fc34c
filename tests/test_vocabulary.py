"""The effect vocabulary, one test per verb, keyword, filter term and amount, each named after
what it checks (``test_verb_NAME_...``, ``test_keyword_NAME_...``, ``test_filter_TERM_...``,
``test_amount_KIND_...``), on small boards of bundled cards with exact values.
``test_every_verb_keyword_filter_term_and_amount_is_named_by_a_test`` fails when one has no test."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, library, put

from horde.cards.catalogue import load_catalogue
from horde.engine import rules
from horde.engine.filters import Context, compile_amount, compile_condition, compile_filter, evaluate
from horde.play import new_game, prepare
from horde.setup import make_setup


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


# ---------------------------------------------------------------- -1/-1 counters, wither, infect, poison


def test_verb_counters_minus_puts_minus_one_counters_that_cancel_plus_ones(game, bundled):
    """704.5q: a +1/+1 and a -1/-1 counter on one permanent are both removed."""
    titan = put(game, bundled, "Grave Titan", plus=2)  # 6/6 with two +1/+1 counters
    skinrender = rules.put_onto_battlefield(game, bundled.get("Skinrender"), 0, 0)  # the team's: targets the Titan
    assert skinrender.card.name == "Skinrender"
    assert (titan.plus, titan.minus) == (0, 1) and rules.toughness(game, titan) == 5


def test_verb_counters_minus_kills_at_zero_toughness(game, bundled):
    zombie = put(game, bundled, "Zombie")
    rules.put_onto_battlefield(game, bundled.get("Skinrender"), 0, 0)
    rules.check_state(game)
    assert not rules.on_battlefield(game, zombie) and zombie.minus == 3


def test_keyword_wither_deals_damage_to_creatures_as_minus_one_counters(game, bundled):
    ripper = put(game, bundled, "Sickle Ripper")
    angel = put(game, bundled, "Serra Angel", side="team")  # 4/4
    rules.damage_permanent(game, ripper, HORDE, angel, 2)
    assert (angel.damage, angel.minus, rules.toughness(game, angel), rules.power(game, angel)) == (0, 2, 2, 2)
    rules.damage_player(game, ripper, HORDE, 0, 2)
    assert game.team_life == 78 and game.players[0].poison == 0  # to a player: ordinary damage


def test_keyword_infect_gives_players_poison_and_creatures_counters(game, bundled):
    stinger = put(game, bundled, "Plague Stinger")
    rules.damage_player(game, stinger, HORDE, 2, 1)
    assert game.team_life == 80 and game.players[2].poison == 1 and game.damage_taken == 0
    bear = put(game, bundled, "Walking Corpse", side="team")
    rules.damage_permanent(game, stinger, HORDE, bear, 1)
    assert (bear.damage, bear.minus) == (0, 1)


def test_keyword_infect_damage_to_the_horde_mills_it(game, bundled):
    """H11: damage to the Horde mills, infect or not; the Horde has no poison."""
    stinger = put(game, bundled, "Plague Stinger", side="team")
    rules.damage_horde(game, 3, stinger)
    assert game.horde_milled == 3


def test_H13_fifteen_poison_counters_on_a_team_player_lose_the_game(game, bundled):
    rules.give_poison(game, 1, 14)
    rules.give_poison(game, 2, 14)
    rules.check_state(game)
    assert game.winner is None
    rules.give_poison(game, 1, 1)
    rules.check_state(game)
    assert game.winner == "horde"


def test_verb_poison_gives_each_team_player_a_counter_and_the_horde_none(game, bundled):
    rules.put_onto_battlefield(game, bundled.get("Ichor Rats"), HORDE, HORDE)
    assert [pl.poison for pl in game.players] == [1, 1, 1, 1]


def test_keyword_persist_returns_it_with_a_minus_one_counter_once(game, bundled):
    goblin = put(game, bundled, "Putrid Goblin")
    rules.destroy(game, goblin)
    back = [p for p in game.battlefield.horde if p.card.name == "Putrid Goblin"]
    assert len(back) == 1 and back[0].minus == 1 and rules.power(game, back[0]) == 1
    rules.destroy(game, back[0])
    assert not game.battlefield.horde and [c.name for c in game.horde.graveyard] == ["Putrid Goblin"]


def test_keyword_undying_returns_it_with_a_plus_one_counter_once(game, bundled):
    ghoul = put(game, bundled, "Butcher Ghoul")
    rules.destroy(game, ghoul)
    back = [p for p in game.battlefield.horde if p.card.name == "Butcher Ghoul"]
    assert len(back) == 1 and back[0].plus == 1 and rules.power(game, back[0]) == 2
    rules.destroy(game, back[0])
    assert not game.battlefield.horde


def test_keyword_persist_and_a_plus_one_counter_cancel_so_it_persists_again(game, bundled):
    """704.5q: a +1/+1 counter on a creature that persisted removes its -1/-1 counter."""
    goblin = put(game, bundled, "Putrid Goblin")
    rules.destroy(game, goblin)
    back = game.battlefield.horde[0]
    rules.add_counters(game, back, 1)
    assert (back.plus, back.minus) == (0, 0)
    rules.destroy(game, back)
    assert [p.minus for p in game.battlefield.horde] == [1]


# ---------------------------------------------------------------- regeneration


def test_verb_regenerate_the_horde_regenerates_whenever_it_would_be_destroyed(game, bundled):
    """H7: the Horde has all the mana it needs, so it activates Drudge Skeletons' {B} each time."""
    game.drivers.trace = []
    skeletons = put(game, bundled, "Drudge Skeletons", damage=0)
    for _ in range(3):
        assert not rules.destroy(game, skeletons)
    assert rules.on_battlefield(game, skeletons) and skeletons.tapped
    assert [e["paid"] for e in game.drivers.trace if e["event"] == "regenerate"] == ["{B}"] * 3


def test_verb_regenerate_removes_damage_and_takes_it_out_of_combat(game, bundled):
    skeletons = put(game, bundled, "Drudge Skeletons")
    skeletons.attacking = True
    rules.damage_permanent(game, None, 0, skeletons, 1)
    rules.check_state(game)
    assert rules.on_battlefield(game, skeletons)
    assert (skeletons.damage, skeletons.tapped, skeletons.attacking) == (0, True, False)


def test_verb_regenerate_a_shield_lasts_until_end_of_turn(game, bundled):
    from horde.engine import turns
    boa = put(game, bundled, "River Boa", side="team")
    rules.resolve(game, boa.card.abilities("Activated")[0], ctx_of(boa))
    assert boa.regeneration == 1
    turns.end_step(game)
    assert boa.regeneration == 0


def test_verb_regenerate_the_team_pays_when_its_policy_says_so(game, bundled):
    troll = put(game, bundled, "Cudgel Troll", side="team", player=1)
    put(game, bundled, "Forest", side="team", player=1)
    assert not rules.destroy(game, troll)  # the baseline regenerates: {G} from its Forest
    assert rules.on_battlefield(game, troll) and troll.tapped
    assert rules.destroy(game, put(game, bundled, "Cudgel Troll", side="team", player=2))  # no mana: destroyed


def test_verb_destroy_all_regenerate_false_cant_be_regenerated(game, bundled):
    skeletons = put(game, bundled, "Drudge Skeletons")
    rules.resolve_spell(game, bundled.get("Damnation"), Context(bundled.get("Damnation"), None, HORDE))
    assert not rules.on_battlefield(game, skeletons)


def test_verb_damage_regenerate_false_a_creature_dealt_damage_cant_be_regenerated(game, bundled):
    skeletons = put(game, bundled, "Drudge Skeletons")
    game.drivers.policy = Scripted(target=lambda d: skeletons)
    incinerate = bundled.get("Incinerate")
    rules.resolve_spell(game, incinerate, Context(incinerate, None, 0))
    rules.check_state(game)
    assert not rules.on_battlefield(game, skeletons)


# ---------------------------------------------------------------- protection (DEBT: damage, enchanting or equipping, blocking, targeting)


def test_keyword_protection_from_black_prevents_damage_from_black_sources(game, bundled):
    game.drivers.trace = []
    knight = put(game, bundled, "White Knight", side="team")
    zombie = put(game, bundled, "Zombie")
    assert rules.damage_permanent(game, zombie, HORDE, knight, 2) == 0 and knight.damage == 0
    goblin = put(game, bundled, "Raging Goblin")  # red
    assert rules.damage_permanent(game, goblin, HORDE, knight, 1) == 1
    assert [(e["card"], e["source"], e["amount"]) for e in game.drivers.trace if e["event"] == "protection"] == \
        [("White Knight", "Zombie", 2)]


def test_keyword_protection_from_black_cant_be_blocked_by_black_creatures(game, bundled):
    knight = put(game, bundled, "White Knight", side="team")
    zombie = put(game, bundled, "Zombie")
    wall = put(game, bundled, "Wall of Air")  # blue
    assert not rules.can_block(game, zombie, knight) and rules.can_block(game, wall, knight)
    assert rules.can_block(game, knight, zombie)  # protection does not stop it blocking


def test_keyword_protection_from_white_cant_be_targeted_by_white_spells(game, bundled):
    knight = put(game, bundled, "Black Knight")
    put(game, bundled, "Zombie")
    murder, sunlance = bundled.get("Murder"), bundled.get("Sunlance")
    assert knight in rules.legal_targets(game, Context(murder, None, 0), murder.hooks["Cast"][0])
    assert knight not in rules.legal_targets(game, Context(sunlance, None, 0), sunlance.hooks["Cast"][0])


def test_keyword_protection_from_red_and_from_white_both_apply(game, bundled):
    crusader = put(game, bundled, "Phyrexian Crusader")
    bolt = bundled.get("Lightning Bolt")
    assert crusader not in rules.legal_targets(game, Context(bolt, None, 0), bolt.hooks["Cast"][0])
    assert rules.damage_permanent(game, None, 0, crusader, 3, source_card=bolt) == 0


def test_keyword_protection_from_green_prevents_green_damage(game, bundled):
    crusader = put(game, bundled, "Mirran Crusader", side="team")
    boa = put(game, bundled, "River Boa")
    assert rules.damage_permanent(game, boa, HORDE, crusader, 2) == 0


def test_keyword_protection_from_artifacts_stops_equipping(game, bundled):
    from horde.engine import turns
    bear = put(game, bundled, "Walking Corpse", side="team")
    rules.pump(game, bear, 0, 0, frozenset({"protection from artifacts"}))
    put(game, bundled, "Bonesplitter", side="team")
    put(game, bundled, "Plains", side="team")
    seen = []
    game.drivers.policy = Scripted(equip=lambda d: seen.append(d.options) or None)
    turns.equip_step(game, 0)
    assert seen == []  # 702.16d: no legal creature to equip


def test_keyword_protection_from_creatures_stops_creatures_not_spells(game, bundled):
    bear = put(game, bundled, "Walking Corpse", side="team")
    zombie = put(game, bundled, "Zombie")
    rules.pump(game, bear, 0, 0, frozenset({"protection from creatures"}))
    assert not rules.can_block(game, zombie, bear) and rules.damage_permanent(game, zombie, HORDE, bear, 2) == 0
    assert rules.damage_permanent(game, None, 0, bear, 1, source_card=bundled.get("Lightning Bolt")) == 1


def test_keyword_protection_from_everything_stops_every_source(game, bundled):
    bear = put(game, bundled, "Walking Corpse", side="team")
    rules.pump(game, bear, 0, 0, frozenset({"protection from everything"}))
    bolt = bundled.get("Lightning Bolt")
    assert rules.damage_permanent(game, None, 0, bear, 1, source_card=bolt) == 0
    assert bear not in rules.legal_targets(game, Context(bolt, None, 0), bolt.hooks["Cast"][0])


def test_keyword_protection_from_blue_stops_blue_auras(game, bundled):
    corpse = put(game, bundled, "Walking Corpse", side="team")
    rules.pump(game, corpse, 0, 0, frozenset({"protection from blue"}))
    flight = bundled.get("Spectral Flight")
    assert corpse not in rules.legal_targets(game, Context(flight, None, 0), flight.enchant)


# ---------------------------------------------------------------- auras


def cast(game, bundled, name, player=0, lands=()):
    """A team player casts a card from its hand, with the lands given put onto the battlefield."""
    for land in lands:
        put(game, bundled, land, side="team", player=player)
    card = bundled.get(name)
    game.players[player].hand.append(card)
    rules.team_cast(game, player, card, "hand")


def test_hook_enchanted_pacifism_goes_on_the_hordes_biggest_creature(game, bundled):
    put(game, bundled, "Zombie")
    giant = put(game, bundled, "Zombie Giant")
    cast(game, bundled, "Pacifism", lands=("Plains", "Plains"))
    assert [a.card.name for a in giant.auras] == ["Pacifism"]
    from horde.engine import turns
    assert not turns.can_attack(game, giant)
    assert not rules.can_block(game, giant, put(game, bundled, "Walking Corpse", side="team"))


def test_hook_enchanted_a_helpful_aura_goes_on_the_teams_best_creature(game, bundled):
    put(game, bundled, "Zombie Giant")
    put(game, bundled, "Llanowar Elves", side="team")
    angel = put(game, bundled, "Serra Angel", side="team")
    cast(game, bundled, "Holy Strength", lands=("Plains",))
    assert (rules.power(game, angel), rules.toughness(game, angel)) == (5, 6)


def test_hook_enchanted_an_aura_falls_off_when_its_creature_leaves_704_5m(game, bundled):
    game.drivers.trace = []
    angel = put(game, bundled, "Serra Angel", side="team")
    cast(game, bundled, "Holy Strength", lands=("Plains",))
    aura = angel.auras[0]
    rules.destroy(game, angel)
    rules.check_state(game)
    assert not rules.on_battlefield(game, aura) and "Holy Strength" in [c.name for c in game.players[0].graveyard]
    assert any(e["event"] == "aura_falls_off" for e in game.drivers.trace)


def test_keyword_protection_from_white_cant_be_enchanted_by_a_white_aura(game, bundled):
    knight = put(game, bundled, "Black Knight")
    put(game, bundled, "Plains", side="team")
    put(game, bundled, "Plains", side="team")
    game.players[0].hand[:] = [bundled.get("Pacifism")]
    assert rules.castable(game, 0) == []  # its only creature target has protection from white
    zombie = put(game, bundled, "Zombie")
    assert rules.castable(game, 0) == [(bundled.get("Pacifism"), "hand")]
    rules.team_cast(game, 0, bundled.get("Pacifism"), "hand")
    assert [a.card.name for a in zombie.auras] == ["Pacifism"] and not knight.auras


def test_hook_enchanted_an_aura_falls_off_when_its_creature_gains_protection(game, bundled):
    zombie = put(game, bundled, "Zombie")
    cast(game, bundled, "Pacifism", lands=("Plains", "Plains"))
    rules.pump(game, zombie, 0, 0, frozenset({"protection from white"}))
    game.battlefield.anthems_changed()
    rules.check_state(game)
    assert not zombie.auras and not game.battlefield.auras


def test_filter_enchanted_a_curse_on_the_horde_shrinks_its_creatures(game, bundled):
    zombie = put(game, bundled, "Zombie")
    theirs = put(game, bundled, "Walking Corpse", side="team")
    cast(game, bundled, "Curse of Death's Hold", lands=("Swamp",) * 5)
    assert [a.attached_player for a in game.battlefield.auras] == [HORDE]
    assert (rules.power(game, zombie), rules.toughness(game, theirs)) == (1, 2)


def test_hook_enchanted_a_horde_aura_enchants_a_random_legal_creature_H9(game, bundled):
    game.horde_rng = FixedRng()
    theirs = put(game, bundled, "Serra Angel", side="team")
    put(game, bundled, "Zombie")
    rules.horde_cast(game, bundled.get("Unholy Strength"))
    assert [a.card.name for a in theirs.auras] == ["Unholy Strength"]  # the first legal option: the team's
    assert rules.power(game, theirs) == 6


def test_hook_enchanted_a_horde_aura_with_nothing_to_enchant_goes_to_the_graveyard(game, bundled):
    rules.horde_cast(game, bundled.get("Unholy Strength"))
    assert [c.name for c in game.horde.graveyard] == ["Unholy Strength"] and not game.battlefield.horde


def test_hook_enchanted_dead_weight_kills_a_two_toughness_creature(game, bundled):
    zombie = put(game, bundled, "Zombie")
    cast(game, bundled, "Dead Weight", lands=("Swamp",))
    rules.check_state(game)
    assert not rules.on_battlefield(game, zombie) and not game.battlefield.auras


# ---------------------------------------------------------------- kicker and multikicker


def test_amount_kicked_burst_lightning_deals_four_when_kicked(game, bundled):
    giant = put(game, bundled, "Zombie Giant")
    game.drivers.policy = Scripted(target=lambda d: giant)
    cast(game, bundled, "Burst Lightning", lands=("Mountain",) * 5)  # the baseline kicks when it can pay
    assert giant.damage == 4
    zombie = put(game, bundled, "Zombie")
    giant.damage = 0
    game.drivers.policy = Scripted(target=lambda d: zombie)
    cast(game, bundled, "Burst Lightning", player=1, lands=("Mountain",))  # one land: not kicked
    rules.check_state(game)
    assert not rules.on_battlefield(game, zombie)


def test_condition_if_kicked_into_the_roil_draws_only_when_kicked(game, bundled):
    put(game, bundled, "Zombie Giant")
    game.players[0].library[:] = [bundled.get("Island")] * 3
    cast(game, bundled, "Into the Roil", lands=("Island",) * 4)
    assert [c.name for c in game.players[0].hand] == ["Island"]
    put(game, bundled, "Zombie Giant")
    game.players[1].library[:] = [bundled.get("Island")] * 3
    cast(game, bundled, "Into the Roil", player=1, lands=("Island",) * 2)
    assert game.players[1].hand == []


def test_amount_kicked_multikicker_counts_each_payment(game, bundled):
    seen = []
    game.drivers.policy = Scripted(kick=lambda d: seen.append(list(d.options)) or max(d.options))
    cast(game, bundled, "Gnarlid Pack", lands=("Forest",) * 7)  # {1}{G} + 2 x {1}{G}, one land spare
    pack = next(p for p in game.battlefield.team if p.card.name == "Gnarlid Pack")
    assert seen == [[0, 1, 2]] and pack.plus == 2 and rules.power(game, pack) == 4


def test_amount_kicked_the_horde_kicks_every_spell_and_multikicks_horde_x_times_H7(game, bundled):
    game.drivers.trace = []
    for _ in range(4):
        game.players[0].hand.append(bundled.get("Forest"))
    game.horde_rng = FixedRng()
    rules.horde_cast(game, bundled.get("Bloodhusk Ritualist"))  # multikicker {B}: kicked horde_x = 3 times
    assert [e["kicked"] for e in game.drivers.trace if e["event"] == "cast"] == [3]
    assert len(game.players[0].hand) == 1 and len(game.players[0].graveyard) == 3
    rules.horde_cast(game, bundled.get("Heartstabber Mosquito"))  # kicker: destroy target creature
    assert [p.card.name for p in game.battlefield.horde] == ["Heartstabber Mosquito"]  # it destroyed the Ritualist


# ---------------------------------------------------------------- modal spells


def test_hook_mode_choose_two_resolves_two_modes_each_with_its_own_target(game, bundled):
    game.drivers.trace = []
    giant = put(game, bundled, "Zombie Giant")
    splitter = put(game, bundled, "Bonesplitter")
    game.drivers.policy = Scripted(modes=lambda d: [d.options[2], d.options[3]],
                                   target=lambda d: splitter if splitter in d.options else giant)
    cast(game, bundled, "Kolaghan's Command", lands=("Swamp", "Mountain", "Mountain"))
    assert not rules.on_battlefield(game, splitter) and giant.damage == 2
    assert [e["mode"] for e in game.drivers.trace if e["event"] == "mode"] == \
        ["destroy target=artifact", "damage amount=2 target=any"]


def test_hook_mode_choose_two_the_baseline_picks_the_modes_that_hit_the_horde_hardest(game, bundled):
    titan = put(game, bundled, "Grave Titan")  # mana value 6
    zombie = put(game, bundled, "Zombie")  # a token: mana value 0
    ours = put(game, bundled, "Serra Angel", side="team")  # mana value 5
    cast(game, bundled, "Austere Command", lands=("Plains",) * 6)
    assert not rules.on_battlefield(game, titan) and not rules.on_battlefield(game, zombie)
    assert not rules.on_battlefield(game, ours)  # the baseline weighed the Titan and Zombie against its Angel


def test_hook_mode_choose_one_or_both_the_horde_picks_uniformly_among_the_legal_sets_H9(game, bundled):
    picks = set()
    for seed in range(40):
        import random
        game.horde_rng = random.Random(seed)
        put(game, bundled, "Bonesplitter", side="team")
        put(game, bundled, "Pacifism", side="team")
        card = bundled.get("Crush Contraband")
        rules.resolve_spell(game, card, Context(card, None, HORDE))
        picks.add(sum(1 for p in game.battlefield.team if p.card.name in ("Bonesplitter", "Pacifism")))
        for p in list(game.battlefield.team):
            rules.exile(game, p)
    assert picks == {0, 1}  # both modes (0 left) or one (1 left), never neither


def test_filter_mv_compares_mana_value(game, bundled):
    titan, corpse = put(game, bundled, "Grave Titan"), put(game, bundled, "Walking Corpse")
    horde = Context(None, None, HORDE)
    assert [compile_filter("creature mv>=4")(game, horde, p) for p in (titan, corpse)] == [True, False]
    assert [compile_filter("creature mv<=3")(game, horde, p) for p in (titan, corpse)] == [False, True]


# ---------------------------------------------------------------- flash and cycling


def test_keyword_flash_the_team_flashes_in_a_blocker_after_the_hordes_attackers(game, bundled):
    from horde.engine import turns
    game.drivers.trace = []
    put(game, bundled, "Forest", side="team", player=2)
    put(game, bundled, "Forest", side="team", player=2)
    game.players[2].hand[:] = [bundled.get("Ambush Viper")]
    giant = put(game, bundled, "Zombie Giant")
    game.drivers.policy = Scripted(blocks=lambda d: [pair for pair in d.options if pair[0].card.name == "Ambush Viper"])
    turns.horde_combat(game, set())
    kinds = [e["event"] for e in game.drivers.trace]
    assert kinds.index("attack") < kinds.index("cast") < kinds.index("block")
    assert not rules.on_battlefield(game, giant)  # the deathtouch Viper blocked it
    assert game.team_life == 80


def test_keyword_flash_is_needed_to_cast_a_creature_in_the_hordes_turn(game, bundled):
    put(game, bundled, "Forest", side="team")
    put(game, bundled, "Forest", side="team")
    game.players[0].hand[:] = [bundled.get("Ambush Viper"), bundled.get("Llanowar Elves")]
    assert [c.name for c, _ in rules.castable(game, 0, sorcery_speed=False)] == ["Ambush Viper"]


def test_hook_cycled_cycling_discards_draws_and_triggers(game, bundled):
    game.drivers.trace = []
    zombie = put(game, bundled, "Zombie", damage=1)
    player = game.players[0]
    player.library[:] = [bundled.get("Mountain")]
    player.hand[:] = [bundled.get("Slice and Dice")]
    for _ in range(3):
        put(game, bundled, "Mountain", side="team")
    assert rules.cyclable(game, 0) == [bundled.get("Slice and Dice")]
    rules.cycle(game, 0, bundled.get("Slice and Dice"))
    assert [c.name for c in player.hand] == ["Mountain"] and [c.name for c in player.graveyard] == ["Slice and Dice"]
    assert not rules.on_battlefield(game, zombie)  # 1 damage more: lethal
    assert [e["card"] for e in game.drivers.trace if e["event"] == "cycle"] == ["Slice and Dice"]


def test_hook_cycled_the_baseline_cycles_a_land_once_it_has_six(game, bundled):
    from horde.engine import turns
    player = game.players[1]
    player.library[:] = [bundled.get("Island")] * 3
    player.hand[:] = [bundled.get("Lonely Sandbar")]
    player.land_played = True
    for _ in range(5):
        put(game, bundled, "Island", side="team", player=1)
    turns.cycle_step(game, 1)
    assert [c.name for c in player.hand] == ["Lonely Sandbar"]  # five lands: it keeps the land
    put(game, bundled, "Island", side="team", player=1)
    turns.cycle_step(game, 1)
    assert [c.name for c in player.hand] == ["Island"] and [c.name for c in player.graveyard] == ["Lonely Sandbar"]


# ---------------------------------------------------------------- more hooks


def test_hook_permanententers_noxious_ghoul_shrinks_non_zombies_for_each_zombie(game, bundled):
    elf = put(game, bundled, "Llanowar Elves", side="team")  # 1/1
    angel = put(game, bundled, "Serra Angel", side="team")  # 4/4
    rules.put_onto_battlefield(game, bundled.get("Noxious Ghoul"), HORDE, HORDE)  # itself: -1/-1
    rules.put_onto_battlefield(game, bundled.get("Zombie"), HORDE, HORDE)  # another Zombie: -1/-1
    rules.check_state(game)
    assert not rules.on_battlefield(game, elf) and rules.toughness(game, angel) == 2


def test_hook_spellcast_with_when_diregraf_colossus_counts_zombie_spells_of_its_controller(game, bundled):
    game.horde.graveyard[:] = [bundled.get("Walking Corpse"), bundled.get("Zombie")]  # a token card is no card
    colossus = rules.put_onto_battlefield(game, bundled.get("Diregraf Colossus"), HORDE, HORDE)
    assert colossus.plus == 1
    rules.horde_cast(game, bundled.get("Zombie"))  # a Zombie token card cast (H5t): a Zombie spell
    rules.horde_cast(game, bundled.get("Bad Moon"))
    assert sorted(p.card.name for p in game.battlefield.horde) == ["Bad Moon", "Diregraf Colossus", "Zombie", "Zombie"]
    assert sum(1 for p in game.battlefield.horde if p.tapped) == 1


def test_hook_hitsplayer_that_player_discards(game, bundled):
    from horde.engine import turns
    game.drivers.policy = Scripted(blocks=[])
    game.horde_rng = FixedRng()  # it attacks player 1
    game.players[0].hand[:] = [bundled.get("Forest")]
    put(game, bundled, "Liliana's Reaver")
    turns.horde_combat(game, set())
    assert game.players[0].hand == [] and game.team_life == 76
    assert sorted(p.card.name for p in game.battlefield.horde) == ["Liliana's Reaver", "Zombie"]


def test_hook_creaturedies_that_player_is_the_dead_creatures_controller(game, bundled):
    put(game, bundled, "Massacre Wurm")  # the Horde's: "that player loses 2 life"
    rules.destroy(game, put(game, bundled, "Walking Corpse", side="team", player=3))
    assert game.team_life == 80 - 2  # not 2 for each of the four team players


def test_hook_creaturedies_a_commander_leaving_with_them_sees_them_die(game, bundled):
    """603.10a: Judith goes to the command zone instead of dying (C2), in the same event as two
    other nontoken creatures of hers (Damnation): looking back, she triggers for each of them,
    though she left first."""
    game.horde_rng = FixedRng()
    put(game, bundled, "Judith, the Scourge Diva", side="team", player=0, is_commander=True)  # destroyed first
    put(game, bundled, "Serra Angel", side="team", player=0)
    put(game, bundled, "Walking Corpse", side="team", player=0)
    library(game, bundled, *["Zombie"] * 10)
    rules.horde_cast(game, bundled.get("Damnation"))
    assert game.players[0].command[-1].name == "Judith, the Scourge Diva"
    assert len(game.horde.library) == 10 - 2  # two pings at the Horde (H11), one for each creature that died


def test_hook_opponentupkeep_runs_for_each_opponent_only(game, bundled):
    from horde.engine import turns
    put(game, bundled, "Sheoldred, Whispering One")
    for player in range(4):
        put(game, bundled, "Walking Corpse", side="team", player=player)
    turns.upkeep(game, [pl.index for pl in game.players], game.battlefield.team)
    assert not [p for p in game.battlefield.team if p.card.is_creature]
    corpse = put(game, bundled, "Walking Corpse")
    turns.upkeep(game, [HORDE], [])  # the Horde's own upkeep: no sacrifice
    assert rules.on_battlefield(game, corpse)


def test_hook_upkeepstep_once_an_upkeep_step_not_once_a_player(game, bundled):
    """H1: the team shares one turn, so one upkeep step: Verdant Force's 'At the beginning of each
    upkeep' makes one Saproling in it (not one for each of the four players), and one in the Horde's."""
    from horde.engine import turns
    put(game, bundled, "Verdant Force", side="team", player=0)
    turns.upkeep(game, [pl.index for pl in game.players], game.battlefield.team)
    assert [p.card.name for p in game.battlefield.team].count("Saproling") == 1
    turns.upkeep(game, [HORDE], game.battlefield.horde)
    assert [p.card.name for p in game.battlefield.team].count("Saproling") == 2


def test_verb_return_from_graveyard_each_player_returns_one_exhume(game, bundled):
    game.horde_rng = FixedRng()
    game.horde.graveyard[:] = [bundled.get("Walking Corpse"), bundled.get("Grave Titan")]
    game.players[0].graveyard[:] = [bundled.get("Serra Angel")]
    rules.horde_cast(game, bundled.get("Exhume"))
    assert [p.card.name for p in game.battlefield.team] == ["Serra Angel"]
    assert [p.card.name for p in game.battlefield.horde] == ["Walking Corpse"]  # its first option (FixedRng)
    assert [c.name for c in game.horde.graveyard] == ["Grave Titan", "Exhume"]


def test_verb_reanimate_all_tapped_zombie_apocalypse(game, bundled):
    game.horde.graveyard[:] = [bundled.get("Walking Corpse"), bundled.get("Bad Moon"), bundled.get("Grave Titan")]
    human = put(game, bundled, "Vulshok Berserker", side="team")
    rules.horde_cast(game, bundled.get("Zombie Apocalypse"))
    back = [p for p in game.battlefield.horde if p.card.name == "Walking Corpse"]
    assert len(back) == 1 and back[0].tapped and not rules.on_battlefield(game, human)
    assert "Grave Titan" in [c.name for c in game.horde.graveyard]  # a Giant, not a Zombie


def test_filter_player_lava_axe_targets_a_player_or_a_planeswalker(game, bundled):
    axe = bundled.get("Lava Axe")
    options = rules.legal_targets(game, Context(axe, None, 0), axe.hooks["Cast"][0])
    assert options == [0, 1, 2, 3, "horde"]
    cast(game, bundled, "Lava Axe", lands=("Mountain",) * 5)
    assert game.horde_milled == 5


def test_filter_opponent_a_team_player_targets_itself_to_draw_and_the_horde_to_lose(game, bundled):
    game.players[2].library[:] = [bundled.get("Swamp")] * 4
    cast(game, bundled, "Sign in Blood", player=2, lands=("Swamp", "Swamp"))
    assert len(game.players[2].hand) == 2 and game.team_life == 78  # its own player: it draws two
    put(game, bundled, "Zombie")
    cast(game, bundled, "Diabolic Edict", player=1, lands=("Swamp", "Swamp"))
    assert not game.battlefield.horde  # the Horde sacrificed its Zombie


# ---------------------------------------------------------------- the graveyard: flashback, unearth, casting and abilities


def test_flashback_the_horde_casts_it_from_its_graveyard_then_exiles_it(game, bundled):
    from horde.engine import turns
    game.drivers.trace = []
    game.horde.graveyard[:] = [bundled.get("Moan of the Unhallowed")]
    game.horde.library[:] = [bundled.get("Walking Corpse")]
    turns.reveal_and_cast(game)
    casts = [(e["card"], e["origin"]) for e in game.drivers.trace if e["event"] == "cast"]
    assert casts == [("Walking Corpse", None), ("Moan of the Unhallowed", "flashback")]
    assert [c.name for c in game.horde.exile] == ["Moan of the Unhallowed"] and not game.horde.graveyard
    assert sorted(p.card.name for p in game.battlefield.horde) == ["Walking Corpse", "Zombie", "Zombie"]


def test_flashback_the_team_casts_it_for_its_flashback_cost(game, bundled):
    player = game.players[1]
    player.graveyard[:] = [bundled.get("Think Twice")]
    player.library[:] = [bundled.get("Island")] * 2
    for _ in range(3):
        put(game, bundled, "Island", side="team", player=1)
    assert rules.castable(game, 1) == [(bundled.get("Think Twice"), "flashback")]
    rules.team_cast(game, 1, bundled.get("Think Twice"), "flashback")
    assert len(player.hand) == 1 and [c.name for c in player.exile] == ["Think Twice"] and not player.graveyard
    assert all(p.tapped for p in game.battlefield.team)  # {2}{U}


def test_flashback_a_countered_flashback_spell_is_exiled(game, bundled):
    game.drivers.policy = Scripted(counter=lambda d: d.options[0])
    game.players[0].hand[:] = [bundled.get("Counterspell")]
    put(game, bundled, "Island", side="team")
    put(game, bundled, "Island", side="team")
    rules.horde_cast(game, bundled.get("Moan of the Unhallowed"), "flashback")
    assert [c.name for c in game.horde.exile] == ["Moan of the Unhallowed"] and not game.horde.graveyard


def test_unearth_the_horde_unearths_attacks_and_exiles_at_end_step(game, bundled):
    from horde.engine import turns
    game.drivers.trace = []
    game.horde.graveyard[:] = [bundled.get("Dregscape Zombie")]
    rules.horde_graveyard(game)
    zombie = game.battlefield.horde[0]
    assert zombie.card.name == "Dregscape Zombie" and zombie.unearthed
    turns.end_step(game)
    assert not game.battlefield.horde and [c.name for c in game.horde.exile] == ["Dregscape Zombie"]
    assert [e["event"] for e in game.drivers.trace][:2] == ["unearth", "enters"]


def test_unearth_it_is_exiled_if_it_would_leave_the_battlefield(game, bundled):
    game.horde.graveyard[:] = [bundled.get("Rotting Rats")]
    rules.horde_graveyard(game)
    rules.destroy(game, game.battlefield.horde[0])
    assert [c.name for c in game.horde.exile] == ["Rotting Rats"] and not game.horde.graveyard


def test_unearth_the_team_pays_and_attacks_with_haste(game, bundled):
    from horde.engine import turns
    player = game.players[0]
    player.graveyard[:] = [bundled.get("Hellspark Elemental")]
    put(game, bundled, "Mountain", side="team")
    put(game, bundled, "Mountain", side="team")
    turns.graveyard_step(game, 0)
    elemental = next(p for p in game.battlefield.team if p.card.name == "Hellspark Elemental")
    assert turns.can_attack(game, elemental)
    turns.end_step(game)
    assert [c.name for c in player.exile] == ["Hellspark Elemental"] and not player.graveyard


def test_cast_from_graveyard_risen_executioner_costs_one_more_for_each_other_creature_card(game, bundled):
    player = game.players[0]
    player.graveyard[:] = [bundled.get("Risen Executioner"), bundled.get("Serra Angel"), bundled.get("Forest")]
    executioner = bundled.get("Risen Executioner")
    assert rules.spell_cost(game, executioner, 0, "graveyard") == (3, ("B", "B"))  # {2}{B}{B} + 1 other creature card
    rules.horde_graveyard(game)  # the Horde has none: nothing happens to the team's graveyard
    game.horde.graveyard[:] = [executioner]
    rules.horde_graveyard(game)
    assert [p.card.name for p in game.battlefield.horde] == ["Risen Executioner"]


def test_hook_graveyardactivated_reassembling_skeleton_returns_tapped(game, bundled):
    game.horde.graveyard[:] = [bundled.get("Reassembling Skeleton")]
    rules.horde_graveyard(game)
    skeleton = game.battlefield.horde[0]
    assert skeleton.card.name == "Reassembling Skeleton" and skeleton.tapped


def test_hook_graveyardactivated_its_condition_restricts_activation(game, bundled):
    player = game.players[0]
    player.graveyard[:] = [bundled.get("Dread Wanderer")]
    player.hand[:] = [bundled.get("Swamp")] * 2
    for _ in range(3):
        put(game, bundled, "Swamp", side="team")
    assert rules.graveyard_uses(game, 0) == []  # two cards in hand
    player.hand.pop()
    assert [c.name for c, _ in rules.graveyard_uses(game, 0)] == ["Dread Wanderer"]


def test_verb_return_self_returns_the_card_from_its_graveyard(game, bundled):
    skeleton = bundled.get("Reassembling Skeleton")
    game.players[2].graveyard[:] = [skeleton]
    run(game, "return_self to=hand", controller=2, card=skeleton)
    assert game.players[2].hand == [skeleton] and not game.players[2].graveyard


def test_verb_graveyards_lose_abilities_yixlid_jailer_switches_graveyards_off(game, bundled):
    put(game, bundled, "Yixlid Jailer")
    game.horde.graveyard[:] = [bundled.get("Moan of the Unhallowed"), bundled.get("Dregscape Zombie"),
                               bundled.get("Reassembling Skeleton")]
    rules.horde_graveyard(game)
    assert [p.card.name for p in game.battlefield.horde] == ["Yixlid Jailer"] and len(game.horde.graveyard) == 3
    game.players[0].graveyard[:] = [bundled.get("Think Twice")]
    for _ in range(3):
        put(game, bundled, "Island", side="team")
    assert rules.castable(game, 0) == []


def test_horde_graveyard_knob_never_and_coin(bundled):
    from horde.play import new_game
    setup = make_setup("knudson-2011", players=2, horde_graveyard="never")
    g = new_game(prepare(setup, bundled), 0, Scripted())
    g.horde.graveyard[:] = [bundled.get("Dregscape Zombie")]
    rules.horde_graveyard(g)
    assert not g.battlefield.horde
    returned = 0
    for seed in range(40):
        g = new_game(prepare(make_setup("knudson-2011", players=2, horde_graveyard="coin"), bundled), seed, Scripted())
        g.horde.graveyard[:] = [bundled.get("Dregscape Zombie")]
        rules.horde_graveyard(g)
        returned += len(g.battlefield.horde)
    assert 8 < returned < 32  # a coin for each card (H9)


# ---------------------------------------------------------------- one test per verb


def run(game, text, controller=HORDE, source=None, hook="Cast", **ctx):
    """Resolve one behaviour line (``verb key=value ...``) as if a card of ``controller`` did."""
    from horde.cards.catalogue import parse_effect

    effects = parse_effect(hook, text, "test", 1, "Test Card")
    context = Context(source.card if source else None, source, controller)
    for key, value in ctx.items():
        setattr(context, key, value)
    rules.resolve(game, effects, context)
    return context


def test_verb_anthem_gives_matching_permanents_power_toughness_and_keywords(game, bundled):
    put(game, bundled, "Death Baron")
    zombie = put(game, bundled, "Zombie")
    assert (rules.power(game, zombie), rules.toughness(game, zombie)) == (3, 3)
    assert rules.has_keyword(game, zombie, "deathtouch")


def test_verb_pt_equals_a_star_creature_counts(game, bundled):
    soulless = put(game, bundled, "Soulless One")
    put(game, bundled, "Zombie")
    game.players[0].graveyard.append(bundled.get("Walking Corpse"))
    assert (rules.power(game, soulless), rules.toughness(game, soulless)) == (3, 3)


def test_verb_create_tokens_count_and_tapped(game, bundled):
    run(game, "create_tokens token=Zombie count=3 tapped=true")
    assert [(p.card.name, p.tapped) for p in game.battlefield.horde] == [("Zombie", True)] * 3


def test_verb_damage_all_each_creature_and_each_player(game, bundled):
    zombie = put(game, bundled, "Zombie")
    angel = put(game, bundled, "Serra Angel", side="team")
    run(game, 'damage_all amount=2 filter="creature without-flying" who=each_player')
    assert zombie.damage == 2 and angel.damage == 0 and game.team_life == 80 - 4 * 2 and game.horde_milled == 2


def test_verb_damage_each_opponent_is_damage_all_to_each_opponent(game, bundled):
    run(game, "damage_each_opponent amount=3", controller=0)
    assert game.horde_milled == 3
    run(game, "damage_each_opponent amount=1")
    assert game.team_life == 80 - 4


def test_verb_damage_deals_its_amount_to_its_target(game, bundled):
    giant = put(game, bundled, "Zombie Giant")
    game.drivers.policy = Scripted(target=lambda d: giant)
    run(game, "damage amount=3 target=any", controller=0)
    assert giant.damage == 3


def test_verb_destroy_a_target(game, bundled):
    corpse = put(game, bundled, "Walking Corpse")
    game.drivers.policy = Scripted(target=lambda d: corpse)
    run(game, "destroy target=creature", controller=0)
    assert [x.name for x in game.horde.graveyard] == ["Walking Corpse"]


def test_verb_exile_a_target(game, bundled):
    titan = put(game, bundled, "Grave Titan")
    game.drivers.policy = Scripted(target=lambda d: titan)
    run(game, "exile target=creature", controller=0)
    assert [x.name for x in game.horde.exile] == ["Grave Titan"] and not game.horde.graveyard


def test_verb_bounce_a_token_ceases_to_exist_H6(game, bundled):
    zombie = put(game, bundled, "Zombie")
    game.drivers.policy = Scripted(target=lambda d: zombie)
    run(game, "bounce target=creature", controller=0)
    assert not game.battlefield.horde and not game.horde.hand


def test_verb_bounce_a_horde_card_waits_in_its_hand_H6(game, bundled):
    corpse = put(game, bundled, "Walking Corpse")
    game.drivers.policy = Scripted(target=lambda d: corpse)
    run(game, "bounce target=creature", controller=0)
    assert [c.name for c in game.horde.hand] == ["Walking Corpse"]


def test_verb_counter_spell_counters_a_matching_horde_spell_H10(game, bundled):
    game.drivers.policy = Scripted(counter=lambda d: d.options[0])
    game.players[0].hand[:] = [bundled.get("Essence Scatter")]
    put(game, bundled, "Island", side="team")
    put(game, bundled, "Island", side="team")
    rules.horde_cast(game, bundled.get("Bad Moon"))  # not a creature spell: no option
    rules.horde_cast(game, bundled.get("Grave Titan"))
    assert [p.card.name for p in game.battlefield.horde] == ["Bad Moon"]
    assert [c.name for c in game.horde.graveyard] == ["Grave Titan"]


def test_H10_a_counterspell_resolves_the_rest_of_its_effects(game, bundled):
    """Exclude: 'Counter target creature spell. Draw a card.': the draw follows the counter."""
    game.drivers.policy = Scripted(counter=lambda d: d.options[0])
    game.players[0].hand[:] = [bundled.get("Exclude")]
    game.players[0].library[:] = [bundled.get("Forest")] * 2
    for _ in range(3):
        put(game, bundled, "Island", side="team")
    rules.horde_cast(game, bundled.get("Grave Titan"))
    assert [c.name for c in game.horde.graveyard] == ["Grave Titan"]
    assert [c.name for c in game.players[0].hand] == ["Forest"] and game.players[0].graveyard[-1].name == "Exclude"


def test_H10_counter_spell_is_refused_outside_a_cast():
    """No spell waits on a stack for a triggered or activated ability: such a card is refused."""
    from horde.cards.catalogue import build_from_lines
    from horde.errors import DeckError

    with pytest.raises(DeckError, match="counter_spell is an instant's first 'Cast' effect"):
        build_from_lines(["Name: Snake", "Cost: {1}{G}{U}{U}", "Type: Creature — Snake", "PT: 2/2",
                          "Enters: counter_spell"], "test")


def test_608_2d_you_may_the_team_declines_to_destroy_its_own_artifact(game, bundled):
    """Reclamation Sage with only its controller's artifact to target: the baseline declines;
    a policy that says yes destroys it."""
    splitter = put(game, bundled, "Bonesplitter", side="team")
    policy = Scripted(target=lambda d: d.options[0])
    game.drivers.policy = policy
    ctx = run(game, 'destroy target="artifact | enchantment" may=true', controller=0)
    assert rules.on_battlefield(game, splitter) and not ctx.done
    assert [d.kind for d in policy.seen] == ["target", "may"] and policy.seen[1].options == (True, False)
    game.drivers.policy = Scripted(target=lambda d: d.options[0], may=True)
    ctx = run(game, 'destroy target="artifact | enchantment" may=true ; draw who=you count=1 if=done', controller=0)
    assert not rules.on_battlefield(game, splitter) and ctx.done


def test_608_2d_you_may_the_horde_does_what_helps_it_never_harm_to_its_own(game, bundled):
    """H7: the Horde takes every free option (Gravedigger returns its creature card); it never
    chooses to harm its own permanent."""
    game.horde.graveyard[:] = [bundled.get("Walking Corpse")]
    run(game, "return_from_graveyard filter=creature to=hand count=1 may=true")
    assert [c.name for c in game.horde.hand] == ["Walking Corpse"]
    splitter = put(game, bundled, "Bonesplitter")
    ctx = run(game, "destroy target=artifact may=true")
    assert rules.on_battlefield(game, splitter) and not ctx.done
    run(game, "destroy target=artifact")
    assert not rules.on_battlefield(game, splitter)


def test_hook_creatureattacks_a_team_creature_you_control_attacks(game, bundled):
    """'Whenever a creature you control attacks, you gain 1 life': once for each team attacker."""
    from horde.cards.catalogue import build_from_lines
    from horde.engine import turns

    banner = build_from_lines(["Name: Test Banner", "Cost: {2}", "Type: Artifact",
                               'CreatureAttacks: gain_life amount=1 when="creature yours"'], "test")
    rules.put_onto_battlefield(game, banner, 0, 0, triggers=False)
    put(game, bundled, "Walking Corpse", side="team")
    put(game, bundled, "Walking Corpse", side="team", player=1)
    game.drivers.policy = Scripted(attackers=lambda d: list(d.options))
    life = game.team_life
    turns.team_combat(game)
    assert game.team_life == life + 1  # player 1's attacker is not its controller's


def test_verb_fog_prevents_combat_damage(game, bundled):
    from horde.engine import turns
    game.drivers.policy = Scripted(blocks=[])
    put(game, bundled, "Zombie Giant")
    run(game, "fog", controller=0)
    turns.horde_combat(game, set())
    assert game.team_life == 80


def test_verb_discard_each_player_discards(game, bundled):
    for pl in game.players:
        pl.hand[:] = [bundled.get("Forest"), bundled.get("Island")]
    run(game, "discard who=each_opponent count=1")
    assert [len(pl.hand) for pl in game.players] == [1, 1, 1, 1]


def test_verb_draw_the_horde_draws_nothing_H4(game, bundled):
    game.players[1].library[:] = [bundled.get("Forest")] * 3
    run(game, "draw who=you count=2", controller=1)
    run(game, "draw who=each_player count=1")
    assert len(game.players[1].hand) == 3 and not game.horde.hand


def test_verb_mill_each_player(game, bundled):
    for pl in game.players:
        pl.library[:] = [bundled.get("Forest")] * 5
    run(game, "mill who=each_player count=2")
    assert [len(pl.graveyard) for pl in game.players] == [2] * 4 and len(game.horde.library) == 18


def test_verb_gain_life_the_teams_total_the_horde_none(game, bundled):
    run(game, "gain_life amount=5", controller=2)
    run(game, "gain_life amount=5")
    assert game.team_life == 85


def test_verb_each_player_sacrifices_count_of_its_choice(game, bundled):
    game.horde_rng = FixedRng()
    first, second = put(game, bundled, "Zombie"), put(game, bundled, "Walking Corpse")
    token = put(game, bundled, "Soldier", side="team")
    angel = put(game, bundled, "Serra Angel", side="team")
    run(game, "each_player_sacrifices who=each_player filter=creature count=1")
    assert not rules.on_battlefield(game, first) and rules.on_battlefield(game, second)
    assert not rules.on_battlefield(game, token) and rules.on_battlefield(game, angel)  # the baseline gives a token


def test_verb_each_player_sacrifices_keep_one_of_each_type(game, bundled):
    game.horde_rng = FixedRng()
    for name in ("Walking Corpse", "Zombie", "Bad Moon", "Forsaken Wastes"):
        put(game, bundled, name)
    run(game, "each_player_sacrifices who=each_player filter=permanent keep=one_of_each_type", controller=0)
    assert sorted(p.card.name for p in game.battlefield.horde) == ["Forsaken Wastes", "Zombie"]


def test_verb_keep_one_of_each_type_is_each_player_sacrifices_keep(game, bundled):
    game.horde_rng = FixedRng()
    for name in ("Walking Corpse", "Zombie", "Bad Moon", "Forsaken Wastes"):
        put(game, bundled, name)
    run(game, "keep_one_of_each_type who=each_opponent", controller=0)
    assert sorted(p.card.name for p in game.battlefield.horde) == ["Forsaken Wastes", "Zombie"]


def test_verb_pump_self_and_target_until_end_of_turn(game, bundled):
    from horde.engine import turns
    corpse = put(game, bundled, "Walking Corpse")
    run(game, "pump on=self power=2 keywords=trample", source=corpse)
    assert rules.power(game, corpse) == 4 and rules.has_keyword(game, corpse, "trample")
    turns.end_step(game)
    assert rules.power(game, corpse) == 2


def test_verb_pump_all_matching(game, bundled):
    zombies = [put(game, bundled, "Zombie") for _ in range(2)]
    elf = put(game, bundled, "Llanowar Elves", side="team")
    run(game, 'pump_all filter="creature black" power=2')
    assert [rules.power(game, z) for z in zombies] == [4, 4] and rules.power(game, elf) == 1


def test_verb_tap_all_matching(game, bundled):
    angel, elf = put(game, bundled, "Serra Angel", side="team"), put(game, bundled, "Llanowar Elves", side="team")
    run(game, 'tap_all filter="creature with-flying opponents"')
    assert angel.tapped and not elf.tapped


def test_verb_ramp_basic_lands_onto_the_battlefield_and_into_hand(game, bundled):
    player = game.players[0]
    player.library[:] = [bundled.get("Forest"), bundled.get("Island"), bundled.get("Serra Angel")]
    run(game, "ramp count=1 tapped=true to_hand=1", controller=0)
    lands = [p for p in game.battlefield.team if p.card.is_land]
    assert len(lands) == 1 and lands[0].tapped and len(player.hand) == 1 and len(player.library) == 1


def test_verb_ramp_two_basic_lands_into_hand(game, bundled):
    """Armillary Sphere's 'up to two basic land cards, reveal them, put them into your hand'."""
    player = game.players[0]
    player.library[:] = [bundled.get("Forest"), bundled.get("Serra Angel"), bundled.get("Island"), bundled.get("Plains")]
    run(game, "ramp count=0 tapped=true to_hand=2", controller=0)
    assert not [p for p in game.battlefield.team if p.card.is_land]
    assert len(player.hand) == 2 and all(c.is_land for c in player.hand) and len(player.library) == 2


NEMESIS = """Name: Test Nemesis
Cost: {3}{B}
Type: Creature — Horror
PT: */*
AsEnters: choose_player
Static: pt_equals amount="graveyard:nontoken chosen"
SpellCast: mill who=that_player count=1 when=chosen
"""


def test_verb_choose_player_and_the_chosen_players_graveyard_and_spells(game, bundled):
    """Sewer Nemesis for a team player: it chooses the Horde (the team's one opponent); its power
    and toughness are the cards in the Horde's graveyard (tokens are no cards); each spell the
    Horde casts mills it a card, a team player's spell does not."""
    from horde.cards.catalogue import build_from_lines

    nemesis_card = build_from_lines(NEMESIS.strip().splitlines(), "test")
    game.horde.library[:] = [bundled.get("Walking Corpse")] * 10
    game.horde.graveyard[:] = [bundled.get("Walking Corpse")] * 3 + [bundled.get("Zombie")]
    nemesis = rules.put_onto_battlefield(game, nemesis_card, 0, 0)
    assert nemesis.marks["player"] == HORDE
    assert (rules.power(game, nemesis), rules.toughness(game, nemesis)) == (3, 3)
    rules.horde_cast(game, bundled.get("Zombie"))
    assert len(game.horde.library) == 9 and (rules.power(game, nemesis), rules.toughness(game, nemesis)) == (4, 4)


def test_filter_chosen_is_the_player_its_source_chose(game, bundled):
    source = put(game, bundled, "Serra Angel", side="team")
    source.marks = {"player": 1}
    elves = put(game, bundled, "Llanowar Elves", side="team", player=1)
    zombie = put(game, bundled, "Zombie")
    assert matching(game, "creature chosen", [elves, zombie, source], controller=0, source=source) == ["Llanowar Elves"]


def test_verb_sacrifice_self(game, bundled):
    spark = put(game, bundled, "Spark Elemental", side="team")
    rules.run_hook(game, spark, "EndStep")
    assert not rules.on_battlefield(game, spark)


def test_verb_sacrifice_self_if_no_creatures_is_sacrifice_self_unless_creatures(game, bundled):
    moon = put(game, bundled, "Bad Moon")
    zombie = put(game, bundled, "Zombie")
    run(game, "sacrifice_self_if_no_creatures", source=moon)
    assert rules.on_battlefield(game, moon)
    rules.sacrifice(game, zombie)
    run(game, "sacrifice_self_if_no_creatures", source=moon)
    assert not rules.on_battlefield(game, moon)


def test_verb_lose_life_if_spell_only_a_spell_costs_its_caster(game, bundled):
    wastes = put(game, bundled, "Forsaken Wastes")
    run(game, "lose_life_if_spell amount=5", source=wastes, hook="Targeted", caster=1)
    assert game.team_life == 80
    run(game, "lose_life_if_spell amount=5", source=wastes, hook="Targeted", caster=1, spell=bundled.get("Murder"))
    assert game.team_life == 75


def test_verb_lose_life_who_caster_when_forsaken_wastes_is_targeted_by_a_spell(game, bundled):
    wastes = put(game, bundled, "Forsaken Wastes")
    game.drivers.policy = Scripted(target=lambda d: wastes)
    run(game, "destroy target=enchantment", controller=2)  # an ability, not a spell: nothing
    assert game.team_life == 80
    wastes = put(game, bundled, "Forsaken Wastes")
    game.drivers.policy = Scripted(target=lambda d: wastes)
    cast(game, bundled, "Disenchant", lands=("Plains", "Plains"))
    assert game.team_life == 75


def test_verb_target_controller_loses_life_is_lose_life_who_target_controller(game, bundled):
    game.horde_rng = FixedRng()
    put(game, bundled, "Serra Angel", side="team", player=3)
    run(game, "destroy target=creature ; target_controller_loses_life amount=2")
    assert game.team_life == 78
    put(game, bundled, "Serra Angel", side="team", player=3)
    run(game, "destroy target=creature ; lose_life who=target_controller amount=2")
    assert game.team_life == 76


def test_verb_target_opponent_loses_life_per_card_is_lose_life_per_graveyard_card(game, bundled):
    game.horde_rng = FixedRng()  # player 1
    game.players[0].graveyard[:] = [bundled.get("Serra Angel"), bundled.get("Llanowar Elves"), bundled.get("Forest")]
    run(game, "target_opponent_loses_life_per_card per=2 filter=creature")
    assert game.team_life == 80 - 4
    run(game, 'lose_life who=target_opponent amount="2*graveyard:creature theirs"')
    assert game.team_life == 80 - 8


def test_verb_destroy_that_source_mikaeus_destroys_a_human_that_deals_it_damage(game, bundled):
    put(game, bundled, "Mikaeus, the Unhallowed")
    human = put(game, bundled, "Vulshok Berserker", side="team")
    rules.damage_horde(game, 1, human)
    assert not rules.on_battlefield(game, human)


def test_verb_any_player_exiles_from_graveyard_and_if_done(game, bundled):
    corpse = put(game, bundled, "Walking Corpse")
    game.players[1].graveyard[:] = [bundled.get("Forest")] * 3
    ctx = run(game, 'any_player_exiles_from_graveyard count=3 ; pump on=self keywords="assigns no combat damage" '
                    'if=done', source=corpse, hook="Attacks")
    assert ctx.done and len(game.players[1].exile) == 3 and rules.has_keyword(game, corpse, "assigns no combat damage")


def test_verb_graveyard_exile_stops_damage_is_the_exile_and_the_pump(game, bundled):
    wurm = put(game, bundled, "Carrion Wurm")
    game.players[0].graveyard[:] = [bundled.get("Forest")] * 3
    run(game, "graveyard_exile_stops_damage count=3", source=wurm, hook="Attacks")
    assert rules.has_keyword(game, wurm, "assigns no combat damage") and len(game.players[0].exile) == 3


def test_verb_zombie_army_R2_each_zombie_gets_x_counters(game, bundled):
    zombie = put(game, bundled, "Zombie")
    rules.put_onto_battlefield(game, bundled.get("Zombie Army"), HORDE, HORDE)
    rules.put_onto_battlefield(game, bundled.get("Zombie Army"), HORDE, HORDE)
    assert zombie.plus == 1 + 2


def test_verb_graveyards_lose_abilities_applies_at_its_point(game, bundled):
    flashback = bundled.get("Army of the Damned")
    assert rules.apply_statics(game, "graveyard_abilities", True, flashback) is True
    put(game, bundled, "Yixlid Jailer")
    assert rules.apply_statics(game, "graveyard_abilities", True, flashback) is False


def test_amount_factor_multiplies_a_count(game, bundled):
    put(game, bundled, "Zombie")
    put(game, bundled, "Zombie")
    assert evaluate(game, Context(None, None, HORDE), compile_amount("3*count:zombie yours")) == 6


def test_amount_team_players_counts_the_team(game):
    assert evaluate(game, Context(None, None, 0), compile_amount("team_players")) == 4


# ---------------------------------------------------------------- one test per filter term


def matching(game, text, permanents, controller=HORDE, **ctx):
    """Which of ``permanents`` a filter matches, for an effect of ``controller``."""
    flt = compile_filter(text)
    source = Context(None, ctx.pop("source", None), controller)
    for key, value in ctx.items():
        setattr(source, key, value)
    return [p.card.name for p in permanents if flt(game, source, p)]


@pytest.fixture
def board(game, bundled):
    """A Horde Zombie token and Walking Corpse, Bad Moon, Bonesplitter; the team's Serra Angel,
    Llanowar Elves (player 2), a Forest, and Mikaeus (legendary) of the Horde."""
    return [put(game, bundled, "Zombie"), put(game, bundled, "Walking Corpse"), put(game, bundled, "Bad Moon"),
            put(game, bundled, "Bonesplitter"), put(game, bundled, "Serra Angel", side="team"),
            put(game, bundled, "Llanowar Elves", side="team", player=1), put(game, bundled, "Forest", side="team"),
            put(game, bundled, "Mikaeus, the Unhallowed")]


def test_filter_creature(game, board):
    assert matching(game, "creature", board) == ["Zombie", "Walking Corpse", "Serra Angel", "Llanowar Elves",
                                                 "Mikaeus, the Unhallowed"]


def test_filter_land(game, board):
    assert matching(game, "land", board) == ["Forest"]


def test_filter_artifact(game, board):
    assert matching(game, "artifact", board) == ["Bonesplitter"]


def test_filter_enchantment(game, board):
    assert matching(game, "enchantment", board) == ["Bad Moon"]


def test_filter_planeswalker(game, bundled):
    elspeth = put(game, bundled, "Elspeth Tirel")
    assert matching(game, "planeswalker", [elspeth, put(game, bundled, "Zombie")]) == ["Elspeth Tirel"]


def test_filter_instant_and_sorcery_are_card_terms_of_cards_in_graveyards(game, bundled):
    from horde.engine.filters import card_matches
    assert card_matches("instant", bundled.get("Lightning Bolt")) and not card_matches("instant", bundled.get("Damnation"))


def test_filter_sorcery(game, bundled):
    from horde.engine.filters import card_matches
    assert card_matches("sorcery", bundled.get("Damnation")) and not card_matches("sorcery", bundled.get("Murder"))


def test_filter_instant(game, bundled):
    assert evaluate(game, Context(None, None, 0), compile_amount("graveyard:instant")) == 0
    game.players[0].graveyard.append(bundled.get("Murder"))
    assert evaluate(game, Context(None, None, 0), compile_amount("graveyard:instant")) == 1


def test_filter_permanent(game, board):
    assert len(matching(game, "permanent", board)) == len(board)


def test_filter_non_negates_a_term(game, board):
    assert matching(game, "creature nonblack", board) == ["Serra Angel", "Llanowar Elves"]


def test_filter_white(game, board):
    assert matching(game, "white", board) == ["Serra Angel"]


def test_filter_blue(game, bundled):
    assert matching(game, "blue", [put(game, bundled, "Wall of Air"), put(game, bundled, "Zombie")]) == ["Wall of Air"]


def test_filter_black(game, board):
    assert matching(game, "black creature", board) == ["Zombie", "Walking Corpse", "Mikaeus, the Unhallowed"]


def test_filter_red(game, bundled):
    assert matching(game, "red", [put(game, bundled, "Raging Goblin"), put(game, bundled, "Zombie")]) == \
        ["Raging Goblin"]


def test_filter_green(game, board):
    assert matching(game, "green", board) == ["Llanowar Elves"]


def test_filter_colorless(game, board):
    assert matching(game, "colorless", board) == ["Bonesplitter", "Forest"]


def test_filter_multicolored_and_monocolored(game, bundled):
    captain, corpse = put(game, bundled, "Diregraf Captain"), put(game, bundled, "Walking Corpse")
    assert matching(game, "multicolored", [captain, corpse]) == ["Diregraf Captain"]
    assert matching(game, "monocolored", [captain, corpse]) == ["Walking Corpse"]


def test_filter_monocolored(game, board):
    assert "Forest" not in matching(game, "monocolored", board) and "Serra Angel" in matching(game, "monocolored", board)


def test_filter_multicolored(game, board):
    assert matching(game, "multicolored", board) == []


def test_filter_subtype_names_a_creature_or_land_type(game, board):
    assert matching(game, "zombie", board) == ["Zombie", "Walking Corpse", "Mikaeus, the Unhallowed"]
    assert matching(game, "forest", board) == ["Forest"] and matching(game, "elf", board) == ["Llanowar Elves"]


def test_filter_token(game, board):
    assert matching(game, "token", board) == ["Zombie"]


def test_filter_nontoken(game, board):
    assert matching(game, "creature nontoken black", board) == ["Walking Corpse", "Mikaeus, the Unhallowed"]


def test_filter_legendary(game, board):
    assert matching(game, "legendary", board) == ["Mikaeus, the Unhallowed"]


def test_filter_nonlegendary(game, board):
    assert matching(game, "creature nonlegendary black", board) == ["Zombie", "Walking Corpse"]


def test_filter_basic_is_a_card_term(game, bundled):
    from horde.engine.filters import card_matches
    assert card_matches("basic land", bundled.get("Forest")) and not card_matches("basic", bundled.get("Command Tower"))


def test_filter_yours(game, board):
    assert matching(game, "creature yours", board, controller=1) == ["Llanowar Elves"]  # a teammate's are not yours


def test_filter_opponents(game, board):
    assert matching(game, "creature opponents", board, controller=1) == ["Zombie", "Walking Corpse",
                                                                        "Mikaeus, the Unhallowed"]


def test_filter_notyours_is_a_teammates_too(game, board):
    """'Creatures you don't control' (Plague Wind cast by player 2): the Horde's and a teammate's
    Serra Angel, not its own Llanowar Elves (H1: teammates are no opponents); cast by the Horde,
    the team's."""
    assert matching(game, "creature notyours", board, controller=1) == ["Zombie", "Walking Corpse", "Serra Angel",
                                                                         "Mikaeus, the Unhallowed"]
    assert matching(game, "creature notyours", board, controller=HORDE) == ["Serra Angel", "Llanowar Elves"]


def test_filter_other(game, board):
    assert matching(game, "creature black other", board, source=board[0]) == ["Walking Corpse", "Mikaeus, the Unhallowed"]


def test_filter_theirs_is_the_player_the_effect_is_about(game, board):
    assert matching(game, "creature theirs", board, controller=HORDE, target=1) == ["Llanowar Elves"]
    assert matching(game, "creature theirs", board, controller=0, target="horde") == \
        ["Zombie", "Walking Corpse", "Mikaeus, the Unhallowed"]


def test_filter_attacking_and_blocking(game, board):
    board[0].attacking = True
    board[4].blocked = True
    assert matching(game, "attacking", board) == ["Zombie"] and matching(game, "blocking", board) == ["Serra Angel"]


def test_filter_attacking(game, board):
    board[1].attacking = True
    assert matching(game, "creature attacking", board) == ["Walking Corpse"]


def test_filter_blocking(game, board):
    board[5].blocked = True
    assert matching(game, "creature blocking", board) == ["Llanowar Elves"]


def test_filter_tapped(game, board):
    board[6].tapped = True
    assert matching(game, "tapped", board) == ["Forest"]


def test_filter_untapped(game, board):
    for p in board[1:]:
        p.tapped = True
    assert matching(game, "untapped", board) == ["Zombie"]


def test_filter_with_a_keyword(game, board):
    assert matching(game, "creature with-flying", board) == ["Serra Angel"]


def test_filter_without_a_keyword(game, board):
    assert matching(game, "creature without-flying white", board) == []


def test_filter_power(game, board):
    # Bad Moon and Mikaeus make the Zombie and Walking Corpse 4/4
    assert matching(game, "creature power>=4", board) == ["Zombie", "Walking Corpse", "Serra Angel",
                                                         "Mikaeus, the Unhallowed"]
    assert matching(game, "creature power>=5", board) == ["Mikaeus, the Unhallowed"]


def test_filter_toughness(game, board):
    assert matching(game, "creature toughness<2", board) == ["Llanowar Elves"]


def test_filter_any_is_a_creature_planeswalker_or_an_opponent(game, board):
    from horde.cards.catalogue import parse_effect
    effect = parse_effect("Cast", "damage amount=1 target=any", "test", 1, "Test")[0]
    options = rules.legal_targets(game, Context(None, None, 0), effect)
    assert [o.card.name if hasattr(o, "card") else o for o in options] == [
        "Serra Angel", "Llanowar Elves", "Zombie", "Walking Corpse", "Mikaeus, the Unhallowed", "horde"]


# ---------------------------------------------------------------- every part of the vocabulary has its test


def vocabulary() -> dict[str, list[str]]:
    """Every verb, keyword, filter term and amount kind, each as the word its test's name holds
    after ``test_verb_``, ``test_keyword_``, ``test_filter_`` or ``test_amount_``."""
    from horde.engine.cards import KEYWORDS
    from horde.engine.filters import (
        AMOUNT_ALIASES,
        AMOUNT_ATOMS,
        AMOUNT_KINDS,
        COLOUR_TERMS,
        STATE_TERMS,
        TYPE_TERMS,
    )
    from horde.engine.vocabulary import VERBS

    def slug(word: str) -> str:
        return word.lower().replace(" ", "_").replace("'", "").replace("-", "_").replace(":", "_")

    terms = (set(TYPE_TERMS) | set(COLOUR_TERMS) | STATE_TERMS
             | {"permanent", "colorless", "multicolored", "monocolored", "theirs", "enchanted", "player", "opponent",
                "non", "with", "without", "mv", "power", "toughness", "or", "subtype", "basic"})
    return {
        "verb": sorted(VERBS),
        "keyword": sorted(slug(k) for k in KEYWORDS),
        "filter": sorted(slug(t) for t in terms),
        "amount": sorted({slug(a) for a in AMOUNT_ATOMS} | set(AMOUNT_KINDS) | {"half", "named", "factor"}
                         | ({"named"} if AMOUNT_ALIASES else set())),
    }


def named_tests() -> set[str]:
    import ast
    from pathlib import Path

    names = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_every_verb_keyword_filter_term_and_amount_is_named_by_a_test():
    """A test whose name is ``test_KIND_WORD`` or starts ``test_KIND_WORD_`` exercises WORD (the
    longest word that fits: ``test_verb_damage_all_...`` names damage_all, not damage)."""
    names = named_tests()
    missing = []
    for kind, words in vocabulary().items():
        prefix = f"test_{kind}_"
        covered = set()
        for name in names:
            if name.startswith(prefix):
                rest = name[len(prefix):]
                fits = [w for w in words if rest == w or rest.startswith(w + "_")]
                if fits:
                    covered.add(max(fits, key=len))
        missing += [f"{kind} {w}" for w in words if w not in covered]
    assert missing == [], f"no test named after: {', '.join(missing)}"


def test_filter_with_an_anthem_that_asks_for_a_keyword_decides_without_anthems_613(game, bundled):
    """Hand of the Praetors: 'other creatures you control with infect get +1/+1'. Asking whether a
    Zombie has infect while its bonus is worked out is answered without anthems (613.8), not in a
    loop: the Zombie gets nothing, a creature with printed infect +1/+1."""
    put(game, bundled, "Hand of the Praetors")
    zombie = put(game, bundled, "Zombie")
    stinger = put(game, bundled, "Plague Stinger")
    assert (rules.power(game, zombie), rules.toughness(game, zombie)) == (2, 2)
    assert not rules.has_keyword(game, zombie, "infect")
    assert (rules.power(game, stinger), rules.toughness(game, stinger)) == (2, 2)


def test_verb_counters_minus_a_creature_dies_when_its_pump_ends_in_cleanup_514_3a(game, bundled):
    """A 2/2 pumped to 4/4 until end of turn takes two -1/-1 counters (2/2); in the cleanup step
    the +2/+2 ends and it is a 0/0: state-based actions in cleanup put it into the graveyard."""
    from horde.engine import turns

    corpse = put(game, bundled, "Walking Corpse", side="team")
    rules.pump(game, corpse, 2, 2)
    rules.add_counters(game, corpse, 2, "minus")
    assert rules.toughness(game, corpse) == 2
    turns.end_step(game)
    assert not rules.on_battlefield(game, corpse)
