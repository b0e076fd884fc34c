"""The verbs of keyword abilities that are triggered abilities (702): each keyword's card-file
lines name the hook it triggers on and one of these verbs (annihilator: ``Attacks: annihilator
count=2``; renown: ``HitsPlayer: renown count=1``; fading: ``Enters: fading count=3`` and
``Upkeep: fading``), so they cost a game nothing unless a card has them. The keywords the rules
apply at their own points (landwalk, shadow, exalted, storm, cascade, evoke, ...) are
``horde.engine.rules.keyword_abilities`` and ``horde.engine.rules.casting``'s. Registered with the verbs
of ``horde.engine.effects``; ``horde.engine.vocabulary`` imports this family.
"""

from __future__ import annotations

import dataclasses

from horde.engine import rules
from horde.engine.cards import CardDef, ManaCost
from horde.engine.effects import Arg, gain_life, lose_life, verb
from horde.engine.events import log
from horde.engine.filters import Amount, Context, Filter, evaluate
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent


@verb("annihilator", count=Arg("int", 1))
def annihilator(game: Game, ctx: Context, count: int) -> None:
    """Annihilator COUNT (702.86): the defending player sacrifices COUNT permanents (the Horde at random: H9; a team player attacked by the Horde, as its policy chooses)."""
    p = ctx.permanent
    if p is None:
        return
    player = HORDE_CONTROLLER if p.controller != HORDE_CONTROLLER else p.defender
    for _ in range(count):
        options = [q for q in rules.board_of(game, player) if q.controller == player]
        if not options:
            return
        rules.sacrifice(game, rules.choose_sacrifice(game, player, options), p.controller)


@verb("rampage", count=Arg("int", 1))
def rampage(game: Game, ctx: Context, count: int) -> None:
    """Rampage COUNT (702.23): it gets +COUNT/+COUNT until end of turn for each creature blocking it beyond the first."""
    p = ctx.permanent
    if p is not None and len(p.blockers) > 1:
        n = count * (len(p.blockers) - 1)
        rules.pump(game, p, n, n)


@verb("renown", count=Arg("int", 1))
def renown(game: Game, ctx: Context, count: int) -> None:
    """Renown COUNT (702.112): if it isn't renowned, put COUNT +1/+1 counters on it and it becomes renowned."""
    p = ctx.permanent
    if p is None or not rules.on_battlefield(game, p) or (p.marks is not None and "renowned" in p.marks):
        return
    rules.add_counters(game, p, count)
    rules.mark(p, "renowned")


# Token copies of cards (myriad): one per card, made once (a card's definition never changes).
_TOKEN_COPIES: dict[CardDef, CardDef] = {}


def token_copy(card: CardDef) -> CardDef:
    """A token that is a copy of a card (707.2: its copiable values, and it is a token)."""
    found = _TOKEN_COPIES.get(card)
    if found is None:
        found = _TOKEN_COPIES[card] = dataclasses.replace(card, supertypes=card.supertypes | {"Token"},
                                                          source=f"a token copy of {card.name}")
    return found


@verb("myriad")
def myriad(game: Game, ctx: Context) -> None:
    """Myriad (702.116): for each opponent other than the defending player, a token copy of it enters tapped and attacking that player, exiled at the end of combat (the Horde's attacker: each other team player; a team creature's only opponent is the Horde)."""
    p = ctx.permanent
    if p is None or p.controller != HORDE_CONTROLLER or not p.attacking:
        return  # a team player's one opponent, the Horde, is the defending player
    copy = token_copy(p.card)
    for player in rules.in_game(game):
        if player.index == p.defender or game.over():
            continue
        q = rules.put_onto_battlefield(game, copy, HORDE_CONTROLLER, HORDE_CONTROLLER, tapped=True, created=True)
        if rules.on_battlefield(game, q):
            q.attacking = True
            q.defender = player.index
            rules.keyword_state(game).myriad.append(q)
            if game.drivers.trace is not None:
                log(game, "attack", rules.side_name(HORDE_CONTROLLER), card=q.card.name, id=q.id,
                    power=rules.power(game, q), target=f"player {player.index + 1}", target_id=None,
                    target_player=player.index + 1)


EXTORT = ManaCost(0, ("W/B",))


