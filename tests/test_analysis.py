"""The analysis layer: interval methods against published values, and every table on constructed
games tables whose answers are known by hand; plots render with the Agg backend."""

from __future__ import annotations

import math
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from results_tables import difficulty_games, game, table, write_results  # noqa: E402

from horde import analysis, plots  # noqa: E402
from horde.analysis import ResultsError  # noqa: E402
from horde.stats import wilson  # noqa: E402

# -- intervals -----------------------------------------------------------------------------------

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3.
WILSON_CASES = [((81, 263), (0.2553, 0.3662)), ((15, 148), (0.0624, 0.1605)), ((0, 20), (0.0, 0.1611)),
                ((1, 29), (0.0061, 0.1718)), ((29, 29), (0.8830, 1.0))]


@pytest.mark.parametrize(("counts", "expected"), WILSON_CASES)
def test_wilson_matches_published_values(counts, expected):
    low, high = analysis.wilson_interval(*counts)
    assert (round(float(low), 4), round(float(high), 4)) == expected
    assert tuple(round(x, 4) for x in wilson(*counts)) == expected


def test_wilson_vectorised_agrees_with_the_scalar_version_and_handles_no_trials():
    k = np.array([0, 3, 50, 7, 0])
    n = np.array([10, 4, 100, 7, 0])
    low, high = analysis.wilson_interval(k, n)
    for i in range(len(k)):
        assert (low[i], high[i]) == pytest.approx(wilson(int(k[i]), int(n[i])))
    assert (low[-1], high[-1]) == (0.0, 1.0)
    assert low[0] == 0.0 and high[3] == 1.0  # exact at the edges


# Newcombe (1998), "Interval estimation for the difference between independent proportions",
# method 10 (hybrid score).
@pytest.mark.parametrize(("counts", "expected"), [((56, 70, 48, 80), (0.0524, 0.3339)),
                                                  ((9, 10, 3, 10), (0.1705, 0.8090)),
                                                  ((5, 56, 0, 29), (-0.0381, 0.1926))])
def test_difference_interval_matches_newcombe_method_10(counts, expected):
    low, high = analysis.difference_interval(*counts)
    assert (round(float(low), 4), round(float(high), 4)) == expected


def test_paired_interval_matches_newcombe_square_and_add():
    # Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables" (2017), ch. 8:
    # the table [[59, 6], [16, 80]] gives -0.0621 (-0.1186 to -0.0046).
    low, high = analysis.paired_difference_interval(59, 6, 16, 80)
    assert (round(low, 4), round(high, 4)) == (-0.1186, -0.0046)
    assert all(math.isnan(x) for x in analysis.paired_difference_interval(0, 0, 0, 0))


# -- summary -------------------------------------------------------------------------------------

def test_summary_counts_rates_and_quartiles_by_the_knobs_that_vary():
    rows = [game(cell=0, game_index=i, cards=10, winner=w, turns=t, life=end, life_min=lowest)
            for i, (w, t, end, lowest) in enumerate([("team", 8, 30, 12), ("team", 10, 25, 5), ("horde", 6, 0, 0),
                                              ("stall", 60, 4, 2)])]
    rows += [game(cell=1, game_index=i, cards=20, winner="horde", turns=4 + i) for i in range(3)]
    out = analysis.summary(table(rows))
    assert list(out["cards_per_player"]) == [10, 20]  # by=None: the knobs that vary
    first = out.iloc[0]
    assert (first["games"], first["team_wins"], first["horde_wins"], first["stalls"]) == (4, 2, 1, 1)
    assert first["team_win_rate"] == 0.5
    assert (first["team_win_low"], first["team_win_high"]) == pytest.approx(wilson(2, 4))
    assert (first["stall_low"], first["stall_high"]) == pytest.approx(wilson(1, 4))
    assert first["turns_mean"] == 21.0
    assert (first["turns_q1"], first["turns_median"], first["turns_q3"]) == (7.5, 9.0, 22.5)
    assert first["team_life_end_mean"] == pytest.approx(59 / 4)
    assert first["team_life_lowest_mean"] == pytest.approx(19 / 4)
    second = out.iloc[1]
    assert (second["games"], second["team_win_rate"], second["horde_win_rate"]) == (3, 0.0, 1.0)
    assert second["team_win_low"] == 0.0


def test_summary_pools_with_an_empty_by_and_groups_by_a_named_column():
    rows = [game(game_index=i, players=p, winner="team" if i % 2 else "horde") for p in (2, 3) for i in range(4)]
    pooled = analysis.summary(table(rows), by=[])
    assert list(pooled.columns[:2]) == ["games", "team_wins"] and pooled.loc[0, "games"] == 8
    by_players = analysis.summary(table(rows), by="players")
    assert list(by_players["players"]) == [2, 3] and list(by_players["team_wins"]) == [2, 2]


