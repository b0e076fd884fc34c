"""Core format rules H1-H14 on tiny boards with exact values."""

from __future__ import annotations

import random

import pytest
from conftest import HORDE, Scripted, library, put

from horde.engine import rules, turns
from horde.engine.state import Side
from horde.play import horde_turn_now, play_game
from horde.setup import make_setup


def test_H1_team_shares_life_twenty_per_player(make_game):
    assert make_game(players=3).team_life == 60
    assert make_game(players=1, life_per_player=30).team_life == 30


def test_H1_damage_to_any_player_comes_off_the_shared_life(make_game, catalogue):
    game = make_game(players=2)
    rules.damage_player(game, None, HORDE, 1, 7)
    rules.damage_player(game, None, HORDE, 0, 3)
    assert game.team_life == 30


@pytest.mark.parametrize("grace, sides", [
    (3, "TTTHTHTH"),
    (0, "HTHTHTHT"),
    (1, "THTHTHTH"),
])
def test_H2_team_takes_grace_turns_then_horde_first(grace, sides):
    setup = make_setup(grace_turns=grace)
    assert "".join("H" if horde_turn_now(setup, t) else "T" for t in range(1, 9)) == sides


def test_H3_recipe_deck_has_cards_per_player_times_players(catalogue, test_decks):
    import random

    from horde.cards.decks import build_horde_library, load_horde_deck

    deck = load_horde_deck("mini-recipe", catalogue)
    for players, per, size in ((2, 25, 50), (3, 25, 75), (4, 25, 100), (2, 20, 40)):
        setup = make_setup(players=players, cards_per_player=per, team_decks=["white"] * 4)
        assert len(build_horde_library(deck, setup, random.Random(players))) == size


def test_H3_fixed_deck_is_reduced_to_the_deck_size(catalogue, test_decks):
    import random

    from horde.cards.decks import build_horde_library, load_horde_deck

    deck = load_horde_deck("mini", catalogue)
    assert len(deck.cards) == 100
    setup = make_setup(players=3, horde_deck="mini", team_decks=["white"] * 4)
    cards = build_horde_library(deck, setup, random.Random(1))
    assert len(cards) == 75
    assert all(card in deck.cards for card in cards)


def test_H4_horde_turn_order_untap_reveal_combat(make_game, catalogue):
    game = make_game(players=1)
    game.drivers.trace = []
    zombie = put(game, catalogue, "Zombie", tapped=True)
    library(game, catalogue, "Walking Corpse")
    game.turn = 4
    turns.horde_turn(game)
    kinds = [e["event"] for e in game.drivers.trace]
    assert kinds.index("reveal") < kinds.index("cast") < kinds.index("attack")
    assert zombie.tapped  # it untapped at the start of the turn and attacked
    assert game.team_life == 20 - 2 - 2


def test_H5_reveal_stops_at_first_nontoken_and_casts_tokens_first(make_game, catalogue):
    game = make_game(players=1)
    game.drivers.trace = []
    library(game, catalogue, "Zombie", "Walking Corpse", "Zombie Giant", "Zombie", "Zombie")
    turns.reveal_and_cast(game)
    reveal = next(e for e in game.drivers.trace if e["event"] == "reveal")
    assert reveal["cards"] == ["Zombie", "Zombie", "Zombie Giant", "Walking Corpse"]
    casts = [e["card"] for e in game.drivers.trace if e["event"] == "cast"]
    assert casts == ["Zombie", "Zombie", "Zombie Giant", "Walking Corpse"]
    assert [c.name for c in game.horde.library] == ["Zombie"]
    assert game.drivers.stats.cards_revealed == 4 and game.drivers.stats.longest_streak == 3


def test_H5_reveal_stops_when_library_empty(make_game, catalogue):
    game = make_game(players=1)
    library(game, catalogue, "Zombie", "Zombie")
    turns.reveal_and_cast(game)
    assert len(game.battlefield.horde) == 2 and not game.horde.library


