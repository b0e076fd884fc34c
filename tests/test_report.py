"""``horde report``: one HTML page with every picture embedded, checked in a real headless
browser (Debian's Chromium) for anything that fails to load."""

from __future__ import annotations

import base64
import html
import re
import struct
import subprocess

import pandas as pd
import pytest
from browsers import browser
from click.testing import CliRunner
from results_tables import difficulty_games, write_results

from horde.cli import cli
from horde.lab import analysis
from horde.lab.report import write_report


@pytest.fixture
def results_folder(tmp_path):
    return write_results(tmp_path / "difficulty-0123456789", difficulty_games())


@pytest.fixture(scope="module")
def report_min5(tmp_path_factory):
    """The page of the difficulty results at a card minimum of 5, written once for the tests that
    only read it (a page's pictures take most of a test's time)."""
    folder = write_results(tmp_path_factory.mktemp("report") / "difficulty-0123456789", difficulty_games())
    return write_report(folder, min_games=5)


@pytest.fixture(scope="module")
def report_default(tmp_path_factory):
    """The page of the difficulty results at the default card minimum, written once likewise."""
    folder = write_results(tmp_path_factory.mktemp("report") / "difficulty-0123456789", difficulty_games())
    return write_report(folder)


def image_sources(page: str) -> list[str]:
    return re.findall(r'<img [^>]*src="([^"]*)"', page)


SECTIONS = ["Summary", "Difficulty heat map", "Settings for the target, by level", "Team win rate against cards per player", "Survival", "Game length",
            "Win rate by boss", "Win rate by lieutenants drawn", "Card impact, pooled over cells", "Swings",
            "Comparison", "Setup"]
PICTURES = ["heat-map-cards-per-player", "difficulty-cards-per-player", "survival", "turns", "survival-by-boss",
            "card-impact"]


def headings(page: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r"<h2>([^<]*)</h2>", page)]


def without_pictures(page: str) -> str:
    return re.sub(r'src="data:[^"]*"', 'src=""', page)


def test_report_embeds_every_picture_and_the_setup(results_folder, tmp_path):
    path = write_report(results_folder, images=tmp_path / "images", min_games=5)
    assert path == results_folder / "report.html"
    page = path.read_text(encoding="utf-8")
    assert headings(page) == SECTIONS
    sources = image_sources(page)
    assert re.findall(r'<img id="([^"]*)"', page) == PICTURES
    for source in sources:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    assert not re.search(r'(src|href)="(?!data:|#)', page)  # nothing fetched from anywhere else
    assert "default-src 'none'" in page  # and the browser would refuse it
    assert "<pre>name = &quot;tiny&quot;" in page  # experiment.toml, escaped
    assert "<details><summary>manifest.json" in page  # folded away
    assert not re.search(r"\bnan\b", without_pictures(page), re.IGNORECASE)
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == sorted(f"{name}.png" for name in PICTURES)


def test_every_picture_has_alt_text_that_says_what_it_shows(report_min5):
    page = report_min5.read_text(encoding="utf-8")
    alts = dict(re.findall(r'<img id="([^"]*)" alt="([^"]*)"', page))
    assert set(alts) == set(PICTURES)
    expected = {"heat-map-cards-per-player": ["Heat map of the team win rate, rows players (2 and 3), columns cards "
                                              "per player (10, 20 and 30)", "Highest 100% (players=2, cards per "
                                              "player=10), lowest 60% (players=2, cards per player=30)",
                                              "no cell within the target band 45% to 55%"],
                "difficulty-cards-per-player": ["2 players: 100% at 10, 60% at 30; 3 players: 100% at 10, 70% at 30"],
                "survival": ["by player count"], "turns": ["Horde turns: median 4, from 2 to 6"],
                "survival-by-boss": ["Elspeth Tirel: never half lost, alive at the end in 87%"],
                "card-impact": ["Most harmful: "]}
    for name, fragments in expected.items():
        for fragment in fragments:
            assert fragment in html.unescape(alts[name]), (name, alts[name])


def test_report_shows_the_boss_lieutenant_and_comparison_sections(report_min5):
    page = html.unescape(report_min5.read_text(encoding="utf-8"))
    # bosses alternate by game: in every cell Elspeth plays the even games, which the team wins at least as often
    assert "<td class=\"text\">Elspeth Tirel</td><td>6</td><td>30</td>" in page  # 6 cells, 30 games
    assert "Per cell: team win rate (Wilson 95%), games, of those that drew each lieutenant" in page
    # players 2, 20 cards against 10: the team lost games 8 and 9 (-20 points); 3 players lost game 9 (-10)
    assert re.search(r"<td class=\"text\">20 against 10</td><td>-20.0 \([^)]*\)</td><td>-10.0 \([^)]*\)</td>"
                     r"<td>-15.0 \([^)]*\)</td><td>20</td>", page)


