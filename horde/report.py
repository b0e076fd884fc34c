"""``horde report``: one self-contained HTML page for a results folder. It holds the summary table
(one row per cell), a difficulty curve against every knob that varies (one line per player
count), survival curves, the game-length histogram, card impact and swings in the cell whose team
win rate is closest to 50%, and the setup that produced it all (shared knobs, seeds, versions,
setup hashes, ``experiment.toml`` and ``manifest.json``). Every picture is a PNG embedded as
data and the page's content security policy lets nothing else load; a small inline script records
any image or script that fails, or request the policy blocks, in the ``data-load-errors``
attribute of ``<html>`` (``none`` when all went well) and counts the pictures in ``data-images``,
so a headless browser can check the page.
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

from horde import __version__, analysis, plots

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
WIDTH, HEIGHT = 7.0, 4.2  # inches at 100 dpi: 700 x 420 pixels

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 62em;
       padding: 0 1em; color: #1d1d1f; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f4f4f6; white-space: normal; } td.text, th.text { text-align: left; }
.wide { overflow-x: auto; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; }
img { max-width: 100%; height: auto; }
pre { background: #f7f7f9; border: 1px solid #e3e3e6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
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


def _percent(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.1%}"


def _interval(rate, low, high) -> str:
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return ""
    return f"{rate:.1%} ({low:.1%} – {high:.1%})"


def _number(value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.{digits}f}"
    return f"{value:.0f}" if isinstance(value, float) else str(value)


def html_table(rows: list[dict], text_columns: tuple = ()) -> str:
    """A table of rows (dicts of already formatted values), every cell escaped."""
    if not rows:
        return '<p class="note">nothing to show</p>'
    columns = list(rows[0])
    kind = {c: ' class="text"' if c in text_columns else "" for c in columns}
    head = "".join(f"<th{kind[c]}>{_text(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td{kind[c]}>{_text(row[c])}</td>" for c in columns) + "</tr>"
                   for row in rows)
    return f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _cell_text(names: list[str], values) -> str:
    return ", ".join(f"{name}={value}" for name, value in zip(names, values, strict=True)) or "every game"


class Pictures:
    """The page's pictures: each drawn on its own figure, kept as PNG bytes in page order."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.names: list[str] = []

    def draw(self, name: str, alt: str, caption: str, draw: Callable, height: float = HEIGHT) -> str:
        from matplotlib.figure import Figure

        figure = Figure(figsize=(WIDTH, height), dpi=100, layout="constrained")
        draw(figure.add_subplot())
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", metadata={"Software": None})
        data = buffer.getvalue()
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{name}.png").write_bytes(data)
        self.names.append(name)
        source = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        return (f'<figure><img id="{_text(name)}" alt="{_text(alt)}" width="{int(WIDTH * 100)}" '
                f'src="{source}"><figcaption>{_text(caption)}</figcaption></figure>')


# ---------------------------------------------------------------- sections


def _approximated_section(results: analysis.Results) -> str:
    """A warning above everything when some cards played by their facts alone (--approximate)."""
    cells = results.manifest.get("approximated") or []
    if not cells and "approximated" in results.games.columns:
        names = sorted({n for names in results.games["approximated"] for n in (names if names is not None else ())})
        cells = [{"cell": "all", "label": "", "cards": {n: [] for n in names}}] if names else []
    if not cells:
        return ""
    rows = [{"cell": f"{c['cell']} {c['label']}".strip(), "card": name,
             "text dropped": "; ".join(dropped) or "(see manifest.json)"}
            for c in cells for name, dropped in c["cards"].items()]
    return ('<section class="warning"><h2>Warning: approximated cards</h2><p>These results are NOT exact: the '
            "cards below were played by their facts alone (cost, types, power and toughness, the keywords "
            "the engine knows) because their text is not understood (--approximate). The text each dropped is "
            "shown.</p>" + html_table(rows, ("cell", "card", "text dropped")) + "</section>")


