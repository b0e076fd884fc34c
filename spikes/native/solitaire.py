"""The Python engine as the oracle of the native-core spike, and the trace comparison.

The spike's game is the Horde's side of the reference scenario played alone: 4 players with
1,000 life each, no boss and no lieutenants, the team with no board and no cards in hand (the
opening hands are never drawn), so that the Horde's turns (``horde.turns.horde_turn``: untap,
upkeep, reveal and cast, combat, end step) run as the engine runs them, with the Horde's own
random stream, until the game ends or the Horde's library is empty. ``python_events`` plays it
on the Python engine with a trace; ``native_events`` decodes the native core's trace into the
same events; ``first_divergence`` reports the first event where they differ, like OpenSpiel's
``test_consistent``. Part of the native-core spike (docs/speed.md), not of the product.
"""

from __future__ import annotations

from pathlib import Path

from horde import engine, turns
from horde.catalogue import default_catalogue
from horde.decks import load_horde_deck
from horde.presets import make_setup

HERE = Path(__file__).resolve().parent
SLICE_DECK = str(HERE / "zombie-slice.txt")
REFERENCE_DECK = "zombie-horde"
MAX_HORDE_TURNS = 60
EVENT_NAMES = ("reveal", "cast", "enters", "leaves", "attack", "damage", "life_lost", "counters", "target",
               "turn_end")


def setup_for(deck: str = SLICE_DECK):
    """The reference scenario's Horde side: 4 players, the recipe deck, no boss or lieutenants; the
    Horde does not use its graveyard (the prototype has no flashback)."""
    return make_setup("zombie-horde", players=4, boss="none", lieutenants=False, life_per_player=1000,
                      horde_deck=deck, horde_graveyard="never")


def seed_text(seed, name: str = "horde") -> str:
    """The text ``horde.engine.stream`` seeds the stream ``name`` of this game with."""
    key = "/".join(str(part) for part in (seed if isinstance(seed, tuple) else (seed,)))
    return f"horde/{key}/{name}"


def python_game(setup, seed, trace: bool = True):
    """Play the spike's game on the Python engine; returns the engine's ``Game``."""
    game = engine.new_game(engine.prepare(setup), seed, trace=trace)
    while not game.over() and game.horde_turns < MAX_HORDE_TURNS:
        game.turn += 1
        turns.horde_turn(game)
        if trace:
            game.drivers.trace.append({"turn": game.turn, "event": "turn_end", "team_life": game.team_life,
                               "library": len(game.horde.library), "graveyard": len(game.horde.graveyard),
                               "board": len(game.battlefield.horde)})
        if not game.horde.library:
            break
    return game


def _event(e: dict) -> tuple:
    kind, turn = e["event"], e["turn"]
    if kind == "reveal":
        return kind, turn, tuple(e["cards"])
    if kind == "cast":
        return kind, turn, e["card"]
    if kind == "enters":
        return kind, turn, e["card"], e["id"], e["tapped"]
    if kind == "leaves":
        return kind, turn, e["card"], e["id"], e["to"]
    if kind == "attack":
        return kind, turn, e["card"], e["id"], e["power"], e["target_player"]
    if kind == "damage":
        return kind, turn, e["target"], e["amount"], e["team_life"]
    if kind == "life_lost":
        return kind, turn, e["amount"], e["team_life"]
    if kind == "counters":
        return kind, turn, e["card"], e["id"], e["added"], e["total"]
    if kind == "target":
        return kind, turn, e["card"], e["target"]
    if kind == "turn_end":
        return kind, turn, e["team_life"], e["library"], e["graveyard"], e["board"]
    return (kind, turn, *sorted((k, str(v)) for k, v in e.items() if k not in ("event", "turn", "side")))


def python_events(setup, seed) -> list[tuple]:
    return [_event(e) for e in python_game(setup, seed).drivers.trace]


def native_events(rows: list[int], names: list[str]) -> list[tuple]:
    """The native trace (7 integers an event: kind, turn, five values) as ``python_events`` gives it."""
    out: list[tuple] = []
    i = 0
    while i < len(rows):
        kind, turn, a, b, c, d, e = rows[i:i + 7]
        i += 7
        name = EVENT_NAMES[kind]
        if name == "reveal":
            cards = tuple(names[rows[i + 7 * k + 2]] for k in range(a))
            i += 7 * a
            out.append((name, turn, cards))
        elif name == "cast":
            out.append((name, turn, names[a]))
        elif name == "enters":
            out.append((name, turn, names[a], b, bool(c)))
        elif name == "leaves":
            out.append((name, turn, names[a], b, "graveyard"))
        elif name == "attack":
            out.append((name, turn, names[a], b, c, d))
        elif name == "damage":
            out.append((name, turn, f"player {a}", b, c))
        elif name == "life_lost":
            out.append((name, turn, a, b))
        elif name == "counters":
            out.append((name, turn, names[a], b, c, d))
        elif name == "target":
            out.append((name, turn, names[a], names[b]))
        else:
            out.append((name, turn, a, b, c, d))
    return out


def first_divergence(expected: list[tuple], got: list[tuple]) -> str | None:
    """None when the two event lists are equal, else a report of the first event that differs."""
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        if a != b:
            before = expected[max(0, i - 3):i]
            return (f"event {i} differs: Python {a}, native {b}; "
                    f"the events before it: {before}")
    if len(expected) != len(got):
        i = min(len(expected), len(got))
        extra = expected[i] if len(expected) > i else got[i]
        side = "Python" if len(expected) > i else "native"
        return f"only {side} has event {i}: {extra}"
    return None


def compiled(deck: str = SLICE_DECK, bodies: bool = False):
    """The deck's cards compiled for the native core, and the setup (raises compile_cards.Refused)."""
    from compile_cards import compile_deck

    setup = setup_for(deck)
    catalogue = default_catalogue()
    return compile_deck(load_horde_deck(setup.horde_deck, catalogue), setup, catalogue, bodies), setup
