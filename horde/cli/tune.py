"""``horde tune``: the value of a knob that brings the team's win rate closest to a target."""

from __future__ import annotations

import json

import click

from horde import __version__
from horde.cli.common import (
    GAMES_IN_MEMORY,
    SEED,
    WORKERS,
    HordeCommand,
    cli,
    echo_approximated,
    knob_options,
    setup_from_options,
)
from horde.cli.config import config_options, house_rules
from horde.cli.words import setup_words
from horde.setup import SetupError


class SpreadPlayers(HordeCommand):
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


@cli.command("tune", cls=SpreadPlayers, examples=(
    "horde tune --target 0.5 --knob cards-per-player --players 2 3 4",
    "horde tune --knob grace-turns --target 0.4 --players 3 --preset knudson-2011",
))
@click.option("--knob", "search", required=True, metavar="KNOB",
              help="the knob to search: cards-per-player, grace-turns, strong-mix (Giants among the strong "
                   "tokens), strong-tokens, life-per-player, reveal-base or max-turns")
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.5,
              show_default=True, help="the team win rate to aim for")
@click.option("--low", type=int, default=None, help="the smallest value to try (default: the knob's own)")
@click.option("--high", type=int, default=None, help="the largest value to try (default: the knob's own)")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="the seed of the games: game i plays with the seed (SEED, i)")
@click.option("--batch", type=GAMES_IN_MEMORY, default=200, show_default=True,
              help="games played at a value between two checks of its interval")
@click.option("--max-games", type=GAMES_IN_MEMORY, default=2000, show_default=True,
              help="the most games played at one value")
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--json", "as_json", is_flag=True, help="print the recommendations as JSON")
@click.option("--quiet", is_flag=True, help="no line per value tried")
@config_options
@knob_options
def tune_command(search, target, low, high, seed, batch, max_games, workers, as_json, quiet, **options):
    """Find the value of a knob whose team win rate is closest to a target, for each player count
    (--players 2 3 4; default 2 3 4), playing only the games the search needs."""
    from horde.lab.tune import SEARCHABLE, setup_at, tune
    from horde.play import prepare
    from horde.setup import convert

    knob = search.replace("-", "_")
    if knob not in SEARCHABLE:
        raise SetupError(f"--knob {search}: can't be searched; searchable knobs are: "
                         f"{', '.join(k.replace('_', '-') for k in SEARCHABLE)}")
    if options.get(knob) not in (None, ()):
        raise SetupError(f"--{search}: this is the knob being searched; give its range with --low and --high")
    players_text = options.pop("players") or "2,3,4"
    players = [convert("players", p, "--players") for p in players_text.replace(" ", ",").split(",") if p]
    setup = setup_from_options({**options, "players": max(players)}, house=house_rules(options).knobs())

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
    click.echo(f"{knob} for a team win rate of {target:.0%}: {setup_words(setup)}; seed {seed}, horde {__version__}")
    click.echo(f"{'players':>7}  {knob:>16}  {'team win rate (Wilson 95%)':28}  {'games':>6}  tried")
    for r in found:
        low_rate, high_rate = r.point.interval
        rate = f"{r.point.rate:.1%} ({low_rate:.1%} - {high_rate:.1%})"
        tried = " ".join(f"{p.label}:{p.rate:.0%}" for p in sorted(r.tried, key=lambda p: p.value))
        note = "" if r.reached else "  (target out of range: the nearest end)"
        click.echo(f"{r.players:>7}  {r.label:>16}  {rate:28}  {r.point.games:>6}  {tried}{note}")
    click.echo(f"games played: {sum(r.games_played for r in found)}")
