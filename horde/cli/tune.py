"""``horde tune``: the value of a knob that brings the team's win rate closest to a target, for each team
level and player count, at every setting of other knobs and house rules; ``horde calibrate``: the
team skill that best explains a group's own games; ``horde doctor``: swaps of a Horde deck's cards
that bring the win rate to the target."""

from __future__ import annotations

import json
from pathlib import Path

import click

from horde import __version__
from horde.cli.common import (
    GAMES_IN_MEMORY,
    SEED,
    WORKERS,
    HordeCommand,
    cli,
    echo_approximated,
    echo_table,
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
    "horde tune --target 0.5 --players 2 3 4",
    "horde tune --players 3 --target 0.5 --vary grace-turns=2,4 --skill novice,club,expert",
    "horde tune --knob grace-turns --target 0.4 --players 3 --preset knudson-2011",
))
@click.option("--knob", "search", default=None, metavar="KNOB",
              help="the knob to search (default cards-per-player; none: only measure the --vary settings): "
                   "cards-per-player, grace-turns, strong-mix (Giants among the strong tokens), strong-tokens, "
                   "life-per-player, reveal-base, max-turns or token-percent")
@click.option("--vary", "vary", multiple=True, metavar="KNOB[=V1,V2]",
              help="search (or measure) at every value of this knob too: a second numeric knob, a categorical "
                   "knob or a house rule such as lieutenants or boss=none,random (repeat the option)")
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.5,
              show_default=True, help="the team win rate to aim for")
@click.option("--band", type=click.FloatRange(0, 1, max_open=True), default=0.05, show_default=True,
              help="list the settings measured within this distance of --target")