def test_H5o_revealed_order_option(make_game, catalogue):
    game = make_game(players=1, reveal="escalating", cast_order="revealed")
    game.drivers.trace = []
    game.horde_turns = 1
    library(game, catalogue, "Zombie", "Walking Corpse", "Zombie", "Maggot Carrier")
    turns.reveal_and_cast(game)
    casts = [e["card"] for e in game.drivers.trace if e["event"] == "cast"]
    assert casts == ["Maggot Carrier", "Zombie", "Walking Corpse"]


def test_H5e_escalating_reveal_reveals_base_plus_k_minus_one(make_game, catalogue):
    game = make_game(players=1, reveal="escalating", reveal_base=3)
    library(game, catalogue, *["Zombie"] * 10)
    game.horde_turns = 1
    turns.reveal_and_cast(game)
    assert len(game.battlefield.horde) == 3
    game.horde_turns = 2
    turns.reveal_and_cast(game)
    assert len(game.battlefield.horde) == 3 + 4
    game.horde_turns = 3
    turns.reveal_and_cast(game)
    assert len(game.battlefield.horde) == 10  # 5 asked, 3 left


def test_H5e_escalating_casts_tokens_first_then_the_rest_in_order(make_game, catalogue):
    game = make_game(players=1, reveal="escalating", reveal_base=4)
    game.drivers.trace = []
    game.horde_turns = 1
    library(game, catalogue, "Walking Corpse", "Zombie", "Maggot Carrier", "Zombie")
    turns.reveal_and_cast(game)
    casts = [e["card"] for e in game.drivers.trace if e["event"] == "cast"]
    assert casts == ["Zombie", "Zombie", "Maggot Carrier", "Walking Corpse"]


def test_H5t_tokens_are_cast_and_can_be_countered(make_game, catalogue):
    countered = []
    policy = Scripted(counter=lambda d: countered.append(d.subject.name) or d.options[0])
    game = make_game(players=1, policy=policy)
    game.players[0].hand[:] = [catalogue.get("Counterspell")]
    put(game, catalogue, "Island", side="team")
    put(game, catalogue, "Island", side="team")
    library(game, catalogue, "Walking Corpse", "Zombie")
    turns.reveal_and_cast(game)
    assert countered == ["Zombie"]
    assert [p.card.name for p in game.battlefield.horde] == ["Walking Corpse"]
    assert game.horde.graveyard == []  # H6/H10: a countered token ceases to exist


def test_H5t_put_option_skips_casting(make_game, catalogue):
    policy = Scripted(counter=lambda d: d.options[0])
    game = make_game(players=1, policy=policy, token_entry="put")
    game.players[0].hand[:] = [catalogue.get("Counterspell")]
    put(game, catalogue, "Island", side="team")
    put(game, catalogue, "Island", side="team")
    library(game, catalogue, "Walking Corpse", "Zombie")
    turns.reveal_and_cast(game)
    kinds = [d.kind for d in policy.seen]
    assert kinds == ["counter"]  # offered only for the nontoken card
    assert [p.card.name for p in game.battlefield.horde] == ["Zombie"]
    assert [c.name for c in game.horde.graveyard] == ["Walking Corpse"]


def test_H6_bounced_card_is_cast_again_after_next_nontoken(make_game, catalogue):
    game = make_game(players=1)
    game.drivers.trace = []
    corpse = put(game, catalogue, "Walking Corpse")
    token = put(game, catalogue, "Zombie")
    rules.bounce(game, corpse)
    rules.bounce(game, token)
    assert [c.name for c in game.horde.hand] == ["Walking Corpse"]  # the token ceased to exist
    library(game, catalogue, "Maggot Carrier", "Zombie")
    turns.reveal_and_cast(game)
    casts = [e["card"] for e in game.drivers.trace if e["event"] == "cast"]
    assert casts == ["Zombie", "Maggot Carrier", "Walking Corpse"]
    assert not game.horde.hand


