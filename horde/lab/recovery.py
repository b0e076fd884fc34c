"""The recovery checks of ``horde calibrate`` and ``horde tune`` over a calibration (``make
recovery``): games played at a secret skill, calibrated, tuned, and compared with the truth.

For each secret skill, a pool of games is played at it for each setup a group records (seeds
``((7, "group"), i)``, apart from every seed calibrate and tune play). Each trial takes a group's
season from the pools: ``games`` games, as many of each setup, game ``t x n`` to ``t x n + n - 1``
of each pool for trial ``t`` when the pools hold enough for every trial to have games of its own,
else drawn from the pools without replacement (the trials then share games: the report says
which). Each season is calibrated twice, from its results alone and from every number its games
recorded (the turn, the Horde's library, the team's life, the tracks), and the interval is checked
to hold the secret skill. Then ``horde tune`` searches the deck size (cards per player) for the
target at the secret skill itself (the truth) and over each season's calibration (the
recommended range), and the truth is checked to lie in the range, and the range's width.

Every game goes through the games cache, so a second run plays none. ``--timing`` times a
30-game calibration in a fresh data folder and again (the cache's second run); ``--doctor`` runs
``horde doctor`` on the bundled deck at five seeds and measures each final deck against the
first on fresh paired games, beside the gain the doctor printed. Prints a table and writes every
trial to ``--out`` (JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from horde.lab.cache import play_records
from horde.lab.calibrate import GRID, CalibrationFile, Game, Observation, calibrate, observation_of
from horde.lab.tune import Recommendation, tune
from horde.setup import GameSetup, make_setup, setup_from_dict

GROUP_SEED = (7, "group")


def group_setups(players: int, cards: list[int], preset: str = "zombie-horde") -> list[GameSetup]:
    return [make_setup(preset, players=players, cards_per_player=c) for c in cards]


def at_skill(setup: GameSetup, skill: float) -> GameSetup:
    return setup_from_dict(setup.to_dict() | {"skill": f"{skill:g}"})


def seasons(setups: list[GameSetup], skill: float, trials: int, games: int, pool: int, workers: int | None,
            ) -> tuple[list[list[Game]], bool]:
    """Each trial's games at ``skill`` (as many of each setup), and whether the trials share none."""
    each = games // len(setups)
    independent = pool >= trials * each
    pools = {setup: play_records(at_skill(setup, skill), GROUP_SEED, 0, trials * each if independent else pool,
                                 workers) for setup in setups}
    found = []
    for trial in range(trials):
        rng = random.Random(f"recovery/{skill:g}/{trial}")
        season = []
        for setup in setups:
            chosen = range(trial * each, (trial + 1) * each) if independent else rng.sample(range(pool), each)
            season += [Game(setup, observation_of(pools[setup][i]), i) for i in chosen]
        found.append(season)
    return found, independent


