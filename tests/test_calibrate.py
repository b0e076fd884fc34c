"""``horde calibrate``: a group's games file read line by line (every column a recorded game
holds, and every damaged file one line naming its line), the likelihood of what each game
recorded, the skill of maximum likelihood recovered from games of a known skill within its
interval (narrower with the recorded numbers than from the results alone), the simulation
stopped once it is precise enough and its games kept in the cache."""

from __future__ import annotations

import math
import os
import random

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, scaled

from horde.cli import cli
from horde.lab import cache as caching
from horde.lab import calibrate as calibration
from horde.lab.cache import Record
from horde.setup import convert, make_setup
from horde.team.skill import level_name

DECKS = {"HORDE_DECKS": str(TEST_DECKS)}
HEADER = "result,players,horde,team,boss,cards_per_player,turn\n"
ROW = 'won,2,mini,"white,white",none,9,12\n'
MINI = make_setup(horde_deck="mini", team_decks=["white", "white"], boss="none", players=2, cards_per_player=9)


def write(tmp_path, text: str, name: str = "games.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_games_file_is_read_line_by_line(tmp_path, test_decks):
    path = write(tmp_path, "result,players,horde,team,boss,cards_per_player,turn,horde_left,team_life,life_min,date,"
                 "life_track,horde_track\n"
                 + 'won,2,mini,"white,white",none,9,12,,14,3,2026-11-02,,\n\n'
                 + 'lost,2,mini,"white,white",none,9,,7,,,,40 35 31 20,70 61/50 44\n'
                 + 'stalled,2,mini,"white,white",none,9,60,,,,,,\n'
                 + 'abandoned,2,mini,"white,white",none,9,,,,,,,\n')
    games = calibration.read_games(str(path))
    seen = calibration.Observation
    assert [(g.observation, g.line) for g in games] == [
        (seen("won", 12, None, 14, 3), 2), (seen("lost", None, 7, None, None, (40, 35, 31, 20), (70, 61, 50, 44)), 4),
        (seen("draw", 60), 5), (seen("abandoned"), 6)]
    assert games[0].setup == MINI
    assert games[0].observation.recorded() == ("turn", "team_life", "life_min")
    # A lost game's tracks are read after the Horde's 2nd and 4th turns (it ended before the 6th).
    assert games[1].observation.recorded() == ("horde_left", "life_h2", "horde_h2", "life_h4", "horde_h4")
    assert [games[1].observation.value(n) for n in ("life_h2", "horde_h4", "life_h6")] == [35, 44, None]
    assert games[2].observation.recorded() == ()


def test_a_games_file_saved_with_semicolons_or_cr_line_ends_reads_the_same(tmp_path, test_decks):
    plain = calibration.read_games(str(write(tmp_path, HEADER + ROW + ROW.replace("won", "lost"))))
    semicolons = write(tmp_path, (HEADER + ROW + ROW.replace("won", "lost")).replace(",", ";")
                       .replace('"white;white"', '"white,white"'), "semi.csv")
    old_mac = tmp_path / "cr.csv"
    old_mac.write_bytes((HEADER + ROW + ROW.replace("won", "lost")).replace("\n", "\r").encode())
    windows = tmp_path / "crlf.csv"
    windows.write_bytes((HEADER + ROW + ROW.replace("won", "lost")).replace("\n", "\r\n").encode())
    for path in (semicolons, old_mac, windows):
        assert [(g.setup, g.observation, g.line) for g in calibration.read_games(str(path))] == \
            [(g.setup, g.observation, g.line) for g in plain]


LONG_CELL = "x" * 140_000


@pytest.mark.parametrize(("text", "message"), [
    ("", "games.csv:1: expected a first line naming the columns"),
    ("players,turn\n2,3\n", "games.csv:1: no 'result' column"),
    ("result,players,colour\nwon,2,red\n", "games.csv:1: unknown column 'colour': the columns are result, players, "
                                           "horde, team, turn, horde_left, team_life, life_min, life_track, "
                                           "horde_track, date, notes, note, seed, preset, life_per_player, "),
    ("reslt,players\nwon,2\n", "games.csv:1: unknown column 'reslt': did you mean 'result'"),
    ("result,players,hordeleft\nwon,2,3\n", "unknown column 'hordeleft': did you mean 'horde_left'"),
    ("result,players,policy\nwon,2,control\n", "games.csv:1: column 'policy': the team's play is what calibration"),
    ("result,players,skill\nwon,2,club\n", "games.csv:1: column 'skill': the team's play is what calibration"),
    ("result,players\nwon,2\ndrew,2\n", "games.csv:3: result 'drew': did you mean 'draw'? expected won, lost, draw or "
                                        "abandoned (accepted: won, win, yes, lost, loss, no, draw, stall, stalled, "
                                        "abandoned)"),
    ("result,players\nwon,9\n", "games.csv:2: knob 'players' = '9': expected a whole number from 1 to 4"),
    ("result,players,turn\nwon,2,soon\n", "games.csv:2: turn 'soon': expected a whole number from 1 to 1000"),
    ("result,players,turn\nwon,2,\u00b2\n", "games.csv:2: turn '\u00b2': expected a whole number from 1 to 1000"),
    ("result,players,turn\nwon,2,\u0663\n", "games.csv:2: turn '\u0663': expected a whole number"),
    ("result,players,turn\nwon,2,\uff13\n", "games.csv:2: turn '\uff13': expected a whole number"),
    ("result,players,turn\nwon,2," + "9" * 4000 + "\n", "games.csv:2: turn '999"),
    ("result,players,turn\nwon,2," + "9" * 5000 + "\n", "games.csv:2: a cell of 5,000 characters"),
    ("result,players,horde_left\nlost,2,-3\n", "games.csv:2: horde_left '-3': expected a whole number from 0"),
    ("result,players,horde_track\nlost,2,30 -3\n", "games.csv:2: horde_track '-3': expected a whole number from 0"),
    ("result,players,life_track\nlost,2,30 2x\n", "games.csv:2: life_track '2x': expected a whole number"),
    ("result,players,life_track\nlost,2," + "1 " * 501 + "\n", "games.csv:2: life_track: 501 numbers, expected at "
                                                               "most 500 (one after each of the Horde's turns)"),
    ("result,players\nwon\n", "games.csv:2: 1 cells, expected 2"),
    ("result,players\n", "games.csv: no games"),
    ("result,players,notes\nwon,2," + LONG_CELL + "\n", "games.csv:2: not CSV as written (field larger than field "
                                                        "limit (131072)); a cell holds at most 4,096 characters"),
    ("result,players,notes\nwon,2," + "x" * 5000 + "\n", "games.csv:2: a cell of 5,000 characters: a cell holds at "
                                                         "most 4,096"),
    ("result,players,result\nwon,2,won\n", "games.csv:1: column 'result' is named twice"),
])
def test_a_bad_games_file_is_one_line_naming_the_file_and_line(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(calibration.CalibrationError) as caught:
        calibration.read_games(str(path))
    assert message in str(caught.value) and "\n" not in str(caught.value)
    result = CliRunner().invoke(cli, ["calibrate", str(path), "--no-config"])
    assert result.exit_code == 2 and result.output.strip().splitlines() == [f"error: {caught.value}"]


@pytest.mark.parametrize(("cells", "message"), [
    ("won,2,mini,\"white,white\",Grave Titn", "games.csv:3: boss 'Grave Titn': the Horde deck mini has no boss "
                                              "list"),
    ("won,2,mini-boss,\"white,white\",Grave Titn", "games.csv:3: boss 'Grave Titn' is not in the boss list of the "
                                                   "Horde deck mini-boss: its bosses are Liliana, Death's Majesty"),
    ("won,2,minni,\"white,white\",none", "games.csv:3: unknown bundled Horde deck 'minni': did you mean 'mini'?"),
    ("won,2,mini,\"white,whte\",none", "games.csv:3: unknown bundled team deck 'whte': did you mean 'white'?"),
])
def test_a_bad_deck_or_boss_in_the_games_file_names_its_line(tmp_path, test_decks, cells, message):
    path = write(tmp_path, "result,players,horde,team,boss\n" + 'lost,2,mini,"white,white",none\n' + cells + "\n")
    with pytest.raises(calibration.CalibrationError) as caught:
        calibration.read_games(str(path))
    assert message in str(caught.value)


def test_a_games_file_may_name_only_so_many_setups_and_games(tmp_path, monkeypatch):
    # 800 distinct setups would start 1.6 million games: refused at the first one past the limit.
    rows = "".join(f"won,2,{cards}\n" for cards in range(5, 5 + calibration.SETUPS_MAX + 5))
    path = write(tmp_path, "result,players,cards_per_player\n" + rows)
    with pytest.raises(calibration.CalibrationError, match=rf"games.csv:{calibration.SETUPS_MAX + 2}: a "
                       rf"{calibration.SETUPS_MAX + 1}th distinct setup: a games file may name at most "
                       rf"{calibration.SETUPS_MAX} \(each is simulated"):
        calibration.read_games(str(path))
    monkeypatch.setattr(calibration, "GAMES_MAX", 3)
    path = write(tmp_path, "result,players\n" + "won,2\n" * 4)
    with pytest.raises(calibration.CalibrationError, match="games.csv:5: more than 3 games"):
        calibration.read_games(str(path))


def test_the_house_rules_are_the_games_file_defaults(tmp_path, test_decks):
    path = write(tmp_path, "result,players,cards_per_player\nwon,2,9\nlost,2,\n")
    house = {"horde_deck": "mini", "team_decks": ["white", "white"], "boss": "none", "cards_per_player": 12,
             "policy": "control"}
    games = calibration.read_games(str(path), house=house)
    assert games[0].setup == MINI and games[1].setup.cards_per_player == 12
    assert games[1].setup.policy == "baseline"  # the house's policy is what calibration finds: left out


# ---------------------------------------------------------------- the likelihood


def synthetic_record(skill: float, rng: random.Random) -> Record:
    """A game of a known law: the team wins with chance 0.3 + 0.15 x skill; a won game ends on
    turn N(20 - 2 x skill, 3) with life N(20 + 5 x skill, 8), a lost one on turn N(12 + 2 x skill, 3)
    with N(30 - 6 x skill, 8) Horde cards left."""
    if rng.random() < 0.3 + 0.15 * skill:
        return Record("team", max(1, round(rng.gauss(20 - 2 * skill, 3))), 0,
                      max(1, round(rng.gauss(20 + 5 * skill, 8))), 1, 0)
    return Record("horde", max(1, round(rng.gauss(12 + 2 * skill, 3))), 0, 0, 0,
                  max(0, round(rng.gauss(30 - 6 * skill, 8))))


def synthetic_play(calls=None):
    """``calibrate``'s play function over the known law, game i seeded by its seed alone."""
    def play(setup, series, start, stop):
        if calls is not None:
            calls.append((setup.skill, start, stop))
        skill = float({"novice": 0, "club": 1, "expert": 2, "clairvoyant": 3}.get(setup.skill, setup.skill or 1))
        return [synthetic_record(skill, random.Random(f"{series}/{i}/{skill}")) for i in range(start, stop)]
    return play


def group(skill: float, games: int, seed, numbers: bool = True):
    rng = random.Random(f"group/{seed}")
    found = []
    for line in range(games):
        o = calibration.observation_of(synthetic_record(skill, rng))
        found.append(calibration.Game(MINI, o if numbers else calibration.Observation(o.result), line + 2))
    return found


def test_the_likelihood_of_a_game_is_its_results_chance_times_the_normal_density_of_its_scores():
    # Two skills; at 0 the team wins 1 game in 4, at 1 three in 4; won games end on turns 10,
    # 12 (skill 0) and 14, 16 (skill 1). A won game of turn 14: its chance at skill 0 is
    # (1 + 0.5) / (4 + 1.5), at skill 1 (3 + 0.5) / 5.5; its normal score is the normal quantile
    # of its mid-rank among the won games' turns, and the mean score at each skill is drawn
    # toward the mean of both by one game.
    won = [Record("team", t, 0, 5, 5, 0) for t in (10, 12, 14, 16)]
    lost = Record("horde", 9, 0, 0, 0, 3)
    records = [[won[0], lost, lost, lost], [won[1], won[2], won[3], lost]]
    model = calibration.SetupModel((0.0, 1.0), records)
    game = calibration.Observation("won", turn=14)
    found = calibration.log_likelihood([game], model, [0.0, 1.0])
    pooled = np.array([10, 12, 14, 16], dtype=float)
    z = calibration._normal_scores(pooled, np.array([14.0]))[0]
    scores = calibration._normal_scores(pooled, pooled)
    # two turns below 14, one equal: its share (2 + 0.5 + 0.5) / (4 + 1) = 0.6, its score the 60% point
    assert z == pytest.approx(scores[2]) and z == pytest.approx(0.2533471031357998)
    overall = scores.mean()
    means = [(scores[0] + overall) / 2, (scores[1:].sum() + overall) / 4]
    residual = np.concatenate([[0.0], scores[1:] - scores[1:].mean()])
    variance = residual @ residual / (4 - 2)  # from the games of each skill, less its mean
    expected = [math.log((c + 0.5) / 5.5) + (m * z - m * m / 2) / variance for c, m in zip((1, 3), means, strict=True)]
    assert found == pytest.approx(expected)
    # Halfway between the two skills: both chances and means are the straight line between them.
    chance = ((1 + 0.5) / 5.5 + (3 + 0.5) / 5.5) / 2
    mean = sum(means) / 2
    assert calibration.log_likelihood([game], model, [0.5])[0] == pytest.approx(
        math.log(chance) + (mean * z - mean * mean / 2) / variance)
    # A game that recorded nothing but its result is only its result's chance; abandoned, nothing.
    assert calibration.log_likelihood([calibration.Observation("lost")], model, [0.0, 1.0]) == pytest.approx(
        [math.log(3.5 / 5.5), math.log(1.5 / 5.5)])
    assert list(calibration.log_likelihood([calibration.Observation("abandoned")], model, [0.0])) == [0.0]


def test_calibrate_recovers_a_known_skill_narrower_with_what_the_games_recorded():
    # 100 games of a known law at skill 0.8: the interval from results alone and from every
    # number recorded both hold the skill most of the time (95% nominal), and the numbers narrow it.
    trials = scaled(24)
    widths = {True: [], False: []}
    held = {True: 0, False: 0}
    for trial in range(trials):
        for numbers in (True, False):
            found = calibration.calibrate(group(0.8, 100, trial, numbers), simulated=1600, first=400,
                                          play=synthetic_play())
            widths[numbers].append(found.high - found.low)
            held[numbers] += found.low <= 0.8 <= found.high
            assert found.low <= found.skill <= found.high
    assert held[True] >= 0.8 * trials and held[False] >= 0.8 * trials
    assert np.median(widths[True]) <= 0.6 * np.median(widths[False])


def test_the_simulation_stops_once_its_own_error_is_small_and_plays_only_the_skills_around_the_interval():
    calls = []
    found = calibration.calibrate(group(1.2, 30, "few"), simulated=3200, first=100, play=synthetic_play(calls))
    # Thirty games leave a wide interval: a few hundred simulated games a skill are precise enough.
    assert found.simulated < 3200 and found.simulated == max(stop for _, _, stop in calls)
    played: dict[str, list[tuple[int, int]]] = {}
    for skill, start, stop in calls:
        played.setdefault(skill, []).append((start, stop))
    for batches in played.values():  # each skill's games in batches, doubling, each extending the last
        assert batches[0] == (0, 100) and all(b == (a[1], 2 * a[1]) for a, b in zip(batches, batches[1:], strict=False))
    # Only the grid skills around the interval (1.18 to 1.91: 1, 1.5 and 2) play more than the first batch.
    assert found.ratio_interval == (1.19, 1.9) and (found.low, found.high) == (1.18, 1.91)
    assert {skill for skill, batches in played.items() if len(batches) > 1} == {"club", "1.5", "expert"}
    assert 1.96 * found.error <= max(calibration.PRECISION_FLOOR, calibration.PRECISION * (1.9 - 1.19) / 2)
    assert found.games == 30 and found.wins == sum(g.won for g in group(1.2, 30, "few"))
    # The profile: the log likelihood less the best's, every 0.05 from 0 to 2 (the best at 1.48).
    assert [s for s, _ in found.profile] == [round(0.05 * i, 2) for i in range(41)]
    assert -0.05 < max(v for _, v in found.profile) < 0


def test_the_games_cache_plays_a_game_once(test_decks, monkeypatch):
    played = []
    real = caching.play_many if hasattr(caching, "play_many") else None
    from horde.lab import runner

    original = runner.play_many

    def counting(setup, seed, games, **options):
        played.append((options.get("start", 0), games))
        return original(setup, seed, games, **options)
    monkeypatch.setattr(runner, "play_many", counting)
    first = caching.play_records(MINI, (5, "cache"), 0, 6, workers=1)
    again = caching.play_records(MINI, (5, "cache"), 2, 9, workers=1)
    assert first[2:] == again[:4] and played == [(0, 6), (6, 3)]
    assert caching.play_records(MINI, (5, "cache"), 0, 9, workers=1, cache=False) == first + again[4:]
    assert played[-1] == (0, 9) and real is None
    # Another Horde deck file under the same name is another key: its games are played again.
    assert caching.series_key(MINI, 1) != caching.series_key(make_setup(**(MINI.to_dict() | {"skill": "expert"})), 1)


def test_a_games_cache_that_cannot_be_used_is_passed_by(tmp_path, test_decks, monkeypatch, capsys):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path))
    (tmp_path / caching.CACHE_NAME).write_bytes(b"this is not an SQLite database" * 100)
    caching._warned.clear()
    records = caching.play_records(MINI, (5, "broken"), 0, 2, workers=1)
    assert len(records) == 2
    assert "the games are played without it" in capsys.readouterr().err


