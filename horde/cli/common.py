"""What every ``horde`` command shares: the command group that turns bad input into one line and
exit code 2, the knob options (typed, with their choices, range and default in --help, and the
names the shell completes), help grouped as a table thinks (players, Horde deck, boss and
lieutenants, team, run) with examples, the numbers of the command line and small printing
helpers."""

from __future__ import annotations

import _thread
import contextlib
import io
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import click

from horde import __version__, build
from horde.errors import HordeError
from horde.limits import SEED_MAX, SIMULATE_GAMES_MAX, WORKERS_MAX, quoted
from horde.setup import DEFAULTS, GROUP_OF, KNOBS, PRESETS, SetupError, make_setup

# The numbers of the command line, within the input contract's limits (docs/limits.md).
SEED = click.IntRange(0, SEED_MAX)


WORKERS = click.IntRange(1, WORKERS_MAX)


GAMES_IN_MEMORY = click.IntRange(1, SIMULATE_GAMES_MAX)  # simulate and compare keep every game's record


class HordeGroup(click.Group):
    """A click group that turns HordeError into one line and exit code 2, and a command line
    click can't read (an unknown option, a number out of range) into one line too. Its commands'
    help is grouped, with examples (``HordeCommand``)."""

    def invoke(self, ctx):
        for stream in (sys.stdout, sys.stderr):  # a name that is not UTF-8 printed as \\xNN, never an error
            if isinstance(stream, io.TextIOWrapper) and stream.errors != "horde.escaped":
                stream.reconfigure(errors="horde.escaped")
        try:
            return super().invoke(ctx)
        except HordeError as error:
            click.echo(f"error: {error.one_line()}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(stop_code())

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # stopped while reading the command line: one line, as in invoke
            click.echo("interrupted", err=True)
            sys.exit(stop_code())

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
            sys.exit(stop_code() if stop_signals() else 1)


class StopOnTerminate:
    """The SIGTERM handler of the command line: the first SIGTERM stops the command as Ctrl-C does
    (KeyboardInterrupt: a run records it in its manifest, an import removes its temporary file);
    any later one is ignored, so the stop finishes writing and the command exits with 143.

    A stop can't be swallowed. Python only prints an exception raised while a finaliser runs (a
    ``__del__``: "Exception ignored in ..."); the handler's ``hook`` (``sys.unraisablehook`` while
    the handler is in place) takes such a KeyboardInterrupt, prints nothing, and has it raised
    again a moment later, outside the finaliser. A long task also asks ``claim`` between its steps
    (``horde run`` between chunks): whatever swallowed the stop, the task stops there."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self.owed = False  # a stop was swallowed: raised again by the next call

    def __call__(self, signum: int, frame: object) -> None:
        if not self.received:
            self.received.append(signum)
        elif not self.owed:
            return
        self.owed = False
        raise KeyboardInterrupt

    def claim(self) -> bool:
        """Whether a stop was asked for; the caller raises it now (so it is not raised again)."""
        self.owed = False
        return bool(self.received)

    def hook(self, previous: Callable[[Any], object]) -> Callable[[Any], object]:
        """``sys.unraisablehook`` that has a swallowed KeyboardInterrupt raised again, and hands
        every other unraisable exception to ``previous``."""

        def unraisable(problem: Any) -> None:
            if not isinstance(problem.exc_value, KeyboardInterrupt):
                previous(problem)
                return
            self.owed = bool(self.received)
            # Not from here (the finaliser is still running): from another thread, a moment later,
            # as the signal itself (this handler for SIGTERM, Python's for Ctrl-C).
            signum = signal.SIGTERM if self.received else signal.SIGINT
            threading.Thread(target=_raise_later, args=(signum,), daemon=True).start()

        return unraisable


def _raise_later(signum: signal.Signals) -> None:
    time.sleep(0.01)
    _thread.interrupt_main(signum)


def stop_signals() -> list[int]:
    """The signals that stopped this command (SIGTERM), if its handler is the command line's."""
    handler = signal.getsignal(signal.SIGTERM)
    return handler.received if isinstance(handler, StopOnTerminate) else []


def stop_code(received: list[int] | None = None) -> int:
    """The exit code of a command stopped: 128 + the signal (143 for SIGTERM, 130 for Ctrl-C);
    ``received``: the signals a ``terminate_as_interrupt`` block heard."""
    return 128 + (received or stop_signals() or [signal.SIGINT])[0]


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[StopOnTerminate]:
    """SIGTERM stops the block as Ctrl-C does (``StopOnTerminate``), in this process only; yields
    the handler (``received``: the signals received). The ``horde`` program keeps its handler to
    the end (a second SIGTERM, even while it exits, is ignored); called in-process, the handler is
    the block's and the one before is put back after it."""
    current = signal.getsignal(signal.SIGTERM)
    if isinstance(current, StopOnTerminate) or threading.current_thread() is not threading.main_thread():
        yield current if isinstance(current, StopOnTerminate) else StopOnTerminate()
        return
    handler = StopOnTerminate()
    previous = signal.signal(signal.SIGTERM, handler)
    hook = sys.unraisablehook
    sys.unraisablehook = handler.hook(hook)
    try:
        yield handler
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
        sys.unraisablehook = hook


# Command-line names of the knobs that read better than their field names.
OPTION_NAMES = {"horde_deck": "--horde", "team_decks": "--team", "policy_params": "--policy-param"}
# -h as well as --help, for every command; help lines as wide as the terminal allows, up to 110.
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 110}


