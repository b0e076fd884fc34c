"""``horde run``, ``summary``, ``compare`` and ``report``: experiments and their results folders."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from horde import __version__
from horde.cli.common import (
    GAMES_IN_MEMORY,
    SEED,
    WORKERS,
    cli,
    complete_bundled,
    echo_approximated,
    echo_table,
    given_knobs,
    knob_options,
    setup_from_options,
    slots_words,
    stop_code,
    terminate_as_interrupt,
)
from horde.cli.config import config_options, house_rules
from horde.cli.words import differing_words, setup_words
from horde.errors import match_name
from horde.files import shown
from horde.limits import CHUNK_MAX, GAMES_MAX
from horde.setup import SetupError

GAMES = click.IntRange(1, GAMES_MAX)


@cli.command("run", examples=(
    "horde run difficulty",
    "horde run experiments/deck-size.toml --workers 2",
    "horde run my-experiment.toml --games 100",
))
@click.argument("experiment_file", metavar="EXPERIMENT", shell_complete=complete_bundled("experiments"))
@click.option("--workers", type=WORKERS, default=None,
              help="local worker processes (default: one per core)")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="run on the Dask cluster with this scheduler instead")
@click.option("--out", default="results", show_default=True, help="folder for the results folder")
@click.option("--games", type=GAMES, default=None,
              help="every cell plays this many games instead (a reduced run; another results folder)")
@click.option("--max-games", type=GAMES, default=None,
              help="no cell plays more games than this (a reduced run; another results folder)")
@click.option("--chunk-size", type=click.IntRange(1, CHUNK_MAX), default=None,
              help="games per chunk (default: 250, less for small runs; results do not depend on it)")
@click.option("--quiet", is_flag=True, help="no progress bar")
@config_options
def run_command(experiment_file, workers, scheduler, out, games, max_games, chunk_size, quiet, config, no_config):
    """Run an experiment file: every cell of its sweep, into OUT/NAME-HASH/.

    Running the same command again continues a stopped run where it stopped (Ctrl-C or SIGTERM)."""
    from horde.errors import RunInterrupted
    from horde.lab.experiments import load_experiment
    from horde.lab.runner import describe_cell, run_experiment

    house = house_rules({"config": config, "no_config": no_config})  # under the experiment's own [setup]
    experiment = load_experiment(experiment_file, games=games, max_games=max_games, house_rules=house.setup)
    run = experiment.run

    def announce(folder):
        if not quiet:
            base = experiment.cells[0].setup
            swept = {name.replace("-", "_") for name in experiment.sweep}
            knobs = [words for name, words in differing_words(base, named=True) if name not in swept]
            click.echo(f"{experiment.name}: preset {base.preset}; knobs that differ from it"
                       + (" besides the sweep" if swept else "") + f": {', '.join(knobs) or 'none'}", err=True)
            click.echo(f"{experiment.name}: {len(experiment.cells)} cell(s), " + (
                f"{run.games} games each" if not run.adaptive else
                f"until a half-width of {run.precision} (at most {run.max_games} games each)")
                + f", seed {experiment.seed} -> {shown(folder)}", err=True)

    # The options that name the results folder: with them the run continues where it stopped.
    resume = ["horde", "run", experiment_file] + (["--out", out] if out != "results" else []) + \
        (["--games", str(games)] if games else []) + (["--max-games", str(max_games)] if max_games else []) + \
        (["--config", config] if config else []) + (["--no-config"] if no_config else [])
    try:
        with terminate_as_interrupt() as stop:
            outcome = run_experiment(experiment, out, workers=workers, scheduler=scheduler, chunk_size=chunk_size,
                                     progress=not quiet, on_start=announce, stop_requested=stop.claim)
    except KeyboardInterrupt as interrupted:
        kept = (f": {interrupted.done()} are kept in {shown(str(interrupted.folder))}"
                if isinstance(interrupted, RunInterrupted) else "")
        click.echo(f"interrupted{kept}; to continue, run: {' '.join(map(shell_word, resume))}", err=True)
        sys.exit(stop_code(stop.received))
    if outcome.already_complete:
        click.echo(f"{shown(outcome.folder)}: already complete", err=True)
    from horde.lab.runner import approximations, deck_slots
    from horde.play import DeckSlots

    by_decks: dict = {}  # the cells whose decks are alike, together
    for cell in deck_slots(experiment):
        decks = tuple(DeckSlots(d["deck"], d["role"], d["exact"], d["approximated"], d["blank"]) for d in cell["decks"])
        by_decks.setdefault(decks, []).append(cell["cell"])
    for decks, cells in by_decks.items():
        lines = slots_words(decks)
        if len(by_decks) > 1:
            lines[0] = f"cell{'s' if len(cells) > 1 else ''} {', '.join(map(str, cells))}: {lines[0]}"
        for line in lines:
            click.echo(line)
    for cell in approximations(experiment):  # --approximate: named once, with the text dropped
        click.echo(f"APPROXIMATED in cell {cell['cell']} ({cell['label'] or 'base setup'}); these results are not "
                   "exact:")
        for name, dropped in cell["cards"].items():
            click.echo(f"  {name}: dropped " + ("; ".join(repr(s) for s in dropped) or "nothing"))
    width = max(len(summary["label"]) for summary in outcome.cells)
    for summary in outcome.cells:
        click.echo(describe_cell(summary, width))
    click.echo(f"results: {shown(outcome.folder)}")


def shell_word(word: str) -> str:
    """A word of a command as a shell reads it back: quoted, and a name that is not UTF-8 in
    bash's ``$'...'`` with its bytes as ``\\xNN``."""
    if shown(word) == word:
        return shlex.quote(word)
    return "$'" + shown(word.replace("\\", "\\\\").replace("'", "\\'")) + "'"


