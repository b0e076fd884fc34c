"""The ``horde`` command: play one game, simulate many, check decks, show cards and policies, run
experiments, and summarise, compare and report their results.

Bad input never shows a traceback: every ``HordeError`` becomes one line on stderr naming the
file, line or knob and what was expected, and the exit code is 2. ``horde run`` stopped by Ctrl-C
or SIGTERM says in one line what it kept and how to continue, and exits with 130 or 143.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import signal
import sys
import threading
from pathlib import Path

import click

from horde import __version__, build
from horde.errors import HordeError
from horde.limits import CHUNK_MAX, GAMES_MAX, SEED_MAX, SIMULATE_GAMES_MAX, WORKERS_MAX
from horde.presets import KNOBS, SetupError, make_setup

# The numbers of the command line, within the input contract's limits (docs/limits.md).
SEED = click.IntRange(0, SEED_MAX)
WORKERS = click.IntRange(1, WORKERS_MAX)
GAMES_IN_MEMORY = click.IntRange(1, SIMULATE_GAMES_MAX)  # simulate and compare keep every game's record
GAMES = click.IntRange(1, GAMES_MAX)


class HordeGroup(click.Group):
    """A click group that turns HordeError into one line and exit code 2, and a command line
    click can't read (an unknown option, a number out of range) into one line too."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except HordeError as error:
            click.echo(f"error: {error.one_line()}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.exit(code if isinstance(code, int) else 0)  # click's own exit (--help, --version) or done
        except click.UsageError as error:
            if type(error).__name__ == "NoArgsIsHelpError":  # 'horde' alone: the help, as click shows it
                error.show()
                sys.exit(error.exit_code)
            where = error.ctx.command_path if error.ctx is not None else (prog_name or "horde")
            message = " ".join(error.format_message().split())
            click.echo(f"error: {where}: {message} (see '{where} --help')", err=True)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            click.echo(f"error: {' '.join(error.format_message().split())}", err=True)
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("aborted", err=True)
            sys.exit(1)


# Command-line names of the knobs that read better than their field names.
OPTION_NAMES = {"horde_deck": "--horde", "team_decks": "--team", "policy_params": "--policy-param"}


def knob_options(function):
    """Add one option per knob of RULES.md section D (and the rules' options) to a command."""
    for name in reversed(list(KNOBS)):
        knob = KNOBS[name]
        flag = OPTION_NAMES.get(name, "--" + name.replace("_", "-"))
        if knob.kind == "bool":
            option = click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=knob.help)
        elif knob.kind in ("decks", "params", "paths"):
            option = click.option(flag, name, multiple=True, help=knob.help + " (repeat the option)")
        else:
            option = click.option(flag, name, default=None, help=knob.help,
                                  type=click.Choice(knob.choices) if knob.choices else None)
        function = option(function)
    # X1: "--team-decks draft" is "--team draft": decks drafted (or sealed) from the cube for every game
    return click.option("--team-decks", "team_decks_mode", type=click.Choice(["draft", "sealed"]), default=None,
                        help="team decks drafted or sealed from the cube (--cube) for every game (X1)")(function)


def given_knobs(options: dict) -> dict:
    """The knob options that were given on the command line."""
    return {k: v for k, v in options.items() if k in KNOBS and v not in (None, ())}


def setup_from_options(options: dict, where: str = "command line"):
    values = given_knobs(options)
    mode = options.get("team_decks_mode")
    if mode is not None:
        if "team_decks" in values:
            raise SetupError(f"{where}: --team-decks {mode} and --team name the team decks twice: give one of them")
        values["team_decks"] = (mode,)
    if "policy_params" in values:
        values["policy_params"] = ",".join(values["policy_params"])
    preset = values.pop("preset", "zombie-horde")
    return make_setup(preset, where=where, **values)


@click.group(cls=HordeGroup)
@click.version_option(__version__, prog_name="horde", message=f"%(prog)s %(version)s, {build.describe()}")
def cli():
    """Simulate the Magic: The Gathering co-operative Horde format."""


@cli.command()
@click.option("--seed", type=SEED, default=1, show_default=True, help="the game's seed")
@click.option("--json", "as_json", is_flag=True, help="print JSON Lines, one object per event")
@knob_options
def play(seed, as_json, **options):
    """Play one game and print it turn by turn."""
    from horde.engine import play_game, prepare
    from horde.playlog import render

    setup = setup_from_options(options)
    prepared = prepare(setup)  # every check before playing
    approximated = prepared.approximated
    events = play_game(prepared, seed, trace=True).events or []
    if as_json:
        echo_approximated(approximated, err=True)  # the JSON Lines on stdout stay the game's events
        for event in events:
            click.echo(json.dumps(event, default=str))
        return
    click.echo(f"horde {__version__} - seed {seed} - preset {setup.preset} - {setup.players} players - "
               f"Horde deck {setup.horde_deck} - policy {setup.policy}")
    echo_approximated(approximated)
    catalogue = prepared.catalogue

    def is_creature(name: str) -> bool:
        card = catalogue.token(name) if name in prepared.catalogue.tokens else catalogue.get(name)
        return card.is_creature

    for line in render(events, setup.opponent, is_creature):
        click.echo(line)