@click.option("--low", type=int, default=None, help="the smallest value to try (default: the knob's own, "
                                                     "bounded by a fixed deck's size)")
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
def tune_command(search, vary, target, band, low, high, seed, batch, max_games, workers, as_json, quiet, **options):
    """Find the value of a knob whose team win rate is closest to a target, for each team level
    (--skill novice,club,expert; default club) and player count (--players 2 3 4; default 2 3 4),
    at every setting of the knobs given with --vary, playing only the games the search needs."""
    from horde.files import shown
    from horde.lab.tune import SEARCHABLE, STALL_WARNING, calibration_of, in_band, setup_at, tune
    from horde.play import prepare
    from horde.setup import convert

    knob = None if search == "none" else (search or "cards-per-player").replace("-", "_")
    if knob is None and not vary:
        raise SetupError("--knob none: give the knobs to measure with --vary")
    if knob is not None and knob not in SEARCHABLE:
        raise SetupError(f"--knob {search}: can't be searched; searchable knobs are: "
                         f"{', '.join(k.replace('_', '-') for k in SEARCHABLE)}")
    varied: dict = {}
    for text in vary:
        name, _, values = text.partition("=")
        varied[name.strip().replace("-", "_")] = [v for v in values.split(",") if v.strip()] or None
    for name in ([knob] if knob else []) + list(varied):
        if options.get(name) not in (None, ()):
            raise SetupError(f"--{name.replace('_', '-')}: this knob is searched or varied; give its values with "
                             "--low and --high or --vary")
    players_text = options.pop("players") or "2,3,4"
    players = [convert("players", p, "--players") for p in players_text.replace(" ", ",").split(",") if p]
    skills = [s for s in (options.pop("skill") or "").split(",") if s.strip()]
    setup = setup_from_options({**options, "players": max(players)}, house=house_rules(options).knobs())
    calibrations = {s: c for s in skills if (c := calibration_of(s)) is not None}

    def progress(line):
        if not quiet:
            click.echo(line, err=True)

    recommendations: list = []
    found = tune(setup, knob, target, players, low, high, vary=varied, skills=skills, seed=seed, batch=batch,
                 max_games=max_games, workers=workers, progress=progress, band=band,
                 recommendations=recommendations)  # prepares (checks) every setup first
    widest = max(found, key=lambda r: r.players)  # its team decks hold every other player count's
    at = widest.setup or setup
    approximated = prepare(setup_at(at, knob, widest.value) if knob and widest.value is not None else at).approximated
    shown_setup = setup.to_dict() | {"players": sorted(set(players))}
    if skills:  # the levels asked for, as given (a calibration file by its name): the skill plays, not the policy
        shown_setup = {k: v for k, v in shown_setup.items() if k not in ("policy", "policy_params")}
        shown_setup["skill"] = skills if len(skills) > 1 else skills[0]
    games = sum(r.games_played for r in found) + sum(r.games_played for r in recommendations)
    if as_json:
        click.echo(json.dumps({"knob": knob, "target": target, "band": band, "seed": seed, "setup": shown_setup,
                               "version": __version__, "results": [r.to_dict() for r in found]}
                              | ({"calibrations": [c.to_dict() for c in calibrations.values()],
                                  "recommendations": [r.to_dict() for r in recommendations]} if calibrations else {})
                              | ({"approximated": {k: list(v) for k, v in approximated.items()}} if approximated else {})
                              | {"games_played": games}, indent=2))
        return
    echo_approximated(approximated)
    what = knob or "the settings"
    counts = sorted(set(players))
    click.echo(f"{what} for a team win rate of {target:.0%}: {setup_words(setup, players=counts)}; seed {seed}, "
               f"horde {__version__}")
    for calibration in calibrations.values():
        click.echo(f"skill from {shown(calibration.path)}: {calibration.skill:.2f} ({calibration.level()}), 95% interval "
                   f"{calibration.low:.2f} to {calibration.high:.2f}, from {calibration.games} games"
                   + (f"; its warning: {calibration.warning}" if calibration.warning else ""))
    names = list(varied)
    header = ["level", "players"] + names + [knob or "setting", "team win rate (Wilson 95%)", "stalls",
                                             "decided games: team win rate", "games", "tried"]
    rows = []
    for r in found:
        low_rate, high_rate = r.point.interval
        decided_low, decided_high = r.point.decided_interval
        answer = r.range_label if knob else ("in reach" if r.reached else "out of reach")
        if knob and not r.reached:
            answer += " (target out of range: the nearest end)"
        tried = " ".join(f"{p.label}:{p.rate:.0%}" for p in r.tried) if knob else ""
        rows.append([r.level, str(r.players)] + [_value(r.setting[n]) for n in names]
                    + [answer, f"{r.point.rate:.1%} ({low_rate:.1%} - {high_rate:.1%})", f"{r.point.stall_rate:.1%}",
                       f"{r.point.decided_rate:.1%} ({decided_low:.1%} - {decided_high:.1%})", str(r.point.games),
                       tried])
    echo_table(header, rows)
    if recommendations:
        click.echo("(a calibrated skill's rates are read between the two grid skills around it; their games: the "
                   "precision of that reading)")
    for r in found:
        if r.stalls_warned:  # H14: stalls count as team losses in the team win rate
            click.echo(f"stalls: {r.level}, {r.players} players{_setting(r.setting)}"
                       f"{f', {knob} {r.label}' if knob else ''}: {r.point.stall_rate:.1%} of the games stalled (H14), "
                       f"more than {STALL_WARNING:.0%}; they count as losses in the team win rate")
    for rec in recommendations:
        best = rec.best
        chances = ", ".join(f"{label}: {chance:.0%}" for _, label, chance in rec.chances)
        click.echo(f"recommended for {shown(rec.calibration.path)} (skill {rec.calibration.skill:.2f}, 95% interval "
                   f"{rec.calibration.low:.2f} to {rec.calibration.high:.2f}), {rec.players} players"
                   f"{_setting(rec.setting)}: {knob} {rec.range_label} (the answers from the interval's low end to its "
                   f"high end); the chance that the team wins {target - band:.0%}-{target + band:.0%} given what the "
                   f"games say of its skill: {chances}"
                   + (f"; the best: {best[1]} ({best[2]:.0%})" if best else ""))
    inside = in_band(found, target, band)
    click.echo(f"settings measured within {target - band:.0%}-{target + band:.0%}: " + (
        "; ".join(f"{r.level}, {r.players} players{_setting(r.setting)}" + (f", {knob} {p.label}" if knob else "")
                  + f" ({p.rate:.1%})" for r, p in inside) or "none"))
    click.echo(f"games played: {games}")


for _param in tune_command.params:  # tune plays several player counts: its --players says so
    if _param.name == "players":
        _param.help = "team players: one count, or several (--players 2 3 4 or 2,3,4)"
        _param.shown_default = "2 3 4"  # type: ignore[attr-defined]


@cli.command("calibrate", examples=(
    "horde calibrate our-games.csv",
    "horde calibrate our-games.csv --out our-table.toml && horde tune --players 3 --skill our-table.toml",
))
@click.argument("games_file", metavar="GAMES")
@click.option("--out", default=None, metavar="FILE",
              help="where to write the calibration (default: GAMES with .toml for its extension; GAMES-calibration.toml "
                   "for a GAMES that is itself a .toml file)")
