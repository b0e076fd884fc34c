"""``horde table``'s web page: a small Starlette app of server-rendered HTML (no script, no asset from
outside: it works on a phone at the table with no internet), served by uvicorn.

Every request needs the table's key: the link ``horde table`` prints carries it once (``?key=``),
and the page keeps it in a cookie sent only to this server (``SameSite=Strict``, so another site's
form can't act for the players either); a request without it is refused and changes nothing. Every
change is a form whose hidden ``rev`` names the game's revision it was made on (``Season.act``).
"""

from __future__ import annotations

import hmac
import html
import json
import random
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from horde.cli.playlog import OPPONENTS, describe
from horde.errors import HordeError
from horde.files import write_file
from horde.setup import KNOBS, PRESETS, SetupError, setup_from_dict
from horde.table.game import KEYWORDS, STAND_IN_IDS, Table, TableError
from horde.table.store import Season, StaleError, check_name, seasons

COOKIE = "horde_table_key"
E = html.escape
STYLE = """
*{box-sizing:border-box}body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:46rem;padding:.6rem;
color:#111;background:#fafafa}h1{font-size:1.3rem;margin:.3rem 0}h2{font-size:1.1rem;margin:1rem 0 .4rem}
section{background:#fff;border:1px solid #ccc;border-radius:.5rem;padding:.6rem;margin:.6rem 0}
.ask{border:2px solid #b35c00;background:#fff8ef}.msg{padding:.6rem;border-radius:.4rem;margin:.5rem 0}
.error{background:#ffe5e5;border:1px solid #c00}.ok{background:#e8f6e8;border:1px solid #4a4}
button,input,select{font:inherit;min-height:2.6rem}button{padding:.3rem .8rem;margin:.15rem;border-radius:.4rem;
border:1px solid #555;background:#eee}button.main{background:#1d4ed8;color:#fff;border-color:#1d4ed8}
input[type=number]{width:4.5rem}label{display:inline-block;margin:.15rem .3rem .15rem 0}
ul{padding-left:1.1rem;margin:.2rem 0}li{margin:.25rem 0}.perm{border-top:1px solid #ddd;padding:.35rem 0}
.text{color:#444;font-size:.9rem}.row{display:flex;flex-wrap:wrap;align-items:center;gap:.2rem}
.stats{display:flex;flex-wrap:wrap;gap:.4rem 1rem}details{margin:.3rem 0}summary{cursor:pointer;min-height:2rem}
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:.3rem 0;padding:.3rem .5rem}
"""


class TableApp:
    """The app's state: the table's folder, its key, and each season opened."""

    def __init__(self, root: Path, key: str, estimate: bool = True, house: dict[str, Any] | None = None,
                 house_path: str | None = None):
        self.root = Path(root)
        self.key = key
        self.estimate = estimate
        self.house = dict(house or {})  # the house rules' knobs: every new game's, under the form's
        self.house_path = house_path
        self.seasons: dict[tuple[str, str], Season] = {}
        self.lock = threading.Lock()
        self.working: set[Path] = set()

    def season(self, group: str, name: str) -> Season:
        with self.lock:
            key = (check_name(group, "group"), check_name(name, "season"))
            if key not in self.seasons:
                self.seasons[key] = Season(self.root, *key)
            return self.seasons[key]


def page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            f"content=\"width=device-width, initial-scale=1\"><title>{E(title)}</title><style>{STYLE}</style>"
            f"</head><body>{body}</body></html>")


def message(text: str, kind: str = "error") -> str:
    role = "alert" if kind == "error" else "status"
    return f'<div class="msg {kind}" role="{role}">{E(text)}</div>' if text else ""


# ---------------------------------------------------------------- the key


def keyed(app: TableApp, request: Request, form: dict[str, str] | None = None) -> bool:
    given = request.cookies.get(COOKIE) or request.query_params.get("key") or (form or {}).get("key") or ""
    return hmac.compare_digest(given.encode(), app.key.encode())


def refused() -> HTMLResponse:
    body = ("<h1>horde table</h1>" + message("This page needs the table's key: open the link (or scan the QR "
                                            "code) that horde table printed where it runs. Nothing was changed."))
    return HTMLResponse(page("horde table: key needed", body), status_code=403)


def with_cookie(app: TableApp, response: Response) -> Response:
    response.set_cookie(COOKIE, app.key, httponly=True, samesite="strict", max_age=60 * 60 * 24 * 90)
    return response


async def form_of(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()}


async def form_lists(request: Request) -> dict[str, list[str]]:
    body = (await request.body()).decode("utf-8", "replace")
    return parse_qs(body, keep_blank_values=True)


# ---------------------------------------------------------------- pages


