"""Activated abilities a team player uses whenever it may (602.2): in its second main phase, at
the beginning of its combat and after blocks in either combat, as often as it pays, within the
limits the card prints (602.5b); and the fights the team reads to choose a combat trick."""

from __future__ import annotations

import pytest
from conftest import Scripted, put

from horde.cards.catalogue import build_from_lines
from horde.engine import rules, turns
from horde.engine.state import HORDE_CONTROLLER, Side
from horde.errors import DeckError
from horde.team import tricks
from horde.team.policies import BaselinePolicy, TeamView


def card(name, pt, *lines, cost="{1}{R}", types="Creature — Dragon"):
    return build_from_lines([f"Name: {name}", f"Cost: {cost}", f"Type: {types}", f"PT: {pt}", *lines], "test")


FIREBREATHER = card("Test Firebreather", "2/2", "Activated: {R} -> pump on=self power=1")
ONCE = card("Test Once Breather", "2/2", "Activated: {R} (once each turn) -> pump on=self power=1")
SORCERY = card("Test Slow Breather", "2/2", "Activated: {R} (as a sorcery) -> pump on=self power=1")
MATRON = card("Test Matron", "2/2", "Activated: {W}, {T} -> pump on=self toughness=3", cost="{2}{W}",
              types="Creature — Human Cleric")
ARCHER = card("Test Archer", "1/1", 'Activated: {T} -> damage amount=2 target="creature attacking | creature blocking"',
              cost="{1}{W}", types="Creature — Human Archer")
BRUTE = card("Test Brute", "3/3", cost="{2}{B}", types="Creature — Zombie")


def place(game, card_def, controller=0, **state):
    p = rules.put_onto_battlefield(game, card_def, controller, controller, triggers=False)
    p.sick = False
    p.tapped = False
    for key, value in state.items():
        setattr(p, key, value)
    return p


def lands(game, catalogue, name, n):
    return [put(game, catalogue, name, side="team") for _ in range(n)]


def attacking_game(make_game, catalogue, creature, mountains=3):
    game = make_game(players=1, policy=BaselinePolicy())
    game.horde.library[:] = [catalogue.get("Zombie")] * 20
    game.horde.deck_size = 20
    place(game, creature)
    lands(game, catalogue, "Mountain", mountains)
    return game


def test_602_2_a_pump_is_activated_after_blocks_as_often_as_paid(make_game, catalogue):
    """A 2/2 with '{R}: +1/+0 until end of turn' attacks alone past no blocker, three Mountains
    untapped: after the Horde's blocks it is pumped three times and its 5 damage mills 5 (H11)."""
    game = attacking_game(make_game, catalogue, FIREBREATHER)
    turns.team_combat(game)
    assert len(game.horde.library) == 15
    assert all(p.tapped for p in game.battlefield.team if p.card.is_land)


def test_602_5b_once_each_turn_holds_across_the_windows(make_game, catalogue):
    """'Activate only once each turn': one pump (4 cards milled, not 5), and none again in the
    second main phase of the same turn; the next turn it may again."""
    game = attacking_game(make_game, catalogue, ONCE)
    turns.team_combat(game)
    assert len(game.horde.library) == 17
    creature = next(p for p in game.battlefield.team if p.card is ONCE)
    ability = ONCE.abilities("Activated")[0]
    assert not turns.may_activate(game, creature, ability, "second_main")
    game.turn += 1
    assert turns.may_activate(game, creature, ability, "blocked")


def test_602_5b_as_a_sorcery_only_in_the_main_phase(make_game, catalogue):
    """'Activate only as a sorcery': not offered in combat (2 milled), only in a main phase."""
    game = attacking_game(make_game, catalogue, SORCERY)
    policy = Scripted()
    game.drivers.policy = policy
    turns.team_combat(game)
    assert len(game.horde.library) == 18
    assert not [d for d in policy.seen if d.kind == "activate"]
    creature = next(p for p in game.battlefield.team if p.card is SORCERY)
    for moment, allowed in (("first_main", True), ("second_main", True), ("attack", False), ("blocked", False)):
        assert turns.may_activate(game, creature, SORCERY.abilities("Activated")[0], moment) is allowed


