"""``horde report``: one self-contained HTML page for a results folder. It holds the summary table
(one row per cell), a difficulty heat map (players x knob, the target band marked) and a
difficulty curve against every knob that varies, survival curves, game lengths counted per side,
the team's win rate by the boss and by the lieutenants drawn (per cell and pooled), card impact
pooled over every cell with the cell as a stratum, the swings of the cell closest to 50%, a
comparison on the same seeds (of a second results folder, and of each swept value with the one
before it), and the setup that produced it all (shared knobs, seeds, versions, setup hashes,
``experiment.toml``; ``manifest.json`` folded away). Every picture is a PNG embedded as data
with alt text that says what it shows, and the page's content security policy lets nothing else
load; a small inline script records any image or script that fails, or request the policy
blocks, in the ``data-load-errors`` attribute of ``<html>`` (``none`` when all went well) and
counts the pictures in ``data-images``, so a headless browser can check the page.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from horde import __version__
from horde.files import make_folder, write_file
from horde.lab import analysis, plots
from horde.setup import FIELD_NAMES, KNOBS
from horde.team.skill import level_name

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
WIDTH, HEIGHT = 7.0, 4.2  # inches at 100 dpi: 700 x 420 pixels
TARGET, BAND = 0.5, 0.05  # the heat map's default target team win rate and the band around it
HEAT_MAPS_MAX = 12  # heat maps drawn for one knob, one per setting of the other knobs that vary
IMPACT_ROWS = 30  # the card impact chart shows at most this many cards (the table lists all)
UNSET = "—"  # a knob left unset (its rule's default)

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 62em;
       padding: 0 1em; color: #1d1d1f; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f4f4f6; white-space: normal; } td.text, th.text { text-align: left; } td.wrap { white-space: normal; }
.wide { overflow-x: auto; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; }
img { max-width: 100%; height: auto; }
pre { background: #f7f7f9; border: 1px solid #e3e3e6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
nav ol { columns: 2; font-size: 0.95em; } details { margin: 0.8em 0; } summary { cursor: pointer; }
.note { color: #555; }
.warning { border: 2px solid #b00020; background: #fff4f4; padding: 0 1em 0.5em; margin: 1em 0; }
.warning h2 { color: #b00020; }
"""

# Records what fails to load; runs before anything else on the page.
SCRIPT = """
(function () {
  var root = document.documentElement, errors = [], loaded = false;
  function show() {
    root.setAttribute('data-load-errors', errors.length ? errors.join('; ') : 'none');
    var pictures = 0;
    for (var i = 0; i < document.images.length; i++) {
      var picture = document.images[i];
      if (picture.complete && picture.naturalWidth > 0) { pictures++; }
    }
    root.setAttribute('data-images', String(pictures));
  }
  function record(text) { errors.push(text); if (loaded) { show(); } }
  window.addEventListener('error', function (event) {
    var element = event.target;
    if (element && element !== window && element.tagName) {
      record('could not load ' + element.tagName.toLowerCase() + ' ' +
             (element.id || element.getAttribute('alt') || 'without a name'));
    } else {
      record('script error: ' + (event.message || 'unknown'));
    }
  }, true);
  document.addEventListener('securitypolicyviolation', function (event) {
    record('blocked ' + (event.blockedURI || event.violatedDirective));
  });
  window.addEventListener('load', function () { loaded = true; show(); });
})();
"""


# ---------------------------------------------------------------- pieces of the page


def _text(value) -> str:
    return html.escape(str(value))


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _percent(value) -> str:
    return "" if _missing(value) else f"{value:.1%}"


def _interval(rate, low, high) -> str:
    if _missing(rate):
        return ""
    return f"{rate:.1%} ({low:.1%} – {high:.1%})"


def _signed(points: float) -> str:
    text = f"{points:+.1f}"
    return "+0.0" if text == "-0.0" else text  # a difference that rounds to nothing has no sign


def _points(difference, low, high) -> str:
    """A difference of rates in percentage points with its interval: ``-10.1 (-11.7 – -8.6)``."""
    if _missing(difference):
        return ""
    return f"{_signed(difference * 100)} ({_signed(low * 100)} – {_signed(high * 100)})"


def _number(value, digits: int = 1) -> str:
    if _missing(value):
        return ""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.{digits}f}"
    return f"{value:.0f}" if isinstance(value, float) else str(value)


def _listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [str(item) for item in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def html_table(rows: list[dict], text_columns: tuple = (), wrap_columns: tuple = ()) -> str:
    """A table of rows (dicts of already formatted values), every cell escaped; text columns are
    aligned left, and wrap columns may break their lines."""
    if not rows:
        return '<p class="note">nothing to show</p>'
    columns = list(rows[0])
    kind = {c: ' class="text wrap"' if c in wrap_columns else ' class="text"' if c in text_columns else ""
            for c in columns}
    head = "".join(f"<th{kind[c]}>{_text(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td{kind[c]}>{_text(row[c])}</td>" for c in columns) + "</tr>"
                   for row in rows)
    return f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _cell_text(names: list[str], values) -> str:
    return ", ".join(f"{name}={value}" for name, value in zip(names, values, strict=True)) or "every game"


def _label(name: str) -> str:
    return plots.words(name)


