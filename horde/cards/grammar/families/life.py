"""Life and poison: lose, gain (119), poison counters (122.1f)."""

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
class LoseLife(Effect):
    who: Player
    amount: Amount


@dataclass(frozen=True)
class GainLife(Effect):
    who: Player
    amount: Amount


@dataclass(frozen=True)
class Poison(Effect):
    who: Player
    count: Amount


@effect("{who:player?} lose|loses {n:number} life {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> LoseLife:
    return LoseLife(subject(p, m["who"]), times(m["n"], m["each"]))


@effect("{who:player?} lose|loses life {n:equal_to}")
def _(m: dict[str, Any], p: Parser) -> LoseLife:
    return LoseLife(subject(p, m["who"]), m["n"])


@effect("{who:player?} gain|gains {n:number} life {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> GainLife:
    return GainLife(subject(p, m["who"]), times(m["n"], m["each"]))


@effect("{who:player?} gain|gains life {n:equal_to}")
def _(m: dict[str, Any], p: Parser) -> GainLife:
    return GainLife(subject(p, m["who"]), m["n"])


@effect("{who:player?} get|gets {n:number} poison counter|counters")
def _(m: dict[str, Any], p: Parser) -> Poison:
    return Poison(subject(p, m["who"]), m["n"])


@translates(LoseLife)
def _(node: LoseLife, ctx: Context) -> list[str]:
    return [f"lose_life who={who(node.who, ctx)} amount={amount(node.amount, ctx)}"]


@translates(GainLife)
def _(node: GainLife, ctx: Context) -> list[str]:
    player = who(node.who, ctx)
    return [f"gain_life amount={amount(node.amount, ctx)}" + ("" if player == "you" else f" who={player}")]


@translates(Poison)
def _(node: Poison, ctx: Context) -> list[str]:
    return [f"poison who={who(node.who, ctx)} count={amount(node.count, ctx)}"]
