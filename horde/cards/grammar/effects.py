"""The grammar of an effect sentence, which every ability's effects share.

    sentence := [then] (SENTENCES rule | clauses) [", where X is" AMOUNT]
    clauses  := "you may" clauses | "if" CONDITION "," clauses | clause (joiner clauses)?
    joiner   := ", then" | "then" | ", and" | "and" | ","
    clause   := an EFFECTS rule of a family (``horde.cards.grammar.families``)

A clause without a subject takes the subject of the clause before it in the same sentence
('Target player draws two cards and loses 2 life'); ``subject`` gives it. Rules are tried in
order; a rule's reading stands only if what follows it is the end of the sentence or a joiner
and more clauses that read (so 'gains flying and haste' and 'gains flying and draws a card'
both read).
"""

from __future__ import annotations

from horde.cards.grammar.ast import Amount, Condition, Effect, If, May, Player, WhereX
from horde.cards.grammar.nouns import count_phrase, equal_to, prop
from horde.cards.grammar.parser import NoParse, Parser, nonterminal
from horde.cards.grammar.registry import CONDITIONS, EFFECTS, SENTENCES, load_families


def subject(p: Parser, who: Player | None) -> Player:
    """The subject of a clause: the one written, else the last one of the sentence, else you."""
    if who is not None:
        p.state["subject"] = who
        return who
    found = p.state.get("subject")
    return found if isinstance(found, Player) else Player("you")


@nonterminal("condition")
def condition(p: Parser) -> Condition:
    found: Condition = CONDITIONS.read(p, "a condition")
    return found


@nonterminal("clauses")
def clauses(p: Parser) -> tuple[Effect, ...]:
    """Clauses joined by 'and', ', then', ... (the module's paragraph)."""
    load_families()
    if p.accept("you", "may"):
        return (May(clauses(p)),)
    if p.at("if"):
        saved = p.pos
        p.pos += 1
        cond = p.attempt(condition)
        if cond is not None and p.accept(","):
            return (If(cond, clauses(p)),)
        p.pos = saved
    for rule in EFFECTS.candidates(p):
        start, state = p.pos, dict(p.state)
        try:
            node = rule.read(p)
        except NoParse:
            p.pos, p.state = start, state
            continue
        if p.at_end():
            return (node,)
        rest = p.attempt(_joined)
        if rest is not None:
            return (node,) + rest
        p.pos, p.state = start, state
    p.fail("an effect")


def _joined(p: Parser) -> tuple[Effect, ...]:
    if p.accept(",", "then") or p.accept("then") or p.accept(",", "and") or p.accept("and") or p.accept(","):
        return clauses(p)
    p.fail("'and' or ', then'")


def _where_x(p: Parser) -> Amount | None:
    """A closing ', where X is AMOUNT': its amount, the tokens cut before it; else None."""
    tokens = p.tokens
    for i in range(len(tokens) - 3):
        if [t.value for t in tokens[i:i + 4]] == [",", "where", "x", "is"]:
            tail = Parser(tokens[i + 4:], p.text)
            found = tail.attempt(_x_amount)
            if found is None or not tail.at_end():
                return None
            p.tokens = tokens[:i]
            return found
    return None


def _x_amount(p: Parser) -> Amount:
    found = p.attempt(prop)
    if found is not None:
        return found
    if p.at("equal", "to"):
        return equal_to(p)
    return count_phrase(p)


def effect_sentence(p: Parser, continued: bool = False) -> tuple[Effect, ...]:
    """A whole sentence of effects (``continued``: not the first of its ability, so it may open
    with 'Then'). The parser's tokens end with the sentence."""
    load_families()
    p.state["subject"] = None
    if continued:
        p.accept("then")
    for rule in SENTENCES.candidates(p):
        start = p.pos
        try:
            node = rule.read(p)
            p.end()
            return (node,)
        except NoParse:
            p.pos = start
    tokens = p.tokens
    where = _where_x(p)
    try:
        effects = clauses(p)
        p.end()
    finally:
        p.tokens = tokens
    if where is not None:
        return (WhereX(where, effects),)
    return effects