def pool_of(text: str, skill: float, args) -> int:
    """The pool of games at ``skill``: ``--pool N``, or its entry of ``--pool 1.4=1000,2=1000``."""
    if "=" not in text:
        return int(text)
    pools = {float(k): int(v) for k, v in (entry.split("=") for entry in text.split(","))}
    return pools.get(skill, args.trials * args.games // len(args.cards))


def result_only(season: list[Game]) -> list[Game]:
    return [Game(g.setup, Observation(g.observation.result), g.line) for g in season]


def truth(setups: list[GameSetup], skill: float, target: float, batch: int, max_games: int,
          workers: int | None) -> tuple[int, list[int]]:
    """Tune's answer at the secret skill itself: its value and its flat range."""
    (found,) = tune(setups[0], "cards_per_player", target, players=(setups[0].players,), skills=(f"{skill:g}",),
                    batch=batch, max_games=max_games, workers=workers)
    assert found.value is not None  # a searched knob: every point has a value
    return found.value, [p.value for p in found.flat if p.value is not None] or [found.value]


def recommend(setups: list[GameSetup], calibration: CalibrationFile, target: float, band: float, batch: int,
              max_games: int, workers: int | None) -> Recommendation:
    recommendations: list[Recommendation] = []
    tune(setups[0], "cards_per_player", target, players=(setups[0].players,), skills=(calibration,), batch=batch,
         max_games=max_games, workers=workers, band=band, recommendations=recommendations)
    return recommendations[0]


def run(args) -> dict:
    setups = group_setups(args.players, args.cards)
    skills = args.skills
    memo: dict = {}
    report: dict = {"settings": vars(args) | {"setups": [s.to_dict() for s in setups]}, "skills": {}}
    for skill in skills:
        started = time.perf_counter()
        found, independent = seasons(setups, skill, args.trials, args.games, pool_of(args.pool, skill, args),
                                     args.workers)
        right: int | None = None
        right_count: list[int] = []
        if args.tune:
            right, right_count = truth(setups, skill, args.target, args.tune_batch, args.tune_max, args.workers)
        trials = []
        for number, season in enumerate(found):
            row: dict = {"trial": number}
            for name, games in (("numbers", season), ("result", result_only(season))):
                calibrated = calibrate(games, GRID, args.simulated, workers=args.workers, first=args.first, memo=memo)
                row[name] = {"skill": calibrated.skill, "low": calibrated.low, "high": calibrated.high,
                             "error": calibrated.error, "simulated": calibrated.simulated,
                             "covered": calibrated.low <= skill <= calibrated.high}
                if name == "numbers" and args.tune:
                    file = CalibrationFile(f"trial-{number}", calibrated.skill, calibrated.low, calibrated.high,
                                           calibrated.games, calibrated.grid, tuple(calibrated.profile))
                    rec = recommend(setups, file, args.target, args.band, args.tune_batch, args.tune_max,
                                    args.workers)
                    row["tune"] = {"low": rec.low, "high": rec.high, "width": rec.high - rec.low + 1,
                                   "truth_inside": right is not None and rec.low <= right <= rec.high,
                                   "best": rec.best[0] if rec.best else None}
            trials.append(row)
            if args.verbose:
                print(f"skill {skill:g} trial {number}: {json.dumps(row)}", file=sys.stderr, flush=True)
        summary = summarise(trials, skill)
        summary |= {"independent_trials": independent, "truth": right, "truth_flat": right_count,
                    "seconds": round(time.perf_counter() - started)}
        report["skills"][f"{skill:g}"] = {"summary": summary, "trials": trials}
        print(line(skill, summary), flush=True)
    return report


def summarise(trials: list[dict], skill: float) -> dict:
    import statistics

    out: dict = {"trials": len(trials)}
    for name in ("numbers", "result"):
        widths = [t[name]["high"] - t[name]["low"] for t in trials]
        out[name] = {"coverage": sum(t[name]["covered"] for t in trials) / len(trials),
                     "median_width": statistics.median(widths), "mean_width": statistics.fmean(widths),
                     "mean_error": statistics.fmean(t[name]["error"] for t in trials),
                     "median_simulated": statistics.median(t[name]["simulated"] for t in trials)}
    out["width_ratio"] = out["numbers"]["median_width"] / out["result"]["median_width"] \
        if out["result"]["median_width"] else None
    if trials and "tune" in trials[0]:
        out["tune"] = {"truth_inside": sum(t["tune"]["truth_inside"] for t in trials) / len(trials),
                       "at_most_5_wide": sum(t["tune"]["width"] <= 5 for t in trials) / len(trials),
                       "median_width": statistics.median(t["tune"]["width"] for t in trials)}
    return out


def line(skill: float, s: dict) -> str:
    n, r = s["numbers"], s["result"]
    text = (f"secret skill {skill:g}: {s['trials']} trials ({'independent' if s['independent_trials'] else 'shared'} "
            f"games); result alone: coverage {r['coverage']:.1%}, median width {r['median_width']:.2f}; every number: "
            f"coverage {n['coverage']:.1%}, median width {n['median_width']:.2f} (ratio {s['width_ratio']:.2f})")
    if "tune" in s:
        t = s["tune"]
        text += (f"; tune: truth {s['truth']} (flat {s['truth_flat']}), inside the range in {t['truth_inside']:.1%}, "
                 f"range at most 5 wide in {t['at_most_5_wide']:.1%} (median {t['median_width']})")
    return text + f"; {s['seconds']} s"


def timing(args) -> None:
    """A 30-game calibration in a fresh data folder, then again: the wall-clock seconds of each."""
    setups = group_setups(args.players, args.cards)
    (season,), _ = seasons(setups[:1], args.skills[0], 1, 30, 30, args.workers)  # the first 30 games of the pool
    folder = Path(tempfile.mkdtemp(prefix="horde-timing-"))
    games = folder / "games.csv"
    rows = ["result,players,cards_per_player,turn,horde_left,team_life,life_min,life_track,horde_track"]
    for game in season:
        o = game.observation
        rows.append(",".join([o.result, str(game.setup.players), str(game.setup.cards_per_player)]
                             + ["" if v is None else str(v) for v in (o.turn, o.horde_left, o.team_life, o.life_min)]
                             + [" ".join(map(str, o.life_track)), " ".join(map(str, o.horde_track))]))
    games.write_text("\n".join(rows) + "\n", encoding="utf-8")
    env = os.environ | {"HORDE_HOME": str(folder / "home")}
    command = [sys.executable, "-m", "horde.cli", "calibrate", str(games), "--no-config", "--quiet"] + (
        ["--workers", str(args.workers)] if args.workers else [])
    for run_number in (1, 2):
        started, load = time.perf_counter(), os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = time.perf_counter() - started
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"run {run_number}: {seconds:.1f} s of wall clock, {cpu:.1f} s of CPU in all its processes (load average "
              f"{load:.1f} before, {os.getloadavg()[0]:.1f} after); exit {done.returncode}", flush=True)
        print("  " + "\n  ".join(done.stdout.strip().splitlines()[-6:]), flush=True)


