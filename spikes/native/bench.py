"""Time the native-core spike against the Python engine (``make spike`` runs it).

Prints, each as the median of several runs with the slowest and fastest (the machine is shared):
the generator alone (seeding by text, draws); the Horde's library (R1); the spike's game (the
Horde's turns of the reference scenario played alone, ``solitaire.py``) on the slice deck, where
the two engines play the same games, and on the reference deck, where the native core plays the
refused cards as their bodies alone; and, in real reference games of the Python engine, the time
spent in the Horde's reveal and cast and its combat, the parts the native core replaces.
Part of the native-core spike (docs/speed.md), not of the product.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import horde_native  # noqa: E402
import solitaire  # noqa: E402

from horde import engine, turns  # noqa: E402
from horde.decks import build_horde_library, load_horde_deck  # noqa: E402
from horde.policies import make_policy  # noqa: E402
from horde.presets import make_setup  # noqa: E402


def runs(measure, repeat: int) -> tuple[float, float, float]:
    """(median, fastest, slowest) of ``repeat`` calls of ``measure()`` (each returns a figure)."""
    values = sorted(measure() for _ in range(repeat))
    return statistics.median(values), values[0], values[-1]


def show(label: str, figures: tuple, unit: str) -> None:
    median, low, high = figures
    print(f"{label:58s} {median:12,.2f} {unit}  ({low:,.2f} - {high:,.2f})")


def python_solitaire(setup, games: int, first: int) -> tuple[float, int]:
    """Seconds in the Horde's turns alone (not setting up) and the Horde turns played."""
    spent, horde_turns = 0.0, 0
    prepared = engine.prepare(setup)
    for i in range(first, first + games):
        game = engine.new_game(prepared, (1, i))
        start = time.perf_counter()
        while not game.over() and game.horde_turns < solitaire.MAX_HORDE_TURNS:
            game.turn += 1
            turns.horde_turn(game)
            if not game.horde.library:
                break
        spent += time.perf_counter() - start
        horde_turns += game.horde_turns
    return spent, horde_turns


def reference_games(games: int) -> dict:
    """Real reference games (make bench's scenario) with the Horde's reveal and cast and its
    combat timed: the parts of the Python engine the native prototype plays."""
    setup = make_setup("zombie-horde", players=4)
    policy = make_policy(setup.policy)
    spent = {"reveal_and_cast": 0.0, "horde_combat": 0.0}
    originals = {name: getattr(turns, name) for name in spent}

    def timed(name):
        def run(*args):
            start = time.perf_counter()
            try:
                return originals[name](*args)
            finally:
                spent[name] += time.perf_counter() - start
        return run

    horde_turns = 0
    start = time.perf_counter()
    try:
        for name in spent:
            setattr(turns, name, timed(name))
        for i in range(games):
            horde_turns += engine.play_game(setup, (2, i), policy=policy).horde_turns
    finally:
        for name, function in originals.items():
            setattr(turns, name, function)
    total = time.perf_counter() - start
    return {"total": total, "horde_turns": horde_turns, **spent}


def native_data(deck: str, bodies: bool):
    compiled, setup = solitaire.compiled(deck, bodies=bodies)
    return horde_native.make_data(compiled.cards, compiled.filters, compiled.recipe), setup


def native_seconds(data, games: int, part: str = "game") -> float:
    return horde_native.run(data, "horde/1/", 0, games, "/horde", part=part)["seconds"]


def library_figures(deck: str, games: int, repeat: int) -> None:
    data, setup = native_data(deck, bodies=True)
    horde_deck = load_horde_deck(setup.horde_deck)

    def python_library(count: int = 2000) -> float:
        start = time.perf_counter()
        for i in range(count):
            build_horde_library(horde_deck, setup, engine.stream((1, i), "horde"))
        return (time.perf_counter() - start) / count * 1e6

    name = Path(deck).stem
    show(f"Python: {name}", runs(python_library, repeat), "us")
    show(f"native: {name}", runs(lambda: native_seconds(data, games, "library") / games * 1e6, repeat), "us")


def game_figures(deck: str, bodies: bool, games: int, python_games: int, repeat: int) -> None:
    data, setup = native_data(deck, bodies)
    name = Path(deck).stem
    totals = horde_native.run(data, "horde/1/", 0, games, "/horde")
    library = runs(lambda: native_seconds(data, games, "library"), repeat)[0]
    native, python = f"native: {name}" + (" (bodies)" if bodies else ""), f"Python: {name}"
    show(f"{native}, per game", runs(lambda: native_seconds(data, games) / games * 1e6, repeat), "us")
    native_turn = runs(lambda: (native_seconds(data, games) - library) / totals["horde_turns"] * 1e6, repeat)
    show(f"{native}, per Horde turn", native_turn, "us")
    python_turn = runs(lambda: _ratio(python_solitaire(setup, python_games, 0)), repeat)
    show(f"{python}" + (" (every effect)" if bodies else "") + ", per Horde turn", python_turn, "us")
    ratio = "     (not the same games)" if bodies else f"{python_turn[0] / native_turn[0]:12,.0f} x"
    print(f"{'':58s} {ratio}  "
          f"({totals['horde_turns'] / games:.1f} Horde turns a game, "
          f"{totals['revealed'] / totals['horde_turns']:.2f} cards revealed and "
          f"{totals['attacks'] / totals['horde_turns']:.1f} attackers a turn)")