def test_summary_names_a_missing_column():
    with pytest.raises(ResultsError, match="no column\\(s\\) boss to group by"):
        analysis.summary(table([game()]), by=["boss"])
    with pytest.raises(ResultsError, match="missing column\\(s\\) winner"):
        analysis.summary(table([game()]).drop(columns="winner"))


# -- survival ------------------------------------------------------------------------------------

def test_survival_counts_only_horde_wins_as_deaths_and_has_wilson_bands():
    rows = [game(game_index=0, winner="horde", turns=2), game(game_index=1, winner="horde", turns=4),
            game(game_index=2, winner="team", turns=3), game(game_index=3, winner="stall", turns=5)]
    out = analysis.survival(table(rows), by=[])
    assert list(out["turn"]) == [0, 1, 2, 3, 4, 5]
    assert list(out["team_losses"]) == [0, 0, 1, 1, 2, 2]
    assert list(out["survival"]) == [1.0, 1.0, 0.75, 0.75, 0.5, 0.5]
    assert (out.loc[2, "survival_low"], out.loc[2, "survival_high"]) == pytest.approx(wilson(3, 4))
    assert (out.loc[0, "survival_low"], out.loc[0, "survival_high"]) == pytest.approx(wilson(4, 4))


def test_survival_by_group_runs_each_group_to_its_longest_game():
    rows = [game(cell=0, players=2, winner="horde", turns=1), game(cell=1, players=3, game_index=0,
                                                                    winner="team", turns=3)]
    out = analysis.survival(table(rows))
    assert list(out.loc[out["players"] == 2, "survival"]) == [1.0, 0.0]
    assert list(out.loc[out["players"] == 3, "survival"]) == [1.0, 1.0, 1.0, 1.0]


# -- card impact ---------------------------------------------------------------------------------

def impact_games():
    """Ten games that reached the Horde's 3rd turn, and one that did not (excluded).

    Bomb (revealed by turn 3 in games 0-3): the team won 0 of 4 with it, 4 of 6 without.
    Dud (games 4-7): 4 of 4 with it, 0 of 6 without. Late: revealed on turn 5 only, so never
    "by turn 3". Twice: revealed twice in game 8: counts once.
    """
    rows = []
    for i in range(4):
        rows.append(game(game_index=i, winner="horde", horde_turns=4, revealed=[("Bomb", 1 + i % 3), ("Late", 5)]))
    for i in range(4, 8):
        rows.append(game(game_index=i, winner="team", horde_turns=3, revealed=[("Dud", 2)]))
    rows.append(game(game_index=8, winner="horde", horde_turns=6, revealed=[("Twice", 1), ("Twice", 2)]))
    rows.append(game(game_index=9, winner="horde", horde_turns=3, revealed=[]))
    rows.append(game(game_index=10, winner="horde", horde_turns=2, revealed=[("Dud", 1), ("Bomb", 2)]))
    return table(rows)


@pytest.mark.parametrize("layout", ["structs", "parallel lists"])
def test_card_impact_compares_games_with_and_without_each_card(layout):
    games = impact_games()
    if layout == "parallel lists":  # the two-column form: revealed_cards and revealed_turns
        games["revealed_cards"] = games["revealed"].map(lambda r: [x["card"] for x in r])
        games["revealed_turns"] = games["revealed"].map(lambda r: [x["horde_turn"] for x in r])
        games = games.drop(columns="revealed")
    out = analysis.card_impact(games, k=3).set_index("card")
    assert list(out.index) == ["Bomb", "Twice", "Dud"]  # sorted by difference; Late never by turn 3
    bomb = out.loc["Bomb"]
    assert (bomb["games_with"], bomb["team_wins_with"], bomb["games_without"], bomb["team_wins_without"]) == (4, 0, 6, 4)
    assert bomb["win_rate_with"] == 0.0 and bomb["win_rate_without"] == pytest.approx(4 / 6)
    assert bomb["difference"] == pytest.approx(-4 / 6)
    expected = analysis.difference_interval(0, 4, 4, 6)
    assert (bomb["difference_low"], bomb["difference_high"]) == pytest.approx((float(expected[0][()]),
                                                                               float(expected[1][()])))
    assert bomb["verdict"] == "bomb"
    dud = out.loc["Dud"]
    assert (dud["games_with"], dud["team_wins_with"], dud["games_without"], dud["team_wins_without"]) == (4, 4, 6, 0)
    assert dud["verdict"] == "fizzle"
    twice = out.loc["Twice"]
    assert (twice["games_with"], twice["team_wins_with"]) == (1, 0)
    assert twice["verdict"] == "unclear"
    assert out.attrs["k"] == 3


