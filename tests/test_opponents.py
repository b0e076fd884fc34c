"""The published automated opponents and the community variants (RULES.md F, M, G, V, H9s), on
boards built from the bundled decks, with exact values."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted

from horde.cards.catalogue import bundled_catalogue
from horde.engine import rules, turns
from horde.engine.opponents import count_emblems, hydra, minotaurs, team_wins_in_upkeep, xenagos
from horde.engine.state import Side
from horde.play import new_game, play_game, prepare
from horde.setup import make_setup
from horde.team.policies import BaselinePolicy, Decision


@pytest.fixture(scope="module")
def cards():
    return bundled_catalogue()


def game_of(preset, players=2, policy=None, seed=0, **knobs):
    return new_game(prepare(make_setup(preset, players=players, **knobs)), seed, policy or Scripted())


def put(game, cards, name, side="horde", player=0, **state):
    controller = HORDE if side == "horde" else player
    p = rules.put_onto_battlefield(game, cards.get(name), controller, controller, triggers=False)
    p.sick = False
    for key, value in state.items():
        setattr(p, key, value)
    return p


def set_library(game, cards, *names):
    """The Horde's library, the last name on top."""
    game.horde.library[:] = [cards.get(n) for n in names]


# ---------------------------------------------------------------- F: Face the Hydra


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_F1_starting_heads_are_one_more_than_the_players_taken_from_the_deck(players):
    game = game_of("face-the-hydra", players)
    assert [p.card.name for p in game.battlefield.horde] == ["Hydra Head"] * (players + 1)
    assert len(game.horde.library) == 60 - (players + 1)
    assert game.team_life == 20 * players
    assert [p.card.name for p in game_of("face-the-hydra", players, hydra_heads=4).battlefield.horde] == \
        ["Hydra Head"] * 4


def test_F2_untapped_heads_bite_each_player_an_elite_head_for_two(cards):
    game = game_of("face-the-hydra", 3, hydra_heads=0)
    put(game, cards, "Hydra Head")
    put(game, cards, "Hydra Head", tapped=True)
    put(game, cards, "Ravenous Brute Head")
    hydra.bite(game)
    assert game.team_life == 60 - 3 * (1 + 2)