def knob_names(name: str) -> list[str]:
    """The names a knob may take that the shell completes and --help lists: its choices, the
    presets, the bundled decks, the registered policies, the bundled Horde decks' bosses."""
    knob = KNOBS[name]
    if knob.choices:
        return list(knob.choices)
    if knob.kind == "optional_int":
        return [knob.unset]
    from horde.cards.decks import bundled_names

    if name == "preset":
        return list(PRESETS)
    if name == "horde_deck":
        return bundled_names("horde")
    if name == "team_decks":
        return bundled_names("team") + ["draft", "sealed"]
    if name == "policy":
        from horde.team.policies import POLICIES

        return list(POLICIES)
    if name == "boss":
        return ["random", "none"] + bundled_bosses()
    if name == "schemes":
        return ["none"] + bundled_names("schemes")
    if name == "cube":
        return bundled_names("cube")
    if name == "drafter":
        from horde.team.draft import DRAFTERS

        return list(DRAFTERS)
    if name == "banlist":
        return ["default", "none"]
    return []


def bundled_bosses() -> list[str]:
    """The bosses of the bundled Horde decks' Bosses sections (B1), in deck order, each once."""
    from horde.cards.catalogue import decks_dir
    from horde.cards.decklists import read_decklist
    from horde.cards.decks import bundled_names

    names: dict[str, None] = {}
    for deck in bundled_names("horde"):
        with contextlib.suppress(HordeError):
            for entry in read_decklist(decks_dir() / "horde" / f"{deck}.txt", "horde").section("bosses"):
                names.setdefault(entry.name)
    return list(names)


# What an unset knob means, for --help's default.
UNSET_DEFAULTS = {"fixed_life": "life per player x players", "horde_size": "cards per player x players",
                  "hydra_heads": "players + 1", "god_throngs": "players + 1", "draft_seats": "the players (8 for one)",
                  "sealed_pool": "90, 75, 60 for 2, 3, 4 players; 90 for one", "schemes": "the Horde deck's own",
                  "cards": "none", "policy_params": "none"}


def knob_default(name: str) -> str:
    """A knob's default as --help shows it: the zombie-horde preset's value, in the option's words."""
    knob, value = KNOBS[name], DEFAULTS[name]
    if name in UNSET_DEFAULTS and value in (None, "", ()):
        return UNSET_DEFAULTS[name]
    if knob.kind == "bool":
        flag = OPTION_NAMES.get(name, "--" + name.replace("_", "-"))[2:]
        return flag if value else f"no-{flag}"
    if value is None:
        return knob.unset
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


