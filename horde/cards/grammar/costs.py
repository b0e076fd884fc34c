"""Activation costs (602.1), one between commas before the colon, and the card-file cost each is
written as (``Activated: {2}{B}, {T}, sacrifice another creature -> ...``).

    cost := MANA+ | {T} | {Q} | sacrifice (~ | NOUN) | exile (~ | NOUN) | discard (a card | N cards
          | your hand | a NOUN card) | pay N life | remove N COUNTERs from ~ | put N COUNTERs on ~
          | tap N untapped NOUNs you control | return NOUN to its owner's hand

The loader knows {T}, mana (no X), 'sacrifice this', 'sacrifice another creature', 'sacrifice
another zombie', 'exile this', 'discard a card' and 'pay N life'; the others are read and refused.
"""

from __future__ import annotations

from horde.cards.grammar.ast import (
    CountersCost,
    DiscardCost,
    ExileCost,
    LifeCost,
    ManaCost,
    Noun,
    Num,
    ReturnCost,
    SacrificeCost,
    SelfRef,
    TapCost,
    TapOthersCost,
)
from horde.cards.grammar.lexer import MANA, PT
from horde.cards.grammar.nouns import noun, obj, whole
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import cost, translates
from horde.cards.grammar.translate import Context, NotExpressible, mana_only


@cost()
def mana(p: Parser) -> ManaCost | TapCost:
    """Mana symbols ({2}{B}), or {T} or {Q} alone."""
    t = p.peek()
    if t is None or t.kind != MANA:
        p.fail("a mana symbol")
    if t.value in ("T", "Q"):
        p.pos += 1
        return TapCost(untap=t.value == "Q")
    symbols = []
    while p.peek() is not None and p.peek().kind == MANA and p.peek().value not in ("T", "Q"):  # type: ignore[union-attr]
        symbols.append(p.next().value)
    return ManaCost(tuple(symbols))


@cost(first=("sacrifice",))
def sacrifice(p: Parser) -> SacrificeCost:
    p.expect("sacrifice")
    what = obj(p)
    count = what.count.n if isinstance(what, Noun) and isinstance(what.count, Num) else 1
    return SacrificeCost(what, count)


@cost(first=("exile",))
def exile(p: Parser) -> ExileCost:
    p.expect("exile")
    what = obj(p)
    count = what.count.n if isinstance(what, Noun) and isinstance(what.count, Num) else 1
    return ExileCost(what, count)


@cost(first=("discard",))
def discard(p: Parser) -> DiscardCost:
    p.expect("discard")
    if p.accept("your", "hand"):
        return DiscardCost(0, hand=True)
    what = noun(p)
    if what.head != "card":
        p.fail("a card")
    count = what.count.n if isinstance(what.count, Num) else 0
    kind = None if what.alternatives == ((),) else what
    return DiscardCost(count, kind)


@cost(first=("pay",))
def life(p: Parser) -> LifeCost:
    p.expect("pay")
    n = whole(p)
    p.expect("life")
    return LifeCost(n)


X_COUNTERS = -1  # 'Remove X storage counters': as many as its controller chooses


@cost(first=("remove", "put"))
def counters(p: Parser) -> CountersCost:
    remove = p.word() == "remove"
    p.pos += 1
    n = 1 if p.accept("a|an") else X_COUNTERS if p.accept("x") else whole(p)
    t = p.peek()
    if t is not None and t.kind == PT:
        kind = t.value
        p.pos += 1
    else:
        kind = p.next().value
    p.expect("counter|counters")
    p.expect("from" if remove else "on", "~")
    return CountersCost(n, kind, remove)


@cost(first=("tap",))
def tap_others(p: Parser) -> TapOthersCost:
    p.expect("tap")
    what = noun(p)
    count = what.count.n if isinstance(what.count, Num) else 1
    return TapOthersCost(what, count)


@cost(first=("return",))
def return_cost(p: Parser) -> ReturnCost:
    p.expect("return")
    what = obj(p)
    p.expect("to", "its|their", "owner's|owners'", "hand|hands")
    return ReturnCost(what)



# ---------------------------------------------------------------- translation
@translates(ManaCost)
def _(node: ManaCost, ctx: Context) -> str:
    if not mana_only(node.text):
        raise NotExpressible(f"the mana cost {node.text} (X, snow)")
    return node.text


@translates(TapCost)
def _(node: TapCost, ctx: Context) -> str:
    if node.untap:
        raise NotExpressible("an untap cost ({Q})")
    return "{T}"


SACRIFICE_ANOTHER = {("creature",): "sacrifice another creature", ("zombie",): "sacrifice another zombie"}


@translates(SacrificeCost)
def _(node: SacrificeCost, ctx: Context) -> str:
    if isinstance(node.what, SelfRef):
        return "sacrifice this"
    what = node.what
    if isinstance(what, Noun) and what.other and what.det == "a" and what.relation is None and not what.shared \
            and len(what.alternatives) == 1 and what.alternatives[0] in SACRIFICE_ANOTHER:
        return SACRIFICE_ANOTHER[what.alternatives[0]]
    # (mana family) a noncreature card's 'Sacrifice a creature' (High Market, Grim Backwoods) can't
    # be the card itself: it is 'sacrifice another creature'
    if isinstance(what, Noun) and not what.other and what.det == "a" and what.relation is None and not what.shared \
            and what.alternatives == (("creature",),) and "Creature" not in ctx.facts.types:
        return SACRIFICE_ANOTHER[("creature",)]
    raise NotExpressible("a sacrifice cost other than this permanent or another creature (Zombie)")


@translates(ExileCost)
def _(node: ExileCost, ctx: Context) -> str:
    if isinstance(node.what, SelfRef):
        return "exile this"
    raise NotExpressible("an exile cost other than this card")


@translates(DiscardCost)
def _(node: DiscardCost, ctx: Context) -> str:
    if node.count == 1 and node.what is None and not node.hand:
        return "discard a card"
    raise NotExpressible("a discard cost other than a card")


@translates(LifeCost)
def _(node: LifeCost, ctx: Context) -> str:
    if node.amount > 999:
        raise NotExpressible("a life cost of more than 999")
    return f"pay {node.amount} life"


@translates(CountersCost, TapOthersCost, ReturnCost)
def _(node: object, ctx: Context) -> str:
    raise NotExpressible(f"the cost '{type(node).__name__}' (counters, tapping others, returning)")

