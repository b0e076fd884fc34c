"""``horde play`` (one game as a player would tell it) and ``horde simulate`` (many games, summarised)."""

from __future__ import annotations

import json

import click

from horde import __version__
from horde.cli.common import (
    GAMES_IN_MEMORY,
    SEED,
    WORKERS,
    cli,
    echo_approximated,
    echo_slots,
    knob_options,
    setup_from_options,
)
from horde.cli.config import config_options, house_rules
from horde.cli.words import boss_ability_words, setup_words, stalls_words


@cli.command(examples=(
    "horde play --seed 7 --players 4",
    "horde play --seed 7 --preset knudson-2011 --json > game.jsonl",
    "horde play --seed 7 --players 3 --policy expert --hands",
))
@click.option("--seed", type=SEED, default=1, show_default=True, help="the game's seed")
@click.option("--json", "as_json", is_flag=True, help="print JSON Lines, one object per event")
@click.option("--hands", is_flag=True, help="show every team decision with each player's hand and mana as it is "
                                           "taken (the same game)")
@config_options
@knob_options
def play(seed, as_json, hands, **options):
    """Play one game and print it turn by turn."""
    from horde.cli.playlog import render
    from horde.play import play_game, prepare

    setup = setup_from_options(options, house=house_rules(options).knobs())
    prepared = prepare(setup)  # every check before playing
    approximated = prepared.approximated
    events = play_game(prepared, seed, trace=True, hands=hands).events or []
    if as_json:
        echo_slots(prepared.slots(), err=True)  # the JSON Lines on stdout stay the game's events
        echo_approximated(approximated, err=True)
        for event in events:
            click.echo(json.dumps(event, default=str))
        return
    click.echo(f"horde {__version__} - seed {seed} - {setup_words(setup)}")
    echo_slots(prepared.slots())
    echo_approximated(approximated)
    catalogue = prepared.catalogue

    def is_creature(name: str) -> bool:
        card = catalogue.token(name) if name in prepared.catalogue.tokens else catalogue.get(name)
        return card.is_creature

    for line in render(events, setup.opponent, is_creature):
        click.echo(line)


@cli.command(examples=(
    "horde simulate --games 10000 --seed 1 --players 3 --preset knudson-2011",
    "horde simulate --games 5000 --grace-turns 2 --cards-per-player 30 --policy control",
    "horde simulate --games 1000 --team-decks draft --json",
))
@click.option("--games", type=GAMES_IN_MEMORY, default=1000, show_default=True, help="games to play")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="the seed of the games: game i plays with the seed (SEED, i)")
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--quiet", is_flag=True, help="no progress bar")
@config_options
@knob_options
def simulate(games, seed, workers, as_json, quiet, **options):
    """Play many seeded games and print the team's win rate."""
    from horde.lab.runner import play_many, summarise
    from horde.play import prepare
    from horde.team.skill import level_of

    house = house_rules(options)
    setup = setup_from_options(options, house=house.knobs())
    prepared = prepare(setup)  # every check before starting workers
    approximated = prepared.approximated
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
    summary.update({"level": level_of(setup), "seed": seed, "setup": setup.to_dict(), "setup_hash": setup.digest(),
                    "version": __version__, "house_rules": house.path})
    if setup.approximate:
        summary["approximated"] = {name: list(dropped) for name, dropped in approximated.items()}
    summary["decks"] = [deck.record() for deck in prepared.slots()]  # how much of each deck is real
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"setup {setup.digest()}: {setup_words(setup)}, team level {level_of(setup)}; seed {seed}, "
               f"horde {__version__}")
    echo_slots(prepared.slots())
    echo_approximated(approximated)
    click.echo(f"games        {summary['games']}")
    click.echo(f"team wins    {summary['team_wins']}")
    click.echo(f"Horde wins   {summary['horde_wins']}")
    click.echo(f"stalls       {summary['stalls']} ({summary['stall_rate']:.1%} of the games; "
               f"{stalls_words(summary['stalls'], setup.max_turns).partition('(')[2]}")
    if summary["aborted"]:
        click.echo(f"aborted      {summary['aborted']} (H15: the work budget stopped these games; their cards make "
                   "them run away)")
    click.echo(f"team win rate {summary['team_win_rate']:.1%} (Wilson 95%: {summary['ci_low']:.1%} - "
               f"{summary['ci_high']:.1%})")
    click.echo(f"of the {summary['decided_games']} decided games (no stall): team {summary['decided_win_rate']:.1%} "
               f"(Wilson 95%: {summary['decided_low']:.1%} - {summary['decided_high']:.1%})")
    click.echo(f"mean length  {summary['mean_turns']:.1f} turns")
    if boss_uses:
        click.echo("boss abilities used (share of each boss's activations):")
        by_boss: dict = {}
        for key, n in boss_uses.items():
            name, ability = boss_ability_words(prepared.catalogue, key)  # as the card reads
            by_boss.setdefault(name, []).append((ability, n))
        for name, uses in sorted(by_boss.items()):
            total = sum(n for _, n in uses)
            click.echo(f"  {name} ({total} activations)")
            for ability, n in sorted(uses, key=lambda kv: -kv[1]):
                click.echo(f"    {n / total:6.1%}  {ability}")
    if entries or defeats:
        click.echo(f"lieutenants: {summary['lieutenant_entries_per_game']:.2f} entries and "
                   f"{summary['lieutenant_defeats_per_game']:.2f} defeats per game")
