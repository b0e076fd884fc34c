"""A newcomer's first hour: names that forgive case and say what they could be, the README's
commands as written in a checkout and after an install, options that explain themselves, output
in players' words, house rules kept in a file, and results in the formats other tools read."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, one_line_error

from horde.cli import cli
from horde.errors import HordeError, match_name
from horde.lab.experiments import resolve_experiment
from horde.setup import SetupError, make_setup

SMALL = ["--horde", "mini", "--team", "white", "--team", "white", "--players", "2", "--boss", "none"]


@pytest.fixture
def runner(monkeypatch):
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    return CliRunner()


# ---------------------------------------------------------------- names forgive case, say the closest and the list


def test_match_name_forgives_case_and_names_the_closest_and_every_name():
    assert match_name("Knudson-2011", ["zombie-horde", "knudson-2011"], "preset") == "knudson-2011"
    with pytest.raises(HordeError) as error:
        match_name("knudsen-2011", ["zombie-horde", "knudson-2011"], "preset", "--preset")
    assert error.value.one_line() == ("--preset: unknown preset 'knudsen-2011': did you mean 'knudson-2011'? "
                                      "the presets are zombie-horde, knudson-2011")


def test_P_preset_and_knob_choices_forgive_case_and_keep_the_setup_hash():
    assert make_setup("Knudson-2011", reveal="Escalating") == make_setup("knudson-2011", reveal="escalating")
    assert make_setup(preset="zombie-horde", Grace_Turns=2).grace_turns == 2
    with pytest.raises(SetupError, match="did you mean 'knudson-2011'.*expected one of zombie-horde"):
        make_setup("knudsen")
    with pytest.raises(SetupError, match="unknown knob 'grace_turn': did you mean 'grace_turns'"):
        make_setup(grace_turn=2)


def test_policy_names_forgive_case_and_say_the_closest(runner):
    one_line_error(runner.invoke(cli, ["play", "--policy", "basline", *SMALL]),
                   "unknown policy 'basline': did you mean 'baseline'?", "baseline, aggro", "or module:Class")
    assert runner.invoke(cli, ["play", "--policy", "Baseline", *SMALL]).exit_code == 0


@pytest.mark.parametrize("knob, name", [("policy", "RANDOM"), ("policy", " Random "), ("drafter", "Heuristic")])
def test_P_a_policy_or_drafter_named_in_any_case_is_one_setup_with_one_hash(knob, name):
    """The games of --policy RANDOM are those of random: so are the setup and its hash (a preset's
    name is kept in one spelling the same way); a module:Class path keeps its case."""
    setup = make_setup(**{knob: name})
    assert setup == make_setup(**{knob: name.strip().lower()}) and getattr(setup, knob) == name.strip().lower()
    assert setup.digest() == make_setup(**{knob: name.strip().lower()}).digest()
    assert make_setup(policy="my_policies:Careful").policy == "my_policies:Careful"


def test_P_the_command_line_s_policy_in_any_case_plays_and_records_the_same_setup(runner):
    lines = [runner.invoke(cli, ["simulate", "--games", "3", "--policy", name, "--workers", "1", "--quiet", "--json",
                                 *SMALL]).output for name in ("RANDOM", "random")]
    assert lines[0] == lines[1] and '"policy": "random"' in lines[0]


@pytest.mark.parametrize("given", ["", " ", "=3", "courage", ","])
def test_an_empty_or_nameless_policy_param_is_one_line(runner, given):
    """--policy-param '' was dropped without a word: a parameter must be NAME=VALUE."""
    one_line_error(runner.invoke(cli, ["play", "--policy-param", given, *SMALL]),
                   f"--policy-param '{given}': expected NAME=VALUE, like wrath_threshold=12")
    one_line_error(runner.invoke(cli, ["play", "--policy-param", "wrath_threshold=12", "--policy-param", given,
                                       "--policy", "control", *SMALL]), "expected NAME=VALUE")


@pytest.mark.parametrize("value", ["", ",", "wrath_threshold=12,"])
def test_an_empty_policy_parameter_in_a_file_is_an_error(value):
    with pytest.raises(SetupError, match="expected key=value pairs like wrath_threshold=12"):
        make_setup(policy="control", policy_params=value)


def test_bundled_team_deck_and_decks_check_say_the_closest_and_the_list(runner):
    one_line_error(runner.invoke(cli, ["play", "--horde", "mini", "--team", "whit", "--players", "1", "--boss",
                                       "none"]), "unknown bundled team deck 'whit': did you mean 'white'?")
    result = runner.invoke(cli, ["decks", "check", "nosuchdeck"])
    assert result.exit_code == 2 and "unknown bundled deck 'nosuchdeck'" in result.output
    assert str(TEST_DECKS) not in result.output
    assert runner.invoke(cli, ["play", "--horde", "MINI", "--team", "White", "--players", "1", "--boss",
                               "none"]).exit_code == 0


def test_B1_a_boss_name_forgives_case_and_the_list_is_split_by_semicolons(runner):
    bundled = {"HORDE_DECKS": ""}  # the bundled zombie-horde and its four bosses
    result = runner.invoke(cli, ["play", "--players", "1", "--boss", "elspeth"], env=bundled)
    line = one_line_error(result, "boss 'elspeth' is not in the boss list of the Horde deck zombie-horde", "did you mean")
    assert ("its bosses are Liliana, Dreadhorde General; Liliana, Death Mage; Elspeth Tirel; Elspeth, Knight-Errant; or random, "
            "or none") in line
    assert "decks/horde" not in line


def test_experiments_by_name_and_by_the_readme_path_outside_a_checkout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no experiments/ folder here: the README's path names the bundled one
    assert resolve_experiment("experiments/difficulty.toml") == resolve_experiment("difficulty")
    assert resolve_experiment("Difficulty").name == "difficulty.toml"
    assert resolve_experiment("mine/difficulty.toml") == tmp_path.joinpath("mine/difficulty.toml").relative_to(tmp_path)
    with pytest.raises(HordeError, match="unknown bundled experiment 'dificulty': did you mean 'difficulty'"):
        resolve_experiment("dificulty")


# ---------------------------------------------------------------- results for other tools; errors exit 2


@pytest.fixture
def results_folder(tmp_path):
    from results_tables import difficulty_games, write_results

    return write_results(tmp_path / "difficulty-0123456789", difficulty_games())


def test_summary_prints_json_and_csv_with_every_column(runner, results_folder):
    import csv
    import io
    import json

    rows = json.loads(runner.invoke(cli, ["summary", str(results_folder), "--by", "Players", "--json"]).stdout)
    assert [(r["players"], r["games"], r["team_wins"]) for r in rows] == [(2, 30, 24), (3, 30, 26)]
    assert {"team_win_low", "team_win_high", "turns_median"} <= set(rows[0])
    table = list(csv.DictReader(io.StringIO(runner.invoke(cli, ["summary", str(results_folder), "--by", "players",
                                                               "--csv"]).stdout)))
    assert [(r["players"], r["games"], r["team_wins"]) for r in table] == [("2", "30", "24"), ("3", "30", "26")]
    one_line_error(runner.invoke(cli, ["summary", str(results_folder), "--by", "player"]),
                   "--by: unknown column 'player': did you mean 'players'?")


def test_compare_prints_json_and_csv_with_the_pooled_row_last(runner, results_folder):
    import json

    result = runner.invoke(cli, ["compare", str(results_folder), str(results_folder), "--json"])
    rows = json.loads(result.stdout)
    assert rows[-1]["players"] == "all" and rows[-1]["pairs"] == 60 and rows[-1]["difference"] == 0.0
    assert len(rows) == 7  # six cells, then the pooled row
    lines = runner.invoke(cli, ["compare", str(results_folder), str(results_folder), "--csv"]).stdout.splitlines()
    assert lines[0].startswith("players,cards_per_player,") and lines[-1].startswith("all,all,")


def test_cards_compile_exits_2_when_a_sentence_is_not_understood(runner):
    result = runner.invoke(cli, ["cards", "compile", "Whenever the moon rises, sing."])
    assert result.exit_code == 2 and "not understood: 'Whenever the moon rises, sing'" in result.output


def test_cards_import_of_a_missing_file_is_one_line_before_any_progress_bar(runner, tmp_path):
    result = runner.invoke(cli, ["cards", "import", str(tmp_path / "AtomicCards.json.xz")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {tmp_path / 'AtomicCards.json.xz'}: cannot read AtomicCards file: No such file or directory"]


def test_report_images_refuses_to_overwrite_pictures_unless_forced(runner, results_folder, tmp_path):
    images = tmp_path / "images"
    images.mkdir()
    (images / "heat-map-cards-per-player.png").write_bytes(b"the README's picture")
    one_line_error(runner.invoke(cli, ["report", str(results_folder), "--images", str(images)]),
                   "already holds 1 PNG file(s) (heat-map-cards-per-player.png)", "--force")
    assert (images / "heat-map-cards-per-player.png").read_bytes() == b"the README's picture"
    result = runner.invoke(cli, ["report", str(results_folder), "--images", str(images), "--force"])
    assert result.exit_code == 0, result.output
    assert (images / "heat-map-cards-per-player.png").read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------- progress in a log, a terminal, a notebook


def test_progress_in_a_log_is_a_line_per_tenth_never_a_frame_twice():
    import io

    from horde.lab.progress import LogProgress

    log = io.StringIO()
    bar = LogProgress(40, desc="difficulty", stream=log)
    for _ in range(20):
        bar.update(2)
        bar.refresh()  # the runner redraws after each chunk: a log gets nothing more
    bar.close()
    lines = log.getvalue().splitlines()
    assert [line.split(" (")[0] for line in lines] == [f"difficulty: {p}%" for p in range(10, 101, 10)]
    assert lines[-1].startswith("difficulty: 100% (40 of 40 games, ")
    assert "\r" not in log.getvalue()


def test_simulate_without_a_terminal_prints_progress_lines_not_bar_frames(runner):
    result = runner.invoke(cli, ["simulate", "--games", "20", "--workers", "1", *SMALL])
    assert result.exit_code == 0, result.output
    assert "\r" not in result.stderr and result.stderr.count("\n") <= 10
    assert "100% (20 of 20 games" in result.stderr


def test_progress_bars_are_tqdm_auto_in_a_notebook(monkeypatch):
    import sys
    import types

    from tqdm.auto import tqdm as auto

    from horde.lab import progress

    class ZMQInteractiveShell:  # what a Jupyter kernel's get_ipython() returns
        pass

    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=ZMQInteractiveShell))
    assert progress.in_notebook()
    bar = progress.progress_bar(10, disable=True)
    assert isinstance(bar, auto)
    bar.close()


# ---------------------------------------------------------------- options that explain themselves


def commands(group=cli, path=()):
    """Every command of the horde command line, as (words, command)."""
    import click

    for name, command in group.commands.items():
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


def test_every_command_takes_h_and_every_leaf_shows_two_or_three_examples(runner):
    import click

    for words, command in commands():
        result = runner.invoke(cli, [*words, "-h"])
        assert result.exit_code == 0 and result.output.startswith("Usage: "), (words, result.output)
        if not isinstance(command, click.Group):
            examples = result.output.split("\nExamples:\n")[1].splitlines()
            assert 2 <= len(examples) <= 3 and all(e.startswith("  horde " + " ".join(words)) for e in examples), words


def test_D_simulate_help_shows_every_knob_grouped_with_its_choices_and_default(runner):
    from horde.cli.common import OPTION_NAMES
    from horde.setup import GROUP_OF, KNOBS

    assert set(GROUP_OF) == set(KNOBS)  # every knob in one group of the help

    text = runner.invoke(cli, ["simulate", "--help"], env={"HORDE_DECKS": ""}).output  # the bundled decks
    sections = [line[:-1] for line in text.splitlines() if line.endswith(":") and not line.startswith(" ")]
    assert sections == ["Setup", "Players", "Horde deck", "Boss and lieutenants", "Team", "Opponents and variants",
                        "Run", "Examples"]
    lines: dict[str, str] = {}  # each option's help, its wrapped lines joined
    for line in text.split("\nExamples:")[0].splitlines():
        if line.startswith("  -"):
            flag = line.split()[0]
            lines[flag] = line
        elif line.startswith("    ") and lines:
            lines[flag] += " " + line.strip()
    for name, knob in KNOBS.items():
        flag = OPTION_NAMES.get(name, "--" + name.replace("_", "-"))
        line = lines[flag]
        assert "[default: " in line, line
        for choice in knob.choices:
            assert choice in line, (choice, line)
    assert lines["--players"].startswith("  --players INTEGER ") and "1 to 4  [default: 4]" in lines["--players"]
    assert "zombie-horde, knudson-2011, face-the-hydra" in lines["--preset"]  # the ten presets listed
    assert ("Liliana, Dreadhorde General; Liliana, Death Mage; Elspeth Tirel; Elspeth, Knight-Errant"
            in lines["--boss"].replace("- ", "-"))  # a wrapped line may break after a hyphen
    assert "[default: no-burn-bodies]" in lines["--burn-bodies"]


@pytest.mark.parametrize("words, offered", [
    (["simulate", "--preset"], "knudson-2011"), (["simulate", "--horde"], "zombie-horde"),
    (["play", "--team"], "go-wide"), (["compare", "--policy"], "lookahead"),
    (["simulate", "--boss"], "Elspeth, Knight-Errant"), (["run"], "difficulty"), (["decks", "check"], "superfriends"),
    (["simulate", "--horde-graveyard"], "coin"),
])
def test_shell_completion_offers_the_bundled_names(words, offered, monkeypatch):
    from click.shell_completion import ShellComplete

    monkeypatch.delenv("HORDE_DECKS", raising=False)
    completion = ShellComplete(cli, {}, "horde", "_HORDE_COMPLETE")
    names = [item.value for item in completion.get_completions(words, "")]
    assert offered in names
    assert [item.value for item in completion.get_completions(words, offered[:3].upper())][:1] == [offered] or \
        offered in [item.value for item in completion.get_completions(words, offered[:3])]


# ---------------------------------------------------------------- output in players' words


def test_P_the_setup_line_names_every_knob_that_differs_from_the_preset():
    from horde.cli.words import setup_words

    assert setup_words(make_setup()) == "preset zombie-horde, 4 players, Horde deck zombie-horde, policy baseline"
    assert setup_words(make_setup(players=2, grace_turns=2, cards_per_player=30, lieutenants=False,
                                  life="individual", team_decks="sealed")) == (
        "preset zombie-horde, 2 players, Horde deck zombie-horde, policy baseline, grace turns 2, cards per player 30, "
        "no lieutenants, team decks sealed, life individual")
    assert setup_words(make_setup("knudson-2011", policy="control", policy_params={"wrath_threshold": 8})) == (
        "preset knudson-2011, 4 players, Horde deck knudson-2011, policy control (wrath_threshold=8)")
    variants = [dict(grace_turns=2), dict(cards_per_player=30), dict(lieutenants=False), dict(life="individual"),
                dict(team_decks="sealed"), {}]
    assert len({setup_words(make_setup(**v)) for v in variants}) == len(variants)


def test_B3_boss_abilities_read_as_the_card_does():
    from horde.cards.catalogue import default_catalogue
    from horde.cli.words import boss_ability_words

    catalogue = default_catalogue()
    card = catalogue.get("Liliana, Dreadhorde General")
    plus = card.abilities("Plus")[0]
    key = f"{card.name}: plus: {' ; '.join(e.describe() for e in plus)}"  # as the engine counts it
    assert boss_ability_words(catalogue, key) == ("Liliana, Dreadhorde General",
                                                  "+1: Create a 2/2 black Zombie creature token.")
    elspeth = catalogue.get("Elspeth Tirel")
    key = f"Elspeth Tirel: plus: {' ; '.join(e.describe() for e in elspeth.abilities('Plus')[0])}"
    assert boss_ability_words(catalogue, key)[1] == "+2: You gain 1 life for each creature you control."


def test_H14_simulate_says_what_a_stall_is_where_it_counts_them(runner):
    result = runner.invoke(cli, ["simulate", "--games", "10", "--workers", "1", "--quiet", "--max-turns", "3", *SMALL])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("stalls"))
    assert line == "stalls       10 (100.0% of the games; H14: games still going after 3 turns, won by neither side)"


def test_H1_the_play_log_names_the_source_of_a_loss_of_life_and_groups_repeats():
    from horde.cli.playlog import render

    def lost(turn, life, source="Vengeful Dead", amount=1):
        return {"turn": turn, "side": "team", "event": "life_lost", "amount": amount, "team_life": life,
                "source": source}

    events = [lost(5, 40), lost(5, 39), lost(5, 38), lost(5, 36, amount=2),
              {"turn": 5, "side": "horde", "event": "leaves", "card": "Zombie", "player": None, "to": "graveyard"},
              lost(5, 35), lost(6, 34), lost(6, 33, source="Diregraf Captain"), lost(6, 32, source=None)]
    assert render(events) == [
        "  The team loses 1 life (x3, Vengeful Dead; team life 38)",
        "  The team loses 2 life (Vengeful Dead; team life 36)",
        "  Zombie dies",
        "  The team loses 1 life (Vengeful Dead; team life 35)",
        "  The team loses 1 life (Vengeful Dead; team life 34)",
        "  The team loses 1 life (Diregraf Captain; team life 33)",
        "  The team loses 1 life (team life 32)"]


def test_H1_a_loss_of_life_in_the_trace_names_the_card_that_caused_it():
    from horde.play import play_game
    from horde.setup import make_setup

    setup = make_setup(players=4)
    events = play_game(setup, 7, trace=True).events or []
    sources = {e["source"] for e in events if e["event"] == "life_lost"}
    assert "Phyrexian Rager" in sources and None not in sources


def horde_list(tmp_path, zombies: int) -> str:
    """A fixed Horde deck of 10 cards and ``zombies`` Zombie tokens."""
    path = tmp_path / f"horde-{10 + zombies}.txt"
    path.write_text("About\nKind horde\nBuild fixed\n\nDeck\n4 Walking Corpse\n1 Grave Titan\n1 Damnation\n"
                    f"2 Bad Moon\n2 Maggot Carrier\n\nTokens\n{zombies} Zombie\n")
    return str(path)


def test_H3_decks_check_says_which_player_counts_a_horde_deck_supports(runner, tmp_path):
    result = runner.invoke(cli, ["decks", "check", horde_list(tmp_path, 48)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(
        "(horde deck): ok; plays 1-2 players at 25 cards per player (58 cards, H3); 3 players at most 19 "
        "(--cards-per-player 19), 4 players at most 14 (--cards-per-player 14)")
    assert runner.invoke(cli, ["decks", "check", horde_list(tmp_path, 90)]).output.strip().endswith(
        "ok; plays 1-4 players at 25 cards per player (100 cards, H3)")
    assert runner.invoke(cli, ["decks", "check", "mini-recipe"]).output.strip().endswith(
        "ok; plays 1-4 players (a recipe: built to 25 cards per player, R1)")
    # what simulate refuses at 4 players, the check said
    one_line_error(runner.invoke(cli, ["simulate", "--games", "1", "--horde", horde_list(tmp_path, 48), "--boss",
                                       "none", "--team", "white", "--team", "white", "--team", "white", "--team",
                                       "white"]), "58 cards", "need 100 (H3)")


# ---------------------------------------------------------------- house rules


def test_D_house_rules_set_knobs_under_the_command_line_and_are_recorded(runner, tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    (tmp_path / "horde.toml").write_text('[setup]\nhorde_deck = "mini"\nboss = "none"\nteam_decks = ["white", "white"]\n'
                                         'players = 2\ngrace_turns = 2\nPolicy = {name = "control", wrath_threshold = 8}\n')
    result = runner.invoke(cli, ["simulate", "--games", "4", "--workers", "1", "--quiet", "--json", "--grace-turns", "1"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["house_rules"] == "horde.toml"
    assert summary["setup"]["grace_turns"] == 1  # the command line wins over the house rules
    assert summary["setup"]["policy"] == "control" and summary["setup"]["policy_params"] == {"wrath_threshold": 8}
    assert summary["setup_hash"] == make_setup(horde_deck="mini", boss="none", team_decks=["white", "white"], players=2,
                                               grace_turns=1, policy="control",
                                               policy_params={"wrath_threshold": 8}).digest()
    assert "house rules from horde.toml: horde_deck = 'mini'" in result.stderr
    plain = runner.invoke(cli, ["simulate", "--games", "4", "--workers", "1", "--quiet", "--json", "--no-config", *SMALL])
    assert json.loads(plain.stdout)["house_rules"] is None and json.loads(plain.stdout)["setup"]["grace_turns"] == 3


def test_D_house_rules_reach_play_tune_compare_and_run(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rules = tmp_path / "house.toml"
    rules.write_text('[setup]\nhorde_deck = "mini"\nboss = "none"\nteam_decks = ["white", "white"]\nplayers = 2\n'
                     'max_turns = 3\n')
    played = runner.invoke(cli, ["play", "--config", str(rules)])
    assert played.exit_code == 0 and "max turns 3" in played.stdout.splitlines()[0]
    compared = runner.invoke(cli, ["compare", "--config", str(rules), "--games", "4", "--workers", "1", "--quiet",
                                   "--a", "--grace-turns 1", "--b", "--grace-turns 2"])
    assert compared.exit_code == 0 and "grace turns 1" in compared.stdout and "max turns 3" in compared.stdout
    tuned = runner.invoke(cli, ["tune", "--config", str(rules), "--knob", "grace-turns", "--players", "2", "--low", "1",
                                "--high", "2", "--batch", "4", "--max-games", "4", "--workers", "1", "--quiet"])
    assert tuned.exit_code == 0, tuned.output
    assert "max turns 3" in tuned.stdout
    (tmp_path / "e.toml").write_text('name = "e"\nseed = 1\n[setup]\nplayers = 1\n[sweep]\ngrace_turns = [1, 2]\n'
                                     '[run]\ngames = 2\n')
    ran = runner.invoke(cli, ["run", "e.toml", "--config", str(rules), "--workers", "1", "--quiet"])
    assert ran.exit_code == 0, ran.output
    resolved = next(tmp_path.glob("results/e-*/experiment.toml")).read_text()
    assert "max_turns = 3" in resolved and "players = 1" in resolved  # the experiment's own [setup] wins
    announced = runner.invoke(cli, ["run", "e.toml", "--config", str(rules), "--workers", "1", "--out", "again"])
    assert announced.exit_code == 0, announced.output
    assert ("e: preset zombie-horde; knobs that differ from it besides the sweep: players 1, boss none, max turns 3, "
            "horde deck mini, team decks white, white") in announced.stderr.splitlines()


@pytest.mark.parametrize("text, fragments", [
    ('[setup]\ngrace_turns = "many"\n', ["house.toml:2: [setup] grace_turns", "expected a whole number from 0 to 50"]),
    ('[setup]\n\ngrace_turn = 2\n', ["house.toml:3: [setup]: unknown knob 'grace_turn': did you mean 'grace_turns'"]),
    ('grace_turns = 2\n', ["house.toml:1: unknown key 'grace_turns': a house-rules file holds one table, [setup]"]),
    ('[setup\n', ["house.toml:1: not valid TOML"]),
])
def test_D_a_bad_house_rules_file_is_one_line_with_file_and_line(runner, tmp_path, text, fragments):
    rules = tmp_path / "house.toml"
    rules.write_text(text)
    one_line_error(runner.invoke(cli, ["simulate", "--config", str(rules), "--games", "2", *SMALL]),
                   *[f.replace("house.toml", str(rules)) for f in fragments])


@pytest.mark.parametrize("kind, fragment", [
    ("folder", "cannot read house-rules file: it is a folder, not a regular file"),
    ("fifo", "cannot read house-rules file: it is a named pipe (FIFO), not a regular file"),
    ("dangling link", "cannot read house-rules file: it is a symbolic link to 'gone.toml', which is not there"),
    ("link to /dev/zero", "cannot read house-rules file: it is a device, not a regular file"),
])
def test_D_a_horde_toml_that_is_not_a_file_is_one_line_never_skipped(runner, tmp_path, monkeypatch, kind, fragment):
    """./horde.toml that is a folder, a named pipe, a link to nothing or to /dev/zero was passed over
    without a word: it is refused in one line naming it (and never read: a pipe is not waited on)."""
    import os

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "horde.toml"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("gone.toml" if kind == "dangling link" else "/dev/zero")
    line = one_line_error(runner.invoke(cli, ["simulate", "--games", "2", *SMALL]), f"horde.toml: {fragment}")
    assert line.endswith("(--no-config reads no house-rules file)")
    assert runner.invoke(cli, ["simulate", "--games", "2", "--no-config", "--quiet", *SMALL]).exit_code == 0


# ---------------------------------------------------------------- set-up: one activation step, no warning


ROOT = TEST_DECKS.parent.parent.parent


def test_the_readme_names_the_one_activation_step_first_and_make_demo_ends_with_it():
    import subprocess

    first = ROOT.joinpath("README.md").read_text().split("\n## ")[0]
    assert "source .venv-fast/bin/activate" in first.split("```sh")[1].split("```")[0]
    printed = subprocess.run(["make", "--no-print-directory", "-n", "demo"], cwd=ROOT, capture_output=True, text=True)
    assert printed.stdout.rstrip().endswith('echo "    source .venv-fast/bin/activate"')  # demo's last words
    path = subprocess.run(["make", "--no-print-directory", "path"], cwd=ROOT, capture_output=True, text=True)
    assert path.returncode == 0 and path.stdout.splitlines()[-1] == "    source .venv-fast/bin/activate"


def test_pyproject_license_is_an_spdx_string():
    import tomllib

    project = tomllib.loads(ROOT.joinpath("pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"  # a table ({text = ...}) makes setuptools warn at every build
    assert any(r.startswith("setuptools>=77") for r in project["build-system"]["requires"])
