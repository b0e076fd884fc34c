"""Cards: draw, discard, mill (121, 701.8, 701.13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import Amount, Effect, Player
from horde.cards.grammar.effects import subject
from horde.cards.grammar.nouns import times
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, amount, who


@dataclass(frozen=True)
class Draw(Effect):
    who: Player
    count: Amount


@dataclass(frozen=True)
class Discard(Effect):
    who: Player
    count: Amount


@dataclass(frozen=True)
class Mill(Effect):
    who: Player
    count: Amount


@effect("{who:player?} draw|draws {n:number} card|cards {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> Draw:
    return Draw(subject(p, m["who"]), times(m["n"], m["each"]))


@effect("{who:player?} draw|draws {n:number} additional card|cards")
def _(m: dict[str, Any], p: Parser) -> Draw:
    """'that player draws an additional card' (at the beginning of a draw step: Howling Mine)."""
    return Draw(subject(p, m["who"]), m["n"])


@effect("{who:player?} discard|discards {n:number} card|cards {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> Discard:
    return Discard(subject(p, m["who"]), times(m["n"], m["each"]))


@effect("{who:player?} mill|mills {n:number} card|cards {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> Mill:
    return Mill(subject(p, m["who"]), times(m["n"], m["each"]))


@translates(Draw)
def _(node: Draw, ctx: Context) -> list[str]:
    return [f"draw who={who(node.who, ctx)} count={amount(node.count, ctx)}"]


@translates(Discard)
def _(node: Discard, ctx: Context) -> list[str]:
    return [f"discard who={who(node.who, ctx)} count={amount(node.count, ctx)}"]


@translates(Mill)
def _(node: Mill, ctx: Context) -> list[str]:
    return [f"mill who={who(node.who, ctx)} count={amount(node.count, ctx)}"]
