"""What players do to their own permanents: sacrifice (701.17) N permanents of a kind, keep one
of each permanent type and sacrifice the rest."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import Effect, Noun, Num, Player
from horde.cards.grammar.effects import subject
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible, amount, filter_of, quote, who


@dataclass(frozen=True)
class EachSacrifices(Effect):
    who: Player
    what: Noun


@dataclass(frozen=True)
class KeepOneOfEachType(Effect):
    who: Player


@effect("{who:player?} sacrifice|sacrifices {what:noun}")
def _(m: dict[str, Any], p: Parser) -> EachSacrifices | None:
    what: Noun = m["what"]
    if what.det not in ("a", "") or what.count is None:
        return None
    return EachSacrifices(subject(p, m["who"]), what)


@effect("{who:player} chooses a permanent they control of each permanent type and sacrifices the rest")
def _(m: dict[str, Any], p: Parser) -> KeepOneOfEachType:
    return KeepOneOfEachType(m["who"])


@translates(EachSacrifices)
def _(node: EachSacrifices, ctx: Context) -> list[str]:
    if node.what.relation is not None or node.what.count is None or node.what.other:
        # 'sacrifices another creature' after a first: one more, not one other than this
        raise NotExpressible("a sacrifice of permanents of a relation")
    count = amount(node.what.count, ctx) if not isinstance(node.what.count, Num) else str(node.what.count.n)
    return [f"each_player_sacrifices who={who(node.who, ctx)} filter={quote(filter_of(node.what))} count={count}"]


@translates(KeepOneOfEachType)
def _(node: KeepOneOfEachType, ctx: Context) -> list[str]:
    return [f"each_player_sacrifices who={who(node.who, ctx)} filter=permanent keep=one_of_each_type"]