def home(app: TableApp, request: Request, error: str = "") -> HTMLResponse:
    rows = "".join(f'<li><a href="/s/{quote(g)}/{quote(s)}">{E(g)}: {E(s)}</a></li>' for g, s in seasons(app.root))
    body = (f"<h1>horde table</h1>{message(error)}<section><h2>Groups and seasons</h2>"
            f"<ul>{rows or '<li>none yet</li>'}</ul></section>"
            "<section><h2>Open a group's season</h2><form method=\"get\" action=\"/open\">"
            "<label>Group <input name=\"group\" aria-label=\"Group\" required maxlength=\"40\" value=\"our table\"></label> "
            "<label>Season <input name=\"season\" aria-label=\"Season\" required maxlength=\"40\" value=\"season 1\"></label> "
            "<button class=\"main\">Open</button></form></section>")
    return HTMLResponse(page("horde table", body))


def house_note(app: TableApp) -> str:
    """The house rules every new game starts from, in one line (none: nothing)."""
    if not app.house:
        return ""
    knobs = ", ".join(f"{k} = {v}" for k, v in app.house.items() if k not in ("preset", "players"))
    return (f'<p class="text">House rules from {E(app.house_path or "the house-rules file")}: '
            f'{E(knobs or "the preset and players below")} (a knob given here overrides one of them)</p>')


def setup_form(app: TableApp, season: Season, rev_note: str = "") -> str:
    preset = str(app.house.get("preset", "zombie-horde"))
    count = str(app.house.get("players", 3))
    presets = "".join(f'<option value="{p}"{" selected" if p == preset else ""}>{p}</option>' for p in PRESETS)
    players = "".join(f'<option value="{n}"{" selected" if str(n) == count else ""}>{n}</option>' for n in range(1, 5))
    return (f'<section><h2>New game</h2><form method="post" action="{season_url(season)}/new">'
            f'<label>Preset <select name="preset" aria-label="Preset">{presets}</select></label> '
            f'<label>Players <select name="players" aria-label="Players">{players}</select></label><br>'
            '<label>Horde deck (a bundled name or a file; empty: the preset\'s) '
            '<input name="horde_deck" size="28" aria-label="Horde deck"></label><br>'
            '<label>Boss (random, none or a name; empty: the preset\'s) <input name="boss" size="20" aria-label="Boss">'
            '</label> '
            '<label>Seed (empty: a new one) <input name="seed" inputmode="numeric" size="10" aria-label="Seed"></label><br>'
            '<details><summary>More knobs and house rules</summary><label>One knob a line, as in an '
            'experiment\'s [setup]: <br><textarea name="knobs" rows="4" cols="34" aria-label="More knobs, one a line, '
            'name = value"></textarea></label></details>'
            f'{house_note(app)}<button class="main">Start the game</button>{rev_note}</form></section>')


def season_url(season: Season) -> str:
    return f"/s/{quote(season.group)}/{quote(season.season)}"


def season_page(app: TableApp, season: Season, error: str = "", note: str = "", status: int = 200) -> HTMLResponse:
    parts = [f'<h1><a href="/">horde table</a>: {E(season.group)}, {E(season.season)}</h1>', message(error),
             message(note, "ok")]
    files = season.game_files()
    if files:
        path = files[-1]
        record = season.read(path)
        try:
            table = season.table(path, record)
        except HordeError as problem:
            parts.append(message(f"this game no longer replays: {problem}"))
        else:
            parts.append(game_html(season, path, table))
    if season.current() is None:
        parts.append(setup_form(app, season))
    parts.append(summary_html(app, season))
    title = f"horde table: {season.group}, {season.season}"
    return HTMLResponse(page(title, "".join(parts)), status_code=status)


def hidden(table: Table) -> str:
    return f'<input type="hidden" name="rev" value="{table.record["revision"]}">'


