"""The verbs planeswalkers' loyalty abilities need beyond the core vocabulary: untapping (701.21b)
one target permanent, several targets chosen as the ability is activated ("untap two target
lands", "untap up to four target permanents"), or every permanent of a kind ("untap all creatures
you control").

Each verb is registered with ``horde.engine.effects.verb`` like every other. A verb that chooses
several targets itself carries their number in ``target_count``: 601.2c wants every one of
them legal as the ability is activated, so ``rules.has_legal_target`` asks for that many unless the
text says "up to" (``up_to=true``: none is enough). The team's choices are asked of its policy
(``target``), the Horde's are made at random (H9). Nothing here runs unless a card uses it.
"""

from __future__ import annotations

from horde.engine import rules
from horde.engine.cards import Effect
from horde.engine.effects import Arg, verb
from horde.engine.events import log
from horde.engine.filters import Context, Filter
from horde.engine.state import Game, Permanent


@verb("untap", target=Arg("filter"), targets="target")
def untap(game: Game, ctx: Context, target: Filter) -> None:
    """Untap target permanent matching TARGET (701.21b)."""
    if isinstance(ctx.target, Permanent):
        ctx.target.tapped = False


@verb("untap_all", filter=Arg("filter"))
def untap_all(game: Game, ctx: Context, filter: Filter) -> None:
    """Untap every permanent matching FILTER (701.21b)."""
    for p in rules.all_permanents(game):
        if filter(game, ctx, p):
            p.tapped = False


@verb("untap_targets", filter=Arg("filter"), target_count=Arg("int", 2), up_to=Arg("bool", False))
def untap_targets(game: Game, ctx: Context, filter: Filter, target_count: int, up_to: bool) -> None:
    """Untap TARGET_COUNT target permanents matching FILTER, each a different one (UP_TO: up to that
    many), chosen one by one by the controller (the Horde at random: H9); 601.2c: without UP_TO the
    ability is activated only with that many legal targets (``rules.has_legal_target``)."""
    chosen: list[Permanent] = []
    probe = Effect("untap", {}, None, target=filter)
    for _ in range(target_count):
        options = [p for p in rules.legal_targets(game, ctx, probe) if isinstance(p, Permanent) and p not in chosen]
        if not options:
            break
        if ctx.is_horde:
            target = rules.horde_pick(game, "help", options, ctx.card)  # H9
        else:
            target = rules.ask(game, "target", ctx.controller, options, subject=ctx.card)
        if game.drivers.trace is not None:
            log(game, "target", rules.side_name(ctx.controller), card=ctx.card.name if ctx.card else None,
                **rules.target_fields(target))
        rules.became_target(game, target, ctx)
        chosen.append(target)
    for p in chosen:
        if rules.on_battlefield(game, p):
            p.tapped = False