def test_F3_a_head_leaving_reveals_two_heads_enter_sorceries_to_the_graveyard(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    head = put(game, cards, "Hydra Head")
    set_library(game, cards, "Unified Lunge", "Hydra Head", "Neck Tangle")
    rules.destroy(game, head)
    assert [p.card.name for p in game.battlefield.horde] == ["Hydra Head"]
    assert [c.name for c in game.horde.graveyard] == ["Hydra Head", "Neck Tangle"]
    assert [c.name for c in game.horde.library] == ["Unified Lunge"]


def test_F4_heros_reward_when_a_head_leaves(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    brute = put(game, cards, "Ravenous Brute Head")
    game.horde.library.clear()
    hands = [len(p.hand) for p in game.players]
    rules.destroy(game, brute)
    assert game.team_life == 40 + 2 * 2
    assert [len(p.hand) for p in game.players] == [n + 1 for n in hands]


def test_F5_snapping_fang_head_bites_at_the_hydras_end_step_only(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    put(game, cards, "Snapping Fang Head")
    game.active = Side.TEAM
    turns.end_step(game)
    assert game.team_life == 40
    game.active = Side.HORDE
    import horde.engine.opponents.common as common

    common.end_step(game)
    assert game.team_life == 40 - 2


def test_F6_damage_to_the_hydra_goes_to_a_head_the_team_chooses(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    small = put(game, cards, "Hydra Head")
    big = put(game, cards, "Snapping Fang Head")
    set_library(game, cards, "Unified Lunge", "Unified Lunge")
    milled = rules.damage_horde(game, 3)
    rules.check_state(game)
    assert milled == 0 and len(game.horde.library) == 0  # not milled: Hydra Head took 3 and died
    assert not rules.on_battlefield(game, small) and rules.on_battlefield(game, big)
    assert [c.name for c in game.horde.graveyard] == ["Hydra Head", "Unified Lunge", "Unified Lunge"]


def test_F7_the_team_makes_the_hydras_choices_by_default_or_at_random(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    assert game.drivers.horde_choice is not None
    assert game_of("face-the-hydra", 2, hydra_choices="random").drivers.horde_choice is None
    elite = put(game, cards, "Ravenous Brute Head")
    plain = put(game, cards, "Hydra Head")
    game.horde.library.clear()
    strike = cards.get("Strike the Weak Spot")
    rules.horde_cast(game, strike)  # the team picks the plain Head: no extra turn
    assert rules.on_battlefield(game, elite) and not rules.on_battlefield(game, plain)
    assert game.extra_turns == 0


def test_F8_team_wins_at_the_end_of_a_turn_with_no_head(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    head = put(game, cards, "Hydra Head")
    hydra.end_of_turn(game)
    assert game.winner is None
    game.battlefield.leave(head)
    hydra.end_of_turn(game)
    assert game.winner == "team"


def test_F9_heads_neither_attack_nor_block(cards):
    game = game_of("face-the-hydra", 2)
    head = game.battlefield.horde[0]
    assert rules.has_keyword(game, head, "can't block") and rules.has_keyword(game, head, "can't attack")


def test_F_strike_the_weak_spot_on_an_elite_head_gives_an_extra_turn(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0, hydra_choices="random")
    put(game, cards, "Ravenous Brute Head")
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Strike the Weak Spot"))
    assert game.extra_turns == 1
    game.turn, game.active = 6, Side.HORDE
    assert hydra.opponent_next(game) and game.extra_turns == 0
    assert not hydra.opponent_next(game)


# ---------------------------------------------------------------- M: Battle the Horde


@pytest.mark.parametrize("players, artifacts", [(1, 0), (2, 0), (3, 1), (4, 2)])
def test_M2_the_horde_reveals_two_plus_extra_players_plus_one_per_artifact(cards, players, artifacts):
    game = game_of("battle-the-horde", players)
    for _ in range(artifacts):
        put(game, cards, "Plundered Statue")
    set_library(game, cards, *["Minotaur Younghorn"] * 20)
    game.active = Side.HORDE
    minotaurs.reveal(game)
    assert len(game.horde.library) == 20 - (2 + players - 1 + artifacts)
    assert sum(1 for p in game.battlefield.horde if p.card.is_creature) == 2 + players - 1 + artifacts


def test_M2_an_artifact_cast_in_the_main_phase_does_not_reveal_in_that_phase(cards):
    """M2: 'at the beginning of the Horde's precombat main phase' triggers only for the Statue
    already there: one player's two cards (a second Plundered Statue and a Younghorn) plus one for
    the first Statue, three cards; the new Statue reveals from the next turn (before: four)."""
    game = game_of("battle-the-horde", 1)
    put(game, cards, "Plundered Statue")
    set_library(game, cards, *["Minotaur Younghorn"] * 18, "Minotaur Younghorn", "Plundered Statue")
    game.active = Side.HORDE
    minotaurs.reveal(game)
    assert len(game.horde.library) == 20 - 3
    assert [p.card.name for p in game.battlefield.horde].count("Plundered Statue") == 2
    assert [p.card.name for p in game.battlefield.horde].count("Minotaur Younghorn") == 2


def test_M3_an_artifact_milled_by_damage_gives_its_heros_reward(cards):
    game = game_of("battle-the-horde", 2)
    set_library(game, cards, "Minotaur Younghorn", "Refreshing Elixir")
    rules.damage_horde(game, 1)
    assert game.team_life == 20 + 2 * 5
    totem = put(game, cards, "Massacre Totem")
    set_library(game, cards, *["Minotaur Younghorn"] * 9)
    rules.destroy(game, totem)
    assert len(game.horde.library) == 2  # the top seven cards of its library go to its graveyard


def test_M4_consuming_rage_pumps_the_attacking_minotaurs_and_destroys_them_after_combat(cards):
    game = game_of("battle-the-horde", 1)
    younghorn = put(game, cards, "Minotaur Younghorn")
    game.horde.library.clear()
    game.active = Side.HORDE
    rules.horde_cast(game, cards.get("Consuming Rage"))
    minotaurs.combat(game)
    assert game.team_life == 20 - 4  # 2 power + 2
    assert not rules.on_battlefield(game, younghorn)


def test_M4_a_minotaur_that_must_be_blocked_takes_a_blocker_from_one_that_need_not_be(cards):
    """509.1c: the team's blocks obey as many requirements as they can. Its only creature blocks
    the Younghorn; the Goreseeker must be blocked, so the blocker moves to it."""
    blocks = {"blocks": lambda decision: [(b, a) for b, a in decision.options if a.card.name == "Minotaur Younghorn"]}
    game = game_of("battle-the-horde", 1, policy=Scripted(**blocks))
    wall = put(game, cards, "Leatherback Baloth", side="team")
    put(game, cards, "Minotaur Younghorn")
    goreseeker = put(game, cards, "Minotaur Goreseeker", temp_keywords=frozenset({"must be blocked"}))
    set_library(game, cards, "Minotaur Younghorn")
    game.active = Side.HORDE
    turns.horde_combat(game, set())
    assert game.team_life == 20 - 2  # the Younghorn is unblocked
    assert not rules.on_battlefield(game, goreseeker) and rules.on_battlefield(game, wall)


def test_M4_unquenchable_fury_reaches_the_minotaurs_cast_after_it(cards):
    """'Each Minotaur can't be blocked this turn except by two or more creatures' is a rule for the
    turn, not a change of the Minotaurs there as it resolves: one revealed after it has it too."""
    game = game_of("battle-the-horde", 1)
    blocker = put(game, cards, "Leatherback Baloth", side="team")
    set_library(game, cards, "Minotaur Younghorn")
    game.active = Side.HORDE
    rules.horde_cast(game, cards.get("Unquenchable Fury"))
    rules.horde_cast(game, cards.get("Minotaur Goreseeker"))
    minotaurs.combat(game)
    assert game.team_life == 20 - 3 and rules.on_battlefield(game, blocker)  # no lone blocker


def test_M1_battle_the_horde_team_takes_three_turns_and_shares_20_life():
    game = game_of("battle-the-horde", 4)
    assert game.team_life == 20 and game.setup.grace_turns == 3
    order = []
    for turn in range(7):
        order.append("H" if minotaurs.opponent_next(game) else "T")
        game.turn = turn + 1
        game.active = Side.HORDE if order[-1] == "H" else Side.TEAM
    assert "".join(order) == "TTTHTHT"


def test_M6_a_bounced_or_exiled_horde_card_goes_to_its_graveyard_and_the_team_can_win(cards):
    """M6: the Horde has no hand. Before, a Minotaur bounced by a team card (Man-o'-War) waited in
    the Horde's hand for ever and kept the Horde alive (H12): 62 of 300 three-player games of
    battle-the-horde were stalls."""
    game = game_of("battle-the-horde", 2)
    younghorn = put(game, cards, "Minotaur Younghorn")
    elixir = put(game, cards, "Refreshing Elixir")
    chosen = put(game, cards, "Mogis's Chosen")
    game.horde.library.clear()
    rules.bounce(game, younghorn)
    rules.exile(game, elixir, 0)
    assert game.horde.hand == [] and game.horde.exile == []
    assert [c.name for c in game.horde.graveyard] == ["Minotaur Younghorn", "Refreshing Elixir"]
    assert game.team_life == 20 + 2 * 5  # M3: put into a graveyard from anywhere
    rules.bounce(game, chosen)
    rules.check_state(game)
    assert game.winner == "team"  # H12: no library, no creature, nothing waiting in a hand


# ---------------------------------------------------------------- G: Defeat a God


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_G1_xenagos_and_one_more_throng_than_the_players_start_on_the_battlefield(players):
    game = game_of("defeat-a-god", players)
    names = [p.card.name for p in game.battlefield.horde]
    assert names == ["Xenagos Ascended"] + ["Rollicking Throng"] * (players + 1)
    assert len(game.horde.library) == 60 - (players + 2) and game.team_life == 20


def test_G2_xenagos_cant_leave_while_a_reveler_is_there_and_the_team_wins_when_he_does(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    xen, throng = game.battlefield.horde
    rules.destroy(game, xen)
    assert rules.on_battlefield(game, xen) and game.winner is None
    rules.destroy(game, throng)
    rules.destroy(game, xen)
    assert game.winner == "team"


def test_G3_damage_to_xenagos_as_a_player_goes_to_a_reveler_the_team_chooses(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    xen, throng = game.battlefield.horde
    rules.damage_horde(game, 3)
    rules.check_state(game)
    assert not rules.on_battlefield(game, throng) and rules.on_battlefield(game, xen)


def test_G4_xenagos_creatures_attack_only_when_a_card_says_so(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    game.horde.library.clear()
    game.active = Side.HORDE
    xenagos.combat(game)
    assert game.team_life == 20
    rules.horde_cast(game, cards.get("Xenagos's Scorn"))
    xenagos.combat(game)
    assert game.team_life == 20 - 6


def test_G6_dance_of_flame_deals_one_damage_for_each_attacking_reveler(cards):
    game = game_of("defeat-a-god", 2, god_throngs=2)
    put(game, cards, "Dance of Flame")
    game.horde.library.clear()
    game.active = Side.HORDE
    rules.horde_cast(game, cards.get("Impulsive Charge"))
    xenagos.combat(game)
    # two Throngs (1 power each) attack; Dance of Flame: 1 to each of 2 players per attacker
    assert game.team_life == 20 - 2 * 2 - 2


def test_G4_the_team_expects_only_xenagos_and_the_creatures_a_card_sends_to_attack(cards):
    """The team's policies see the next attack as G4 makes it: Xenagos Ascended (his Pipers and
    Scorns), and Maddened Oread only once five Revelers are on the battlefield. Before, they counted
    every creature of his, which never attack unbidden, and held their attackers back for ever."""
    game = game_of("defeat-a-god", 1, god_throngs=2)
    view = game.drivers.view
    oread = put(game, cards, "Maddened Oread")
    assert [p.card.name for p in view.horde_attackers()] == ["Xenagos Ascended"]
    assert view.horde_attack_power() == 6 and view.horde_power() == 6 + 1 + 1 + 4
    put(game, cards, "Pheres-Band Revelers")
    put(game, cards, "Rollicking Throng")  # five Revelers: Maddened Oread must attack
    assert view.horde_attackers() == [game.battlefield.horde[0], oread]
    assert view.horde_attack_power() == 6 + 4
    zombies = game_of("zombie-horde", 2).drivers.view
    assert zombies.horde_attackers() == zombies.horde_creatures()  # H8: every creature


def test_G4_baseline_attacks_the_revelers_when_only_xenagos_threatens(cards):
    game = game_of("defeat-a-god", 1, god_throngs=4)
    game.team_life = 16
    game.battlefield.horde[0].tapped = True  # Xenagos has attacked: he can't block and kill the Baloth (H8)
    baloth = put(game, cards, "Leatherback Baloth", side="team")
    decision = Decision("attackers", -1, [baloth], count=1)
    # threat: Xenagos 6 + a reveal 4 = 10 < 16 - 5 (before: 6 + 4 Throngs + 4 = 14, held back)
    assert BaselinePolicy().choose(decision, game.drivers.view) == [baloth]


def test_G2_baseline_removal_never_targets_xenagos_behind_his_revelers(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    xen, throng = game.battlefield.horde
    decision = Decision("target", 0, [xen, throng], subject=cards.get("Murder"))
    assert BaselinePolicy().choose(decision, game.drivers.view) is throng
    rules.destroy(game, throng)
    assert BaselinePolicy().choose(Decision("target", 0, [xen], subject=cards.get("Murder")),
                                   game.drivers.view) is xen


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_G7_each_player_damage_comes_off_the_shared_20_once_per_player(cards, players):
    game = game_of("defeat-a-god", players)
    game.active = Side.HORDE
    rules.horde_cast(game, cards.get("Xenagos's Strike"))
    assert game.team_life == 20 - 4 * players


def test_G8_xenagos_creatures_block_the_teams_attackers_as_the_hordes_do(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    xen, throng = game.battlefield.horde
    xen.tapped = True  # only the Throng can block
    baloth = put(game, cards, "Leatherback Baloth", side="team")
    game.active = Side.TEAM
    turns.team_combat(game)
    assert not rules.on_battlefield(game, throng)
    assert baloth.damage == 1  # the Throng blocked it (unblocked, its damage would have gone to the Throng: G3)


# ---------------------------------------------------------------- V: the variants


@pytest.mark.parametrize("players, emblems", [
    (1, [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]),
    (2, [1, 1, 1, 1, 2, 2, 2, 2, 2, 3]),
    (3, [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]),
    (4, [1, 1, 2, 2, 3, 3, 3, 4, 4, 5]),
])
def test_V2_emblems_after_each_horde_turn_for_1_to_4_players(players, emblems):
    game = game_of("overwhelming-numbers", players)
    seen = []
    for _ in range(10):
        count_emblems(game)
        seen.append(game.emblems)
    assert seen == emblems
    assert game.emblem_counter == (10 * players) % 10


def test_V1_overwhelming_numbers_plays_200_cards_and_60_life_whatever_the_players():
    for players in (1, 4):
        game = game_of("overwhelming-numbers", players)
        assert len(game.horde.library) == 200 and game.team_life == 60
        assert sum(1 for c in game.horde.library if c.is_token) == 130


def test_V3_the_horde_reveals_until_as_many_nontoken_cards_as_emblems(cards):
    game = game_of("overwhelming-numbers", 2)
    game.emblems = 2
    set_library(game, cards, "Walking Corpse", "Diregraf Ghoul", "Zombie", "Gravedigger", "Zombie")
    game.active = Side.HORDE
    turns.reveal_and_cast(game)
    assert [c.name for c in game.horde.library] == ["Walking Corpse"]


def test_V5_burn_the_bodies_exiles_that_many_graveyard_cards_instead_of_milling(cards):
    game = game_of("burn-the-bodies", 2)
    library = len(game.horde.library)
    game.horde.graveyard[:] = [cards.get("Zombie")] * 5
    attacker = put(game, cards, "Grave Titan", side="team")
    game.drivers.policy = Scripted(burn=True, attackers=[attacker], blocks=[])
    turns.team_combat(game)
    assert len(game.horde.library) == library and len(game.horde.graveyard) == 0 and len(game.horde.exile) == 5


def test_V9_horde_sealed_has_40_team_life_whatever_the_players():
    assert [game_of("horde-sealed", p).team_life for p in (1, 2, 3, 4)] == [40, 40, 40, 40]


def test_V10_the_team_wins_in_its_upkeep_once_the_hordes_library_is_empty():
    game = game_of("horde-sealed", 2)
    game.active = Side.TEAM
    team_wins_in_upkeep(game)
    assert game.winner is None
    game.horde.library.clear()
    team_wins_in_upkeep(game)
    assert game.winner == "team"


# ---------------------------------------------------------------- H9s: the smart Horde


def test_H9s_smart_horde_sacrifices_tokens_first_and_targets_the_biggest_threat(cards):
    game = game_of("zombie-horde", 2, horde_choices="smart", boss="none", lieutenants=False)
    token = put(game, cards, "Zombie")
    put(game, cards, "Gravedigger")
    assert rules.choose_sacrifice(game, HORDE, [game.battlefield.horde[1], token]) is token
    small = put(game, cards, "Llanowar Elves", side="team")
    big = put(game, cards, "Grave Titan", side="team", player=1)
    assert rules.horde_pick(game, "harm", [small, big]) is big
    assert rules.horde_pick(game, "help", [token, game.battlefield.horde[1]]) is game.battlefield.horde[1]


def test_H9s_smart_horde_changes_games_random_does_not():
    setup = make_setup("zombie-horde", players=4)
    smart = make_setup("zombie-horde", players=4, horde_choices="smart")
    assert setup.digest() == make_setup("zombie-horde", players=4, horde_choices="random").digest()
    results = [(play_game(setup, s).record(), play_game(smart, s).record()) for s in range(20)]
    assert any(a != b for a, b in results)


def test_M5_damage_to_the_minotaur_horde_mills_it():
    game = game_of("battle-the-horde", 2)
    before = len(game.horde.library)
    assert rules.damage_horde(game, 2) == 2 and len(game.horde.library) == before - 2


def test_G5_a_revelers_heros_reward_when_it_leaves(cards):
    game = game_of("defeat-a-god", 3)
    piper = put(game, cards, "Ecstatic Piper")
    rules.destroy(game, piper)
    assert game.team_life == 20 + 2 * 3


# ---------------------------------------------------------------- the challenge decks' verbs and keywords, one test each
# (every word of the vocabulary has a test named after it: tests/test_vocabulary.py)


def test_verb_players_gain_life_hydra_head_hero_reward_F4(cards):
    game = game_of("face-the-hydra", 3, hydra_heads=0)
    head = put(game, cards, "Hydra Head")
    game.horde.library.clear()
    rules.destroy(game, head)
    assert game.team_life == 60 + 3 * 2


def test_verb_emblem_the_hydras_heads_can_neither_attack_nor_block_F9():
    game = game_of("face-the-hydra", 2)
    emblems = [p for p in game.battlefield.statics if p.id <= -2]
    assert [(p.card.name, p.id) for p in emblems] == [("Emblem", -2)]
    assert all(rules.has_keyword(game, p, "can't attack") for p in game.battlefield.horde)


def test_verb_players_cant_cast_disorienting_glower(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    game.horde.library.clear()
    assert not game.spells_locked
    rules.horde_cast(game, cards.get("Disorienting Glower"))
    assert game.spells_locked


def test_verb_sacrifice_or_suffer_distract_the_hydra_each_player_without_a_creature_loses_3(cards):
    sacrifice = {"may_sacrifice": lambda decision: decision.options[0]}
    game = game_of("face-the-hydra", 2, hydra_heads=0, policy=Scripted(**sacrifice))
    head = put(game, cards, "Hydra Head")
    bear = put(game, cards, "Leatherback Baloth", side="team", player=0)
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Distract the Hydra"))
    # player 1 sacrifices its creature and taps the Head; player 2 has none and loses 3
    assert not rules.on_battlefield(game, bear) and head.tapped
    assert game.team_life == 40 - 3


def test_verb_return_exactly_or_reveal_grown_from_the_stump_two_heads_from_the_graveyard(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    game.horde.library.clear()
    game.horde.graveyard[:] = [cards.get("Hydra Head"), cards.get("Hydra Head")]
    rules.horde_cast(game, cards.get("Grown from the Stump"))
    assert [p.card.name for p in game.battlefield.horde] == ["Hydra Head", "Hydra Head"]
    assert [c.name for c in game.horde.graveyard] == ["Grown from the Stump"]


def test_verb_keywords_until_next_turn_hydras_impenetrable_hide(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    head = put(game, cards, "Hydra Head")
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Hydra's Impenetrable Hide"))
    assert rules.has_keyword(game, head, "indestructible") and head.kept_until == game.horde_turns + 1
    turns.end_step(game)
    assert rules.has_keyword(game, head, "indestructible")  # kept past this turn's end


def test_verb_tap_some_neck_tangle_taps_two_of_five_heads_that_skip_an_untap(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    heads = [put(game, cards, "Hydra Head") for _ in range(5)]
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Neck Tangle"))
    assert sorted((h.tapped, h.skip_untaps) for h in heads) == [(False, 0)] * 3 + [(True, 1)] * 2


def test_verb_reveal_and_cast_neck_tangle_with_fewer_than_five_heads(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    put(game, cards, "Hydra Head")
    set_library(game, cards, "Hydra Head")
    rules.horde_cast(game, cards.get("Neck Tangle"))
    assert [p.card.name for p in game.battlefield.horde] == ["Hydra Head", "Hydra Head"]
    assert not game.horde.library and not any(p.tapped for p in game.battlefield.horde)


def test_verb_exile_until_leaves_swallow_the_hero_whole_returns_when_a_head_leaves(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0)
    head = put(game, cards, "Hydra Head")
    put(game, cards, "Leatherback Baloth", side="team", player=0)
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Swallow the Hero Whole"))
    assert [p.card.name for p in game.battlefield.team] == []
    rules.destroy(game, head)
    assert [(p.card.name, p.controller) for p in game.battlefield.team] == [("Leatherback Baloth", 0)]


def test_verb_extra_turn_if_target_strike_the_weak_spot_on_an_elite_head(cards):
    game = game_of("face-the-hydra", 2, hydra_heads=0, hydra_choices="random")
    put(game, cards, "Ravenous Brute Head")
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Strike the Weak Spot"))
    assert game.extra_turns == 1


def test_verb_destroy_self_reckless_minotaur_at_the_end_step(cards):
    game = game_of("battle-the-horde", 1)
    minotaur = put(game, cards, "Reckless Minotaur")
    rules.run_hook(game, minotaur, "EndStep")
    assert not rules.on_battlefield(game, minotaur)
    assert [c.name for c in game.horde.graveyard] == ["Reckless Minotaur"]


def test_verb_each_returns_vitality_salve_each_player_returns_a_creature_card(cards):
    game = game_of("battle-the-horde", 2)
    game.players[0].graveyard[:] = [cards.get("Leatherback Baloth")]
    rules.went_to_graveyard(game, cards.get("Vitality Salve"), HORDE)
    assert [(p.card.name, p.controller) for p in game.battlefield.team] == [("Leatherback Baloth", 0)]
    assert game.players[0].graveyard == []


def test_verb_at_beginning_of_combat_intervention_of_keranos_waits_for_combat(cards):
    game = game_of("battle-the-horde", 1)
    baloth = put(game, cards, "Leatherback Baloth", side="team")
    set_library(game, cards, "Minotaur Younghorn")  # H12, H13a: with none the team has won, and nothing resolves
    rules.horde_cast(game, cards.get("Intervention of Keranos"))
    assert baloth.damage == 0 and len(game.delayed) == 1
    from horde.engine.opponents import common

    common.begin_combat(game)
    assert baloth.damage == 3 and game.delayed == []


def test_keyword_destroyed_after_combat_consuming_rage_M4(cards):
    game = game_of("battle-the-horde", 1)
    younghorn = put(game, cards, "Minotaur Younghorn")
    game.horde.library.clear()
    game.active = Side.HORDE
    rules.horde_cast(game, cards.get("Consuming Rage"))
    minotaurs.combat(game)
    assert game.team_life == 20 - 4 and not rules.on_battlefield(game, younghorn)


def test_keyword_must_be_blocked_descend_on_the_prey_M4(cards):
    blocks = {"blocks": lambda decision: []}  # the team would block nothing
    game = game_of("battle-the-horde", 1, policy=Scripted(**blocks))
    wall = put(game, cards, "Leatherback Baloth", side="team")
    goreseeker = put(game, cards, "Minotaur Goreseeker", temp_keywords=frozenset({"must be blocked"}))
    game.horde.library.clear()
    game.active = Side.HORDE
    turns.horde_combat(game, set())
    assert game.team_life == 20 and wall.blockers == [] and not rules.on_battlefield(game, goreseeker)


def test_keyword_attacks_this_turn_a_creature_with_it_attacks(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    game.horde.library.clear()
    game.active = Side.HORDE
    xenagos.combat(game)
    assert game.team_life == 20  # Xenagos's creatures stay home unbidden (G4)
    throng = next(p for p in game.battlefield.horde if p.card.name == "Rollicking Throng")
    rules.pump(game, throng, 0, 0, frozenset({"attacks this turn"}))
    xenagos.combat(game)
    assert game.team_life == 20 - 1


def test_verb_cant_leave_while_xenagos_stays_while_a_reveler_is_there_G2(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    xenagos_ascended = game.battlefield.horde[0]
    rules.destroy(game, xenagos_ascended)
    assert rules.on_battlefield(game, xenagos_ascended) and game.winner is None


def test_verb_opponents_win_when_xenagos_leaves_G2(cards):
    game = game_of("defeat-a-god", 1, god_throngs=1)
    xenagos_ascended = game.battlefield.horde[0]
    for p in list(game.battlefield.horde[1:]):
        rules.destroy(game, p)
    rules.destroy(game, xenagos_ascended)
    assert game.winner == "team"


def test_verb_return_named_impulsive_return_two_ecstatic_pipers(cards):
    game = game_of("defeat-a-god", 1, god_throngs=0)
    game.horde.library.clear()
    game.horde.graveyard[:] = [cards.get("Ecstatic Piper")] * 3
    rules.horde_cast(game, cards.get("Impulsive Return"))
    assert [p.card.name for p in game.battlefield.horde] == ["Xenagos Ascended", "Ecstatic Piper", "Ecstatic Piper"]
    assert [c.name for c in game.horde.graveyard] == ["Ecstatic Piper", "Impulsive Return"]


def test_verb_each_deals_rip_to_pieces_each_reveler_hits_each_player_and_their_creatures(cards):
    game = game_of("defeat-a-god", 2, god_throngs=2)
    baloth = put(game, cards, "Leatherback Baloth", side="team")
    revelers = sum(1 for p in game.battlefield.horde if "Reveler" in p.card.subtypes)
    game.horde.library.clear()
    rules.horde_cast(game, cards.get("Rip to Pieces"))
    from horde.engine.opponents import common

    common.begin_combat(game)
    assert revelers == 2 and baloth.damage == 2 and game.team_life == 20 - 2 * 2


def test_verb_must_attack_while_maddened_oread_attacks_once_five_revelers_are_there_G4(cards):
    game = game_of("defeat-a-god", 1, god_throngs=2)
    oread = put(game, cards, "Maddened Oread")
    assert xenagos.must_attack(game, oread) == (False, False)
    put(game, cards, "Pheres-Band Revelers")
    put(game, cards, "Rollicking Throng")  # five Revelers
    assert xenagos.must_attack(game, oread) == (True, False)
