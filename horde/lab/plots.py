"""Pictures of the analysis tables, drawn with matplotlib: the difficulty curve (team win rate
against a knob, one line per player count) and heat map (players x knob, the target band marked),
survival curves (by player count, by boss drawn, ...), the per-card impact chart and the
game-length histogram (turns of one side). Each function takes the table ``horde.lab.analysis`` makes
(or the games table, which it summarises itself) and ``ax=None``; it draws on the axes given, or
on a new figure, and returns the axes, so pictures compose into subplots and render with any
backend (Agg included). Every band or bar names its interval method in the legend.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator, PercentFormatter

from horde.lab import analysis
from horde.lab.analysis import ResultsError

WINNERS = (("team", "team won", "#2e8b3e"), ("horde", "Horde won", "#d03030"), ("stall", "stalled", "#8a9099"))
VERDICTS = (("bomb", "#c62828"), ("unclear", "slategray"), ("fizzle", "#2e7d32"))
SURVIVAL_COLUMNS = ("turn", "games", "team_losses", "survival", "survival_low", "survival_high")
MAX_TICKS = 20  # a numeric knob with at most this many values gets a tick at each
SIDES = {"team": "team turns", "horde": "Horde turns"}
IMPACT_COLUMNS = ("card", "strata", "games_with", "team_wins_with", "win_rate_with", "win_rate_with_low",
                  "win_rate_with_high", "games_without", "team_wins_without", "win_rate_without",
                  "win_rate_without_low", "win_rate_without_high", "difference", "difference_low",
                  "difference_high", "verdict")


def new_axes(width: float = 7.0, height: float = 4.2):
    """Axes on a new pyplot figure (what the functions draw on when no ``ax`` is given)."""
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(width, height), layout="constrained")
    return ax


def words(name: str) -> str:
    """A column name as text for an axis: ``cards_per_player`` -> ``cards per player``."""
    return str(name).replace("_", " ")


def group_label(columns, values) -> str:
    """A legend label for one group: ``2 players``, ``policy=control``, or ``all games``."""
    parts = []
    for column, value in zip(columns, values, strict=True):
        if column == "players":
            parts.append(f"{value} players")
        elif column in analysis.DRAWN:  # a boss's or lieutenant's name says what it is
            parts.append(str(value))
        else:
            parts.append(f"{words(column)}={value}")
    return ", ".join(parts) or "all games"


def _is_number(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def difficulty_curve(table: pd.DataFrame, knob: str, ax=None, line: str | None = "players", target=None):
    """The team's win rate against ``knob`` with Wilson 95% bands, one line per value of ``line``
    (the player count by default; None for one line).

    ``table`` is ``summary(games, by=[knob, line])`` (any table with ``team_win_rate``,
    ``team_win_low`` and ``team_win_high``), or the games table, summarised here. The knob's
    values get a tick each (a numeric knob of more than 20 values, evenly spaced ticks); a text
    knob (``strong_mix``) is spaced evenly. ``target`` draws a dashed line at that rate."""
    line = None if line == knob else line
    if "winner" in table.columns:
        table = analysis.summary(table, by=[knob] + ([line] if line else []))
    needed = [knob, "team_win_rate", "team_win_low", "team_win_high"] + ([line] if line else [])
    missing = [name for name in needed if name not in table.columns]
    if missing:
        raise ResultsError(f"difficulty curve: no column(s) {', '.join(missing)} (give summary(games, "
                           f"by=[{knob!r}{', ' + repr(line) if line else ''}]) or the games table)")
    points = [knob] + ([line] if line else [])
    if table.duplicated(points).any():
        raise ResultsError(f"difficulty curve: several rows share a value of {' and '.join(points)}; summarise by "
                           f"{points} (or choose the rows) so that each point is one row")
    ax = ax if ax is not None else new_axes()
    numeric = _is_number(table[knob])
    if numeric:
        positions = {value: value for value in table[knob]}
    else:
        order = analysis.knob_order(table[knob])
        positions = {value: i for i, value in enumerate(order)}
    lines = [(None, table)] if not line else list(table.groupby(line, sort=True))
    for i, (value, rows) in enumerate(lines):
        rows = rows.assign(_x=rows[knob].map(positions)).sort_values("_x")
        x = rows["_x"].to_numpy(dtype=float)
        label = "team win rate" if not line else group_label([line], [value])
        color = f"C{i % 10}"
        ax.plot(x, rows["team_win_rate"].to_numpy(dtype=float), marker="o", color=color, label=label)
        ax.fill_between(x, rows["team_win_low"].to_numpy(dtype=float), rows["team_win_high"].to_numpy(dtype=float),
                        color=color, alpha=0.2, linewidth=0)
    if target is not None:
        ax.axhline(float(target), color="0.35", linestyle="--", linewidth=1, label=f"target {float(target):.0%}")
    if numeric and len(positions) > MAX_TICKS:
        ax.xaxis.set_major_locator(MaxNLocator(integer=pd.api.types.is_integer_dtype(table[knob])))
    elif numeric:  # a tick at each swept value
        ticks = sorted(positions)
        ax.set_xticks(ticks, [_tick_text(v) for v in ticks])
    else:
        ax.set_xticks(list(positions.values()), [str(v) for v in positions])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(words(knob))
    ax.set_ylabel("team win rate")
    ax.grid(alpha=0.3)
    ax.legend(title="bands: Wilson 95%", fontsize="small", title_fontsize="small")
    return ax


def _tick_text(value) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def within_band(rate: float, target: float, band: float) -> bool:
    """Whether a rate lies within ``target`` +- ``band`` (ends included, whatever the rounding)."""
    return abs(rate - target) <= band + 1e-9


def heat_map(table: pd.DataFrame, knob: str, ax=None, rows: str | None = "players", target: float = 0.5,
             band: float = 0.05):
    """The team's win rate for each value of ``rows`` (players by default; None for one row)
    and of ``knob``, each cell coloured on a red (the Horde wins) to blue (the team wins) scale
    that is white at ``target``, with its rate written in it; cells whose rate lies within
    ``target`` +- ``band`` are outlined, and the band is marked on the colour bar.

    ``table`` is ``summary(games, by=[rows, knob])`` or the games table."""
    rows = None if rows == knob else rows
    keys = ([rows] if rows else []) + [knob]
    if "winner" in table.columns:
        table = analysis.summary(table, by=keys)
    missing = [name for name in keys + ["team_win_rate"] if name not in table.columns]
    if missing:
        raise ResultsError(f"heat map: no column(s) {', '.join(missing)} (give summary(games, by={keys!r}) or the "
                           "games table)")
    if table.duplicated(keys).any():
        raise ResultsError(f"heat map: several rows share a value of {' and '.join(keys)}; summarise by {keys}")
    if not 0 < target < 1 or band < 0:
        raise ResultsError(f"heat map: target {target} must lie between 0 and 1 and band {band} be at least 0")
    columns = analysis.knob_order(table[knob])
    lines = analysis.knob_order(table[rows]) if rows else [None]
    rates = np.full((len(lines), len(columns)), np.nan)
    for record in table.to_dict("records"):
        i = lines.index(record[rows]) if rows else 0
        rates[i, columns.index(record[knob])] = record["team_win_rate"]
    ax = ax if ax is not None else new_axes()
    norm = TwoSlopeNorm(vmin=0.0, vcenter=float(target), vmax=1.0)
    image = ax.imshow(np.ma.masked_invalid(rates), cmap="RdBu", norm=norm, aspect="auto")
    low, high = target - band, target + band
    for i in range(len(lines)):
        for j in range(len(columns)):
            rate = rates[i, j]
            if np.isnan(rate):
                continue
            dark = abs(norm(rate) - 0.5) > 0.3
            ax.text(j, i, f"{rate:.0%}", ha="center", va="center", fontsize="small",
                    color="white" if dark else "black")
            if within_band(rate, target, band):
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2.5))
    ax.set_xticks(range(len(columns)), [str(v) for v in columns])
    ax.set_yticks(range(len(lines)), [group_label([rows], [v]) if rows else "all games" for v in lines])
    ax.set_xlabel(words(knob))
    if rows:
        ax.set_ylabel(words(rows))
    bar = ax.figure.colorbar(image, ax=ax, format=PercentFormatter(1.0))
    bar.set_label("team win rate")
    bar.ax.axhspan(max(low, 0.0), min(high, 1.0), facecolor="none", edgecolor="black", linewidth=1.5, hatch="//")
    band_text = f"target {target:.0%} ± {band * 100:g} points"
    ax.legend(handles=[Patch(facecolor="none", edgecolor="black", linewidth=2.5, label=f"within the {band_text}")],
              loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize="small", frameon=False)
    return ax


def survival_curves(table: pd.DataFrame, ax=None, by=None):
    """The share of games the team is still alive after each turn, one step line per group with
    its pointwise Wilson 95% band.

    ``table`` is ``survival(games, by)`` (its groups are its columns other than the survival
    columns) or the games table, for which ``by`` is passed on to ``survival``."""
    if "winner" in table.columns:
        table = analysis.survival(table, by=by)
        groups = [c for c in table.columns if c not in SURVIVAL_COLUMNS]
    else:
        missing = [name for name in SURVIVAL_COLUMNS if name not in table.columns]
        if missing:
            raise ResultsError(f"survival curves: no column(s) {', '.join(missing)} (give survival(games) or the "
                               "games table)")
        groups = [c for c in table.columns if c not in SURVIVAL_COLUMNS] if by is None else (
            [by] if isinstance(by, str) else list(by))
    ax = ax if ax is not None else new_axes()
    parts = [((), table)] if not groups else list(table.groupby(groups, sort=True, dropna=False))
    for i, (key, rows) in enumerate(parts):
        key = key if isinstance(key, tuple) else (key,)
        rows = rows.sort_values("turn")
        color = f"C{i % 10}"
        turn = rows["turn"].to_numpy(dtype=float)
        ax.step(turn, rows["survival"].to_numpy(dtype=float), where="post", color=color,
                label=group_label(groups, key))
        ax.fill_between(turn, rows["survival_low"].to_numpy(dtype=float), rows["survival_high"].to_numpy(dtype=float),
                        step="post", color=color, alpha=0.2, linewidth=0)
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turn")
    ax.set_ylabel("team still alive")
    ax.grid(alpha=0.3)
    ax.legend(title="bands: Wilson 95%, pointwise", fontsize="small", title_fontsize="small")
    return ax


def card_impact_chart(table: pd.DataFrame, ax=None, k: int | None = None):
    """Each card's difference in the team's win rate (revealed by the Horde's ``k``-th turn, minus
    not) with its 95% interval, coloured bomb / unclear / fizzle, the first row of
    ``card_impact(...)`` or ``pooled_card_impact(...)`` at the top. ``k`` defaults to the table's
    ``attrs["k"]``; the legend names the interval (Newcombe's, or the table's ``attrs["method"]``)."""
    missing = [name for name in ("card", "difference", "difference_low", "difference_high", "verdict")
               if name not in table.columns]
    if missing:
        raise ResultsError(f"card impact chart: no column(s) {', '.join(missing)} (give card_impact(games))")
    k = k if k is not None else table.attrs.get("k")
    n = len(table)
    ax = ax if ax is not None else new_axes(7.0, max(2.5, 0.3 * n + 1.2))
    groups = [c for c in table.columns if c not in IMPACT_COLUMNS]
    several = bool(groups) and table[groups].drop_duplicates().shape[0] > 1
    labels = [str(card) + (f" ({group_label(groups, values)})" if several else "")
              for card, values in zip(table["card"], table[groups].itertuples(index=False, name=None), strict=True)]
    y = np.arange(n)[::-1].astype(float)  # the first row at the top
    difference = table["difference"].to_numpy(dtype=float)
    low = table["difference_low"].to_numpy(dtype=float)
    high = table["difference_high"].to_numpy(dtype=float)
    verdict = table["verdict"].to_numpy()
    for name, color in VERDICTS:
        rows = verdict == name
        if rows.any():
            ax.errorbar(difference[rows], y[rows], xerr=[difference[rows] - low[rows], high[rows] - difference[rows]],
                        fmt="o", color=color, ecolor=color, capsize=3, label=name)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(np.arange(n), labels[::-1])
    ax.set_ylim(-1, max(n, 1))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(axis="x", alpha=0.3)
    when = f"by Horde turn {k}" if k is not None else "early"
    ax.set_xlabel(f"team win rate when revealed {when}, minus when not")
    if n:
        method = "Mantel-Haenszel 95%" if "Mantel-Haenszel" in table.attrs.get("method", "") else "Newcombe 95%"
        ax.legend(title=f"bars: {method}", fontsize="small", title_fontsize="small")
    else:
        ax.text(0.5, 0.5, f"no Horde card was revealed {when}", transform=ax.transAxes, ha="center", va="center")
    return ax


def turn_histogram(games: pd.DataFrame, ax=None, side: str = "horde"):
    """How many games ended after each number of turns of one side (``side``: ``"horde"``, the
    Horde's turns, or ``"team"``, the team's), stacked by who won. Counting one side's turns
    (a round of the table) keeps the bars smooth: the sum of both sides alternates with who
    took the last turn."""
    if side not in SIDES:
        raise ResultsError(f"turn histogram: side {side!r}: expected 'team' or 'horde'")
    if not {"winner", "turns", "horde_turns"} <= set(games.columns):
        raise ResultsError("turn histogram: give the games table (columns winner, turns and horde_turns)")
    ax = ax if ax is not None else new_axes()
    horde = games["horde_turns"].to_numpy(dtype=int)
    turns = horde if side == "horde" else games["turns"].to_numpy(dtype=int) - horde
    first, last = (int(turns.min()), int(turns.max())) if len(turns) else (0, 0)
    x = np.arange(first, last + 1)
    bottom = np.zeros(len(x))
    for winner, label, color in WINNERS:
        counts = np.bincount(turns[(games["winner"] == winner).to_numpy()] - first, minlength=len(x))[: len(x)]
        ax.bar(x, counts, bottom=bottom, width=0.9, color=color, label=label)
        bottom += counts
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"game length ({SIDES[side]})")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    return ax
