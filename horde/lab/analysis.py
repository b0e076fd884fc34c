"""Results to tidy pandas tables with intervals: ``load`` reads a results folder written by ``horde
run`` (``games.parquet``, ``turns.parquet``, ``experiment.toml``, ``manifest.json``) and the
functions here turn its games table into summaries, survival curves, per-card impact, swing
distributions, win rates by the boss and lieutenants drawn, and paired comparisons of two arms
(of one folder or of two), every rate with its 95% interval and every function naming its method
(Wilson for a rate, Newcombe's hybrid score interval for the difference of two independent rates,
the Mantel-Haenszel difference with Sato's variance for a difference pooled over cells, Newcombe's
square-and-add interval for two arms played on the same seeds). Each table takes ``by``: ``None``
groups by the knobs that vary (one row per cell), ``[]`` pools every game, a column name or list
groups by those. Nothing here plays a game; ``games_table`` turns games played in memory into the
runner's own games table.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from horde.errors import HordeError, escaped
from horde.files import check_regular, read_text
from horde.lab.experiments import read_toml
from horde.lab.runner import store
from horde.lab.stats import Z95
from horde.setup import FIELD_NAMES
from horde.team.skill import level_name


class ResultsError(HordeError):
    """A results folder or games table that can't be analysed as it is."""


EXPECTED_FOLDER = "expected the folder `horde run` wrote, like results/NAME-HASH/"
SWING_MEASURES = ("longest_token_streak", "biggest_horde_turn")
_ALL = "__all__"  # the one group key when ``by`` pools every game
# Columns that name what the game drew, and the label of a game that drew nothing.
DRAWN = {"boss_drawn": "no boss", "lieutenants_drawn": "no lieutenant"}
# Pooled card impact shows a card only with this many games on each side, summed over the cells:
# then no 95% interval is much wider than +-10 points.
POOLED_MIN_GAMES = 100


# ---------------------------------------------------------------- intervals


def wilson_interval(successes, trials, z: float = Z95):
    """The Wilson score interval of a binomial rate, vectorised (95% by default).

    ``successes`` and ``trials`` are numbers or arrays; returns ``(low, high)`` of the same shape,
    ``(0, 1)`` where there are no trials and exactly 0 (1) when no (every) trial succeeded. It
    agrees with ``horde.lab.stats.wilson``."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
    low = np.where(n > 0, np.where(k <= 0, 0.0, low), 0.0)
    high = np.where(n > 0, np.where(k >= n, 1.0, high), 1.0)
    return low[()], high[()]


def difference_interval(successes_1, trials_1, successes_2, trials_2, z: float = Z95):
    """The interval of ``p1 - p2`` for two independent rates: Newcombe's hybrid score interval
    (1998, method 10), from the Wilson intervals of each rate; vectorised, 95% by default.

    Returns ``(low, high)``; NaN where either rate has no trials."""
    k1, n1, k2, n2 = (np.asarray(x, dtype=float) for x in (successes_1, trials_1, successes_2, trials_2))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = np.where(n1 > 0, k1 / n1, np.nan)
        p2 = np.where(n2 > 0, k2 / n2, np.nan)
    low1, high1 = wilson_interval(k1, n1, z)
    low2, high2 = wilson_interval(k2, n2, z)
    difference = p1 - p2
    low = difference - np.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2)
    high = difference + np.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2)
    return np.asarray(low)[()], np.asarray(high)[()]


def paired_difference_interval(both: int, only_a: int, only_b: int, neither: int,
                               z: float = Z95) -> tuple[float, float]:
    """The interval of ``pA - pB`` for two rates measured on the same pairs: Newcombe's
    square-and-add interval for paired rates (1998, method 10) from the Wilson interval of each
    rate, with his continuity-adjusted correlation of the pairs; 95% by default.

    The arguments are the 2x2 table of the pairs (both succeeded, only A, only B, neither);
    returns ``(low, high)``, NaN without pairs."""
    a, b, c, d = (int(x) for x in (both, only_a, only_b, neither))
    n = a + b + c + d
    if n == 0:
        return math.nan, math.nan
    p1, p2 = (a + b) / n, (a + c) / n
    low1, high1 = (float(x) for x in wilson_interval(a + b, n, z))
    low2, high2 = (float(x) for x in wilson_interval(a + c, n, z))
    product = (a + b) * (c + d) * (a + c) * (b + d)
    numerator: float = a * d - b * c
    if numerator > n / 2:
        numerator -= n / 2  # the continuity adjustment
    elif numerator >= 0:
        numerator = 0
    phi = numerator / math.sqrt(product) if product else 0.0
    difference = p1 - p2
    below = (p1 - low1) ** 2 - 2 * phi * (p1 - low1) * (high2 - p2) + (high2 - p2) ** 2
    above = (high1 - p1) ** 2 - 2 * phi * (high1 - p1) * (p2 - low2) + (p2 - low2) ** 2
    return difference - math.sqrt(max(below, 0.0)), difference + math.sqrt(max(above, 0.0))


def _mantel_haenszel_terms(wins_with, games_with, wins_without, games_without):
    """Per stratum: the Mantel-Haenszel weight, the weighted difference, and Sato's P and Q terms."""
    x1, n1, x0, n0 = (np.asarray(x, dtype=float) for x in (wins_with, games_with, wins_without, games_without))
    n = n1 + n0
    with np.errstate(divide="ignore", invalid="ignore"):
        weight = np.where(n > 0, n1 * n0 / n, 0.0)
        weighted = np.where(n > 0, (x1 * n0 - x0 * n1) / n, 0.0)
        p = np.where(n > 0, (n1 * n1 * x0 - n0 * n0 * x1 + n1 * n0 * (n0 - n1) / 2) / (n * n), 0.0)
        q = np.where(n > 0, (x1 * (n0 - x0) + x0 * (n1 - x1)) / (2 * n), 0.0)
    return weight, weighted, p, q


