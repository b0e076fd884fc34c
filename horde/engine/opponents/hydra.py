"""Face the Hydra (RULES.md F): the Hydra's setup, its turn, its Heads growing back and the
team's win at the end of a turn with no Head on the battlefield.

The Hydra is the Horde side: its Heads are creatures that never attack or block; on its turn it
reveals and casts one card, then every untapped Head bites each player. Damage the team would
deal to the Hydra is dealt to a Head the team chooses (F6).
"""

from __future__ import annotations

from typing import Any

import horde.engine.opponents.common as common
from horde.engine import effects, rules, turns
from horde.engine.cards import CardDef
from horde.engine.events import log
from horde.engine.filters import Context, compile_filter
from horde.engine.rules import ask
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side, Winner

HEAD = "Head"
STARTING_HEAD = "Hydra Head"


def heads(game: Game) -> list[Permanent]:
    return [p for p in game.battlefield.horde if HEAD in p.card.subtypes]


def setup(game: Game) -> None:
    """F1: the starting Heads (``hydra_heads``, default one more than the players) are taken from
    the Hydra's deck onto the battlefield; the rest is its library. F6, F3, F7 are wired."""
    wanted = game.setup.hydra_heads
    if wanted is None:
        wanted = len(game.players) + 1
    library = game.horde.library
    for _ in range(wanted):
        card = next((c for c in library if c.name == STARTING_HEAD), None)
        if card is None:
            break
        library.remove(card)
        rules.put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER, triggers=False)
    # F9: Heads don't attack or block (a rule of the procedure, as an emblem of the Hydra's).
    effects.emblem(game, Context(None, None, HORDE_CONTROLLER), compile_filter("head"), 0, 0,
                   frozenset({"can't attack", "can't block"}))
    drivers = game.drivers
    drivers.opponent_damaged = common.redirect(heads)  # F6
    drivers.permanent_left = head_left  # F3
    if game.setup.hydra_choices == "team":
        drivers.horde_choice = team_chooses  # F7


def team_chooses(game: Game, kind: str, options: list[Any], card: CardDef | None) -> Any:
    """F7: the team makes the Hydra's choices, as the players do in the original."""
    return ask(game, "horde_choice", -1, options, subject=(kind, card))


def head_left(game: Game, p: Permanent) -> None:
    """F3: whenever a Head leaves the battlefield, reveal the top two cards of the Hydra's library:
    Heads enter, sorceries go to its graveyard. A Head bound elsewhere goes to the graveyard."""
    common.to_graveyard_instead(game, p)
    if HEAD not in p.card.subtypes:
        return
    library = game.horde.library
    revealed = [library.pop() for _ in range(min(2, len(library)))]
    if game.drivers.trace is not None:
        log(game, "heads_grow", Side.HORDE, cards=[c.name for c in revealed],
            heads=sum(1 for c in revealed if HEAD in c.subtypes))
    for card in revealed:
        if HEAD in card.subtypes:
            rules.put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER)
        else:
            game.horde.graveyard.append(card)


def reveal(game: Game) -> None:
    """F2: reveal the top card of the Hydra's library; the Hydra casts it."""
    rules.reveal_and_cast_top(game, 1)


def bite(game: Game) -> None:
    """F2: each untapped Head deals 1 damage to each player, an elite Head 2, all at once; the
    team may answer with a fog (it counts as combat damage)."""
    if game.drivers.team_side is not None:
        game.drivers.team_side.respond(game, "bite")  # at a table: the players act before the Heads bite
        if game.over():
            return
    amount = sum(2 if "Elite" in p.card.supertypes else 1 for p in heads(game) if not p.tapped)
    if game.drivers.trace is not None:
        log(game, "hydra_bites", Side.HORDE, heads=sum(1 for p in heads(game) if not p.tapped), amount=amount)
    if amount <= 0:
        return
    turns.fog_window(game, [], expected=amount * len(game.players))
    if game.fogged:
        if game.drivers.trace is not None:
            log(game, "damage_prevented", Side.TEAM, reason="fog")
        return
    for player in game.players:
        rules.damage_player(game, None, HORDE_CONTROLLER, player.index, amount, combat=True)
    rules.check_state(game)


def turn(game: Game) -> None:
    """F2: untap, reveal and cast one card, the Heads bite, end step (F5)."""
    common.run(game, (common.begin_turn, reveal, bite, common.end_step))


def opponent_next(game: Game) -> bool:
    return common.opponent_next(game)


def end_of_turn(game: Game) -> None:
    """F8: the team wins at the end of any turn with no Head on the battlefield."""
    if not game.over() and not heads(game):
        if game.drivers.trace is not None:
            log(game, "team_wins", Side.TEAM, reason="no Head is on the battlefield at the end of the turn (F8)")
        game.winner = Winner.TEAM