def test_the_heat_map_outlines_only_real_cells_and_the_target_section_names_the_level(tmp_path):
    # grace turns 3 at 20 cards per player and 2 at 10 and 30: every cell of
    # a map is one whole setting, so there is one map for each grace turns value, never a pooled one.
    games = difficulty_games()
    games["grace_turns"] = [2 if cards != 20 else 3 for cards in games["cards_per_player"]]
    games["game"] = range(len(games))  # no two games on the same seed: the arms are not compared
    folder = write_results(tmp_path / "graced", games)
    page = html.unescape(write_report(folder, min_games=5, target=0.7, band=0.05).read_text(encoding="utf-8"))
    maps = [name for name in re.findall(r'<img id="([^"]*)"', page) if name.startswith("heat-map")]
    assert len(maps) == 2 + 3  # cards per player at 2 and 3 grace turns; grace turns at 10, 20 and 30 cards
    assert "Team win rate by player count and cards per player, at grace turns=2;" in page
    heat = page.split("<h2>Difficulty heat map</h2>")[1].split("<h2>")[0]
    assert "Pooled over" not in heat and "at grace turns=3" in heat and "at cards per player=20" in heat
    # 3 players: 70% at 30 cards and 2 grace turns; 2 players: 60% at 30 cards, 80% at 20
    assert re.search(r'<td class="text">club</td><td class="text">3</td><td class="text">grace turns=2, cards '
                     r'per player=30</td><td>70.0% \([^)]*\)</td>', page)
    assert re.search(r'<td class="text">club</td><td class="text">2</td><td class="text">grace turns=2, cards '
                     r'per player=30</td><td>60.0% \([^)]*\)</td><td class="text">grace turns=2, cards per '
                     r'player=30; grace turns=3, cards per player=20</td>', page)


def test_report_gives_a_calibrated_table_its_answer_first(results_folder, tmp_path):
    calibrated = tmp_path / "our-table.toml"
    calibrated.write_text("skill = 0.62\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", str(results_folder), "--skill", str(calibrated)])
    assert result.exit_code == 0, result.output
    page = html.unescape((results_folder / "report.html").read_text(encoding="utf-8"))
    assert ("Your table plays at skill 0.62 (between novice and club), and no game of these results does: run the "
            "experiment with skill = '0.62'") in page
    write_report(results_folder, skill="club")
    page = html.unescape((results_folder / "report.html").read_text(encoding="utf-8"))
    assert "Your table plays at club: its rows come first." in page


def test_report_without_enough_games_for_card_impact_says_so(report_default):
    page = report_default.read_text(encoding="utf-8")
    assert "No card has 100 games on each side yet" in page
    assert "card-impact" not in re.findall(r'<img id="([^"]*)"', page)


def test_report_of_one_cell_has_no_curve_but_says_why(tmp_path):
    games = difficulty_games()
    games = games[(games["players"] == 2) & (games["cards_per_player"] == 10)]
    path = write_report(write_results(tmp_path / "one-cell", games))
    page = path.read_text(encoding="utf-8")
    assert "no knob to draw a curve against" in page and "no knob to map" in page
    assert "One cell and no second folder: nothing to compare" in page
    assert "two players draw none" in html.unescape(page)  # no lieutenant section to show
    assert re.findall(r'<img id="([^"]*)"', page) == ["survival", "turns", "survival-by-boss"]


def test_report_setup_shows_unset_knobs_as_a_dash(tmp_path):
    games = difficulty_games().assign(commander_casts=None, policy_params="{}", token_percent=float("nan"))
    page = write_report(write_results(tmp_path / "unset", games)).read_text(encoding="utf-8")
    for knob in ("commander_casts", "policy_params", "token_percent"):
        assert re.search(rf'<td class="text">{knob}</td><td class="text">—</td>', page), knob
    assert not re.search(r"\bnan\b", without_pictures(page), re.IGNORECASE)
    assert "None" not in without_pictures(page)