def _summary_section(games: pd.DataFrame, knobs: list[str]) -> str:
    table = analysis.summary(games, by=knobs)
    rows = []
    for row in table.to_dict("records"):
        out = {name: row[name] for name in knobs}
        out.update({"games": row["games"],
                    "team wins (Wilson 95%)": _interval(row["team_win_rate"], row["team_win_low"], row["team_win_high"]),
                    "Horde wins": _percent(row["horde_win_rate"]), "stalls": _percent(row["stall_rate"]),
                    "turns: median (quartiles)": f"{_number(row['turns_median'])} ({_number(row['turns_q1'])} – "
                                                 f"{_number(row['turns_q3'])})",
                    "team life at the end": _number(row["team_life_end_mean"]),
                    "lowest team life": _number(row["team_life_lowest_mean"])})
        rows.append(out)
    what = f"one row per cell ({', '.join(knobs)} vary)" if knobs else "every game pooled: one cell"
    return (f"<h2>Summary</h2><p>Team wins, Horde wins and stalls, {_text(what)}; each team win rate with its "
            "Wilson 95% interval. Life figures are means over the games.</p>" + html_table(rows, tuple(knobs)))


def _curve_sections(games: pd.DataFrame, knobs: list[str], pictures: Pictures) -> str:
    against = [k for k in knobs if k != "players"] or (["players"] if "players" in knobs else [])
    if not against:
        return ("<h2>Difficulty curve</h2><p class=\"note\">Every game shares one setup: no knob to draw a curve "
                "against.</p>")
    parts = []
    for knob in against:
        line = "players" if "players" in knobs and knob != "players" else None
        title = f"Team win rate against {plots.words(knob)}"
        table = analysis.summary(games, by=[knob] + ([line] if line else []))
        pooled = [k for k in knobs if k not in (knob, line)]
        note = f" Pooled over {', '.join(pooled)}." if pooled else ""
        lines = " one line per player count," if line else ""
        caption = f"{title}:{lines} shaded bands are Wilson 95% intervals.{note}"
        parts.append(f"<h2>{_text(title)}</h2>" + pictures.draw(
            f"difficulty-{knob.replace('_', '-')}", title, caption,
            lambda ax, table=table, knob=knob, line=line: plots.difficulty_curve(table, knob, ax=ax, line=line)))
    return "".join(parts)


def _survival_section(games: pd.DataFrame, knobs: list[str], pictures: Pictures) -> str:
    if "players" in knobs:
        by = ["players"]
    elif knobs and len(games[knobs].drop_duplicates()) <= 8:
        by = knobs
    else:
        by = []
    pooled = [k for k in knobs if k not in by]
    note = f" Pooled over {', '.join(pooled)}." if pooled else ""
    caption = ("The share of games in which the team is still alive after each turn; only a Horde win ends it. "
               f"Shaded bands are pointwise Wilson 95% intervals.{note}")
    return "<h2>Survival</h2>" + pictures.draw(
        "survival", "Team survival by turn", caption, lambda ax: plots.survival_curves(games, ax=ax, by=by))


def _turns_section(games: pd.DataFrame, pictures: Pictures) -> str:
    return "<h2>Game length</h2>" + pictures.draw(
        "turns", "Games ending after each number of turns",
        "Games ending after each number of turns (team and Horde turns both count), stacked by who won.",
        lambda ax: plots.turn_histogram(games, ax=ax))


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


def _impact_section(games: pd.DataFrame, focus: str, card_turn: int, pictures: Pictures) -> str:
    head = f"<h2>Card impact</h2><p>{_text(focus)} "
    try:
        impact = analysis.card_impact(games, k=card_turn, by=[])
    except analysis.ResultsError as error:
        return head + f"No card impact: {_text(error.one_line())}</p>"
    head += _text(f"The team's win rate in games where the Horde revealed each nontoken card by its turn "
                  f"{card_turn}, against the games where it did not (only games in which the Horde took at least "
                  f"{card_turn} turns count); the difference with Newcombe's hybrid score 95% interval. "
                  "A bomb hurts the team (the whole interval below zero), a fizzle helps it.") + "</p>"
    caption = (f"Team win rate when each card was revealed by Horde turn {card_turn}, minus when not: "
               "Newcombe hybrid score 95% intervals.")
    picture = pictures.draw("card-impact", "Card impact", caption,
                            lambda ax: plots.card_impact_chart(impact, ax=ax, k=card_turn),
                            height=max(2.5, 0.3 * len(impact) + 1.2))
    rows = [{"card": r["card"], "verdict": r["verdict"], "games with": r["games_with"],
             "win rate with (Wilson 95%)": _interval(r["win_rate_with"], r["win_rate_with_low"],
                                                     r["win_rate_with_high"]),
             "games without": r["games_without"],
             "win rate without (Wilson 95%)": _interval(r["win_rate_without"], r["win_rate_without_low"],
                                                        r["win_rate_without_high"]),
             "difference (Newcombe 95%)": "" if math.isnan(r["difference"]) else
             f"{r['difference']:+.1%} ({r['difference_low']:+.1%} – {r['difference_high']:+.1%})"}
            for r in impact.to_dict("records")]
    return head + picture + html_table(rows, ("card", "verdict"))


