"""The rule book's variants: the Horde as an archenemy (A1, A2) and fallen heroes with a life of
their own (Z1-Z5). Tiny boards with exact values: scheme order and bottoming, an ongoing scheme
abandoned on its condition, a zombie's master and its limits, the team's loss under Z5."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.catalogue import build_from_lines, bundled_catalogue
from horde.cards.decks import check_scheme_deck, load_scheme_deck
from horde.engine import rules, schemes, turns
from horde.engine.filters import Context
from horde.engine.state import Side, Winner
from horde.errors import DeckError
from horde.play import new_game, play_game, prepare, stream
from horde.setup import make_setup

# ---------------------------------------------------------------- A: the Horde as an archenemy


@pytest.fixture(scope="module")
def bundled():
    return bundled_catalogue()


def archenemy(bundled, players=2, policy=None, deck=(), seed=0, **knobs):
    """A bundled archenemy game not yet started, its board and library empty, its scheme deck
    ``deck`` (names, the last on top) when given."""
    setup = make_setup("archenemy-horde", players=players, boss="none", lieutenants=False, **knobs)
    game = new_game(prepare(setup), seed, policy or Scripted())
    game.horde.library.clear()
    if deck:
        game.schemes.deck = [bundled.get(name) for name in deck]
    return game


def test_A1_bundled_scheme_decks_keep_904_3(bundled):
    """904.3: at least 20 schemes, at most two of a name; both bundled decks hold 31 schemes."""
    old = load_scheme_deck("archenemy-2010")
    new = load_scheme_deck("nicol-bolas-2017")
    assert (len(old), len(set(c.name for c in old))) == (21, 21)
    assert (len(new), len(set(c.name for c in new))) == (20, 10)
    assert len({c.name for c in old + new}) == 31
    with pytest.raises(DeckError, match="at least 20 schemes"):
        check_scheme_deck(old[:19], "d.txt")
    with pytest.raises(DeckError, match="at most 2 of a name"):
        check_scheme_deck(old[:18] + [old[0], old[0]], "d.txt")
    with pytest.raises(DeckError, match="not a scheme"):
        check_scheme_deck(old + [bundled.get("Zombie")], "d.txt")


def test_A1_scheme_deck_is_shuffled_from_its_own_stream(bundled):
    """904.4: the scheme deck is shuffled from the game's seed with its own stream, so the Horde's
    library (and every other stream) is what it is without schemes."""
    setup = make_setup("archenemy-horde", players=2)
    game = new_game(prepare(setup), 11, Scripted())
    expected = list(load_scheme_deck("archenemy-2010"))
    rng = stream(11, "schemes")
    rng.shuffle(expected)
    assert [c.name for c in game.schemes.deck] == [c.name for c in expected]
    plain = new_game(prepare(make_setup("zombie-horde", players=2)), 11, Scripted())
    assert [c.name for c in plain.horde.library] == [c.name for c in game.horde.library]
    assert plain.schemes is None
    plain_record = play_game(make_setup("zombie-horde", players=2), 5).record()
    none_record = play_game(make_setup("zombie-horde", players=2, schemes="none"), 5).record()
    assert {k: v for k, v in plain_record.items() if k != "setup_hash"} == \
        {k: v for k, v in none_record.items() if k != "setup_hash"}


def test_hook_set_in_motion_A1_top_scheme_then_to_the_bottom(bundled):
    """904.9, 904.10: the top scheme is set in motion (no stack) and a non-ongoing one goes to the
    bottom: the order of the deck turns by one."""
    game = archenemy(bundled, deck=("Roots of All Evil", "The Iron Guardian Stirs", "Look Skyward and Despair"))
    schemes.set_in_motion(game)
    assert [(p.card.name, rules.power(game, p), rules.toughness(game, p)) for p in game.battlefield.horde] == \
        [("Dragon", 5, 5)]
    assert rules.has_keyword(game, game.battlefield.horde[0], "flying")
    assert [c.name for c in game.schemes.deck] == ["Look Skyward and Despair", "Roots of All Evil",
                                                   "The Iron Guardian Stirs"]
    schemes.set_in_motion(game)
    assert [c.name for c in game.schemes.deck] == ["The Iron Guardian Stirs", "Look Skyward and Despair",
                                                   "Roots of All Evil"]
    assert [(p.card.name, p.card.type_line()) for p in game.battlefield.horde][-1] == \
        ("Golem", "Token Artifact Creature — Golem")
    assert game.schemes.set_in_motion == 2


def test_A1_scheme_comes_right_after_the_reveal_and_cast(bundled):
    """A1: in the Horde's turn the scheme is set in motion right after H5's reveal and cast, before
    combat, so the Dragon it makes attacks this turn (H8: haste)."""
    game = archenemy(bundled, deck=("Look Skyward and Despair",))
    game.drivers.trace = []
    game.horde.library.append(bundled.get("Zombie"))
    game.turn = 4
    turns.horde_turn(game)
    kinds = [e["event"] for e in game.drivers.trace if e["event"] in ("reveal", "scheme_set_in_motion", "attack")]
    assert kinds == ["reveal", "scheme_set_in_motion", "attack", "attack"]
    attackers = sorted(e["card"] for e in game.drivers.trace if e["event"] == "attack")
    assert attackers == ["Dragon", "Zombie"]


def test_verb_abandon_A1_ongoing_scheme_stays_until_its_abandon_condition(bundled):
    """904.11: The Very Soil Shall Shake stays face up (Horde creatures +2/+2 and trample) until a
    creature the Horde controls dies; then it is abandoned to the bottom of the scheme deck."""
    game = archenemy(bundled, deck=("Roots of All Evil", "The Very Soil Shall Shake"))
    zombie = rules.put_onto_battlefield(game, bundled.get("Zombie"), HORDE, HORDE)
    schemes.set_in_motion(game)
    assert [c.name for c in game.schemes.deck] == ["Roots of All Evil"]
    assert [s.card.name for s in game.schemes.face_up] == ["The Very Soil Shall Shake"]
    assert (rules.power(game, zombie), rules.toughness(game, zombie)) == (4, 4)
    assert rules.has_keyword(game, zombie, "trample")
    rules.destroy(game, zombie, 0)
    assert game.schemes.face_up == []
    assert [c.name for c in game.schemes.deck] == ["The Very Soil Shall Shake", "Roots of All Evil"]
    dragon = rules.put_onto_battlefield(game, bundled.get("Dragon"), HORDE, HORDE)
    assert (rules.power(game, dragon), rules.toughness(game, dragon)) == (5, 5)


def test_verb_prevent_damage_to_you_A1_nothing_can_stop_me_now_prevents_one_and_is_abandoned_at_five(bundled):
    """Nothing Can Stop Me Now: each source's damage to the Horde is 1 less (H11 mills that many);
    at an end step with 5 or more damage dealt to it this turn, it is abandoned, with 4 it stays."""
    game = archenemy(bundled, deck=("Nothing Can Stop Me Now",))
    game.horde.library.extend([bundled.get("Zombie")] * 30)
    schemes.set_in_motion(game)
    bolt = put(game, bundled, "Soldier", side="team")
    assert rules.damage_horde(game, 3, bolt) == 2
    assert rules.damage_horde(game, 1, bolt) == 0
    assert rules.damage_horde(game, 3, bolt) == 2
    assert game.schemes.damage_this_turn == 4
    turns.end_step(game)
    assert [s.card.name for s in game.schemes.face_up] == ["Nothing Can Stop Me Now"]
    assert game.schemes.damage_this_turn == 0
    rules.damage_horde(game, 4, bolt)
    rules.damage_horde(game, 3, bolt)
    assert game.schemes.damage_this_turn == 5
    turns.end_step(game)
    assert game.schemes.face_up == []
    assert len(game.horde.library) == 30 - 2 - 2 - 3 - 2


def test_verb_abandon_if_sacrificed_A1_my_forces_are_innumerable_abandoned_when_the_team_sacrifices_two(bundled):
    """My Forces Are Innumerable: a 3/3 Horror at the Horde's end step; at the team's end step the
    team may sacrifice two creatures to abandon it (its policy answers)."""
    policy = Scripted(abandon_scheme=lambda d: [])
    game = archenemy(bundled, policy=policy, deck=("My Forces Are Innumerable",))
    game.horde.library.append(bundled.get("Zombie"))  # H12, H13a: with none the team has won, and nothing resolves
    schemes.set_in_motion(game)
    game.active = Side.HORDE
    turns.end_step(game)
    assert [p.card.name for p in game.battlefield.horde] == ["Horror"]
    bears = [put(game, bundled, "Soldier", side="team") for _ in range(3)]
    game.active = Side.TEAM
    turns.end_step(game)
    assert len(game.schemes.face_up) == 1 and all(rules.on_battlefield(game, b) for b in bears)
    policy.answers["abandon_scheme"] = lambda d: list(d.options[:2])
    turns.end_step(game)
    assert game.schemes.face_up == []
    assert [rules.on_battlefield(game, b) for b in bears] == [False, False, True]


@pytest.mark.parametrize(("answer", "left"), [("self", (0, 3)), ("others", (2, 2))])
def test_verb_self_or_others_A1_asks_the_chosen_player(bundled, answer, left):
    """Feed the Machine: target opponent (H9: at random) chooses; 'self': it sacrifices two
    creatures; 'others': each other opponent sacrifices one."""
    policy = Scripted(self_or_others=answer)
    game = archenemy(bundled, policy=policy, deck=("Feed the Machine",))
    for player in (0, 1):
        for _ in range(3 if player == 1 else 2):
            put(game, bundled, "Soldier", side="team", player=player)
    game.drivers.horde_choice = lambda game, kind, options, card: 0  # the Horde targets player 1
    schemes.set_in_motion(game)
    asked = [d for d in policy.seen if d.kind == "self_or_others"]
    assert [(d.player, d.options, d.subject.name) for d in asked] == [(0, ("self", "others"), "Feed the Machine")]
    counts = tuple(sum(1 for p in game.battlefield.team if p.controller == i) for i in (0, 1))
    assert counts == left


def test_verb_tokens_for_each_opponent_A1_rotted_ones_attack_their_own_player(bundled):
    """Rotted Ones, Lay Siege: one 2/2 Zombie for each opponent, each attacking that player each combat."""
    game = archenemy(bundled, players=3, deck=("Rotted Ones, Lay Siege",))
    game.drivers.trace = []
    schemes.set_in_motion(game)
    assert sorted(p.sworn for p in game.battlefield.horde) == [0, 1, 2]
    turns.horde_combat(game, set())
    hits = sorted((e["target_player"], e["amount"]) for e in game.drivers.trace if e["event"] == "damage")
    assert hits == [(1, 2), (2, 2), (3, 2)]
    assert game.team_life == 60 - 6


def test_A2_the_horde_has_no_life_to_gain(bundled):
    """A2: 'you gain life' on a scheme does nothing (the Horde has no life); I Delight in Your
    Convulsions costs the shared team life 3 per player and mills nothing."""
    game = archenemy(bundled, players=3, deck=("I Delight in Your Convulsions",))
    game.horde.library.extend([bundled.get("Zombie")] * 5)
    schemes.set_in_motion(game)
    assert game.team_life == 60 - 9
    assert len(game.horde.library) == 5


def test_A1_archenemy_preset_games_run_for_one_to_four_players():
    for players in (1, 2, 3, 4):
        result = play_game(make_setup("archenemy-horde", players=players), 3, trace=True)
        assert result.winner in ("team", "horde", "stall")
        assert any(e["event"] == "scheme_set_in_motion" for e in result.events)


def team_hand(game, bundled, player, *names):
    game.players[player].hand[:] = [bundled.get(n) for n in names]


def on_team(game, player):
    return sorted(p.card.name for p in game.battlefield.team if p.controller == player)


def first_option(game, kind, options, card):
    return options[0]


def test_verb_choose_discard_A1_every_hope_shall_vanish(bundled):
    """Every Hope Shall Vanish: each opponent reveals its hand; the Horde chooses a nonland card
    from each (H9) and that player discards it; a hand of lands keeps everything."""
    game = archenemy(bundled, deck=("Every Hope Shall Vanish",))
    team_hand(game, bundled, 0, "Forest", "Serra Angel")
    team_hand(game, bundled, 1, "Forest", "Forest")
    schemes.set_in_motion(game)
    assert [c.name for c in game.players[0].hand] == ["Forest"]
    assert [c.name for c in game.players[0].graveyard] == ["Serra Angel"]
    assert [c.name for c in game.players[1].hand] == ["Forest", "Forest"]
    assert game.players[1].graveyard == []


def test_verb_destroy_up_to_A1_tooth_claw_and_tail(bundled):
    """Tooth, Claw, and Tail: up to three target nonland permanents are destroyed; the land stays."""
    game = archenemy(bundled, deck=("Tooth, Claw, and Tail",))
    for name in ("Soldier", "Soldier", "Serra Angel", "Llanowar Elves", "Forest"):
        put(game, bundled, name, side="team")
    schemes.set_in_motion(game)
    left = on_team(game, 0)
    assert len(left) == 2 and "Forest" in left


def test_verb_gain_control_A1_your_will_is_not_your_own_until_end_of_turn(bundled):
    """Your Will Is Not Your Own: the Horde takes the team's tapped Serra Angel, untaps it, and it
    is a 7/7 with trample and haste this turn; at cleanup it goes back to its owner."""
    game = archenemy(bundled, deck=("Your Will Is Not Your Own",))
    angel = put(game, bundled, "Serra Angel", side="team", tapped=True)
    schemes.set_in_motion(game)
    assert angel.controller == HORDE and not angel.tapped
    assert (rules.power(game, angel), rules.toughness(game, angel)) == (7, 7)
    assert rules.has_keyword(game, angel, "trample") and rules.has_keyword(game, angel, "haste")
    turns.end_step(game)
    assert angel.controller == 0
    assert (rules.power(game, angel), rules.toughness(game, angel)) == (4, 4)


def test_verb_prevent_damage_this_turn_A1_delight_in_the_hunt(bundled):
    """Delight in the Hunt: a 3/3 Horror, and this turn no damage is dealt to the Horde's
    creatures (the team's still take it); the next turn they do."""
    game = archenemy(bundled, deck=("Delight in the Hunt",))
    soldier = put(game, bundled, "Serra Angel", side="team")
    schemes.set_in_motion(game)
    horror = game.battlefield.horde[0]
    assert horror.card.name == "Horror"
    assert rules.damage_permanent(game, None, 0, horror, 2) == 0
    assert rules.damage_permanent(game, None, HORDE, soldier, 2) == 2
    turns.end_step(game)
    assert rules.damage_permanent(game, None, 0, horror, 2) == 2


def test_verb_sacrifice_else_discard_A1_only_blood_ends_your_nightmares(bundled):
    """Only Blood Ends Your Nightmares: each opponent sacrifices a creature; the one who had none
    discards two cards instead."""
    game = archenemy(bundled, deck=("Only Blood Ends Your Nightmares",))
    put(game, bundled, "Soldier", side="team", player=0)
    put(game, bundled, "Soldier", side="team", player=0)
    team_hand(game, bundled, 0, "Forest", "Forest", "Forest")
    team_hand(game, bundled, 1, "Forest", "Forest", "Forest")
    schemes.set_in_motion(game)
    assert on_team(game, 0) == ["Soldier"]
    assert (len(game.players[0].hand), len(game.players[1].hand)) == (3, 1)


def test_verb_untap_during_opponents_untap_A1_i_know_all_i_see_all(bundled):
    """I Know All, I See All: the Horde's permanents untap in the team's untap step; at an end
    step after three cards went to the Horde's graveyard this turn, the scheme is abandoned."""
    game = archenemy(bundled, deck=("I Know All, I See All",))
    game.horde.library.extend([bundled.get("Zombie")] * 5)
    zombie = put(game, bundled, "Zombie", tapped=True)
    schemes.set_in_motion(game)
    turns.team_beginning(game)
    assert not zombie.tapped
    turns.end_step(game)
    assert [s.card.name for s in game.schemes.face_up] == ["I Know All, I See All"]
    rules.damage_horde(game, 3)  # H11: three cards milled into its graveyard
    turns.end_step(game)
    assert game.schemes.face_up == []
    zombie.tapped = True
    turns.team_beginning(game)
    assert zombie.tapped


def test_verb_destroy_all_who_A1_behold_the_power_of_destruction(bundled):
    """Behold the Power of Destruction: every nonland permanent of the targeted opponent is
    destroyed; its land, the other player's and the Horde's permanents stay."""
    game = archenemy(bundled, deck=("Behold the Power of Destruction",))
    game.drivers.horde_choice = first_option  # the Horde targets player 1
    for name in ("Soldier", "Serra Angel", "Forest"):
        put(game, bundled, name, side="team", player=0)
    put(game, bundled, "Soldier", side="team", player=1)
    put(game, bundled, "Zombie")
    schemes.set_in_motion(game)
    assert (on_team(game, 0), on_team(game, 1)) == (["Forest"], ["Soldier"])
    assert [p.card.name for p in game.battlefield.horde] == ["Zombie"]


def test_verb_damage_all_amount_theirs_for_each_player_A1_know_naught_but_fire(bundled):
    """Know Naught but Fire: each opponent is dealt damage equal to the cards in its own hand:
    2 and 0 off the shared life."""
    game = archenemy(bundled, deck=("Know Naught but Fire",))
    team_hand(game, bundled, 0, "Forest", "Forest")
    team_hand(game, bundled, 1)
    schemes.set_in_motion(game)
    assert game.team_life == 40 - 2


def test_verb_damage_all_theirs_creatures_A1_which_of_you_burns_brightest(bundled):
    """Which of You Burns Brightest?: X is the Horde's horde_x (H7: 3); the targeted opponent and
    each creature it controls are dealt 3; the other player's creature is untouched."""
    game = archenemy(bundled, deck=("Which of You Burns Brightest?",))
    game.drivers.horde_choice = first_option
    soldier = put(game, bundled, "Soldier", side="team", player=0)
    angel = put(game, bundled, "Serra Angel", side="team", player=0)
    other = put(game, bundled, "Soldier", side="team", player=1)
    schemes.set_in_motion(game)
    assert game.team_life == 40 - 3
    assert not rules.on_battlefield(game, soldier)
    assert angel.damage == 3 and other.damage == 0


def test_verb_each_player_sacrifices_keep_one_A1_no_one_will_hear_your_cries(bundled):
    """No One Will Hear Your Cries: each opponent chooses a creature (its policy answers 'keep')
    and sacrifices the rest; its land stays."""
    policy = Scripted(keep=lambda d: next(o for o in d.options if o.card.name == "Serra Angel"))
    game = archenemy(bundled, policy=policy, deck=("No One Will Hear Your Cries",))
    for name in ("Soldier", "Serra Angel", "Llanowar Elves", "Forest"):
        put(game, bundled, name, side="team", player=0)
    schemes.set_in_motion(game)
    assert on_team(game, 0) == ["Forest", "Serra Angel"]


@pytest.mark.parametrize(("lands", "left"), [(5, 2), (6, 1)])
def test_verb_each_player_sacrifices_if_A1_pay_tribute_to_me(bundled, lands, left):
    """Pay Tribute to Me: each opponent sacrifices a creature, and another one only while the
    Horde controls six or more lands (``if="count:land yours >= 6"``)."""
    game = archenemy(bundled, deck=("Pay Tribute to Me",))
    for _ in range(lands):
        put(game, bundled, "Forest")
    for _ in range(3):
        put(game, bundled, "Soldier", side="team", player=0)
    schemes.set_in_motion(game)
    assert len(on_team(game, 0)) == left


def test_verb_lose_life_highest_life_opponent_A1_the_mighty_will_fall(bundled):
    """The Mighty Will Fall: with a life of each player's own (Z), the opponent with the highest
    life total loses 7."""
    game = archenemy(bundled, players=3, deck=("The Mighty Will Fall",), life="individual")
    for pl, life in zip(game.players, (15, 20, 12), strict=True):
        pl.life = life
    game.team_life = 47
    schemes.set_in_motion(game)
    assert [pl.life for pl in game.players] == [15, 13, 12]


@pytest.mark.parametrize("answer", ["self", "others"])
def test_hook_chooses_self_and_chooses_others_A1_surrender_your_thoughts(bundled, answer):
    """Surrender Your Thoughts: 'self' (ChoosesSelf): the chosen player discards four cards;
    'others' (ChoosesOthers): each other opponent discards two."""
    game = archenemy(bundled, players=3, policy=Scripted(self_or_others=answer), deck=("Surrender Your Thoughts",))
    game.drivers.horde_choice = first_option
    for player in range(3):
        team_hand(game, bundled, player, *["Forest"] * 5)
    schemes.set_in_motion(game)
    hands = [len(pl.hand) for pl in game.players]
    assert hands == ([1, 5, 5] if answer == "self" else [5, 3, 3])


def test_hook_opponents_end_step_A1_only_at_the_teams_end_step(bundled):
    """OpponentsEndStep runs at the team's end step only, YourEndStep at the Horde's: My Forces Are
    Innumerable asks the team nothing at the Horde's end step and makes no Horror at the team's."""
    policy = Scripted(abandon_scheme=lambda d: [])
    game = archenemy(bundled, policy=policy, deck=("My Forces Are Innumerable",))
    game.horde.library.append(bundled.get("Zombie"))  # H12, H13a: with none the team has won, and nothing resolves
    for _ in range(2):
        put(game, bundled, "Soldier", side="team")
    schemes.set_in_motion(game)
    game.active = Side.TEAM
    turns.end_step(game)
    assert game.battlefield.horde == []
    assert [d.kind for d in policy.seen if d.kind == "abandon_scheme"] == ["abandon_scheme"]
    game.active = Side.HORDE
    turns.end_step(game)
    assert [p.card.name for p in game.battlefield.horde] == ["Horror"]
    assert [d.kind for d in policy.seen if d.kind == "abandon_scheme"] == ["abandon_scheme"]


# ---------------------------------------------------------------- Z: fallen heroes


@pytest.fixture
def fallen(make_game):
    def build(players=2, **knobs):
        game = make_game(players=players, life="individual", **knobs)
        game.drivers.trace = []
        return game

    return build


def test_Z1_a_player_killed_by_damage_becomes_a_zombie(fallen, catalogue):
    """Z1: at 0 life a player does not leave; its life goes back to 20 and what it has stays."""
    game = fallen()
    bear = put(game, catalogue, "Grizzly Bears", side="team", player=0)
    game.players[0].hand.append(catalogue.get("Lightning Bolt"))
    attacker = put(game, catalogue, "Zombie")
    rules.damage_player(game, attacker, HORDE, 0, 7)
    assert (game.players[0].life, game.players[0].zombie, game.team_life) == (13, False, 33)
    rules.damage_player(game, attacker, HORDE, 0, 15)
    player = game.players[0]
    assert (player.life, player.zombie, player.removed, game.team_life) == (20, True, False, 40)
    assert rules.on_battlefield(game, bear) and [c.name for c in player.hand] == ["Lightning Bolt"]
    rules.check_state(game)
    assert not game.over()


def test_Z2_the_master_is_the_controller_of_the_lethal_source(fallen, catalogue):
    """Z2: the Horde's creature makes the Horde the master; a teammate's source the teammate."""
    game = fallen(players=3)
    rules.damage_player(game, put(game, catalogue, "Zombie"), HORDE, 0, 20)
    rules.damage_player(game, put(game, catalogue, "Grizzly Bears", side="team", player=2), 2, 1, 20)
    assert [(p.zombie, p.master) for p in game.players] == [(True, HORDE), (True, 2), (False, -2)]
    falls = [(e["player"], e["master"], e["may_attack"], e["may_target"]) for e in game.drivers.trace
             if e["event"] == "player_falls"]
    assert falls == [(1, "the Horde", False, False), (2, "player 3", True, True)]


def test_Z1_life_loss_to_zero_falls_too_and_a_zombie_falls_again(fallen, catalogue):
    """Decision (docs/decisions.md): life loss to 0 makes a zombie as damage does, its master the
    one who made it lose the life; a zombie brought to 0 again falls to the new master."""
    game = fallen()
    rules.lose_life(game, 20, 1, HORDE)
    assert (game.players[1].zombie, game.players[1].master, game.players[1].life) == (True, HORDE, 20)
    rules.damage_player(game, put(game, catalogue, "Grizzly Bears", side="team", player=0), 0, 1, 20)
    assert (game.players[1].master, game.players[1].life) == (0, 20)


def test_Z3_a_zombie_of_the_horde_may_not_attack_nor_target(fallen, catalogue):
    """Z3: its creatures can't attack, its targeted spells can't be cast, its abilities find no
    target; its spells without a target can."""
    game = fallen()
    rules.damage_player(game, put(game, catalogue, "Zombie"), HORDE, 0, 20)
    for _ in range(3):
        put(game, catalogue, "Plains", side="team", player=0)
    bear = put(game, catalogue, "Grizzly Bears", side="team", player=0)
    other = put(game, catalogue, "Grizzly Bears", side="team", player=1)
    assert (turns.can_attack(game, bear), turns.can_attack(game, other)) == (False, True)
    game.players[0].hand.extend(catalogue.get(n) for n in ("Swords to Plowshares", "Raise the Alarm"))
    assert [card.name for card, origin in rules.castable(game, 0) if origin == "hand"] == ["Raise the Alarm"]
    bolt = catalogue.get("Lightning Bolt").hooks["Cast"][0]
    assert rules.legal_targets(game, Context(None, None, 0), bolt) == []
    assert rules.legal_targets(game, Context(None, None, 1), bolt) != []


def test_Z3_no_zombie_may_harm_itself_or_its_master(fallen, catalogue):
    """Z3: a zombie whose master is a teammate may attack and target, but may not cast a spell that
    makes itself or its master lose life; one that makes only the Horde lose life it may."""
    game = fallen(players=3)
    rules.damage_player(game, put(game, catalogue, "Grizzly Bears", side="team", player=1), 1, 0, 20)
    for _ in range(2):
        put(game, catalogue, "Swamp", side="team", player=0)
    lines = ["Cost: {1}{B}", "Type: Sorcery"]
    each = build_from_lines(["Name: Each Bleeds"] + lines + ["Cast: lose_life who=each_player amount=1"], "t")
    others = build_from_lines(["Name: Others Bleed"] + lines + ["Cast: lose_life who=each_other_player amount=1"], "t")
    foes = build_from_lines(["Name: Foes Bleed"] + lines + ["Cast: lose_life who=each_opponent amount=1"], "t")
    game.players[0].hand.extend([each, others, foes])
    assert [card.name for card, _ in rules.castable(game, 0)] == ["Foes Bleed"]
    assert rules.may_attack(game, 0) and rules.may_target(game, 0)
    game.players[2].hand.extend([each, others])
    for _ in range(2):
        put(game, catalogue, "Swamp", side="team", player=2)
    assert [card.name for card, _ in rules.castable(game, 2)] == ["Each Bleeds", "Others Bleed"]


def test_Z4_other_losses_remove_the_player(fallen, catalogue):
    """Z4: drawing from an empty library, or ten poison counters, removes the player: its
    permanents leave with it, the Horde's attackers choose among the players left."""
    game = fallen(players=3)
    bear = put(game, catalogue, "Grizzly Bears", side="team", player=1)
    for _ in range(6):
        put(game, catalogue, "Zombie")
    game.players[1].drew_from_empty = True
    game.players[2].poison = 10
    rules.check_state(game)
    assert [(p.removed, p.zombie) for p in game.players] == [(False, False), (True, False), (True, False)]
    assert not rules.on_battlefield(game, bear) and game.players[1].exile[-1].name == "Grizzly Bears"
    assert game.team_life == 20 and not game.over()
    turns.horde_combat(game, set())
    assert {e["target_player"] for e in game.drivers.trace if e["event"] == "attack"} == {1}


def test_Z5_the_team_loses_when_no_living_non_zombie_is_left(fallen, catalogue):
    """Z5: zombies alone can't keep the team in the game; one living player can."""
    game = fallen(players=2)
    zombie = put(game, catalogue, "Zombie")
    rules.damage_player(game, zombie, HORDE, 0, 20)
    rules.check_state(game)
    assert not game.over()
    rules.damage_player(game, zombie, HORDE, 1, 25)
    rules.check_state(game)
    assert game.winner == Winner.HORDE
    game = fallen(players=2)
    game.players[0].drew_from_empty = True
    rules.damage_player(game, put(game, catalogue, "Zombie"), HORDE, 1, 20)
    rules.check_state(game)
    assert game.winner == Winner.HORDE


def test_Z5_fallen_heroes_preset_games_run_for_one_to_four_players():
    for players in (1, 2, 3, 4):
        result = play_game(make_setup("fallen-heroes", players=players), 2, trace=True)
        assert result.winner in ("team", "horde", "stall")
        if result.winner == "horde":
            assert any(e["event"] == "player_falls" for e in result.events)


def test_verb_one_spell_each_turn_A1_i_bask_in_your_silent_awe_one_spell_then_abandoned_after_a_silent_turn(bundled):
    """I Bask in Your Silent Awe: a player who cast a spell this turn can't cast another; at the
    Horde's upkeep after a turn in which the team cast no spell, the scheme is abandoned."""
    game = archenemy(bundled, deck=("I Bask in Your Silent Awe",))
    rules.put_onto_battlefield(game, bundled.get("Zombie"), HORDE, HORDE)  # so the game goes on (H12)
    schemes.set_in_motion(game)
    game.schemes.spells_since = 0
    game.players[0].spells_cast = 1
    game.schemes.spells_since = 1
    assert rules.one_spell_cast(game, 0) and not rules.one_spell_cast(game, 1)
    assert rules.castable(game, 0) == []
    game.active = Side.HORDE
    turns.end_step(game)  # the Horde's turn ends: 'since your last turn ended' starts again
    assert (game.schemes.spells_since, game.players[0].spells_cast) == (0, 0)
    turns.horde_beginning(game)
    assert game.schemes.face_up == []
    assert [c.name for c in game.schemes.deck] == ["I Bask in Your Silent Awe"]


def test_Z3_the_play_log_shows_who_fell_to_whom_and_what_it_may_still_do():
    from horde.cli.playlog import describe

    fell = {"turn": 9, "side": "team", "event": "player_falls", "player": 2, "master": "the Horde", "life": 20,
            "may_attack": False, "may_target": False}
    assert describe(fell) == ("Player 2 falls to the Horde and fights on as a zombie at 20 life: it may no "
                              "longer attack nor target, nor harm itself or its master")
    fell.update(master="player 1", may_attack=True, may_target=True)
    assert describe(fell).endswith("it may still attack and target, but not harm itself or its master")
    assert describe({"turn": 4, "side": "horde", "event": "scheme_set_in_motion", "card": "The Very Soil Shall Shake",
                     "ongoing": True}) == "The Horde sets The Very Soil Shall Shake in motion (ongoing: it stays face up)"