def test_report_compares_a_second_folder_on_the_same_seeds(results_folder, tmp_path):
    """B: the same games with the careful policy, which also wins game 9 of every cell. A won 50 of
    60 (game 9 in the two 10-card cells only), B 54: four pairs only B won."""
    other = difficulty_games().assign(policy="careful")
    other.loc[other["game"] == 9, "winner"] = "team"
    folder = write_results(tmp_path / "careful", other)
    path = write_report(results_folder, compare=folder)
    page = html.unescape(path.read_text(encoding="utf-8"))
    assert f"A: {results_folder} (tiny) against B: {folder} (tiny)" in page
    assert "Paired by seed, game index and players, cards_per_player" in page
    assert re.search(r"<td class=\"text\">all</td><td class=\"text\">all</td><td>60</td><td>83.3%</td>"
                     r"<td>90.0%</td><td>0</td><td>4</td><td>-6.7 \(", page)


def test_report_command_writes_the_page_and_explains_bad_folders(results_folder, tmp_path):
    out = tmp_path / "elsewhere" / "page.html"
    result = CliRunner().invoke(cli, ["report", str(results_folder), "--out", str(out), "--target", "0.8",
                                      "--band", "0.1", "--min-games", "5"])
    assert result.exit_code == 0, result.output
    assert f"report: {out}" in result.output and out.exists()
    page = html.unescape(out.read_text(encoding="utf-8"))
    assert "white at the target 80%" in page and "within the target band 70% to 90%" in page
    assert 'id="card-impact"' in page
    result = CliRunner().invoke(cli, ["report", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: {tmp_path / 'nowhere'}: no such results folder "
                                                  "(expected the folder `horde run` wrote, like results/NAME-HASH/)"]
    result = CliRunner().invoke(cli, ["report", str(results_folder), "--compare", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "no such results folder" in result.output


def test_report_command_card_minimum_is_the_analysis_default():
    option = next(p for p in cli.commands["report"].params if p.name == "min_games")
    assert option.default == analysis.POOLED_MIN_GAMES


# -- in a real browser ---------------------------------------------------------------------------

def headless(profile, *arguments) -> list[str]:
    return [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
            *arguments]


def rendered_page(path, profile) -> str:
    """The page's DOM after it loaded in the headless browser."""
    done = subprocess.run(headless(profile, "--dump-dom", path.resolve().as_uri()), capture_output=True, text=True)
    assert "<html" in done.stdout, f"the browser printed no page (exit {done.returncode}): {done.stderr[-2000:]}"
    return done.stdout


def load_in_browser(path, profile) -> dict:
    """Open the page headless and return its root element's attributes after it loaded."""
    match = re.search(r"<html([^>]*)>", rendered_page(path, profile))
    return dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1)))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_report_loads_in_a_headless_browser_without_errors(report_min5, tmp_path):
    root = load_in_browser(report_min5, tmp_path / "profile")
    assert root.get("data-load-errors") == "none"
    assert root.get("data-images") == str(len(PICTURES))


def test_the_browser_renders_every_section_and_takes_a_screenshot(report_min5, tmp_path):
    path = report_min5
    dom = rendered_page(path, tmp_path / "profile-1")
    assert headings(dom) == SECTIONS  # every section heading, as the browser built the page
    assert len(re.findall(r"<img ", dom)) == len(PICTURES)
    shot = tmp_path / "report.png"
    done = subprocess.run(headless(tmp_path / "profile-2", "--hide-scrollbars", "--window-size=1280,2400",
                                   f"--screenshot={shot}", path.resolve().as_uri()),
                          capture_output=True, text=True)
    assert shot.exists(), f"no screenshot (exit {done.returncode}): {done.stderr[-2000:]}"
    data = shot.read_bytes()
    assert png_size(data) == (1280, 2400)
    assert len(data) > 50_000  # tables, text and pictures, not a blank page


def test_the_browser_check_catches_a_broken_and_a_remote_picture(report_default, tmp_path):
    page = report_default.read_text(encoding="utf-8")
    start = page.index("base64,") + len("base64,")
    broken = tmp_path / "broken.html"
    broken.write_text(page[:start] + "AAAA" + page[start + 64:], encoding="utf-8")
    root = load_in_browser(broken, tmp_path / "profile-1")
    assert "could not load img heat-map-cards-per-player" in root["data-load-errors"]
    remote = tmp_path / "remote.html"
    remote.write_text(page.replace("<h1>", '<img src="https://example.invalid/x.png" alt="remote"><h1>', 1),
                      encoding="utf-8")
    root = load_in_browser(remote, tmp_path / "profile-2")
    assert "blocked https://example.invalid/x.png" in root["data-load-errors"]


