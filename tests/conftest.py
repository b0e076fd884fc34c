"""Shared builders for tiny boards: a small catalogue of real cards (tests/data/decks), games
set up without playing, permanents put straight onto the battlefield, scripted team choices."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import horde.cards.catalogue
import horde.cards.decks
import horde.play
from horde.cards.catalogue import load_catalogue
from horde.engine import rules
from horde.engine.state import HORDE_CONTROLLER
from horde.play import new_game, prepare
from horde.setup import make_setup
from horde.team.policies import BaselinePolicy

# Hypothesis fails an example slower than its deadline (200 ms by default): a wall-clock verdict a
# busy machine would give. No test has one (tests/test_timing.py).
settings.register_profile("horde", deadline=None)
settings.load_profile("horde")

TEST_DECKS = Path(__file__).parent / "data" / "decks"
HORDE = HORDE_CONTROLLER
SLOW_SCALE = float(os.environ.get("HORDE_SLOW_SCALE", "1"))


@pytest.fixture(autouse=True, scope="session")
def no_user_data(tmp_path_factory):
    """Tests never read the card index or card files of the machine they run on."""
    saved = {k: os.environ.get(k) for k in ("HORDE_HOME", "HORDE_CARDS")}
    os.environ["HORDE_HOME"] = str(tmp_path_factory.mktemp("horde-home"))
    os.environ.pop("HORDE_CARDS", None)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def scaled(n: int) -> int:
    """A slow test's size, reduced in CI (HORDE_SLOW_SCALE)."""
    return max(1, int(n * SLOW_SCALE))


@pytest.fixture(scope="session")
def catalogue():
    return load_catalogue(sorted((TEST_DECKS / "cards").glob("*.txt")))


@pytest.fixture
def test_decks(monkeypatch):
    """Point deck lookups at the small test decks."""
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    return TEST_DECKS


@pytest.fixture
def decks(monkeypatch):
    """The small test decks, with the per-process deck, card and prepared-setup caches emptied."""
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    monkeypatch.setattr(horde.cards.catalogue, "_BUNDLED", {})
    monkeypatch.setattr(horde.cards.catalogue, "_CATALOGUES", {})
    monkeypatch.setattr(horde.cards.decks, "_CACHE", {})
    monkeypatch.setattr(horde.play, "_PREPARED", {})
    return TEST_DECKS


class Scripted(BaselinePolicy):
    """The baseline policy with some decisions answered by the test."""

    def __init__(self, **answers):
        super().__init__()
        self.answers = answers
        self.seen: list = []

    def choose(self, decision, view):
        self.seen.append(decision)
        answer = self.answers.get(decision.kind)
        if answer is not None:
            return answer(decision) if callable(answer) else answer
        return super().choose(decision, view)


def setup_for(players=2, **knobs):
    base = dict(horde_deck="mini", team_decks=["white"] * 4, boss="none", lieutenants=False, players=players)
    base.update(knobs)
    return make_setup("zombie-horde", **base)


@pytest.fixture
def make_game(catalogue, test_decks):
    """Build a game that has not started: decks shuffled, no hands, an empty battlefield."""

    def build(players=2, policy=None, seed=0, empty=True, **knobs):
        setup = setup_for(players, **knobs)
        game = new_game(prepare(setup, catalogue), seed, policy or Scripted())
        if empty:
            game.horde.library.clear()
        game.drivers.stats.team_life_min = game.team_life
        return game

    return build


def put(game, catalogue, name, side="horde", player=0, **state):
    """Put a card or token straight onto the battlefield, untapped and without summoning sickness,
    through the rules' own way in but without its Enters triggers; then set any ``state``."""
    controller = HORDE if side == "horde" else player
    p = rules.put_onto_battlefield(game, catalogue.get(name), controller, controller, triggers=False)
    p.sick = False
    p.tapped = False
    for key, value in state.items():
        setattr(p, key, value)
    return p


def library(game, catalogue, *names):
    """Set the Horde library; the last name is the top card."""
    game.horde.library[:] = [catalogue.get(n) for n in names]
    game.horde.deck_size = len(game.horde.library)


def one_line_error(result, *fragments) -> str:
    """A CLI result that failed as bad input should: exit 2, one line, no traceback, naming each
    of ``fragments``; the line."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]
