"""The table's page in a real browser (Debian's Chromium, driven by Playwright): a whole game for every
opponent and for a custom Horde deck with a boss and lieutenants, tapped through as players would on a
phone-sized screen; what only the players know asked on the page (a counterspell, a count of their
cards, who sacrifices, prevention, a smart Horde's target); every control named for a screen reader;
bad input refused with a message; a server killed in the middle of a Horde turn resumes the same game.

One browser tab and one server serve the module. A whole game starts from the page and is played to
its end through it, reading only what the page shows and tapping what a player taps; small decks and
few turns keep each to a handful of page loads. The other tests play the game to the moment they are
about through the model (``horde.table``, what the page's actions do) and take the last steps on the
page. HORDE_TABLE_SCREENSHOTS=1 writes the README's pictures (docs/images/table-*.png)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import uvicorn
from browsers import browser, playwright
from test_table import fixed_deck

from horde.cli.tablepage import make_app
from horde.setup import make_setup
from horde.table.game import Table, new_record, setup_of
from horde.table.store import Season

if TYPE_CHECKING:
    from playwright.sync_api import Page

sync_playwright = playwright("the table's page").sync_playwright  # skips this module without Playwright

KEY = "table-test-key"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio"]
PHONE = {"width": 375, "height": 740}
LAPTOP = {"width": 1000, "height": 900}
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SHOTS = bool(os.environ.get("HORDE_TABLE_SCREENSHOTS"))
CUSTOM_DECK = """// A small fixed Horde deck with a boss and lieutenants (the table test's)
About
Name table-test
Kind horde
Build fixed

Deck
2 Walking Corpse
2 Carrion Wurm
1 Cackling Fiend
1 Severed Legion

Tokens
10 Zombie

Bosses
1 Liliana, Death Mage

Lieutenants
1 Balthor the Defiled
1 Boris Devilboon