def test_a_report_of_real_games_loads_in_the_browser(test_decks, tmp_path):
    from horde.lab import analysis
    from horde.lab.runner import play_many
    from horde.setup import make_setup

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
    assert lines[0] == ("| players | cards_per_player | level | games | team win rate (Wilson 95%) | stalls | "
                        "decided games: team win rate | mean turns |")
    assert "| 2 | 10 | club | 10 | 100.0% (72.2%-100.0%) | 0.0% | 100.0% (72.2%-100.0%) | 9.5 |" in lines
    assert "| 2 | 30 | club | 10 | 60.0% (31.3%-83.2%) | 0.0% | 60.0% (31.3%-83.2%) | 9.5 |" in lines


def test_B1_summary_command_by_boss_pooled_and_per_cell(results_folder):
    """Bosses alternate by game: Elspeth plays games 0, 2, 4, 6, 8 of every cell and the team
    wins those below 10 - cards/5 + players: 5 + 4 + 3 (2 players) + 5 + 5 + 4 (3 players) = 26 of 30."""
    result = CliRunner().invoke(cli, ["summary", str(results_folder), "--by", "boss_drawn", "--markdown"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:3] == [
        "| boss_drawn | level | games | team win rate (Wilson 95%) | stalls | decided games: team win rate | mean "
        "turns |", "|---|---|---|---|---|---|---|",
        "| Elspeth Tirel | club | 30 | 86.7% (70.3%-94.7%) | 0.0% | 86.7% (70.3%-94.7%) | 9.0 |"]
    result = CliRunner().invoke(cli, ["summary", str(results_folder), "--by", "boss_drawn", "--per-cell"])
    lines = result.output.splitlines()
    assert lines[0].split()[:8] == ["players", "cards_per_player", "boss_drawn", "level", "games", "team", "win",
                                    "rate"]
    assert lines[1].split()[:7] == ["2", "10", "Elspeth", "Tirel", "club", "5", "100.0%"]
    assert len(lines) == 1 + 6 * 2


def test_L1_summary_command_by_lieutenants_drawn(results_folder):
    result = CliRunner().invoke(cli, ["summary", str(results_folder), "--by", "lieutenants_drawn", "--markdown"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(" | ")[:3] for line in lines[2:]] == [["| Bladewing the Risen", "club", "15"],
                                                             ["| Boris Devilboon", "club", "15"],
                                                             ["| no lieutenant", "club", "30"]]


def test_summary_command_reads_several_folders(results_folder, tmp_path):
    other = write_results(tmp_path / "other-0123456789", difficulty_games())
    result = CliRunner().invoke(cli, ["summary", str(results_folder), str(other), "--markdown"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("| results | players | cards_per_player | level | games | team win rate (Wilson 95%) | "
                        "stalls | decided games: team win rate | mean turns |")
    assert len(lines) == 2 + 2 * 6
    assert "| other-0123456789 | 3 | 30 | club | 10 | 70.0% (39.7%-89.2%) | 0.0% | 70.0% (39.7%-89.2%) | 9.5 |" in lines
    pooled = CliRunner().invoke(cli, ["summary", str(results_folder), str(other), "--by", "players"])
    assert pooled.output.splitlines()[1].split()[:3] == ["2", "club", "60"]


def test_compare_command_pairs_two_folders_per_cell_and_pooled(results_folder, tmp_path):
    other = difficulty_games().assign(policy="careful")
    other.loc[other["game"] == 9, "winner"] = "team"
    folder = write_results(tmp_path / "careful", other)
    result = CliRunner().invoke(cli, ["compare", str(folder), str(results_folder)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"A: {folder} (tiny, 60 games)"
    assert lines[2] == "paired by seed, game index, players, cards_per_player; 0 game(s) without a partner left out"
    assert lines[3].split()[:4] == ["players", "cards_per_player", "pairs", "A"]
    low, high = analysis.paired_difference_interval(50, 4, 0, 6)
    assert lines[-1].split() == ["all", "all", "60", "90.0%", "83.3%", "4", "0",
                                 "+6.7", f"({low * 100:+.1f}", "to", f"{high * 100:+.1f})"]
    assert len(lines) == 4 + 6 + 1
    result = CliRunner().invoke(cli, ["compare", str(folder)])
    assert result.exit_code == 2 and "give two results folders to compare, not 1" in result.output
    shifted = write_results(tmp_path / "seed-2", difficulty_games().assign(seed=2))
    result = CliRunner().invoke(cli, ["compare", str(shifted), str(results_folder)])
    assert result.exit_code == 2 and "has a partner" in result.output
