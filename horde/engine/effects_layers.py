"""The verbs of characteristic-defining abilities and their linked abilities (604.3, 607.2a):
what "As ~ enters, exile any number of creature cards from your graveyard" does, so that Sutured
Ghoul's power and toughness can count "the exiled cards" (the amounts ``exiled_power`` and
``exiled_toughness`` of ``horde.engine.filters``).

Registered in the one vocabulary of ``horde.engine.effects`` with its ``verb`` decorator; the
module is imported by ``horde.engine.vocabulary``, so that imports run one way.
"""

from __future__ import annotations

from horde.engine import rules
from horde.engine.effects import Arg, verb
from horde.engine.events import log
from horde.engine.filters import Context, card_matches
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent


@verb("exile_from_graveyard_with", filter=Arg("cards", "creature"))
def exile_from_graveyard_with(game: Game, ctx: Context, filter: str) -> None:
    """Exile any number of cards matching FILTER from the controller's graveyard, linked to this permanent (607.2a: "the exiled cards"); the Horde exiles every one."""
    p = ctx.permanent
    if not isinstance(p, Permanent):
        return
    graveyard = rules.graveyard_of(game, ctx.controller)
    options = [card for card in graveyard if not card.is_token and card_matches(filter, card)]
    if not options:
        return
    if ctx.controller == HORDE_CONTROLLER:
        chosen = options  # Decision: as big as it can be, the most a free choice gives it (H7)
    else:
        chosen = list(rules.ask(game, "exile_with", ctx.controller, options, subject=p.card))
    for card in chosen:
        graveyard.remove(card)
    exile = game.horde.exile if ctx.controller == HORDE_CONTROLLER else game.players[ctx.controller].exile
    exile.extend(chosen)
    p.exiled_with = p.exiled_with + tuple(chosen)
    game.battlefield.unsettle()  # its toughness may now be above 0, or still 0
    if game.drivers.trace is not None and chosen:
        log(game, "exile_from_graveyard", rules.side_name(ctx.controller), card=p.card.name,
            cards=[card.name for card in chosen])