@verb("extort")
def extort(game: Game, ctx: Context) -> None:
    """Extort (702.101): you may pay {W/B} (the Horde does: H7; a team player when it can and its policy says so, ``may``); if you do, each opponent loses 1 life and you gain that much life."""
    player = ctx.controller
    if player != HORDE_CONTROLLER:
        generic, pips = (1, ()) if game.players[player].generic_mana else (0, EXTORT.pips)
        if not rules.can_pay(game, player, generic, pips):
            return
        if not rules.ask(game, "may", player, (True, False), subject=(ctx.card, _EXTORT_EFFECT, None)):
            return
        rules.pay(game, player, generic, pips)
    opponents = [HORDE_CONTROLLER] if player != HORDE_CONTROLLER else [pl.index for pl in rules.in_game(game)]
    lose_life(game, ctx, "each_opponent", 1)
    gain_life(game, ctx, len(opponents), None)


_EXTORT_EFFECT = None  # the 'may' decision's effect: none (the payment is the extort ability's own)


@verb("fading", count=Arg("int", 0))
def fading(game: Game, ctx: Context, count: int) -> None:
    """Fading (702.32): on Enters, it gets COUNT fade counters; at its controller's upkeep (COUNT 0), remove a fade counter from it, and if it can't, sacrifice it."""
    _counters_or_sacrifice(game, ctx, "fade", count, last=False)


@verb("vanishing", count=Arg("int", 0))
def vanishing(game: Game, ctx: Context, count: int) -> None:
    """Vanishing (702.63): on Enters, it gets COUNT time counters; at its controller's upkeep (COUNT 0), remove a time counter from it, and when the last is removed, sacrifice it."""
    _counters_or_sacrifice(game, ctx, "time", count, last=True)


def _counters_or_sacrifice(game: Game, ctx: Context, kind: str, count: int, last: bool) -> None:
    p = ctx.permanent
    if p is None or not rules.on_battlefield(game, p):
        return
    if count:
        rules.mark(p, kind, count)  # it enters with them
        return
    have = p.marks.get(kind, 0) if p.marks is not None else 0
    if have == 0:
        if not last:
            rules.sacrifice(game, p)  # 702.32a: it can't remove one
        return
    assert p.marks is not None
    p.marks[kind] = have - 1
    if last and have == 1:
        rules.sacrifice(game, p)  # 702.63a: the last time counter was removed


@verb("modular", target=Arg("filter", "creature artifact"), targets="target")
def modular(game: Game, ctx: Context, target: Filter) -> None:
    """Modular (702.43, a Dies ability): put its +1/+1 counters on target artifact creature (its Enters ``counters`` puts them on it)."""
    p = ctx.permanent
    if p is not None and isinstance(ctx.target, Permanent) and p.plus > 0:
        rules.add_counters(game, ctx.target, p.plus, "plus", ctx.controller)


@verb("devour", count=Arg("int", 1))
def devour(game: Game, ctx: Context, count: int) -> None:
    """Devour COUNT (702.82): as it enters, its controller may sacrifice any number of other creatures; it gets COUNT +1/+1 counters for each (the Horde never: it takes no option that harms its own permanents; a team player as its policy says, ``devour``)."""
    p = ctx.permanent
    if p is None or p.controller == HORDE_CONTROLLER or not rules.on_battlefield(game, p):
        return
    options = [q for q in rules.board_of(game, p.controller) if q is not p and q.card.is_creature]
    if not options:
        return
    eaten = rules.ask(game, "devour", p.controller, options, subject=p, count=count)
    for q in eaten:
        rules.sacrifice(game, q)
    rules.add_counters(game, p, count * len(eaten))


@verb("living_weapon", token=Arg("token", "Phyrexian Germ"))
def living_weapon(game: Game, ctx: Context, token: str) -> None:
    """Living weapon (702.92): create a 0/0 black Phyrexian Germ creature token, then attach this Equipment to it."""
    p = ctx.permanent
    germ = rules.put_onto_battlefield(game, game.tokens[token], ctx.controller, ctx.controller, created=True)
    if p is not None and rules.on_battlefield(game, p) and rules.on_battlefield(game, germ):
        game.battlefield.attach(p, germ)


@verb("monstrosity", count=Arg("amount", 1))
def monstrosity(game: Game, ctx: Context, count: Amount) -> None:
    """Monstrosity COUNT (701.37): if it isn't monstrous, put COUNT +1/+1 counters on it and it becomes monstrous (then its Monstrous abilities trigger)."""
    p = ctx.permanent
    if p is None or not rules.on_battlefield(game, p) or (p.marks is not None and "monstrous" in p.marks):
        return
    rules.add_counters(game, p, evaluate(game, ctx, count))
    rules.mark(p, "monstrous")
    if "Monstrous" in p.card.hooks and rules.on_battlefield(game, p):
        rules.run_hook(game, p, "Monstrous")  # 701.37b: 'when ~ becomes monstrous'

