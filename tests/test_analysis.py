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

from horde.lab import analysis, plots  # noqa: E402
from horde.lab.analysis import ResultsError  # noqa: E402
from horde.lab.stats import Z95, wilson  # noqa: E402

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


# Viechtbauer's metafor, tests/testthat/test_misc_rma_mh.r: rma.mh(measure="RD") on the 13 BCG
# vaccine trials (dat.bcg: tpos, tneg, cpos, cneg) gives -0.0033 (-0.0039 to -0.0027), z -11.4708,
# with Sato, Greenland and Robins' (1989) variance.
BCG_TRIALS = [(4, 119, 11, 128), (6, 300, 29, 274), (3, 228, 11, 209), (62, 13536, 248, 12619),
              (33, 5036, 47, 5761), (180, 1361, 372, 1079), (8, 2537, 10, 619), (505, 87886, 499, 87892),
              (29, 7470, 45, 7232), (17, 1699, 65, 1600), (186, 50448, 141, 27197), (5, 2493, 3, 2338),
              (27, 16886, 29, 17825)]


def test_mantel_haenszel_difference_matches_metafor_on_the_bcg_trials():
    wins_with = [a for a, b, c, d in BCG_TRIALS]
    games_with = [a + b for a, b, c, d in BCG_TRIALS]
    wins_without = [c for a, b, c, d in BCG_TRIALS]
    games_without = [c + d for a, b, c, d in BCG_TRIALS]
    difference, low, high = analysis.mantel_haenszel_difference(wins_with, games_with, wins_without, games_without)
    assert (round(difference, 4), round(low, 4), round(high, 4)) == (-0.0033, -0.0039, -0.0027)
    assert round(difference / ((high - low) / (2 * Z95)), 4) == -11.4708


# Two strata by hand. Stratum 1: 2 of 4 with, 1 of 4 without (weight 4*4/8 = 2, difference 1/4).
# Stratum 2: 3 of 6 with, 0 of 2 without (weight 6*2/8 = 3/2, difference 1/2). Pooled:
# (2/4 + 3/4 ... ) = (0.5 + 0.75) / (2 + 1.5) = 5/14. Sato: P = -1/4 - 9/16 = -13/16, Q = 1/2 + 3/8
# = 7/8, variance = (5/14 * -13/16 + 7/8) / (7/2)^2 = 131/2744.
TWO_STRATA = dict(difference=5 / 14, half=Z95 * math.sqrt(131 / 2744))


def test_mantel_haenszel_difference_on_two_strata_by_hand():
    difference, low, high = analysis.mantel_haenszel_difference([2, 3], [4, 6], [1, 0], [4, 2])
    assert difference == pytest.approx(TWO_STRATA["difference"])
    assert (low, high) == pytest.approx((TWO_STRATA["difference"] - TWO_STRATA["half"],
                                         TWO_STRATA["difference"] + TWO_STRATA["half"]))
    # a stratum with games on one side only weighs nothing; none with both sides: no answer
    assert analysis.mantel_haenszel_difference([2, 3, 5], [4, 6, 5], [1, 0, 0], [4, 2, 0])[0] == pytest.approx(5 / 14)
    assert all(math.isnan(x) for x in analysis.mantel_haenszel_difference([1], [2], [0], [0]))


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


def test_H14_summary_gives_stalls_their_own_share_and_the_win_rate_among_decided_games():
    # 2 team wins, 1 Horde win, 1 stall and 1 aborted game (H15): 2 of 5 games, 2 of 3 decided ones.
    rows = [game(game_index=i, winner=w) for i, w in enumerate(["team", "horde", "team", "stall", "aborted"])]
    row = analysis.summary(table(rows), by=[]).iloc[0]
    assert (row["games"], row["stalls"], row["stall_rate"], row["aborted"]) == (5, 1, 0.2, 1)
    assert (row["team_win_rate"], row["decided"], row["decided_win_rate"]) == (0.4, 3, 2 / 3)
    assert (row["decided_win_low"], row["decided_win_high"]) == pytest.approx(wilson(2, 3))


