"""Tokens (111): 'create N [tapped] P/T COLOURS SUBTYPES [artifact] creature token(s) [with
KEYWORDS and "ABILITY"] [named NAME]' and 'create NAME, a legendary ... token'. The text that
creates a token describes it whole (111.4): the translation reads the description with
``horde.cards.tokens.read_token`` and plays the catalogue's token with exactly its facts, or a new
token card defined by it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from horde.cards.grammar.abilities import KEYWORD_NAMES
from horde.cards.grammar.ast import Amount, Effect, Num
from horde.cards.grammar.lexer import NUM, PT, QUOTE, SELF, WORD
from horde.cards.grammar.nouns import times
from horde.cards.grammar.parser import Parser, nonterminal
from horde.cards.grammar.registry import effect, translates
from horde.cards.grammar.translate import Context, NotExpressible, amount, quote
from horde.cards.tokens import read_token, token_card


@dataclass(frozen=True)
class CreateTokens(Effect):
    introduces: ClassVar[bool] = True  # 'it' after it is the token
    count: Amount
    description: str  # as printed, from the power/toughness to the end of the description
    tapped: bool = False
    named: str = ""  # 'Voja, a legendary ...': the name before the description


def _with_item(p: Parser) -> bool:
    """One thing a token is created with: a quoted ability or a keyword."""
    t = p.peek()
    if t is not None and t.kind == QUOTE:
        p.pos += 1
        return True
    if p.accept("protection", "from"):
        p.next()
        return True
    for length in (3, 2, 1):
        words = [p.word(k) for k in range(length)]
        if all(words) and " ".join(words) in KEYWORD_NAMES:
            p.pos += length
            t = p.peek()
            if t is not None and t.kind == NUM:  # 'ward 2'
                p.pos += 1
            return True
    p.fail("a keyword or a quoted ability")


@nonterminal("token_description")
def description(p: Parser) -> str:
    """'1/1 green Insect creature tokens with flying and deathtouch' up to its end."""
    start = p.pos
    p.accept("legendary")
    t = p.peek()
    if t is None or t.kind != PT:
        p.fail("a token's power/toughness")
    p.pos += 1
    saw_creature = False
    while True:
        t = p.peek()
        if t is None or t.kind != WORD:
            p.fail("creature token")
        p.pos += 1
        if t.value == "creature":
            saw_creature = True
        elif t.value in ("token", "tokens"):
            if not saw_creature:
                p.fail("creature token")
            break
        elif not (t.text[0].isupper() or t.value in _DESCRIPTION_WORDS):
            p.fail("a token's colours and types")
    _named(p)
    if p.accept("with"):
        _with_item(p)
        while True:
            saved = p.pos
            if p.accept(",", "and") or p.accept("and") or p.accept(","):
                if p.attempt(_with_item) is not None:
                    continue
            p.pos = saved
            break
    _named(p)
    return p.text_between(start, p.pos)


_DESCRIPTION_WORDS = {"white", "blue", "black", "red", "green", "colorless", "and", "artifact", "enchantment",
                      "legendary", "creature", "token", "tokens"}


def _named(p: Parser) -> None:
    if not p.accept("named"):
        return
    start = p.pos
    while True:
        t = p.peek()
        if t is None:
            break
        if t.kind == SELF or (t.kind == WORD and t.text[0].isupper()):
            p.pos += 1
            continue
        if t.kind == WORD and t.value in ("of", "the") and p.pos > start:
            p.pos += 1
            continue
        break
    if p.pos == start:
        p.fail("a name")


@effect("you? create {n:number} tapped? {what:token_description} {each:for_each?}")
def _(m: dict[str, Any], p: Parser) -> CreateTokens:
    return CreateTokens(times(m["n"], m["each"]), m["what"], tapped=bool(m.get("tapped")))


@effect(first=("create", "you"))
def named_token(p: Parser) -> CreateTokens:
    """'create Voja, a legendary 2/2 green and white Wolf creature token'."""
    p.accept("you")
    p.expect("create")
    start = p.pos
    while p.peek() is not None and (p.peek().kind == WORD and p.peek().text[0].isupper()  # type: ignore[union-attr]
                                    or p.word() in ("of", "the") and p.pos > start):
        p.pos += 1
    if p.pos == start:
        p.fail("a token's name")
    name = p.text_between(start, p.pos)
    p.expect(",", "a|an")
    what = description(p)
    return CreateTokens(Num(1), what, named=name)


@translates(CreateTokens)
def _(node: CreateTokens, ctx: Context) -> list[str]:
    count = amount(node.count, ctx)
    token = token_for(node.description, node.named, ctx)
    tapped = " tapped=true" if node.tapped else ""
    return [f"create_tokens token={quote(token)} count={count}{tapped}"]


def token_for(description: str, named: str, ctx: Context) -> str:
    """The token a create clause describes (111.4), read by ``read_token``: the catalogue's token
    with exactly those facts (``token_card``), else a new token card, kept in ``ctx.made`` for the
    catalogue to add; NotExpressible if the text describes no token the engine can play, or a new
    one whose name is another card's."""
    m = re.fullmatch(r"(.+? tokens?)(?: named ([^\"]+?))?(?: with (.+?))?(?: named ([^\"]+?))?", description)
    if m is None:
        raise NotExpressible("a token description")
    named = named or m[2] or m[4] or ""
    if named:  # a token named after its card ('Kobolds of Kher Keep'): the name as printed
        named = named.replace("~", ctx.facts.name)
    token = read_token(m[1] + (f" named {named}" if named else "") + (f" with {m[3]}" if m[3] else ""))
    if isinstance(token, str):
        raise NotExpressible(token)
    known = {**ctx.tokens, **ctx.made}
    taken = _Taken(ctx.taken, ctx.facts.name.lower())
    card = token_card(token, known, f"created by {ctx.facts.name}", taken)
    if known.get(card.name) is card:
        return card.name
    if card.name in known or card.name.lower() in taken:  # a different token or a card has even that name
        raise NotExpressible(f"a new token named {card.name!r}, a name taken")
    ctx.made[card.name] = card
    return card.name


@dataclass(frozen=True)
class _Taken:
    """The names a new token may not take: the catalogue's cards (lower case) and the card's own."""

    names: Any
    own: str

    def __contains__(self, name: object) -> bool:
        return name == self.own or name in self.names