def load_folders(folders, err: bool = False):
    """The games of one results folder, or of several with a ``results`` column naming the folder.
    Results with approximated cards (--approximate) are announced first (on stderr with ``err``):
    never taken for exact."""
    from horde.lab.analysis import combine, load

    results = [load(folder) for folder in folders]
    warn_approximated(results, err)
    return results[0].games if len(results) == 1 else combine(results)


def warn_approximated(results, err: bool = False) -> None:
    """One line first when loaded results hold approximated cards (--approximate): never taken for exact."""
    approximated = sorted({name for r in results for cell in r.manifest.get("approximated") or ()
                           for name in cell["cards"]})
    if approximated:
        click.echo(f"APPROXIMATED: these results are not exact; played approximated: {', '.join(approximated)}",
                   err=err)


MACHINE = ("json", "csv")  # the table styles other programs read: nothing else on stdout


def table_styles(function):
    """``--markdown``, ``--json`` and ``--csv``: how a table of results is printed (``style``)."""
    for flag, style, words in (("--csv", "csv", "print the table as CSV (one row per line, every column)"),
                               ("--json", "json", "print the table as JSON: a list of rows, every column"),
                               ("--markdown", "markdown", "print a Markdown table (for a README)")):
        function = click.option(flag, "style", flag_value=style, help=words)(function)
    return click.option("--text", "style", flag_value="text", default=True, hidden=True)(function)


def echo_frame(frame, style: str) -> None:
    """A table as JSON (a list of rows; NaN as null) or CSV, every column."""
    if style == "json":
        import json

        rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
        click.echo(json.dumps(rows, indent=1, default=str))
    else:
        click.echo(frame.to_csv(index=False), nl=False)


@cli.command("summary", examples=(
    "horde summary results/difficulty-*/",
    "horde summary results/difficulty-*/ --by boss_drawn",
    "horde summary results/presets-*/ --by preset --by players --csv > presets.csv",
))
@click.argument("folders", nargs=-1, required=True, metavar="RESULTS...")  # horde.lab.analysis.load checks each
@click.option("--by", "by", multiple=True,
              help="group by this column (repeat the option; default: the knobs that vary, and the folder when "
                   "there are several); boss_drawn and lieutenants_drawn split the games by what they drew")
@click.option("--per-cell", is_flag=True, help="group by the knobs that vary too: --by within each cell")
@table_styles
def summary_command(folders, by, per_cell, style):
    """Print the team win rate per cell of one or more results folders, with Wilson 95% intervals.

    With --by boss_drawn (or lieutenants_drawn) the games of every cell are pooled under each boss
    (lieutenant) drawn; add --per-cell for one row per cell and boss."""
    from horde.lab.analysis import levels, summary, varying_knobs

    games = load_folders(folders, err=style in MACHINE)
    cells = (["results"] if len(folders) > 1 else []) + varying_knobs(games)
    by = [match_name(name, games.columns, "column", "--by", SetupError) for name in by]  # forgives case
    if per_cell or not by:
        by = [name for name in cells if name not in by] + by
    games = games.assign(level=levels(games))  # every answer names the team's level it is for (horde.team.skill)
    if "level" not in by:
        by = by + ["level"]
    table = summary(games, by=by)
    if style in MACHINE:
        echo_frame(table, style)
        return
    aborted = bool(table["aborted"].any())  # H15: shown whenever a game was aborted
    rows = []
    for row in table.to_dict("records"):
        rate = f"{row['team_win_rate']:.1%} ({row['team_win_low']:.1%}-{row['team_win_high']:.1%})"
        decided = f"{row['decided_win_rate']:.1%} ({row['decided_win_low']:.1%}-{row['decided_win_high']:.1%})"
        rows.append([str(row[k]) for k in by] + [str(row["games"]), rate, f"{row['stall_rate']:.1%}", decided,
                                                 f"{row['turns_mean']:.1f}"]
                    + ([str(row["aborted"])] if aborted else []))
    # H14: a stall counts against the team in the win rate; among decided games it counts for no one
    echo_table(by + ["games", "team win rate (Wilson 95%)", "stalls", "decided games: team win rate",
                     "mean turns"] + (["aborted (H15)"] if aborted else []), rows, style == "markdown")


