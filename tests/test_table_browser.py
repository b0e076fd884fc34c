"""The table's page in a real browser (Debian's Chromium, driven by Playwright): whole games for every
opponent and a custom Horde deck with a boss and lieutenants, tapped through as players would, on a
phone-sized screen too; every control named for a screen reader; bad input refused with a message;
a server killed in the middle of a Horde turn resumes the same game.

HORDE_TABLE_SCREENSHOTS=1 writes the README's pictures (docs/images/table-*.png)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, sync_playwright
from test_report import browser

from horde.cli.tablepage import make_app
from horde.table.game import Table, new_record, setup_of
from horde.table.store import Season

KEY = "table-test-key"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 740}
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
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
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", folder
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def chromium():
    path = browser()
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        yield launched
        launched.close()


def open_page(chromium, url: str, phone: bool = False) -> Page:
    context = chromium.new_context(viewport=PHONE if phone else {"width": 1000, "height": 900})
    page = context.new_page()
    page.set_default_timeout(0)  # no time limit (a busy machine is slow, not wrong): the suite's hang guard
    page.goto(f"{url}/?key={KEY}")
    return page


def start(page: Page, group: str, season: str, preset: str, players: int, seed: int, knobs: str = "",
          horde_deck: str = "", boss: str = "") -> None:
    page.get_by_label("Group", exact=True).fill(group)
    page.get_by_label("Season", exact=True).fill(season)
    page.get_by_role("button", name="Open").click()
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
    page.get_by_role("button", name="Start the game").click()


def stat(page: Page, pattern: str) -> int:
    text = page.locator(".stats").inner_text()
    return int(re.search(pattern, text).group(1))


def ended(page: Page) -> str | None:
    heading = page.locator("section.ask h2").first
    text = heading.inner_text() if heading.count() else ""
    return text if re.search(r"wins$|stall", text) else None


def button(page: Page, name: str):
    found = page.get_by_role("button", name=name, exact=True)
    return found if found.count() else None


def our_turn(page: Page, how: str, acted: dict, amount: int = 8) -> None:
    """The players' turn: damage to the Horde (it mills) or removal, then end the turn."""
    turn = stat(page, r"turn (\d+)")
    destroy = page.get_by_role("button", name=re.compile(r"^Destroy "))
    if how == "mill" and acted.get("turn") != turn and stat(page, r"library (\d+)"):
        acted["turn"] = turn
        page.get_by_label("Damage dealt to the Horde").fill(str(min(amount, stat(page, r"library (\d+)"))))
        page.get_by_role("button", name="Deal it").click()
        return
    if destroy.count() and acted.get(("destroyed", turn), 0) < (6 if how == "destroy" else 3) and (
            how == "destroy" or not stat(page, r"library (\d+)")):
        acted[("destroyed", turn)] = acted.get(("destroyed", turn), 0) + 1
        labels = [destroy.nth(i).get_attribute("aria-label") for i in range(destroy.count())]
        first = next((label for label in labels if "Xenagos" not in label), labels[0])
        page.get_by_role("button", name=first, exact=True).click()
        return
    page.get_by_role("button", name="End our turn: the Horde plays").click()


def play_through(page: Page, how: str = "mill", limit: int = 400, shots: str = "", amount: int = 8) -> str:
    """Tap through a whole game as the players: answer what the page asks, act in our turns."""
    acted: dict = {}
    for _ in range(limit):
        result = ended(page)
        if result:
            return result
        if button(page, "Blocks declared: deal the damage"):
            if shots and not acted.get("shot"):
                acted["shot"] = True
                page.screenshot(path=f"{shots}-attack.png", full_page=True)
            page.get_by_role("button", name="Blocks declared: deal the damage").click()
        elif button(page, "The Horde picks"):
            page.get_by_role("button", name="The Horde picks").click()
        elif button(page, "Choose"):
            page.get_by_role("button", name="Choose").click()
        else:
            our_turn(page, how, acted, amount)
    raise AssertionError(f"no end after {limit} taps: {page.locator('body').inner_text()[:2000]}")


def answer_or(page: Page, name: str) -> None:
    """Answer the Horde's question if one is asked, else tap ``name``."""
    for question in ("The Horde picks", "Choose"):
        if button(page, question):
            page.get_by_role("button", name=question).click()
            return
    page.get_by_role("button", name=name).click()


