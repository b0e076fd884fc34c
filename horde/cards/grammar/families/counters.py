"""Counters (122): 'put N +1/+1 (-1/-1) counters on ~ | target NOUN | each NOUN'."""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import Amount, Effect, Noun, Obj
from horde.cards.grammar.lexer import PT
from horde.cards.grammar.nouns import for_each, number, obj, times
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible, amount, filter_of, is_self, quote, target


@dataclass(frozen=True)
class PutCounters(Effect):
    count: Amount
    kind: str  # '+1/+1', '-1/-1', or the counter's name
    on: Obj


def counter_kind(p: Parser) -> str:
    t = p.peek()
    if t is not None and t.kind == PT:
        p.pos += 1
        return t.value
    return p.next().value


@effect(first=("put",))
def put_counters(p: Parser) -> PutCounters:
    p.expect("put")
    n = number(p)
    kind = counter_kind(p)
    p.expect("counter|counters", "on")
    on = obj(p)
    each = p.attempt(for_each)
    return PutCounters(times(n, each), kind, on)


@translates(PutCounters)
def _(node: PutCounters, ctx: Context) -> list[str]:
    count = amount(node.count, ctx)
    on = node.on
    if node.kind in ("charge", "storage") and is_self(on, ctx):  # read by its mana abilities
        return [f"counters on=self count={count} kind={node.kind}"]
    if node.kind not in ("+1/+1", "-1/-1"):
        raise NotExpressible(f"{node.kind} counters")
    kind = " kind=minus" if node.kind == "-1/-1" else ""
    if is_self(on, ctx):
        return [f"counters on=self count={count}{kind}"]
    if isinstance(on, Noun) and on.det == "each":
        return [f"counters on=each count={count} filter={quote(filter_of(on))}{kind}"]
    if isinstance(on, Noun) and on.targeted:
        return [f"counters on=target count={count} filter={quote(target(on, ctx))}{kind}"]
    raise NotExpressible("counters on what a reference names")
