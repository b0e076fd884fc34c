"""The extreme soak: every preset and every policy at the extreme legal settings, with the
conformance invariants checked after every step of every game.

The settings are the knobs' edges: 1,000 life per player (or a fixed shared life of 1,000 for
the presets that fix it), a 1-card Horde deck (one player, one card) and a 300-card one (four
players), 0 and 10 grace turns, and turns up to H14's 1,000. A setting a preset's deck can't take
is taken as far as it goes: a fixed list of 100 cards gives a 100-card deck, a challenge deck is
played whole (F, M, G) at one and four players. A game may end in any way, the work budget's
``aborted`` (H15) included, but no invariant may break.

CI plays ``scaled(32)`` games of each of the four settings of each preset and policy (3 at
``HORDE_SLOW_SCALE=0.1``); ``make soak`` plays them all (32 x 4 x presets x policies, 5,120
with the 8 presets and 5 policies) on every core. ``HORDE_SOAK_LOG`` names a file each test adds
its figures to (``make soak`` prints their sum).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from conftest import scaled
from test_conformance import invariants

from horde.cards.decks import load_horde_deck
from horde.engine.state import Winner
from horde.errors import HordeError
from horde.play import play_game, prepare
from horde.setup import PRESETS, GameSetup, make_setup
from horde.team.policies import POLICIES

LIFE = 1000  # the most life_per_player and fixed_life take
BIG_DECK = 300  # Horde cards of the big deck (four players)
GRACE = (0, 10)
MAX_TURNS = 1000  # H14's largest
GAMES = 32  # games of each setting of each preset and policy, before HORDE_SLOW_SCALE


def extreme_setup(preset: str, policy: str, big: bool, grace: int) -> GameSetup:
    """The preset at the extreme legal settings, each knob as far as this preset's deck takes it."""
    players = 4 if big else 1
    own = PRESETS[preset]
    knobs: dict = {"players": players, "grace_turns": grace, "policy": policy, "max_turns": MAX_TURNS}
    if own.get("fixed_life") is not None:
        knobs["fixed_life"] = LIFE
    else:
        knobs["life_per_player"] = LIFE
    if own.get("horde_size") is not None:
        knobs["horde_size"] = BIG_DECK if big else 1
    else:
        knobs["cards_per_player"] = BIG_DECK // players if big else 1
    while True:
        setup = make_setup(preset, **knobs)
        deck = load_horde_deck(setup.horde_deck)
        if deck.build == "fixed" and len(deck.cards) < setup.deck_size:
            knobs["cards_per_player"] = len(deck.cards) // players  # the whole fixed list (H3)
            continue
        try:
            prepare(setup)
        except HordeError as error:
            if error.knob in knobs:  # a knob this preset's deck never reads (a deck played whole)
                del knobs[error.knob]
                continue
            raise
        return setup


# lookahead and expert play each important decision forward on copies of the game: at these
# settings (1,000 life, 1,000 turns, 300-card decks) a game of them takes many minutes. Their
# copies play the same engine the baseline's games here soak, and test_policies checks their choices.
CASES = [(preset, policy) for preset in PRESETS for policy in POLICIES if policy not in ("lookahead", "expert")]


@pytest.mark.slow
@pytest.mark.parametrize("preset, policy", CASES, ids=[f"{p}-{q}" for p, q in CASES])
def test_soak_every_preset_and_policy_at_extreme_settings(preset, policy):
    began = time.perf_counter()
    games, ends = 0, {str(w): 0 for w in Winner}
    sizes = set()
    for big in (False, True):
        for grace in GRACE:
            setup = extreme_setup(preset, policy, big, grace)
            sizes.add(setup.deck_size)
            for seed in range(scaled(GAMES)):
                result = play_game(setup, (17, seed), check=invariants)
                ends[str(result.winner)] += 1
                games += 1
    assert games == 4 * scaled(GAMES)
    if PRESETS[preset].get("horde_size") is not None or preset in ("zombie-horde", "burn-the-bodies",
                                                                  "horde-sealed"):
        assert sizes == {1, BIG_DECK}  # the knobs' very edges where the deck takes them
    if os.environ.get("HORDE_SOAK_LOG"):
        with open(os.environ["HORDE_SOAK_LOG"], "a") as log:
            log.write(f"{preset}\t{policy}\t{games}\t{time.perf_counter() - began:.1f}\t"
                      f"{' '.join(f'{k}={v}' for k, v in sorted(ends.items()))}\n")


def summary(log: Path) -> str:
    """The figures of a soak from its HORDE_SOAK_LOG: games, their ends, engine time."""
    rows = [line.split("\t") for line in log.read_text().splitlines() if line.count("\t") == 4]
    ends: dict[str, int] = {}
    for row in rows:
        for item in row[4].split():
            key, _, value = item.partition("=")
            ends[key] = ends.get(key, 0) + int(value)
    return (f"{sum(int(r[2]) for r in rows)} games in {len(rows)} preset-policy pairs, "
            f"{sum(float(r[3]) for r in rows):.0f} s of play in all; ends: "
            + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())) + "; 0 invariant violations (every test passed)"
            if rows else "no soak figures")


if __name__ == "__main__":  # make soak: python tests/test_soak.py LOG prints the soak's figures
    print(summary(Path(sys.argv[1])))