def test_a_games_event_log_is_an_observation_as_its_record_is(test_decks):
    from horde.play import new_game, play_game, prepare

    start = new_game(prepare(MINI), 0).start_life
    for seed in range(6):
        result = play_game(MINI, seed, trace=True, record_turns=True)
        seen = calibration.observation_from_events(result.events, start_life=start)
        assert seen == calibration.observation_of(caching.record_of(result)) and seen.life_track


# ---------------------------------------------------------------- the command


def fake_records(monkeypatch, calls=None):
    monkeypatch.setattr(calibration, "play_records", lambda at, series, start, stop, workers=None, cache=True:
                        synthetic_play(calls)(at, series, start, stop))


def test_calibrate_command_writes_a_file_the_skill_knob_reads(tmp_path, test_decks, monkeypatch):
    fake_records(monkeypatch)
    path = write(tmp_path, HEADER + ROW * 12 + ROW.replace("won", "lost") * 18)
    out = tmp_path / "our-table.toml"
    result = CliRunner().invoke(cli, ["calibrate", str(path), "--out", str(out), "--games", "800", "--quiet",
                                      "--no-config"], env=DECKS)
    assert result.exit_code == 0, result.output
    assert "30 games fitted, the team won 12; numbers read besides the result: turn in 30" in result.output
    skill = float(next(line.split("=")[1] for line in out.read_text().splitlines() if line.startswith("skill =")))
    assert 0 <= skill <= 2
    simulated = CliRunner().invoke(cli, ["simulate", "--games", "20", "--horde", "mini", "--team", "white", "--team",
                                         "white", "--boss", "none", "--players", "2", "--skill", str(out), "--quiet"],
                                   env=DECKS)
    assert simulated.exit_code == 0, simulated.output
    assert f"team level {level_name(convert('skill', str(out)), 'baseline')};" in simulated.output