def test_H7_horde_pays_nothing_and_x_is_horde_x(make_game, catalogue):
    game = make_game(players=1)
    library(game, catalogue, "Blaze")
    turns.reveal_and_cast(game)
    # Blaze with X = 3 at a random legal target: the only one is the team's player.
    assert game.team_life == 17


def test_H8_horde_creatures_have_haste_attack_and_stay_tapped(make_game, catalogue):
    game = make_game(players=2, policy=Scripted(blocks=[]))
    library(game, catalogue, "Zombie", "Zombie", "Walking Corpse", "Zombie")
    game.turn = 4
    turns.horde_turn(game)
    assert all(p.tapped for p in game.battlefield.horde)
    assert game.team_life == 40 - 4
    # During the team's turn the tapped Horde creatures can't block.
    lion = put(game, catalogue, "Savannah Lions", side="team")
    game.turn = 5
    game.players[0].library[:] = [catalogue.get("Plains")] * 5
    game.players[1].library[:] = [catalogue.get("Plains")] * 5
    turns.team_combat(game)
    assert not lion.blocked
    assert game.horde_milled == 2


def test_H8_each_attacker_picks_a_random_team_player(make_game, catalogue):
    game = make_game(players=4, policy=Scripted(blocks=[]))
    game.drivers.trace = []
    for _ in range(40):
        put(game, catalogue, "Zombie")
    turns.horde_combat(game, set())
    targets = {e["target_player"] for e in game.drivers.trace if e["event"] == "attack"}
    assert targets == {1, 2, 3, 4}


def test_H8_untapped_horde_creature_blocks(make_game, catalogue):
    game = make_game(players=1, policy=Scripted(attackers=lambda d: list(d.options)))
    zombie = put(game, catalogue, "Zombie")
    lion = put(game, catalogue, "Savannah Lions", side="team")
    turns.team_combat(game)
    assert zombie not in game.battlefield.horde and lion not in game.battlefield.team
    assert game.horde_milled == 0


def test_H9_horde_choices_use_its_own_stream(make_game, catalogue):
    picks = []
    for stir in (False, True):
        game = make_game(players=1, seed=5)
        for _ in range(3):
            put(game, catalogue, "Zombie")
        import random as global_random

        import numpy as np

        if stir:
            global_random.random()
            np.random.random()
        library(game, catalogue, "Fleshbag Marauder")
        turns.reveal_and_cast(game)
        picks.append([p.id for p in game.battlefield.horde])
    assert picks[0] == picks[1]
    assert len(picks[0]) == 3  # the Horde sacrificed one of its four creatures


def test_H10_countered_horde_card_goes_to_its_graveyard(make_game, catalogue):
    game = make_game(players=1, policy=Scripted(counter=lambda d: d.options[0]))
    game.players[0].hand[:] = [catalogue.get("Counterspell")]
    put(game, catalogue, "Island", side="team")
    put(game, catalogue, "Island", side="team")
    library(game, catalogue, "Grave Titan")
    turns.reveal_and_cast(game)
    assert [c.name for c in game.horde.graveyard] == ["Grave Titan"]
    assert not game.battlefield.horde
    assert [c.name for c in game.players[0].graveyard] == ["Counterspell"]


def test_H11_damage_to_the_horde_mills_and_excess_is_lost(make_game, catalogue):
    game = make_game(players=1)
    library(game, catalogue, *["Zombie"] * 5)
    assert rules.damage_horde(game, 3) == 3
    assert len(game.horde.library) == 2 and len(game.horde.graveyard) == 3
    assert rules.damage_horde(game, 10) == 2
    assert not game.horde.library and len(game.horde.graveyard) == 5