def test_602_2_a_blocker_is_saved_after_blocks_in_the_hordes_combat(make_game, catalogue):
    """A 3/3 Horde attacker blocked by a 2/2 with '{W}, {T}: +0/+3 until end of turn': with a
    Plains untapped the team makes it 2/5 after blocks; it survives with 3 damage and the 3/3
    with 2. With no mana it dies."""
    for plains, survives in ((1, True), (0, False)):
        game = make_game(players=1, policy=BaselinePolicy())
        game.active = Side.HORDE
        attacker = place(game, BRUTE, HORDE_CONTROLLER)
        blocker = place(game, MATRON)
        lands(game, catalogue, "Plains", plains)
        attacker.attacking, attacker.blocked, attacker.blockers = True, True, [blocker]
        blocker.blocked = True
        turns.activation_window(game, "blocks")
        rules.combat_damage(game, [attacker], defender_is_horde=False)
        rules.check_state(game)
        assert rules.on_battlefield(game, blocker) is survives
        assert rules.on_battlefield(game, attacker) and attacker.damage == 2


def test_602_2_an_archer_shoots_the_unblocked_attacker(make_game, catalogue):
    """'{T}: 2 damage to target attacking or blocking creature', two unblocked Horde attackers,
    a 2/2 and a 3/3: the archer kills the 2/2 (the 3/3 would survive 2 damage) before damage."""
    game = make_game(players=1, policy=BaselinePolicy())
    game.active = Side.HORDE
    small = put(game, catalogue, "Zombie")
    big = place(game, BRUTE, HORDE_CONTROLLER)
    for a in (small, big):
        a.attacking = True
    place(game, ARCHER)
    turns.activation_window(game, "blocks")
    rules.check_state(game)
    assert not rules.on_battlefield(game, small) and rules.on_battlefield(game, big)


def test_602_5b_an_unknown_limit_is_refused_with_the_line():
    with pytest.raises(DeckError) as error:
        card("Test Bad Limit", "1/1", "Activated: {R} (twice each turn) -> pump on=self power=1")
    assert "activation limit '(twice each turn)'" in error.value.message
    assert "once each turn, as a sorcery, during your turn" in error.value.message


def test_510_the_fights_the_team_reads(make_game, catalogue):
    """First strike kills a 2/2 attacker before it deals damage; a deathtouch 1/1 trades with a
    5/5; a trampling 5/5 blocked by a 2/2 deals 3 to the player; a +0/+3 bonus saves a 2/2."""
    game = make_game(players=1)
    view = TeamView(game)
    first = place(game, card("Test Fencer", "2/2", "Keywords: first strike"))
    bear = place(game, card("Test Bear", "2/2"), HORDE_CONTROLLER)
    assert tricks.fight(view, bear, [first], True, {}) == (True, [], 0)
    touch = place(game, card("Test Asp", "1/1", "Keywords: deathtouch"))
    giant = place(game, card("Test Giant", "5/5", "Keywords: trample"), HORDE_CONTROLLER)
    assert tricks.fight(view, giant, [touch], True, {}) == (True, [touch], 4)
    wall = place(game, card("Test Wall", "2/2"))
    assert tricks.fight(view, giant, [wall], True, {}) == (False, [wall], 3)
    plain = place(game, card("Test Ox", "3/3"), HORDE_CONTROLLER)
    assert tricks.fight(view, plain, [wall], True, {}) == (False, [wall], 0)
    assert tricks.fight(view, plain, [wall], True, {id(wall): (0, 3, frozenset())}) == (False, [], 0)


PASSAGE = build_from_lines(["Name: Test Passage", "Type: Land", "Mana: C",
                            "Activated: {4}, {T} -> pump on=target target=creature keywords=unblockable"], "test")