def test_calibrate_never_writes_over_its_games_file(tmp_path, test_decks, monkeypatch):
    fake_records(monkeypatch)
    text = HEADER + ROW * 3 + ROW.replace("won", "lost") * 3
    games = write(tmp_path, text, "g.toml")  # a games file named .toml: the default would have been itself
    result = CliRunner().invoke(cli, ["calibrate", str(games), "--games", "200", "--quiet", "--no-config"], env=DECKS)
    assert result.exit_code == 0, result.output
    assert games.read_text(encoding="utf-8") == text
    assert (tmp_path / "g-calibration.toml").read_text().startswith("# The team skill that best explains")
    calls = []
    fake_records(monkeypatch, calls)
    for out in (str(games), str(tmp_path / "." / "g.toml"), str(tmp_path / "notes.txt")):
        (tmp_path / "notes.txt").write_text("our notes\n")
        result = CliRunner().invoke(cli, ["calibrate", str(games), "--out", out, "--quiet", "--no-config"], env=DECKS)
        assert result.exit_code == 2 and result.output.startswith("error: ") and len(result.output.splitlines()) == 1
    assert "give another --out" in result.output and calls == []  # refused before any game
    assert games.read_text(encoding="utf-8") == text and (tmp_path / "notes.txt").read_text() == "our notes\n"