def doctor_check(args) -> None:
    """``--doctor``: the doctor run on the bundled deck at each of ``--doctor-seeds``, then its final
    deck measured against the first on ``--doctor-compare`` fresh paired games (the seeds
    ``(9000 + seed, i)``, as ``horde compare`` would): the measured gain beside the printed one and
    its interval."""
    from horde.lab.analysis import paired_difference_interval
    from horde.lab.doctor import _points, doctor
    from horde.lab.runner import play_many

    setup = make_setup("zombie-horde", players=args.players)
    folder = Path(tempfile.mkdtemp(prefix="horde-doctor-check-"))
    inside = 0
    for seed in args.doctor_seeds:
        started = time.perf_counter()
        found = doctor("zombie-horde", setup, args.target, args.band, games=args.doctor_games,
                       max_swaps=args.doctor_swaps, seed=seed, workers=args.workers)
        deck = folder / f"doctored-{seed}.txt"
        deck.write_text(found.text, encoding="utf-8")
        arms = []
        for name in ("zombie-horde", str(deck)):
            at = setup_from_dict(setup.to_dict() | {"horde_deck": name})
            arms.append([r.winner == "team" for r in play_many(at, 9000 + seed, args.doctor_compare, args.workers,
                                                                progress=False)])
        both = sum(a and b for a, b in zip(*arms, strict=True))
        only_new = sum(b and not a for a, b in zip(*arms, strict=True))
        only_old = sum(a and not b for a, b in zip(*arms, strict=True))
        measured = (only_new - only_old) / len(arms[0])
        low, high = paired_difference_interval(both, only_new, only_old, len(arms[0]) - both - only_new - only_old)
        gain = found.gain
        assert gain is not None
        ok = gain.low <= measured <= gain.high
        inside += ok
        print(f"seed {seed}: {len(found.kept)} swaps kept; the steps claimed {_points(found.claimed)} points; printed "
              f"gain {_points(gain.difference)} ({_points(gain.low)} to {_points(gain.high)}, {gain.games} fresh "
              f"games); measured on {len(arms[0])} other games {_points(measured)} ({_points(low)} to "
              f"{_points(high)}): {'inside' if ok else 'OUTSIDE'} the printed interval; "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    print(f"{inside} of {len(args.doctor_seeds)} measured gains inside the printed interval")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m horde.lab.recovery", description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=lambda t: [float(x) for x in t.split(",")], default=[0, 0.5, 1, 1.4, 2])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--games", type=int, default=100, help="games a season (as many of each setup)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--cards", type=lambda t: [int(x) for x in t.split(",")], default=[12])
    parser.add_argument("--pool", default="20000", help="games played at each secret skill and setup: N, or "
                        "SKILL=N,... (a skill not named: the trials' own games, trials x games)")
    parser.add_argument("--simulated", type=int, default=2000, help="calibrate's most simulated games a skill")
    parser.add_argument("--first", type=int, default=100, help="calibrate's first batch")
    parser.add_argument("--target", type=float, default=0.5)
    parser.add_argument("--band", type=float, default=0.05)
    parser.add_argument("--tune-batch", type=int, default=200)
    parser.add_argument("--tune-max", type=int, default=800)
    parser.add_argument("--no-tune", dest="tune", action="store_false")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", default="recovery.json")
    parser.add_argument("--timing", action="store_true", help="time a 30-game calibration, first and second run")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--doctor", action="store_true", help="run the doctor and measure its final deck's gain")
    parser.add_argument("--doctor-seeds", type=lambda t: [int(x) for x in t.split(",")], default=[1, 2, 3, 4, 5])
    parser.add_argument("--doctor-games", type=int, default=200)
    parser.add_argument("--doctor-swaps", type=int, default=10)
    parser.add_argument("--doctor-compare", type=int, default=1000)
    args = parser.parse_args(argv)
    if args.timing:
        timing(args)
        return
    if args.doctor:
        doctor_check(args)
        return
    report = run(args)
    Path(args.out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(f"every trial: {args.out}")


if __name__ == "__main__":
    main()