@click.option("--grid", default="0,0.5,1,1.5,2", show_default=True, metavar="S1,S2,...",
              help="the skills simulated, from 0 (novice) to 3 (clairvoyant)")
@click.option("--games", "simulated", type=GAMES_IN_MEMORY, default=2000, show_default=True,
              help="the most games simulated per skill and setup (it stops sooner once the simulation's own error is "
                   "small beside the interval)")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--no-cache", "no_cache", is_flag=True, help="play every simulated game afresh, even those the games "
                                                          "cache of the data folder holds")
@click.option("--quiet", is_flag=True, help="no line per batch of simulated games")
@config_options
def calibrate_command(games_file, out, grid, simulated, seed, workers, no_cache, quiet, **options):
    """Find the team skill that best explains a group's own games (a CSV file: docs/analysis.md)
    and write it to a file that --skill reads (tune, simulate, run, report)."""
    from horde.cli.words import differing_words, setups_labels
    from horde.files import shown
    from horde.lab.calibrate import GRID_MAX, calibrate, check_out, default_out, read_games, write_calibration
    from horde.limits import finite_number

    try:
        skills = [finite_number(text, 0, 3) for text in grid.split(",") if text.strip()]
    except ValueError:
        raise SetupError(f"--grid {grid!r}: expected skills from 0 to 3, comma-separated, like 0,0.5,1") from None
    if not 2 <= len(set(skills)) <= GRID_MAX:
        raise SetupError(f"--grid {grid!r}: expected 2 to {GRID_MAX} different skills from 0 to 3")
    out = out or default_out(games_file)
    check_out(out, games_file)  # before any game: the games file is never written over
    house = house_rules(options)
    games = read_games(games_file, house=house.knobs())
    setups = list(dict.fromkeys(g.setup for g in games))
    labels = setups_labels(setups)
    fitted = [g for g in games if g.observation.result != "abandoned"]
    click.echo(f"{shown(games_file)}: {len(games)} games of {len(setups)} setup(s)"
               + (f", {len(games) - len(fitted)} abandoned (kept, not fitted)" if len(fitted) < len(games) else ""))
    for setup in setups:
        knobs = ", ".join(differing_words(setup, team=False)) or "none"
        click.echo(f"  {labels[setup]}: {sum(g.setup == setup for g in games)} games (preset {setup.preset}; knobs "
                   f"that differ from it: {knobs})")

    def progress(line):
        if not quiet:
            click.echo(line, err=True)

    found = calibrate(games, skills, simulated, seed=seed, workers=workers, progress=progress, labels=labels,
                      cache=not no_cache)
    write_calibration(found, games_file, out)
    draws = f", {found.draws} drawn" if found.draws else ""
    used = ", ".join(f"{name} in {count}" for name, count in found.recorded.items() if count) or "none (result alone)"
    click.echo(f"{found.games} games fitted, the team won {found.wins}{draws}; numbers read besides the result: {used}")
    click.echo(f"skill {found.skill:.2f} ({found.level()}), 95% interval {found.low:.2f} to {found.high:.2f} "
               f"(likelihood ratio {found.ratio_interval[0]:.2f} to {found.ratio_interval[1]:.2f}, widened by the "
               f"simulation's own error +/-{1.96 * found.error:.2f}; {found.simulated} simulated games a skill; searched "
               f"{found.searched[0]:g} to {found.searched[1]:g}: 0 novice, 1 club, 2 expert, 3 clairvoyant)")
    for curve in found.curves:
        rates = ", ".join(f"{s:g}: {w / n:.0%}" for s, n, w in curve.simulated)
        click.echo(f"  {curve.label}: simulated team win rate by skill {rates}; at {found.skill:.2f}: "
                   f"{curve.rate(found.skill):.0%}")
    for warning in found.warnings:
        click.echo(f"warning: {warning}")
    click.echo(f"calibration: {shown(out)} (give it as --skill {shown(out)})")


@cli.command("doctor", examples=(
    "horde doctor zombie-horde --players 3 --target 0.5",
    "horde doctor my-horde.txt --players 4 --target 0.4 --pool my-pool.txt --out my-horde-tuned.txt",
))
@click.argument("deck", metavar="DECK")
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.5,
              show_default=True, help="the team win rate to aim for")
@click.option("--band", type=click.FloatRange(0, 1, max_open=True), default=0.05, show_default=True,
              help="stop once the team win rate lies within this distance of --target")
@click.option("--pool", default=None, metavar="CARDS", help="a decklist of cards the doctor may add (besides the "
                                                            "deck's own)")
