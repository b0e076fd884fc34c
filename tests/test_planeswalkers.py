"""Team planeswalkers and the original article's planeswalker rule (RULES.md H8, H8p; 306.5b,
606, 120.3c, 704.5i): loyalty on entering, loyalty abilities, attacks at planeswalkers, damage
removing loyalty, and the state-based action, on small boards of bundled cards with exact values."""

from __future__ import annotations

import random

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.catalogue import build_card, load_catalogue, read_blocks
from horde.cards.decks import load_team_deck
from horde.engine import rules, schemes, turns
from horde.engine.events import problems
from horde.engine.filters import Context
from horde.errors import DeckError
from horde.play import new_game, play_game, prepare
from horde.setup import make_setup


@pytest.fixture(scope="module")
def bundled():
    return load_catalogue()


def game_of(bundled, players=2, policy=None, **knobs):
    g = new_game(prepare(make_setup("knudson-2011", players=players, **knobs), bundled), 0, policy or Scripted())
    g.horde.library[:] = [bundled.get("Zombie")] * 30
    g.turn = 4
    return g


def walker(game, bundled, name, player=0, loyalty=None):
    p = put(game, bundled, name, side="team", player=player)
    if loyalty is not None:
        p.loyalty = loyalty
    return p


# ---------------------------------------------------------------- loyalty (306.5b, 606, 704.5i)


def test_306_5b_a_team_planeswalker_enters_with_its_printed_loyalty(bundled):
    game = game_of(bundled)
    jace = walker(game, bundled, "Jace Beleren")
    assert jace.loyalty == 3 and game.battlefield.planeswalkers == [jace]


def test_606_plus_ability_adds_loyalty_once_a_turn_at_sorcery_speed(bundled):
    game = game_of(bundled, policy=Scripted(loyalty=lambda d: next(o for o in d.options if o and o[1][0].cost == 2)))
    jace = walker(game, bundled, "Jace Beleren")
    hands = [len(pl.hand) for pl in game.players]
    turns.loyalty_step(game, 0)
    assert jace.loyalty == 5  # +2
    assert [len(pl.hand) for pl in game.players] == [h + 1 for h in hands]  # each player draws; the Horde none (H4)
    assert turns.loyalty_options(game, 0) == []  # 606.3: once a turn
    game.turn += 2
    assert len(turns.loyalty_options(game, 0)) == 2  # +2 and -1; -10 needs ten loyalty (606.6)


def test_606_minus_ability_needs_enough_loyalty_and_704_5i_puts_it_into_the_graveyard(bundled):
    game = game_of(bundled, policy=Scripted(loyalty=lambda d: next(o for o in d.options if o and o[1][0].cost == -10),
                                            target="horde"))
    jace = walker(game, bundled, "Jace Beleren", loyalty=9)
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [2, -1]
    jace.loyalty = 10
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [2, -1, -10]
    turns.loyalty_step(game, 0)
    assert len(game.horde.library) == 10 and len(game.horde.graveyard) == 20  # target player (the Horde) mills 20
    assert jace not in game.battlefield.team and game.battlefield.planeswalkers == []
    assert [c.name for c in game.players[0].graveyard] == ["Jace Beleren"]  # 704.5i: no loyalty left


def test_606_a_targeted_loyalty_ability_needs_a_legal_target(bundled):
    game = game_of(bundled)
    walker(game, bundled, "Liliana, Death Mage")
    # +1 returns a creature card from the graveyard (no target); -3 destroys target creature: none there.
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [1]
    put(game, bundled, "Zombie")
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [1, -3]


def test_606_the_baseline_policy_plays_plus_when_safe_and_cashes_in_a_threatened_planeswalker(bundled):
    game = game_of(bundled, players=1)
    elspeth = walker(game, bundled, "Elspeth, Sun's Champion")
    turns.loyalty_step(game, 0)
    assert elspeth.loyalty == 5 and len(game.battlefield.team) == 4  # +1: three Soldiers
    game.turn += 2
    giants = [put(game, bundled, "Zombie Giant") for _ in range(2)]
    # H8 random: the next attack sends 10 power / (1 player + 1 planeswalker) = 5 >= 5 + 1 at her.
    turns.loyalty_step(game, 0)
    assert elspeth.loyalty == 2 and not any(g in game.battlefield.horde for g in giants)  # -3: power 4 or greater


# ---------------------------------------------------------------- H8: attacks at planeswalkers


def zombies(game, bundled, n):
    return [put(game, bundled, "Zombie") for _ in range(n)]


def test_H8_with_no_team_planeswalker_each_attacker_draws_a_player_exactly_as_before(bundled):
    game = game_of(bundled, players=4, policy=Scripted(blocks=[]))
    game.horde_rng = random.Random(7)
    expected = random.Random(7)
    attackers = zombies(game, bundled, 12)
    game.drivers.trace = []
    turns.horde_combat(game, set())
    seen = [e["target_player"] for e in game.drivers.trace if e["event"] == "attack"]
    assert seen == [expected.randrange(4) + 1 for _ in attackers]


