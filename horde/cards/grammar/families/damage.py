"""Damage (120): 'SOURCE deals N damage to RECIPIENTS', where the recipients are any target,
target NOUN, target player (opponent) or planeswalker, each opponent, each player, you, each
NOUN and each opponent (player); a kicker's 'it deals N damage instead'."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import Amount, Effect, Noun, Num, Obj, Player, WasKicked
from horde.cards.grammar.nouns import noun, player, times
from horde.cards.grammar.parser import Parser, nonterminal
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import (
    Context,
    NotExpressible,
    amount,
    filter_of,
    is_self,
    quote,
    special_if,
    target,
    who,
)


@dataclass(frozen=True)
class Damage(Effect):
    source: Obj
    amount: Amount
    to: tuple[Player | Noun, ...]


@dataclass(frozen=True)
class DamageInstead(Effect):
    """'it deals N damage instead' (a kicker's, under 'If ~ was kicked')."""

    amount: Amount


def _recipient(p: Parser) -> Player | Noun:
    found = p.attempt(player)
    if found is not None:
        return found
    return noun(p)


@nonterminal("recipients")
def recipients(p: Parser) -> tuple[Player | Noun, ...]:
    """Who is dealt the damage: recipients joined by 'and' (', and')."""
    found = [_recipient(p)]
    while p.at("and") or p.at(",", "and"):
        saved = p.pos
        p.accept(",")
        p.accept("and")
        more = p.attempt(_recipient)
        if more is None or not (p.at_end() or p.at(",|and|then|for")):
            p.pos = saved  # 'and you gain 3 life': a clause of its own
            break
        found.append(more)
    return tuple(found)


@effect("have? {source:it} deal|deals {n:number} damage to {to:recipients} {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> Damage:
    return Damage(m["source"], times(m["n"], m["each"]), m["to"])


@effect("have? {source:it} deal|deals damage {n:equal_to} to {to:recipients}")
def _(m: dict[str, Any], p: Parser) -> Damage:
    return Damage(m["source"], m["n"], m["to"])


@effect("have? {source:it} deal|deals damage to {to:recipients} {n:equal_to}")
def _(m: dict[str, Any], p: Parser) -> Damage:
    return Damage(m["source"], m["n"], m["to"])


@effect("{source:it} deal|deals {n:number} damage instead")
def _(m: dict[str, Any], p: Parser) -> DamageInstead:
    return DamageInstead(m["n"])


DAMAGE_WHO = {"each_opponent": "each_opponent", "each_player": "each_player", "you": "you", "that_player": "that_player"}


@translates(Damage)
def _(node: Damage, ctx: Context) -> list[str]:
    if not is_self(node.source, ctx):
        raise NotExpressible("damage dealt by something other than the card itself")
    to = node.to
    if len(to) == 1 and isinstance(to[0], Player) and to[0].kind in ("each_opponent", "each_player"):
        ctx.per_player = True  # 'equal to the number of lands that player controls': each one's (damage_all)
    try:
        n = amount(node.amount, ctx)
    finally:
        ctx.per_player = False
    if len(to) == 1 and isinstance(to[0], Player) and to[0].kind in DAMAGE_WHO:
        return [f"damage_all amount={n} who={who(to[0], ctx)}"]
    first = to[0]
    if isinstance(first, Noun) and first.det == "each" and all(
            isinstance(r, Player) and r.kind in DAMAGE_WHO for r in to[1:]) and len(to) <= 2:
        flt = filter_of(first)
        ctx.group = flt
        players = f" who={DAMAGE_WHO[to[1].kind]}" if len(to) == 2 else ""  # type: ignore[union-attr]
        return [f"damage_all amount={n} filter={quote(flt)}{players}"]
    if len(to) == 1 and isinstance(first, Player) and first.kind in ("target_player_or_planeswalker",
                                                                    "target_opponent_or_planeswalker"):
        walker = Noun(det="target", head="player", alternatives=((first.kind.split("_")[1],), ("planeswalker",)))
        return [f"damage amount={n} target={quote(target(walker, ctx))}"]
    if len(to) == 1 and isinstance(first, Noun) and first.targeted:
        return [f"damage amount={n} target={quote(target(first, ctx))}"]
    if len(to) == 1 and isinstance(first, Player) and first.kind in ("target_player", "target_opponent"):
        flt = "player" if first.kind == "target_player" else "opponent"
        if ctx.target is not None:
            raise NotExpressible("a second target in one ability")
        ctx.target = flt
        return [f"damage amount={n} target={flt}"]
    raise NotExpressible("damage to these recipients")


@special_if(WasKicked)
def kicked_instead(node: Any, ctx: Context) -> list[str] | None:
    """'If ~ was kicked, it deals N damage instead': the damage before becomes its amount plus
    the difference for each kick."""
    if len(node.effects) != 1 or not isinstance(node.effects[0], DamageInstead):
        return None
    more = node.effects[0].amount
    last = re.fullmatch(r"(damage(?:_all)? amount=)([0-9]{1,6})( .*)", ctx.verbs[-1]) if ctx.verbs else None
    if last is None or not isinstance(more, Num) or more.n <= int(last[2]):
        raise NotExpressible("'it deals N damage instead' after no damage of a smaller number")
    ctx.verbs[-1] = f'{last[1]}"{last[2]}+{more.n - int(last[2])}*kicked"{last[3]}'
    return []


@translates(DamageInstead)
def _(node: DamageInstead, ctx: Context) -> list[str]:
    raise NotExpressible("'deals N damage instead' outside a kicker's condition")