def test_calibrate_takes_a_games_file_whose_name_is_not_utf8(tmp_path, test_decks, monkeypatch):
    fake_records(monkeypatch)
    name = os.fsdecode(b"games-\xff.csv")
    (tmp_path / name).write_text(HEADER + ROW * 3 + ROW.replace("won", "lost") * 3, encoding="utf-8")
    result = CliRunner().invoke(cli, ["calibrate", str(tmp_path / name), "--games", "200", "--quiet", "--no-config"],
                                env=DECKS)
    assert result.exit_code == 0, result.output
    written = (tmp_path / os.fsdecode(b"games-\xff.toml")).read_text(encoding="utf-8")
    assert "games-\\\\xff.csv" in written and "calibration: " in result.output


def test_calibrate_labels_each_setup_by_what_sets_it_apart_and_reads_the_house_rules(tmp_path, test_decks,
                                                                                       monkeypatch):
    fake_records(monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "horde.toml").write_text('[setup]\nhorde_deck = "mini"\nboss = "none"\nteam_decks = ["white", "white"]'
                                         '\ngrace_turns = 2\n', encoding="utf-8")
    rows = "".join(f"{result},2,{cards}\n" for cards in (8, 9, 10) for result in ("won", "lost"))
    write(tmp_path, "result,players,cards_per_player\n" + rows)
    result = CliRunner().invoke(cli, ["calibrate", "games.csv", "--games", "200", "--quiet"], env=DECKS)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "games.csv: 6 games of 3 setup(s)"
    assert lines[1] == ("  2 players, Horde deck mini, cards per player 8: 2 games (preset zombie-horde; knobs that "
                        "differ from it: players 2, grace turns 2, cards per player 8, boss none, horde deck mini, "
                        "team decks white, white)")
    assert [line.split(":")[0] for line in lines if "simulated team win rate" in line] == [
        "  2 players, Horde deck mini, cards per player 8", "  2 players, Horde deck mini, cards per player 9",
        "  2 players, Horde deck mini, cards per player 10"]
    assert "house rules from horde.toml: horde_deck = 'mini'" in result.stderr


