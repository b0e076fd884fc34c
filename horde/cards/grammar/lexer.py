"""The lexer of Oracle text: a card's text as lines (abilities as MTGJSON separates them) of
sentences of tokens.

``normalise`` drops reminder text, writes the card's own name (and "this creature", "this
spell", ...) as ``~``, the legacy "enters the battlefield" as "enters", MTGJSON's bracketed
loyalty costs (``[+1]:``, ``[−2]:``) as ``+1:`` and ``-2:``, and drops ability words (an ability
word has no rules meaning: 207.2c). ``lex`` turns a sentence into tokens: words (lower-cased
``value``, printed ``text``), numbers, mana symbols (``{2}``, ``{T}``, ``{W/U}``), power/toughness
changes (``+1/+1``, ``2/2``, ``X/X``), ``~``, punctuation, a quoted ability as one token, and a
loyalty cost opening a line. ``split`` cuts a normalised text into lines of ``Sentence``s: a
sentence ends at a full stop outside quotes; a modal line ("Choose one —" and its bullets) is one
sentence. The parser (``horde.cards.grammar.parser``) reads the tokens; the sentences' texts are
what a refusal quotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Token kinds.
WORD = "word"
NUM = "num"
MANA = "mana"
PT = "pt"
SELF = "self"
PUNCT = "punct"
QUOTE = "quote"
LOYALTY = "loyalty"
BULLET = "bullet"


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its ``kind``, its ``text`` as printed, its ``value`` (a word in lower case, a
    number's digits, a mana symbol without braces, a quoted ability's inside) and where it
    starts in its sentence."""

    kind: str
    text: str
    value: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    def __repr__(self) -> str:
        return f"{self.kind}:{self.text}"


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of a line: its text (trailing full stop removed) and its tokens."""

    text: str
    tokens: tuple[Token, ...]


_NAMED_THIS = re.compile(r"\b[Tt]his (creature|permanent|enchantment|artifact|land|card|spell|equipment|scheme|"
                         r"token|aura|vehicle|planeswalker)\b")
_ABILITY_WORD = re.compile(r"(?m)^[A-Z][\w' ]+ — (?=(When|Whenever|At) )")


def normalise(text: str, name: str) -> str:
    """Reminder text dropped, the card's own name (and 'this creature' ...) as ``~``, the legacy
    'enters the battlefield' as 'enters', the minus sign as '-', loyalty costs unbracketed."""
    text = text.replace("\u2212", "-")
    # 606: a loyalty ability as MTGJSON writes it, its cost in brackets: '[+1]: ...', '[-2]: ...', '[0]: ...'
    text = re.sub(r"\[([+-]?(?:[0-9]{1,6}|X))\]:(?= )", r"\1:", text)
    text = re.sub(r"(?<![.\s])\s*\([^()]*\)(?=\s+[A-Z{])", ".", text)  # reminder text ending an ability on one line
    text = re.sub(r"\s*\([^()]*\)", "", text)
    names = {name}
    if "," in name:
        names.add(name.split(",")[0])
    for n in sorted(names, key=len, reverse=True):
        if n:
            text = _replace_word(text, n)
    text = _NAMED_THIS.sub("~", text)
    text = _ABILITY_WORD.sub("", text)  # 207.2c: ability words have no rules meaning
    return text.replace("enters the battlefield", "enters")


def _replace_word(text: str, name: str) -> str:
    """``text`` with each occurrence of ``name`` as whole words (``\\b`` either side) as ``~``."""
    if name not in text:
        return text
    out = []
    at = 0
    while True:
        i = text.find(name, at)
        if i < 0:
            break
        end = i + len(name)
        before = text[i - 1] if i > 0 else " "
        after = text[end] if end < len(text) else " "
        if not (_is_word(before) and _is_word(name[0])) and not (_is_word(after) and _is_word(name[-1])):
            out.append(text[at:i])
            out.append("~")
            at = end
        else:
            out.append(text[at:i + 1])
            at = i + 1
    out.append(text[at:])
    return "".join(out)


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


_LOYALTY = re.compile(r"\s*([+-]?(?:[0-9]{1,6}|X)):(?=\s)")
_TOKEN = re.compile(
    r"(?:(?P<quote>\"[^\"]*\"|\u201c[^\u201d]*\u201d)"
    r"|(?P<mana>\{[^{}\s]{1,8}\})"
    r"|(?P<pt>[+-]?(?:[0-9]+|X|\*)/[+-]?(?:[0-9]+|X|\*)(?![\w/]))"
    r"|(?P<num>[0-9]+(?![\w/]))"
    r"|(?P<self>~)"
    r"|(?P<word>[A-Za-z\u00c0-\u024f][\w\u00c0-\u024f'\u2019-]*|'s\b)"
    r"|(?P<bullet>\u2022)"
    r"|(?P<punct>[.,:;\u2014()/+&*!?-])"
    r"|(?P<error>[^\s]))"
)
_SPACE = re.compile(r"\s+")


class LexError(ValueError):
    """A character no token begins with (the sentence is not read)."""

    def __init__(self, offset: int, char: str) -> None:
        super().__init__(f"unexpected {char!r}")
        self.offset = offset


def lex(text: str) -> tuple[Token, ...]:
    """The tokens of one sentence (or line); a loyalty cost opening it is one ``LOYALTY`` token."""
    tokens: list[Token] = []
    at = 0
    m = _LOYALTY.match(text)
    if m:
        tokens.append(Token(LOYALTY, m[0].strip(), m[1], m.start(1)))
        at = m.end()
    append = tokens.append
    skip_to = 0
    for m in _TOKEN.finditer(text, at):
        kind = m.lastgroup or PUNCT
        start = m.start()
        if start < skip_to:
            continue
        raw = m[0]
        if kind == WORD:
            if "\u2019" in raw:
                raw = raw.replace("\u2019", "'")
            value = raw.lower()
        elif kind == MANA:
            value = raw[1:-1].upper()
        elif kind == QUOTE:
            value = raw[1:-1]
        elif kind == SELF:
            if text.startswith("~'s", start):
                append(Token(SELF, "~", "~", start))
                append(Token(WORD, "'s", "'s", start + 1))
                skip_to = start + 3
                continue
            value = "~"
        elif kind == "error":
            raise LexError(start, raw)
        else:
            value = raw.lower()
        append(Token(kind, raw, value, start))
    return tuple(tokens)


_MODAL = re.compile(r"\bChoose (?:one|two|three|four|one or more|one or both|any number) ?\u2014")
_BOUNDARY = re.compile(r"[A-Z~+\-{0-9\u2022]")


def split(text: str) -> list[list[str]]:
    """A normalised text as lines of sentence texts (each without its closing full stop). A
    line's bullets (modes) join the line before them; a modal line's 'Choose ... —' and its
    bullets are one sentence; a full stop inside quotes ends no sentence."""
    text = re.sub(r"\s*\u2022\s*", " \u2022 ", text)
    out: list[list[str]] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        modal = _MODAL.search(line)
        head, tail = (line[:modal.start()], line[modal.start():]) if modal else (line, "")
        parts = [piece.strip().rstrip(".").strip() for piece in _sentences(head)]
        parts = [p for p in parts if p]
        if tail:
            parts.append(tail.strip().rstrip("."))
        out.append(parts)
    return out


_CUT = re.compile(r"(?:[.;]|\.[\"\u201d]) +(?=[A-Z~+\-{0-9\u2022])")
_QUOTES = re.compile(r"[\"\u201c\u201d]")


def _sentences(text: str) -> list[str]:
    """Cut at a full stop (or semicolon) followed by a space and a capital, ``~``, a sign, a
    mana symbol or a digit, outside double quotes."""
    cuts = list(_CUT.finditer(text))
    if not cuts:
        return [text]
    inside = _quoted_spans(text)
    pieces: list[str] = []
    start = 0
    for m in cuts:
        last = m.start() + len(m[0].rstrip()) - 1  # the full stop, or the quote closing after it
        if any(a <= last < b for a, b in inside):
            continue
        pieces.append(text[start:last + 1])
        start = m.end()
    pieces.append(text[start:])
    return pieces


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    opened = -1
    for m in _QUOTES.finditer(text):
        c = m[0]
        if opened < 0 and c in "\"\u201c":
            opened = m.start()
        elif opened >= 0 and c in "\"\u201d":
            spans.append((opened, m.start()))
            opened = -1
    if opened >= 0:
        spans.append((opened, len(text)))
    return spans


def sentence(text: str) -> Sentence:
    """A sentence text and its tokens (LexError for a character no token begins with)."""
    return Sentence(text, lex(text))
