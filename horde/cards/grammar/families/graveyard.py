"""Graveyards: return cards from a graveyard to the hand or the battlefield, return all (a
reanimation of every player), return this card from its graveyard (an ability it has there),
'any player may exile N cards from their graveyard'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import ActivatedAbility, Amount, Effect, ManaCost, Noun, Num, Player
from horde.cards.grammar.effects import subject
from horde.cards.grammar.nouns import noun, player
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import (
    Context,
    NotExpressible,
    amount,
    card_filter,
    quote,
    special_activated,
    who,
)


@dataclass(frozen=True)
class ReturnFromGraveyard(Effect):
    what: Noun
    to: str  # hand, battlefield
    tapped: bool = False


@dataclass(frozen=True)
class ReturnAll(Effect):
    """'Each player returns all creature cards from their graveyard to the battlefield'."""

    who: Player
    what: Noun
    tapped: bool = False


@dataclass(frozen=True)
class ReturnSelf(Effect):
    """'Return ~ from your graveyard to the battlefield (your hand)'."""

    to: str
    tapped: bool = False


@dataclass(frozen=True)
class AnyPlayerExiles(Effect):
    count: Amount


def _to(p: Parser) -> tuple[str, bool]:
    p.expect("to")
    if p.accept("your", "hand") or p.accept("its", "owner's", "hand") or p.accept("their", "owner's", "hand"):
        return "hand", False
    p.expect("the", "battlefield")
    tapped = p.accept("tapped")
    p.accept("under", "your", "control")
    return "battlefield", tapped


@effect(first=("return",))
def return_card(p: Parser) -> ReturnFromGraveyard:
    """'return [up to N] target CARDS from your graveyard to your hand (the battlefield)'."""
    p.expect("return")
    what = noun(p)
    if what.head != "card" or what.zone != "graveyard" or what.det == "all":
        p.fail("a card in a graveyard")
    to, tapped = _to(p)
    return ReturnFromGraveyard(what, to, tapped)


@effect(first=("return", "returns", "each", "you", "target", "that"))
def return_all(p: Parser) -> ReturnAll:
    """'[each player] return(s) all NOUN cards from their graveyard(s) to the battlefield'."""
    found = p.attempt(player)
    p.expect("return|returns")
    what = noun(p)
    if what.det != "all" or what.head != "card" or what.zone != "graveyard":
        p.fail("all cards from a graveyard")
    to, tapped = _to(p)
    if to != "battlefield":
        p.fail("to the battlefield")
    return ReturnAll(subject(p, found), what, tapped)


@effect("return ~ from your graveyard to the|your battlefield|hand tapped?")
def _(m: dict[str, Any], p: Parser) -> ReturnSelf:
    to = "battlefield" if p.tokens[p.pos - (2 if m.get("tapped") else 1)].value == "battlefield" else "hand"
    return ReturnSelf(to, bool(m.get("tapped")))


@effect("any player may exile {n:number} card|cards from their graveyard")
def _(m: dict[str, Any], p: Parser) -> AnyPlayerExiles:
    return AnyPlayerExiles(m["n"])


@translates(ReturnFromGraveyard)
def _(node: ReturnFromGraveyard, ctx: Context) -> list[str]:
    what = node.what
    if what.other:
        raise NotExpressible("another target card: one other than this card")
    if what.whose != "yours" or what.det not in ("target", "up_to_target") or node.tapped:
        raise NotExpressible("returning cards other than your own targeted ones")
    count = what.count if what.det == "up_to_target" else Num(1)
    if not isinstance(count, Num) or (what.det == "target" and what.count not in (None, Num(1))):
        raise NotExpressible("returning an exact number of targets, or X")
    flt = card_filter(Noun(head="card", alternatives=what.alternatives, shared=what.shared))
    return [f"return_from_graveyard filter={quote(flt)} to={node.to} count={count.n}"]


@translates(ReturnAll)
def _(node: ReturnAll, ctx: Context) -> list[str]:
    flt = card_filter(Noun(head="card", alternatives=node.what.alternatives, shared=node.what.shared))
    tapped = " tapped=true" if node.tapped else ""
    return [f"reanimate_all who={who(node.who, ctx)} filter={quote(flt)}{tapped}"]


@translates(ReturnSelf)
def _(node: ReturnSelf, ctx: Context) -> list[str]:
    raise NotExpressible("returning this card from a graveyard outside an ability it has there")


@translates(AnyPlayerExiles)
def _(node: AnyPlayerExiles, ctx: Context) -> list[str]:
    return [f"any_player_exiles_from_graveyard count={amount(node.count, ctx)}"]


@special_activated
def graveyard_ability(node: ActivatedAbility, ctx: Context) -> list[str] | None:
    """'{COST}: Return ~ from your graveyard to the battlefield [tapped] (to your hand)': an
    ability it has in its owner's graveyard (a GraveyardActivated line)."""
    if len(node.effects) != 1 or not isinstance(node.effects[0], ReturnSelf):
        return None
    if not all(isinstance(c, ManaCost) and all(s.isdigit() or s in "WUBRGC" for s in c.symbols)
               for c in node.costs):
        raise NotExpressible("a graveyard ability with costs other than mana")
    cost = "".join(c.text for c in node.costs if isinstance(c, ManaCost))
    back = node.effects[0]
    tapped = " tapped=true" if back.tapped else ""
    return [f"GraveyardActivated: {cost} -> return_self to={back.to}{tapped}"]