def test_H11_life_the_team_makes_the_horde_lose_mills(make_game, catalogue):
    game = make_game(players=1)
    library(game, catalogue, *["Zombie"] * 5)
    carrier = put(game, catalogue, "Maggot Carrier", side="team")
    rules.run_hook(game, carrier, "Enters")  # each player loses 1: the team and the Horde
    assert len(game.horde.library) == 4
    assert game.team_life == 19
    horde_carrier = put(game, catalogue, "Maggot Carrier")
    rules.run_hook(game, horde_carrier, "Enters")  # the Horde's own: only the team loses life
    assert len(game.horde.library) == 4
    assert game.team_life == 18


def test_H12_team_wins_when_library_hand_and_creatures_are_gone(make_game, catalogue):
    game = make_game(players=1)
    put(game, catalogue, "Bad Moon")  # a noncreature permanent does not keep the Horde alive
    zombie = put(game, catalogue, "Zombie")
    rules.check_state(game)
    assert not game.over()
    rules.destroy(game, zombie)
    game.horde.hand.append(catalogue.get("Walking Corpse"))
    rules.check_state(game)
    assert not game.over()  # a bounced card still waits in the Horde's hand
    game.horde.hand.clear()
    rules.check_state(game)
    assert game.winner == "team"


def test_H13_team_loses_at_zero_life(make_game, catalogue):
    game = make_game(players=1)
    game.horde.library.append(catalogue.get("Zombie"))
    rules.lose_life(game, 20)
    rules.check_state(game)
    assert game.winner == "horde"


def test_H13_drawing_from_an_empty_library_loses(make_game, catalogue):
    game = make_game(players=2)
    game.horde.library.append(catalogue.get("Zombie"))
    game.players[1].library.clear()
    rules.draw(game, game.players[1])
    rules.check_state(game)
    assert game.winner == "horde"


def test_H13_fifteen_poison_counters_lose(make_game, catalogue):
    game = make_game(players=2)
    game.horde.library.append(catalogue.get("Zombie"))
    game.players[0].poison = 14
    rules.check_state(game)
    assert not game.over()
    game.players[0].poison = 15
    rules.check_state(game)
    assert game.winner == "horde"


def test_H14_stall_after_max_turns(test_decks, catalogue):
    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", players=4, max_turns=3)
    result = play_game(setup, 3, catalogue=catalogue)
    assert result.winner == "stall" and result.turns == 3


# ---------------------------------------------------------------- H15 the work budget

RUNAWAY_CARDS = """Name: Mirror Spirit
Type: Token Creature — Spirit
PT: 1/1
Enters: create_tokens token="Mirror Spirit"
"""
RUNAWAY_DECK = "About\nKind horde\nBuild fixed\n\nDeck\n10 Mirror Spirit\n"


@pytest.fixture
def runaway(tmp_path, decks, monkeypatch):
    """The test decks plus a Horde deck of a token whose entering creates another of itself."""
    import shutil

    folder = tmp_path / "decks"
    shutil.copytree(decks, folder)
    (folder / "cards" / "runaway.txt").write_text(RUNAWAY_CARDS)
    (folder / "horde" / "runaway.txt").write_text(RUNAWAY_DECK)
    monkeypatch.setenv("HORDE_DECKS", str(folder))
    return make_setup("zombie-horde", horde_deck="runaway", team_decks=["white"] * 4, boss="none",
                      lieutenants=False, players=1, cards_per_player=10, grace_turns=0)


def test_H15_triggers_that_never_end_abort_the_game(runaway):
    result = play_game(runaway, 1)
    assert result.winner == "aborted" and result.aborted == "triggered abilities nested more than 60 deep"
    assert result.turns == 1 and result.horde_turns == 1