def game_html(season: Season, path: Path, table: Table) -> str:
    game = table.game
    setup = table.setup
    url = season_url(season)
    rival = OPPONENTS.get(setup.opponent, "the Horde")
    stats = [f"Game {int(path.stem)}", f"turn {game.turn}", f"team life {game.team_life}",
             f"{rival}'s library {len(game.horde.library)}", f"graveyard {len(game.horde.graveyard)}"]
    if game.horde.hand:
        stats.append(f"waiting to be cast: {', '.join(c.name for c in game.horde.hand)}")
    if game.boss is not None:
        stats.append(f"boss {game.boss.card.name}, loyalty {game.boss.loyalty}")
    if game.lieutenants is not None:
        lts = game.lieutenants
        stats.append(f"lieutenant entry counters {lts.entry_counters}")
        for lt in lts.exiled:
            stats.append(f"{lt.card.name} exiled with {lt.time_counters} time counters")
    if setup.reveal == "emblems":
        stats.append(f"emblems {game.emblems}")
    parts = [f'<section aria-label="The game"><div class="stats">{"".join(f"<span>{E(s)}</span>" for s in stats)}'
             f'</div><div class="text">{E(setup.preset)}, {setup.players} players, seed {table.record["seed"]}</div>'
             "</section>"]
    question = table.question
    if question is not None:
        parts.append(question_html(url, table))
    else:
        winner = {"team": "The team wins", "horde": f"{rival[0].upper() + rival[1:]} wins",
                  "stall": "A stall (H14)"}.get(str(game.winner), str(game.winner))
        parts.append(f'<section class="ask" role="status"><h2>{E(winner)}</h2></section>')
    parts.append(board_html(url, table))
    parts.append(log_html(table))
    if table.record["actions"] and not table.over:
        parts.append(f'<form method="post" action="{url}/undo">{hidden(table)}<button aria-label="Undo the last '
                     'thing entered">Undo the last action</button></form>')
    return "".join(parts)


BUTTONS = {"targets": "The Horde picks", "count": "Count it", "sacrifice": "Sacrificed", "prevent": "Prevent it",
           "answer": "Choose", "pick": "Choose", "counter": "Answer"}


def answer_form(url: str, table: Table, inner: str, kind: str, button: str) -> str:
    return (f'<form method="post" action="{url}/act">{hidden(table)}<input type="hidden" name="kind" value="{kind}">'
            f'{inner}<button class="main">{E(button)}</button></form>')


def question_html(url: str, table: Table) -> str:
    q = table.question
    assert q is not None
    n = len(table.game.players)
    card = (f'<p><strong>{E(q.card)}</strong>: <span class="text">{E(q.card_text)}</span></p>' if q.card else "")
    head = f'<section class="ask" aria-live="polite"><h2>{E(q.text)}</h2>{card}'
    if q.kind == "turn":
        return (head + f'<form method="post" action="{url}/act">{hidden(table)}<input type="hidden" name="kind" '
                'value="end_turn"><button class="main">End our turn: the Horde plays</button></form>'
                + attack_form(url, table) + walker_form(url, table) + end_form(url, table) + "</section>")
    if q.kind in ("numbers", "who"):
        if q.kind == "numbers":
            fields = "".join(f'<label>{E(label)} <input type="number" min="0" max="{most}" name="count{i + 1}" '
                             f'value="0" required aria-label="{E(label)}: how many"></label>'
                             for i, (label, most) in enumerate(q.fields))
        else:
            fields = "".join(f'<label><input type="checkbox" name="count{i + 1}" value="1"> {E(label)}</label>'
                             for i, (label, _) in enumerate(q.fields))
        inner = f'<input type="hidden" name="fields" value="{len(q.fields)}"><div class="row">{fields}</div>'
        return head + answer_form(url, table, inner, q.answer, BUTTONS.get(q.answer, "Answer")) + "</section>"
    if q.kind == "choice":
        kind = "checkbox" if q.selection else "radio"
        options = "".join(f'<li><label><input type="{kind}" name="choice" value="{i}"'
                          f'{"" if q.selection or i != q.default else " checked"}> {E(o)}</label></li>'
                          for i, o in enumerate(q.options))
        inner = f'<fieldset><legend>Your choice</legend><ul>{options}</ul></fieldset>'
        return head + answer_form(url, table, inner, q.answer, "Choose") + "</section>"
    if q.kind == "bite":
        inner = ('<label><input type="checkbox" name="fog" value="1"> A fog: prevent the bite (F2)</label><br>')
        return (head + answer_form(url, table, inner, "bite", "The Heads bite")
                + '<p class="text">Before the bite you may act at instant speed on the Hydra\'s Heads below.</p>'
                "</section>")
    # blocks
    rows = []
    player_options = "".join(f'<option value="{i + 1}">player {i + 1}</option>' for i in range(n))
    for a in q.attackers:
        extra = f", {a['shields']} shield counters" if a["shields"] else ""
        keywords = f" ({', '.join(a['keywords'])})" if a["keywords"] else ""
        blockers = []
        for b in (1, 2):
            name = f"b{a['id']}_{b}"
            ticks = "".join(f'<label><input type="checkbox" name="{name}_kw" value="{k}"> {k}</label>'
                            for k in ("flying", "reach", "first strike", "deathtouch"))
            label = f"blocker {b} of {a['card']}"
            blockers.append(
                f'<fieldset><legend>{"Blocked by" if b == 1 else "And by"}</legend>'
                f'<label>Whose <select name="{name}_player" aria-label="Who blocks {E(a["card"])} (#{a["id"]}), '
                f'blocker {b}"><option value="">nobody</option>{player_options}</select></label> '
                f'<label>Power <input type="number" min="0" max="999" name="{name}_power" aria-label="Power of '
                f'{E(label)}"></label> <label>Toughness <input type="number" min="1" max="999" name="{name}_toughness" '
                f'aria-label="Toughness of {E(label)}"></label> {ticks}</fieldset>')
        rows.append(f'<div class="perm"><strong>{E(a["card"])}</strong> (#{a["id"]}) {a["power"]}/{a["toughness"]}'
                    f'{E(keywords + extra)} attacks <strong>{E(a["target"])}</strong>'
                    f'<div class="text">{E(a["text"])}</div>{blockers[0]}<details><summary>A second blocker '
                    f'(menace)</summary>{blockers[1]}</details></div>')
    return (head + f'<form method="post" action="{url}/act">{hidden(table)}<input type="hidden" name="kind" '
            f'value="blocks">{"".join(rows)}<label><input type="checkbox" name="fog" value="1"> A fog: prevent all '
            'combat damage this turn</label><br><button class="main">Blocks declared: deal the damage</button>'
            '</form><p class="text">Before blocking you may act at instant speed on the Horde\'s permanents below.</p>'
            "</section>")