def test_H8_random_attack_target_among_the_team_players_and_planeswalkers(bundled):
    """The original article's rule: each attacker uniformly among 2 players and 1 planeswalker."""
    game = game_of(bundled, players=2, policy=Scripted(blocks=[]))
    jace = walker(game, bundled, "Jace Beleren", player=1, loyalty=100)
    game.horde_rng = random.Random(3)
    expected = random.Random(3)
    attackers = zombies(game, bundled, 30)
    game.drivers.trace = []
    turns.horde_combat(game, set())
    draws = [expected.randrange(3) for _ in attackers]
    attacks = [e for e in game.drivers.trace if e["event"] == "attack"]
    assert [e["target_id"] for e in attacks] == [jace.id if k == 2 else None for k in draws]
    assert [e["target_player"] for e in attacks] == [None if k == 2 else k + 1 for k in draws]
    at_jace = draws.count(2)
    assert jace.loyalty == 100 - 2 * at_jace  # 120.3c: each unblocked Zombie removes 2 loyalty
    assert game.team_life == 40 - 2 * (30 - at_jace)


def test_H8p_players_option_never_attacks_a_planeswalker(bundled):
    game = game_of(bundled, players=2, policy=Scripted(blocks=[]), horde_attacks="players")
    jace = walker(game, bundled, "Jace Beleren")
    game.horde_rng = random.Random(3)
    expected = random.Random(3)
    zombies(game, bundled, 6)
    turns.horde_combat(game, set())
    for _ in range(6):
        expected.randrange(2)  # one draw among the two players per attacker
    assert jace.loyalty == 3 and game.team_life == 40 - 12
    assert game.horde_rng.getstate() == expected.getstate()


def test_H8p_planeswalkers_first_covers_each_loyalty_then_attacks_the_players(bundled):
    game = game_of(bundled, players=1, policy=Scripted(blocks=[]), horde_attacks="planeswalkers")
    jace = walker(game, bundled, "Jace Beleren")  # loyalty 3: two Zombies (4 power) cover it
    zombies(game, bundled, 4)
    game.drivers.trace = []
    turns.horde_combat(game, set())
    attacks = [e["target_id"] for e in game.drivers.trace if e["event"] == "attack"]
    assert attacks == [jace.id, jace.id, None, None]
    assert jace not in game.battlefield.team  # 704.5i
    assert game.team_life == 20 - 4  # the other two Zombies attacked the player


def test_H8p_planeswalkers_first_attacks_the_players_when_that_wins(bundled):
    game = game_of(bundled, players=1, policy=Scripted(blocks=[]), horde_attacks="planeswalkers")
    jace = walker(game, bundled, "Jace Beleren")
    game.team_life = 8
    zombies(game, bundled, 4)
    turns.horde_combat(game, set())
    assert jace.loyalty == 3 and game.team_life == 0


def test_H8_a_blocked_attacker_aimed_at_a_planeswalker_deals_it_no_damage(bundled):
    game = game_of(bundled, players=1, policy=Scripted(blocks=lambda d: list(d.options)),
                   horde_attacks="planeswalkers")
    elspeth = walker(game, bundled, "Elspeth Tirel", loyalty=10)
    put(game, bundled, "White Knight", side="team")  # 2/2 first strike blocks the Zombie
    zombie = put(game, bundled, "Zombie")
    turns.horde_combat(game, set())
    assert not rules.on_battlefield(game, zombie) and elspeth.loyalty == 10 and game.team_life == 20


def test_H8_the_baseline_blocks_an_attacker_aimed_at_a_planeswalker_when_it_survives(bundled):
    game = game_of(bundled, players=1, horde_attacks="planeswalkers")
    jace = walker(game, bundled, "Jace Beleren", loyalty=10)
    wall = put(game, bundled, "Wall of Omens", side="team")  # 0/4
    put(game, bundled, "Zombie")
    turns.horde_combat(game, set())
    assert rules.on_battlefield(game, wall) and jace.loyalty == 10 and game.team_life == 20


def test_H8_the_baseline_chumps_with_a_token_only_when_the_planeswalker_would_die(bundled):
    for loyalty, expected in ((3, 3), (2, 2)):
        game = game_of(bundled, players=1, horde_attacks="planeswalkers")
        jace = walker(game, bundled, "Jace Beleren", loyalty=loyalty)
        soldier = rules.put_onto_battlefield(game, bundled.tokens["Soldier"], 0, 0, created=True, triggers=False)
        soldier.sick = False
        put(game, bundled, "Zombie")
        turns.horde_combat(game, set())
        if loyalty == 3:
            assert jace.loyalty == 1 and rules.on_battlefield(game, soldier)  # 2 damage leaves it alive: no chump
        else:
            assert jace.loyalty == expected and not rules.on_battlefield(game, soldier)  # the token chumps