VILLAGE = build_from_lines(["Name: Test Village", "Type: Land", "Mana: R",
                            "Activated: {R}, {T} -> pump on=target target=creature keywords=haste"], "test")


def test_602_2_before_attackers_an_evasion_goes_on_the_creature_it_lets_past(make_game, catalogue):
    """An untapped Horde 2/2 could block: at the beginning of combat 'target creature can't be
    blocked this turn' goes on the team's 4/4 (not its 1/1); with no untapped Horde creature it
    is kept."""
    for blocker, used in ((True, True), (False, False)):
        game = make_game(players=1, policy=BaselinePolicy())
        game.horde.library[:] = [catalogue.get("Zombie")] * 20
        if blocker:
            put(game, catalogue, "Zombie")
        big = place(game, card("Test Ogre", "4/4"))
        place(game, card("Test Goblin", "1/1"))
        place(game, PASSAGE)
        lands(game, catalogue, "Mountain", 4)
        turns.activation_window(game, "attack")
        assert ("unblockable" in big.temp_keywords) is used


def test_702_10_haste_goes_on_a_creature_that_arrived_this_turn(make_game, catalogue):
    """'{R}, {T}: target creature gains haste until end of turn' at the beginning of combat: on
    the summoning-sick 3/3 (the ready 2/2 can attack already), which then may attack."""
    game = make_game(players=1, policy=BaselinePolicy())
    game.horde.library[:] = [catalogue.get("Zombie")] * 20
    place(game, card("Test Bear", "2/2"))
    new = place(game, card("Test Fresh", "3/3"), sick=True)
    place(game, VILLAGE)
    lands(game, catalogue, "Mountain", 1)
    assert not turns.can_attack(game, new)
    turns.activation_window(game, "attack")
    assert "haste" in new.temp_keywords and turns.can_attack(game, new)


MENACE = card("Test Necrolisk", "2/2", "Activated: {B} (as a sorcery) -> pump on=self keywords=menace",
              cost="{3}{B}", types="Creature — Zombie")


def test_602_5b_a_sorcery_speed_evasion_is_used_in_the_first_main_phase(make_game, catalogue):
    """'{B}: gains menace until end of turn. Activate only as a sorcery' with one untapped Horde
    blocker: activated in the first main phase, before combat (after it, it would do nothing)."""
    game = make_game(players=1, policy=BaselinePolicy())
    game.horde.library[:] = [catalogue.get("Zombie")] * 20
    put(game, catalogue, "Zombie")
    necrolisk = place(game, MENACE)
    lands(game, catalogue, "Swamp", 1)
    turns.activate_step(game, 0, "first_main")
    assert "menace" in necrolisk.temp_keywords


GLIDER = card("Test Glider", "2/3", "Activated: {R} -> pump on=self keywords=flying", cost="{2}{R}",
              types="Creature — Kavu")
DRAKE = card("Test Drake", "3/2", "Keywords: flying", cost="{2}{B}", types="Creature — Zombie Drake")


def test_702_9b_flying_to_block_a_flier_when_the_horde_attacks(make_game, catalogue):
    """A flying 3/2 Horde attacker no team creature can block: after attackers are declared the
    team's '{R}: gains flying until end of turn' 2/3 flies, then may block it."""
    game = make_game(players=1, policy=BaselinePolicy())
    game.active = Side.HORDE
    drake = place(game, DRAKE, HORDE_CONTROLLER)
    drake.attacking = True
    glider = place(game, GLIDER)
    lands(game, catalogue, "Mountain", 1)
    view = TeamView(game)
    assert not view.can_block(glider, drake)
    turns.activation_window(game, "horde_attacks")
    assert "flying" in glider.temp_keywords and view.can_block(glider, drake)


ELDERHALL = build_from_lines(["Name: Test Elderhall", "Type: Land", "Mana: G",
                              'Activated: {2}, {T} (as a sorcery) -> pump on=target target="creature opponents" '
                              'power=-2 toughness=-2 may=true ; create_tokens token=Zombie count=2'], "test")