def compare(seeds: int) -> None:
    """The two engines on the same seeds: the reference deck's library, the slice's every event."""
    data, setup = native_data("zombie-horde", bodies=True)
    compiled, _ = solitaire.compiled("zombie-horde", bodies=True)
    horde_deck = load_horde_deck(setup.horde_deck)
    for i in range(seeds):
        library = [c.name for c in build_horde_library(horde_deck, setup, engine.stream((1, i), "horde"))]
        if library != [compiled.names[c] for c in horde_native.library(data, solitaire.seed_text((1, i)))]:
            sys.exit(f"seed (1, {i}): the reference deck's library differs")
    print(f"the reference deck's library (R1): the same for {seeds:,} seeds")
    compiled, setup = solitaire.compiled(solitaire.SLICE_DECK)
    data = horde_native.make_data(compiled.cards, compiled.filters, compiled.recipe)
    events = attacks = 0
    for i in range(seeds):
        expected = solitaire.python_events(setup, (1, i))
        got = solitaire.native_events(horde_native.play(data, solitaire.seed_text((1, i))), compiled.names)
        divergence = solitaire.first_divergence(expected, got)
        if divergence:
            sys.exit(f"seed (1, {i}): {divergence}")
        events += len(expected)
        attacks += sum(1 for e in expected if e[0] == "attack")
    print(f"the slice's games: the same {events:,} events ({attacks:,} attacks with their random player) "
          f"for {seeds:,} seeds\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--native-games", type=int, default=20_000)
    parser.add_argument("--python-games", type=int, default=200)
    parser.add_argument("--reference-games", type=int, default=400)
    parser.add_argument("--compare", type=int, default=1000, help="seeds played by both engines")
    args = parser.parse_args()
    repeat = args.repeat
    compare(args.compare)

    print("The generator (random.Random by text; one stream per game and purpose)")
    texts = [f"horde/1/{i}/horde" for i in range(20_000)]
    show("Python: random.Random(text)", runs(lambda: _per(lambda: [random.Random(t) for t in texts], len(texts)),
                                               repeat), "us")
    show("native: Random(text) (SHA-512, init_by_array)",
         runs(lambda: _per(lambda: [horde_native.Random(t) for t in texts], len(texts)), repeat), "us")
    r, n = random.Random("x"), horde_native.Random("x")
    show("Python: randrange(4)", runs(lambda: _per(lambda: [r.randrange(4) for _ in range(1_000_000)],
                                                   1_000_000, 1e9), repeat), "ns")
    data, _ = native_data(solitaire.SLICE_DECK, False)
    show("native: Random(text), in C++", runs(lambda: native_seconds(data, len(texts), "seed") / len(texts) * 1e6,
                                              repeat), "us")
    show("native: randrange(4), in C++", runs(lambda: _per(lambda: n.below_block(4, 1_000_000), 1_000_000, 1e9),
                                              repeat), "ns")

    print("\nThe Horde's library (R1 recipe, 100 cards), seeding its stream included")
    for deck in ("zombie-horde", solitaire.SLICE_DECK):
        library_figures(deck, args.native_games, repeat)
    print("\nThe spike's game: the Horde's turns alone (untap, reveal and cast, attacks, end step); on the\n"
          "reference deck the native core plays the cards it refuses as their bodies (not the same games)")
    for deck, bodies in ((solitaire.SLICE_DECK, False), ("zombie-horde", True)):
        game_figures(deck, bodies, args.native_games, args.python_games, repeat)

    print("\nReal reference games of the Python engine (make bench's scenario)")
    figures = [reference_games(args.reference_games) for _ in range(max(1, repeat // 2))]
    figures.sort(key=lambda f: f["total"])
    middle = figures[len(figures) // 2]
    games = args.reference_games
    print(f"{'games per second':58s} {games / middle['total']:12,.1f}")
    print(f"{'Horde turns per game':58s} {middle['horde_turns'] / games:12,.2f}")
    for name in ("reveal_and_cast", "horde_combat"):
        print(f"{'share of the time in turns.' + name:58s} {100 * middle[name] / middle['total']:12,.1f} %  "
              f"({middle[name] / middle['horde_turns'] * 1e6:,.0f} us per Horde turn)")


def _per(action, count: int, scale: float = 1e6) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) / count * scale


def _ratio(figures: tuple[float, int]) -> float:
    seconds, horde_turns = figures
    return seconds / horde_turns * 1e6


if __name__ == "__main__":
    main()