def test_H8_horde_target_player_or_planeswalker_offers_both(bundled):
    """'Target player or planeswalker' (player | planeswalker): each team player, the Horde (H9)
    and the team's planeswalkers."""
    from horde.cards.catalogue import parse_effect

    game = game_of(bundled, players=2)
    jace = walker(game, bundled, "Jace Beleren")
    (effect,) = parse_effect("Cast", 'damage amount=1 target="player | planeswalker"', "test", 1, "Shock")
    options = rules.legal_targets(game, Context(None, None, HORDE), effect)
    assert options == [jace, 0, 1, "horde"]


# ---------------------------------------------------------------- cards and decks


def test_C1_planeswalkers_load_in_a_team_deck(bundled):
    deck = load_team_deck("superfriends", bundled)
    assert sorted(c.name for c in deck.cards if c.is_planeswalker) == [
        "Elspeth Tirel", "Elspeth, Knight-Errant", "Elspeth, Sun's Champion", "Nissa, Voice of Zendikar"]


def test_C1_a_loyalty_ability_with_x_is_refused_with_a_clear_message():
    text = ("Name: Chandra Nalaar\nCost: {3}{R}{R}\nType: Legendary Planeswalker — Chandra\nLoyalty: 6\n"
            "Plus: +1: damage amount=1 target=\"player | planeswalker\"\nMinus: -X: damage amount=X target=creature\n")
    with pytest.raises(DeckError, match=r"walkers.txt:6: .*X in its cost.*beyond the vocabulary"):
        build_card(read_blocks(text, "walkers.txt")[0])


def test_H8_superfriends_games_trace_loyalty_abilities_and_attacks_at_planeswalkers():
    setup = make_setup("zombie-horde", players=2, team_decks=("superfriends", "ramp"))
    events = [e for seed in range(6) for e in play_game(setup, seed, trace=True).events]
    kinds = {e["event"] for e in events}
    assert {"loyalty_ability", "planeswalker_dies"} <= kinds
    assert any(e["event"] == "attack" and e["side"] == "horde" and e["target_id"] is not None for e in events)
    assert sorted({p for e in events for p in problems(e)}) == []


# ---------------------------------------------------------------- with the variants (A, Z)


def test_H8_Z4_attacks_choose_among_the_players_still_in_the_game_zombies_and_planeswalkers(bundled):
    """Z4 and H8 together: a removed player is no target and its planeswalker left with it; a
    zombie (Z1) is still in the game and keeps its planeswalker, both attackable."""
    game = game_of(bundled, players=3, policy=Scripted(blocks=[]), life="individual")
    game.drivers.trace = []
    gone = walker(game, bundled, "Nissa, Voice of Zendikar", player=1)
    jace = walker(game, bundled, "Jace Beleren", player=2, loyalty=100)
    rules.damage_player(game, put(game, bundled, "Zombie", tapped=True), HORDE, 2, 20)  # Z1: player 3 falls
    game.players[1].drew_from_empty = True
    rules.check_state(game)  # Z4: player 2 leaves, with what it owns
    assert [(p.removed, p.zombie) for p in game.players] == [(False, False), (True, False), (False, True)]
    assert game.battlefield.planeswalkers == [jace] and not rules.on_battlefield(game, gone)
    game.horde_rng = random.Random(5)
    expected = random.Random(5)
    attackers = zombies(game, bundled, 9)
    turns.horde_combat(game, set())
    draws = [expected.randrange(3) for _ in attackers]  # player 1, player 3 (a zombie) and Jace
    attacks = [e for e in game.drivers.trace if e["event"] == "attack"]
    assert [(e["target_player"], e["target_id"]) for e in attacks] == \
        [((1, None), (3, None), (None, jace.id))[k] for k in draws]
    assert jace.loyalty == 100 - 2 * draws.count(2)
    assert (game.players[0].life, game.players[2].life) == (20 - 2 * draws.count(0), 20 - 2 * draws.count(1))


def test_120_3c_Z1_damage_to_a_planeswalker_never_makes_a_zombie(bundled):
    """With a life for each player, damage to a planeswalker removes loyalty and nothing else:
    its controller at 1 life stays living, whatever the attack or the spell dealt."""
    game = game_of(bundled, players=2, policy=Scripted(blocks=[]), life="individual", horde_attacks="planeswalkers")
    game.drivers.trace = []
    game.players[0].life, game.team_life = 1, 21
    jace = walker(game, bundled, "Jace Beleren", player=0)
    put(game, bundled, "Zombie")
    turns.horde_combat(game, set())  # 2 power: no win at the players (21 life), so at Jace (H8p)
    assert jace.loyalty == 1 and (game.players[0].life, game.players[0].zombie) == (1, False)
    rules.damage_permanent(game, None, HORDE, jace, 5)
    rules.check_state(game)
    assert not rules.on_battlefield(game, jace) and (game.players[0].life, game.players[0].zombie) == (1, False)
    assert not any(e["event"] == "player_falls" for e in game.drivers.trace) and not game.over()


