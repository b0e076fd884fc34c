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
    from horde import turns
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
    from horde import turns
    bear = put(game, bundled, "Walking Corpse", side="team")
    bear.temp_keywords = frozenset({"protection from artifacts"})
    put(game, bundled, "Bonesplitter", side="team")
    put(game, bundled, "Plains", side="team")
    seen = []
    game.drivers.policy = Scripted(equip=lambda d: seen.append(d.options) or None)
    turns.equip_step(game, 0)
    assert seen == []  # 702.16d: no legal creature to equip


def test_keyword_protection_from_creatures_and_from_everything(game, bundled):
    bear = put(game, bundled, "Walking Corpse", side="team")
    zombie = put(game, bundled, "Zombie")
    bear.temp_keywords = frozenset({"protection from creatures"})
    assert not rules.can_block(game, zombie, bear) and rules.damage_permanent(game, zombie, HORDE, bear, 2) == 0
    bolt = bundled.get("Lightning Bolt")
    assert rules.damage_permanent(game, None, 0, bear, 1, source_card=bolt) == 1
    bear.temp_keywords = frozenset({"protection from everything"})
    assert rules.damage_permanent(game, None, 0, bear, 1, source_card=bolt) == 0


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
    from horde import turns
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
    zombie.temp_keywords = frozenset({"protection from white"})
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
    from horde import turns
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
    from horde import turns
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
    from horde import turns
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


def test_hook_opponentupkeep_runs_for_each_opponent_only(game, bundled):
    from horde import turns
    put(game, bundled, "Sheoldred, Whispering One")
    for player in range(4):
        put(game, bundled, "Walking Corpse", side="team", player=player)
    turns.upkeep(game, [pl.index for pl in game.players], game.battlefield.team)
    assert not [p for p in game.battlefield.team if p.card.is_creature]
    corpse = put(game, bundled, "Walking Corpse")
    turns.upkeep(game, [HORDE], [])  # the Horde's own upkeep: no sacrifice
    assert rules.on_battlefield(game, corpse)


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