def test_card_impact_turn_and_minimum_games():
    games = impact_games()
    # By turn 5 only game 8 counts (the only one with 5 Horde turns): Late's games ended before.
    late = analysis.card_impact(games, k=5)
    assert list(late["card"]) == ["Twice"]
    assert (late.loc[0, "games_with"], late.loc[0, "games_without"]) == (1, 0)
    assert math.isnan(late.loc[0, "difference"]) and late.loc[0, "verdict"] == "unclear"
    assert set(analysis.card_impact(games, k=3, min_games=2)["card"]) == {"Bomb", "Dud"}
    with pytest.raises(ResultsError, match="at least 1"):
        analysis.card_impact(games, k=0)
    with pytest.raises(ResultsError, match="no 'revealed' column"):
        analysis.card_impact(games.drop(columns="revealed"))


# -- swing ---------------------------------------------------------------------------------------

def test_swing_gives_each_distribution_with_the_win_rate_at_each_value():
    rows = [game(game_index=0, streak=2, biggest=5, winner="team"), game(game_index=1, streak=2, biggest=3,
                                                                         winner="horde"),
            game(game_index=2, streak=7, biggest=5, winner="horde"), game(game_index=3, streak=0, biggest=1)]
    out = analysis.swing(table(rows), by=[])
    streak = out[out["measure"] == "longest_token_streak"].set_index("value")
    assert list(streak.index) == [0, 2, 7]
    assert list(streak["games"]) == [1, 2, 1] and list(streak["share"]) == [0.25, 0.5, 0.25]
    assert streak.loc[2, "team_win_rate"] == 0.5
    assert (streak.loc[2, "team_win_low"], streak.loc[2, "team_win_high"]) == pytest.approx(wilson(1, 2))
    biggest = out[out["measure"] == "biggest_horde_turn"].set_index("value")
    assert list(biggest["games"]) == [1, 1, 2] and biggest.loc[5, "team_wins"] == 1


# -- compare -------------------------------------------------------------------------------------

def compare_games():
    """Two policies on the same 10 seeds: both won 3, only careful 4, only baseline 1, neither 2;
    plus one careful game with no partner."""
    outcomes = [("team", "team")] * 3 + [("horde", "team")] * 4 + [("team", "horde")] + [("horde", "horde")] * 2
    rows = []
    for i, (baseline, careful) in enumerate(outcomes):
        rows.append(game(cell=0, game_index=i, policy="baseline", winner=baseline))
        rows.append(game(cell=1, game_index=i, policy="careful", winner=careful))
    rows.append(game(cell=1, game_index=10, policy="careful", winner="team"))
    return table(rows)


def test_compare_pairs_games_on_the_same_seed_and_game_index():
    out = analysis.compare(compare_games(), {"policy": "careful"}, {"policy": "baseline"})
    row = out.iloc[0]
    assert (row["pairs"], row["unpaired"]) == (10, 1)
    assert (row["both_won"], row["only_a_won"], row["only_b_won"], row["neither_won"]) == (3, 4, 1, 2)
    assert (row["win_rate_a"], row["win_rate_b"]) == (0.7, 0.4)
    assert row["difference"] == pytest.approx(0.3)
    assert (row["difference_low"], row["difference_high"]) == pytest.approx(
        analysis.paired_difference_interval(3, 4, 1, 2))
    assert row["arm_a"] == "policy=careful"
    by_cell = analysis.compare(compare_games(), 1, 0).iloc[0]
    assert by_cell["difference"] == pytest.approx(0.3) and by_cell["arm_b"] == "cell 0"


def test_compare_pairs_within_other_varying_knobs_and_groups_by_them():
    rows = []
    for players in (2, 3):
        for i in range(5):
            rows.append(game(cell=players * 2, game_index=i, players=players, policy="baseline",
                             winner="horde"))
            rows.append(game(cell=players * 2 + 1, game_index=i, players=players, policy="careful",
                             winner="team" if i < players else "horde"))
    out = analysis.compare(table(rows), {"policy": "careful"}, {"policy": "baseline"}, by=["players"])
    assert list(out["players"]) == [2, 3]
    assert list(out["pairs"]) == [5, 5] and list(out["only_a_won"]) == [2, 3]
    pooled = analysis.compare(table(rows), {"policy": "careful"}, {"policy": "baseline"}).iloc[0]
    assert pooled["pairs"] == 10 and pooled["difference"] == pytest.approx(0.5)