def test_levels_name_the_team_level_of_every_game():
    rows = [game(policy="baseline"), game(policy="expert"), game(policy="control"), game(policy="baseline")]
    games = table(rows).assign(skill=["", "", "", "0.5"], policy_params=["{}", "{}", "{}", "{}"])
    assert list(analysis.levels(games)) == ["club", "expert", "policy control (off the skill ladder)",
                                            "skill 0.5 (between novice and club)"]
    games = games.assign(policy_params=['{"safety": 3}', "{}", "{}", "{}"])
    assert analysis.levels(games).iloc[0] == "policy baseline (safety=3) (off the skill ladder)"
    assert list(analysis.levels(table(rows[:1]).drop(columns="policy"))) == ["club"]  # older results: baseline


def test_summary_pools_with_an_empty_by_and_groups_by_a_named_column():
    rows = [game(game_index=i, players=p, winner="team" if i % 2 else "horde") for p in (2, 3) for i in range(4)]
    pooled = analysis.summary(table(rows), by=[])
    assert list(pooled.columns[:2]) == ["games", "team_wins"] and pooled.loc[0, "games"] == 8
    by_players = analysis.summary(table(rows), by="players")
    assert list(by_players["players"]) == [2, 3] and list(by_players["team_wins"]) == [2, 2]


def drawn_games():
    """Two cells. Cell 0 (2 players): Elspeth won 2 of 2, Liliana 0 of 2. Cell 1 (4 players, two
    lieutenants each): Elspeth 0 of 1, Liliana 1 of 3; one game with no boss."""
    rows = [game(cell=0, game_index=i, players=2, boss=boss, winner=winner)
            for i, (boss, winner) in enumerate([("Elspeth", "team"), ("Elspeth", "team"), ("Liliana", "horde"),
                                                ("Liliana", "horde")])]
    rows += [game(cell=1, game_index=i, players=4, boss=boss, winner=winner, lieutenants=lieutenants)
             for i, (boss, winner, lieutenants) in enumerate([
                 ("Elspeth", "horde", ["Bladewing", "Boris"]), ("Liliana", "team", ["Boris", "Mikaeus"]),
                 ("Liliana", "horde", ["Bladewing", "Mikaeus"]), ("Liliana", "horde", ["Bladewing", "Boris"]),
                 (None, "team", ["Boris", "Mikaeus"])])]
    return table(rows)


def test_B1_summary_by_boss_drawn_per_cell_and_pooled():
    pooled = analysis.summary(drawn_games(), by="boss_drawn").set_index("boss_drawn")
    assert list(pooled.index) == ["Elspeth", "Liliana", "no boss"]
    assert list(pooled["games"]) == [3, 5, 1] and list(pooled["team_wins"]) == [2, 1, 1]
    assert (pooled.loc["Elspeth", "team_win_low"], pooled.loc["Elspeth", "team_win_high"]) == pytest.approx(wilson(2, 3))
    per_cell = analysis.summary(drawn_games(), by=["players", "boss_drawn"])
    assert [tuple(r) for r in per_cell[["players", "boss_drawn", "games", "team_wins"]].itertuples(index=False)] == [
        (2, "Elspeth", 2, 2), (2, "Liliana", 2, 0), (4, "Elspeth", 1, 0), (4, "Liliana", 3, 1), (4, "no boss", 1, 1)]


def test_L1_summary_by_lieutenants_drawn_counts_a_game_under_each_of_its_lieutenants():
    out = analysis.summary(drawn_games(), by="lieutenants_drawn").set_index("lieutenants_drawn")
    assert list(out.index) == ["Bladewing", "Boris", "Mikaeus", "no lieutenant"]
    assert list(out["games"]) == [3, 4, 3, 4]  # the four two-player games drew none
    assert list(out["team_wins"]) == [0, 2, 2, 2]
    survival = analysis.survival(drawn_games(), by="lieutenants_drawn")
    assert set(survival["lieutenants_drawn"]) == {"Bladewing", "Boris", "Mikaeus", "no lieutenant"}


