"""The look-ahead policy: it plays its important decisions forward on copies of the game, and the
real game is untouched by the copies."""

from __future__ import annotations

from horde.engine import opponents, turns
from horde.lab.puzzles import load_themes, play_puzzle
from horde.play import new_game, play, play_game, prepare
from horde.setup import make_setup
from horde.team.policies import BaselinePolicy, LookaheadPolicy, fork, make_policy, position_value

PUZZLES = {p.name: p for t in load_themes() for p in t.puzzles}


def test_H10_lookahead_and_baseline_counter_the_enchantment_that_makes_zombies():
    # Endless Ranks of the Dead (mana value 4) makes Zombies every Horde upkeep: baseline reads
    # the recurring trigger as a bomb, and played forward the look-ahead sees the Zombies come.
    puzzle = PUZZLES["counter-endless-ranks"]
    assert play_puzzle(puzzle, make_policy("baseline")).answer == "Counterspell"
    assert play_puzzle(puzzle, make_policy("lookahead")).answer == "Counterspell"


def test_H11_lookahead_burns_the_library_behind_walls():
    puzzle = PUZZLES["burn-the-library-behind-walls"]
    assert play_puzzle(puzzle, make_policy("baseline")).answer == "Walking Corpse"
    assert play_puzzle(puzzle, make_policy("lookahead")).answer == "the Horde"


def test_budget_0_plays_as_baseline():
    setup = make_setup("zombie-horde", players=3)
    for i in range(3):
        a = play_game(setup, ("ahead", i), policy=make_policy("baseline")).record()
        b = play_game(setup, ("ahead", i), policy=make_policy("lookahead", budget=0)).record()
        assert a == b


def test_a_fork_played_to_its_end_leaves_the_game_untouched():
    prepared = prepare(make_setup("zombie-horde", players=4))
    game = new_game(prepared, ("fork", 1))
    before = (len(game.horde.library), game.horde_rng.getstate(), game.dice_rng.getstate(),
              [len(p.library) for p in game.players], game.turn, game.team_life)
    copy = fork(game, BaselinePolicy())
    procedure = opponents.procedure(copy.setup)
    turns.opening_hands(copy)
    while not copy.over():
        opponents.play_turn(copy, procedure)
    assert copy.winner is not None and copy.turn > 0
    after = (len(game.horde.library), game.horde_rng.getstate(), game.dice_rng.getstate(),
             [len(p.library) for p in game.players], game.turn, game.team_life)
    assert after == before
    assert game.battlefield.team == [] and game.battlefield.horde == []


def test_a_fork_replays_the_same_game():
    # The engine is deterministic: a copy taken before the game starts, played by the same
    # policy, ends exactly as the game itself.
    prepared = prepare(make_setup("zombie-horde", players=2))
    game = new_game(prepared, ("fork", 2), BaselinePolicy())
    copy = fork(game, BaselinePolicy())
    play(game)
    play(copy)
    assert (copy.winner, copy.turn, copy.team_life, len(copy.horde.library)) == \
        (game.winner, game.turn, game.team_life, len(game.horde.library))
    assert position_value(copy) == position_value(game)


def test_lookahead_is_registered_with_its_budget():
    assert LookaheadPolicy.budget == 4
    assert make_policy("lookahead", budget=2).budget == 2