@click.option("--games", "games", type=GAMES_IN_MEMORY, default=300, show_default=True,
              help="games each deck is measured on, every step")
@click.option("--candidates", type=click.IntRange(1, 20), default=3, show_default=True,
              help="swaps measured each step")
@click.option("--max-swaps", type=click.IntRange(1, 200), default=20, show_default=True,
              help="the most swaps kept before the doctor stops, inside the band or not")
@click.option("--patience", type=click.IntRange(1, 20), default=2, show_default=True,
              help="rounds of --candidates measured in a step before the doctor gives up")
@click.option("--out", default=None, metavar="FILE", help="where to write the new deck (default: DECK-doctored.txt "
                                                          "in this folder)")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--workers", type=WORKERS, default=None, help="processes (default: one per core)")
@click.option("--quiet", is_flag=True, help="no line per swap measured")
@config_options
@knob_options
def doctor_command(deck, target, band, pool, games, candidates, max_swaps, patience, out, seed, workers, quiet,
                   **options):
    """Change a Horde deck's content, one swap at a time measured on paired seeds and confirmed on
    fresh ones, until the team wins about --target of its games; print the evidence and the final
    deck's gain on fresh games, and write the new deck."""
    from horde.cards.decklists import parse_decklist, read_decklist
    from horde.files import shown, write_file
    from horde.lab.doctor import _points, deck_counts, doctor
    from horde.play import prepare
    from horde.team.skill import level_of

    if options.get("horde_deck"):
        raise SetupError("--horde: the deck is DECK, the doctor's argument; leave --horde out")
    setup = setup_from_options({**options, "horde_deck": deck}, house=house_rules(options).knobs())
    prepared = prepare(setup)  # every check before the first game
    names: list[str] = []
    if pool:
        for entry in read_decklist(pool, "horde").entries:
            names.append(prepared.catalogue.get(entry.name, pool, entry.line).name)

    def progress(line):
        if not quiet:
            click.echo(line, err=True)

    found = doctor(deck, setup, target, band, names, games=games, candidates=candidates, max_swaps=max_swaps,
                   patience=patience, seed=seed, workers=workers, progress=progress)
    start, end = found.start, found.end
    click.echo(f"{shown(deck)}: {setup_words(setup)}, team level {level_of(setup)}; seed {seed}, horde {__version__}")
    click.echo(f"{shown(deck)} at {setup.players} players: team {start[0]:.1%} ({start[1]:.1%} - {start[2]:.1%}, "
               f"{start[3]} games) for a target of {target:.0%}")
    for swap in found.kept:
        rate, count = found.step_rates.get(swap.step, (swap.before, swap.games))
        changed = "" if swap.step == 1 else f"; new games for this step, the deck {rate:.1%} on them"
        check = swap.confirmed
        assert check is not None
        click.echo(f"  swap {swap.step}: -{swap.cut} +{swap.add}: chosen on the step's {swap.games} games "
                   f"({swap.before:.1%} -> {swap.after:.1%}{changed}); confirmed on {check.games} fresh paired "
                   f"games: {check.before:.1%} -> {check.after:.1%} ({_points(check.difference)} points, paired 95% "
                   f"{_points(check.low)} to {_points(check.high)})")
    tried = len(found.swaps) - len(found.kept)
    click.echo(f"{len(found.kept)} swap(s) kept, {tried} tried and left; the steps claim {_points(found.claimed)} "
               "points together (each as confirmed on its fresh games)")
    gain = found.gain
    if gain is not None:
        click.echo(f"the new deck against the old on {gain.games} fresh paired games: team {gain.before:.1%} -> "
                   f"{gain.after:.1%}, {_points(gain.difference)} points (paired 95% {_points(gain.low)} to "
                   f"{_points(gain.high)}); the steps claimed {_points(found.claimed)}")
    click.echo(f"the new deck: team {end[0]:.1%} ({end[1]:.1%} - {end[2]:.1%}, Wilson 95%) on {end[3]} fresh games"
               + ("" if found.reached else f", outside {target - band:.0%}-{target + band:.0%}"))
    decklist = parse_decklist(found.text, deck, "horde")
    for name, count in deck_counts(decklist, prepared.horde_deck.build).items():
        click.echo(f"  {count} {name}")
    out = out or f"{Path(str(prepared.horde_deck.path)).stem}-doctored.txt"
    write_file(out, found.text)
    click.echo(f"new deck: {shown(out)}")


def _value(value) -> str:
    """A knob's value as the command line writes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _setting(setting: dict) -> str:
    return "".join(f", {name} {_value(value)}" for name, value in setting.items())