class Pictures:
    """The page's pictures: each drawn on its own figure, kept as PNG bytes in page order."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.names: list[str] = []

    def draw(self, name: str, alt: str, caption: str, draw: Callable, height: float = HEIGHT,
             panels: int = 1) -> str:
        """The figure as an HTML ``<figure>``: ``draw`` gets the axes (a list of ``panels`` axes
        side by side when more than one); ``alt`` says in words what the picture shows."""
        from matplotlib.figure import Figure

        figure = Figure(figsize=(WIDTH, height), dpi=100, layout="constrained")
        if panels == 1:
            draw(figure.add_subplot())
        else:
            draw(list(figure.subplots(1, panels, sharey=True)))
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", metadata={"Software": None})
        data = buffer.getvalue()
        if self.folder is not None:
            make_folder(self.folder, follow=True)
            write_file(self.folder / f"{name}.png", data)
        self.names.append(name)
        source = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        return (f'<figure><img id="{_text(name)}" alt="{_text(alt)}" width="{int(WIDTH * 100)}" '
                f'src="{source}"><figcaption>{_text(caption)}</figcaption></figure>')


class Page:
    """The sections of the page in order, each with an ``id`` for the table of contents."""

    def __init__(self):
        self.parts: list[str] = []
        self.sections: list[tuple[str, str]] = []

    def section(self, title: str, *body: str) -> None:
        anchor = "section-" + "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-")
        self.sections.append((anchor, title))
        self.parts.append(f'<section id="{_text(anchor)}"><h2>{_text(title)}</h2>' + "".join(body) + "</section>")

    def contents(self) -> str:
        items = "".join(f'<li><a href="#{_text(anchor)}">{_text(title)}</a></li>' for anchor, title in self.sections)
        return f"<nav><ol>{items}</ol></nav>"


def _against(knobs: list[str]) -> list[str]:
    """The knobs to draw a curve against: every varying knob but the player count (the lines),
    or the player count alone."""
    return [k for k in knobs if k != "players"] or (["players"] if "players" in knobs else [])


def _line(knobs: list[str], knob: str) -> str | None:
    return "players" if "players" in knobs and knob != "players" else None


# ---------------------------------------------------------------- alt text


def _curve_alt(table: pd.DataFrame, knob: str, line: str | None) -> str:
    values = analysis.knob_order(table[knob])
    parts = []
    for value, rows in ([(None, table)] if not line else list(table.groupby(line, sort=True))):
        rate = dict(zip(rows[knob], rows["team_win_rate"], strict=True))
        first, last = (next(v for v in order if v in rate) for order in (values, values[::-1]))
        who = f"{plots.group_label([line], [value])}: " if line else ""
        parts.append(f"{who}{rate[first]:.0%} at {first}, {rate[last]:.0%} at {last}")
    lines = ", one line per player count" if line else ""
    return (f"Line chart of the team win rate against {_label(knob)} ({_listing([str(v) for v in values])}){lines}, "
            f"with Wilson 95% bands. {'; '.join(parts)}.")


def _heat_alt(table: pd.DataFrame, knob: str, rows: str | None, target: float, band: float) -> str:
    keys = ([rows] if rows else []) + [knob]

    def cell(record: dict) -> str:
        return _cell_text([_label(k) for k in keys], [record[k] for k in keys])

    def values(column: str) -> str:
        return _listing([str(v) for v in analysis.knob_order(table[column])])

    records = table.to_dict("records")  # keeps each column's own type
    rates = table["team_win_rate"].to_numpy()
    best, worst = records[rates.argmax()], records[rates.argmin()]
    near = [r for r in records if plots.within_band(r["team_win_rate"], target, band)]
    band_text = f"the target band {target - band:.0%} to {target + band:.0%}"
    near_text = (f"{len(near)} cell(s) within {band_text}, outlined: {'; '.join(cell(r) for r in near)}" if near
                 else f"no cell within {band_text}")
    rows_text = f"rows {_label(rows)} ({values(rows)}), " if rows else ""
    return (f"Heat map of the team win rate, {rows_text}columns {_label(knob)} ({values(knob)}); red where the Horde "
            f"wins, blue where the team wins, white at the target {target:.0%}. Highest {best['team_win_rate']:.0%} "
            f"({cell(best)}), lowest {worst['team_win_rate']:.0%} ({cell(worst)}); {near_text}.")


def _survival_alt(games: pd.DataFrame, by: list[str], what: str) -> str:
    table = analysis.survival(games, by=by)
    parts = []
    groups = [((), table)] if not by else list(table.groupby(by, sort=True, dropna=False))
    for key, rows in groups:
        key = key if isinstance(key, tuple) else (key,)
        rows = rows.sort_values("turn")
        below = rows[rows["survival"] < 0.5]
        half = f"half the games lost by turn {int(below['turn'].iloc[0])}" if len(below) else "never half lost"
        parts.append(f"{plots.group_label(by, key)}: {half}, alive at the end in {rows['survival'].iloc[-1]:.0%}")
    return (f"Step chart of the share of games in which the team is still alive after each turn, {what}, with "
            f"pointwise Wilson 95% bands. {'; '.join(parts)}.")


def _turns_alt(games: pd.DataFrame) -> str:
    horde = games["horde_turns"].astype(int)
    team = games["turns"].astype(int) - horde
    return ("Two bar charts of how many games ended after each number of team turns (left) and of Horde turns "
            f"(right), stacked by who won. Team turns: median {team.median():g}, from {team.min()} to {team.max()}; "
            f"Horde turns: median {horde.median():g}, from {horde.min()} to {horde.max()}.")


def _impact_alt(impact: pd.DataFrame, card_turn: int, shown: int) -> str:
    first, last = impact.iloc[0], impact.iloc[-1]
    counts = impact["verdict"].value_counts()
    return (f"Dot chart of the difference in the team win rate when each card was revealed by Horde turn "
            f"{card_turn}, with Mantel-Haenszel 95% intervals, {shown} of {len(impact)} cards. Most harmful: "
            f"{first['card']}, {_points(first['difference'], first['difference_low'], first['difference_high'])} "
            f"points; most helpful: {last['card']}, "
            f"{_points(last['difference'], last['difference_low'], last['difference_high'])} points; "
            f"{counts.get('bomb', 0)} bomb(s), {counts.get('fizzle', 0)} fizzle(s), "
            f"{counts.get('unclear', 0)} unclear.")


# ---------------------------------------------------------------- sections


def _approximated_section(results: analysis.Results, compared: bool = False) -> str:
    """A warning above everything when some cards played approximated (--approximate), in
    these results or (``compared``) in the results they are compared with."""
    cells = results.manifest.get("approximated") or []
    if not cells and "approximated" in results.games.columns:
        names = sorted({n for names in results.games["approximated"] for n in (names if names is not None else ())})
        cells = [{"cell": "all", "label": "", "cards": {n: [] for n in names}}] if names else []
    if not cells:
        return ""
    rows = [{"cell": f"{c['cell']} {c['label']}".strip(), "card": name,
             "text dropped": "; ".join(dropped) or "(see manifest.json)"}
            for c in cells for name, dropped in c["cards"].items()]
    title = "Warning: approximated cards" + (f" in the compared results ({_text(results.name)})" if compared else "")
    return (f'<section class="warning"><h2>{title}</h2><p>These results are NOT exact: the '
            "cards below were played approximated (--approximate): by their facts (cost, types, power and "
            "toughness) and the abilities of their text that were understood, without the others. The "
            "abilities each dropped are shown.</p>" + html_table(rows, ("cell", "card", "text dropped")) + "</section>")


def _decks_section(results: analysis.Results, compared: bool = False) -> str:
    """How much of each cell's decks is real (manifest.json's ``decks``): card slots exact,
    approximated and blank, a warning when any is not exact; "" for results that did not record them."""
    cells = results.manifest.get("decks") or []
    rows = [{"cell": f"{c.get('cell')} {c.get('label') or ''}".strip(), "deck": d.get("deck"), "plays as": d.get("role"),
             "card slots": d.get("slots"), "exact": d.get("exact"), "approximated": d.get("approximated"),
             "blank": d.get("blank")}
            for c in cells if isinstance(c, dict) for d in c.get("decks") or () if isinstance(d, dict)]
    if not rows:
        return ""
    exact = all(row["exact"] == row["card slots"] for row in rows)
    title = "Card slots of the decks" + (f" of the compared results ({_text(results.name)})" if compared else "")
    words = ("Every card slot of every deck played exactly (hand-written or compiled whole)." if exact else
             "Some card slots did NOT play as printed: approximated cards lost some of their text, blank "
             "cards all of it (--approximate). These results are not the group's decks as printed.")
    kind = "" if exact else ' class="warning"'
    return (f"<section{kind}><h2>{title}</h2><p>{words}</p>" + html_table(rows, ("cell", "deck", "plays as"))
            + "</section>")


def _summary_section(page: Page, games: pd.DataFrame, knobs: list[str]) -> None:
    games = games.assign(level=analysis.levels(games))  # every answer names the team's level (horde.team.skill)
    keys = knobs + ["level"]
    table = analysis.summary(games, by=keys)
    rows = []
    for row in table.to_dict("records"):
        out = {name: row[name] for name in keys}
        out.update({"games": row["games"],
                    "team wins (Wilson 95%)": _interval(row["team_win_rate"], row["team_win_low"], row["team_win_high"]),
                    "Horde wins": _percent(row["horde_win_rate"]), "stalls": _percent(row["stall_rate"]),
                    "team wins of the decided games": _interval(row["decided_win_rate"], row["decided_win_low"],
                                                                row["decided_win_high"]),
                    "turns: median (quartiles)": f"{_number(row['turns_median'])} ({_number(row['turns_q1'])} – "
                                                 f"{_number(row['turns_q3'])})",
                    "team life at the end": _number(row["team_life_end_mean"]),
                    "lowest team life": _number(row["team_life_lowest_mean"])})
        if table["aborted"].any():  # H15: games the work budget stopped, never hidden
            out["aborted (H15)"] = row["aborted"]
        rows.append(out)
    what = f"one row per cell ({', '.join(knobs)} vary)" if knobs else "every game pooled: one cell"
    page.section("Summary", f"<p>Team wins, Horde wins and stalls (H14), {_text(what)}, and the team's level "
                 "(horde.team.skill); each team win rate with its Wilson 95% interval, among all games (a stall counts "
                 "as a loss) and among the decided ones (won by either side). Turns count both sides' turns; life "
                 "figures are means over the games.</p>",
                 html_table(rows, tuple(keys)))


def _heat_section(page: Page, games: pd.DataFrame, knobs: list[str], pictures: Pictures, target: float,
                  band: float) -> None:
    title = "Difficulty heat map"
    if not knobs:
        page.section(title, '<p class="note">Every game shares one setup: no knob to map.</p>')
        return
    lead = (f"The team win rate of every cell, coloured from red (the Horde wins) through white at the target "
            f"{target:.0%} to blue (the team wins); cells within {band * 100:g} points of the target are outlined, "
            "and the band is hatched on the colour bar. The target and band are the report's --target and --band. "
            "A cell is a whole setting a group can play: when other knobs vary too, there is one map for each of "
            "their settings, never a map pooled over them.")
    parts = [f"<p>{_text(lead)}</p>"]
    for knob in _against(knobs):
        rows = _line(knobs, knob)
        others = [k for k in knobs if k not in (knob, rows)]
        settings = list(games.groupby(others, sort=True, dropna=False)) if others else [((), games)]
        if len(settings) > HEAT_MAPS_MAX:
            parts.append(f'<p class="note">{_text(_label(knob))}: {len(settings)} settings of '
                         f"{_text(', '.join(others))}, more than the {HEAT_MAPS_MAX} maps drawn; see the summary "
                         "table for every cell.</p>")
            continue
        for values, part in settings:
            values = values if isinstance(values, tuple) else (values,)
            at = _cell_text([_label(k) for k in others], list(values)) if others else ""
            table = analysis.summary(part, by=([rows] if rows else []) + [knob])
            caption = (f"Team win rate by {'player count and ' if rows else ''}{_label(knob)}"
                       + (f", at {at}" if at else "") + f"; outlined cells lie within the target {target:.0%} ± "
                       f"{band * 100:g} points.")
            name = f"heat-map-{knob.replace('_', '-')}" + (f"-{len(parts)}" if others else "")
            parts.append(pictures.draw(
                name, _heat_alt(table, knob, rows, target, band) + (f" At {at}." if at else ""), caption,
                lambda ax, table=table, knob=knob, rows=rows: plots.heat_map(table, knob, ax=ax, rows=rows,
                                                                              target=target, band=band),
                height=max(2.6, 0.55 * (table[rows].nunique() if rows else 1) + 1.9)))
    page.section(title, *parts)


def _target_section(page: Page, games: pd.DataFrame, knobs: list[str], target: float,
                    skill: str | None = None) -> None:
    """For each level (and player count), the cells whose interval holds the target: the answer
    for several levels side by side; with ``skill`` (a table's level), that level's rows first."""
    title = "Settings for the target, by level"
    games = games.assign(level=analysis.levels(games))
    yours = ""
    if skill is not None:
        name = level_name(skill, "")
        if name in set(games["level"]):
            games = pd.concat([games[games["level"] == name], games[games["level"] != name]])
            yours = f"Your table plays at {name}: its rows come first. "
        else:
            yours = (f"Your table plays at {name}, and no game of these results does: run the experiment with skill = "
                     f"{skill!r} (or sweep skill around it) for its answer. ")
    side = [k for k in ("players",) if k in knobs]
    others = [k for k in knobs if k not in side and k != "skill"]
    table = analysis.summary(games, by=["level"] + side + others)
    rows = []
    order = list(dict.fromkeys(games["level"]))
    table = table.sort_values("level", key=lambda column: column.map(order.index), kind="stable")
    for keys, group in table.groupby(["level"] + side, sort=False):
        keys = keys if isinstance(keys, tuple) else (keys,)
        holding = group[(group["team_win_low"] <= target) & (group["team_win_high"] >= target)]
        closest = group.iloc[(group["team_win_rate"] - target).abs().argmin()]
        row = dict(zip(["level"] + side, keys, strict=True))
        setting = _cell_text([_label(k) for k in others], [closest[k] for k in others]) if others else "every game"
        row["closest cell"] = setting
        row["team wins (Wilson 95%)"] = _interval(closest["team_win_rate"], closest["team_win_low"],
                                                  closest["team_win_high"])
        row["cells whose interval holds the target"] = "; ".join(
            _cell_text([_label(k) for k in others], [r[k] for k in others]) for r in holding.to_dict("records")
        ) if others else ("every game" if len(holding) else "") or "none"
        rows.append(row)
    lead = yours + (f"For each team level (horde.team.skill) and player count: the cell whose team win rate is closest to "
            f"the target {target:.0%}, and every cell whose Wilson 95% interval holds it (where the curve is flat, a "
            "range of settings). A level with no such cell needs settings outside this experiment.")
    page.section(title, f"<p>{_text(lead)}</p>",
                 html_table(rows, tuple(["level"] + side + ["closest cell", "cells whose interval holds the target"])))


def _curve_sections(page: Page, games: pd.DataFrame, knobs: list[str], pictures: Pictures, target: float) -> None:
    against = _against(knobs)
    if not against:
        page.section("Difficulty curve", '<p class="note">Every game shares one setup: no knob to draw a curve '
                     "against.</p>")
        return
    for knob in against:
        line = _line(knobs, knob)
        title = f"Team win rate against {plots.words(knob)}"
        table = analysis.summary(games, by=[knob] + ([line] if line else []))
        pooled = [k for k in knobs if k not in (knob, line)]
        note = f" Pooled over {', '.join(pooled)}." if pooled else ""
        lines = " one line per player count," if line else ""
        caption = f"{title}:{lines} shaded bands are Wilson 95% intervals; the dashed line is the target.{note}"
        page.section(title, pictures.draw(
            f"difficulty-{knob.replace('_', '-')}", _curve_alt(table, knob, line), caption,
            lambda ax, table=table, knob=knob, line=line: plots.difficulty_curve(table, knob, ax=ax, line=line,
                                                                                 target=target)))


def _survival_by(games: pd.DataFrame, knobs: list[str]) -> list[str]:
    if "players" in knobs:
        return ["players"]
    if knobs and len(games[knobs].drop_duplicates()) <= 8:
        return knobs
    return []


def _survival_section(page: Page, games: pd.DataFrame, knobs: list[str], pictures: Pictures) -> None:
    by = _survival_by(games, knobs)
    pooled = [k for k in knobs if k not in by]
    note = f" Pooled over {', '.join(pooled)}." if pooled else ""
    caption = ("The share of games in which the team is still alive after each turn; only a Horde win ends it. "
               f"Shaded bands are pointwise Wilson 95% intervals.{note}")
    what = "by player count" if by == ["players"] else (f"by {', '.join(_label(b) for b in by)}" if by else "all games")
    page.section("Survival", pictures.draw("survival", _survival_alt(games, by, what), caption,
                                           lambda ax: plots.survival_curves(games, ax=ax, by=by)))


def _turns_section(page: Page, games: pd.DataFrame, pictures: Pictures) -> None:
    def draw(axes):
        plots.turn_histogram(games, ax=axes[0], side="team")
        plots.turn_histogram(games, ax=axes[1], side="horde")
        axes[1].set_ylabel("")

    page.section("Game length", pictures.draw(
        "turns", _turns_alt(games),
        "Games ending after each number of team turns (left) and Horde turns (right), stacked by who won. "
        "Each side's turns are counted apart: a game of 9 Horde turns lasts 9 rounds of the table.",
        draw, panels=2))


def _per_cell_table(games: pd.DataFrame, knobs: list[str], column: str, values: list) -> list[dict]:
    """One row per cell, one column per value drawn: its team win rate (Wilson 95%) and games."""
    table = analysis.summary(games, by=knobs + [column])
    rows = []
    for key, part in (table.groupby(knobs, sort=True) if knobs else [((), table)]):
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(knobs, key, strict=True))
        found = part.set_index(column)
        for value in values:
            if value in found.index:
                r = found.loc[value]
                row[value] = (f"{r['team_win_rate']:.1%} ({r['team_win_low'] * 100:.1f}–"
                              f"{r['team_win_high'] * 100:.1f}), {int(r['games'])}")
            else:
                row[value] = ""
        rows.append(row)
    return rows


def _drawn_section(page: Page, games: pd.DataFrame, knobs: list[str], pictures: Pictures, column: str) -> None:
    boss = column == "boss_drawn"
    title = "Win rate by boss" if boss else "Win rate by lieutenants drawn"
    thing = "boss" if boss else "lieutenant"
    drawn = games[analysis.drew(games, column)]
    if drawn.empty:
        why = ("no game drew a boss (the knob boss is none, or the Horde deck has no boss list)" if boss else
               "no game drew a lieutenant (two players draw none, L1; or lieutenants are off), or these results "
               "were written before lieutenants were recorded")
        page.section(title, f'<p class="note">{_text(f"Nothing to show: {why}.")}</p>')
        return
    impact = analysis.drawn_impact(games, column)
    pooled_rows = [{thing: r[column], "cells": r["strata"], "games": r["games_with"],
                    "team win rate (Wilson 95%)": _interval(r["win_rate_with"], r["win_rate_with_low"],
                                                            r["win_rate_with_high"]),
                    f"games with another {thing}": r["games_without"],
                    "their team win rate": _percent(r["win_rate_without"]),
                    "difference, points (Mantel-Haenszel 95%)": _points(r["difference"], r["difference_low"],
                                                                        r["difference_high"]),
                    "verdict": r["verdict"]}
                   for r in impact.to_dict("records")]
    lead = ("The boss is drawn at random from the deck's boss list for every game (B1)." if boss else
            "One lieutenant is drawn per player above two (L1): none in two-player games, two in four-player "
            "games, where a game counts for both of its lieutenants.")
    method = (f"Pooled over every cell: the team win rate of the games that drew each {thing} (a plain pooled "
              f"rate: the draw does not depend on the cell, so every {thing} meets the cells in about the same "
              f"shares), and the difference from the games of the same cells that drew another {thing}, with the "
              "cell as a stratum (Mantel-Haenszel difference with Sato's variance, 95%). harder: the whole "
              "interval below zero; easier: above.")
    parts = [f"<p>{_text(lead)} {_text(method)}</p>", html_table(pooled_rows, (thing, "verdict"))]
    if knobs:
        values = list(impact[column])  # the hardest first, as in the pooled table
        heading = f"Per cell: team win rate (Wilson 95%), games, of those that drew each {thing}"
        parts.append(f"<h3>{_text(heading)}</h3>" + html_table(_per_cell_table(drawn, knobs, column, values),
                                                               tuple(knobs)))
    if boss:
        caption = ("The share of games in which the team is still alive after each turn, by the boss drawn, over "
                   "every cell (the boss does not depend on the cell); pointwise Wilson 95% bands.")
        parts.append(pictures.draw("survival-by-boss", _survival_alt(drawn, [column], "by the boss drawn"), caption,
                                   lambda ax: plots.survival_curves(drawn, ax=ax, by=[column])))
    page.section(title, *parts)


def _impact_section(page: Page, games: pd.DataFrame, card_turn: int, min_games: int, pictures: Pictures) -> None:
    title = "Card impact, pooled over cells"
    try:
        impact = analysis.pooled_card_impact(games, k=card_turn, min_games=min_games)
    except analysis.ResultsError as error:
        page.section(title, f'<p class="note">No card impact: {_text(error.one_line())}</p>')
        return
    counted = int((games["horde_turns"] >= card_turn).sum())
    strata = impact.attrs["strata"]
    cells = (f"each of the {len(games[strata].drop_duplicates())} cells ({', '.join(strata)} vary) a stratum"
             if strata else "one cell")
    lead = (f"The team's win rate in games where the Horde revealed each nontoken card by its turn {card_turn}, "
            f"against the games where it did not, over the {counted} games in which the Horde took at least "
            f"{card_turn} turns (of {len(games)}); {cells}. The difference (with minus without, in percentage "
            "points) compares each card only with games of its own cell: the Mantel-Haenszel difference with "
            "Sato's variance and its 95% interval. A bomb hurts the team (the whole interval below zero), a "
            f"fizzle helps it. Only cards with at least {impact.attrs['min_games']} games on each side are shown; "
            "the columns say how many games back each row, and in how many cells it showed up on both sides.")
    if impact.empty:
        none = (f"No card has {min_games} games on each side yet: play more games, or lower the minimum "
                "(horde report --min-games).")
        page.section(title, f"<p>{_text(lead)}</p>", f'<p class="note">{_text(none)}</p>')
        return
    shown = impact if len(impact) <= IMPACT_ROWS else pd.concat(
        [impact.head(IMPACT_ROWS // 2), impact.tail(IMPACT_ROWS // 2)])
    shown.attrs.update(impact.attrs)
    which = "" if len(shown) == len(impact) else (f" The {IMPACT_ROWS // 2} most harmful and {IMPACT_ROWS // 2} most "
                                                  f"helpful of {len(impact)} cards; the table lists every one.")
    caption = (f"Team win rate when each card was revealed by Horde turn {card_turn}, minus when not, pooled over "
               f"cells: Mantel-Haenszel 95% intervals.{which}")
    picture = pictures.draw("card-impact", _impact_alt(impact, card_turn, len(shown)), caption,
                            lambda ax: plots.card_impact_chart(shown, ax=ax, k=card_turn),
                            height=max(2.5, 0.24 * len(shown) + 1.2))
    rows = [{"card": r["card"], "verdict": r["verdict"],
             "difference, points (Mantel-Haenszel 95%)": _points(r["difference"], r["difference_low"],
                                                                 r["difference_high"]),
             "games with": r["games_with"],
             "win rate with (Wilson 95%)": _interval(r["win_rate_with"], r["win_rate_with_low"],
                                                     r["win_rate_with_high"]),
             "games without": r["games_without"], "win rate without": _percent(r["win_rate_without"]),
             "cells": r["strata"]}
            for r in impact.to_dict("records")]
    page.section(title, f"<p>{_text(lead)}</p>", picture, html_table(rows, ("card", "verdict")))


def _focus_cell(games: pd.DataFrame, knobs: list[str]) -> tuple[pd.DataFrame, str]:
    """The games of the cell whose team win rate is closest to 50%, and a sentence saying so."""
    if not knobs:
        rate = (games["winner"] == "team").mean() if len(games) else math.nan
        return games, f"All games share one setup (team win rate {_percent(rate)})."
    table = analysis.summary(games, by=knobs)
    best = (table["team_win_rate"] - 0.5).abs().idxmin()
    values = [table.at[best, knob] for knob in knobs]
    rows = pd.Series(True, index=games.index)
    for knob, value in zip(knobs, values, strict=True):
        rows &= games[knob] == value
    sentence = (f"In the cell {_cell_text(knobs, values)}, whose team win rate "
                f"({_percent(table.at[best, 'team_win_rate'])}) is closest to 50% of the {len(table)} cells.")
    return games[rows], sentence


def _swing_section(page: Page, games: pd.DataFrame, focus: str) -> None:
    try:
        table = analysis.swing(games, by=[])
    except analysis.ResultsError as error:
        page.section("Swings", f'<p class="note">No swings: {_text(error.one_line())}</p>')
        return
    parts = [f"<p>{_text(focus)} How often each longest token streak (tokens revealed in a row) and "
             "biggest Horde turn (cards cast in one turn) happened, and the team's win rate after it "
             "(Wilson 95%).</p>"]
    for measure, title in (("longest_token_streak", "Longest token streak"),
                           ("biggest_horde_turn", "Biggest Horde turn")):
        rows = [{plots.words(measure): r["value"], "games": r["games"], "share": _percent(r["share"]),
                 "team win rate (Wilson 95%)": _interval(r["team_win_rate"], r["team_win_low"], r["team_win_high"])}
                for r in table[table["measure"] == measure].to_dict("records")]
        parts.append(f"<h3>{_text(title)}</h3>" + html_table(rows))
    page.section("Swings", *parts)


def _paired_rows(table: pd.DataFrame, keys: list[str], pooled: pd.DataFrame) -> list[dict]:
    rows = []
    for r in table.to_dict("records") + [dict(pooled.iloc[0]) | {k: "all" for k in keys}]:
        row = {k: r[k] for k in keys}
        row.update({"pairs": r["pairs"], "A team win rate": _percent(r["win_rate_a"]),
                    "B team win rate": _percent(r["win_rate_b"]), "only A won": r["only_a_won"],
                    "only B won": r["only_b_won"],
                    "A − B, points (Newcombe paired 95%)": _points(r["difference"], r["difference_low"],
                                                                   r["difference_high"]),
                    "unpaired games": r["unpaired"]})
        rows.append(row)
    return rows


def _comparison_section(page: Page, results: analysis.Results, knobs: list[str],
                        other: analysis.Results | None) -> None:
    games = results.games
    method = ("Game i of one arm is paired with game i of the other, played with the same seed, so both see the "
              "same Horde shuffles and dice; the difference of the team win rates (A − B, in percentage points) "
              "has Newcombe's square-and-add 95% interval for paired rates.")
    parts = [f"<p>{_text(method)}</p>"]
    if other is not None:
        names = (str(results.folder), str(other.folder))
        table = analysis.compare_tables(games, other.games, by=None, names=names)
        pooled = analysis.compare_tables(games, other.games, by=(), names=names)
        keys = [c for c in table.columns if c not in pooled.columns]
        arms = f"A: {results.folder} ({results.name}) against B: {other.folder} ({other.name})"
        paired = ", ".join(keys) if keys else "nothing else"
        how = f"Paired by seed, game index and {paired}; the last row pools every pair."
        parts.append(f"<h3>{_text(arms)}</h3><p>{_text(how)}</p>")
        parts.append(html_table(_paired_rows(table, keys, pooled), tuple(keys)))
    steps = [k for k in _against(knobs)]
    for knob in steps:
        line = _line(knobs, knob)
        values = analysis.knob_order(games[knob])
        by_line = analysis.compare_adjacent(games, knob, by=[line] if line else ())
        pooled = analysis.compare_adjacent(games, knob, by=())
        rows = []
        for step in pooled.to_dict("records"):
            row = {_label(knob): f"{step['value_a']} against {step['value_b']}"}
            if line:
                part = by_line[(by_line["value_a"] == step["value_a"]) & (by_line["value_b"] == step["value_b"])]
                for r in part.to_dict("records"):
                    row[plots.group_label([line], [r[line]])] = _points(r["difference"], r["difference_low"],
                                                                        r["difference_high"])
            row["pooled" if line else "difference"] = _points(step["difference"], step["difference_low"],
                                                              step["difference_high"])
            row["pairs pooled" if line else "pairs"] = step["pairs"]
            rows.append(row)
        text = (f"Each swept value of {_label(knob)} against the value before it ({_listing([str(v) for v in values])}) "
                f"on the same seeds: the change in the team win rate, in percentage points, that one step of "
                f"{_label(knob)} makes" + (", for each player count and pooled over every pair" if line else "")
                + ".")
        parts.append(f"<h3>{_text(f'Neighbouring values of {_label(knob)}')}</h3><p>{_text(text)}</p>"
                     + html_table(rows, (_label(knob),)))
    if other is None and not steps:
        parts.append('<p class="note">One cell and no second folder: nothing to compare. Give one with '
                     "<code>horde report RESULTS --compare OTHER</code>.</p>")
    page.section("Comparison", *parts)


def _knob_value(value) -> str:
    """A knob's value as text: an unset knob (null, or no policy parameters) is ``—``."""
    if _missing(value) or value is pd.NA or value in ("", "{}"):
        return UNSET
    return str(value)


def _distinct_text(games: pd.DataFrame, column: str) -> str:
    if column not in games.columns:
        return "not recorded"
    values = sorted({str(v) for v in games[column].dropna()})
    return ", ".join(values) if values else "not recorded"


def _setup_section(page: Page, results: analysis.Results, knobs: list[str]) -> None:
    games = results.games
    shared = [{"knob": name, "value": _knob_value(games[name].iloc[0]) if len(games) else UNSET,
               "what it sets": KNOBS[name].help}
              for name in FIELD_NAMES if name in games.columns and name not in knobs]
    parts = ["<h3>Knobs every game shared</h3>",
             f'<p class="note">{UNSET} : not set, so the rule\'s default (given with each knob) holds.</p>',
             html_table(shared, ("knob", "value"), ("what it sets",))]
    facts = [{"what": "games", "value": str(len(games))},
             {"what": "seeds (game i of every cell plays with (seed, i))", "value": _distinct_text(games, "seed")},
             {"what": "horde versions", "value": _distinct_text(games, "version")},
             {"what": "report written by", "value": f"horde {__version__}"}]
    if "experiment_hash" in games.columns:
        facts.insert(1, {"what": "experiment hash", "value": _distinct_text(games, "experiment_hash")})
    parts.append(html_table(facts, ("what", "value")))
    if "setup_hash" in games.columns:
        columns = [c for c in ["cell"] + knobs if c in games.columns]
        cells = games[columns + ["setup_hash"]].drop_duplicates().sort_values(columns or ["setup_hash"])
        rows = [{**{c: r[c] for c in columns}, "setup hash": r["setup_hash"]} for r in cells.to_dict("records")]
        parts.append(f"<details><summary>Setup hashes ({len(rows)})</summary>"
                     + html_table(rows, ("setup hash",)) + "</details>")
    if results.experiment_text:
        parts.append(f"<h3>experiment.toml</h3><pre>{_text(results.experiment_text)}</pre>")
    if results.manifest:
        manifest = json.dumps(results.manifest, indent=2, default=str)
        parts.append(f"<details><summary>manifest.json (versions, timings, cells)</summary>"
                     f"<pre>{_text(manifest)}</pre></details>")
    page.section("Setup", *parts)


# ---------------------------------------------------------------- the page


def render(results: analysis.Results, card_turn: int = 3, images=None, compare: analysis.Results | None = None,
           target: float = TARGET, band: float = BAND, min_games: int = analysis.POOLED_MIN_GAMES,
           skill: str | None = None) -> str:
    """The report page for loaded results, as HTML text. ``images`` (a folder) also gets each
    picture as a PNG; ``compare`` (other loaded results) adds their comparison on the same seeds;
    ``target`` and ``band`` mark the team win rate aimed for on the heat map and curves; card
    impact shows cards with at least ``min_games`` games on each side; ``skill`` (the ``skill``
    knob's value of a group's table) puts that level's answer first."""
    if not 0 < target < 1 or not 0 <= band < 1:
        raise analysis.ResultsError(f"target {target} must lie between 0 and 1, and band {band} between 0 and 1")
    games = results.games
    knobs = analysis.varying_knobs(games)
    pictures = Pictures(Path(images) if images is not None else None)
    focus_games, focus = _focus_cell(games, knobs)
    page = Page()
    _summary_section(page, games, knobs)
    _heat_section(page, games, knobs, pictures, target, band)
    _target_section(page, games, knobs, target, skill)
    _curve_sections(page, games, knobs, pictures, target)
    _survival_section(page, games, knobs, pictures)
    _turns_section(page, games, pictures)
    _drawn_section(page, games, knobs, pictures, "boss_drawn")
    _drawn_section(page, games, knobs, pictures, "lieutenants_drawn")
    _impact_section(page, games, card_turn, min_games, pictures)
    _swing_section(page, focus_games, focus)
    _comparison_section(page, results, knobs, compare)
    _setup_section(page, results, knobs)
    description = results.experiment.get("description", "")
    cells = games["cell"].nunique() if "cell" in games.columns else 1
    intro = (f"{len(games)} games in {cells} cell(s)" + (f"; {', '.join(knobs)} vary" if knobs else "")
             + ". Every rate comes with its 95% interval, and each picture names its method.")
    body = [f"<h1>{_text(results.name)}</h1>"]
    if description:
        body.append(f"<p>{_text(description)}</p>")
    body.append(f"<p>{_text(intro)}</p>")
    body.append(_decks_section(results))
    body.append(_approximated_section(results))
    if compare is not None:
        body.append(_decks_section(compare, compared=True))
        body.append(_approximated_section(compare, compared=True))
    body.append(page.contents())
    body.extend(page.parts)
    return ("<!DOCTYPE html>\n"
            '<html lang="en" data-load-errors="pending" data-images="0">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<link rel="icon" href="data:,">\n'
            f"<title>{_text(results.name)}: horde report</title>\n<style>{STYLE}</style>\n"
            f"<script>{SCRIPT}</script>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def write_report(folder, out=None, card_turn: int = 3, images=None, compare=None, target: float = TARGET,
                 band: float = BAND, min_games: int = analysis.POOLED_MIN_GAMES, skill: str | None = None) -> Path:
    """Write the report page of the results folder ``folder`` to ``out`` (default
    ``folder/report.html``) and return its path; ``card_turn`` is the Horde turn card impact
    looks at, ``images`` a folder that also gets every picture as a PNG, ``compare`` a second
    results folder to compare with on the same seeds, ``target`` and ``band`` the team win rate
    aimed for and the band around it, ``min_games`` the games a card needs on each side of card
    impact, ``skill`` a group's level (its answer first). Raises ResultsError (one line) for a
    folder it can't read."""
    results = analysis.load(folder)
    other = analysis.load(compare) if compare is not None else None
    page = render(results, card_turn=card_turn, images=images, compare=other, target=target, band=band,
                  min_games=min_games, skill=skill)
    path = Path(out) if out is not None else Path(folder) / "report.html"
    make_folder(path.parent, follow=True)
    write_file(path, page)  # whole or not at all, never through a link
    return path