def test_H15_the_work_budget_aborts_a_game_that_passes_it(decks, monkeypatch):
    import horde.engine.state

    setup = make_setup("zombie-horde", horde_deck="mini", team_decks=["white"] * 4, boss="none", players=2)
    assert play_game(setup, 3).winner != "aborted"
    monkeypatch.setattr(horde.engine.state, "WORK_BUDGET", 40)
    result = play_game(setup, 3, trace=True)
    assert result.winner == "aborted" and result.aborted.startswith("more than 40 units of work")
    assert result.events[-1]["event"] == "game_over" and result.events[-1]["winner"] == "aborted"


def test_H15_the_battlefield_holds_at_most_its_limit(decks, monkeypatch):
    import horde.engine.rules.zones

    monkeypatch.setattr(horde.engine.rules.zones, "BATTLEFIELD_MAX", 6)
    setup = make_setup("zombie-horde", horde_deck="mini", team_decks=["white"] * 4, boss="none", players=2)
    result = play_game(setup, 3)
    assert result.winner == "aborted" and result.aborted == "more than 6 permanents on the battlefield"


def test_H15_aborted_games_are_counted_apart_from_stalls(runaway):
    from horde.lab.runner import summarise

    summary = summarise([play_game(runaway, seed) for seed in range(3)])
    assert (summary["games"], summary["aborted"], summary["stalls"], summary["team_wins"]) == (3, 3, 0, 0)


# ---------------------------------------------------------------- H13a: state-based actions and triggers


@pytest.fixture(scope="module")
def bundled():
    from horde.cards.catalogue import bundled_catalogue

    return bundled_catalogue()


def bundled_game(players=4, policy=None):
    """A zombie-horde game of the bundled decks, not started: empty battlefield and Horde library,
    no boss or lieutenants, a trace kept."""
    from horde.play import new_game, prepare

    game = new_game(prepare(make_setup("zombie-horde", players=players, boss="none", lieutenants=False)), 0,
                    policy or Scripted())
    game.horde.library.clear()
    game.drivers.trace = []
    return game


def elesh_norn_kills(game, bundled, *names):
    """The Horde's ``names`` (in that order on the battlefield), then Elesh Norn, Grand Cenobite under
    player 1: 'creatures your opponents control get -2/-2' leaves every one with no toughness."""
    board = [put(game, bundled, name) for name in names]
    put(game, bundled, "Elesh Norn, Grand Cenobite", side="team")
    return board


def test_H13a_a_board_dead_with_the_library_empty_is_won_before_any_trigger(bundled):
    """The position of `horde play --seed 7 --players 4` before the fix: Elesh Norn's -2/-2 kills the
    whole Horde board with its library empty. The five die at once; H12 holds at that moment, so the
    team has won and none of Vengeful Dead's five triggers resolves (before: 20 life lost each time
    a Zombie died, the team's life driven below 0 and the Horde declared the winner)."""
    game = bundled_game()
    elesh_norn_kills(game, bundled, "Vengeful Dead", "Zombie", "Zombie", "Zombie", "Walking Corpse")
    rules.check_state(game)
    assert game.winner == "team" and game.team_life == 80
    events = [e["event"] for e in game.drivers.trace]
    assert events.count("leaves") == 5 and "life_lost" not in events
    assert game.battlefield.horde == [] and game.waiting == []


def test_H13a_creatures_that_die_together_see_each_other_die(bundled):
    """603.10a: Vengeful Dead ('whenever Vengeful Dead or another Zombie dies, each opponent loses 1
    life') dies with four Zombies and triggers for all five, though it leaves the battlefield first:
    4 players lose 1 life each, five times (before: only for itself, 4 life)."""
    game = bundled_game()
    game.horde.library.append(bundled.get("Zombie"))
    elesh_norn_kills(game, bundled, "Vengeful Dead", "Zombie", "Zombie", "Zombie", "Walking Corpse")
    rules.check_state(game)
    assert not game.over()
    assert game.team_life == 80 - 5 * 4
    assert sum(1 for e in game.drivers.trace if e["event"] == "life_lost") == 5 * 4