def test_B1_drawn_impact_pools_the_boss_difference_with_the_cell_as_a_stratum():
    """Elspeth against Liliana: cell 0 gives 2/2 - 0/2 = 1 with weight 2*2/4 = 1; cell 1 gives
    0/1 - 1/3 = -1/3 with weight 1*3/4 = 3/4: pooled (1 - 1/4) / (7/4) = 3/7. The game without
    a boss is left out."""
    out = analysis.drawn_impact(drawn_games(), "boss_drawn").set_index("boss_drawn")
    assert list(out.index) == ["Liliana", "Elspeth"]  # the hardest first
    elspeth = out.loc["Elspeth"]
    assert elspeth["difference"] == pytest.approx(3 / 7) and out.loc["Liliana", "difference"] == pytest.approx(-3 / 7)
    assert (elspeth["strata"], elspeth["games_with"], elspeth["team_wins_with"]) == (2, 3, 2)
    assert (elspeth["games_without"], elspeth["team_wins_without"]) == (5, 1)
    assert (elspeth["win_rate_with_low"], elspeth["win_rate_with_high"]) == pytest.approx(wilson(2, 3))
    expected = analysis.mantel_haenszel_difference([2, 0], [2, 1], [0, 1], [2, 3])
    assert (elspeth["difference_low"], elspeth["difference_high"]) == pytest.approx(expected[1:])
    assert set(out["verdict"]) <= {"harder", "easier", "unclear"}


def test_L1_drawn_impact_of_lieutenants_counts_a_game_for_both_of_its_lieutenants():
    """Only cell 1 drew lieutenants: Boris in games 0, 1, 3, 4 (won 1 and 4), not in game 2 (lost)."""
    out = analysis.drawn_impact(drawn_games(), "lieutenants_drawn").set_index("lieutenants_drawn")
    boris = out.loc["Boris"]
    assert (boris["strata"], boris["games_with"], boris["team_wins_with"]) == (1, 4, 2)
    assert (boris["games_without"], boris["team_wins_without"]) == (1, 0)
    assert boris["difference"] == pytest.approx(0.5)
    assert out.loc["Bladewing", "games_with"] == 3 and out.loc["Bladewing", "team_wins_with"] == 0


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


def stratified_games():
    """The two strata of TWO_STRATA as games: cell 0 (cards 10) and cell 1 (cards 20), each game
    reaching the Horde's 3rd turn, plus a game that ends sooner and one that reveals Bomb late."""
    rows = []
    for cell, cards, outcomes in ((0, 10, [(True, "team")] * 2 + [(True, "horde")] * 2 + [(False, "team")]
                                   + [(False, "horde")] * 3),
                                  (1, 20, [(True, "team")] * 3 + [(True, "horde")] * 3 + [(False, "horde")] * 2)):
        for i, (bomb, winner) in enumerate(outcomes):
            rows.append(game(cell=cell, game_index=i, cards=cards, winner=winner, horde_turns=3,
                             revealed=[("Bomb", 2)] if bomb else [("Dud", 1)]))
    rows.append(game(cell=1, game_index=8, cards=20, winner="team", horde_turns=2, revealed=[("Bomb", 1)]))
    rows.append(game(cell=1, game_index=9, cards=20, winner="team", horde_turns=5, revealed=[("Bomb", 4)]))
    return table(rows)


def test_pooled_card_impact_takes_each_cell_as_a_stratum():
    """With the game that reveals Bomb late (a game without it by turn 3, won), stratum 2 has
    1 of 3 without; the game that ended sooner does not count. The plain pooled difference
    (5/10 - 2/7) is not the stratified one."""
    out = analysis.pooled_card_impact(stratified_games(), k=3, min_games=1).set_index("card")
    bomb = out.loc["Bomb"]
    assert (bomb["strata"], bomb["games_with"], bomb["team_wins_with"]) == (2, 10, 5)
    assert (bomb["games_without"], bomb["team_wins_without"]) == (7, 2)
    expected = analysis.mantel_haenszel_difference([2, 3], [4, 6], [1, 1], [4, 3])
    assert (bomb["difference"], bomb["difference_low"], bomb["difference_high"]) == pytest.approx(expected)
    assert bomb["difference"] != pytest.approx(5 / 10 - 2 / 7)
    assert out.attrs["k"] == 3 and out.attrs["strata"] == ["cards_per_player"]
    # Dud: 1 of 4 and 0 of 2 with it; without it the Bombs and, in cell 1, the late game (won)
    dud = analysis.mantel_haenszel_difference([1, 0], [4, 2], [2, 4], [4, 7])
    assert out.loc["Dud", "difference"] == pytest.approx(dud[0])
    # without the late game the table is TWO_STRATA's
    exact = analysis.pooled_card_impact(stratified_games().iloc[:-1], k=3, min_games=1).set_index("card")
    assert exact.loc["Bomb", "difference"] == pytest.approx(TWO_STRATA["difference"])
    assert exact.loc["Bomb", "difference_high"] - exact.loc["Bomb", "difference"] == pytest.approx(TWO_STRATA["half"])


