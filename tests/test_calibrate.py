"""``horde calibrate``: a group's games file read line by line, the logistic curve of the team
win rate against the skill, and the skill of maximum likelihood recovered from games played at
a known skill, within its interval."""

from __future__ import annotations

import functools

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS

from horde.cli import cli
from horde.lab import calibrate as calibration
from horde.lab.tune import play_winners
from horde.setup import convert, make_setup
from horde.team.skill import level_name

DECKS = {"HORDE_DECKS": str(TEST_DECKS)}
KNOWN = "0.5"  # halfway between novice and club
# make test spreads tests over its workers one by one (--dist loadgroup); this file's run on one,
# as its tests share the calibration's simulated games (curve_games, below).
pytestmark = pytest.mark.xdist_group("calibrate")
HEADER = "result,players,horde,team,boss,cards_per_player,turn\n"
ROW = 'won,2,mini,"white,white",none,9,12\n'


def test_the_games_file_is_read_line_by_line(tmp_path, test_decks):
    path = tmp_path / "games.csv"
    path.write_text(HEADER + ROW + "\n" + 'lost,2,mini,"white,white",none,9,\n', encoding="utf-8")
    games = calibration.read_games(str(path))
    assert [(g.won, g.turn, g.line) for g in games] == [(True, 12, 2), (False, None, 4)]
    assert games[0].setup == make_setup(horde_deck="mini", team_decks=["white", "white"], boss="none", players=2,
                                        cards_per_player=9)


@pytest.mark.parametrize(("text", "message"), [
    ("", "games.csv:1: expected a first line naming the columns"),
    ("players,turn\n2,3\n", "games.csv:1: no 'result' column"),
    ("result,players,colour\nwon,2,red\n", "games.csv:1: column 'colour' is neither result, turn nor a knob"),
    ("result,players,policy\nwon,2,control\n", "games.csv:1: column 'policy': the team's play is what calibration"),
    ("result,players\nwon,2\ndrew,2\n", "games.csv:3: result: expected won or lost"),
    ("result,players\nwon,9\n", "games.csv:2: knob 'players' = '9': expected a whole number from 1 to 4"),
    ("result,players,turn\nwon,2,soon\n", "games.csv:2: turn 'soon': expected a whole number from 1 to"),
    ("result,players\nwon\n", "games.csv:2: 1 cells, expected 2"),
    ("result,players\n", "games.csv: no games"),
])
def test_a_bad_games_file_is_one_line_naming_the_file_and_line(tmp_path, text, message):
    path = tmp_path / "games.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(calibration.CalibrationError) as caught:
        calibration.read_games(str(path))
    assert message in str(caught.value) and "\n" not in str(caught.value)
    result = CliRunner().invoke(cli, ["calibrate", str(path)])
    assert result.exit_code == 2 and result.output.strip().splitlines() == [f"error: {caught.value}"]


def test_the_fitted_curve_is_the_logistic_of_maximum_likelihood():
    # Exactly logistic points (with the half win and loss each fit adds) give back the curve.
    a, b = -1.0, 0.8
    points = []
    for skill in (0.0, 1.0, 2.0):
        p = 1 / (1 + 2.718281828459045 ** -(a + b * skill))
        points.append((skill, 9999, p * 10000 - 0.5))
    curve = calibration.fit_curve(points)
    assert curve.a == pytest.approx(a, abs=1e-9) and curve.b == pytest.approx(b, abs=1e-9)


@functools.cache
def curve_games():
    """The calibration's simulated games, played once per test run (the grid is coarse and small)."""
    setup = make_setup(horde_deck="mini", team_decks=["white"] * 2, boss="none", players=2, cards_per_player=9)
    played = {}

    def play(at, seed, games):
        key = (at, seed, games)
        if key not in played:
            played[key] = play_winners(at, seed, games, workers=1)
        return played[key]
    return setup, play


def test_calibrate_recovers_a_known_skill_within_its_interval(test_decks):
    setup, play = curve_games()
    at_known = make_setup(**(setup.to_dict() | {"skill": KNOWN}))
    covered = []
    for trial in range(10):
        winners = play_winners(at_known, ("group", trial), 30, workers=1)
        games = [calibration.Game(setup, w == "team", None, i) for i, w in enumerate(winners)]
        found = calibration.calibrate(games, grid=(0.0, 1.0, 2.0), simulated=300, play=play)
        covered.append(found.low <= float(KNOWN) <= found.high)
        assert found.low <= found.skill <= found.high and found.searched == (0.0, 2.0)
    assert sum(covered) >= 9
    few = calibration.calibrate(games[:10], grid=(0.0, 1.0, 2.0), simulated=300, play=play)
    assert any("only 10 games" in w for w in few.warnings)
    # Thirty games hardly tell novice from expert on these decks (34% against 53%): the interval
    # says so. Three hundred do.
    winners = play_winners(at_known, ("group", "many"), 300, workers=1)
    games = [calibration.Game(setup, w == "team", None, i) for i, w in enumerate(winners)]
    found = calibration.calibrate(games, grid=(0.0, 1.0, 2.0), simulated=300, play=play)
    assert found.low <= float(KNOWN) <= found.high < 1.5 and not found.warnings


def test_calibrate_command_writes_a_file_the_skill_knob_reads(tmp_path, test_decks, monkeypatch):
    setup, play = curve_games()
    monkeypatch.setattr(calibration, "play_winners", lambda at, seed, games, workers=None: play(at, seed, games))
    path = tmp_path / "games.csv"
    path.write_text(HEADER + ROW * 12 + ROW.replace("won", "lost") * 18, encoding="utf-8")
    out = tmp_path / "our-table.toml"
    result = CliRunner().invoke(cli, ["calibrate", str(path), "--out", str(out), "--grid", "0,1,2", "--games", "300",
                                      "--quiet"], env=DECKS)
    assert result.exit_code == 0, result.output
    assert "30 games, the team won 12" in result.output
    skill = float(next(line.split("=")[1] for line in out.read_text().splitlines() if line.startswith("skill =")))
    assert 0 <= skill <= 2
    simulated = CliRunner().invoke(cli, ["simulate", "--games", "20", "--horde", "mini", "--team", "white", "--team",
                                         "white", "--boss", "none", "--players", "2", "--skill", str(out), "--quiet"],
                                   env=DECKS)
    assert simulated.exit_code == 0, simulated.output
    assert f"team level {level_name(convert('skill', str(out)), 'baseline')};" in simulated.output
