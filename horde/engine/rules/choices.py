"""The smart Horde (H9s, option ``horde_choices = "smart"``): each choice the Horde faces takes
the option worst for the team by a fixed heuristic, instead of a random one (H9). The engine
wires ``smart_choice`` into ``game.drivers.horde_choice``; ``horde.engine.rules.abilities.horde_pick``
asks it. What it changes and what it leaves random is written in RULES.md (H9s).
"""

from __future__ import annotations

from typing import Any

from horde.engine.cards import CardDef
from horde.engine.characteristics import graveyard_of, power, toughness
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent

# Verbs of a mode that hurt the team: a smart Horde prefers a mode with more of them.
HURTS = frozenset({"damage_each_opponent", "damage", "damage_all", "destroy", "destroy_all", "each_player_sacrifices",
                   "discard", "lose_life", "exile", "bounce", "keep_one_of_each_type", "sacrifice_or_suffer",
                   "exile_until_leaves", "players_cant_cast", "shuffle_into_library", "sacrifice_all",
                   "damage_divided"})


def value(game: Game, p: Permanent) -> tuple[bool, int, int]:
    """How much a permanent is worth to its side: nontoken over token, then power plus toughness
    (a planeswalker's loyalty), then mana value (H9s: the biggest threat is the most valuable of the team's)."""
    size = power(game, p) + toughness(game, p) if p.card.is_creature else p.loyalty  # a planeswalker: its loyalty
    return (not p.card.is_token, size, p.card.mana_value)


def smart_choice(game: Game, kind: str, options: list[Any], card: CardDef | None) -> Any:
    """H9s: the option worst for the team. 'harm' (a destroy, exile, bounce or damage target): the
    team's most valuable permanent, else a team player, else the Horde's least valuable;
    'help' (a pump or counters): the Horde's most valuable creature; 'sacrifice': the least
    valuable (tokens first); 'discard': the cheapest card; 'return' and 'search': the most expensive;
    'mode': the mode with the most verbs that hurt the team ('modes': the set of modes; 'face': the face of a
    card of two faces); 'target' (a player): the one with
    the most cards in its graveyard; 'tap': the team's most valuable. Ties: the first."""
    permanents = [o for o in options if isinstance(o, Permanent)]
    team = [p for p in permanents if p.controller != HORDE_CONTROLLER]
    horde = [p for p in permanents if p.controller == HORDE_CONTROLLER]
    if kind in ("harm", "tap"):
        if team:
            return max(team, key=lambda p: value(game, p))
        players = [o for o in options if isinstance(o, int) and not isinstance(o, bool)]
        if players:
            return players[0]
        return min(horde, key=lambda p: value(game, p)) if horde else options[0]
    if kind == "help":
        if horde:
            return max(horde, key=lambda p: value(game, p))
        return min(team, key=lambda p: value(game, p)) if team else options[0]
    if kind == "sacrifice":
        return min(permanents, key=lambda p: value(game, p)) if permanents else options[0]
    if kind == "discard":
        return min(options, key=lambda c: c.mana_value)
    if kind in ("return", "search"):
        return max(options, key=lambda c: c.mana_value)
    if kind == "mode":
        return max(options, key=lambda mode: sum(1 for e in mode if e.verb in HURTS))
    if kind == "face":  # a card of two faces: the face whose effects hurt the team most
        return max(options, key=lambda face: sum(1 for effects in face.hooks.values() for e in effects
                                                 if e.verb in HURTS))
    if kind == "modes":  # a set of modes ('choose two', 'choose one or more'): the one that hurts most
        return max(options, key=lambda modes: sum(1 for mode in modes for e in mode if e.verb in HURTS))
    if kind == "target" and all(isinstance(o, int) for o in options):
        team_side = game.drivers.team_side
        if team_side is not None and HORDE_CONTROLLER not in options and len(options) > 1:
            cards = team_side.counts(game, None, "graveyard", "", list(options))  # at a table: the players count
            return options[cards.index(max(cards))]
        return max(options, key=lambda i: len(graveyard_of(game, i)))
    return options[0]