def test_compare_explains_arms_it_cannot_use():
    games = compare_games()
    with pytest.raises(ResultsError, match="no games match the arm policy=bold"):
        analysis.compare(games, {"policy": "bold"}, {"policy": "baseline"})
    with pytest.raises(ResultsError, match="share games"):
        analysis.compare(games, {"players": 4}, {"policy": "baseline"})
    with pytest.raises(ResultsError, match="expected a cell number or a mapping"):
        analysis.compare(games, "careful", 0)
    with pytest.raises(ResultsError, match="differs between the arms"):
        analysis.compare(games, 1, 0, by=["policy"])


# -- loading -------------------------------------------------------------------------------------

@pytest.mark.parametrize("parts", [False, True])
def test_load_reads_a_results_folder(tmp_path, parts):
    folder = write_results(tmp_path / "tiny-abc", compare_games(), parts)
    results = analysis.load(folder)
    assert len(results.games) == 21 and len(results.turns) == 2
    assert results.experiment["run"]["games"] == 10 and results.manifest["games"] == 21
    assert results.name == "tiny"
    assert results.summary(by=["policy"])["games"].tolist() == [10, 11]
    assert results.compare({"policy": "careful"}, {"policy": "baseline"}).loc[0, "pairs"] == 10


def test_load_says_what_is_wrong_in_one_line(tmp_path):
    with pytest.raises(ResultsError, match="no such results folder"):
        analysis.load(tmp_path / "nowhere")
    with pytest.raises(ResultsError, match="no games.parquet here"):
        analysis.load(tmp_path)
    (tmp_path / "games.parquet").write_text("not parquet")
    with pytest.raises(ResultsError, match="can't be read as parquet") as error:
        analysis.load(tmp_path)
    assert "\n" not in str(error.value)
    table([game()]).drop(columns=["turns"]).to_parquet(tmp_path / "games.parquet")
    with pytest.raises(ResultsError, match="missing column\\(s\\) turns"):
        analysis.load(tmp_path)
    table([game()]).to_parquet(tmp_path / "games.parquet")
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(ResultsError, match="manifest.json:1: can't be read as JSON"):
        analysis.load(tmp_path)


def test_games_table_has_the_columns_the_runner_writes(test_decks):
    from horde.presets import make_setup
    from horde.runner import games_schema, play_many

    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", players=2, cards_per_player=8)
    games = analysis.games_table(play_many(setup, 7, 12, workers=1, progress=False), cell=3, experiment="x")
    assert list(games.columns) == games_schema().names
    assert list(games["game"]) == list(range(12)) and set(games["seed"]) == {7} and set(games["cell"]) == {3}
    assert analysis.summary(games, by=[])["games"].iloc[0] == 12
    analysis.card_impact(games, k=1)  # reads the runner's revealed column


def test_the_engine_runner_and_command_line_import_no_pandas_or_matplotlib():
    code = ("import sys, horde.engine, horde.runner, horde.cli, horde.tune; "
            "print([m for m in ('pandas', 'matplotlib') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- plots ---------------------------------------------------------------------------------------

def test_plots_render_with_agg_and_return_their_axes():
    games = difficulty_games()
    try:
        ax = plots.difficulty_curve(games, "cards_per_player")
        assert len(ax.get_lines()) == 2 and len(ax.collections) == 2  # one line and band per player count
        assert ax.get_ylim() == (0, 1)
        figure, given = plt.subplots()
        assert plots.difficulty_curve(analysis.summary(games, by=["cards_per_player", "players"]),
                                      "cards_per_player", ax=given, target=0.5) is given
        assert plots.survival_curves(games, by="players").get_legend() is not None
        assert plots.survival_curves(analysis.survival(games, by=[])) is not None
        impact = analysis.card_impact(games, k=2, by=[])
        chart = plots.card_impact_chart(impact)
        assert [t.get_text() for t in chart.get_yticklabels()] == list(impact["card"])[::-1]
        histogram = plots.turn_histogram(games)
        assert sum(p.get_height() for p in histogram.patches) == len(games)
        for drawn in (ax, given, chart, histogram):
            drawn.figure.canvas.draw()
    finally:
        plt.close("all")


def test_difficulty_curve_takes_text_knobs_and_refuses_mixed_rows():
    rows = [game(cell=i, game_index=0, players=2, winner="team") | {"strong_mix": mix}
            for i, mix in enumerate(["1:4", "3:2", "5:0"])]
    try:
        ax = plots.difficulty_curve(table(rows), "strong_mix", line=None)
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1:4", "3:2", "5:0"]
        with pytest.raises(ResultsError, match="several rows share"):
            plots.difficulty_curve(analysis.summary(difficulty_games(), by=["cards_per_player", "players"]),
                                   "cards_per_player", line=None)
    finally:
        plt.close("all")