def walker_form(url: str, table: Table) -> str:
    """A planeswalker of ours enters (the Horde may attack it: H8)."""
    return (f'<details><summary>A planeswalker of ours enters</summary><form method="post" action="{url}/act" '
            f'class="row">{hidden(table)}<input type="hidden" name="kind" value="planeswalker"><label>Name '
            '<input name="name" maxlength="40" aria-label="The planeswalker\'s name"></label><label>Loyalty '
            '<input type="number" min="1" max="99" name="loyalty" required aria-label="Its loyalty"></label>'
            f'{player_select(table, "Whose planeswalker", always=True)}<button>It enters</button></form></details>')


def attack_form(url: str, table: Table) -> str:
    n = len(table.game.players)
    rows = []
    for r in range(1, 7):
        ticks = "".join(f'<label><input type="checkbox" name="a{r}_kw" value="{k}"> {k}</label>'
                        for k in ("flying", "menace", "trample", "first strike", "deathtouch"))
        whose = "".join(f'<option value="{i + 1}">player {i + 1}</option>' for i in range(n))
        rows.append(f'<fieldset><legend>Attacker {r}</legend><label>Whose <select name="a{r}_player" aria-label='
                    f'"Whose is attacker {r}">{whose}</select></label> <label>Power <input type="number" min="0" '
                    f'max="999" name="a{r}_power" aria-label="Power of attacker {r}"></label> <label>Toughness '
                    f'<input type="number" min="1" max="999" name="a{r}_toughness" aria-label="Toughness of attacker '
                    f'{r}"></label> {ticks}</fieldset>')
    return (f'<details><summary>We attack the Horde (its untapped creatures block)</summary><form method="post" '
            f'action="{url}/act">{hidden(table)}<input type="hidden" name="kind" value="attack">{"".join(rows[:3])}'
            f'<details><summary>More attackers</summary>{"".join(rows[3:])}</details><button class="main">Attack'
            "</button></form></details>")


def end_form(url: str, table: Table) -> str:
    return (f'<details><summary>End the game another way</summary><form method="post" action="{url}/act">'
            f'{hidden(table)}<input type="hidden" name="kind" value="end_game"><label>Why <input name="reason" '
            'maxlength="200" value="a player drew from an empty library"></label><br><button name="winner" '
            'value="horde">We lost</button><button name="winner" value="team">We won</button></form></details>')