def echo_approximated(approximated: dict, err: bool = False) -> None:
    """Name every approximated card once, with the text it drops (--approximate)."""
    if not approximated:
        return
    click.echo(f"APPROXIMATED: {len(approximated)} card(s) play by their facts alone (--approximate); "
               "these results are not exact:", err=err)
    for name, dropped in approximated.items():
        click.echo(f"  {name}: dropped " + ("; ".join(repr(s) for s in dropped) or "nothing"), err=err)


@cli.command()
@click.option("--games", type=GAMES_IN_MEMORY, default=1000, show_default=True)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--quiet", is_flag=True, help="no progress bar")
@knob_options
def simulate(games, seed, workers, as_json, quiet, **options):
    """Play many seeded games and print the team's win rate."""
    from horde.engine import prepare
    from horde.runner import play_many, summarise

    setup = setup_from_options(options)
    approximated = prepare(setup).approximated  # every check before starting workers
    results = list(play_many(setup, seed, games, workers, progress=not quiet))
    summary = summarise(results)
    boss_uses: dict = {}
    entries = defeats = 0
    for r in results:
        for key, n in r.boss_uses.items():
            boss_uses[key] = boss_uses.get(key, 0) + n
        entries += r.lieutenant_entries
        defeats += r.lieutenant_defeats
    summary["lieutenant_entries_per_game"] = entries / games
    summary["lieutenant_defeats_per_game"] = defeats / games
    summary["boss_ability_uses"] = boss_uses
    summary.update({"seed": seed, "setup": setup.to_dict(), "setup_hash": setup.digest(), "version": __version__})
    if setup.approximate:
        summary["approximated"] = {name: list(dropped) for name, dropped in approximated.items()}
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"setup {setup.digest()}: preset {setup.preset}, {setup.players} players, Horde deck "
               f"{setup.horde_deck}, policy {setup.policy}, seed {seed}, horde {__version__}")
    echo_approximated(approximated)
    click.echo(f"games        {summary['games']}")
    click.echo(f"team wins    {summary['team_wins']}")
    click.echo(f"Horde wins   {summary['horde_wins']}")
    click.echo(f"stalls       {summary['stalls']}")
    if summary["aborted"]:
        click.echo(f"aborted      {summary['aborted']} (H15: the work budget stopped these games; their cards make "
                   "them run away)")
    click.echo(f"team win rate {summary['team_win_rate']:.1%} (Wilson 95%: {summary['ci_low']:.1%} - "
               f"{summary['ci_high']:.1%})")
    click.echo(f"mean length  {summary['mean_turns']:.1f} turns")
    if boss_uses:
        click.echo("boss abilities used (share of each boss's activations):")
        by_boss: dict = {}
        for key, n in boss_uses.items():
            name, _, ability = key.partition(": ")
            by_boss.setdefault(name, []).append((ability, n))
        for name, uses in sorted(by_boss.items()):
            total = sum(n for _, n in uses)
            click.echo(f"  {name} ({total} activations)")
            for ability, n in sorted(uses, key=lambda kv: -kv[1]):
                click.echo(f"    {n / total:6.1%}  {ability}")
    if entries or defeats:
        click.echo(f"lieutenants: {summary['lieutenant_entries_per_game']:.2f} entries and "
                   f"{summary['lieutenant_defeats_per_game']:.2f} defeats per game")


@cli.group(cls=HordeGroup)
def decks():
    """Check Horde and team decks."""


def cards_option(function):
    """``--cards PATH`` (repeatable): the user's card files or folders."""
    return click.option("--cards", "cards", multiple=True, metavar="PATH",
                        help="a card file or folder of card files (repeat the option)")(function)


@decks.command("check")
@click.argument("paths", nargs=-1, required=True)
@cards_option
@click.option("--approximate", is_flag=True, help="accept cards whose text is not understood (by their facts)")
@click.option("--banlist", default="default", show_default=True, help="R3 banlist to warn about in team decks")
@click.option("--kind", type=click.Choice(["horde", "team"]), default=None,
              help="check every deck as this kind (default: what each deck says it is)")
