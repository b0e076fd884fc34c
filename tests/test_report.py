"""``horde report``: one HTML page with every picture embedded, checked in a real headless
browser (Debian's Chromium) for anything that fails to load."""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess

import pandas as pd
import pytest
from click.testing import CliRunner
from results_tables import difficulty_games, write_results

from horde.cli import cli
from horde.report import write_report

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


@pytest.fixture
def results_folder(tmp_path):
    return write_results(tmp_path / "difficulty-0123456789", difficulty_games())


def image_sources(page: str) -> list[str]:
    return re.findall(r'<img [^>]*src="([^"]*)"', page)


def test_report_embeds_every_picture_and_the_setup(results_folder, tmp_path):
    path = write_report(results_folder, images=tmp_path / "images")
    assert path == results_folder / "report.html"
    page = path.read_text(encoding="utf-8")
    sources = image_sources(page)
    assert len(sources) == 4  # difficulty, survival, game length, card impact
    for source in sources:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    assert not re.search(r'(src|href)="(?!data:)', page)  # nothing fetched from anywhere else
    assert "default-src 'none'" in page  # and the browser would refuse it
    assert "Team win rate against cards per player" in page
    assert "<pre>name = &quot;tiny&quot;" in page  # experiment.toml, escaped
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == [
        "card-impact.png", "difficulty-cards-per-player.png", "survival.png", "turns.png"]


def test_report_of_one_cell_has_no_curve_but_says_why(tmp_path):
    games = difficulty_games()
    games = games[(games["players"] == 2) & (games["cards_per_player"] == 10)]
    path = write_report(write_results(tmp_path / "one-cell", games))
    page = path.read_text(encoding="utf-8")
    assert "no knob to draw a curve against" in page
    assert len(image_sources(page)) == 3


def test_report_command_writes_the_page_and_explains_bad_folders(results_folder, tmp_path):
    out = tmp_path / "elsewhere" / "page.html"
    result = CliRunner().invoke(cli, ["report", str(results_folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"report: {out}" in result.output and out.exists()
    result = CliRunner().invoke(cli, ["report", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: {tmp_path / 'nowhere'}: no such results folder "
                                                  "(expected the folder `horde run` wrote, like results/NAME-HASH/)"]


# -- in a real browser ---------------------------------------------------------------------------

def browser() -> str:
    """The headless browser's path; skips (or fails, when HORDE_REQUIRE_BROWSER is set) without one."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    reason = ("browser check of the report page skipped: Chromium is not installed "
              "(on Debian: apt-get install chromium)")
    if os.environ.get("HORDE_REQUIRE_BROWSER"):
        pytest.fail(reason.replace("skipped", "required (HORDE_REQUIRE_BROWSER is set)"))
    pytest.skip(reason)


def load_in_browser(path, profile) -> dict:
    """Open the page headless and return its root element's attributes after it loaded."""
    command = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
               "--dump-dom", path.resolve().as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    match = re.search(r"<html([^>]*)>", done.stdout)
    assert match, f"the browser printed no page (exit {done.returncode}): {done.stderr[-2000:]}"
    return dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1)))


def test_report_loads_in_a_headless_browser_without_errors(results_folder, tmp_path):
    path = write_report(results_folder)
    root = load_in_browser(path, tmp_path / "profile")
    assert root.get("data-load-errors") == "none"
    assert root.get("data-images") == "4"


def test_the_browser_check_catches_a_broken_and_a_remote_picture(results_folder, tmp_path):
    page = write_report(results_folder).read_text(encoding="utf-8")
    start = page.index("base64,") + len("base64,")
    broken = tmp_path / "broken.html"
    broken.write_text(page[:start] + "AAAA" + page[start + 64:], encoding="utf-8")
    root = load_in_browser(broken, tmp_path / "profile-1")
    assert "could not load img difficulty-cards-per-player" in root["data-load-errors"]
    remote = tmp_path / "remote.html"
    remote.write_text(page.replace("<h1>", '<img src="https://example.invalid/x.png" alt="remote"><h1>', 1),
                      encoding="utf-8")
    root = load_in_browser(remote, tmp_path / "profile-2")
    assert "blocked https://example.invalid/x.png" in root["data-load-errors"]


def test_a_report_of_real_games_loads_in_the_browser(test_decks, tmp_path):
    from horde import analysis
    from horde.presets import make_setup
    from horde.runner import play_many

    frames = []
    for cell, cards in enumerate((6, 12)):
        setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", players=2,
                           cards_per_player=cards)
        frames.append(analysis.games_table(play_many(setup, 1, 30, workers=1, progress=False), cell=cell))
    folder = tmp_path / "real"
    folder.mkdir()
    pd.concat(frames, ignore_index=True).to_parquet(folder / "games.parquet")
    path = write_report(folder)
    assert len(image_sources(path.read_text(encoding="utf-8"))) >= 3
    assert load_in_browser(path, tmp_path / "profile")["data-load-errors"] == "none"


def test_summary_command_prints_win_rates_per_cell(results_folder):
    """players 2, cards 10: 10 - 2 + 2 = 10 team wins of 10 games; cards 30: 10 - 6 + 2 = 6."""
    result = CliRunner().invoke(cli, ["summary", str(results_folder), "--markdown"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "| players | cards_per_player | games | team win rate (Wilson 95%) | mean turns |"
    assert "| 2 | 10 | 10 | 100.0% (72.2%-100.0%) | 9.5 |" in lines
    assert "| 2 | 30 | 10 | 60.0% (31.3%-83.2%) | 9.5 |" in lines
