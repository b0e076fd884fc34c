"""Mana abilities (605): '{T}: Add {G}', 'Add {C}{C}', 'Add {U} or {B}', 'Add {G}, {W}, or {U}',
'Add one mana of any color [in your commander's color identity]', written as the card's
``Mana:`` field; and a land's basic land types (305.6, in the translation pass)."""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import ActivatedAbility, Effect, TapCost
from horde.cards.grammar.lexer import MANA
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible, special_activated


@dataclass(frozen=True)
class AddMana(Effect):
    """Mana added: each unit one mana, of one of its colours ('G', 'U/B', 'any', 'C');
    ``identity``: 'in your commander's color identity'."""

    units: tuple[str, ...]
    identity: bool = False


def _symbol(p: Parser) -> str:
    t = p.peek()
    if t is None or t.kind != MANA or t.value not in ("W", "U", "B", "R", "G", "C"):
        p.fail("a mana symbol")
    p.pos += 1
    return t.value


@effect(first=("add",))
def add(p: Parser) -> AddMana:
    p.expect("add")
    if p.accept("one", "mana", "of", "any", "color") or p.accept("one", "mana", "of", "any", "colour"):
        identity = p.accept("in", "your", "commander's", "color", "identity")
        return AddMana(("any",), identity)
    first = _symbol(p)
    after = p.peek(1)
    if p.at("or") or (p.at(",") and after is not None and after.kind == MANA):
        choices = [first]
        while p.accept(",", "or") or p.accept("or") or p.accept(","):
            choices.append(_symbol(p))
        return AddMana(("/".join(choices),))
    units = [first]
    while p.peek() is not None and p.peek().kind == MANA:  # type: ignore[union-attr]
        units.append(_symbol(p))
    return AddMana(tuple(units))


@translates(AddMana)
def _(node: AddMana, ctx: Context) -> list[str]:
    raise NotExpressible("mana added outside a mana ability of {T} alone")


@special_activated
def mana_ability(node: ActivatedAbility, ctx: Context) -> list[str] | None:
    """'{T}: Add ...': the card's Mana field."""
    if len(node.effects) != 1 or not isinstance(node.effects[0], AddMana):
        return None
    if node.costs != (TapCost(),):
        raise NotExpressible("a mana ability with costs other than {T}")
    return ["Mana: " + " ".join(node.effects[0].units)]