def decks_check(paths, cards, approximate, banlist, kind):
    """Validate Horde or team deck files (paths or bundled names) and list every problem, the
    sections each ignores and the cards of the banlist in a team deck. A deck says its kind with
    'Kind horde' or 'Kind team' in its About section, a Commander section (team), or a Horde
    deck's sections (Tokens, Bosses, Lieutenants); one that says nothing is a problem."""
    from horde.catalogue import catalogue_for
    from horde.decks import inspect_deck, resolve_path

    catalogue = catalogue_for(cards, approximate)
    bad = 0
    for name in paths:
        path = str(resolve_path(name, kind))
        check = inspect_deck(path, catalogue, banlist, kind)
        for section, count, line in check.ignored:
            click.echo(f"{path}:{line}: note: section '{section}' ({count} card{'s' * (count != 1)}) is not "
                       f"played in a {check.kind or 'deck'} deck")
        for warning in check.warnings:
            click.echo(warning.one_line())
        for card_name in catalogue.approximated_in(check.cards):
            click.echo(f"{path}: approximated: '{card_name}' plays by its facts alone")
        if check.problems:
            bad += 1
            for problem in check.problems:
                click.echo(problem.one_line(), err=True)
        else:
            click.echo(f"{path} ({check.kind} deck): ok")
    if bad:
        sys.exit(2)


@cli.group(cls=HordeGroup)
def cards():
    """Show how cards are modelled."""


@cards.command("show")
@click.argument("name")
@cards_option
def cards_show(name, cards):
    """Print how a card is modelled: its printed facts and its verbs by hook, and where each came
    from (a card file, or the card index and the Oracle-text compiler)."""
    from horde.catalogue import catalogue_for, facts_of
    from horde.oracle import compile_text

    catalogue = catalogue_for(cards)
    card = catalogue.get(name)
    origin = catalogue.origins.get(card.name)
    click.echo(f"{card.name}  {card.cost if card.cost.value or card.cost.x else ''}".rstrip())
    click.echo(card.type_line())
    if card.power is not None:
        click.echo(f"{'*' if card.pt_amount is not None else card.power}/"
                   f"{'*' if card.pt_amount is not None else card.toughness}")
    if card.loyalty is not None:
        click.echo(f"Loyalty {card.loyalty}")
    if card.keywords:
        click.echo("Keywords: " + ", ".join(sorted(card.keywords)))
    if card.mana:
        click.echo("Mana: {T}: add " + " ".join("/".join(sorted(unit)) for unit in card.mana))
    if card.equip is not None:
        click.echo(f"Equip {card.equip}")
    click.echo(f"Colour identity: {''.join(sorted(card.identity)) or 'colourless'}")
    if card.text:
        click.echo(f"Text: {card.text}")
    made_from: dict = {}
    if origin is not None and origin.kind == "compiled":
        made_from = compile_text(_index_text(card, origin), facts_of(card), catalogue.tokens).made_from
    for hook, effects in card.hooks.items():
        for effect in effects:
            cost = f"{effect.cost:+d}: " if effect.cost is not None else ""
            costs = f"[{', '.join(str(c) for c in effect.costs)}] " if effect.costs else ""
            click.echo(f"  {hook}: {cost}{costs}{effect.describe()}")
    if origin is None or origin.kind == "hand-written":
        where = origin.where if origin else card.source
        click.echo(f"Facts and behaviour: hand-written, defined at {where}")
        return
    click.echo(f"Facts: the card index ({origin.where}), from MTGJSON's AtomicCards" +
               (f"; {origin.note}" if origin.note else ""))
    if origin.kind == "approximated":
        click.echo("Behaviour: APPROXIMATED (--approximate): plays by its facts and the keywords the engine knows; "
                   "dropped: " + ("; ".join(repr(s) for s in origin.dropped) or "nothing"))
        return
    click.echo("Behaviour: compiled from its Oracle text; each line and the sentence it was read from:")
    for line, sentence in made_from.items():
        click.echo(f"  {line}  <-  {sentence!r}")


def _index_text(card, origin) -> str:
    """A compiled card's Oracle text as the index holds it (with its line breaks)."""
    from horde.cardindex import open_index

    index = open_index(Path(origin.where))
    indexed = index.lookup(card.name) if index is not None else None
    return indexed.text if indexed is not None else card.text


@cards.command("import")
@click.argument("file", metavar="FILE")
@click.option("--quiet", is_flag=True, help="no progress bar")
def cards_import(file, quiet):
    """Read MTGJSON's AtomicCards.json (plain, .gz, .xz or .zip) into the card index of the data
    folder ($HORDE_HOME or the platform's user data folder)."""
    from tqdm import tqdm

    from horde.cardindex import import_atomic_cards, index_path

    with tqdm(unit="B", unit_scale=True, unit_divisor=1024, desc="cards import", disable=quiet) as bar:
        def progress(read: int, total: int) -> None:
            bar.total = total
            bar.update(read - bar.n)

        summary = import_atomic_cards(file, progress=progress)
    click.echo(f"imported {summary['cards']} cards from {summary['source']} into {index_path()} "
               f"({summary['refused_layouts']} multi-faced cards kept only to say why they are refused)")


@cards.command("compile")
@click.argument("text")
@click.option("--name", default="this card", show_default=True, help="the card's name (read as ~ in the text)")
@click.option("--type", "type_line", default="Creature", show_default=True,
              help="the card's type line, e.g. 'Instant' or 'Legendary Planeswalker — Liliana'")