def _mantel_haenszel_sums(weight, weighted, p, q, z: float = Z95):
    """The pooled difference and its interval from the strata's summed terms (arrays or numbers)."""
    weight, weighted, p, q = (np.asarray(x, dtype=float) for x in (weight, weighted, p, q))
    with np.errstate(divide="ignore", invalid="ignore"):
        difference = np.where(weight > 0, weighted / weight, np.nan)
        variance = np.maximum((difference * p + q) / (weight * weight), 0.0)
    half = z * np.sqrt(variance)
    return difference, np.clip(difference - half, -1.0, 1.0), np.clip(difference + half, -1.0, 1.0)


def mantel_haenszel_difference(wins_with, games_with, wins_without, games_without, z: float = Z95):
    """The difference of two rates pooled over strata: the Mantel-Haenszel risk difference with
    the variance of Sato (1989; Sato, Greenland and Robins), which holds for many small strata as
    for a few large ones, and its Wald interval; 95% by default.

    Each argument holds one number per stratum (the first rate's successes and trials, the
    second's). Each stratum weighs ``n1 * n0 / (n1 + n0)``: a stratum with no trials on one side
    adds nothing. Returns ``(difference, low, high)``, NaN when no stratum has trials on both
    sides."""
    terms = _mantel_haenszel_terms(wins_with, games_with, wins_without, games_without)
    weight, weighted, p, q = (np.sum(term) for term in terms)
    difference, low, high = _mantel_haenszel_sums(weight, weighted, p, q, z=z)
    return float(difference), float(low), float(high)


def _rate(frame: pd.DataFrame, wins: str, trials: str, rate: str, low: str, high: str) -> None:
    """Add a rate column and its Wilson 95% interval."""
    k = frame[wins].to_numpy(dtype=float)
    n = frame[trials].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        frame[rate] = np.where(n > 0, k / n, np.nan)
    interval = wilson_interval(k, n)
    frame[low] = np.atleast_1d(interval[0])
    frame[high] = np.atleast_1d(interval[1])


# ---------------------------------------------------------------- grouping


def _distinct(column: pd.Series) -> int:
    try:
        return column.nunique(dropna=False)
    except TypeError:  # lists and dicts: compare as text
        return column.map(repr).nunique(dropna=False)


def varying_knobs(games: pd.DataFrame) -> list[str]:
    """The setup knobs (columns named like ``GameSetup``'s fields) with more than one value in
    ``games``, in the setup's order: what tells the cells of an experiment apart."""
    return [name for name in FIELD_NAMES if name in games.columns and _distinct(games[name]) > 1]


def _by(games: pd.DataFrame, by) -> list[str]:
    """The grouping columns: the varying knobs for None, one name, or a list of names."""
    if by is None:
        return varying_knobs(games)
    names = [by] if isinstance(by, str) else list(by)
    missing = [name for name in names if name not in games.columns]
    if missing:
        raise ResultsError(f"no column(s) {', '.join(missing)} to group by")
    return names


def _require(games: pd.DataFrame, columns: Iterable[str], where: str | None = None) -> pd.DataFrame:
    if not isinstance(games, pd.DataFrame):
        raise ResultsError(f"expected a games table (a pandas DataFrame), got {type(games).__name__}")
    missing = [name for name in columns if name not in games.columns]
    if missing:
        raise ResultsError(f"missing column(s) {', '.join(missing)} in the games table", where)
    return games