def _swing_section(games: pd.DataFrame, focus: str) -> str:
    head = "<h2>Swings</h2>"
    try:
        table = analysis.swing(games, by=[])
    except analysis.ResultsError as error:
        return head + f'<p class="note">No swings: {_text(error.one_line())}</p>'
    parts = [head, f"<p>{_text(focus)} How often each longest token streak (tokens revealed in a row) and "
                   "biggest Horde turn (cards cast in one turn) happened, and the team's win rate after it "
                   "(Wilson 95%).</p>"]
    for measure, title in (("longest_token_streak", "Longest token streak"),
                           ("biggest_horde_turn", "Biggest Horde turn")):
        rows = [{plots.words(measure): r["value"], "games": r["games"], "share": _percent(r["share"]),
                 "team win rate (Wilson 95%)": _interval(r["team_win_rate"], r["team_win_low"], r["team_win_high"])}
                for r in table[table["measure"] == measure].to_dict("records")]
        parts.append(f"<h3>{_text(title)}</h3>" + html_table(rows))
    return "".join(parts)


def _distinct_text(games: pd.DataFrame, column: str) -> str:
    if column not in games.columns:
        return "not recorded"
    values = sorted({str(v) for v in games[column].dropna()})
    return ", ".join(values) if values else "not recorded"


def _setup_section(results: analysis.Results, knobs: list[str]) -> str:
    games = results.games
    from horde.presets import FIELD_NAMES

    shared = [{"knob": name, "value": str(games[name].iloc[0]) if len(games) else ""}
              for name in FIELD_NAMES if name in games.columns and name not in knobs]
    parts = ["<h2>Setup</h2>", "<h3>Knobs every game shared</h3>", html_table(shared, ("knob", "value"))]
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
        parts.append("<h3>Setup hashes</h3>" + html_table(rows, ("setup hash",)))
    if results.experiment_text:
        parts.append(f"<h3>experiment.toml</h3><pre>{_text(results.experiment_text)}</pre>")
    if results.manifest:
        manifest = json.dumps(results.manifest, indent=2, default=str)
        parts.append(f"<h3>manifest.json</h3><pre>{_text(manifest)}</pre>")
    return "".join(parts)


# ---------------------------------------------------------------- the page


def render(results: analysis.Results, card_turn: int = 3, images=None) -> str:
    """The report page for loaded results, as HTML text; ``images`` (a folder) also gets each
    picture as a PNG."""
    games = results.games
    knobs = analysis.varying_knobs(games)
    pictures = Pictures(Path(images) if images is not None else None)
    focus_games, focus = _focus_cell(games, knobs)
    description = results.experiment.get("description", "")
    cells = games["cell"].nunique() if "cell" in games.columns else 1
    intro = (f"{len(games)} games in {cells} cell(s)" + (f"; {', '.join(knobs)} vary" if knobs else "")
             + ". Every rate comes with its 95% interval, and each picture names its method.")
    body = [f"<h1>{_text(results.name)}</h1>"]
    if description:
        body.append(f"<p>{_text(description)}</p>")
    body.append(f"<p>{_text(intro)}</p>")
    body.append(_approximated_section(results))
    body.append(_summary_section(games, knobs))
    body.append(_curve_sections(games, knobs, pictures))
    body.append(_survival_section(games, knobs, pictures))
    body.append(_turns_section(games, pictures))
    body.append(_impact_section(focus_games, focus, card_turn, pictures))
    body.append(_swing_section(focus_games, focus))
    body.append(_setup_section(results, knobs))
    return ("<!DOCTYPE html>\n"
            '<html lang="en" data-load-errors="pending" data-images="0">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<link rel="icon" href="data:,">\n'
            f"<title>{_text(results.name)}: horde report</title>\n<style>{STYLE}</style>\n"
            f"<script>{SCRIPT}</script>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def write_report(folder, out=None, card_turn: int = 3, images=None) -> Path:
    """Write the report page of the results folder ``folder`` to ``out`` (default
    ``folder/report.html``) and return its path; ``card_turn`` is the Horde turn card impact
    looks at, and ``images`` a folder that also gets every picture as a PNG. Raises ResultsError
    (one line) for a folder it can't read."""
    results = analysis.load(folder)
    page = render(results, card_turn=card_turn, images=images)
    path = Path(out) if out is not None else Path(folder) / "report.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