def cards_compile(text, name, type_line):
    """Print the behaviour lines the Oracle-text compiler makes of TEXT, or the sentences it cannot read."""
    from horde.catalogue import default_catalogue
    from horde.oracle import Facts, compile_text

    left, _, right = type_line.replace(" - ", " — ").partition("—")
    words = left.split()
    facts = Facts(name, frozenset(w for w in words if w[0].isupper() and w not in ("Legendary", "Basic", "Snow")),
                  frozenset(right.split()), frozenset(w for w in words if w in ("Legendary", "Basic", "Snow")))
    compiled = compile_text(text, facts, default_catalogue().tokens)
    if not compiled.ok:
        for sentence in compiled.unread:
            click.echo(f"not understood: {sentence!r}")
        sys.exit(1)
    for line in compiled.lines:
        click.echo(line)
    if not compiled.lines:
        click.echo("(no behaviour)")


@cards.command("coverage")
@click.argument("deck")
@cards_option
@click.option("--approximate", is_flag=True, help="show which cards --approximate would play by their facts")
def cards_coverage(deck, cards, approximate):
    """For a decklist (a path or a bundled name), where each card's behaviour comes from: a card
    file (hand-written), the index and the compiler (compiled), its facts alone (approximated), or
    refused with the reason."""
    from horde.catalogue import catalogue_for
    from horde.decks import read_deck, resolve_path
    from horde.errors import DeckError

    catalogue = catalogue_for(cards, approximate)
    path = str(resolve_path(deck, None))
    decklist = read_deck(path)
    counts: dict = {}
    seen: set = set()
    for entry in decklist.entries:
        if entry.name.lower() in seen:
            continue
        seen.add(entry.name.lower())
        try:
            card = catalogue.get(entry.name, path, entry.line)
        except DeckError as error:
            kind, detail = "refused", error.message
        else:
            origin = catalogue.origins.get(card.name)
            kind = origin.kind if origin else "hand-written"
            detail = {"hand-written": origin.where if origin else card.source, "compiled": "index and compiler",
                      "approximated": "dropped " + "; ".join(repr(s) for s in origin.dropped) if origin else ""}[kind]
        counts[kind] = counts.get(kind, 0) + entry.count
        click.echo(f"{entry.count:>3} {entry.name:32s} {kind:13s} {detail}")
    total = sum(counts.values())
    click.echo(f"{total} cards: " + ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())))


@cards.command("recall")
@click.option("--verbose", is_flag=True, help="also list each refused card with the sentences not understood")
def cards_recall(verbose):
    """Compile every bundled card's Oracle text and compare it with its hand-written model: how many
    the compiler reproduces exactly (recall), and how many differ (must be none)."""
    from horde.catalogue import bundled_catalogue, recall

    report = recall(bundled_catalogue())
    click.echo(report.describe())
    if verbose:
        for name, unread in report.refused.items():
            click.echo(f"  refused {name}: " + "; ".join(repr(s) for s in unread))
    for name in report.differ:
        click.echo(f"  DIFFERS {name}")


@cards.command("verbs")
def cards_verbs():
    """List the effect vocabulary: every verb with its arguments."""
    from horde.cards import HOOKS
    from horde.effects import VERBS

    for name, verb in sorted(VERBS.items()):
        args = " ".join(f"{k}={'<' + a.kind + '>' if a.required else _default(a.default)}" for k, a in verb.args.items())
        click.echo(f"{name} {args}".rstrip())
        click.echo(f"    {verb.doc}")
    click.echo("\nhooks: " + ", ".join(HOOKS))


def _default(value) -> str:
    if isinstance(value, frozenset):
        return ",".join(sorted(value)) or "none"
    return "none" if value is None else str(value)


@cli.group(cls=HordeGroup, invoke_without_command=True)
@click.pass_context
def policies(ctx):
    """List the team policies with their descriptions and parameters."""
    if ctx.invoked_subcommand is not None:
        return
    from horde.policies import POLICIES, parameters

    for name, cls in POLICIES.items():
        params = ", ".join(f"{k}={v!r}" for k, v in parameters(cls).items()) or "no parameters"
        click.echo(f"{name:10s} {cls.description}  [{params}]")


@policies.command("puzzles")
@click.option("--policy", "names", multiple=True, help="a policy to run (repeat; default: every registered one)")
@click.option("--folder", type=click.Path(file_okay=False, exists=True), default=None,
              help="a folder of puzzle files (default: the bundled puzzles)")
