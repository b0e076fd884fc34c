"""``horde tune``: the search finds a known crossover with a fake game whose win rate is a known
function of the knob, plays only the games it needs, and finds a plausible value in real games."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS

from horde.cli import cli
from horde.lab import tune as tuning
from horde.setup import SetupError, make_setup

DECKS = {"HORDE_DECKS": str(TEST_DECKS)}
BASE = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none")


def fake_play(rate):
    """A game function whose team win rate is ``rate(setup)``; seeded, so repeatable."""
    calls = []

    def play(setup, seed, games):
        calls.append((setup, seed, games))
        rng = random.Random(f"{seed}/{setup.digest()}")
        p = rate(setup)
        return ["team" if rng.random() < p else "horde" for _ in range(games)]

    play.calls = calls
    return play


def crossing(setup) -> float:
    """Exactly 50% at 6 + 2 x players cards per player, 10 points less for each card more."""
    return min(1.0, max(0.0, 0.5 - 0.1 * (setup.cards_per_player - (6 + 2 * setup.players))))


def test_tune_finds_the_known_crossover_for_each_player_count():
    play = fake_play(crossing)
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2, 3, 4), low=5, high=40, batch=100,
                        max_games=1000, play=play)
    assert [(r.players, r.value) for r in found] == [(2, 10), (3, 12), (4, 14)]
    for r in found:
        assert r.reached
        assert r.point.games == 1000  # the value at the target itself is measured to the cap
        low, high = r.point.interval
        assert low < 0.5 < high
        assert r.to_dict()["value"] == str(r.value)
    # Bisection over 36 values: the two ends and at most 6 halvings; every other value is
    # decided in one or two batches, so far fewer games than a grid would play.
    for r in found:
        assert len(r.tried) <= 8
        assert r.games_played <= 1000 + 7 * 200
    assert sum(games for _, _, games in play.calls) == sum(r.games_played for r in found)


def test_tune_measures_every_value_on_the_same_seeds():
    play = fake_play(crossing)
    tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=40, batch=100, max_games=300, play=play)
    first_batches = {seed for setup, seed, _ in play.calls if seed[1] == 0}
    assert first_batches == {(1, 0)}  # batch b is played with the seed (seed, b) at every value


def test_tune_searches_a_knob_that_helps_the_team_and_strong_mix_as_giants():
    def grace(setup):
        return 0.1 + 0.1 * setup.grace_turns  # 50% at 4 grace turns
    found = tuning.tune(BASE, "grace_turns", 0.5, players=(2,), batch=200, max_games=2000, play=fake_play(grace))
    assert found[0].value == 4

    def giants(setup):
        return 1.0 - 0.2 * setup.strong_split[0]  # 3 Giants (of 5): 40%, 2: 60%
    found = tuning.tune(BASE, "strong_mix", 0.45, players=(3,), batch=200, max_games=2000, play=fake_play(giants))
    assert (found[0].value, found[0].label) == (3, "3:2")


def test_tune_says_when_the_target_is_out_of_reach():
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=9, batch=100, max_games=1000,
                        play=fake_play(lambda setup: 0.95))
    (r,) = found
    assert not r.reached
    assert r.value in (5, 9) and len(r.tried) == 2 and r.games_played == 200


def test_tune_refuses_what_it_cannot_search():
    play = fake_play(crossing)
    with pytest.raises(SetupError, match="'players' can't be searched"):
        tuning.tune(BASE, "players", play=play)
    with pytest.raises(SetupError, match="the range is empty"):
        tuning.tune(BASE, "cards_per_player", low=20, high=10, play=play)
    with pytest.raises(SetupError, match="--high: knob 'cards_per_player' = 500"):
        tuning.tune(BASE, "cards_per_player", low=5, high=500, play=play)
    with pytest.raises(SetupError, match="target 1.5"):
        tuning.tune(BASE, "cards_per_player", target=1.5, play=play)
    with pytest.raises(SetupError, match="3 players need 3 team decks"):
        tuning.tune(make_setup(team_decks=["white"], players=1), "grace_turns", players=(3,), play=play)
    assert play.calls == []


def test_tune_finds_a_plausible_deck_size_in_real_games(test_decks):
    # On the test decks, 2 players win about 60% at 8 cards per player and 30% at 11.
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=3, high=20, batch=50, max_games=200,
                        workers=1)
    (r,) = found
    assert 7 <= r.value <= 12
    assert r.point.games <= 200 and r.games_played <= 200 * len(r.tried)


def test_tune_command_reads_several_player_counts_and_prints_the_recommendation(monkeypatch):
    monkeypatch.setattr(tuning, "play_winners", lambda setup, seed, games, workers=None:
                        fake_play(crossing)(setup, seed, games))
    arguments = ["tune", "--knob", "cards-per-player", "--players", "2", "3", "--horde", "mini", "--boss", "none",
                 "--team", "white", "--team", "white", "--team", "white", "--low", "5", "--high", "33",
                 "--batch", "100", "--max-games", "1000", "--quiet"]
    runner = CliRunner()
    result = runner.invoke(cli, arguments, env=DECKS)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("cards_per_player for a team win rate of 50%")
    assert lines[2].split()[:2] == ["2", "10"] and lines[3].split()[:2] == ["3", "12"]
    assert lines[-1].startswith("games played: ")
    result = runner.invoke(cli, arguments + ["--json"], env=DECKS)
    data = json.loads(result.output)
    assert [(p["players"], p["value"]) for p in data["players"]] == [(2, "10"), (3, "12")]


@pytest.mark.parametrize(("arguments", "message"), [
    (["--knob", "players"], "error: --knob players: can't be searched; searchable knobs are: cards-per-player"),
    (["--knob", "grace-turns", "--grace-turns", "2"],
     "error: --grace-turns: this is the knob being searched; give its range with --low and --high"),
    (["--knob", "grace-turns", "--players", "7"], "error: --players: knob 'players' = '7': expected a whole "
                                                   "number from 1 to 4"),
    (["--knob", "cards-per-player", "--players", "2", "4", "--high", "30", "--horde", "mini", "--boss", "none"]
     + ["--team", "white"] * 4, "mini.txt: the fixed Horde deck has 100 cards; 4 players x 30 cards need 120 (H3)"),
])
def test_tune_command_errors_are_one_line(arguments, message):
    result = CliRunner().invoke(cli, ["tune"] + arguments, env=DECKS)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