def test_H13a_the_game_ends_between_two_triggered_abilities(bundled):
    """The team at 8 life: the second of Vengeful Dead's four triggers takes it to 0; the state-based
    actions checked before the third end the game (H13), and nothing further resolves."""
    game = bundled_game()
    game.horde.library.append(bundled.get("Zombie"))
    rules.lose_life(game, 72)
    elesh_norn_kills(game, bundled, "Vengeful Dead", "Zombie", "Zombie", "Zombie")
    rules.check_state(game)
    assert game.winner == "horde" and game.team_life == 0
    assert sum(1 for e in game.drivers.trace if e["event"] == "life_lost") == 1 + 2 * 4
    assert game.waiting == []


@pytest.mark.parametrize("active, first", [("horde", "enters"), ("team", "life_lost")])
def test_H13a_the_active_sides_triggers_go_on_the_stack_first_and_resolve_last(bundled, active, first):
    """603.3b: a team creature and a Horde creature die together. In the Horde's turn the team's
    trigger (Doomed Traveler: a Spirit enters) resolves first; in the team's, the Horde's
    (Vengeful Dead: each opponent loses 1 life)."""
    game = bundled_game(players=1)
    game.horde.library.append(bundled.get("Zombie"))
    game.active = Side.HORDE if active == "horde" else Side.TEAM
    dead = [put(game, bundled, "Vengeful Dead"), put(game, bundled, "Doomed Traveler", side="team")]
    for p in dead:
        rules.damage_permanent(game, None, HORDE if p.controller == 0 else 0, p, 5)
    start = len(game.drivers.trace)
    rules.check_state(game)
    after = [e["event"] for e in game.drivers.trace[start:] if e["event"] in ("enters", "life_lost")]
    assert after == [first, "life_lost" if first == "enters" else "enters"]
    assert game.team_life == 19 and [p.card.name for p in game.battlefield.team] == ["Spirit"]


def test_H13a_the_horde_puts_its_own_triggers_on_the_stack_in_a_random_order(bundled):
    """H9: two different Horde abilities trigger together (Vengeful Dead's, and a Dies ability of
    Doomed Traveler, here the Horde's): their order is drawn from the Horde's stream, one shuffle."""
    orders = set()
    for seed in range(12):
        game = bundled_game(players=1)
        game.horde.library.append(bundled.get("Zombie"))
        game.horde_rng = random.Random(seed)
        for name in ("Vengeful Dead", "Doomed Traveler"):
            rules.damage_permanent(game, None, 0, put(game, bundled, name), 5)
        start = len(game.drivers.trace)
        rules.check_state(game)
        orders.add(tuple(e["event"] for e in game.drivers.trace[start:] if e["event"] in ("enters", "life_lost")))
    assert orders == {("enters", "life_lost"), ("life_lost", "enters")}


def test_704_5j_the_legend_rule_applies_to_tokens_on_both_sides(bundled):
    """704.5j: player 1 controls three Voja tokens and keeps the one its policy names; player 2's own
    Voja stays (the rule is per player); the Horde keeps one of its two legendary Vojas at random."""
    kept = {}

    def keep(decision):
        kept["options"] = list(decision.options)
        return decision.options[1]

    game = bundled_game(players=2, policy=Scripted(keep=keep))
    game.horde.library.append(bundled.get("Zombie"))
    mine = [put(game, bundled, "Voja", side="team") for _ in range(3)]
    theirs = put(game, bundled, "Voja", side="team", player=1)
    horde = [put(game, bundled, "Voja") for _ in range(2)]
    rules.check_state(game)
    assert kept["options"] == mine
    assert [p for p in game.battlefield.team] == [mine[1], theirs]
    assert sum(1 for p in game.battlefield.horde if p in horde) == 1
    assert [e["event"] for e in game.drivers.trace].count("legend_rule") == 3
    assert game.battlefield.legends == 2 + 1
