"""A pinned digest of 1,000 reference games' records: the same seeds must give the same games
after any change that is not meant to change the rules (refactoring, speed work). When a rule
change is intended, update DIGEST and say so in the commit."""

from __future__ import annotations

import hashlib
import json

from horde.play import play_game
from horde.setup import make_setup
from horde.team.policies import make_policy

DIGEST = "a534fc8b726d506fb1362e65a7fbdb773916f42fb9c8da5838ab9b58f9695ad3"


def records_digest(games: int = 1000) -> str:
    setup = make_setup("zombie-horde", players=4)
    policy = make_policy(setup.policy)
    digest = hashlib.sha256()
    for i in range(games):
        record = play_game(setup, ("digest", i), policy=policy).record()
        record.pop("version")
        record.pop("setup_hash")  # a new knob changes every setup's hash, not the games
        digest.update(json.dumps(record, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def test_reference_games_are_unchanged():
    assert records_digest() == DIGEST
