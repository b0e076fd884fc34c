"""Effects of their own: prevent all combat damage this turn (a fog), abandon a scheme (A1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import Effect
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context


@dataclass(frozen=True)
class Fog(Effect):
    pass


@dataclass(frozen=True)
class Abandon(Effect):
    pass


@effect("prevent all combat damage that would be dealt this turn")
def _(m: dict[str, Any], p: Parser) -> Fog:
    return Fog()


@effect("abandon ~")
def _(m: dict[str, Any], p: Parser) -> Abandon:
    return Abandon()


@translates(Fog)
def _(node: Fog, ctx: Context) -> list[str]:
    return ["fog"]


@translates(Abandon)
def _(node: Abandon, ctx: Context) -> list[str]:
    return ["abandon"]
