"""The Oracle-text compiler: templated rules text to behaviour lines of the card-file syntax.

``compile_text(text, facts, tokens)`` reads a card's Oracle text with the grammar of
``horde.cards.grammar`` (a lexer, a recursive-descent parser to an abstract syntax, and one
translation pass) and writes the lines a person would write in a card file
(``Enters: discard who=each_opponent count=1``, ``Keywords: flying``, ``Mana: G``,
``Equip: {2}``). The catalogue's own loader then parses and checks those lines, so a compiled card
and a hand-written one go through the same checks. An ability is read whole or not at all: a
sentence the grammar does not read, or one whose meaning the effect vocabulary can't express,
leaves its whole ability out, and the card is refused with each such sentence quoted (and why:
``Compiled.why``). ``docs/cards.md`` says how to add a rule.
"""

from __future__ import annotations

from horde.cards.grammar import Compiled, Facts, compile_text, grammar_version, parse

__all__ = ["Compiled", "Facts", "compile_text", "grammar_version", "parse"]
