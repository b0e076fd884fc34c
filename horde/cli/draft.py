"""``horde draft``: the booster draft or sealed pools a game of a seed would play."""

from __future__ import annotations

import click

from horde import __version__
from horde.cli.common import (
    cli,
)
from horde.setup import SetupError, make_setup


@cli.command("draft", examples=(
    "horde draft --seed 7 --players 2",
    "horde draft --seed 7 --players 3 --sealed",
))
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
    from horde.play import prepare, stream
    from horde.team.draft import ROUNDS, seats_of

    setup = make_setup("zombie-horde", "command line", players=players, team_decks="sealed" if sealed else "draft",
                       cube=cube, drafter=drafter, draft_seats=draft_seats, sealed_pool=sealed_pool,
                       cards=list(cards) or None)
    prepared = prepare(setup)
    if prepared.drafting is None:
        raise SetupError("command line: no cube to draft from")
    table = prepared.drafting.table(stream(seed, "draft"))
    how = (f"sealed pools of {len(table.seats[0].pool)}" if sealed else
           f"a table of {seats_of(setup)}, 3 packs of 15, passing {', '.join(ROUNDS)}")
    click.echo(f"horde {__version__} - seed {seed} - cube {prepared.drafting.cube.name} ({len(prepared.drafting.cube.cards)} cards) - "
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