def test_a_skill_with_fewer_simulated_games_reads_its_first_seeds_and_their_weights():
    # Skill 0 has four simulated games, skill 1 the first two of the same seeds: a bootstrap's
    # weights (one per seed) count at each skill for the seeds it played, and the group's games
    # read once against the model give the same likelihood as read afresh.
    won, lost = Record("team", 10, 0, 5, 5, 0), Record("horde", 9, 0, 0, 0, 3)
    model = calibration.SetupModel((0.0, 1.0), [[won, lost, lost, lost], [won, won]])
    assert model.games == 4
    weights = np.array([2.0, 0.0, 1.0, 3.0])
    assert model.outcome_counts(weights).tolist() == [[2.0, 4.0, 0.0], [2.0, 0.0, 0.0]]
    games = [calibration.Observation("lost"), calibration.Observation("won")]
    # chances (count + 0.5) / (games + 1.5): at 0, won 2.5 / 7.5 and lost 4.5 / 7.5; at 1, 2.5 / 3.5, 0.5 / 3.5
    expected = [math.log(2.5 / 7.5) + math.log(4.5 / 7.5), math.log(2.5 / 3.5) + math.log(0.5 / 3.5)]
    assert calibration.log_likelihood(games, model, [0.0, 1.0], weights) == pytest.approx(expected)
    once = calibration.recorded(games, model)
    assert once.counts.tolist() == [1.0, 1.0, 0.0]
    assert calibration.log_likelihood(once, model, [0.0, 1.0], weights) == pytest.approx(expected)
    numbers = group(0.8, 40, "once")
    wide = calibration.SetupModel((0.0, 1.0, 2.0), [[synthetic_record(s, random.Random(f"{s}/{i}")) for i in
                                                      range(n)] for s, n in ((0, 200), (1, 120), (2, 80))])
    observed = [g.observation for g in numbers]
    w = np.random.default_rng(3).integers(0, 3, 200).astype(float)
    assert calibration.log_likelihood(calibration.recorded(observed, wide), wide, [0.3, 1.7], w) == pytest.approx(
        calibration.log_likelihood(observed, wide, [0.3, 1.7], w))


