"""The rule book's variants: the Horde as an archenemy (A1, A2) and fallen heroes with a life of
their own (Z1-Z5). Tiny boards with exact values: scheme order and bottoming, an ongoing scheme
abandoned on its condition, a zombie's master and its limits, the team's loss under Z5."""

from __future__ import annotations

import pytest
from conftest import HORDE, Scripted, put

from horde import rules, schemes, turns
from horde.catalogue import build_from_lines, bundled_catalogue
from horde.decks import check_scheme_deck, load_scheme_deck
from horde.engine import new_game, play_game, prepare, stream
from horde.errors import DeckError
from horde.filters import Context
from horde.presets import make_setup
from horde.state import Side, Winner

# ---------------------------------------------------------------- A: the Horde as an archenemy


@pytest.fixture(scope="module")
def bundled():
    return bundled_catalogue()


def archenemy(bundled, players=2, policy=None, deck=(), seed=0):
    """A bundled archenemy game not yet started, its board and library empty, its scheme deck
    ``deck`` (names, the last on top) when given."""
    setup = make_setup("archenemy-horde", players=players, boss="none", lieutenants=False)
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


def test_A1_top_scheme_set_in_motion_then_to_the_bottom(bundled):
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


def test_A1_ongoing_scheme_stays_until_its_abandon_condition(bundled):
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


def test_A1_nothing_can_stop_me_now_prevents_one_and_is_abandoned_at_five(bundled):
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


def test_A1_my_forces_are_innumerable_abandoned_when_the_team_sacrifices_two(bundled):
    """My Forces Are Innumerable: a 3/3 Horror at the Horde's end step; at the team's end step the
    team may sacrifice two creatures to abandon it (its policy answers)."""
    policy = Scripted(abandon_scheme=lambda d: [])
    game = archenemy(bundled, policy=policy, deck=("My Forces Are Innumerable",))
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
def test_A1_self_or_others_asks_the_chosen_player(bundled, answer, left):
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


def test_A1_rotted_ones_attack_their_own_player(bundled):
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


def test_A1_i_bask_in_your_silent_awe_one_spell_then_abandoned_after_a_silent_turn(bundled):
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
    from horde.cli import describe

    fell = {"turn": 9, "side": "team", "event": "player_falls", "player": 2, "master": "the Horde", "life": 20,
            "may_attack": False, "may_target": False}
    assert describe(fell) == ("Player 2 falls to the Horde and fights on as a zombie at 20 life: it may no "
                              "longer attack nor target, nor harm itself or its master")
    fell.update(master="player 1", may_attack=True, may_target=True)
    assert describe(fell).endswith("it may still attack and target, but not harm itself or its master")
    assert describe({"turn": 4, "side": "horde", "event": "scheme_set_in_motion", "card": "The Very Soil Shall Shake",
                     "ongoing": True}) == "The Horde sets The Very Soil Shall Shake in motion (ongoing: it stays face up)"
