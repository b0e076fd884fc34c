"""Pump: 'NOUN gets +N/+N [and gains KEYWORDS] until end of turn', 'gains KEYWORDS until end of
turn', 'can't be blocked (can't block) this turn' (a target, the card itself, or every permanent a
noun phrase names), and '~ assigns no combat damage this turn'."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.abilities import KEYWORD_NAMES
from horde.cards.grammar.ast import Effect, Noun, Obj, Ref
from horde.cards.grammar.nouns import obj, pt
from horde.cards.grammar.parser import Parser, nonterminal
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import (
    Context,
    NotExpressible,
    filter_of,
    is_self,
    it_is_self,
    may_change_last,
    pt_args,
    quote,
    target,
)
from horde.engine.cards import KEYWORDS


@dataclass(frozen=True)
class Pump(Effect):
    what: Obj
    power: int
    toughness: int
    keywords: tuple[str, ...]
    duration: str = "end_of_turn"


@dataclass(frozen=True)
class AssignsNoCombatDamage(Effect):
    what: Obj


GRANTS = KEYWORD_NAMES | KEYWORDS | {"can't be blocked"}
_LONGEST = max(len(k.split()) for k in GRANTS)


def _grant(p: Parser) -> str:
    if p.accept("protection", "from"):
        return "protection from " + p.next().value
    for length in range(_LONGEST, 0, -1):
        words = [p.word(k) for k in range(length)]
        if all(words) and " ".join(words) in GRANTS:
            p.pos += length
            return " ".join(words)
    p.fail("a keyword")


@nonterminal("keywords")
def keywords(p: Parser) -> tuple[str, ...]:
    """Keywords joined by commas and 'and': 'flying', 'first strike and trample', 'flying,
    vigilance, and lifelink'."""
    found = [_grant(p)]
    while True:
        saved = p.pos
        if p.accept(",", "and") or p.accept("and") or p.accept(","):
            more = p.attempt(_grant)
            if more is not None:
                found.append(more)
                continue
        p.pos = saved
        return tuple(found)


def _gets(p: Parser, plural: bool) -> tuple[int, int, tuple[str, ...]]:
    power = toughness = 0
    granted: tuple[str, ...] = ()
    if p.accept("get|gets"):
        power, toughness = pt(p)
        if p.accept("and", "gain|gains"):
            granted = keywords(p)
    elif p.accept("gain|gains"):
        granted = keywords(p)
    else:
        p.fail("gets +N/+N or gains KEYWORDS")
    return power, toughness, granted


@effect()
def pump(p: Parser) -> Pump:
    """'[Until end of turn,] NOUN gets +N/+N [and gains KEYWORDS] [until end of turn]'."""
    front = p.accept("until", "end", "of", "turn", ",")
    what = obj(p)
    power, toughness, granted = _gets(p, True)
    if not front:
        p.expect("until", "end", "of", "turn")
    return Pump(what, power, toughness, granted)


@effect()
def cant_this_turn(p: Parser) -> Pump:
    """'NOUN can't be blocked this turn', 'NOUN can't block this turn': a keyword until end of turn."""
    what = obj(p)
    if p.accept("can't", "be", "blocked"):
        granted = "can't be blocked"
    else:
        p.expect("can't", "block")
        granted = "can't block"
    p.expect("this", "turn")
    return Pump(what, 0, 0, (granted,))


@effect("{what:it} assigns no combat damage this turn")
def _(m: dict[str, Any], p: Parser) -> AssignsNoCombatDamage:
    return AssignsNoCombatDamage(m["what"])


def grant_words(words: tuple[str, ...]) -> list[str]:
    """Keywords granted, as the vocabulary names them ('can't be blocked' is unblockable)."""
    out = []
    for word in words:
        word = {"can't be blocked": "unblockable"}.get(word, word)
        if word not in KEYWORDS:
            raise NotExpressible(f"the keyword {word!r}")
        out.append(word)
    return out


@translates(Pump)
def _(node: Pump, ctx: Context) -> list[str]:
    granted = grant_words(node.keywords)
    args = pt_args(node.power, node.toughness, granted)
    what = node.what
    if is_self(what, ctx):
        return [f"pump on=self {args}".rstrip()]
    if isinstance(what, Noun) and what.targeted:
        return [f"pump on=target target={quote(target(what, ctx))} {args}".rstrip()]
    if isinstance(what, Noun) and what.det in ("", "each", "all") and what.count is None:
        if {"can't block", "unblockable"} & set(granted):
            # 611.2c: "creatures without flying can't block this turn" changes the rules, not the
            # creatures: it holds for every creature that matches when blockers are declared (one
            # that enters later, or loses flying), where pump_all fixes the group as it resolves
            raise NotExpressible("a group that can't block (be blocked) this turn, read when blockers are declared")
        return [f"pump_all filter={quote(filter_of(what))} {args}".rstrip()]
    if isinstance(what, Ref) and (what.kind == "it" or what.kind == "that" and what.word == "creature") \
            and merge_into_last(ctx, node.power, node.toughness, granted):
        return []
    raise NotExpressible("pumping what a reference names")


SELF_HOOKS = ("Enters", "Attacks", "Blocks", "Dies", "DealtDamage", "Targeted", "Cycled", "EndStep", "Upkeep")


@translates(AssignsNoCombatDamage)
def _(node: AssignsNoCombatDamage, ctx: Context) -> list[str]:
    if not it_is_self(node.what, ctx, SELF_HOOKS):
        raise NotExpressible("'assigns no combat damage' of something other than the card itself")
    return ['pump on=self keywords="assigns no combat damage"']


# ---------------------------------------------------------------- 'it' after a target: the same target
def merge_into_last(ctx: Context, power: int, toughness: int, granted: list[str]) -> bool:
    """'Target creature gets +2/+2 until end of turn. It gains trample until end of turn': the
    second effect is the first's target's, so its bonus joins the verb before (a ``pump
    on=target`` or a ``gain_control``) instead of naming a second target. False when there is no
    such verb."""
    if not may_change_last(ctx) or ctx.antecedent != "target":
        return False
    last = ctx.verbs[-1]
    verb = last.split()[0]
    if verb not in ("gain_control", "pump") or (verb == "pump" and " on=target" not in last):
        return False
    if re.search(r" (if|unless|may)=", last):
        return False
    words = shlex.split(last)
    args = dict(word.split("=", 1) for word in words[1:])
    args["power"] = str(int(args.get("power", "0")) + power)
    args["toughness"] = str(int(args.get("toughness", "0")) + toughness)
    had = [k for k in args.get("keywords", "").split(",") if k]
    args["keywords"] = ",".join(had + [k for k in granted if k not in had])
    order = [k for k in args if k not in ("power", "toughness", "keywords")]
    rest = pt_args(int(args["power"]), int(args["toughness"]), args["keywords"].split(",") if args["keywords"] else [])
    ctx.verbs[-1] = " ".join([verb] + [f"{k}={quote(args[k])}" for k in order]) + (f" {rest}" if rest else "")
    return True