def board_html(url: str, table: Table) -> str:
    game = table.game
    q = table.question
    window = q is not None and q.window
    rows = []
    for p in game.battlefield.horde:
        card = p.card
        facts = []
        if card.is_creature:
            facts.append(f"{table_power(table, p)}")
        if p.tapped:
            facts.append("tapped")
        if p.shields:
            facts.append(f"{p.shields} shield counters")
        if p.plus:
            facts.append(f"{p.plus} +1/+1 counters")
        if p.minus:
            facts.append(f"{p.minus} -1/-1 counters")
        if p.damage:
            facts.append(f"{p.damage} damage")
        if p.lieutenant is not None:
            facts.append("lieutenant")
        words = sorted(k for k in card.keywords if k != "enters tapped")
        if words:
            facts.append(", ".join(words))
        label = f"{card.name} (#{p.id})"
        actions = ""
        if window:
            buttons = "".join(f'<button name="kind" value="{kind}" aria-label="{verb} {E(label)}">{verb}</button>'
                              for kind, verb in (("destroy", "Destroy"), ("exile", "Exile"), ("bounce", "Bounce"),
                                                 ("tap", "Tap")))
            actions = (f'<form method="post" action="{url}/act" class="row">{hidden(table)}<input type="hidden" '
                       f'name="id" value="{p.id}">{buttons}<label>Damage <input type="number" min="1" max="999" '
                       f'name="amount" aria-label="Damage to {E(label)}"></label><button name="kind" value="damage" '
                       f'aria-label="Deal the damage to {E(label)}">Deal</button></form>')
        rows.append(f'<div class="perm"><strong>{E(card.name)}</strong> (#{p.id}) {E(", ".join(facts))}'
                    f'<div class="text">{E(card.text)}</div>{actions}</div>')
    team = ""
    if window:
        dies = ""
        if game.battlefield.hooked.get("CreatureDies"):
            dies = (f'<form method="post" action="{url}/act" class="row">{hidden(table)}<input type="hidden" '
                    'name="kind" value="died"><label>Our creatures that died <input type="number" min="1" max="200" '
                    'name="count" aria-label="How many of our creatures died"></label>'
                    f'{player_select(table, "Whose creatures")}<button>They died</button></form>')
        team = (f'<section aria-label="Our side"><h2>What we did</h2><form method="post" action="{url}/act" '
                f'class="row">{hidden(table)}<input type="hidden" name="kind" value="damage_horde"><label>Damage '
                'to the Horde <input type="number" min="1" max="9999" name="amount" aria-label="Damage dealt to the '
                'Horde" required></label><button>Deal it</button></form>'
                f'<form method="post" action="{url}/act" class="row">{hidden(table)}<label>Life <input type="number" '
                'min="1" max="9999" name="amount" aria-label="Life lost or gained" required></label>'
                f'{player_select(table, "Whose life")}<button name="kind" value="lose_life">Lost</button>'
                f'<button name="kind" value="gain_life">Gained</button></form>{dies}{walkers_html(url, table)}'
                f'{standing_html(url, table)}{hold_html(url, table)}</section>')
    board = "".join(rows) or "<p>No permanent.</p>"
    return team + f'<section aria-label="The Horde\'s battlefield"><h2>The Horde\'s battlefield</h2>{board}</section>'


def walkers_html(url: str, table: Table) -> str:
    """Our planeswalkers on the battlefield, each with its loyalty to change (an ability used,
    damage from our side; 0 and it goes: 704.5i)."""
    rows = []
    for w in table.game.battlefield.planeswalkers:
        if w.is_horde:
            continue
        label = f"{w.card.name} (#{w.id})"
        rows.append(f'<form method="post" action="{url}/act" class="row">{hidden(table)}<input type="hidden" '
                    f'name="kind" value="loyalty"><input type="hidden" name="id" value="{w.id}"><strong>{E(label)}'
                    f'</strong> loyalty {w.loyalty}<label>Loyalty now <input type="number" min="0" max="99" '
                    f'name="loyalty" value="{w.loyalty}" aria-label="Loyalty of {E(label)} now"></label>'
                    "<button>Set</button></form>")
    return f'<h3>Our planeswalkers</h3>{"".join(rows)}' if rows else ""


def standing_html(url: str, table: Table) -> str:
    """The counts of our cards the Horde's cards read all the time (Mortivore's power and
    toughness), as we last gave them: change them when they change."""
    if not table.standing:
        return ""
    fields = []
    for k, (key, values) in enumerate(table.standing.items()):
        players = key.split("|")[2].split(",")
        inputs = "".join(f'<label>Player {pl} <input type="number" min="0" max="999" name="v{k}_{j}" value="{v}" '
                         f'aria-label="{E(table.count_label(key))}: player {pl}"></label>'
                         for j, (pl, v) in enumerate(zip(players, values, strict=True)))
        fields.append(f'<fieldset><legend>{E(table.count_label(key))}</legend><input type="hidden" name="key{k}" '
                      f'value="{E(key)}">{inputs}</fieldset>')
    return (f'<form method="post" action="{url}/act">{hidden(table)}<input type="hidden" name="kind" value="counts">'
            f'<h3>Our cards the Horde\'s cards count</h3>{"".join(fields)}<button>These are the counts now</button>'
            "</form>")


def hold_html(url: str, table: Table) -> str:
    """What we hold that the Horde's turn must wait for: a counterspell (each Horde spell asks,
    H10), a way to prevent damage (each non-combat damage to us asks)."""
    ticks = "".join(f'<label><input type="checkbox" name="{name}" value="1"{" checked" if table.hold[name] else ""}> '
                    f"{words}</label><br>" for name, words in (
                        ("counter", "we can counter a spell: ask before each Horde spell resolves (H10)"),
                        ("prevent", "we can prevent damage: ask before the Horde deals us damage outside combat")))
    return (f'<details><summary>We hold a counterspell or a way to prevent damage</summary><form method="post" '
            f'action="{url}/act">{hidden(table)}<input type="hidden" name="kind" value="hold">{ticks}'
            "<button>Keep this</button></form></details>")


