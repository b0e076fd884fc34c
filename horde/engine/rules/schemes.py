"""The schemes' rules that effects reach (RULES.md A1): abandoning an ongoing scheme (904.11,
701.23), a 'self or others' choice, and the effects that last until the end of the turn a scheme
makes (control of a permanent, damage prevention). Setting a scheme in motion is the turn's
business (``horde.engine.schemes``).
"""

from __future__ import annotations

from horde.engine.events import log
from horde.engine.rules.abilities import ask
from horde.engine.state import Game, Permanent, Side


def abandon(game: Game, stand_in: Permanent) -> None:
    """701.23: an ongoing scheme face up is turned face down and put on the bottom of its owner's
    scheme deck (904.11); its abilities stop working."""
    schemes = game.schemes
    if schemes is None or stand_in not in schemes.face_up:
        return
    schemes.face_up.remove(stand_in)
    game.battlefield.unwatch(stand_in)
    schemes.deck.insert(0, stand_in.card)  # the top of a pile is the end of its list
    if game.drivers.trace is not None:
        log(game, "scheme_abandoned", Side.HORDE, card=stand_in.card.name, schemes=len(schemes.deck))


def self_or_others(game: Game, player: int, card: object) -> str:
    """A 'self or others' choice (A): the chosen team player's policy answers."""
    return ask(game, "self_or_others", player, ("self", "others"), subject=card)


def end_of_turn_effects(game: Game) -> None:
    """At cleanup, control gained 'until end of turn' goes back and 'this turn' prevention ends."""
    for p, controller in game.borrowed:
        if p in game.battlefield.horde or p in game.battlefield.team:
            game.battlefield.change_control(p, controller)
    game.borrowed = []
    game.prevented = []
