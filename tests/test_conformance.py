"""The conformance test: many seeded games with an invariant check after every turn; and
determinism (same seed, same game, whatever else happens in the process)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import TEST_DECKS, scaled

from horde.engine import rules
from horde.engine.state import HORDE_CONTROLLER
from horde.play import play_game
from horde.setup import make_setup


def invariants(game) -> None:
    """Every card in exactly one zone, no negative counters (704.5q: never +1/+1 and -1/-1
    counters on one permanent), life accounted for, poison never negative."""
    for player in game.players:
        on_battlefield = sum(1 for board in (game.battlefield.team, game.battlefield.horde) for p in board
                             if p.owner == player.index and not p.card.is_token)
        zones = (len(player.library) + len(player.hand) + len(player.graveyard) + len(player.exile)
                 + len(player.command) + len(player.out_of_game) + on_battlefield)
        assert zones == player.deck_size, (player.index, zones, player.deck_size)
    if game.lieutenants is not None:
        # L3/L6: each lieutenant is waiting, on the battlefield, or exiled with time counters.
        for lt in game.lieutenants.drawn:
            assert (lt.permanent is not None) + (lt in game.lieutenants.exiled) <= 1
            assert lt.time_counters >= 0
        assert game.lieutenants.entry_counters >= 0
    horde_owned = sum(1 for board in (game.battlefield.team, game.battlefield.horde) for p in board
                      if p.owner == HORDE_CONTROLLER and (p.deck_card or not p.card.is_token)
                      and p.lieutenant is None and not p.extra)
    horde = game.horde
    zones = (len(horde.library) + len(horde.hand) + len(horde.graveyard) + len(horde.exile) + len(horde.revealed)
             + horde.tokens_gone)
    assert zones + horde_owned == horde.deck_size, (zones, horde_owned, horde.deck_size)
    for board in (game.battlefield.team, game.battlefield.horde):
        for p in board:
            assert p.plus >= 0 and p.minus >= 0 and p.shields >= 0 and p.damage >= 0
            assert not (p.plus and p.minus), (p, p.plus, p.minus)  # 704.5q
            assert p.regeneration >= 0
            if p.card.is_creature and not game.over():
                # State-based actions have run: no creature is left with lethal damage or no toughness.
                toughness = rules.toughness(game, p)
                assert toughness > 0, (p, toughness)
                assert p.damage < toughness or rules.has_keyword(game, p, "indestructible"), (p, p.damage)
    if not game.over():
        for aura in game.battlefield.auras:  # 704.5m has run: every Aura enchants something it may
            assert rules.aura_is_legal(game, aura), (aura, aura.attached_to, aura.attached_player)
            assert aura.attached_to is None or aura in aura.attached_to.auras
    for player in game.players:  # the index of each player's mana sources (C4) matches the battlefield
        sources = [p for p in game.battlefield.team if p.controller == player.index and p.card.mana]
        assert game.battlefield.mana_sources.get(player.index, []) == sources, (player.index, sources)
    ids = [p.id for board in (game.battlefield.team, game.battlefield.horde) for p in board]
    assert len(ids) == len(set(ids))
    if game.boss is not None:
        assert game.boss.loyalty >= 0
    if game.setup.life == "individual":
        # Z: the team's life is the sum of the lives of the players still in the game, each above 0
        # (a player brought to 0 fell and is back at its start: Z1).
        assert game.team_life == sum(pl.life for pl in game.players if not pl.removed)
        assert all(pl.life > 0 for pl in game.players if not pl.removed)
        assert all(pl.master == -2 for pl in game.players if not pl.zombie)
    else:
        assert game.team_life == game.start_life - game.damage_taken - game.life_lost + game.life_gained
    assert all(pl.poison >= 0 for pl in game.players)
    if game.schemes is not None:
        # A1: every scheme face down in the deck or an ongoing one face up, never both.
        assert all("Ongoing" in s.card.supertypes for s in game.schemes.face_up)
        assert len(game.schemes.deck) + len(game.schemes.face_up) in (20, 21)


def setups(bundled: bool):
    if bundled:
        return [make_setup("zombie-horde"), make_setup("knudson-2011"),
                make_setup("zombie-horde", players=3), make_setup("knudson-2011", players=2),
                make_setup("zombie-horde", horde_deck="grave-horde", players=4),
                make_setup("zombie-horde", horde_deck="phyrexian-horde", players=3),
                make_setup("zombie-horde", horde_deck="grave-horde", players=2, policy="random")]
    return [make_setup("zombie-horde", horde_deck=d, team_decks=["white"] * 4, boss=b, players=p)
            for d, b, p in (("mini", "none", 4), ("mini-boss", "random", 4), ("mini-recipe", "none", 2),
                            ("mini-boss", "random", 3))]


@pytest.mark.parametrize("index", range(4))
def test_conformance_small_decks(index, monkeypatch):
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    setup = setups(False)[index]
    for seed in range(scaled(300)):
        play_game(setup, seed, check=invariants)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(7))
def test_conformance_bundled_setups(index):
    """At least 2,000 seeded games of each bundled setup (reduced in CI by HORDE_SLOW_SCALE)."""
    setup = setups(True)[index]
    winners = set()
    for seed in range(scaled(2000)):
        winners.add(play_game(setup, seed, check=invariants).winner)
    assert winners <= {"team", "horde", "stall"}


def test_determinism_same_seed_same_event_log(monkeypatch):
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    setup = setups(False)[1]
    first = play_game(setup, 42, trace=True).events
    random.seed(1)
    np.random.seed(1)
    random.random()
    np.random.random(10)
    second = play_game(setup, 42, trace=True).events
    assert first == second
    assert play_game(setup, 43, trace=True).events != first


def test_determinism_bundled_default():
    setup = make_setup("zombie-horde")
    first = play_game(setup, 7, trace=True).events
    random.seed(99)
    np.random.seed(99)
    assert play_game(setup, 7, trace=True).events == first


NEW_PRESETS = ["face-the-hydra", "battle-the-horde", "defeat-a-god", "overwhelming-numbers", "burn-the-bodies",
               "horde-sealed", "archenemy-horde", "fallen-heroes"]


@pytest.mark.slow
@pytest.mark.parametrize("preset", NEW_PRESETS)
def test_conformance_every_other_preset(preset):
    """Every preset beyond the two above (F, M, G, V), 1 to 4 players in turn, the invariants after
    every step (at least 800 games each; reduced in CI by HORDE_SLOW_SCALE)."""
    play_every_player_count([make_setup(preset, players=p) for p in (1, 2, 3, 4)])


def play_every_player_count(setups) -> None:
    """At least 800 games (reduced in CI), the four setups in turn, the invariants after every step."""
    winners = set()
    for seed in range(scaled(800)):
        winners.add(play_game(setups[seed % 4], seed, check=invariants).winner)
    assert winners <= {"team", "horde", "stall"}


def test_smart_horde_and_hydra_choices_at_random_keep_the_invariants():
    for setup in (make_setup("zombie-horde", players=3, horde_choices="smart"),
                  make_setup("face-the-hydra", players=2, hydra_choices="random"),
                  make_setup("defeat-a-god", players=4, horde_choices="smart")):
        for seed in range(scaled(40)):
            play_game(setup, seed, check=invariants)


def test_variants_keep_the_invariants():
    """A and Z (not slow): both scheme decks, the smart Horde's choices, fallen heroes with every policy."""
    for setup in (make_setup("archenemy-horde", players=3), make_setup("archenemy-horde", players=2,
                  schemes="nicol-bolas-2017", horde_choices="smart"), make_setup("fallen-heroes", players=4),
                  make_setup("fallen-heroes", players=2, policy="random"),
                  make_setup("archenemy-horde", players=4, life="individual", schemes="nicol-bolas-2017")):
        for seed in range(scaled(40)):
            play_game(setup, seed, check=invariants)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["draft", "sealed"])