def test_pooled_card_impact_shows_only_cards_with_enough_games_on_both_sides():
    games = stratified_games()
    assert analysis.POOLED_MIN_GAMES == 100
    assert analysis.pooled_card_impact(games, k=3).empty  # 17 games: nobody reaches 100
    assert list(analysis.pooled_card_impact(games, k=3, min_games=6)["card"]) == ["Dud", "Bomb"]
    assert list(analysis.pooled_card_impact(games, k=3, min_games=7)["card"]) == ["Bomb"]  # Dud: 6 games with it
    assert analysis.pooled_card_impact(games, k=3, min_games=8).empty  # Bomb: 7 games without it
    by_cell = analysis.pooled_card_impact(games, k=3, by="cards_per_player", min_games=1)
    assert list(by_cell["strata"]) == [1, 1, 1, 1]


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


def test_compare_tables_pairs_two_folders_on_the_cells_they_share():
    games = compare_games()
    careful, baseline = games[games["policy"] == "careful"], games[games["policy"] == "baseline"]
    row = analysis.compare_tables(careful, baseline, names=("careful", "baseline")).iloc[0]
    assert (row["pairs"], row["unpaired"]) == (10, 1)
    assert (row["both_won"], row["only_a_won"], row["only_b_won"], row["neither_won"]) == (3, 4, 1, 2)
    assert (row["arm_a"], row["arm_b"]) == ("careful", "baseline")
    # A plays 2 and 3 players, B 3 and 4: only the three-player cell pairs
    a = table([game(cell=p, game_index=i, players=p, winner="team") for p in (2, 3) for i in range(4)])
    b = table([game(cell=p, game_index=i, players=p, winner="team" if i < 1 else "horde") for p in (3, 4)
               for i in range(4)])
    per_cell = analysis.compare_tables(a, b)
    assert list(per_cell["players"]) == [2, 3, 4] and list(per_cell["pairs"]) == [0, 4, 0]
    assert per_cell.loc[1, "difference"] == pytest.approx(0.75)
    pooled = analysis.compare_tables(a, b, by=()).iloc[0]
    assert (pooled["pairs"], pooled["unpaired"], pooled["only_a_won"]) == (4, 8, 3)
    with pytest.raises(ResultsError, match="B: no games to compare"):
        analysis.compare_tables(a, b.iloc[:0], names=("A", "B"))


def test_compare_adjacent_pairs_each_swept_value_with_the_one_before():
    """difficulty_games: the team wins games below 10 - cards/5 + players, so 20 cards against 10
    loses 2 games at 2 players (8 of 10 against 10) and 1 at 3 players (9 against 10)."""
    out = analysis.compare_adjacent(difficulty_games(), "cards_per_player", by="players")
    assert [tuple(r) for r in out[["value_a", "value_b", "players", "pairs", "only_b_won"]].itertuples(index=False)] == [
        (20, 10, 2, 10, 2), (20, 10, 3, 10, 1), (30, 20, 2, 10, 2), (30, 20, 3, 10, 2)]
    assert list(out["difference"]) == pytest.approx([-0.2, -0.1, -0.2, -0.2])
    pooled = analysis.compare_adjacent(difficulty_games(), "cards_per_player")
    assert list(pooled["pairs"]) == [20, 20] and list(pooled["difference"]) == pytest.approx([-0.15, -0.2])
    assert out.attrs["knob"] == "cards_per_player"
    with pytest.raises(ResultsError, match="one value only"):
        analysis.compare_adjacent(difficulty_games(), "policy")


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
    from horde.lab.runner import games_schema, play_many
    from horde.setup import make_setup

    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", players=2, cards_per_player=8)
    games = analysis.games_table(play_many(setup, 7, 12, workers=1, progress=False), cell=3, experiment="x")
    assert list(games.columns) == games_schema().names
    assert list(games["game"]) == list(range(12)) and set(games["seed"]) == {7} and set(games["cell"]) == {3}
    assert analysis.summary(games, by=[])["games"].iloc[0] == 12
    analysis.card_impact(games, k=1)  # reads the runner's revealed column