def table_power(table: Table, p: Any) -> str:
    from horde.engine import rules

    return f"{rules.power(table.game, p)}/{rules.toughness(table.game, p)}"


def player_select(table: Table, label: str, always: bool = False) -> str:
    n = len(table.game.players)
    if n == 1 or table.setup.life != "individual" and not always:
        return ""
    options = "".join(f'<option value="{i + 1}">player {i + 1}</option>' for i in range(n))
    return f'<label>{label} <select name="player" aria-label="{E(label)}">{options}</select></label>'


def log_html(table: Table) -> str:
    """The game's events in words, the latest turn first (stand-ins' entering and leaving left out)."""
    events = table.game.drivers.trace or []
    notes: dict[int, list[str]] = {}
    for at, words in table.notes:
        notes.setdefault(at, []).append(words)
    rival = OPPONENTS.get(table.setup.opponent, "the Horde")
    turns: list[tuple[str, list[str]]] = []
    for i, e in enumerate(events):
        if i in notes and turns:
            turns[-1][1].extend(notes[i])
        if e["event"] == "turn_begins":
            whose = "Our" if e["side"] == "team" else f"{rival[0].upper() + rival[1:]}'s"
            turns.append((f"Turn {e['turn']}: {whose} turn {e['number']}", []))
            continue
        if e["event"] in ("enters", "leaves") and (str(e.get("card", "")).startswith("player ")
                                                    or e.get("id", 0) >= STAND_IN_IDS):
            continue
        if e["event"] == "game_over":
            continue
        line = describe(e, rival)
        if line:
            if not turns:
                turns.append(("Before the first turn", []))
            turns[-1][1].append(line)
    if len(events) in notes and turns:
        turns[-1][1].extend(notes[len(events)])
    blocks = []
    for n, (title, lines) in enumerate(reversed(turns)):
        items = "".join(f"<li>{E(line)}</li>" for line in lines) or "<li>nothing happened</li>"
        open_ = " open" if n < 2 else ""
        blocks.append(f"<details{open_}><summary>{E(title)}</summary><ul>{items}</ul></details>")
    return f'<section aria-label="What happened"><h2>What happened</h2>{"".join(blocks)}</section>'


def summary_html(app: TableApp, season: Season) -> str:
    s = season.summary()
    estimate = s["estimate"]
    lines = [f"{s['games']} game{'' if s['games'] == 1 else 's'} finished: we won {s['wins']}, lost {s['losses']}"
             + (f", {s['other']} neither" if s["other"] else "")]
    if estimate.get("games") == s["games"] and s["games"]:
        if "skill" in estimate:
            lines.append(f"horde calibrate: skill {estimate['skill']:.2f} ({estimate['level']}), 95% interval "
                         f"{estimate['low']:.2f} to {estimate['high']:.2f}")
            lines += [f"warning: {w}" for w in estimate.get("warnings", [])]
        if "calibrate_error" in estimate:
            lines.append(f"horde calibrate: {estimate['calibrate_error']}")
        if "tune" in estimate:
            lines.append(f"horde tune --skill: {estimate['tune']}")
        if "tune_error" in estimate:
            lines.append(f"horde tune: {estimate['tune_error']}")
    elif s["games"]:
        lines.append("calibrate and tune are working it out" if season.folder in app.working else
                     "calibrate and tune have not looked at the latest games yet")
    files = ""
    if s["games"]:
        url = season_url(season)
        files = (f'<p><a href="{url}/games.csv">games.csv</a> (what horde calibrate reads) · '
                 f'<a href="{url}/games-full.csv">games-full.csv</a> · <a href="{url}/games.jsonl">games.jsonl</a> '
                 "(every game whole)</p>")
    items = "".join(f"<li>{E(line)}</li>" for line in lines)
    return f'<section aria-label="Our season"><h2>Our season so far</h2><ul>{items}</ul>{files}</section>'


# ---------------------------------------------------------------- season estimate