@click.option("--verbose", is_flag=True, help="also list every puzzle a policy misses, with its answer and why")
@click.option("--markdown", is_flag=True, help="print the table as Markdown")
def policies_puzzles(names, folder, verbose, markdown):
    """Run every policy on the policy puzzles; print the puzzles solved per policy and theme."""
    from horde.policies import POLICIES
    from horde.puzzles import load_themes, play_all, score_table

    themes = load_themes(Path(folder) if folder else None)
    chosen = list(names) or list(POLICIES)
    outcomes = play_all(themes, chosen)
    header, rows = score_table(themes, outcomes, chosen)
    count = sum(len(t.puzzles) for t in themes)
    click.echo(f"{count} policy puzzles in {len(themes)} themes: puzzles solved (*: the policy is named for the theme)")
    echo_table(header, rows, markdown)
    if verbose:
        for o in outcomes:
            if not o.solved:
                expected = " or ".join(repr(a) for a in o.puzzle.answers)
                click.echo(f"\n{o.policy} misses {o.puzzle.name} ({o.puzzle.theme}): answered {o.answer!r}, "
                           f"expected {expected}\n  {' '.join(o.puzzle.why.split())}")


@cli.command("run")
@click.argument("experiment_file", metavar="EXPERIMENT")
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
def run_command(experiment_file, workers, scheduler, out, games, max_games, chunk_size, quiet):
    """Run an experiment file: every cell of its sweep, into OUT/NAME-HASH/.

    Running the same command again continues a stopped run where it stopped (Ctrl-C or SIGTERM)."""
    from horde.errors import RunInterrupted
    from horde.experiments import load_experiment
    from horde.runner import describe_cell, run_experiment

    experiment = load_experiment(experiment_file, games=games, max_games=max_games)
    run = experiment.run

    def announce(folder):
        if not quiet:
            click.echo(f"{experiment.name}: {len(experiment.cells)} cell(s), " + (
                f"{run.games} games each" if not run.adaptive else
                f"until a half-width of {run.precision} (at most {run.max_games} games each)")
                + f", seed {experiment.seed} -> {folder}", err=True)

    # The options that name the results folder: with them the run continues where it stopped.
    resume = ["horde", "run", experiment_file] + (["--out", out] if out != "results" else []) + \
        (["--games", str(games)] if games else []) + (["--max-games", str(max_games)] if max_games else [])
    signals: list = []
    try:
        with terminate_as_interrupt(signals):
            outcome = run_experiment(experiment, out, workers=workers, scheduler=scheduler, chunk_size=chunk_size,
                                     progress=not quiet, on_start=announce)
    except KeyboardInterrupt as stop:
        kept = f": {stop.done()} are kept in {stop.folder}" if isinstance(stop, RunInterrupted) else ""
        click.echo(f"interrupted{kept}; to continue, run: {shlex.join(resume)}", err=True)
        sys.exit(128 + (signals[0] if signals else signal.SIGINT))
    if outcome.already_complete:
        click.echo(f"{outcome.folder}: already complete", err=True)
    from horde.runner import approximations

    for cell in approximations(experiment):  # --approximate: named once, with the text dropped
        click.echo(f"APPROXIMATED in cell {cell['cell']} ({cell['label'] or 'base setup'}); these results are not "
                   "exact:")
        for name, dropped in cell["cards"].items():
            click.echo(f"  {name}: dropped " + ("; ".join(repr(s) for s in dropped) or "nothing"))
    width = max(len(summary["label"]) for summary in outcome.cells)
    for summary in outcome.cells:
        click.echo(describe_cell(summary, width))
    click.echo(f"results: {outcome.folder}")