def parse_knobs(text: str, flag: str) -> dict:
    """The knob options written in ``text`` (``--policy control --players 3``), checked as the
    command line checks them; a bad one is a SetupError naming ``flag``."""

    @click.command(context_settings={"help_option_names": []})
    @knob_options
    def knobs(**options):
        """The knob options of an arm."""

    try:
        words = shlex.split(text)
        context = knobs.make_context(flag, words, resilient_parsing=False)
    except ValueError as error:
        raise SetupError(f"{flag} {text!r}: {error}") from None
    except click.ClickException as error:
        raise SetupError(f"{flag} {text!r}: {error.format_message()}") from None
    except click.exceptions.Exit:
        raise SetupError(f"{flag} {text!r}: give knob options, like {flag} \"--policy control\"") from None
    values = given_knobs(context.params)
    if not values:
        raise SetupError(f"{flag} {text!r}: give at least one knob option, like {flag} \"--policy control\"")
    return values


def _points(value: float) -> str:
    text = f"{value * 100:+.1f}"
    return "+0.0" if text == "-0.0" else text


def echo_comparison(table, pooled, style: str) -> None:
    """The paired comparison: one row per matching cell (when there are several) and the pooled row
    (its keys ``all``), as a text or Markdown table, JSON or CSV (``style``)."""
    keys = [c for c in table.columns if c not in pooled.columns]
    records = (table.to_dict("records") if keys else []) + [dict(pooled.iloc[0]) | {k: "all" for k in keys}]
    if style in MACHINE:
        import pandas as pd

        echo_frame(pd.DataFrame.from_records(records, columns=keys + [c for c in pooled.columns]), style)
        return
    rows = []
    for r in records:
        difference = "" if r["pairs"] == 0 else (f"{_points(r['difference'])} ({_points(r['difference_low'])} to "
                                                 f"{_points(r['difference_high'])})")
        rows.append([str(r[k]) for k in keys] + [str(r["pairs"]), f"{r['win_rate_a']:.1%}", f"{r['win_rate_b']:.1%}",
                                                  str(r["only_a_won"]), str(r["only_b_won"]), difference])
    echo_table(keys + ["pairs", "A wins", "B wins", "only A won", "only B won", "A - B, points (Newcombe paired 95%)"],
               rows, style == "markdown")


@cli.command("compare", examples=(
    'horde compare --games 2000 --players 4 --a "--policy control" --b "--policy baseline"',
    "horde compare results/a-*/ results/b-*/ --json",
))
@click.argument("folders", nargs=-1, metavar="[RESULTS_A RESULTS_B]")  # horde.lab.analysis.load checks each
@click.option("--a", "arm_a", default=None, metavar="OPTIONS",
              help='arm A\'s knob options, quoted: --a "--policy control" (plays both arms)')
@click.option("--b", "arm_b", default=None, metavar="OPTIONS",
              help='arm B\'s knob options, quoted: --b "--policy baseline"')
@click.option("--games", type=GAMES_IN_MEMORY, default=1000, show_default=True, help="games each arm plays")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="the seed of the games: game i plays with the seed (SEED, i)")
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--quiet", is_flag=True, help="no progress bar")
@table_styles
@config_options
@knob_options
def compare_command(folders, arm_a, arm_b, games, seed, workers, quiet, style, **options):
    """Compare the team win rate of two arms on the same seeds, game by game.

    Either two results folders (game i of a cell of A is paired with game i of the cell of B with
    the same seed and the same values of the knobs both share), or two setups played here: --a
    and --b give each arm's knob options, the other knob options set both, and both arms play the
    seeds (--seed, i) for i below --games. Prints the paired difference A - B with Newcombe's
    square-and-add 95% interval, per matching cell and pooled."""

    played = arm_a is not None or arm_b is not None
    if folders and (played or given_knobs(options)):
        raise SetupError("give two results folders, or --a and --b with knob options, not both")
    if folders:
        if len(folders) != 2:
            raise SetupError(f"give two results folders to compare, not {len(folders)}")
        compare_folders(folders[0], folders[1], style)
        return
    if arm_a is None or arm_b is None:
        raise SetupError('give two results folders, or both --a and --b, like --a "--policy control" '
                         '--b "--policy baseline"')
    from horde.play import prepare

    shared = given_knobs(options)
    house = house_rules(options).knobs()
    setups = []
    approximated: dict = {}
    for flag, text in (("--a", arm_a), ("--b", arm_b)):
        setup = setup_from_options({**shared, **parse_knobs(text, flag)}, where=flag, house=house)
        approximated |= prepare(setup).approximated  # every check before playing
        setups.append(setup)
    from horde.lab.analysis import compare_tables, games_table
    from horde.lab.runner import play_many

    tables = [games_table(play_many(setup, seed, games, workers, progress=not quiet), cell=cell)
              for cell, setup in enumerate(setups)]
    pooled = compare_tables(tables[0], tables[1], by=(), names=(arm_a, arm_b))
    machine = style in MACHINE  # JSON or CSV alone on stdout; what it is about on stderr
    for name, text, setup in (("A", arm_a, setups[0]), ("B", arm_b, setups[1])):
        click.echo(f"{name}: {text} (setup {setup.digest()}: {setup_words(setup)})", err=machine)
    click.echo(f"{games} games each, seeds ({seed}, 0) to ({seed}, {games - 1}), horde {__version__}", err=machine)
    echo_approximated(dict(sorted(approximated.items())), err=machine)
    echo_comparison(pooled, pooled, style)