def unlabelled(page: Page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll(
        'input:not([type=hidden]), select, textarea, button')].filter(c => {
        const labels = c.labels ? [...c.labels].map(l => l.textContent.trim()).join(' ') : '';
        return !((c.getAttribute('aria-label') || '').trim() || labels || c.textContent.trim());
    }).map(c => c.outerHTML)""")


def fits(page: Page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("preset, players, how", [
    ("zombie-horde", 3, "mill"),
    ("face-the-hydra", 2, "destroy"),
    ("battle-the-horde", 2, "mill"),
    ("defeat-a-god", 2, "destroy"),
])
def test_a_whole_game_through_the_page_for_each_opponent(server, chromium, preset, players, how):
    url, folder = server
    page = open_page(chromium, url, phone=preset == "zombie-horde")
    knobs = "cards_per_player = 6" if preset == "zombie-horde" else ""
    start(page, "browser", preset, preset, players, seed=3, knobs=knobs)
    shots = ""
    if preset == "zombie-horde":
        assert fits(page) and not unlabelled(page)
        shots = str(folder / "table")
        page.screenshot(path=f"{shots}-turn.png", full_page=True)
    result = play_through(page, how, shots=shots)
    assert re.search(r"(team|Horde|Hydra|Xenagos) wins$|stall", result)
    assert not unlabelled(page) and fits(page) or preset != "zombie-horde"
    season = Season(folder, "browser", preset)
    (_, record), = season.records()
    assert record["status"] == "over" and Table(record).over  # the file is the game
    rows = (season.folder / "games.csv").read_text().splitlines()
    assert rows[0].startswith("result,players,turn") and len(rows) == (2 if "stall" not in result else 1)
    if shots:
        page.screenshot(path=f"{shots}-end.png", full_page=True)
        if os.environ.get("HORDE_TABLE_SCREENSHOTS"):
            for name in ("turn", "attack", "end"):
                if Path(f"{shots}-{name}.png").exists():
                    shutil.copy(f"{shots}-{name}.png", IMAGES / f"table-{name}.png")
    page.context.close()


def test_a_custom_horde_deck_with_a_boss_and_lieutenants(server, chromium, tmp_path):
    url, folder = server
    deck = tmp_path / "table-test.txt"
    deck.write_text(CUSTOM_DECK)
    page = open_page(chromium, url, phone=True)
    start(page, "browser", "custom", "zombie-horde", 3, seed=5, horde_deck=str(deck), boss="Liliana, Death Mage",
          knobs="horde_size = 16")
    assert "boss Liliana, Death Mage" in page.locator(".stats").inner_text()
    result = play_through(page, "mill", amount=2)
    log = page.locator("section[aria-label='What happened']").inner_text()
    assert "Liliana, Death Mage" in log and "Lieutenant entry roll" in log
    assert result
    page.context.close()


def test_bad_input_gets_a_message_and_changes_nothing(server, chromium):
    url, folder = server
    page = open_page(chromium, url)
    start(page, "browser", "bad input", "zombie-horde", 2, seed=9, knobs="cards_per_player = 8")
    library = stat(page, r"library (\d+)")
    page.get_by_label("Damage dealt to the Horde").fill(str(library + 5))
    page.get_by_role("button", name="Deal it").click()
    assert f"enter at most {library}" in page.get_by_role("alert").inner_text()
    assert stat(page, r"library (\d+)") == library
    season = Season(folder, "browser", "bad input")
    path, record = season.current()
    revision = record["revision"]
    act = f"{url}/s/browser/bad%20input/act"
    response = page.request.post(act, form={"rev": str(revision), "kind": "lose_life", "amount": "-4"})
    assert response.status == 400 and "negative" in response.text()
    twice = {"rev": str(revision), "kind": "damage_horde", "amount": "1"}
    assert page.request.post(act, form=twice).status == 200  # redirected to the page
    again = page.request.post(act, form=twice)
    assert again.status == 409 and "out of date" in again.text()
    stranger = chromium.new_context()
    assert stranger.request.post(act, form={**twice, "rev": str(revision + 1)}).status == 403
    refused = stranger.new_page()
    refused.goto(f"{url}/s/browser/bad%20input")
    assert "needs the table's key" in refused.locator("body").inner_text()
    assert season.current()[1]["revision"] == revision + 1  # the one action that was taken, once
    stale = page.context.new_page()
    stale.goto(f"{url}/s/browser/bad%20input")
    page.reload()
    page.get_by_label("More knobs", exact=False).count()
    page.get_by_text("End the game another way").click()
    page.get_by_role("button", name="We lost").click()
    assert ended(page)
    stale.get_by_label("Damage dealt to the Horde").fill("1")
    stale.get_by_role("button", name="Deal it").click()
    assert "over" in stale.get_by_role("alert").inner_text()
    stranger.close()
    page.context.close()


def test_a_server_killed_in_the_horde_turn_resumes_the_same_game(chromium, tmp_path):
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
        page = open_page(chromium, url, phone=True)
        start(page, "kill", "s1", "zombie-horde", 3, seed=21, knobs="cards_per_player = 10")
        for _ in range(60):
            if button(page, "Blocks declared: deal the damage"):
                break
            answer_or(page, "End our turn: the Horde plays")
        assert fits(page) and not unlabelled(page)  # the blocks question on a phone
        if os.environ.get("HORDE_TABLE_SCREENSHOTS"):
            page.screenshot(path=str(IMAGES / "table-attack.png"), full_page=True)
        before = page.locator("section.ask").inner_text(), page.locator("section[aria-label='What happened']").inner_text()
        process.kill()  # SIGKILL in the Horde's turn: the attackers are declared, blocks not yet
        process.wait(10)
        process = serve()
        page.reload()
        after = page.locator("section.ask").inner_text(), page.locator("section[aria-label='What happened']").inner_text()
        assert after == before
        page.get_by_role("button", name="Blocks declared: deal the damage").click()
        while not button(page, "End our turn: the Horde plays"):
            answer_or(page, "Blocks declared: deal the damage")
        page.get_by_role("button", name="End our turn: the Horde plays").click()
        record = Season(tmp_path, "kill", "s1").current()[1]
        fresh = dict(new_record(setup_of(record), record["seed"]), actions=record["actions"])
        assert Table(fresh).game.drivers.trace == Table(record).game.drivers.trace  # the same next reveal and rolls
        reveals = [e for e in Table(record).game.drivers.trace if e["event"] == "reveal"]
        assert ", ".join(reveals[-1]["cards"]) in page.locator("section[aria-label='What happened']").inner_text()
        page.context.close()
    finally:
        process.kill()
        process.wait(10)
