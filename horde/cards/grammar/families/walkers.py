"""What planeswalkers' loyalty abilities say that no other family reads: an ultimate that gives
an emblem (114): 'You get an emblem with "ABILITY"', played when its ability is an anthem
('Creatures you control get +2/+2 and have flying', 'NOUNs you control have KEYWORDS': the
``emblem`` verb, an anthem for the rest of the game; an emblem with any other ability, or one an
opponent gets, is refused with the reason); and 'scry N' (701.22) as an effect ('+1: Scry 1,
then draw a card')."""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import Effect
from horde.cards.grammar.families.pump import grant_words
from horde.cards.grammar.families.statics import Anthem, anthem
from horde.cards.grammar.lexer import QUOTE, LexError, lex
from horde.cards.grammar.parser import NoParse, Parser
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible, filter_of, pt_args, quote


@dataclass(frozen=True)
class Emblem(Effect):
    who: str  # you, target_opponent
    ability: str  # the emblem's ability as quoted


@effect(first=("you", "target"))
def emblem(p: Parser) -> Emblem:
    """'You get an emblem with "ABILITY"' (114.1), 'Target opponent gets an emblem with ...'."""
    if p.accept("you", "get"):
        who = "you"
    else:
        p.expect("target", "opponent", "gets")
        who = "target_opponent"
    p.expect("an", "emblem", "with")
    t = p.peek()
    if t is None or t.kind != QUOTE:
        p.fail("an emblem's quoted ability")
    p.pos += 1
    return Emblem(who, t.value)


@translates(Emblem)
def _(node: Emblem, ctx: Context) -> list[str]:
    if node.who != "you":
        raise NotExpressible("an emblem an opponent gets (114)")
    text = node.ability.strip().rstrip(".")
    refused = NotExpressible(f"an emblem whose ability is not an anthem (114): {node.ability!r}")
    try:
        p = Parser(lex(text), text)
        found = p.attempt(anthem)
    except (LexError, NoParse):
        raise refused from None
    if not isinstance(found, Anthem) or not p.at_end():
        raise refused
    if found.what.det not in ("", "each", "all") or found.what.count is not None:
        raise refused
    args = pt_args(found.power, found.toughness, grant_words(found.keywords))
    return [f"emblem filter={quote(filter_of(found.what))} {args}".rstrip()]
