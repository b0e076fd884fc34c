"""Conditions: what follows 'if' up to the comma (an intervening 'if', 603.4; 'if you do'), and
the ``if=`` (``unless=``) argument each is written as.

    condition := you do | a player does | ~ was kicked | it was kicked
               | you control a NOUN | you control N or more NOUNs | an opponent controls a NOUN
               | you have no cards in hand | no NOUNs are on the battlefield
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from horde.cards.grammar.ast import (
    CardCount,
    CardsInZone,
    Controls,
    Done,
    NoCreatures,
    Noun,
    Num,
    Player,
    WasKicked,
)
from horde.cards.grammar.nouns import noun, number
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import condition, translates
from horde.cards.grammar.translate import Context, NotExpressible, filter_of, quote


@condition(first=("you", "a"))
def done(p: Parser) -> Done:
    """'you do', 'a player does' (608.2c: the optional effect before was done)."""
    if p.accept("you", "do") or p.accept("a", "player", "does") or p.accept("they", "do"):
        return Done()
    p.fail("you do")


@condition("~|it was kicked")
def _(m: dict[str, Any], p: Parser) -> WasKicked:
    return WasKicked()


@condition(first=("you", "an"))
def controls(p: Parser) -> Controls:
    """'you control a NOUN', 'you control N or more NOUNs', 'an opponent controls a NOUN'."""
    if p.accept("you", "control"):
        who = Player("you")
    elif p.accept("an", "opponent", "controls"):
        who = Player("an_opponent")
    else:
        p.fail("you control")
    if p.at("no"):
        p.pos += 1
        return Controls(who, noun(p), none=True)
    if p.at("a|an"):
        return Controls(who, noun(p))
    n = number(p)
    if not isinstance(n, Num):
        p.fail("a number")
    p.expect("or", "more")
    return Controls(who, noun(p), at_least=n.n)


@condition("you have no cards in hand")
def _(m: dict[str, Any], p: Parser) -> CardsInZone:
    return CardsInZone(CardCount(Noun(head="card", alternatives=((),)), "hand", "yours"), "<=", 0)


@condition(first=("no",))
def no_creatures(p: Parser) -> NoCreatures:
    """'no creatures are on the battlefield'."""
    p.expect("no")
    what = noun(p)
    p.expect("are", "on", "the", "battlefield")
    return NoCreatures(what)


# ---------------------------------------------------------------- translation
@translates(Done)
def _(node: Done, ctx: Context) -> str:
    return "if=done"


@translates(WasKicked)
def _(node: WasKicked, ctx: Context) -> str:
    return "if=kicked"


@translates(Controls)
def _(node: Controls, ctx: Context) -> str:
    whose = {"you": "yours", "an_opponent": "opponents"}[node.who.kind]
    if node.what.det not in ("a", "") or node.what.count not in (None, Num(1), Num(node.at_least)):
        raise NotExpressible("a condition on what a player controls")
    count = f"count:{filter_of(replace(node.what, relation=whose))}"
    if node.none:
        return f"unless={quote(count)}"
    if node.at_least == 1:
        return f"if={quote(count)}"
    return f"if={quote(f'{count} >= {node.at_least}')}"


@translates(CardsInZone)
def _(node: CardsInZone, ctx: Context) -> str:
    if node.what.zone == "hand" and node.what.whose == "yours" and node.what.what.alternatives == ((),):
        return f"if={quote(f'hand:yours {node.compare} {node.n}')}"
    raise NotExpressible("a condition on the cards in a zone")


@translates(NoCreatures)
def _(node: NoCreatures, ctx: Context) -> str:
    return f"unless={quote('count:' + filter_of(node.what))}"
