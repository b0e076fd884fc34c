"""Defeat a God (RULES.md G): Xenagos Ascended and the starting Rollicking Throngs, Xenagos's
turn (reveal two, cast them), his creatures attacking only when a card says so, and damage the
team would deal to him as a player dealt to Xenagos or a Reveler the team chooses.
"""

from __future__ import annotations

import horde.engine.opponents.common as common
from horde.engine import rules, turns
from horde.engine.characteristics import has_keyword, summoning_sick
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent

XENAGOS = "Xenagos Ascended"
THRONG = "Rollicking Throng"


def targets(game: Game) -> list[Permanent]:
    """G3: what the team attacks and targets 'as though it were a player': Xenagos and the Revelers."""
    return [p for p in game.battlefield.horde if p.card.name == XENAGOS or "Reveler" in p.card.subtypes]


def setup(game: Game) -> None:
    """G1: Xenagos Ascended and the Rollicking Throngs (``god_throngs``, default one more than the
    players) start on the battlefield, their abilities not triggering; G4: no haste."""
    wanted = game.setup.god_throngs
    if wanted is None:
        wanted = len(game.players) + 1
    library = game.horde.library
    names = [XENAGOS] + [THRONG] * wanted
    for name in names:
        card = next((c for c in library if c.name == name), None)
        if card is None:
            continue
        library.remove(card)
        rules.put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER, triggers=False)
    game.horde_haste = False  # G4
    for p in game.battlefield.horde:
        p.sick = False  # on the battlefield as the game begins
    game.drivers.opponent_damaged = common.redirect(targets)  # G3
    game.drivers.permanent_left = common.to_graveyard_instead
    game.drivers.horde_attackers = next_attackers  # G4, for the team's policies


def next_attackers(game: Game) -> list[Permanent]:
    """G4, as the team expects it: the creatures a 'must attack while' ability will send as the board
    stands, and Xenagos Ascended, whom 16 Ecstatic Pipers and 3 Xenagos's Scorns tell to attack
    (about half of his turns reveal one)."""
    return [p for p in game.battlefield.horde if p.card.is_creature
            and (p.card.name == XENAGOS or must_attack(game, p)[0])]


def must_attack(game: Game, p: Permanent) -> tuple[bool, bool]:
    """Whether a 'must attack while' ability whose count is met tells ``p`` to attack, and whether
    it gives haste (G4: Maddened Oread, Dance of Panic)."""
    required = haste = False
    for source in game.battlefield.statics:
        for effect in source.card.hooks.get("Static", ()):
            if effect.verb != "must_attack_while":
                continue
            args = effect.args
            who = args["filter"]
            if (who is None and source is not p) or (who is not None and not who(game, source, p)):
                continue
            if sum(1 for q in rules.all_permanents(game) if args["count"](game, source, q)) >= args["at_least"]:
                required = True
                haste = haste or args["haste"]
    return required, haste


def reveal(game: Game) -> None:
    """G1: at the beginning of Xenagos's main phase, reveal the top two cards; he casts them."""
    rules.reveal_and_cast_top(game, 2)


def attacks(game: Game, p: Permanent) -> bool:
    """G4: a creature of Xenagos attacks only when a card says so: 'attacks this turn if able', or a
    'must attack while' ability whose count is met; it needs haste or to have been there since
    the turn began."""
    required, haste = must_attack(game, p)
    required = required or has_keyword(game, p, "attacks this turn")
    return required and (haste or not summoning_sick(game, p))


def combat(game: Game) -> None:
    """G6: the beginning of combat; then the creatures a card tells to attack do (H8's target)."""
    common.begin_combat(game)
    if game.over():
        return
    staying = {p.id for p in game.battlefield.horde if p.card.is_creature and not attacks(game, p)}
    turns.horde_combat(game, staying)


def turn(game: Game) -> None:
    common.run(game, (common.begin_turn, reveal, combat, common.end_step))


def opponent_next(game: Game) -> bool:
    return common.opponent_next(game)