def test_calibrate_finds_the_skill_of_a_known_win_chance_and_its_likelihood_ratio_interval():
    # At skill 0 the team wins game i when i % 4 == 0 (a quarter), at skill 1 when i % 4 != 0
    # (three quarters); 400 simulated games a skill: chances (100.5 or 300.5) / 401.5. A group
    # that won 12 games of 20 (results alone) has the log likelihood 12 log pw(t) + 8 log pl(t),
    # pw and pl straight between the skills: its best skill and 95% interval are known exactly.
    def play(setup, series, start, stop):
        high = float(setup.skill in ("club", "1"))
        return [Record("team" if (i % 4 == 0) != bool(high) else "horde", 10, 5, 5, 5, 0) for i in range(start, stop)]
    games = [calibration.Game(MINI, calibration.Observation("won" if n < 12 else "lost"), n + 2) for n in range(20)]
    found = calibration.calibrate(games, grid=(0.0, 1.0), simulated=400, first=400, play=play)
    a, b = 100.5 / 401.5, 300.5 / 401.5

    def loglik(t: float) -> float:
        return 12 * math.log(a + t * (b - a)) + 8 * math.log(b + t * (a - b))
    # d/dt = 0: 12 (b - a) / pw = 8 (b - a) / pl, so pw = 1.5 pl: t = (1.5 b - a) / (2.5 (b - a))
    best = (1.5 * b - a) / (2.5 * (b - a))
    assert best == pytest.approx(0.7005, abs=1e-4) and loglik(0.70) > loglik(0.71)
    assert found.skill == 0.70
    inside = [s / 100 for s in range(101) if 2 * (loglik(0.70) - loglik(s / 100)) <= 3.841458820694124]
    assert found.ratio_interval == (min(inside), max(inside)) == (0.27, 1.0)
    # Every bootstrap resample of 400 games of a fixed pattern is the same law: no simulation error
    # beyond the resampling's, and the widened interval holds the likelihood-ratio one.
    assert found.low <= 0.27 and found.high == 1.0 and found.simulated == 400
    assert (found.games, found.wins, found.draws) == (20, 12, 0)