class KnobType(click.ParamType):
    """A knob's value as written on the command line: checked with the other knobs by
    ``make_setup`` (one line naming the knob), shown in --help by its kind and choices, and
    completed by the shell from the names it may take."""

    def __init__(self, name: str):
        self.knob = name
        knob = KNOBS[name]
        self.name = {"int": "integer", "optional_int": "integer"}.get(knob.kind, "text")

    def convert(self, value, param, ctx):
        return value  # checked by make_setup, with the preset and the other knobs

    def get_metavar(self, param, ctx=None):
        knob = KNOBS[self.knob]
        if knob.choices:
            return "[" + "|".join(knob.choices) + "]"
        if knob.kind == "int":
            return "INTEGER"
        if knob.kind == "optional_int":
            return f"INTEGER|{knob.unset}" if knob.unset else "INTEGER"
        return {"preset": "PRESET", "horde_deck": "DECK", "team_decks": "DECK", "policy": "POLICY",
                "policy_params": "NAME=VALUE", "boss": "BOSS", "cards": "PATH", "banlist": "BANLIST",
                "schemes": "SCHEMES", "cube": "CUBE", "drafter": "DRAFTER", "strong_mix": "GIANTS:ARMIES"}.get(
                    self.knob, "TEXT")

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        names = [n for n in knob_names(self.knob) if n.casefold().startswith(incomplete.casefold())]
        if self.knob in ("horde_deck", "team_decks", "cards", "banlist", "schemes", "cube"):
            return [CompletionItem(n) for n in names] + [CompletionItem(incomplete, type="file")]
        return [CompletionItem(n) for n in names]


class KnobOption(click.Option):
    """A knob's option: its help ends with its range, or the names it takes (read when --help is
    shown: the bundled decks and bosses), then its default (the zombie-horde preset's: the option
    itself defaults to unset, so that a preset's own value stands)."""

    def __init__(self, *args, shown_default: str | None = None, **extra):
        super().__init__(*args, **extra)
        self.shown_default = shown_default

    def get_help_record(self, ctx):
        knob = KNOBS[self.name]
        extra = ""
        if knob.kind in ("int", "optional_int") and knob.low is not None:
            extra = f"; {knob.low} to {knob.high}" + (f", or {knob.unset}" if knob.unset else "")
        elif not knob.choices and knob.kind != "bool":
            names = knob_names(self.name)
            if self.name == "boss":  # boss names hold commas (B1)
                extra = "; the bundled Horde decks' bosses: " + "; ".join(names[2:])
            elif names:
                extra = "; " + ", ".join(names)
        if self.shown_default is not None:
            extra += f"  [default: {self.shown_default}]"
        saved = self.help
        self.help = (self.help or "") + extra
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = saved


def knob_options(function):
    """Add one option per knob of RULES.md section D (and the rules' options) to a command: typed,
    with its choices or names, its range and its default in --help, completed by the shell."""
    for name in reversed(list(KNOBS)):
        knob = KNOBS[name]
        flag = OPTION_NAMES.get(name, "--" + name.replace("_", "-"))
        default = knob_default(name)
        shown = {"shown_default": default}
        if knob.kind == "bool":
            option = click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=knob.help, cls=KnobOption,
                                  **shown)
        elif knob.kind in ("decks", "params", "paths"):
            option = click.option(flag, name, multiple=True, help=knob.help + " (repeat the option)",
                                  type=KnobType(name), cls=KnobOption, **shown)
        else:
            option = click.option(flag, name, default=None, help=knob.help, type=KnobType(name), cls=KnobOption,
                                  **shown)
        function = option(function)
    # X1: "--team-decks draft" is "--team draft": decks drafted (or sealed) from the cube for every game
    return click.option("--team-decks", "team_decks_mode", type=click.Choice(["draft", "sealed"]), default=None,
                        help="team decks drafted or sealed from the cube (--cube) for every game (X1)")(function)