def test_conformance_drafted_and_sealed_team_decks(mode):
    """X1: team decks drafted (or sealed) from the cube for every game, 1 to 4 players in turn, the
    invariants after every step (at least 800 games each; reduced in CI by HORDE_SLOW_SCALE)."""
    play_every_player_count([make_setup("zombie-horde", players=p, team_decks=mode) for p in (1, 2, 3, 4)])


@pytest.mark.parametrize(("preset", "players", "mode"), [("zombie-horde", 1, "draft"), ("knudson-2011", 4, "draft"),
                                                      ("horde-sealed", 3, "sealed")])
def test_drafted_and_sealed_decks_keep_the_invariants(preset, players, mode):
    setup = make_setup(preset, players=players, team_decks=mode)
    for seed in range(scaled(24)):
        play_game(setup, seed, check=invariants)


class WatchedTrace(list):
    """A trace that notes every event recorded once the game is already over."""

    def __init__(self, game):
        super().__init__()
        self.game = game
        self.late: list[dict] = []

    def append(self, event):
        if self.game.over() and event["event"] != "game_over":
            self.late.append(event)
        super().append(event)


@pytest.mark.parametrize("preset", ["zombie-horde", "knudson-2011", "battle-the-horde", "face-the-hydra",
                                    "horde-sealed", "fallen-heroes"])
def test_H13a_no_event_follows_the_end_of_a_game(preset):
    """H13a: a game stops the moment its end condition holds: across seeded games of several
    presets, no event is recorded once the winner is known but the game's end itself."""
    from horde.engine.state import Winner
    from horde.play import new_game, play, prepare
    from horde.team.policies import BaselinePolicy

    prepared = prepare(make_setup(preset, players=4))
    for seed in range(scaled(12)):
        game = new_game(prepared, seed, BaselinePolicy())
        game.drivers.trace = trace = WatchedTrace(game)
        play(game)
        assert game.winner in (Winner.TEAM, Winner.HORDE, Winner.STALL)
        assert trace.late == [], (seed, trace.late[:3])