@contextlib.contextmanager
def terminate_as_interrupt(received: list):
    """SIGTERM stops the run as Ctrl-C does (so the manifest records it), in this process only
    and for the block only; the signal's number is appended to ``received``. A second SIGTERM
    while stopping is ignored, so the stop can finish writing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        if not received:
            received.append(signum)
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def echo_table(header: list[str], rows: list[list[str]], markdown: bool = False) -> None:
    """Print rows of text under a header: aligned columns, or a Markdown table."""
    if markdown:
        click.echo("| " + " | ".join(header) + " |")
        click.echo("|" + "---|" * len(header))
        for cells in rows:
            click.echo("| " + " | ".join(cells) + " |")
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)] if rows else [len(h) for h in header]
    click.echo("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    for cells in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())


def load_folders(folders):
    """The games of one results folder, or of several with a ``results`` column naming the folder.
    Results with approximated cards (--approximate) are announced first: never taken for exact."""
    from horde.analysis import combine, load

    results = [load(folder) for folder in folders]
    warn_approximated(results)
    return results[0].games if len(results) == 1 else combine(results)


def warn_approximated(results) -> None:
    """One line first when loaded results hold approximated cards (--approximate): never taken for exact."""
    approximated = sorted({name for r in results for cell in r.manifest.get("approximated") or ()
                           for name in cell["cards"]})
    if approximated:
        click.echo(f"APPROXIMATED: these results are not exact; played by their facts alone: {', '.join(approximated)}")


@cli.command("summary")
@click.argument("folders", nargs=-1, required=True, metavar="RESULTS...")  # horde.analysis.load checks each
@click.option("--by", "by", multiple=True,
              help="group by this column (repeat the option; default: the knobs that vary, and the folder when "
                   "there are several); boss_drawn and lieutenants_drawn split the games by what they drew")
@click.option("--per-cell", is_flag=True, help="group by the knobs that vary too: --by within each cell")
@click.option("--markdown", is_flag=True, help="print a Markdown table (for a README)")
def summary_command(folders, by, per_cell, markdown):
    """Print the team win rate per cell of one or more results folders, with Wilson 95% intervals.

    With --by boss_drawn (or lieutenants_drawn) the games of every cell are pooled under each boss
    (lieutenant) drawn; add --per-cell for one row per cell and boss."""
    from horde.analysis import summary, varying_knobs

    games = load_folders(folders)
    cells = (["results"] if len(folders) > 1 else []) + varying_knobs(games)
    by = list(by)
    if per_cell or not by:
        by = [name for name in cells if name not in by] + by
    table = summary(games, by=by)
    aborted = bool(table["aborted"].any())  # H15: shown whenever a game was aborted
    rows = []
    for row in table.to_dict("records"):
        rate = f"{row['team_win_rate']:.1%} ({row['team_win_low']:.1%}-{row['team_win_high']:.1%})"
        rows.append([str(row[k]) for k in by] + [str(row["games"]), rate, f"{row['turns_mean']:.1f}"]
                    + ([str(row["aborted"])] if aborted else []))
    echo_table(by + ["games", "team win rate (Wilson 95%)", "mean turns"] + (["aborted (H15)"] if aborted else []),
               rows, markdown)


def parse_knobs(text: str, flag: str) -> dict:
    """The knob options written in ``text`` (``--policy control --players 3``), checked as the
    command line checks them; a bad one is a SetupError naming ``flag``."""
    from horde.presets import SetupError

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


def echo_comparison(table, pooled, markdown: bool) -> None:
    """The paired comparison: one row per matching cell (when there are several) and the pooled row."""
    keys = [c for c in table.columns if c not in pooled.columns]
    records = (table.to_dict("records") if keys else []) + [dict(pooled.iloc[0]) | {k: "all" for k in keys}]
    rows = []
    for r in records:
        difference = "" if r["pairs"] == 0 else (f"{_points(r['difference'])} ({_points(r['difference_low'])} to "
                                                 f"{_points(r['difference_high'])})")
        rows.append([str(r[k]) for k in keys] + [str(r["pairs"]), f"{r['win_rate_a']:.1%}", f"{r['win_rate_b']:.1%}",
                                                  str(r["only_a_won"]), str(r["only_b_won"]), difference])
    echo_table(keys + ["pairs", "A wins", "B wins", "only A won", "only B won", "A - B, points (Newcombe paired 95%)"],
               rows, markdown)


@cli.command("compare")
@click.argument("folders", nargs=-1, metavar="[RESULTS_A RESULTS_B]")  # horde.analysis.load checks each
@click.option("--a", "arm_a", default=None, metavar="OPTIONS",
              help='arm A\'s knob options, quoted: --a "--policy control" (plays both arms)')
@click.option("--b", "arm_b", default=None, metavar="OPTIONS",
              help='arm B\'s knob options, quoted: --b "--policy baseline"')
@click.option("--games", type=GAMES_IN_MEMORY, default=1000, show_default=True, help="games each arm plays")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--quiet", is_flag=True, help="no progress bar")
@click.option("--markdown", is_flag=True, help="print a Markdown table (for a README)")
@knob_options
def compare_command(folders, arm_a, arm_b, games, seed, workers, quiet, markdown, **options):
    """Compare the team win rate of two arms on the same seeds, game by game.

    Either two results folders (game i of a cell of A is paired with game i of the cell of B with
    the same seed and the same values of the knobs both share), or two setups played here: --a
    and --b give each arm's knob options, the other knob options set both, and both arms play the
    seeds (--seed, i) for i below --games. Prints the paired difference A - B with Newcombe's
    square-and-add 95% interval, per matching cell and pooled."""
    from horde.presets import SetupError

    played = arm_a is not None or arm_b is not None
    if folders and (played or given_knobs(options)):
        raise SetupError("give two results folders, or --a and --b with knob options, not both")
    if folders:
        if len(folders) != 2:
            raise SetupError(f"give two results folders to compare, not {len(folders)}")
        compare_folders(folders[0], folders[1], markdown)
        return
    if arm_a is None or arm_b is None:
        raise SetupError('give two results folders, or both --a and --b, like --a "--policy control" '
                         '--b "--policy baseline"')
    from horde.engine import prepare

    shared = given_knobs(options)
    setups = []
    approximated: dict = {}
    for flag, text in (("--a", arm_a), ("--b", arm_b)):
        setup = setup_from_options({**shared, **parse_knobs(text, flag)}, where=flag)
        approximated |= prepare(setup).approximated  # every check before playing
        setups.append(setup)
    from horde.analysis import compare_tables, games_table
    from horde.runner import play_many

    tables = [games_table(play_many(setup, seed, games, workers, progress=not quiet), cell=cell)
              for cell, setup in enumerate(setups)]
    pooled = compare_tables(tables[0], tables[1], by=(), names=(arm_a, arm_b))
    for name, text, setup in (("A", arm_a, setups[0]), ("B", arm_b, setups[1])):
        click.echo(f"{name}: {text} (setup {setup.digest()}: preset {setup.preset}, {setup.players} players, "
                   f"Horde deck {setup.horde_deck}, policy {setup.policy})")
    click.echo(f"{games} games each, seeds ({seed}, 0) to ({seed}, {games - 1}), horde {__version__}")
    echo_approximated(dict(sorted(approximated.items())))
    echo_comparison(pooled, pooled, markdown)


def compare_folders(folder_a: str, folder_b: str, markdown: bool) -> None:
    from horde.analysis import ResultsError, compare_tables, load

    a, b = load(folder_a), load(folder_b)
    warn_approximated([a, b])
    table = compare_tables(a.games, b.games, by=None, names=(folder_a, folder_b))
    pooled = compare_tables(a.games, b.games, by=(), names=(folder_a, folder_b))
    if int(pooled["pairs"].iloc[0]) == 0:
        raise ResultsError(f"no game of {folder_a} has a partner in {folder_b}: pairs need the same seed, game index "
                           "and values of the knobs both folders share")
    keys = [c for c in table.columns if c not in pooled.columns]
    click.echo(f"A: {folder_a} ({a.name}, {len(a.games)} games)")
    click.echo(f"B: {folder_b} ({b.name}, {len(b.games)} games)")
    click.echo(f"paired by seed, game index{''.join(', ' + k for k in keys)}; {int(pooled['unpaired'].iloc[0])} "
               "game(s) without a partner left out")
    echo_comparison(table, pooled, markdown)


@cli.command("report")
@click.argument("folder", metavar="RESULTS")
@click.option("--out", default=None, metavar="FILE", help="where to write the page (default: RESULTS/report.html)")
@click.option("--images", default=None, metavar="DIR", help="also save every picture as a PNG in DIR")
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
def report_command(folder, out, images, card_turn, other, target, band, min_games):
    """Write one self-contained HTML page for a results folder: tables, embedded plots, the setup."""
    from horde.report import write_report

    path = write_report(folder, out, card_turn=card_turn, images=images, compare=other, target=target, band=band,
                        min_games=min_games)
    click.echo(f"report: {path}")


class SpreadPlayers(click.Command):
    """Reads ``--players 2 3 4`` (numbers after the flag) as ``--players 2,3,4``."""

    def parse_args(self, ctx, args):
        spread, i = [], 0
        while i < len(args):
            spread.append(args[i])
            if args[i] == "--players":
                numbers = []
                while i + 1 < len(args) and args[i + 1].replace(",", "").isdigit():
                    numbers.append(args[i + 1])
                    i += 1
                if numbers:
                    spread.append(",".join(numbers))
            i += 1
        return super().parse_args(ctx, spread)


@cli.command("tune", cls=SpreadPlayers)
@click.option("--knob", "search", required=True, metavar="KNOB",
              help="the knob to search: cards-per-player, grace-turns, strong-mix (Giants among the strong "
                   "tokens), strong-tokens, life-per-player, reveal-base or max-turns")
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.5,
              show_default=True, help="the team win rate to aim for")
@click.option("--low", type=int, default=None, help="the smallest value to try (default: the knob's own)")
@click.option("--high", type=int, default=None, help="the largest value to try (default: the knob's own)")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--batch", type=GAMES_IN_MEMORY, default=200, show_default=True,
              help="games played at a value between two checks of its interval")
@click.option("--max-games", type=GAMES_IN_MEMORY, default=2000, show_default=True,
              help="the most games played at one value")
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--json", "as_json", is_flag=True, help="print the recommendations as JSON")
@click.option("--quiet", is_flag=True, help="no line per value tried")
@knob_options
def tune_command(search, target, low, high, seed, batch, max_games, workers, as_json, quiet, **options):
    """Find the value of a knob whose team win rate is closest to a target, for each player count
    (--players 2 3 4; default 2 3 4), playing only the games the search needs."""
    from horde.engine import prepare
    from horde.presets import SetupError, convert
    from horde.tune import SEARCHABLE, setup_at, tune

    knob = search.replace("-", "_")
    if knob not in SEARCHABLE:
        raise SetupError(f"--knob {search}: can't be searched; searchable knobs are: "
                         f"{', '.join(k.replace('_', '-') for k in SEARCHABLE)}")
    if options.get(knob) not in (None, ()):
        raise SetupError(f"--{search}: this is the knob being searched; give its range with --low and --high")
    players_text = options.pop("players") or "2,3,4"
    players = [convert("players", p, "--players") for p in players_text.replace(" ", ",").split(",") if p]
    setup = setup_from_options({**options, "players": max(players)})

    def progress(line):
        if not quiet:
            click.echo(line, err=True)

    found = tune(setup, knob, target, players, low, high, seed=seed, batch=batch, max_games=max_games,
                 workers=workers, progress=progress)  # prepares (checks) both ends first
    widest = max(found, key=lambda r: r.players)  # its team decks hold every other player count's
    approximated = prepare(setup_at(setup, knob, widest.value, widest.players)).approximated
    if as_json:
        click.echo(json.dumps({"knob": knob, "target": target, "seed": seed, "setup": setup.to_dict(),
                               "version": __version__, "players": [r.to_dict() for r in found]}
                              | ({"approximated": {k: list(v) for k, v in approximated.items()}} if approximated else {}),
                              indent=2))
        return
    echo_approximated(approximated)
    click.echo(f"{knob} for a team win rate of {target:.0%}: preset {setup.preset}, Horde deck {setup.horde_deck}, "
               f"policy {setup.policy}, seed {seed}, horde {__version__}")
    click.echo(f"{'players':>7}  {knob:>16}  {'team win rate (Wilson 95%)':28}  {'games':>6}  tried")
    for r in found:
        low_rate, high_rate = r.point.interval
        rate = f"{r.point.rate:.1%} ({low_rate:.1%} - {high_rate:.1%})"
        tried = " ".join(f"{p.label}:{p.rate:.0%}" for p in sorted(r.tried, key=lambda p: p.value))
        note = "" if r.reached else "  (target out of range: the nearest end)"
        click.echo(f"{r.players:>7}  {r.label:>16}  {rate:28}  {r.point.games:>6}  {tried}{note}")
    click.echo(f"games played: {sum(r.games_played for r in found)}")


# ---------------------------------------------------------------- drafted and sealed team decks (X1)


@cli.command("draft")
@click.option("--seed", type=int, default=1, show_default=True,
              help="the game's seed: the decks a game of this seed plays with --team-decks")
@click.option("--players", type=click.IntRange(1, 4), default=4, show_default=True, help="team players")
@click.option("--sealed", is_flag=True, help="sealed pools instead of a booster draft (Horde Sealed)")
@click.option("--cube", default=None, help="a bundled cube or a decklist file (default: horde-cube)")
@click.option("--drafter", default=None, help="heuristic, random, or module:Class")
@click.option("--draft-seats", type=int, default=None, help="drafters at the table (default: the players; 8 for one)")
@click.option("--sealed-pool", type=int, default=None, help="cards in each sealed pool (default: 90, 75, 60)")
@click.option("--cards", "cards", multiple=True, help="your card files or folders (repeat the option)")
def draft_command(seed, players, sealed, cube, drafter, draft_seats, sealed_pool, cards):
    """Draft (or deal sealed pools) as a game of this seed would, and print the picks and the decks built."""
    from horde.draft import ROUNDS, seats_of, table_for
    from horde.engine import prepare, stream

    setup = make_setup("zombie-horde", "command line", players=players, team_decks="sealed" if sealed else "draft",
                       cube=cube, drafter=drafter, draft_seats=draft_seats, sealed_pool=sealed_pool,
                       cards=list(cards) or None)
    prepared = prepare(setup)
    if prepared.cube is None or prepared.new_drafter is None:
        raise SetupError("command line: no cube to draft from")
    table = table_for(setup, prepared.cube, prepared.new_drafter, stream(seed, "draft"))
    how = (f"sealed pools of {len(table.seats[0].pool)}" if sealed else
           f"a table of {seats_of(setup)}, 3 packs of 15, passing {', '.join(ROUNDS)}")
    click.echo(f"horde {__version__} - seed {seed} - cube {prepared.cube.name} ({len(prepared.cube.cards)} cards) - "
               f"{players} player(s), {how} - drafter {setup.drafter}")
    for seat in table.seats:
        if not seat.player:
            continue
        click.echo(f"\nPlayer {seat.index + 1}")
        if sealed:
            click.echo(f"  pool ({len(seat.pool)}): " + ", ".join(c.name for c in seat.pool))
        else:
            for number, direction in enumerate(ROUNDS, 1):
                picks = [f"{pick} {card.name}" for r, pick, card in seat.picks if r == number]
                click.echo(f"  round {number} (passing {direction}): " + ", ".join(picks))
        deck = seat.deck or []
        counts: dict[str, int] = {}
        for card in sorted(deck, key=lambda c: (c.is_land, c.mana_value, c.name)):
            counts[card.name] = counts.get(card.name, 0) + 1
        lands = sum(1 for c in deck if c.is_land)
        click.echo(f"  deck ({len(deck)} cards: {len(deck) - lands} spells, {lands} basic lands)")
        for name, count in counts.items():
            click.echo(f"    {count} {name}")
    bots = [seat.index + 1 for seat in table.seats if not seat.player]
    if bots:
        click.echo(f"\nSeats {bots[0]}-{bots[-1]}: seeded bot drafters ({setup.drafter}); each kept 45 picks")


def main():
    cli(prog_name="horde")


if __name__ == "__main__":
    main()