def complete_bundled(folder: str):
    """A shell completion of an argument: the bundled names of ``folder`` (``experiments``, or
    ``decks`` for every bundled deck), then the files."""

    def complete(ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        if folder == "experiments":
            from horde.bundled import bundled_folder

            names = sorted(p.stem for p in bundled_folder("experiments").glob("*.toml"))
        else:
            from horde.cards.decks import bundled_names

            names = bundled_names("horde") + bundled_names("team")
        return [CompletionItem(n) for n in names if n.casefold().startswith(incomplete.casefold())] + \
            [CompletionItem(incomplete, type="file")]

    return complete


# The sections of a command's --help, in order; an option not named here is under "Run".
SECTIONS = ("Setup", "Players", "Horde deck", "Boss and lieutenants", "Team", "Opponents and variants", "Run")
OPTION_SECTIONS = {"team_decks_mode": "Team", "config": "Setup", "no_config": "Setup"}


class HordeCommand(click.Command):
    """A command whose --help groups its knob options (setup, players, Horde deck, boss and
    lieutenants, team, opponents; the rest under Run) and ends with examples."""

    def __init__(self, *args, examples: tuple[str, ...] = (), **extra):
        super().__init__(*args, **extra)
        self.examples = examples

    def format_options(self, ctx, formatter):
        sections: dict[str, list] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            name = param.name or ""
            section = GROUP_OF.get(name) or OPTION_SECTIONS.get(name, "Run")
            sections.setdefault(section, []).append(record)
        for title in SECTIONS:
            if title in sections:
                with formatter.section(title if title != "Run" or len(sections) > 1 else "Options"):
                    formatter.write_dl(sections[title])

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        if self.examples:
            with formatter.section("Examples"):
                for example in self.examples:  # as typed, never wrapped
                    formatter.write(" " * formatter.current_indent + example + "\n")


def given_knobs(options: dict) -> dict:
    """The knob options that were given on the command line."""
    return {k: v for k, v in options.items() if k in KNOBS and v not in (None, ())}


def setup_from_options(options: dict, where: str = "command line", house: dict | None = None):
    """The setup of a command's knob options, over the house rules' knobs (``house``, as
    ``make_setup`` takes them) over the preset."""
    values = given_knobs(options)
    mode = options.get("team_decks_mode")
    if mode is not None:
        if "team_decks" in values:
            raise SetupError(f"{where}: --team-decks {mode} and --team name the team decks twice: give one of them")
        values["team_decks"] = (mode,)
    if "policy_params" in values:
        for given in values["policy_params"]:
            if not given.partition("=")[0].strip() or "=" not in given:  # an empty one is no parameter
                raise SetupError(f"{where}: --policy-param {quoted(given)}: expected NAME=VALUE, like "
                                 "wrath_threshold=12")
        values["policy_params"] = ",".join(values["policy_params"])
    base = dict(house or {})
    if "policy" in values:  # another policy than the house's: not its parameters
        base.pop("policy_params", None)
    knobs = base | values
    preset = knobs.pop("preset", "zombie-horde")
    return make_setup(preset, where=where, **knobs)


HordeGroup.command_class = HordeCommand
HordeGroup.group_class = HordeGroup


@click.group(cls=HordeGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="horde", message=f"%(prog)s %(version)s, {build.describe()}")
def cli():
    """Simulate the Magic: The Gathering co-operative Horde format."""


def echo_approximated(approximated: dict, err: bool = False) -> None:
    """Name every approximated card once, with the text it drops (--approximate)."""
    if not approximated:
        return
    click.echo(f"APPROXIMATED: {len(approximated)} card(s) play approximated (--approximate); "
               "these results are not exact:", err=err)
    for name, dropped in approximated.items():
        click.echo(f"  {name}: dropped " + ("; ".join(repr(s) for s in dropped) or "nothing"), err=err)


def slots_words(slots) -> list[str]:
    """What the card slots of each deck are (``horde.play.DeckSlots``), in lines: one when every
    slot is exact, else a warning and one line a deck."""
    if all(deck.exact == deck.slots for deck in slots):
        return ["card slots: every deck exact (" + ", ".join(f"{d.deck} ({d.role}) {d.slots}" for d in slots) + ")"]
    return ["NOT EXACT: card slots per deck (approximated: some of the card's text dropped; blank: none of it "
            "read); these results are not the group's decks as printed:"] + [f"  {d.describe()}" for d in slots]


def echo_slots(slots, err: bool = False) -> None:
    """Print what the card slots of each deck are (``slots_words``)."""
    for line in slots_words(slots):
        click.echo(line, err=err)


def cards_option(function):
    """``--cards PATH`` (repeatable): the user's card files or folders."""
    return click.option("--cards", "cards", multiple=True, metavar="PATH",
                        help="a card file or folder of card files (repeat the option)")(function)


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


def main():
    stop = StopOnTerminate()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)  # exit 143, however many SIGTERMs come
        sys.unraisablehook = stop.hook(sys.unraisablehook)  # a stop no finaliser can swallow
    try:
        cli(prog_name="horde")
    finally:
        # The command has ended, stopped or not: a SIGTERM while the process exits has nothing left to
        # stop, and Python's own shutdown would put the default back (it would kill): ignore it.
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, signal.SIG_IGN)


if __name__ == "__main__":
    main()
