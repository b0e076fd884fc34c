"""Control (108.4, 613.1b): 'gain control of target NOUN [until end of turn]', with 'Untap
that creature' and 'It gets +N/+N and gains haste until end of turn' joining it (a threaten
effect: the ``gain_control`` verb's untap and bonus)."""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import Effect, Noun, Obj, Ref
from horde.cards.grammar.nouns import obj, target
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible, may_change_last, quote
from horde.cards.grammar.translate import target as target_filter


@dataclass(frozen=True)
class GainControl(Effect):
    what: Noun
    until_end_of_turn: bool


@dataclass(frozen=True)
class Untap(Effect):
    what: Obj


@effect(first=("gain",))
def gain_control(p: Parser) -> GainControl:
    p.expect("gain", "control", "of")
    what = target(p)
    return GainControl(what, p.accept("until", "end", "of", "turn"))


@effect(first=("untap",))
def untap(p: Parser) -> Untap:
    p.expect("untap")
    return Untap(obj(p))


@translates(GainControl)
def _(node: GainControl, ctx: Context) -> list[str]:
    flt = target_filter(node.what, ctx)
    if ctx.optional:
        raise NotExpressible("gaining control of up to one target")
    return [f"gain_control target={quote(flt)}" + (" until_end_of_turn=true" if node.until_end_of_turn else "")]


@translates(Untap)
def _(node: Untap, ctx: Context) -> list[str]:
    """'Untap that creature' after 'gain control of target creature': the same verb's untap."""
    what = node.what
    if isinstance(what, Ref) and (what.kind == "it" or what.kind == "that" and what.word in ("creature", "permanent")) \
            and ctx.antecedent == "target" and may_change_last(ctx) and ctx.verbs[-1].startswith("gain_control ") \
            and " untap=" not in ctx.verbs[-1]:
        ctx.verbs[-1] += " untap=true"
        return []
    raise NotExpressible("untapping a permanent")
