"""The parser's core: a cursor over a sentence's tokens with backtracking, the parse error with
its position, and the small pattern language the grammar's rules are written in.

A rule of the grammar is a function over a ``Parser`` (recursive descent: it calls the
nonterminals it is made of, ``horde.cards.grammar.nouns`` and the others) or a pattern compiled
by ``pattern``: words separated by spaces, ``a|b`` alternatives, ``word?`` an optional word,
``card[s]`` a word and its plural (or a verb and its third person), ``~``, punctuation, mana
symbols (``{T}``), and slots ``{name:nonterminal}`` (``{name:nonterminal?}`` optional) filled by
the nonterminal of that name (``NONTERMINALS``, registered by the modules that define them). A
pattern match returns the slots' values by name. Every failure raises ``NoParse``; the parser
keeps the furthest position any alternative reached and what was expected there, for the
error of a sentence that is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from horde.cards.grammar.lexer import MANA, NUM, PUNCT, SELF, WORD, Token

T = TypeVar("T")
_WORDLIKE = frozenset((WORD, SELF, PUNCT))
_ALTERNATIVES: dict[str, frozenset[str]] = {}


class NoParse(Exception):
    """This rule does not read the tokens at this position."""


@dataclass(frozen=True)
class ParseError:
    """Why a sentence was not read: where (a character offset in the sentence) and what the
    grammar expected there."""

    sentence: str
    offset: int
    expected: str

    def describe(self) -> str:
        rest = self.sentence[self.offset:]
        at = f"at {rest[:40]!r}" if rest else "at its end"
        return f"{at}: expected {self.expected}"


class Parser:
    """A cursor over one sentence's tokens. ``state`` carries what the rules of one ability
    share while it is read (the subject a later clause takes: ``subject``)."""

    __slots__ = ("tokens", "pos", "text", "furthest", "expected", "state")

    def __init__(self, tokens: tuple[Token, ...], text: str = "") -> None:
        self.tokens = tokens
        self.pos = 0
        self.text = text
        self.furthest = 0
        self.expected: list[str] = []
        self.state: dict[str, Any] = {}

    # ---------------------------------------------------------------- looking
    def peek(self, k: int = 0) -> Token | None:
        i = self.pos + k
        return self.tokens[i] if i < len(self.tokens) else None

    def word(self, k: int = 0) -> str:
        """The value of the token ``k`` ahead if it is a word (or ~, or punctuation), else ''."""
        t = self.peek(k)
        return t.value if t is not None and t.kind in (WORD, SELF, PUNCT) else ""

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def at(self, *words: str) -> bool:
        """Whether the next tokens are these words (each may be 'a|b' alternatives)."""
        tokens = self.tokens
        i = self.pos
        if i + len(words) > len(tokens):
            return False
        for w in words:
            t = tokens[i]
            if t.kind not in _WORDLIKE:
                return False
            alternatives = _ALTERNATIVES.get(w)
            if alternatives is None:
                alternatives = _ALTERNATIVES[w] = frozenset(w.split("|"))
            if t.value not in alternatives:
                return False
            i += 1
        return True

    # ---------------------------------------------------------------- consuming
    def fail(self, expected: str) -> NoReturn:
        if self.pos > self.furthest:
            self.furthest, self.expected = self.pos, [expected]
        elif self.pos == self.furthest and expected not in self.expected:
            self.expected.append(expected)
        raise NoParse

    def next(self) -> Token:
        t = self.peek()
        if t is None:
            self.fail("more")
        self.pos += 1
        return t

    def accept(self, *words: str) -> bool:
        """Consume the words if they come next (each may be 'a|b' alternatives)."""
        if self.at(*words):
            self.pos += len(words)
            return True
        return False

    def expect(self, *words: str) -> None:
        if not self.accept(*words):
            self.fail(" ".join(words))

    def kind(self, kind: str) -> Token:
        t = self.peek()
        if t is None or t.kind != kind:
            self.fail(kind)
        self.pos += 1
        return t

    def end(self) -> None:
        if not self.at_end():
            self.fail("the end of the sentence")

    def attempt(self, rule: Callable[[Parser], T]) -> T | None:
        """``rule(self)``, or None (the position unchanged) if it does not read."""
        saved = self.pos
        state = dict(self.state)
        try:
            return rule(self)
        except NoParse:
            self.pos = saved
            self.state = state
            return None

    def first(self, rules: list[Callable[[Parser], T]], expected: str) -> T:
        """The first rule that reads here."""
        for rule in rules:
            found = self.attempt(rule)
            if found is not None:
                return found
        self.fail(expected)

    def error(self) -> ParseError:
        """Where this sentence stopped being read, and what was expected there."""
        t = self.tokens[self.furthest] if self.furthest < len(self.tokens) else None
        offset = t.start if t is not None else len(self.text)
        expected = sorted(self.expected, key=lambda e: (e != "an effect", len(e)))[:3]
        return ParseError(self.text, offset, " or ".join(expected) or "nothing more")

    def text_between(self, start: int, end: int) -> str:
        """The printed text of tokens ``start`` to ``end`` (positions)."""
        if start >= end:
            return ""
        first, last = self.tokens[start], self.tokens[end - 1]
        return self.text[first.start:last.end] if self.text else " ".join(t.text for t in self.tokens[start:end])


# ---------------------------------------------------------------- patterns
Nonterminal = Callable[[Parser], Any]
NONTERMINALS: dict[str, Nonterminal] = {}
FIRST: dict[str, frozenset[str]] = {}  # the words a nonterminal may begin with, where known


def nonterminal(name: str, first: tuple[str, ...] | None = None) -> Callable[[Nonterminal], Nonterminal]:
    """Register a nonterminal a pattern's slot may name (``first``: the words it may begin with,
    which lets the rules that begin with it be dispatched by their first word)."""

    def register(function: Nonterminal) -> Nonterminal:
        NONTERMINALS[name] = function
        if first is not None:
            FIRST[name] = frozenset(first)
        return function

    return register


@dataclass(frozen=True)
class _Element:
    words: tuple[str, ...] = ()  # literal alternatives (word values, '~', punctuation, '{T}')
    slot: str = ""  # the slot's name
    rule: str = ""  # the slot's nonterminal
    optional: bool = False


_SLOT = re.compile(r"\{(\w+):(\w+)(\?)?\}")


class Pattern:
    """A compiled pattern (``pattern``): ``match(parser)`` reads it at the parser's position and
    returns the slots' values by name (an optional slot not read is None, an optional word read
    is True under its own name), or raises NoParse."""

    __slots__ = ("source", "elements", "first")

    def __init__(self, source: str) -> None:
        self.source = source
        elements: list[_Element] = []
        for part in source.split():
            m = _SLOT.fullmatch(part)
            if m:
                elements.append(_Element(slot=m[1], rule=m[2], optional=bool(m[3])))
                continue
            optional = part.endswith("?") and len(part) > 1
            part = part[:-1] if optional else part
            words: list[str] = []
            for alternative in part.split("|"):
                plural = re.fullmatch(r"(\w+)\[(\w+)\]", alternative)
                if plural:
                    words += [plural[1], plural[1] + plural[2]]
                else:
                    words.append(alternative.lower() if not alternative.startswith("{") else alternative.upper())
            elements.append(_Element(words=tuple(words), optional=optional))
        self.elements = tuple(elements)
        # the words a match may begin with (empty: any), for the rules' dispatch
        firsts: set[str] = set()
        for element in self.elements:
            if element.slot:
                known = FIRST.get(element.rule)
                if known is None:
                    firsts = set()
                    break
                firsts |= known
            else:
                firsts |= set(element.words)
            if not element.optional:
                break
        else:
            firsts = set()
        self.first = frozenset(firsts)

    def match(self, p: Parser) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for element in self.elements:
            if element.slot:
                rule = NONTERMINALS[element.rule]
                if element.optional:
                    found[element.slot] = p.attempt(rule)
                else:
                    found[element.slot] = rule(p)
                continue
            t = p.peek()
            hit = t is not None and _literal(t) in element.words
            if hit:
                p.pos += 1
                if element.optional:
                    found[element.words[0]] = True
            elif not element.optional:
                p.fail(" or ".join(repr(w) for w in element.words[:3]))
        return found

    def __repr__(self) -> str:
        return f"Pattern({self.source!r})"


def _literal(t: Token) -> str:
    if t.kind == MANA:
        return "{" + t.value + "}"
    if t.kind in (WORD, SELF, PUNCT, NUM):
        return t.value
    return ""


def pattern(source: str) -> Pattern:
    return Pattern(source)