def estimate(app: TableApp, season: Season, grid: tuple[float, ...] | None = None, simulated: int = 60,
             batch: int = 60, max_games: int = 120) -> None:
    """calibrate on the season's games (``simulated`` games a skill of ``grid``, calibrate's by
    default), then tune's deck size for its table at that skill (``batch`` games a value, at most
    ``max_games``), in the background (written to season.json; the page shows it when done)."""
    from horde.lab.cache import record_of
    from horde.lab.calibrate import GRID, calibrate, read_games
    from horde.lab.tune import tune
    from horde.play import play_game

    def play(at: Any, seed: Any, games: int) -> list[str]:  # in this process: the page's thread
        return [str(play_game(at, (seed, i)).winner) for i in range(games)]

    def play_records(at: Any, seed: Any, start: int, stop: int) -> list[Any]:
        return [record_of(play_game(at, (seed, i), record_turns=True)) for i in range(start, stop)]

    try:
        finished = season.summary()["games"]
        found: dict[str, Any] = {"games": finished}
        try:
            games = read_games(str(season.folder / "games.csv"))
            result = calibrate(games, GRID if grid is None else grid, simulated=simulated, first=simulated,
                               play=play_records)
            found.update(skill=result.skill, low=result.low, high=result.high, level=result.level(),
                         warnings=result.warnings)
            setup = games[-1].setup
            tuned = tune(setup_from_dict(setup.to_dict() | {"skill": f"{result.skill:g}"}), "cards_per_player",
                         0.5, players=[setup.players], batch=batch, max_games=max_games, flat=False, play=play)
            t = tuned[0]
            low, high = t.point.interval
            found["tune"] = (f"{t.label} cards per player for {t.players} players gives the team a win rate of "
                             f"{t.point.rate:.0%} ({low:.0%} to {high:.0%}) at that skill")
        except HordeError as problem:
            found.setdefault("calibrate_error" if "skill" not in found else "tune_error", problem.message
                             if hasattr(problem, "message") else str(problem))
        write_file(season.folder / "season.json", json.dumps(found, indent=1) + "\n")
    finally:
        app.working.discard(season.folder)


def start_estimate(app: TableApp, season: Season) -> None:
    if not app.estimate or season.folder in app.working:
        return
    app.working.add(season.folder)
    threading.Thread(target=estimate, args=(app, season), daemon=True).start()


# ---------------------------------------------------------------- actions


def action_of(kind: str, form: dict[str, str], lists: dict[str, list[str]], players: int) -> dict[str, Any]:
    """The action a form entered, as the record keeps it."""
    action: dict[str, Any] = {"kind": kind}
    if "player" in form:
        action["player"] = form["player"]
    if kind in ("damage_horde", "damage", "lose_life", "gain_life"):
        action["amount"] = form.get("amount", "")
    if kind in ("destroy", "exile", "bounce", "tap", "damage"):
        action["id"] = form.get("id", "")
    if kind == "died":
        action["count"] = form.get("count", "")
    if kind == "end_game":
        action["winner"] = form.get("winner", "")
        action["reason"] = form.get("reason", "")
    if kind in ("answer", "pick", "counter"):
        action["choice"] = lists.get("choice", []) if "choice" in lists and len(lists["choice"]) > 1 else \
            form.get("choice", "")
    if kind in ("targets", "count", "sacrifice", "prevent"):
        fields = int(form["fields"]) if form.get("fields", "").isdigit() else players
        action["counts"] = [form.get(f"count{i + 1}", "0") or "0" for i in range(min(fields, 50))]
    if kind == "bite":
        action["fog"] = form.get("fog") == "1"
    if kind == "planeswalker":
        action["loyalty"] = form.get("loyalty", "")
        action["name"] = form.get("name", "")
    if kind == "loyalty":
        action["id"] = form.get("id", "")
        action["loyalty"] = form.get("loyalty", "")
    if kind == "hold":
        action["counter"] = form.get("counter") == "1"
        action["prevent"] = form.get("prevent") == "1"
    if kind == "counts":
        values = {}
        for k in range(50):
            key = form.get(f"key{k}")
            if key is None:
                break
            values[key] = [form.get(f"v{k}_{j}", "0") or "0" for j in range(len(key.split("|")[-1].split(",")))]
        action["values"] = values
    if kind == "blocks":
        blocks = []
        for name, value in form.items():
            if name.endswith("_player") and name.startswith("b") and value:
                stem = name[:-len("_player")]
                attacker = stem[1:].split("_")[0]
                blocks.append({"attacker": int(attacker) if attacker.isdigit() else attacker, "player": value,
                               "power": form.get(f"{stem}_power", "") or "0",
                               "toughness": form.get(f"{stem}_toughness", "") or "1",
                               "keywords": [k for k in lists.get(f"{stem}_kw", []) if k in KEYWORDS]})
        action["blocks"] = blocks
        action["fog"] = form.get("fog") == "1"
    if kind == "attack":
        attackers = []
        for r in range(1, 7):
            if form.get(f"a{r}_power", "").strip() or form.get(f"a{r}_toughness", "").strip():
                attackers.append({"player": form.get(f"a{r}_player", "1"), "power": form.get(f"a{r}_power") or "0",
                                  "toughness": form.get(f"a{r}_toughness") or "1",
                                  "keywords": [k for k in lists.get(f"a{r}_kw", []) if k in KEYWORDS]})
        action["attackers"] = attackers
    return action


