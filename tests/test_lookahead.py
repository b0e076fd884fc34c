"""The look-ahead policy: it plays its important decisions forward on copies of the game, and the
real game is untouched by the copies; the engine's fork, a copy that plays on exactly as the game."""

from __future__ import annotations

import pytest

from horde.engine import opponents, turns
from horde.engine.fork import fork as engine_fork
from horde.lab.puzzles import load_themes, play_puzzle
from horde.play import new_game, play, play_game, prepare
from horde.setup import make_setup
from horde.team.policies import BaselinePolicy, LookaheadPolicy, fork, make_policy, position_value
from horde.team.view import TeamView

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


def play_turns(game, count):
    procedure = opponents.procedure(game.setup)
    turns.opening_hands(game)
    for _ in range(count):
        if game.over():
            return
        opponents.play_turn(game, procedure)


@pytest.mark.parametrize(("preset", "players", "seed", "turns_before"), [
    ("zombie-horde", 4, 0, 6), ("zombie-horde", 3, 2, 10), ("knudson-2011", 4, 1, 8),
    ("archenemy-horde", 4, 0, 6), ("fallen-heroes", 3, 1, 10), ("face-the-hydra", 2, 0, 3),
    ("battle-the-horde", 3, 0, 3), ("horde-sealed", 2, 4, 8)])
def test_a_fork_plays_on_exactly_as_the_game(preset, players, seed, turns_before):
    # The engine's fork copies everything a game is made of: from the fork on, the copy and the
    # game, played by the same policy, record the same events to the same end.
    prepared = prepare(make_setup(preset, players=players))
    game = new_game(prepared, ("fork", seed), BaselinePolicy(), trace=True)
    play_turns(game, turns_before)
    assert not game.over()
    mark = len(game.drivers.trace)
    copy = engine_fork(game, BaselinePolicy(), trace=True)
    copy.drivers.view = TeamView(copy)
    procedure = opponents.procedure(game.setup)
    for played in (game, copy):
        while not played.over() and opponents.play_turn(played, procedure):
            pass
    assert copy.drivers.trace == game.drivers.trace[mark:]
    assert len(copy.drivers.trace) > 50
    assert (copy.winner, copy.turn, copy.team_life) == (game.winner, game.turn, game.team_life)


@pytest.mark.parametrize(("preset", "players", "seed", "turns_before"), [
    ("zombie-horde", 4, 0, 6), ("archenemy-horde", 4, 0, 6), ("fallen-heroes", 3, 1, 10)])
def test_a_fork_shares_no_list_dict_or_set_with_the_game(preset, players, seed, turns_before):
    # Every piece of state a game changes in place is the copy's own: a field added to the state
    # classes that the fork forgets to copy shows here (the token definitions are read only).
    game = new_game(prepare(make_setup(preset, players=players)), ("fork", seed), BaselinePolicy())
    play_turns(game, turns_before)
    copy = engine_fork(game, BaselinePolicy())
    pairs = [(game, copy), (game.horde, copy.horde), (game.battlefield, copy.battlefield),
             *zip(game.players, copy.players, strict=True),
             *zip(game.battlefield.team + game.battlefield.horde, copy.battlefield.team + copy.battlefield.horde,
                  strict=True)]
    pairs += [(a, b) for a, b in ((game.boss, copy.boss), (game.lieutenants, copy.lieutenants),
                                  (game.schemes, copy.schemes)) if a is not None]
    shared = []
    for old, new in pairs:
        names = list(vars(old)) if hasattr(old, "__dict__") else \
            [name for cls in type(old).__mro__ for name in getattr(cls, "__slots__", ())]
        for name in names:
            value = getattr(old, name)
            if isinstance(value, list | dict | set) and value is getattr(new, name) and name != "tokens":
                shared.append(f"{type(old).__name__}.{name}")
    assert shared == []