def compare_folders(folder_a: str, folder_b: str, style: str) -> None:
    from horde.lab.analysis import ResultsError, compare_tables, load

    a, b = load(folder_a), load(folder_b)
    machine = style in MACHINE
    warn_approximated([a, b], err=machine)
    names = (shown(folder_a), shown(folder_b))  # a column of text: a name that is not UTF-8 as \\xNN
    table = compare_tables(a.games, b.games, by=None, names=names)
    pooled = compare_tables(a.games, b.games, by=(), names=names)
    if int(pooled["pairs"].iloc[0]) == 0:
        raise ResultsError(f"no game of {folder_a} has a partner in {folder_b}: pairs need the same seed, game index "
                           "and values of the knobs both folders share")
    keys = [c for c in table.columns if c not in pooled.columns]
    click.echo(f"A: {folder_a} ({a.name}, {len(a.games)} games)", err=machine)
    click.echo(f"B: {folder_b} ({b.name}, {len(b.games)} games)", err=machine)
    click.echo(f"paired by seed, game index{''.join(', ' + k for k in keys)}; {int(pooled['unpaired'].iloc[0])} "
               "game(s) without a partner left out", err=machine)
    echo_comparison(table, pooled, style)


@cli.command("report", examples=(
    "horde report results/difficulty-*/",
    "horde report results/difficulty-*/ --images pictures/",
    "horde report results/a-*/ --compare results/b-*/ --out a-against-b.html",
))
@click.argument("folder", metavar="RESULTS")
@click.option("--out", default=None, metavar="FILE", help="where to write the page (default: RESULTS/report.html)")
@click.option("--images", default=None, metavar="DIR",
              help="also save every picture as a PNG in DIR; a DIR that holds PNG files already is refused "
                   "unless --force")
@click.option("--force", is_flag=True, help="let --images overwrite the PNG files of DIR")
@click.option("--card-turn", type=click.IntRange(1), default=3, show_default=True,
              help="card impact: games where the Horde revealed a card by this Horde turn, against the rest")
@click.option("--compare", "other", default=None, metavar="OTHER",
              help="a second results folder to compare with, game by game on the same seeds")
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.5,
              show_default=True, help="the team win rate aimed for, marked on the heat map and curves")
@click.option("--band", type=click.FloatRange(0, 1, max_open=True), default=0.05, show_default=True,
              help="the heat map outlines cells within this distance of --target")
@click.option("--min-games", type=click.IntRange(1), default=100, show_default=True,
              help="card impact shows a card only with this many games on each side, over every cell")
@click.option("--skill", default=None, metavar="LEVEL|FILE",
              help="your table's level, or a calibration file (horde calibrate): the report gives its answer first")
def report_command(folder, out, images, card_turn, other, target, band, min_games, force, skill):
    """Write one self-contained HTML page for a results folder: tables, embedded plots, the setup."""
    from horde.lab.report import write_report
    from horde.setup import convert

    if images is not None and not force:
        kept = sorted(p.name for p in Path(images).glob("*.png")) if Path(images).is_dir() else []
        if kept:
            raise SetupError(f"--images {images}: the folder already holds {len(kept)} PNG file(s) ({', '.join(kept[:3])}"
                             f"{', ...' if len(kept) > 3 else ''}) the pictures could overwrite: give --force to "
                             "overwrite them, or another folder")
    table = convert("skill", skill, "--skill") if skill else None
    path = write_report(folder, out, card_turn=card_turn, images=images, compare=other, target=target, band=band,
                        min_games=min_games, skill=table)
    click.echo(f"report: {shown(path)}")