def test_H8p_Z5_planeswalkers_first_attacks_the_players_when_the_living_non_zombies_would_fall(bundled):
    """H8p with a life for each player: the attack wins when it can bring every living non-zombie
    to 0 (Z5); a zombie's life counts for nothing there (it would only fall again)."""
    game = game_of(bundled, players=2, policy=Scripted(blocks=[]), life="individual", horde_attacks="planeswalkers")
    game.drivers.trace = []
    rules.damage_player(game, put(game, bundled, "Zombie", tapped=True), HORDE, 1, 20)  # player 2: a zombie at 20
    game.players[0].life, game.team_life = 3, 23
    jace = walker(game, bundled, "Jace Beleren", player=0)
    assert turns.lethal_life(game) == 3
    zombies(game, bundled, 2)  # 4 power >= 3: at the players, not at Jace
    turns.horde_combat(game, set())
    assert jace.loyalty == 3
    assert [e["target_id"] for e in game.drivers.trace if e["event"] == "attack"] == [None, None]


def test_606_Z3_a_zombies_planeswalker_stays_its_own_with_the_limits_of_its_spells(bundled):
    """Decision (docs/decisions.md): a zombie keeps its planeswalkers and activates their loyalty
    abilities, with Z3's limits: none that targets while the Horde is its master, none that would
    make itself or its master lose life."""
    lines = ["Name: Test Walker", "Cost: {2}{B}", "Type: Legendary Planeswalker — Test", "Loyalty: 3",
             "Plus: +1: lose_life who=each_player amount=1", "Minus: -1: lose_life who=each_opponent amount=2"]
    bleeder = build_card(read_blocks("\n".join(lines) + "\n", "t.txt")[0])
    game = game_of(bundled, players=3, life="individual")
    jace = walker(game, bundled, "Jace Beleren", player=0)
    rules.damage_player(game, put(game, bundled, "Zombie", tapped=True), HORDE, 0, 20)  # Z2: the Horde's zombie
    assert game.players[0].zombie and jace.controller == 0
    assert [a[0].cost for _, a in turns.loyalty_options(game, 0)] == [2]  # -1 targets a player
    rules.put_onto_battlefield(game, bleeder, 0, 0, triggers=False)
    assert [(p.card.name, a[0].cost) for p, a in turns.loyalty_options(game, 0)] == \
        [("Jace Beleren", 2), ("Test Walker", -1)]  # +1 would make itself lose life
    rules.damage_player(game, put(game, bundled, "White Knight", side="team", player=2), 2, 1, 20)
    assert game.players[1].master == 2
    rules.put_onto_battlefield(game, bleeder, 1, 1, triggers=False)
    rules.put_onto_battlefield(game, bundled.get("Jace Beleren"), 1, 1, triggers=False)
    assert [(p.card.name, a[0].cost) for p, a in turns.loyalty_options(game, 1)] == \
        [("Test Walker", -1), ("Jace Beleren", 2), ("Jace Beleren", -1)]  # a teammate master: it may target


def test_H8_A1_which_of_you_burns_brightest_may_target_a_planeswalker(bundled):
    """Which of You Burns Brightest? ('target opponent or planeswalker'): the Horde's targets are
    the team's planeswalkers and players (H9); a planeswalker is dealt X (3) and so is each
    creature its controller controls, and no player is."""
    setup = make_setup("archenemy-horde", players=2, boss="none", lieutenants=False)
    game = new_game(prepare(setup), 0, Scripted())
    game.horde.library.clear()
    game.schemes.deck = [bundled.get("Which of You Burns Brightest?")]
    jace = walker(game, bundled, "Jace Beleren", player=1, loyalty=5)
    soldier = put(game, bundled, "Soldier", side="team", player=1)
    other = put(game, bundled, "Soldier", side="team", player=0)
    scheme = game.schemes.deck[0]
    (effect,) = scheme.hooks["SetInMotion"]
    assert rules.legal_targets(game, Context(scheme, None, HORDE), effect) == [jace, 0, 1]
    game.drivers.horde_choice = lambda game, kind, options, card: options[0]
    schemes.set_in_motion(game)
    assert jace.loyalty == 2 and game.team_life == 40
    assert not rules.on_battlefield(game, soldier) and rules.on_battlefield(game, other)