def make_app(root: Path, key: str, estimate_seasons: bool = True, house: dict[str, Any] | None = None,
             house_path: str | None = None) -> Starlette:
    """The table's app over the folder ``root``, every request needing ``key``; ``house``: the
    house rules' knobs (``horde.cli.config.HouseRules.knobs``) every new game starts from."""
    app = TableApp(root, key, estimate_seasons, house, house_path)

    async def index(request: Request) -> Response:
        if not keyed(app, request):
            return refused()
        return with_cookie(app, home(app, request))

    async def open_season(request: Request) -> Response:
        if not keyed(app, request):
            return refused()
        try:
            season = app.season(request.query_params.get("group", ""), request.query_params.get("season", ""))
        except TableError as problem:
            response = home(app, request, str(problem))
            response.status_code = 400
            return response
        return RedirectResponse(season_url(season), status_code=303)

    def season_of(request: Request) -> Season:
        return app.season(request.path_params["group"], request.path_params["season"])

    async def show(request: Request) -> Response:
        if not keyed(app, request):
            return refused()
        try:
            season = season_of(request)
        except TableError as problem:
            return home(app, request, str(problem))
        return with_cookie(app, season_page(app, season))

    async def new(request: Request) -> Response:
        form = await form_of(request)
        if not keyed(app, request, form):
            return refused()
        season = season_of(request)
        knobs: dict[str, Any] = {**app.house, "preset": form.get("preset", "zombie-horde"),  # the house rules under
                                 "players": form.get("players", "3")}  # what the form gives
        for name in ("horde_deck", "boss"):
            if form.get(name, "").strip():
                knobs[name] = form[name].strip()
        for number, line in enumerate(form.get("knobs", "").splitlines(), 1):
            if not line.strip() or line.strip().startswith("#"):
                continue
            name, sep, value = line.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in KNOBS:
                return season_page(app, season, f"knobs, line {number}: expected name = value with a knob's name, "
                                                f"got {line.strip()!r}", status=400)
            knobs[name] = value.strip().strip('"')
        seed_text = form.get("seed", "").strip()
        if seed_text and not seed_text.isdigit():
            return season_page(app, season, f"seed {seed_text!r}: expected a whole number", status=400)
        seed = int(seed_text) if seed_text else random.SystemRandom().randrange(1, 10**9)
        try:
            setup = setup_from_dict(knobs, where="new game")
            season.start(setup, seed)
        except (SetupError, HordeError) as problem:
            return season_page(app, season, getattr(problem, "message", str(problem)), status=400)
        return RedirectResponse(season_url(season), status_code=303)

    async def act(request: Request) -> Response:
        form = await form_of(request)
        lists = await form_lists(request)
        if not keyed(app, request, form):
            return refused()
        season = season_of(request)
        return change(season, form, lists, undo=request.url.path.endswith("/undo"))

    def change(season: Season, form: dict[str, str], lists: dict[str, list[str]], undo: bool) -> Response:
        rev_text = form.get("rev", "")
        if not rev_text.isdigit():
            return season_page(app, season, "this form has no revision: reload the page", status=400)
        current = season.current()
        players = current[1]["setup"]["players"] if current else 1
        action = None if undo else action_of(form.get("kind", ""), form, lists, players)
        try:
            table = season.act(int(rev_text), action)
        except StaleError as problem:
            return season_page(app, season, str(problem), status=409)
        except TableError as problem:
            return season_page(app, season, f"{problem}. Nothing was changed.", status=400)
        if table.over:
            start_estimate(app, season)
        return RedirectResponse(season_url(season), status_code=303)

    async def download(request: Request) -> Response:
        if not keyed(app, request):
            return refused()
        season = season_of(request)
        name = request.path_params["name"]
        path = season.folder / name
        if name not in ("games.csv", "games-full.csv", "games.jsonl") or not path.is_file():
            return HTMLResponse(page("horde table", message("no such file yet")), 404)
        kind = "text/csv" if name.endswith(".csv") else "application/json"
        return Response(path.read_bytes(), media_type=f"{kind}; charset=utf-8")

    routes = [
        Route("/", index), Route("/open", open_season),
        Route("/s/{group}/{season}", show), Route("/s/{group}/{season}/new", new, methods=["POST"]),
        Route("/s/{group}/{season}/act", act, methods=["POST"]),
        Route("/s/{group}/{season}/undo", act, methods=["POST"]),
        Route("/s/{group}/{season}/{name}", download),
    ]
    starlette = Starlette(routes=routes)
    starlette.state.table = app
    return starlette