def _keys(frame: pd.DataFrame, by: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """The frame with a constant key added when ``by`` pools everything, and the keys to use."""
    if by:
        return frame, list(by)
    return frame.assign(**{_ALL: 0}), [_ALL]


def _is_list(value) -> bool:
    return isinstance(value, list | tuple | np.ndarray)


def drew(games: pd.DataFrame, column: str) -> np.ndarray:
    """Which games drew something in ``column`` (a boss in ``boss_drawn``, at least one
    lieutenant in ``lieutenants_drawn``); none when the column is missing."""
    if column not in games.columns:
        return np.zeros(len(games), dtype=bool)
    return games[column].map(lambda v: len(v) > 0 if _is_list(v) else not pd.isna(v)).to_numpy(dtype=bool)


def _expand(games: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """``games`` ready to group by ``by``: a column of lists (``lieutenants_drawn``) gives one row
    per game and value, and a game that drew nothing is labelled (``no boss``, ``no lieutenant``)."""
    for name in by:
        column = games[name]
        if column.dtype == object and column.map(_is_list).any():
            games = games.assign(**{name: column.map(lambda v: list(v) if _is_list(v) else v)}).explode(name)
        if name in DRAWN:
            games = games.assign(**{name: games[name].where(games[name].notna(), DRAWN[name])})
    return games


# ---------------------------------------------------------------- tables


def levels(games: pd.DataFrame) -> pd.Series:
    """The team's level of every game (``horde.team.skill.level_name``: ``club``, ``novice``, a skill
    between two levels, or the policy played when it is off the ladder), from its ``skill``,
    ``policy`` and ``policy_params`` columns (results without a ``skill`` column: the policy)."""
    n = len(games)
    skill = games["skill"].fillna("") if "skill" in games.columns else pd.Series([""] * n, index=games.index)
    policy = games["policy"] if "policy" in games.columns else pd.Series(["baseline"] * n, index=games.index)
    params = games["policy_params"] if "policy_params" in games.columns else pd.Series(["{}"] * n, index=games.index)
    names: dict[tuple, str] = {}
    out = []
    for key in zip(skill, policy, params, strict=True):
        if key not in names:
            text = key[2] if isinstance(key[2], str) else "{}"
            try:
                values = json.loads(text or "{}")
            except json.JSONDecodeError:
                values = {}
            pairs = tuple(sorted(values.items())) if isinstance(values, dict) else ()
            names[key] = level_name(str(key[0] or ""), str(key[1]), pairs)
        out.append(names[key])
    return pd.Series(out, index=games.index, name="level", dtype=object)


def summary(games: pd.DataFrame, by=None) -> pd.DataFrame:
    """One row per group: games; team wins, Horde wins and stalls, each with its rate and Wilson
    95% interval; games aborted by the work budget (H15), counted apart; the decided games (won
    by either side) and the team's win rate among them, with its Wilson 95% interval; game length in turns (mean and quartiles by linear interpolation); the mean team
    life at the end of the game and at its lowest.

    ``by``: None (the knobs that vary), ``[]`` (every game pooled) or column names. A column of
    lists (``lieutenants_drawn``) counts a game once under each of its values; a game that drew
    no boss or no lieutenant is grouped as ``no boss`` / ``no lieutenant``."""
    _require(games, ("winner", "turns"))
    by = _by(games, by)
    games = _expand(games, by)
    columns = by + ["games", "team_wins", "team_win_rate", "team_win_low", "team_win_high",
                    "horde_wins", "horde_win_rate", "horde_win_low", "horde_win_high",
                    "stalls", "stall_rate", "stall_low", "stall_high", "aborted",
                    "decided", "decided_win_rate", "decided_win_low", "decided_win_high",
                    "turns_mean", "turns_q1", "turns_median", "turns_q3",
                    "team_life_end_mean", "team_life_lowest_mean"]
    if games.empty:
        return pd.DataFrame(columns=columns)
    winner = games["winner"]
    data = pd.DataFrame({"team": (winner == "team").to_numpy(), "horde": (winner == "horde").to_numpy(),
                         "stall": (winner == "stall").to_numpy(), "aborted": (winner == "aborted").to_numpy(),
                         "turns": games["turns"].to_numpy(dtype=float),
                         "life_end": _numbers(games, "team_life"), "life_lowest": _numbers(games, "team_life_min")})
    for name in by:
        data[name] = games[name].to_numpy()
    data, keys = _keys(data, by)
    grouped = data.groupby(keys, sort=True, dropna=False)
    out = grouped.agg(games=("team", "size"), team_wins=("team", "sum"), horde_wins=("horde", "sum"),
                      stalls=("stall", "sum"), aborted=("aborted", "sum"), turns_mean=("turns", "mean"),
                      team_life_end_mean=("life_end", "mean"), team_life_lowest_mean=("life_lowest", "mean"))
    quartiles = grouped["turns"].quantile([0.25, 0.5, 0.75]).unstack()  # type: ignore[arg-type]  # a list is fine
    out["turns_q1"], out["turns_median"], out["turns_q3"] = quartiles[0.25], quartiles[0.5], quartiles[0.75]
    out = out.reset_index()
    for column in ("team_wins", "horde_wins", "stalls", "aborted"):
        out[column] = out[column].astype("int64")
    _rate(out, "team_wins", "games", "team_win_rate", "team_win_low", "team_win_high")
    _rate(out, "horde_wins", "games", "horde_win_rate", "horde_win_low", "horde_win_high")
    _rate(out, "stalls", "games", "stall_rate", "stall_low", "stall_high")
    out["decided"] = out["team_wins"] + out["horde_wins"]  # H12, H13: someone won (no stall, nothing aborted)
    _rate(out, "team_wins", "decided", "decided_win_rate", "decided_win_low", "decided_win_high")
    return out[columns].reset_index(drop=True)


def _numbers(games: pd.DataFrame, column: str) -> np.ndarray:
    if column not in games.columns:
        return np.full(len(games), np.nan)
    return pd.to_numeric(games[column], errors="coerce").to_numpy(dtype=float)


def _groups(games: pd.DataFrame, by: list[str]):
    """(key tuple, rows) for each group, in sorted order; one group of everything for ``[]``."""
    if not by:
        yield (), games
        return
    for key, rows in games.groupby(by, sort=True, dropna=False):
        yield (key if isinstance(key, tuple) else (key,)), rows


def survival(games: pd.DataFrame, by=None) -> pd.DataFrame:
    """The share of games in which the team is still alive after each turn, with pointwise
    Wilson 95% intervals.

    Only a Horde win counts as the team dying (on the game's last turn); games the team won or
    that stalled stay alive, so nothing is censored and each point is a plain rate over every
    game of the group. One row per group and turn, from 0 to the group's longest game. Groups
    by the boss or lieutenants drawn as ``summary`` does."""
    _require(games, ("winner", "turns"))
    by = _by(games, by)
    games = _expand(games, by)
    frames = []
    for key, rows in _groups(games, by):
        turns = rows["turns"].to_numpy(dtype=int)
        longest = int(turns.max()) if len(turns) else 0
        deaths = np.clip(turns[(rows["winner"] == "horde").to_numpy()], 0, longest)
        losses = np.cumsum(np.bincount(deaths, minlength=longest + 1))[: longest + 1]
        frame = pd.DataFrame({name: [value] * (longest + 1) for name, value in zip(by, key, strict=True)})
        frame["turn"] = np.arange(longest + 1)
        frame["games"] = len(rows)
        frame["team_losses"] = losses.astype("int64")
        frame["alive"] = len(rows) - losses
        _rate(frame, "alive", "games", "survival", "survival_low", "survival_high")
        frames.append(frame.drop(columns="alive"))
    columns = by + ["turn", "games", "team_losses", "survival", "survival_low", "survival_high"]
    if not frames:
        return pd.DataFrame(columns=columns)
    return pd.concat(frames, ignore_index=True)[columns]


def reveals(games: pd.DataFrame) -> pd.DataFrame:
    """The Horde's nontoken reveals as a long table: ``row`` (position in ``games``), ``card``,
    ``horde_turn``. Reads ``revealed`` (a list of ``{card, horde_turn}`` per game, as the runner
    writes it) or the two parallel lists ``revealed_cards`` and ``revealed_turns``."""
    rows: list[int] = []
    cards: list[str] = []
    turns: list[int] = []
    if "revealed" in games.columns:
        for i, items in enumerate(games["revealed"].to_numpy()):
            if items is None or isinstance(items, float):
                continue
            for item in items:
                if isinstance(item, Mapping):
                    cards.append(item["card"])
                    turns.append(item["horde_turn"])
                else:  # a (card, horde turn) pair
                    cards.append(item[0])
                    turns.append(item[1])
                rows.append(i)
    elif "revealed_cards" in games.columns and "revealed_turns" in games.columns:
        for i, (names, numbers) in enumerate(zip(games["revealed_cards"].to_numpy(),
                                                 games["revealed_turns"].to_numpy(), strict=True)):
            if names is None or isinstance(names, float):
                continue
            for name, number in zip(names, numbers, strict=True):
                rows.append(i)
                cards.append(name)
                turns.append(number)
    else:
        raise ResultsError("no 'revealed' column (nor 'revealed_cards' and 'revealed_turns'): the games table "
                           "does not say which cards the Horde revealed")
    return pd.DataFrame({"row": np.asarray(rows, dtype=np.int64), "card": pd.Series(cards, dtype=object),
                         "horde_turn": np.asarray(turns, dtype=np.int64)})


def card_impact(games: pd.DataFrame, k: int = 3, by=None, min_games: int = 1) -> pd.DataFrame:
    """For each nontoken Horde card, the team's win rate in games where the Horde revealed it by
    its ``k``-th turn against the games where it did not, each with its Wilson 95% interval, and
    the difference (with minus without) with Newcombe's hybrid score 95% interval (1998, method 10).

    Only games in which the Horde took at least ``k`` turns count; a card revealed twice counts
    once. ``verdict`` is ``bomb`` when the whole interval is below zero (the card hurts the team),
    ``fizzle`` when it is above, else ``unclear``. Cards revealed early in fewer than ``min_games``
    games are left out. The default ``by`` ranks within cells. Sorted by group, then by
    difference (the worst bomb first); ``attrs["k"]`` holds ``k``."""
    if int(k) < 1:
        raise ResultsError(f"k = {k}: the Horde turn a card must be revealed by must be at least 1")
    _require(games, ("winner", "horde_turns"))
    by = _by(games, by)
    revealed = reveals(games)
    counted = (games["horde_turns"].to_numpy(dtype=float) >= k)
    team = (games["winner"] == "team").to_numpy()
    base = pd.DataFrame({name: games[name].to_numpy() for name in by})
    base["row"] = np.arange(len(games))
    base["team"] = team
    base = base[counted]
    base, keys = _keys(base, by)
    early = revealed[revealed["horde_turn"] <= k].drop_duplicates(["row", "card"])
    early = early.merge(base, on="row", how="inner")
    totals = base.groupby(keys, sort=False, dropna=False).agg(group_games=("team", "size"),
                                                              group_wins=("team", "sum"))
    out = early.groupby(keys + ["card"], sort=False, dropna=False).agg(games_with=("team", "size"),
                                                                     team_wins_with=("team", "sum"))
    out = out.reset_index().merge(totals.reset_index(), on=keys, how="left")
    out = out[out["games_with"] >= min_games].copy()
    out["team_wins_with"] = out["team_wins_with"].astype("int64")
    out["games_without"] = (out["group_games"] - out["games_with"]).astype("int64")
    out["team_wins_without"] = (out["group_wins"] - out["team_wins_with"]).astype("int64")
    _rate(out, "team_wins_with", "games_with", "win_rate_with", "win_rate_with_low", "win_rate_with_high")
    _rate(out, "team_wins_without", "games_without", "win_rate_without", "win_rate_without_low",
          "win_rate_without_high")
    out["difference"] = out["win_rate_with"] - out["win_rate_without"]
    low, high = difference_interval(out["team_wins_with"], out["games_with"], out["team_wins_without"],
                                    out["games_without"])
    out["difference_low"] = np.atleast_1d(low)
    out["difference_high"] = np.atleast_1d(high)
    out["verdict"] = np.where(out["difference_high"] < 0, "bomb",
                              np.where(out["difference_low"] > 0, "fizzle", "unclear"))
    out = out.sort_values(by + ["difference", "card"], kind="stable", na_position="last")
    columns = by + ["card", "games_with", "team_wins_with", "win_rate_with", "win_rate_with_low",
                    "win_rate_with_high", "games_without", "team_wins_without", "win_rate_without",
                    "win_rate_without_low", "win_rate_without_high", "difference", "difference_low",
                    "difference_high", "verdict"]
    out = out[columns].reset_index(drop=True)
    out.attrs["k"] = int(k)
    return out


# ---------------------------------------------------------------- pooled over cells, cell as a stratum


def _strata(games: pd.DataFrame, by: list[str], strata) -> list[str]:
    """The stratum columns: the knobs that vary and are not grouped by (the cells), or as given."""
    if strata is None:
        return [name for name in varying_knobs(games) if name not in by]
    names = _by(games, strata)
    return [name for name in names if name not in by]


def _with_and_without(base: pd.DataFrame, members: pd.DataFrame, by: list[str], strata: list[str],
                      min_games: int) -> pd.DataFrame:
    """For each group of ``by`` and each item: the games with the item and the rest, their team
    win rates (Wilson 95%), and the difference pooled over ``strata`` (Mantel-Haenszel, Sato).

    ``base`` has one row per game counted (``row``, ``team`` and the ``by`` and ``strata``
    columns); ``members`` the pairs (``row``, ``item``), each once. Items with fewer than
    ``min_games`` games on either side are left out."""
    base, keys = _keys(base, by)
    layers = keys + strata
    totals = base.groupby(layers, sort=False, dropna=False).agg(games=("team", "size"), wins=("team", "sum"))
    found = members.merge(base, on="row", how="inner")
    counts = found.groupby(layers + ["item"], sort=False, dropna=False).agg(n1=("team", "size"), x1=("team", "sum"))
    table = counts.reset_index().merge(totals.reset_index(), on=layers, how="left")
    table["n0"] = table["games"] - table["n1"]
    table["x0"] = table["wins"] - table["x1"]
    terms = _mantel_haenszel_terms(table["x1"], table["n1"], table["x0"], table["n0"])
    for name, term in zip(("weight", "weighted", "p", "q"), terms, strict=True):
        table[name] = term
    table["both"] = (table["n1"] > 0) & (table["n0"] > 0)
    out = table.groupby(keys + ["item"], sort=False, dropna=False).agg(
        games_with=("n1", "sum"), team_wins_with=("x1", "sum"), strata=("both", "sum"), weight=("weight", "sum"),
        weighted=("weighted", "sum"), p=("p", "sum"), q=("q", "sum")).reset_index()
    group = base.groupby(keys, sort=False, dropna=False).agg(group_games=("team", "size"), group_wins=("team", "sum"))
    out = out.merge(group.reset_index(), on=keys, how="left")
    out["games_without"] = out["group_games"] - out["games_with"]
    out["team_wins_without"] = out["group_wins"] - out["team_wins_with"]
    out = out[(out["games_with"] >= min_games) & (out["games_without"] >= min_games)].copy()
    for name in ("games_with", "team_wins_with", "games_without", "team_wins_without", "strata"):
        out[name] = out[name].astype("int64")
    _rate(out, "team_wins_with", "games_with", "win_rate_with", "win_rate_with_low", "win_rate_with_high")
    _rate(out, "team_wins_without", "games_without", "win_rate_without", "win_rate_without_low",
          "win_rate_without_high")
    difference, low, high = _mantel_haenszel_sums(out["weight"], out["weighted"], out["p"], out["q"])
    out["difference"] = np.atleast_1d(difference)
    out["difference_low"] = np.atleast_1d(low)
    out["difference_high"] = np.atleast_1d(high)
    out = out.sort_values(by + ["difference", "item"], kind="stable", na_position="last")
    columns = by + ["item", "strata", "games_with", "team_wins_with", "win_rate_with", "win_rate_with_low",
                    "win_rate_with_high", "games_without", "team_wins_without", "win_rate_without",
                    "win_rate_without_low", "win_rate_without_high", "difference", "difference_low",
                    "difference_high"]
    return out[columns].reset_index(drop=True)


def _verdict(table: pd.DataFrame, below: str, above: str) -> np.ndarray:
    return np.where(table["difference_high"] < 0, below, np.where(table["difference_low"] > 0, above, "unclear"))


def pooled_card_impact(games: pd.DataFrame, k: int = 3, by=(), strata=None,
                       min_games: int = POOLED_MIN_GAMES) -> pd.DataFrame:
    """Card impact pooled over cells: for each nontoken Horde card, the team's win rate in games
    where the Horde revealed it by its ``k``-th turn against the games where it did not, and the
    difference (with minus without) pooled over the cells with the cell as a stratum: the
    Mantel-Haenszel risk difference with Sato's variance and its 95% Wald interval
    (``mantel_haenszel_difference``). A stratified difference compares each card only with games
    of its own cell, so a card is not made a bomb by turning up more in the bigger, harder decks.

    The games counted are those of ``card_impact`` (the Horde took at least ``k`` turns; a card
    revealed twice counts once). ``strata``: None (the knobs that vary, apart from ``by``) or
    column names. Only cards with at least ``min_games`` games on each side, summed over the
    cells, are shown (``POOLED_MIN_GAMES``, 100). The column ``strata`` counts the cells with
    games on both sides; ``win_rate_with`` and ``win_rate_without`` are the plain pooled rates
    (Wilson 95%);
    ``verdict`` is ``bomb`` / ``fizzle`` / ``unclear`` from the pooled interval. ``by`` (default
    ``()``: every cell pooled) groups first. Sorted by difference, the worst bomb first;
    ``attrs`` holds ``k``, ``min_games``, ``strata`` and ``method``."""
    if int(k) < 1:
        raise ResultsError(f"k = {k}: the Horde turn a card must be revealed by must be at least 1")
    _require(games, ("winner", "horde_turns"))
    by = _by(games, by)
    strata = _strata(games, by, strata)
    revealed = reveals(games)
    base = pd.DataFrame({name: games[name].to_numpy() for name in dict.fromkeys(by + strata)})
    base["row"] = np.arange(len(games))
    base["team"] = (games["winner"] == "team").to_numpy()
    base = base[games["horde_turns"].to_numpy(dtype=float) >= k]
    early = revealed[revealed["horde_turn"] <= k].drop_duplicates(["row", "card"])
    members = pd.DataFrame({"row": early["row"].to_numpy(), "item": early["card"].to_numpy()})
    out = _with_and_without(base, members, by, strata, int(min_games)).rename(columns={"item": "card"})
    out["verdict"] = _verdict(out, "bomb", "fizzle")
    out.attrs.update(k=int(k), min_games=int(min_games), strata=strata,
                     method="Mantel-Haenszel difference, cell as a stratum, Sato variance")
    return out


def drawn_impact(games: pd.DataFrame, column: str = "boss_drawn", by=(), strata=None,
                 min_games: int = 1) -> pd.DataFrame:
    """Win rate by what the game drew, pooled over cells: for each boss (``column="boss_drawn"``)
    or lieutenant (``"lieutenants_drawn"``), the team's win rate in the games that drew it
    (Wilson 95%, a plain pooled rate) against the other games that drew a boss (a lieutenant),
    and the difference with minus without pooled with the cell as a stratum (Mantel-Haenszel,
    Sato's variance, 95%), as ``pooled_card_impact`` does.

    Games that drew nothing (no boss; two players draw no lieutenant, L1) are left out. A
    four-player game draws two lieutenants and counts for both. ``verdict`` is ``harder`` (the
    whole interval below zero: the team wins less), ``easier`` or ``unclear``. Sorted by
    difference, the hardest first."""
    _require(games, ("winner", column))
    by = _by(games, by)
    strata = _strata(games, by, strata)
    rows = pd.DataFrame({"row": np.arange(len(games)), "item": games[column].to_numpy()})
    if games[column].dtype == object and games[column].map(_is_list).any():
        rows["item"] = rows["item"].map(lambda v: list(v) if _is_list(v) else v)
        rows = rows.explode("item")
    members = rows[rows["item"].notna()].drop_duplicates(["row", "item"])
    base = pd.DataFrame({name: games[name].to_numpy() for name in dict.fromkeys(by + strata)})
    base["row"] = np.arange(len(games))
    base["team"] = (games["winner"] == "team").to_numpy()
    base = base[base["row"].isin(members["row"])]
    out = _with_and_without(base, members, by, strata, int(min_games)).rename(columns={"item": column})
    out["verdict"] = _verdict(out, "harder", "easier")
    out.attrs.update(column=column, strata=strata,
                     method="Mantel-Haenszel difference, cell as a stratum, Sato variance")
    return out


def swing(games: pd.DataFrame, by=None) -> pd.DataFrame:
    """The distributions of the longest token streak (tokens revealed in a row) and of the biggest
    Horde turn (cards cast in one turn): for each value, its games, their share of the group, and
    the team's win rate at that value with its Wilson 95% interval."""
    _require(games, ("winner",) + SWING_MEASURES)
    by = _by(games, by)
    frames = []
    for order, measure in enumerate(SWING_MEASURES):
        data = pd.DataFrame({name: games[name].to_numpy() for name in by})
        data["value"] = games[measure].to_numpy()
        data["team"] = (games["winner"] == "team").to_numpy()
        data, keys = _keys(data, by)
        counts = data.groupby(keys + ["value"], sort=True, dropna=False).agg(games=("team", "size"),
                                                                           team_wins=("team", "sum"))
        counts = counts.reset_index()
        totals = data.groupby(keys, sort=False, dropna=False).size().rename("group_games").reset_index()
        counts = counts.merge(totals, on=keys, how="left")
        counts["measure"] = measure
        counts["order"] = order
        frames.append(counts)
    out = pd.concat(frames, ignore_index=True)
    out["share"] = out["games"] / out["group_games"]
    out["team_wins"] = out["team_wins"].astype("int64")
    _rate(out, "team_wins", "games", "team_win_rate", "team_win_low", "team_win_high")
    out = out.sort_values(by + ["order", "value"], kind="stable")
    columns = by + ["measure", "value", "games", "share", "team_wins", "team_win_rate", "team_win_low",
                    "team_win_high"]
    return out[columns].reset_index(drop=True)


# ---------------------------------------------------------------- paired comparison


def _value_text(value) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _arm_text(arm) -> str:
    if isinstance(arm, Mapping):
        return " ".join(f"{key}={_value_text(value)}" for key, value in arm.items())
    return f"cell {arm}"


def _arm_rows(games: pd.DataFrame, arm) -> np.ndarray:
    """Which games belong to an arm: a cell number, or a mapping of column values."""
    if isinstance(arm, Mapping):
        if not arm:
            raise ResultsError("an arm needs at least one knob value, like {'policy': 'control'}")
        missing = [name for name in arm if name not in games.columns]
        if missing:
            raise ResultsError(f"arm {_arm_text(arm)}: no column(s) {', '.join(missing)} in the games table")
        rows = np.ones(len(games), dtype=bool)
        for name, value in arm.items():
            column = games[name]
            text = _value_text(value)
            same = column.map(lambda x, text=text: _value_text(x) == text).to_numpy(dtype=bool)
            if not isinstance(value, list | tuple):
                try:
                    same |= (column == value).to_numpy(dtype=bool)
                except (TypeError, ValueError):
                    pass
            rows &= same
        return rows
    if isinstance(arm, bool) or not isinstance(arm, int | np.integer):
        raise ResultsError(f"arm {arm!r}: expected a cell number or a mapping of knob values like "
                           "{'policy': 'control'}")
    _require(games, ("cell",))
    return (games["cell"] == int(arm)).to_numpy(dtype=bool)


def _values(column: pd.Series) -> set:
    return set(column.map(repr))


def compare(games: pd.DataFrame, arm_a, arm_b, by=()) -> pd.DataFrame:
    """The paired difference of the team's win rate between two arms played on the same seeds.

    An arm is a cell number or a mapping of knob values (``{"policy": "control"}``). Game ``i`` of
    arm A is paired with game ``i`` of arm B with the same seed and the same value of every other
    knob that varies; games without a partner are left out and counted (``unpaired``). One row per
    group of ``by`` (knobs the arms share; ``()`` pools the pairs, None groups by every shared
    knob that varies): the 2x2 table of the pairs, each arm's win rate, and the difference A - B
    with Newcombe's square-and-add 95% interval for paired rates (1998, method 10) with his
    continuity-adjusted correlation."""
    _require(games, ("winner", "seed", "game"))
    rows_a, rows_b = _arm_rows(games, arm_a), _arm_rows(games, arm_b)
    text_a, text_b = _arm_text(arm_a), _arm_text(arm_b)
    for rows, text in ((rows_a, text_a), (rows_b, text_b)):
        if not rows.any():
            raise ResultsError(f"no games match the arm {text}")
    if (rows_a & rows_b).any():
        raise ResultsError(f"the arms {text_a} and {text_b} share games; give arms that differ in a knob")
    a, b = games[rows_a], games[rows_b]
    knobs = varying_knobs(games)
    arm_columns = {name for arm in (arm_a, arm_b) if isinstance(arm, Mapping) for name in arm}
    arm_columns |= {name for name in knobs if not (_values(a[name]) & _values(b[name]))}
    shared = [name for name in knobs if name not in arm_columns]
    by = shared if by is None else _by(games, by)
    for name in by:
        if name in arm_columns or (name not in shared and _values(a[name]) != _values(b[name])):
            raise ResultsError(f"by: {name} differs between the arms {text_a} and {text_b}; group by a knob "
                               "they share")
    key = ["seed", "game"] + [name for name in shared + by if name not in ("seed", "game")]
    key = list(dict.fromkeys(key))
    for frame, text in ((a, text_a), (b, text_b)):
        repeated = frame.duplicated(key).sum()
        if repeated:
            raise ResultsError(f"arm {text}: {repeated} game(s) repeat the seed, game index and knobs of another "
                               "game of the arm; compare arms of one experiment")
    left = a[key].assign(team_a=(a["winner"] == "team").to_numpy())
    right = b[key].assign(team_b=(b["winner"] == "team").to_numpy())
    pairs = left.merge(right, on=key, how="inner")
    pairs["both_won"] = pairs["team_a"] & pairs["team_b"]
    pairs["only_a_won"] = pairs["team_a"] & ~pairs["team_b"]
    pairs["only_b_won"] = ~pairs["team_a"] & pairs["team_b"]
    pairs["neither_won"] = ~pairs["team_a"] & ~pairs["team_b"]
    pairs, keys = _keys(pairs, by)
    a_counts = _keys(a[by].copy(), by)[0].groupby(keys, dropna=False).size().rename("games_a")
    b_counts = _keys(b[by].copy(), by)[0].groupby(keys, dropna=False).size().rename("games_b")
    table = pairs.groupby(keys, dropna=False).agg(pairs=("team_a", "size"), both_won=("both_won", "sum"),
                                                  only_a_won=("only_a_won", "sum"),
                                                  only_b_won=("only_b_won", "sum"),
                                                  neither_won=("neither_won", "sum"))
    table = pd.concat([a_counts, b_counts, table], axis=1).fillna(0)
    table = table.sort_index().reset_index()
    for name in ("games_a", "games_b", "pairs", "both_won", "only_a_won", "only_b_won", "neither_won"):
        table[name] = table[name].astype("int64")
    table["unpaired"] = table["games_a"] + table["games_b"] - 2 * table["pairs"]
    with np.errstate(divide="ignore", invalid="ignore"):
        n = table["pairs"].to_numpy(dtype=float)
        table["win_rate_a"] = np.where(n > 0, (table["both_won"] + table["only_a_won"]) / n, np.nan)
        table["win_rate_b"] = np.where(n > 0, (table["both_won"] + table["only_b_won"]) / n, np.nan)
        table["difference"] = np.where(n > 0, (table["only_a_won"] - table["only_b_won"]) / n, np.nan)
    intervals = [paired_difference_interval(*row) for row in
                 table[["both_won", "only_a_won", "only_b_won", "neither_won"]].itertuples(index=False)]
    table["difference_low"] = [low for low, _ in intervals]
    table["difference_high"] = [high for _, high in intervals]
    table["arm_a"], table["arm_b"] = text_a, text_b
    columns = by + ["arm_a", "arm_b", "pairs", "unpaired", "win_rate_a", "win_rate_b", "both_won", "only_a_won",
                    "only_b_won", "neither_won", "difference", "difference_low", "difference_high"]
    return table[columns].reset_index(drop=True)


ARM = "arm"  # the column compare_tables adds to tell its two tables apart


def compare_tables(games_a: pd.DataFrame, games_b: pd.DataFrame, by=None, names=("A", "B")) -> pd.DataFrame:
    """``compare`` for two games tables, such as two results folders: A (``games_a``) against B.

    Game ``i`` of A is paired with game ``i`` of B played with the same seed in the cell with the
    same values of the knobs the two tables share (knobs whose values the tables have in common;
    a knob with no value in common tells A from B, like a policy or a deck). ``by``: None (one row
    per matching cell), ``()`` (every pair pooled) or knob names. ``names`` label the arms."""
    name_a, name_b = (str(name) for name in names)
    if name_a == name_b:
        name_a, name_b = f"A: {name_a}", f"B: {name_b}"
    for games, name in ((games_a, name_a), (games_b, name_b)):
        _require(games, ("winner", "seed", "game"), name)
        if games.empty:
            raise ResultsError(f"{name}: no games to compare")
    games = pd.concat([games_a.assign(**{ARM: name_a}), games_b.assign(**{ARM: name_b})], ignore_index=True)
    out = compare(games, {ARM: name_a}, {ARM: name_b}, by=by)
    out["arm_a"], out["arm_b"] = name_a, name_b
    return out


def knob_order(values) -> list:
    """The distinct values of a knob in order: numbers ascending, text in its natural order
    ('1:4' < '3:2' < '10:0')."""
    column = pd.Series(values)
    distinct = column.drop_duplicates().tolist()
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        return sorted(distinct)
    return sorted(distinct, key=lambda v: (tuple(int(x) for x in re.findall(r"\d+", str(v))), str(v)))


def compare_adjacent(games: pd.DataFrame, knob: str, by=()) -> pd.DataFrame:
    """Each value of a swept knob against the value before it, on the same seeds: ``compare``
    of the cells at ``knob = v[i+1]`` (arm A) and ``knob = v[i]`` (arm B), paired within every
    other knob that varies. ``value_a`` and ``value_b`` give the two values; ``by`` as in
    ``compare`` (``()`` pools the pairs of every other cell, ``"players"`` one row per player
    count). What a step of the knob changes, with the shuffle's luck shared by both sides."""
    _require(games, ("winner", "seed", "game", knob))
    values = knob_order(games[knob])
    if len(values) < 2:
        raise ResultsError(f"{knob} takes one value only: nothing to compare")
    frames = []
    for low, high in zip(values, values[1:], strict=False):
        table = compare(games, {knob: high}, {knob: low}, by=by)
        table.insert(0, "value_b", low)
        table.insert(0, "value_a", high)
        frames.append(table)
    out = pd.concat(frames, ignore_index=True)
    out.attrs["knob"] = knob
    return out


# ---------------------------------------------------------------- games played in memory


def _split_seed(seed, position: int) -> tuple:
    """A game's seed as (the batch's seed, game index): ``(S, i)`` as the runner plays them."""
    if isinstance(seed, tuple) and len(seed) == 2:
        return seed[0], int(seed[1])
    return seed, position


def games_table(results: Iterable, cell: int = 0, experiment: str = "", experiment_hash: str = "") -> pd.DataFrame:
    """The games table the runner writes (``games.parquet``'s columns, built by the same table
    builder, ``horde.lab.runner.store``) for GameResults played in memory, e.g.
    ``games_table(play_many(setup, seed, games))``; ``cell`` and ``experiment`` fill those columns."""
    import pyarrow as pa

    tables: list = []
    run: list = []
    start = 0

    def flush() -> None:
        if not run:
            return
        seed, first = _split_seed(run[0].seed, start)
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise ResultsError(f"seed {run[0].seed!r}: a games table needs seeds (S, i) with a whole number S")
        tables.append(store.games_table(list(run), run[0].setup, int(seed), first, cell, experiment, experiment_hash))
        run.clear()

    for position, result in enumerate(results):
        if run:
            seed, index = _split_seed(result.seed, position)
            first_seed, first = _split_seed(run[0].seed, start)
            if result.setup != run[0].setup or seed != first_seed or index != first + len(run):
                flush()
        if not run:
            start = position
        run.append(result)
    flush()
    table = pa.concat_tables(tables) if tables else store.games_schema().empty_table()
    return table.to_pandas()


# ---------------------------------------------------------------- results folders


def _one_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def read_table(path: Path) -> pd.DataFrame:
    """A parquet table: one file, or a folder of part files read in name order."""
    import pyarrow as pa

    files = sorted(p for p in path.rglob("*.parquet") if os.path.isfile(p)) if os.path.isdir(path) else [path]
    if not files:
        raise ResultsError("a folder with no parquet part files in it", str(path))
    tables = []
    for file in files:
        check_regular(file, "results table", ResultsError)  # never a named pipe or a device
        try:
            tables.append(store.read_parquet(file))  # a folder's name may hold any bytes
        except (OSError, ValueError, pa.ArrowException) as error:
            raise ResultsError(f"can't be read as parquet ({_one_line(error)})", str(file)) from None
    try:
        table = pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]
    except (ValueError, pa.ArrowException) as error:
        raise ResultsError(f"its part files don't share one set of columns ({_one_line(error)})",
                           str(path)) from None
    return table.to_pandas()


@dataclass(repr=False)
class Results:
    """A results folder, loaded: ``games`` (one row per game), ``turns`` (one row per game and
    turn, or None), ``experiment`` (experiment.toml parsed; ``experiment_text`` is the file) and
    ``manifest`` (manifest.json). Every analysis function is also a method, on ``games``."""

    games: pd.DataFrame
    turns: pd.DataFrame | None = None
    experiment: dict = field(default_factory=dict)
    experiment_text: str = ""
    manifest: dict = field(default_factory=dict)
    folder: Path | None = None

    @property
    def name(self) -> str:
        """The experiment's name (from experiment.toml, else the manifest, else the folder)."""
        return str(self.experiment.get("name") or self.manifest.get("experiment")
                   or (self.folder.name if self.folder else "games"))

    def __repr__(self) -> str:
        where = f" from {self.folder}" if self.folder else ""
        return f"<Results {self.name}{where}: {len(self.games)} games>"

    def varying_knobs(self) -> list[str]:
        return varying_knobs(self.games)

    def summary(self, by=None) -> pd.DataFrame:
        return summary(self.games, by)

    def survival(self, by=None) -> pd.DataFrame:
        return survival(self.games, by)

    def card_impact(self, k: int = 3, by=None, min_games: int = 1) -> pd.DataFrame:
        return card_impact(self.games, k, by, min_games)

    def swing(self, by=None) -> pd.DataFrame:
        return swing(self.games, by)

    def compare(self, arm_a, arm_b, by=()) -> pd.DataFrame:
        return compare(self.games, arm_a, arm_b, by)

    def pooled_card_impact(self, k: int = 3, by=(), strata=None, min_games: int = POOLED_MIN_GAMES) -> pd.DataFrame:
        return pooled_card_impact(self.games, k, by, strata, min_games)

    def drawn_impact(self, column: str = "boss_drawn", by=(), strata=None, min_games: int = 1) -> pd.DataFrame:
        return drawn_impact(self.games, column, by, strata, min_games)

    def compare_adjacent(self, knob: str, by=()) -> pd.DataFrame:
        return compare_adjacent(self.games, knob, by)


for _name in ("varying_knobs", "summary", "survival", "card_impact", "swing", "compare", "pooled_card_impact",
              "drawn_impact", "compare_adjacent"):
    getattr(Results, _name).__doc__ = globals()[_name].__doc__
del _name


def _line_of(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


def load(path) -> Results:
    """Read a results folder written by ``horde run``: ``games.parquet`` (required) and, when
    present, ``turns.parquet``, ``experiment.toml`` and ``manifest.json``. A parquet table may be
    one file or a folder of part files. Raises ResultsError, one line, for anything unreadable."""
    folder = Path(path)
    if not os.path.isdir(folder):
        if os.path.exists(folder):
            raise ResultsError(f"not a folder ({EXPECTED_FOLDER})", str(folder))
        raise ResultsError(f"no such results folder ({EXPECTED_FOLDER})", str(folder))
    games_path = folder / "games.parquet"
    if not os.path.exists(games_path):  # a run in progress, or stopped, says so and how far it is
        raise ResultsError(store.run_progress(folder) or f"no games.parquet here ({EXPECTED_FOLDER})", str(folder))
    games = read_table(games_path)
    _require(games, ("winner", "turns"), str(games_path))
    turns_path = folder / "turns.parquet"
    turns = read_table(turns_path) if os.path.exists(turns_path) else None
    experiment, text = {}, ""
    toml_path = folder / "experiment.toml"
    if os.path.exists(toml_path):
        text = read_text(toml_path, "resolved experiment", ResultsError)
        try:
            experiment = read_toml(text, str(toml_path), ResultsError)
        except ResultsError as error:
            message = error.message.removeprefix("not valid TOML: ")
            raise ResultsError(f"can't be read as TOML ({message})", str(toml_path), _line_of(message)) from None
    manifest = {}
    manifest_path = folder / "manifest.json"
    if os.path.exists(manifest_path):
        try:
            manifest = json.loads(read_text(manifest_path, "manifest", ResultsError))
        except json.JSONDecodeError as error:
            raise ResultsError(f"can't be read as JSON ({error.msg})", str(manifest_path), error.lineno) from None
        except RecursionError:
            raise ResultsError("can't be read as a manifest (nested too deeply)", str(manifest_path)) from None
        if not isinstance(manifest, dict):
            raise ResultsError("can't be read as a manifest (expected a JSON object)", str(manifest_path))
    return Results(games, turns, experiment, text, manifest, folder)


def combine(results: Iterable[Results]) -> pd.DataFrame:
    """The games of several loaded results folders in one table, with a ``results`` column naming
    each game's folder (its name; the whole path when two folders share a name)."""
    results = list(results)
    names = [r.folder.name if r.folder else r.name for r in results]
    if len(set(names)) < len(names):
        names = [str(r.folder) if r.folder else r.name for r in results]
    frames = [r.games.assign(results=escaped(name)) for r, name in zip(results, names, strict=True)]  # UTF-8 text
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