@pytest.mark.parametrize(("players", "drawn"), [(2, 0), (4, 2)])
def test_L1_games_table_names_the_boss_and_lieutenants_drawn(test_decks, players, drawn):
    from horde.lab.runner import play_many
    from horde.setup import make_setup

    setup = make_setup(horde_deck="mini-boss", team_decks=["white"] * 4, players=players, boss="random",
                       lieutenants=True)
    games = analysis.games_table(play_many(setup, 5, 6, workers=1, progress=False))
    assert set(games["boss_drawn"]) == {"Liliana, Death's Majesty"}
    assert all(len(names) == drawn for names in games["lieutenants_drawn"])
    if drawn:  # L1: drawn without replacement
        assert all(set(names) == {"Lord of the Undead", "Fleshbag Marauder"} for names in games["lieutenants_drawn"])


def test_the_engine_runner_and_command_line_import_no_pandas_or_matplotlib():
    code = ("import sys, horde.play, horde.lab.runner, horde.cli, horde.lab.tune; "
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
        assert histogram.get_xlabel() == "game length (Horde turns)"
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


def test_difficulty_curve_ticks_every_swept_value():
    try:
        ax = plots.difficulty_curve(difficulty_games(), "cards_per_player")
        assert list(ax.get_xticks()) == [10, 20, 30]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "20", "30"]
    finally:
        plt.close("all")


def test_turn_histogram_counts_each_sides_turns():
    """Game 0: 9 turns, 3 of them the Horde's (6 team turns); game 1: 10 turns, 4 the Horde's."""
    games = table([game(game_index=0, turns=9, horde_turns=3, winner="horde"),
                   game(game_index=1, turns=10, horde_turns=4, winner="team")])
    try:
        for side, expected in (("horde", {3: 1, 4: 1}), ("team", {6: 2})):
            ax = plots.turn_histogram(games, side=side)
            heights: dict = {}
            for bar in ax.patches:
                x = round(bar.get_x() + bar.get_width() / 2)
                heights[x] = heights.get(x, 0) + bar.get_height()
            assert {x: h for x, h in heights.items() if h} == expected
        with pytest.raises(ResultsError, match="expected 'team' or 'horde'"):
            plots.turn_histogram(games, side="both")
    finally:
        plt.close("all")


def test_heat_map_colours_each_cell_and_outlines_the_target_band():
    """Rates at 2 players: 100%, 80%, 60%; at 3 players: 100%, 90%, 70% (difficulty_games). With
    target 0.65 and band 0.05, the cells at 60% and 70% are outlined."""
    try:
        ax = plots.heat_map(difficulty_games(), "cards_per_player", target=0.65, band=0.05)
        image = ax.get_images()[0]
        assert image.get_array().tolist() == [[1.0, 0.8, 0.6], [1.0, 0.9, 0.7]]
        assert [t.get_text() for t in ax.texts] == ["100%", "80%", "60%", "100%", "90%", "70%"]
        outlined = [(p.get_x() + 0.5, p.get_y() + 0.5) for p in ax.patches]
        assert outlined == [(2, 0), (2, 1)]  # column 30 cards, rows 2 and 3 players
        assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "20", "30"]
        assert [t.get_text() for t in ax.get_yticklabels()] == ["2 players", "3 players"]
        assert "target 65% ± 5 points" in ax.get_legend().get_texts()[0].get_text()
        one_row = plots.heat_map(analysis.summary(difficulty_games(), by=["cards_per_player"]), "cards_per_player",
                                 rows=None)
        assert one_row.get_images()[0].get_array().shape == (1, 3)
        with pytest.raises(ResultsError, match="target 1.5"):
            plots.heat_map(difficulty_games(), "cards_per_player", target=1.5)
        ax.figure.canvas.draw()
    finally:
        plt.close("all")
