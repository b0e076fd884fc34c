"""The trace's events as docs/events.md documents them: every event of several traced games has
exactly the documented fields with the documented types, players are numbered from 1 in every
field, and the file is the one the schema makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import scaled

from horde.engine.events import EVENTS, markdown, problems
from horde.play import play_game
from horde.setup import make_setup

DOC = Path(__file__).resolve().parent.parent / "docs" / "events.md"
SETUPS = [
    make_setup("zombie-horde", players=4),
    make_setup("zombie-horde", players=3, policy="aggro"),
    make_setup("knudson-2011", players=2, policy="control"),
    make_setup("zombie-horde", players=4, reveal="escalating", token_entry="put", policy="defensive"),
    make_setup("face-the-hydra", players=2),
    make_setup("battle-the-horde", players=3),
    make_setup("defeat-a-god", players=2),
    make_setup("overwhelming-numbers", players=4),
    make_setup("burn-the-bodies", players=2),
    make_setup("archenemy-horde", players=3),
    make_setup("fallen-heroes", players=4, schemes="nicol-bolas-2017"),
    make_setup("zombie-horde", players=2, team_decks=("superfriends", "ramp")),  # H8: planeswalkers
]


def traced_events():
    for setup in SETUPS:
        for seed in range(scaled(12)):
            yield from play_game(setup, seed, trace=True).events


@pytest.fixture(scope="module")
def events():
    return list(traced_events())


def test_every_event_has_the_documented_fields_and_types(events):
    wrong = sorted({problem for event in events for problem in problems(event)})
    assert wrong == []


def test_the_games_show_most_kinds_of_event(events):
    seen = {event["event"] for event in events}
    assert seen <= set(EVENTS)
    assert len(seen) >= 25, sorted(set(EVENTS) - seen)


def test_players_are_numbered_from_one_in_every_field(events):
    for event in events:
        for name in ("player", "target_player", "equipment_to"):
            value = event.get(name)
            assert value is None or 1 <= value <= 4, event
        if event["event"] in ("cast", "discard", "graveyard_exiled", "enters"):
            assert (event["player"] is None) == (event["side"] == "horde"), event


def test_targets_have_one_shape(events):
    for event in events:
        if "target" not in event:
            continue
        if event["target_player"] is not None:
            assert event["target"] == f"player {event['target_player']}" and event["target_id"] is None
        elif event["target_id"] is not None:
            assert event["target"] not in ("the Horde",) and not event["target"].startswith("player ")


def test_events_are_json_as_horde_play_prints_them(events):
    for event in events[:500]:
        assert json.loads(json.dumps(event)) == {k: (str(v) if k == "side" else v) for k, v in event.items()}


def test_docs_events_md_is_made_from_the_schema():
    assert DOC.read_text() == markdown() + "\n", "run: python -c 'from horde.engine.events import markdown; print(markdown())' > docs/events.md"


def test_a_wrong_event_is_reported():
    assert problems({"turn": 1, "side": "team", "event": "nothing"}) == ["unknown event 'nothing'"]
    bad = {"turn": 1, "side": "team", "event": "life_lost", "amount": "3", "team_life": 40, "source": None, "extra": 1}
    assert problems(bad) == ["life_lost: field 'extra' is not documented",
                             "life_lost: field 'amount' = '3' is not int"]
