"""The Horde as an archenemy (RULES.md A1, Comprehensive Rules 904): its scheme deck, shuffled
from the game's own ``schemes`` stream (904.4), and the scheme set in motion right after each
reveal and cast (904.9: no stack); a non-ongoing scheme then goes to the bottom (904.10), an
ongoing one stays face up, its abilities working from the command zone (904.8), until an ability
abandons it (904.11). The turns call this module at the points where schemes act; the verbs
(``horde.engine.effects``) do what a scheme says, "you" being the Horde.
"""

from __future__ import annotations

from random import Random

from horde.engine import rules
from horde.engine.cards import CardDef
from horde.engine.events import log
from horde.engine.filters import Context
from horde.engine.shuffling import shuffle
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, SchemeState, Side


def setup(game: Game, deck: list[CardDef], rng: Random) -> None:
    """904.4: the scheme deck, shuffled with its own stream, face down beside the Horde's library."""
    cards = list(deck)
    shuffle(rng, cards)
    game.schemes = SchemeState(cards, rng)
    game.schemes.graveyard_at_start = len(game.horde.graveyard)


def set_in_motion(game: Game) -> None:
    """904.9: right after the Horde's reveal and cast (A1), the top scheme is turned face up and
    its 'when you set this scheme in motion' abilities resolve at once (no stack); 904.10: a
    non-ongoing scheme then goes to the bottom of the scheme deck; 904.11: an ongoing one stays
    face up."""
    schemes = game.schemes
    if schemes is None or game.over() or not schemes.deck:
        return
    card = schemes.deck.pop()
    schemes.set_in_motion += 1
    stand_in = Permanent(schemes.next_id, card, HORDE_CONTROLLER, HORDE_CONTROLLER)
    schemes.next_id -= 1
    ongoing = "Ongoing" in card.supertypes
    if game.drivers.trace is not None:
        log(game, "scheme_set_in_motion", Side.HORDE, card=card.name, ongoing=ongoing)
    if ongoing:
        schemes.face_up.append(stand_in)
        game.battlefield.watch(stand_in)  # 904.8
    rules.resolve(game, card.hooks.get("SetInMotion", ()), Context(card, stand_in, HORDE_CONTROLLER,
                                                                     x=card.horde_x))  # H7: X is horde_x
    if not ongoing:
        schemes.deck.insert(0, card)  # 904.10: face down on the bottom
    rules.check_state(game)


def upkeep(game: Game) -> None:
    """'At the beginning of your upkeep' abilities of the face-up schemes (the Horde's upkeep)."""
    _run(game, "Upkeep")


def end_step(game: Game) -> None:
    """'At the beginning of your end step' (the Horde's turn) or 'of your opponents' end step'
    (the team's turn) abilities of the face-up schemes."""
    _run(game, "YourEndStep" if game.active == Side.HORDE else "OpponentsEndStep")


def _run(game: Game, hook: str) -> None:
    schemes = game.schemes
    if schemes is None:
        return
    for stand_in in [s for s in schemes.face_up if hook in s.card.hooks]:
        if stand_in in schemes.face_up:  # an earlier one may have abandoned it
            rules.run_hook(game, stand_in, hook)
            rules.check_state(game)
            if game.over():
                return


def turn_ends(game: Game) -> None:
    """The counts abandon conditions look at start again with the next turn; 'since your last turn
    ended' starts again when the Horde's turn ends."""
    schemes = game.schemes
    if schemes is None:
        return
    schemes.damage_this_turn = 0
    schemes.graveyard_at_start = len(game.horde.graveyard)
    for pl in game.players:
        pl.spells_cast = 0  # I Bask in Your Silent Awe: one spell each turn, the Horde's turns too
    if game.active == Side.HORDE:
        schemes.spells_since = 0


def opponents_untap(game: Game) -> None:
    """I Know All, I See All: the Horde's permanents untap during the team's untap step too."""
    if rules.static_active(game, "untap_during_opponents_untap"):
        for p in game.battlefield.horde:
            p.tapped = False
