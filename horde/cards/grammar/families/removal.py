"""Removal: destroy (701.7), exile (701.13), return to hand, counter a spell (701.5), regenerate
(701.15), sacrifice (701.17) this card, tap (701.21) all, and 'can't be regenerated'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import CantBeRegenerated, Effect, Noun, Obj, Ref, SelfRef
from horde.cards.grammar.nouns import obj
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, sentence, translates
from horde.cards.grammar.translate import (
    Context,
    NotExpressible,
    filter_of,
    it_is_self,
    may_change_last,
    quote,
    spell_filter,
    target,
)
from horde.cards.grammar.words import singular


@dataclass(frozen=True)
class Destroy(Effect):
    what: Obj
    unless: tuple[str, ...] = ()  # 'except for Zombies and Skeletons': subtypes spared


@dataclass(frozen=True)
class Exile(Effect):
    what: Obj


@dataclass(frozen=True)
class Bounce(Effect):
    what: Obj


@dataclass(frozen=True)
class CounterSpell(Effect):
    what: Noun


@dataclass(frozen=True)
class Regenerate(Effect):
    what: Obj


@dataclass(frozen=True)
class Sacrifice(Effect):
    """'sacrifice ~' (or 'it' in a trigger about the card)."""

    what: Obj


@dataclass(frozen=True)
class Tap(Effect):
    what: Obj


@effect(first=("destroy",))
def destroy(p: Parser) -> Destroy:
    p.expect("destroy")
    what = obj(p)
    unless: list[str] = []
    if p.accept("except", "for"):
        unless.append(singular(p.next().value))
        p.expect("and")
        unless.append(singular(p.next().value))
    return Destroy(what, tuple(unless))


@effect("exile {what:object}")
def _(m: dict[str, Any], p: Parser) -> Exile:
    return Exile(m["what"])


@effect("return {what:object} to its|their owner's|owners' hand|hands")
def _(m: dict[str, Any], p: Parser) -> Bounce:
    return Bounce(m["what"])


@effect("counter {what:noun}")
def _(m: dict[str, Any], p: Parser) -> CounterSpell:
    return CounterSpell(m["what"])


@effect("regenerate {what:object}")
def _(m: dict[str, Any], p: Parser) -> Regenerate:
    return Regenerate(m["what"])


@effect("sacrifice {what:it}")
def _(m: dict[str, Any], p: Parser) -> Sacrifice:
    return Sacrifice(m["what"])


@effect("tap {what:object}")
def _(m: dict[str, Any], p: Parser) -> Tap:
    return Tap(m["what"])


@sentence(first=("it", "they", "a"))
def cant_be_regenerated(p: Parser) -> CantBeRegenerated:
    """'It (They) can't be regenerated', 'A creature dealt damage this way can't be regenerated
    this turn'."""
    if p.accept("a", "creature", "dealt", "damage", "this", "way"):
        what: Obj = Ref("this_way")
    else:
        p.expect("it|they")
        what = Ref("it")
    p.expect("can't", "be", "regenerated")
    p.accept("this", "turn")
    return CantBeRegenerated(what)



# ---------------------------------------------------------------- translation
@translates(Destroy)
def _(node: Destroy, ctx: Context) -> list[str]:
    what = node.what
    if isinstance(what, Ref) and what.kind == "it" and ctx.hook == "ControllerDamaged":
        return ["destroy_that_source"]  # 'Whenever a creature deals damage to you, destroy it'
    if not isinstance(what, Noun):
        raise NotExpressible("destroying what a reference names")
    if what.det == "all":
        flt = filter_of(what)
        if node.unless:
            if "|" in flt:
                raise NotExpressible("'except for' after alternatives")
            text = " ".join(flt.split() + ["non" + word for word in node.unless])
            return [f"destroy_all filter={quote(_checked(text))}"]
        return [f"destroy_all filter={quote(flt)}"]
    if node.unless:
        raise NotExpressible("'except for' of one target")
    return [f"destroy target={quote(target(what, ctx))}"]


def _checked(text: str) -> str:
    from horde.cards.grammar.translate import _check

    return _check(text)


@translates(Exile)
def _(node: Exile, ctx: Context) -> list[str]:
    if not isinstance(node.what, Noun):
        raise NotExpressible("exiling what a reference names")
    return [f"exile target={quote(target(node.what, ctx))}"]


@translates(Bounce)
def _(node: Bounce, ctx: Context) -> list[str]:
    if not isinstance(node.what, Noun):
        raise NotExpressible("returning what a reference names")
    return [f"bounce target={quote(target(node.what, ctx))}"]


@translates(CounterSpell)
def _(node: CounterSpell, ctx: Context) -> list[str]:
    if ctx.hook != "Cast":  # H10: a spell is countered only by a counterspell cast as it is cast
        raise NotExpressible("countering a spell outside a spell's own resolution (H10)")
    what = node.what
    if what.det != "target" or what.count is not None:
        raise NotExpressible("not one target spell")
    kind = spell_filter(what)
    if kind and kind not in ("creature", "noncreature"):
        raise NotExpressible(f"a counterspell of {kind} spells")
    return ["counter_spell" + (f" filter={kind}" if kind else "")]


@translates(Regenerate)
def _(node: Regenerate, ctx: Context) -> list[str]:
    if isinstance(node.what, SelfRef):
        return ["regenerate on=self"]
    if isinstance(node.what, Noun) and node.what.targeted:
        return [f"regenerate on=target target={quote(target(node.what, ctx))}"]
    raise NotExpressible("regenerating what a reference names")


IT_IS_SELF_HOOKS = ("Enters", "Attacks", "Blocks", "Dies", "DealtDamage", "Targeted", "Cycled", "EndStep", "Upkeep")


@translates(Sacrifice)
def _(node: Sacrifice, ctx: Context) -> list[str]:
    if it_is_self(node.what, ctx, IT_IS_SELF_HOOKS):
        return ["sacrifice_self"]
    raise NotExpressible("sacrificing what a reference names")


@translates(Tap)
def _(node: Tap, ctx: Context) -> list[str]:
    what = node.what
    if isinstance(what, Ref) and what.kind == "those" and what.word == "creature":
        if ctx.group is None:
            raise NotExpressible("'those creatures' with no group before")
        return [f"tap_all filter={quote(ctx.group)}"]
    if isinstance(what, Noun) and what.det == "all":
        return [f"tap_all filter={quote(filter_of(what))}"]
    raise NotExpressible("tapping one permanent")


@translates(CantBeRegenerated)
def _(node: CantBeRegenerated, ctx: Context) -> list[str]:
    """'can't be regenerated': the ``regenerate=false`` of the destroy (or damage) verb before it."""
    verbs = ("damage",) if isinstance(node.what, Ref) and node.what.kind == "this_way" else ("destroy", "destroy_all")
    if not may_change_last(ctx):
        raise NotExpressible("'can't be regenerated' under a condition")
    for i in range(len(ctx.verbs) - 1, -1, -1):
        if ctx.verbs[i].split()[0] in verbs:
            ctx.verbs[i] += " regenerate=false"
            return []
    raise NotExpressible("'can't be regenerated' after no destroy or damage")