Equipment
1 Bonesplitter
"""
# What a player sees, read at once: the question, the game's figures, every button, a message, the log.
LOOK = """() => {
    const text = (selector) => { const e = document.querySelector(selector); return e ? e.innerText : ''; };
    return {heading: text('section.ask h2'), stats: text('.stats'), alert: text('[role=alert]'),
            log: text("section[aria-label='What happened']"),
            buttons: [...document.querySelectorAll('button')].map(b => (b.getAttribute('aria-label') || b.innerText).trim())};
}"""
# Every control named for a screen reader, and nothing wider than the screen.
CHECK = """() => {
    const unnamed = [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')].filter(c => {
        const labels = c.labels ? [...c.labels].map(l => l.textContent.trim()).join(' ') : '';
        return !((c.getAttribute('aria-label') || '').trim() || labels || c.textContent.trim());
    }).map(c => c.outerHTML);
    return {unnamed, fits: document.documentElement.scrollWidth <= window.innerWidth};
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table")
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(make_app(folder, KEY, estimate_seasons=False), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:  # no deadline: a server that never starts fails by the suite's hang guard
        assert thread.is_alive(), "the server ended before it started"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", folder
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def chromium():
    path = browser("the table's page")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page(chromium, server):
    """The module's one tab, on a phone's screen, holding the table's key (the link's cookie)."""
    url, _ = server
    context = chromium.new_context(viewport=PHONE)
    tab = context.new_page()
    tab.set_default_timeout(0)  # no time limit (a busy machine is slow, not wrong): the suite's hang guard
    tab.goto(f"{url}/?key={KEY}")
    yield tab
    context.close()


def look(page: Page) -> dict:
    return page.evaluate(LOOK)


def checked(page: Page, seen: set, what: str) -> None:
    """Each kind of page once: every control named, and it fits the phone's screen."""
    if what in seen:
        return
    seen.add(what)
    found = page.evaluate(CHECK)
    assert not found["unnamed"] and found["fits"], (what, found)


def tap(page: Page, name: str) -> dict:
    """Tap a button (named as a screen reader names it) and wait for the page it leads to."""
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()
    return look(page)


def number(stats: str, label: str) -> int:
    return int(stats.split(label, 1)[1].split()[0])


def start(page: Page, url: str, preset: str, players: int, seed: int, knobs: str = "", horde_deck: str = "",
          boss: str = "") -> dict:
    """A new game started on the whole games' season page (the page a finished game leaves on), as
    a group starts one."""
    season = f"{url}/s/browser/games"
    if page.url != season:
        page.goto(season)
    page.get_by_label("Preset", exact=True).select_option(preset)
    page.get_by_label("Players", exact=True).select_option(str(players))
    page.get_by_label("Seed", exact=True).fill(str(seed))
    if horde_deck:
        page.get_by_label("Horde deck", exact=True).fill(horde_deck)
    if boss:
        page.get_by_label("Boss", exact=True).fill(boss)
    if knobs:
        page.get_by_text("More knobs and house rules").click()
        page.get_by_label("More knobs, one a line").fill(knobs)
    return tap(page, "Start the game")


def play_through(page: Page, seen: set, *, wait: int = 1, block: bool = False, fog: bool = False,
                 mill: bool = True, shots: str = "") -> dict:
    """Tap through a game to its end as the players: end the first ``wait`` turns, answer what the
    page asks (the first attacker blocked by a big creature with ``block``; the Hydra's bite fogged
    with ``fog``), then deal the Horde its library (``mill``) and exile (or destroy) what is left.
    ``shots``: where the pictures of our first turn and of the end go."""
    now = look(page)
    turns = 0
    for _ in range(40):
        buttons = now["buttons"]
        if now["heading"].endswith("wins") or "stall" in now["heading"]:
            if shots:
                page.screenshot(path=f"{shots}-end.png", full_page=True)
            return now
        blocks = "Blocks declared: deal the damage" in buttons
        checked(page, seen, "blocks" if blocks else now["heading"].split(":")[0])
        if blocks:
            if block:  # the first attacker, by a 99/99 of player 1's
                page.get_by_label(re.compile(r"^Who blocks .*, blocker 1$")).first.select_option("1")
                page.get_by_label(re.compile(r"^Power of blocker 1 of ")).first.fill("99")
                page.get_by_label(re.compile(r"^Toughness of blocker 1 of ")).first.fill("99")
            now = tap(page, "Blocks declared: deal the damage")
        elif "The Heads bite" in buttons:
            if fog:
                page.get_by_label("A fog: prevent the bite (F2)").check()
            now = tap(page, "The Heads bite")
        elif "End our turn: the Horde plays" not in buttons:  # a question: its first answer
            now = tap(page, next(b for b in ("The Horde picks", "Count it", "Sacrificed", "Prevent it", "Choose")
                                 if b in buttons))
        else:
            turns += 1
            library = number(now["stats"], "library ")
            removable = [b for b in buttons if b.startswith(("Exile ", "Destroy "))]
            if turns <= wait:
                if shots and turns == 1:
                    page.screenshot(path=f"{shots}-turn.png", full_page=True)
                now = tap(page, "End our turn: the Horde plays")
            elif mill and library:
                page.get_by_label("Damage dealt to the Horde").fill(str(library))
                now = tap(page, "Deal it")
            elif removable:
                kind = "Exile " if mill else "Destroy "
                mine = [b for b in removable if b.startswith(kind)]
                now = tap(page, next((b for b in mine if "Xenagos" not in b), mine[0]))
            else:
                now = tap(page, "End our turn: the Horde plays")
    raise AssertionError(f"no end after 40 taps: {now}")


def finished(folder: Path) -> dict:
    """The last game's file, which is the game: over, and the last row of games.csv, won."""
    record = Season(folder, "browser", "games").records()[-1][1]
    assert record["status"] == "over" and Table(record).over
    rows = (folder / "browser" / "games" / "games.csv").read_text().splitlines()
    assert rows[0].startswith("result,players,turn") and rows[-1].startswith(f"won,{record['setup']['players']},")
    return record


def test_a_whole_game_of_the_horde_on_a_phone_with_a_planeswalker_attacked(page, server):
    url, folder = server
    seen: set = set()
    if page.url != f"{url}/?key={KEY}":
        page.goto(f"{url}/?key={KEY}")
    page.get_by_label("Group", exact=True).fill("browser")
    page.get_by_label("Season", exact=True).fill("games")
    tap(page, "Open")
    now = start(page, url, "zombie-horde", 2, seed=2, knobs="cards_per_player = 3\ngrace_turns = 1")
    assert "turn 1" in now["stats"] and "library 6" in now["stats"]
    page.get_by_text("A planeswalker of ours enters").click()
    page.get_by_label("The planeswalker's name").fill("Chandra")
    page.get_by_label("Its loyalty").fill("3")
    page.get_by_label("Whose planeswalker").select_option("2")
    tap(page, "It enters")
    assert "Chandra (player 2's) (#" in page.locator("section[aria-label='Our side']").inner_text()
    if SHOTS:
        page.set_viewport_size(LAPTOP)
    end = play_through(page, seen, block=True, shots=str(folder / "table") if SHOTS else "")
    page.set_viewport_size(PHONE)
    assert end["heading"] == "The team wins"
    assert "attacks Chandra (player 2's) (" in end["log"]  # H8: the Horde attacked the planeswalker
    assert "Elspeth, Knight-Errant" in end["log"] and "player 1's 99/99 blocker blocks" in end["log"]
    record = finished(folder)
    assert [a["kind"] for a in record["actions"]] == ["planeswalker", "end_turn", "targets", "targets", "blocks",
                                                     "damage_horde", "exile"]
    if SHOTS:  # the README's pictures of our turn and of the end (the attack's: on the phone, below)
        for name in ("turn", "end"):
            (IMAGES / f"table-{name}.png").write_bytes((folder / f"table-{name}.png").read_bytes())


@pytest.mark.parametrize("preset, seed, how", [
    ("face-the-hydra", 6, {"mill": False, "fog": True}),
    ("battle-the-horde", 1, {"block": True}),
    ("defeat-a-god", 4, {"mill": False}),
])
def test_a_whole_game_against_each_challenge_deck(page, server, preset, seed, how):
    url, folder = server
    seen: set = set()
    knobs = {"face-the-hydra": "hydra_heads = 1", "battle-the-horde": "grace_turns = 1",
             "defeat-a-god": "god_throngs = 1"}[preset]
    start(page, url, preset, 1, seed=seed, knobs=knobs)
    end = play_through(page, seen, **how)
    assert end["heading"] == "The team wins"
    record = finished(folder)
    if preset == "face-the-hydra":
        assert "bite: 1 damage to each player (F2)\nAll combat damage this turn is prevented" in end["log"]
        assert "damage to player 1" not in end["log"]  # F2: the fog stopped the bite
        assert [a["kind"] for a in record["actions"]] == ["end_turn", "bite", "destroy", "end_turn"]
    if preset == "defeat-a-god":
        assert "Xenagos" in end["log"]


def test_a_whole_game_against_a_custom_horde_deck_with_a_boss_and_lieutenants(page, server, tmp_path):
    url, folder = server
    deck = tmp_path / "table-test.txt"
    deck.write_text(CUSTOM_DECK)
    now = start(page, url, "zombie-horde", 3, seed=4, horde_deck=str(deck), boss="Liliana, Death Mage",
                knobs="horde_size = 8\ngrace_turns = 1")
    assert "boss Liliana, Death Mage" in now["stats"]
    end = play_through(page, set(), block=True)
    assert end["heading"] == "The team wins"
    for words in ("Liliana, Death Mage activates", "Lieutenant entry roll", "enters the battlefield under the Horde's "
                  "control with"):
        assert words in end["log"], words
    finished(folder)


def season_at(folder: Path, name: str, setup, seed: int, actions: list[dict], until=None) -> Season:
    """A season whose game was played through the model (what the page's actions do) up to the moment
    a test is about: ``actions``, then the plainest answers (end the turn, no block, nothing counted,
    the first option) until ``until(question)`` holds."""
    season = Season(folder, "browser", name)
    season.start(setup, seed)
    for revision, action in enumerate(actions):
        table = season.act(revision, action)
    table = season.table(*season.current())
    while until is not None and not until(table.question):
        q = table.question
        action = ({"kind": "end_turn"} if q.kind == "turn" else {"kind": "blocks", "blocks": []} if q.kind == "blocks"
                  else {"kind": "bite"} if q.kind == "bite" else {"kind": q.answer, "counts": [0] * len(q.fields)}
                  if q.fields else {"kind": q.answer, "choice": q.default})
        table = season.act(table.record["revision"], action)
    return season


def small_setup(folder: Path, *lines: str, **knobs):
    knobs = {"players": 2, "boss": "none", "lieutenants": False, "grace_turns": 1, **knobs}
    return make_setup("zombie-horde", horde_deck=fixed_deck(folder, *lines, name="-".join(lines).replace(" ", "")),
                      **knobs)


def test_H10_a_counterspell_and_prevention_the_players_report_on_the_page(page, server):
    url, folder = server
    seen: set = set()
    setup = small_setup(folder, "2 Sizzle", horde_size=2, reveal="escalating", reveal_base=2)  # both in one turn
    season_at(folder, "counter", setup, 1, [])
    page.goto(f"{url}/s/browser/counter")
    page.get_by_text("We hold a counterspell or a way to prevent damage").click()
    page.get_by_label("we can counter a spell: ask before each Horde spell resolves (H10)").check()
    page.get_by_label("we can prevent damage: ask before the Horde deals us damage outside combat").check()
    tap(page, "Keep this")
    now = tap(page, "End our turn: the Horde plays")
    assert now["heading"] == "The Horde casts Sizzle: do you counter it (H10)?"
    checked(page, seen, "choice")
    page.get_by_label("Player 2 counters it").check()
    now = tap(page, "Choose")
    assert "Player 2 casts a counterspell, countering Sizzle (H10)" in now["log"]
    now = tap(page, "Choose")  # the second Sizzle: the first answer, it resolves
    assert now["heading"] == "A Horde spell would deal 3 damage to player 1 (not combat damage): how much of it do you " \
                             "prevent?"
    checked(page, seen, "numbers")
    page.get_by_label("Damage prevented: how many").fill("3")
    tap(page, "Prevent it")
    page.get_by_label("Damage prevented: how many").fill("1")
    now = tap(page, "Prevent it")
    assert number(now["stats"], "team life ") == 38  # 3 and 1 of 3 and 3 prevented
    assert "3 damage that a Horde spell would deal to player 1 is prevented" in now["log"]
    assert now["heading"] == "The team wins"  # the library is empty and the Horde has no creature (H12)


def test_counts_of_our_cards_and_who_sacrifices_asked_on_the_page(page, server):
    url, folder = server
    seen: set = set()
    season_at(folder, "mortivore", small_setup(folder, "3 Mortivore", horde_size=3), 1, [{"kind": "end_turn"}])
    page.goto(f"{url}/s/browser/mortivore")
    now = look(page)
    assert now["heading"].startswith("Mortivore: it counts your cards: how many creature cards are in each of your "
                                     "graveyards?")
    checked(page, seen, "numbers")
    page.get_by_label("Player 1: how many").fill("2")
    page.get_by_label("Player 2: how many").fill("1")
    now = tap(page, "Count it")
    assert "Mortivore (#0) 3/3" in page.locator("section.ask").inner_text()  # the Horde's 0 and our 2 and 1
    tap(page, "Blocks declared: deal the damage")
    page.get_by_label("creature cards in each of your graveyards (Mortivore): player 1").fill("4")
    tap(page, "These are the counts now")
    assert "Mortivore (#0) 5/5" in page.locator("section[aria-label=\"The Horde's battlefield\"]").inner_text()

    season_at(folder, "fleshbag", small_setup(folder, "1 Blood Artist", "1 Fleshbag Marauder", horde_size=2), 2,
              [], until=lambda q: q.answer == "sacrifice")
    page.goto(f"{url}/s/browser/fleshbag")
    assert look(page)["heading"] == "Fleshbag Marauder: each of you sacrifices a creature: who has one?"
    checked(page, seen, "who")
    page.get_by_label("Player 1", exact=True).check()
    now = tap(page, "Sacrificed")
    assert "Player 1 sacrifices 1 creature\nPlayer 2 sacrifices no creature" in now["log"]


def test_H9s_a_smart_horde_asks_whose_is_the_most_valuable_target_on_the_page(page, server):
    url, folder = server
    season_at(folder, "smart", small_setup(folder, "2 Cruel Revival", horde_size=2, horde_choices="smart"), 1,
              [{"kind": "end_turn"}])
    page.goto(f"{url}/s/browser/smart")
    now = look(page)
    assert now["heading"].startswith("Cruel Revival: it targets a non-Zombie creature: the smart Horde takes your "
                                     "most valuable one")
    page.get_by_label("player 2", exact=True).check()
    now = tap(page, "Choose")
    assert "player 2's most valuable non-Zombie creature" in now["log"]


def test_bad_input_gets_a_message_and_changes_nothing(page, server, chromium):
    url, folder = server
    season = season_at(folder, "bad input", make_setup("zombie-horde", players=2, cards_per_player=8), 9, [])
    act = f"{url}/s/browser/bad%20input/act"
    page.goto(f"{url}/s/browser/bad%20input")
    library = number(look(page)["stats"], "library ")
    page.get_by_label("Damage dealt to the Horde").fill(str(library + 5))
    now = tap(page, "Deal it")
    assert f"enter at most {library}" in now["alert"] and number(now["stats"], "library ") == library
    response = page.request.post(act, form={"rev": "0", "kind": "lose_life", "amount": "-4"})
    assert response.status == 400 and "negative" in response.text()
    twice = {"rev": "0", "kind": "damage_horde", "amount": "1"}
    assert page.request.post(act, form=twice).status == 200  # redirected to the page
    again = page.request.post(act, form=twice)
    assert again.status == 409 and "out of date" in again.text()
    stranger = chromium.new_context()
    assert stranger.request.post(act, form={**twice, "rev": "1"}).status == 403
    refused = stranger.new_page()
    refused.goto(f"{url}/s/browser/bad%20input")
    assert "needs the table's key" in refused.locator("body").inner_text()
    stranger.close()
    assert season.current()[1]["revision"] == 1  # the one action that was taken, once
    page.reload()
    now = tap(page, "Undo the last thing entered")
    assert number(now["stats"], "library ") == library and season.current()[1]["actions"] == []  # undone
    stale = page.context.new_page()
    stale.goto(f"{url}/s/browser/bad%20input")
    page.reload()
    page.get_by_text("End the game another way").click()
    assert tap(page, "We lost")["heading"].endswith("wins")
    stale.get_by_label("Damage dealt to the Horde").fill("1")
    with stale.expect_navigation():
        stale.get_by_role("button", name="Deal it").click()
    assert "over" in stale.get_by_role("alert").inner_text()
    stale.close()


def test_a_server_killed_in_the_horde_turn_resumes_the_same_game(page, tmp_path):
    setup = make_setup("zombie-horde", players=3, cards_per_player=10)
    season_at(tmp_path, "s1", setup, 21, [], until=lambda q: q.kind == "blocks")  # to the Horde's attack
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "horde.cli", "table", "--folder", str(tmp_path), "--port", str(port), "--key", KEY,
               "--no-estimate"]

    def serve() -> subprocess.Popen:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        while process.poll() is None:  # until it listens (no deadline: the suite's hang guard)
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                return process
            except OSError:
                time.sleep(0.05)
        raise AssertionError(process.stdout.read().decode())

    process = serve()
    try:
        page.goto(f"{url}/s/browser/s1?key={KEY}")
        before = look(page)
        assert "Blocks declared: deal the damage" in before["buttons"]
        checked(page, set(), "blocks")  # the blocks question on a phone
        if SHOTS:
            page.screenshot(path=str(IMAGES / "table-attack.png"), full_page=True)
        process.kill()  # SIGKILL in the Horde's turn: the attackers are declared, blocks not yet
        process.wait(10)
        process = serve()
        page.reload()
        assert look(page) == before
        now = tap(page, "Blocks declared: deal the damage")
        while "End our turn: the Horde plays" not in now["buttons"]:
            now = tap(page, "Choose" if "Choose" in now["buttons"] else "The Horde picks")
        now = tap(page, "End our turn: the Horde plays")  # the next Horde turn: its reveal and rolls
        record = Season(tmp_path, "browser", "s1").current()[1]
        replayed = Table(dict(new_record(setup_of(record), record["seed"]), actions=record["actions"]))
        reveal = [e for e in replayed.game.drivers.trace if e["event"] == "reveal"][-1]
        assert f"The Horde reveals {', '.join(reveal['cards'])}" in now["log"]  # as the game's file replays it
    finally:
        process.kill()
        process.wait(10)
