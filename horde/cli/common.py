"""What every ``horde`` command shares: the command group that turns bad input into one line and
exit code 2, the knob options, the numbers of the command line and small printing helpers."""

from __future__ import annotations

import sys

import click

from horde import __version__, build
from horde.errors import HordeError
from horde.limits import SEED_MAX, SIMULATE_GAMES_MAX, WORKERS_MAX
from horde.setup import KNOBS, SetupError, make_setup

# The numbers of the command line, within the input contract's limits (docs/limits.md).
SEED = click.IntRange(0, SEED_MAX)


WORKERS = click.IntRange(1, WORKERS_MAX)


GAMES_IN_MEMORY = click.IntRange(1, SIMULATE_GAMES_MAX)  # simulate and compare keep every game's record


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


def echo_approximated(approximated: dict, err: bool = False) -> None:
    """Name every approximated card once, with the text it drops (--approximate)."""
    if not approximated:
        return
    click.echo(f"APPROXIMATED: {len(approximated)} card(s) play approximated (--approximate); "
               "these results are not exact:", err=err)
    for name, dropped in approximated.items():
        click.echo(f"  {name}: dropped " + ("; ".join(repr(s) for s in dropped) or "nothing"), err=err)


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
    cli(prog_name="horde")


if __name__ == "__main__":
    main()
