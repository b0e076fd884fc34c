"""``horde tune``: the search finds a known crossover with a fake game whose win rate is a known
function of the knob, plays only the games it needs, and finds a plausible value in real games."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS

from horde.cli import cli
from horde.lab import tune as tuning
from horde.lab.stats import wilson
from horde.setup import SetupError, make_setup

DECKS = {"HORDE_DECKS": str(TEST_DECKS)}
BASE = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none")


def fake_play(rate, stall=lambda setup: 0.0):
    """A game function whose team win rate is ``rate(setup)`` and stall rate ``stall(setup)``;
    seeded, so repeatable."""
    calls = []

    def play(setup, seed, games):
        calls.append((setup, seed, games))
        rng = random.Random(f"{seed}/{setup.digest()}")
        p, q = rate(setup), stall(setup)
        draws = [rng.random() for _ in range(games)]
        return ["team" if x < p else "stall" if x < p + q else "horde" for x in draws]

    play.calls = calls
    return play


def exact_play(rate, stall=lambda setup: 0.0):
    """A game function whose every batch holds exactly ``rate(setup)`` team wins and
    ``stall(setup)`` stalls (rounded): rates known exactly."""
    def play(setup, seed, games):
        wins, stalls = round(rate(setup) * games), round(stall(setup) * games)
        return ["team"] * wins + ["stall"] * stalls + ["horde"] * (games - wins - stalls)
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
    assert lines[1].split()[:4] == ["level", "players", "cards_per_player", "team"]
    assert lines[2].split()[:3] == ["club", "2", "10"] and lines[3].split()[:3] == ["club", "3", "12"]
    assert lines[-1].startswith("games played: ")
    result = runner.invoke(cli, arguments + ["--json"], env=DECKS)
    data = json.loads(result.output)
    assert [(p["level"], p["players"], p["value"]) for p in data["results"]] == [("club", 2, "10"), ("club", 3, "12")]


def test_tune_command_varies_house_rules_warns_of_stalls_and_lists_the_settings_in_the_band(monkeypatch):
    def rules(setup):  # 50% at 6 + 2 x players cards per player without lieutenants, 2 fewer with them
        return crossing(setup) if not setup.lieutenants else crossing(replace(setup, cards_per_player=setup.cards_per_player + 2))
    play = exact_play(rules, lambda setup: 0.1)
    monkeypatch.setattr(tuning, "play_winners", lambda setup, seed, games, workers=None: play(setup, seed, games))
    arguments = ["tune", "--knob", "cards-per-player", "--players", "2", "--vary", "lieutenants", "--horde", "mini",
                 "--boss", "none", "--team", "white", "--team", "white", "--batch", "100", "--max-games", "100",
                 "--skill", "novice,club", "--quiet"]
    result = CliRunner().invoke(cli, arguments, env=DECKS)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].split()[:4] == ["level", "players", "lieutenants", "cards_per_player"]
    assert [line.split()[:4] for line in lines[2:6]] == [["novice", "2", "true", "8"], ["novice", "2", "false", "10"],
                                                         ["club", "2", "true", "8"], ["club", "2", "false", "10"]]
    assert lines[2].split()[4:10] == ["50.0%", "(40.4%", "-", "59.6%)", "10.0%", "55.6%"]  # stalls, and 50 of the 90 decided games
    assert lines[6].startswith("stalls: novice, 2 players, lieutenants true, cards_per_player 8: 10.0% of the games "
                               "stalled (H14), more than 5%")
    assert lines[-2].startswith("settings measured within 45%-55%: novice, 2 players, lieutenants true, "
                                "cards_per_player 8 (50.0%);")


def test_H3_tune_command_bounds_the_default_range_by_a_fixed_deck(monkeypatch):
    # The fixed 100-card test deck holds at most 25 cards for each of 4 players: searched 5 to 25.
    monkeypatch.setattr(tuning, "play_winners", lambda setup, seed, games, workers=None:
                        exact_play(crossing)(setup, seed, games))
    result = CliRunner().invoke(cli, ["tune", "--knob", "cards-per-player", "--players", "4", "--horde", "mini",
                                      "--boss", "none", "--batch", "100", "--max-games", "100", "--json", "--quiet"]
                                + ["--team", "white"] * 4, env=DECKS)
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.output)["results"]
    assert [p["value"] for p in found["tried"]][::len(found["tried"]) - 1] == ["5", "25"]
    assert found["value"] == "14" and found["level"] == "club"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--knob", "players"], "error: --knob players: can't be searched; searchable knobs are: cards-per-player"),
    (["--knob", "grace-turns", "--grace-turns", "2"],
     "error: --grace-turns: this knob is searched or varied; give its values with --low and --high or --vary"),
    (["--vary", "lieutenants", "--lieutenants"],
     "error: --lieutenants: this knob is searched or varied; give its values with --low and --high or --vary"),
    (["--knob", "none"], "error: --knob none: give the knobs to measure with --vary"),
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


def test_H14_tune_counts_stalls_apart_and_warns_above_five_percent():
    # 40% team wins and 10% stalls everywhere in 5 to 9 cards: the best value holds 40% of all
    # games and 40 / 90 of the decided ones; more than 5% stalled, so it says so.
    found = tuning.tune(BASE, "cards_per_player", 0.45, players=(2,), low=5, high=9, batch=1000, max_games=1000,
                        play=fake_play(lambda setup: 0.4, lambda setup: 0.1))
    (r,) = found
    point = r.point
    assert point.games == point.wins + point.stalls + point.losses == 1000
    assert point.stall_rate == point.stalls / 1000 and 0.08 < point.stall_rate < 0.12
    assert point.decided_rate == point.wins / (point.wins + point.losses)
    assert point.decided_interval == wilson(point.wins, point.wins + point.losses)
    assert r.stalls_warned
    assert r.to_dict()["stall_rate"] == point.stall_rate and r.to_dict()["decided_win_rate"] == point.decided_rate
    quiet = tuning.tune(BASE, "cards_per_player", 0.45, players=(2,), low=5, high=9, batch=1000, max_games=1000,
                        play=fake_play(lambda setup: 0.4, lambda setup: 0.01))
    assert not quiet[0].stalls_warned


def test_tune_reports_a_flat_region_as_the_range_whose_intervals_hold_the_target():
    def flat(setup):  # 50% from 26 to 29 cards, far from it on both sides
        cards = setup.cards_per_player
        return 0.9 if cards < 26 else 0.5 if cards <= 29 else 0.1
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=40, batch=500, max_games=2000,
                        play=exact_play(flat))
    (r,) = found
    assert [p.value for p in r.flat] == [26, 27, 28, 29]
    assert all(p.holds(0.5) for p in r.flat) and r.range_label == "26-29"
    assert r.value in (26, 27, 28, 29)
    steep = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=40, batch=100, max_games=1000,
                        play=fake_play(crossing))
    assert steep[0].range_label == "10"


def test_tune_searches_one_knob_at_every_value_of_a_second_one():
    def both(setup):  # 50% at 6 + grace turns cards per player
        return min(1.0, max(0.0, 0.5 - 0.1 * (setup.cards_per_player - 6 - setup.grace_turns)))
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=40, batch=100, max_games=1000,
                        vary={"grace_turns": [0, 2, 4]}, play=exact_play(both))
    assert [(r.setting["grace_turns"], r.value) for r in found] == [(0, 6), (2, 8), (4, 10)]
    inside = tuning.in_band(found, 0.5, 0.05)
    assert {(r.setting["grace_turns"], p.value) for r, p in inside} == {(0, 6), (2, 8), (4, 10)}
    assert all(p.rate == 0.5 for _, p in inside)


def test_tune_measures_every_value_of_house_rules_and_categorical_knobs():
    def rules(setup):
        return (0.3 if setup.lieutenants else 0.5) + (0.2 if setup.horde_graveyard == "never" else 0.0)
    found = tuning.tune(BASE, None, 0.5, players=(3,), vary={"lieutenants": None, "horde_graveyard": None},
                        batch=400, max_games=400, play=fake_play(rules))
    settings = [(r.setting["lieutenants"], r.setting["horde_graveyard"]) for r in found]
    assert settings == [(True, "always"), (True, "coin"), (True, "never"), (False, "always"), (False, "coin"),
                        (False, "never")]
    assert [r.reached for r in found] == [False, False, True, True, True, False]
    assert all(r.point.games == 400 and r.knob is None for r in found)
    with pytest.raises(SetupError, match="nothing to tune"):
        tuning.tune(BASE, None, play=fake_play(rules))
    with pytest.raises(SetupError, match="knob 'reveal' = 'x': expected one of"):
        tuning.tune(BASE, None, vary={"reveal": ["x"]}, play=fake_play(rules))
    with pytest.raises(SetupError, match="--vary players: not a knob that can be varied"):
        tuning.tune(BASE, None, vary={"players": None}, play=fake_play(rules))


def test_tune_answers_for_each_skill_level_side_by_side():
    def level(setup):  # a novice table needs 2 cards per player fewer
        return crossing(setup) if setup.skill != "novice" else crossing(setup_at_cards(setup, 2))
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=40, batch=100, max_games=1000,
                        skills=("novice", "club"), play=fake_play(level))
    assert [(r.level, r.value) for r in found] == [("novice", 8), ("club", 10)]


def setup_at_cards(setup, more):
    return replace(setup, cards_per_player=setup.cards_per_player + more)


def test_H3_the_default_range_of_cards_per_player_fits_a_fixed_deck():
    at_four = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", players=4)
    assert tuning.search_range(at_four, "cards_per_player", deck_cards=100) == (5, 25)
    assert tuning.search_range(at_four, "cards_per_player", deck_cards=None) == (5, 40)
    assert tuning.search_range(at_four, "cards_per_player", high=30, deck_cards=100) == (5, 30)


def calibration_file(tmp_path, skill=0.97, low=0.55, high=1.40, spread=0.22, name="our-games.toml"):
    """A calibration file as horde calibrate writes it, its log likelihood a parabola around the
    skill."""
    skills = [round(0.05 * i, 2) for i in range(41)]
    profile = [round(-0.5 * ((s - skill) / spread) ** 2, 3) for s in skills]
    path = tmp_path / name
    path.write_text("# The team skill that best explains the games of our-games.csv, written by horde calibrate.\n"
                    f"skill = {skill}\nskill_low = {low}\nskill_high = {high}\ngames = 100\n"
                    "grid = [0, 0.5, 1, 1.5, 2]\n"
                    f"profile_skills = [{', '.join(map(str, skills))}]\nprofile = [{', '.join(map(str, profile))}]\n",
                    encoding="utf-8")
    return path, skills, profile


def skilled(setup) -> float:
    """Exactly 50% at 10 + 4 x skill cards per player (2 players), 10 points less for each card
    more: straight in the skill, so a rate read between two grid skills is the rate."""
    skill = float({"novice": 0, "club": 1, "expert": 2}.get(setup.skill, setup.skill))
    return min(1.0, max(0.0, 0.5 - 0.1 * (setup.cards_per_player - 10 - 4 * skill)))


def test_tune_answers_over_a_calibrated_interval_with_each_values_chance(tmp_path):
    path, skills, profile = calibration_file(tmp_path)
    calls = []

    def play(setup, seed, games):
        calls.append(setup.skill)
        return exact_play(skilled)(setup, seed, games)
    recommendations = []
    found = tuning.tune(BASE, "cards_per_player", 0.5, players=(2,), low=5, high=40, batch=100, max_games=400,
                        skills=(str(path),), play=play, recommendations=recommendations)
    # At the low end (0.55) the rate crosses 50% at 12.2 cards, at the estimate (0.97) at 13.9, at
    # the high end (1.40) at 15.6: each answer is the value nearest the crossing.
    assert [(r.level, r.value, r.skill) for r in found] == [("our-games.toml low 0.55", 12, 0.55),
                                                             ("our-games.toml estimate 0.97", 14, 0.97),
                                                             ("our-games.toml high 1.40", 16, 1.40)]
    assert set(calls) == {"0.5", "club", "1.5"}  # only the grid skills around the interval are played
    (rec,) = recommendations
    assert (rec.low, rec.high, rec.range_label, rec.grid) == (12, 16, "12-16", (0.5, 1.0, 1.5))
    # A value's chance: the share of the likelihood (from 0.5 to 1.5) over the skills at which its
    # rate lies within 45%-55%, |cards - 10 - 4 x skill| <= 0.5.
    weights = {s: math.exp(v) for s, v in zip(skills, profile, strict=True) if 0.5 <= s <= 1.5}
    for value, label, chance in rec.chances:
        inside = sum(w for s, w in weights.items() if abs(value - 10 - 4 * s) <= 0.5 + 1e-9)
        assert chance == pytest.approx(inside / sum(weights.values())) and label == str(value)
    assert rec.best[0] == 14 and rec.best[2] == max(c for _, _, c in rec.chances)
    data = rec.to_dict()
    assert data["calibration"]["file"] == str(path) and data["calibration"]["skill"] == 0.97
    assert (data["calibration"]["low"], data["calibration"]["high"], data["range"]) == (0.55, 1.40, "12-16")


def test_tune_command_names_the_calibration_file_its_estimate_and_interval(tmp_path, monkeypatch):
    path, _, _ = calibration_file(tmp_path)
    monkeypatch.setattr(tuning, "play_winners", lambda setup, seed, games, workers=None:
                        exact_play(skilled)(setup, seed, games))
    arguments = ["tune", "--players", "2", "--horde", "mini", "--boss", "none", "--team", "white", "--team", "white",
                 "--low", "5", "--high", "40", "--batch", "100", "--max-games", "400", "--skill", str(path), "--quiet",
                 "--no-config"]
    result = CliRunner().invoke(cli, arguments, env=DECKS)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == f"skill from {path}: 0.97 (between novice and club), 95% interval 0.55 to 1.40, from 100 games"
    assert [line.split()[:4] for line in lines[3:6]] == [["our-games.toml", "low", "0.55", "2"],
                                                        ["our-games.toml", "estimate", "0.97", "2"],
                                                        ["our-games.toml", "high", "1.40", "2"]]
    recommended = next(line for line in lines if line.startswith("recommended for"))
    assert recommended.startswith(f"recommended for {path} (skill 0.97, 95% interval 0.55 to 1.40), 2 players: "
                                  "cards_per_player 12-16 (the answers from the interval's low end to its high end); "
                                  "the chance that the team wins 45%-55% given what the games say of its skill: 12: ")
    assert recommended.endswith("the best: 14 (44%)")
    data = json.loads(CliRunner().invoke(cli, arguments + ["--json"], env=DECKS).output)
    assert data["setup"]["skill"] == str(path) and "policy" not in data["setup"]
    assert data["calibrations"][0] | {"file": None} == {"file": None, "skill": 0.97, "low": 0.55, "high": 1.40,
                                                       "level": "between novice and club", "games": 100, "warning": ""}
    assert data["recommendations"][0]["range"] == "12-16" and data["recommendations"][0]["best"] == "14"


def test_tune_command_says_the_players_it_plays_and_suggests_a_skill(monkeypatch):
    monkeypatch.setattr(tuning, "play_winners", lambda setup, seed, games, workers=None:
                        exact_play(crossing)(setup, seed, games))
    result = CliRunner().invoke(cli, ["tune", "--horde", "mini", "--boss", "none", "--batch", "100", "--max-games",
                                      "100", "--quiet", "--no-config"] + ["--team", "white"] * 4, env=DECKS)
    assert result.exit_code == 0, result.output
    assert ", 2, 3 and 4 players, Horde deck mini," in result.output.splitlines()[0]
    assert "zombie-horde, 4 players" not in result.output.splitlines()[0]
    shown = CliRunner().invoke(cli, ["tune", "--help"]).output
    assert "[default: 2 3 4]" in " ".join(shown.split()) and "[default: 4]" not in shown
    result = CliRunner().invoke(cli, ["tune", "--skill", "exprt", "--no-config"], env=DECKS)
    assert result.exit_code == 2 and "knob 'skill' = 'exprt': did you mean 'expert'?" in result.output


def test_a_games_file_given_as_the_skill_says_to_calibrate_it_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short name: a long value is shortened in the message
    games = "our-games.csv"
    (tmp_path / games).write_text("result,players\nwon,3\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["tune", "--skill", str(games), "--no-config"])
    assert result.exit_code == 2
    assert (f"knob 'skill' = '{games}': a games file, not a calibration: run horde calibrate '{games}' and give the "
            ".toml file it writes") in result.output
