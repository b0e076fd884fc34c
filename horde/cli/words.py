"""A setup, a boss's abilities and a summary's counts in players' words, for the command line's
output: the setup line names every knob that differs from its preset, a boss ability reads as its
card does, and a stall says what it is (H14)."""

from __future__ import annotations

from horde.setup import KNOBS, GameSetup, make_setup

NAMED = ("preset", "players", "horde_deck", "policy", "policy_params")  # always in the setup line, first


def knob_words(name: str, value: object) -> str:
    """One knob and its value as the setup line says it: ``grace turns 2``, ``no lieutenants``,
    ``team decks white, white``, ``hydra heads unset``."""
    words = name.replace("_", " ")
    if KNOBS[name].kind == "bool":
        return words if value else f"no {words}"
    if isinstance(value, tuple):
        shown = ", ".join("=".join(str(x) for x in v) if isinstance(v, tuple) else str(v) for v in value)
    elif value is None:
        shown = KNOBS[name].unset or "unset"
    else:
        shown = str(value) if value != "" else "the Horde deck's own"
    return f"{words} {shown or 'none'}"


def setup_words(setup: GameSetup, players: list[int] | None = None) -> str:
    """The setup in one line: its preset, players (``players``: the counts a command plays), Horde
    deck and policy, then every knob whose value differs from the preset's (two setups that play
    differently never read the same)."""
    preset = make_setup(setup.preset)
    params = ", ".join(f"{k}={v}" for k, v in setup.policy_params)
    counts = players or [setup.players]
    played = ", ".join(str(n) for n in counts[:-1]) + f" and {counts[-1]}" if len(counts) > 1 else str(counts[0])
    words = [f"preset {setup.preset}", f"{played} player{'s' * (counts != [1])}",
             f"Horde deck {setup.horde_deck}", f"policy {setup.policy}" + (f" ({params})" if params else "")]
    for name in KNOBS:
        if name not in NAMED and getattr(setup, name) != getattr(preset, name):
            words.append(knob_words(name, getattr(setup, name)))
    return ", ".join(words)


def differing_words(setup: GameSetup, team: bool = True, named: bool = False) -> list:
    """The knobs of ``setup`` whose value differs from its preset's, in players' words (without
    the team's play with ``team`` False: the skill, policy and its parameters); with ``named``,
    each as (knob, words)."""
    preset = make_setup(setup.preset)
    left_out = () if team else ("skill", "policy", "policy_params")
    found = [(name, knob_words(name, getattr(setup, name))) for name in KNOBS
             if name not in left_out and getattr(setup, name) != getattr(preset, name)]
    return found if named else [words for _, words in found]


def setups_labels(setups: list[GameSetup]) -> dict[GameSetup, str]:
    """Each setup named by its players and Horde deck and the knobs that set it apart from the
    others (two setups that play differently never read the same); the team's play left out."""
    names = [n for n in KNOBS if n not in ("skill", "policy", "policy_params", "players", "horde_deck")]
    differ = [n for n in names if len({getattr(s, n) for s in setups}) > 1]
    return {s: ", ".join([f"{s.players} player{'s' * (s.players != 1)}", f"Horde deck {s.horde_deck}"]
                         + [knob_words(n, getattr(s, n)) for n in differ]) for s in setups}


def boss_ability_words(catalogue, key: str) -> tuple[str, str]:
    """A boss ability counted as ``NAME: KIND: EFFECTS`` (the engine's words, ``boss_uses``) as
    ``(boss name, the ability as its card reads)``: ``+1: You gain 1 life for each creature you
    control.`` The engine's words stay where the card's text can't be matched to the ability."""
    from horde.engine.cards import ability_text

    name, _, rest = key.partition(": ")
    kind, _, effects = rest.partition(": ")
    try:
        card = catalogue.get(name)
    except Exception:  # a boss of a card file no longer there: its words as counted
        return name, f"{kind}: {effects}"
    for hook in ("Plus", "Minus", "Ultimate"):
        for ability in card.abilities(hook):
            if " ; ".join(e.describe() for e in ability) == effects:
                return name, ability_text(card, ability)
    return name, f"{kind}: {effects}"


def stalls_words(stalls: int, max_turns: int) -> str:
    """The stall count with what a stall is (H14)."""
    return f"{stalls} (H14: games still going after {max_turns} turns, won by neither side)"


def players_words(deck, cards_per_player: int) -> str:
    """Which numbers of players a checked Horde deck serves (H3), for ``decks check``."""
    from horde.cards.decks import players_supported

    supported = players_supported(deck, cards_per_player)
    if deck.build == "whole":
        return "plays 1-4 players (played whole, whatever the players: F, M, G)"
    if deck.build != "fixed":
        return f"plays 1-4 players (a recipe: built to {cards_per_player} cards per player, R1)"
    size = len(deck.cards)
    if len(supported) == 4:
        return f"plays 1-4 players at {cards_per_player} cards per player ({size} cards, H3)"
    fewer = f"plays {_players(supported)} at {cards_per_player} cards per player" if supported else \
        f"too small for one player at {cards_per_player} cards per player"
    most = {p: size // p for p in range(len(supported) + 1, 5)}
    more = ", ".join(f"{p} players at most {n} (--cards-per-player {n})" for p, n in most.items() if n > 0)
    return f"{fewer} ({size} cards, H3); {more}" if more else f"{fewer} ({size} cards, H3)"


def _players(counts: list[int]) -> str:
    if len(counts) == 1:
        return "1 player" if counts[0] == 1 else f"{counts[0]} players"
    return f"{counts[0]}-{counts[-1]} players"