def test_601_2c_up_to_one_target_may_be_activated_with_none(make_game, catalogue):
    """'Up to one target creature you don't control gets -2/-2 ... Create two tokens' (an optional
    target: zero may be chosen, 601.2c) is activated with no Horde creature on the battlefield;
    a required target is not."""
    game = make_game(players=1)
    hall = place(game, ELDERHALL)
    archer = place(game, ARCHER)
    assert turns.may_activate(game, hall, ELDERHALL.abilities("Activated")[0], "second_main")
    assert not turns.may_activate(game, archer, ARCHER.abilities("Activated")[0], "blocks")


MURDER = build_from_lines(["Name: Test Murder", "Cost: {B}", "Type: Instant", "Cast: destroy target=creature"], "test")
CONTRABAND = build_from_lines(["Name: Test Contraband", "Cost: {W}", "Type: Instant", "Choose: one or more",
                               'Mode: exile target="artifact opponents"', 'Mode: exile target="enchantment opponents"'],
                              "test")


def test_601_2c_a_spell_that_targets_is_cast_only_with_a_legal_target(make_game, catalogue):
    """An outside reading saw Crush Contraband cast with nothing to exile: a targeted instant is
    castable only with a legal target (a creature, the team's own too, for Murder), a modal one
    only with a mode that can be carried out."""
    game = make_game(players=1)
    lands(game, catalogue, "Plains", 1)
    lands(game, catalogue, "Swamp", 1)
    game.players[0].hand[:] = [MURDER, CONTRABAND]
    game.players[0].command.clear()
    assert rules.castable(game, 0) == []
    put(game, catalogue, "Grizzly Bears", side="team")
    assert rules.castable(game, 0) == [(MURDER, "hand")]
    put(game, catalogue, "Bad Moon")
    assert rules.castable(game, 0) == [(MURDER, "hand"), (CONTRABAND, "hand")]


DICTATE = build_from_lines(["Name: Test Dictate", "Cost: {1}{U}{U}", "Type: Enchantment",
                            "EachDrawStep: draw who=that_player count=1"], "test")


def test_H4_each_players_draw_step_draws_each_team_player_an_additional_card(make_game, catalogue):
    """'At the beginning of each player's draw step, that player draws an additional card'
    (Dictate of Kruphix) on a team player's side: on the team's second turn each of its two players
    draws two (504.1, then the trigger); on its first none (the skipped draw step); the Horde has
    no draw step (H4)."""
    game = make_game(players=2)
    game.horde.library[:] = [catalogue.get("Zombie")] * 10  # H12: a Horde with no library has lost
    place(game, DICTATE)
    for player in game.players:
        player.library[:] = [catalogue.get("Forest")] * 5
        player.hand.clear()
    game.turn = 1
    turns.team_draw(game)
    assert [len(p.hand) for p in game.players] == [0, 0]
    game.turn = 5
    turns.team_draw(game)
    assert [len(p.hand) for p in game.players] == [2, 2]


def test_602_2_a_land_tapped_for_its_own_ability_pays_none_of_its_mana(make_game, catalogue):
    """'{4}, {T}: target creature can't be blocked this turn' on a land that taps for {C}: with
    three other lands it can't be paid (its own {C} can't pay: {T} is paid with it); with four it
    can, and nothing floats after."""
    for others, payable in ((3, False), (4, True)):
        game = make_game(players=1)
        passage = place(game, PASSAGE)
        ogre = place(game, card("Test Ogre", "4/4"))
        lands(game, catalogue, "Mountain", others)
        ability = PASSAGE.abilities("Activated")[0]
        assert turns._can_pay_activation(game, passage, ability) is payable
        if payable:
            game.drivers.policy = Scripted(activate=lambda d: next(o for o in d.options if o is not None),
                                           target=ogre)
            turns.activate_step(game, 0, "attack")
            assert "unblockable" in ogre.temp_keywords and passage.tapped and game.players[0].pool == []