@pytest.mark.parametrize(("text", "message"), [
    ("not json\n", "games.jsonl:1: expected a finished game of horde table's games.jsonl"),
    ('{"record": {"setup": {}}, "result": {"winner": "team"}}\n', "games.jsonl:1: expected a finished game"),
    ('{"record": {"setup": {"players": 9}}, "result": {"winner": "team"}, "events": []}\n',
     "games.jsonl:1: knob 'players' = 9: expected a whole number from 1 to 4"),
    ('{"record": {"setup": {"players": 2}}, "result": {"winner": "team"}, "events": [{"event": "cast"}]}\n',
     "games.jsonl:1: its events: the event log has no game_over event"),
    ("\n", "games.jsonl: no games"),
])
def test_a_bad_table_games_log_is_one_line_naming_the_file_and_line(tmp_path, text, message):
    path = write(tmp_path, text, "games.jsonl")
    with pytest.raises(calibration.CalibrationError) as caught:
        calibration.read_games(str(path))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_table_games_log_reads_each_game_from_its_events(tmp_path, test_decks):
    # A game of the test decks played with its trace, written as the table writes games.jsonl:
    # its setup from the record, what it recorded from its events (an aborted one kept, unfitted).
    import json

    from horde.play import play_game

    lines = []
    for seed in range(3):
        result = play_game(MINI, seed, trace=True, record_turns=True)
        winner = "aborted" if seed == 2 else result.winner
        lines.append(json.dumps({"record": {"setup": MINI.to_dict() | {"policy": "random"}, "seed": seed},
                                 "result": {"winner": winner}, "events": result.events}, default=str))
    path = write(tmp_path, "\n".join(lines) + "\n", "games.jsonl")
    games = calibration.read_games(str(path))
    assert [g.setup for g in games] == [MINI] * 3 and [g.line for g in games] == [1, 2, 3]
    for seed, game in enumerate(games[:2]):
        assert game.observation == calibration.observation_of(caching.record_of(
            play_game(MINI, seed, record_turns=True)))
    assert games[2].observation.result == "abandoned"
