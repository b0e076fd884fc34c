"""Pinned digests of reference games' records: the same seeds must give the same games after any
change that is not meant to change the rules (refactoring, speed work).

Two digests are pinned, of one stream of games: of the first 100 games (what ``make test`` and
``make test-compiled`` check, HORDE_SLOW_SCALE below 1) and of all 1,000 (``make test-full``,
which checks both). When a rule change is intended, re-pin both and say so in the commit:
``python -c "import sys; sys.path.insert(0, 'tests'); from test_digest import records_digests; print(records_digests(1000))"``
prints the two values to put in DIGESTS."""

from __future__ import annotations

import hashlib
import json

from conftest import SLOW_SCALE

from horde.play import play_game
from horde.setup import make_setup
from horde.team.policies import make_policy

DIGESTS = {
    100: "b532bf687072686a430e12952969a420d91e8e3f72541a950160b44c5a980af3",
    1000: "e3430c4de2ea856e232622ee22ef287d69272c5321cd9682cc5eb7886ce9f1d1",
}
REDUCED = 100  # the games make test plays: a tenth of the stream, the same first games


def records_digests(games: int = 1000) -> dict[int, str]:
    """The digest of the first n games' records, for each pinned n up to ``games``."""
    setup = make_setup("zombie-horde", players=4)
    policy = make_policy(setup.policy)
    digest = hashlib.sha256()
    found = {}
    for i in range(games):
        record = play_game(setup, ("digest", i), policy=policy).record()
        record.pop("version")
        record.pop("setup_hash")  # a new knob changes every setup's hash, not the games
        digest.update(json.dumps(record, sort_keys=True, default=str).encode())
        if i + 1 in DIGESTS:
            found[i + 1] = digest.hexdigest()
    return found


def test_reference_games_are_unchanged():
    games = 1000 if SLOW_SCALE >= 1 else REDUCED
    assert records_digests(games) == {n: value for n, value in DIGESTS.items() if n <= games}
