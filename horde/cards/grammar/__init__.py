"""The grammar of Oracle text: a lexer, a recursive-descent parser to an abstract syntax, and
one translation pass to the card-file lines of the effect vocabulary.

``compile_text(text, facts, tokens)`` normalises the text and cuts it into lines and sentences
(``lexer``), parses each line into abilities (``abilities``: keywords, statics, triggered,
activated, loyalty, modal and spell abilities; ``effects``: the sentence of effects every ability
shares; ``nouns``: one grammar of noun phrases, players, references back and amounts;
``triggers``, ``conditions``, ``costs``), and translates the syntax (``translate``), where what
the vocabulary can't say is refused. The rules of effects, statics and the rest live in
family modules (``families``), registered by decorators (``registry``): a new template is one
rule and its test. ``GRAMMAR_VERSION`` changes whenever the grammar's or the vocabulary's
source does, so results cached under another version are compiled again.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Container, Mapping
from pathlib import Path

from horde.cards.grammar import conditions, costs, triggers  # noqa: F401  (their rules register)
from horde.cards.grammar.abilities import parse_lines
from horde.cards.grammar.ast import Line
from horde.cards.grammar.compiled import Compiled, Facts
from horde.cards.grammar.lexer import normalise, split
from horde.cards.grammar.registry import load_families
from horde.cards.grammar.translate import translate
from horde.engine.cards import CardDef
from horde.limits import CARD_TEXT_MAX

__all__ = ["Compiled", "Facts", "compile_text", "parse", "grammar_version"]


def parse(text: str, facts: Facts) -> list[Line]:
    """The syntax of a card's text: its lines, each with its abilities and parse errors."""
    load_families()
    return parse_lines(normalise(text or "", facts.name), facts, split)


def compile_text(text: str, facts: Facts, tokens: Mapping[str, CardDef], taken: Container[str] = ()) -> Compiled:
    """Compile a card's Oracle text to card-file lines.

    ``facts``: the card's name and types (its own name is read as ``~``); ``tokens``: the
    catalogue's tokens by name: a token the text creates is the one with exactly its facts, else a
    new token card in ``Compiled.tokens`` (111.4), for the caller to add to its catalogue, named by
    its subtypes, or by its description when a token or a name of ``taken`` (the catalogue's
    cards, lower case) has that name. Deterministic. A text longer than a card's may be
    (``CARD_TEXT_MAX``) is not read at all."""
    if len(text or "") > CARD_TEXT_MAX:
        out = Compiled()
        out.unread.append(f"(a text of {len(text):,} characters: a card's text has at most {CARD_TEXT_MAX:,})")
        return out
    return translate(parse(text, facts), facts, tokens, taken)


@functools.cache
def grammar_version() -> str:
    """A digest of the grammar's and the vocabulary's source (the grammar package, the token
    reader, the engine's verbs, hooks, keywords and filters): results compiled under another
    version are stale."""
    root = Path(__file__).resolve().parent
    files = sorted(root.rglob("*.py")) + [root.parent / "tokens.py"] + sorted(
        (root.parent.parent / "engine").glob("effects*.py")) + [
        root.parent.parent / "engine" / "cards.py", root.parent.parent / "engine" / "filters.py"]
    digest = hashlib.sha256()
    for path in files:
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(path.name.encode())
    return digest.hexdigest()[:16]
