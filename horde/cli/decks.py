"""``horde decks check``: every problem of a deck, with file and line."""

from __future__ import annotations

import sys

import click

from horde.cli.common import (
    HordeGroup,
    cards_option,
    cli,
    complete_bundled,
)
from horde.cli.words import players_words
from horde.setup import DEFAULTS


@cli.group(cls=HordeGroup)
def decks():
    """Check Horde and team decks."""


@decks.command("check", examples=(
    "horde decks check zombie-horde",
    "horde decks check my-horde.txt --cards my-cards/",
    "horde decks check decks/team/*.txt --banlist none",
))
@click.argument("paths", nargs=-1, required=True, metavar="DECK...", shell_complete=complete_bundled("decks"))
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
    from horde.cards.catalogue import catalogue_for
    from horde.cards.decks import inspect_deck, resolve_path

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
            click.echo(f"{path}: approximated: '{card_name}' plays approximated (its facts and the abilities read)")
        if check.problems:
            bad += 1
            for problem in check.problems:
                click.echo(problem.one_line(), err=True)
        else:
            players = f"; {players_words(check.horde, DEFAULTS['cards_per_player'])}" if check.horde else ""
            click.echo(f"{path} ({check.kind} deck): ok{players}")
    if bad:
        sys.exit(2)
