"""Characteristic-defining abilities (604.3) beyond '~'s power and toughness are each equal to
COUNT' (the statics family's): a * power alone ('~'s power is equal to COUNT' on a */4 creature),
a printed 1+* toughness ('... and its toughness is equal to that number plus 1': the printed 1
adds it), the counts they use that no other family reads (card types among cards in graveyards,
instant and sorcery cards), and Sutured Ghoul's linked pair: 'As ~ enters, exile any number of
creature cards from your graveyard' and the total power and toughness of the exiled cards
(607.2a). The lines are the layers contract's (tests/data/oracle/layers.txt)."""

from __future__ import annotations

from dataclasses import dataclass

from horde.cards.grammar.ast import Amount, Static
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import static, translates
from horde.cards.grammar.translate import Context, NotExpressible, amount

Written = tuple[list[str], list[str]]  # (lines, keywords)


@dataclass(frozen=True)
class StarValue(Static):
    """The value of a * (604.3): ``sides`` 'power' (the power alone), or 'both' (the toughness is
    printed N+*, 'that number plus N'); ``count`` an amount the grammar reads, or ``written`` an
    amount of the vocabulary written as it is."""

    sides: str
    count: Amount | None = None
    written: str = ""


@dataclass(frozen=True)
class Linked(Static):
    """A linked pair's line (607.2a) written as it is."""

    line: str


# The counts of a * the other families do not read, as the vocabulary writes them.
COUNTS = {
    "card types among cards in all graveyards": "graveyard_types:card",
    "card types among cards in your graveyard": "graveyard_types:card yours",
    "instant and sorcery cards in your graveyard": '"graveyard:instant yours | sorcery yours"',
    "instant and sorcery cards in all graveyards": '"graveyard:instant | sorcery"',
    "cards in all graveyards": "graveyard:card",
}


def _written_count(p: Parser) -> str | None:
    """'the number of COUNT' for a count of ``COUNTS``, read up to 'and' or the end; None if none is."""
    start = p.pos
    if not p.accept("the", "number", "of"):
        return None
    for words, written in COUNTS.items():
        n = len(words.split())
        if " ".join(t.value for t in p.tokens[p.pos:p.pos + n]) == words:
            p.pos += n
            return written
    p.pos = start
    return None


@static(first=("~",), priority=1)
def star_value(p: Parser) -> StarValue:
    """'~'s power is equal to COUNT [and its toughness is equal to that number plus N]'."""
    from horde.cards.grammar.nouns import count_phrase

    p.expect("~", "'s", "power", "is", "equal", "to")
    written = _written_count(p)
    count = None
    if written is None:
        p.expect("the", "number", "of")
        count = count_phrase(p)
    if p.accept("and", "its", "toughness", "is", "equal", "to", "that", "number", "plus"):
        p.next()  # the N of the printed N+*: the printed number adds it (208.2)
        return StarValue("both", count, written or "")
    return StarValue("power", count, written or "")


@static(first=("~",), priority=1)
def exiled_total(p: Parser) -> Linked:
    """'~'s power is equal to the total power of the exiled cards and its toughness is equal to
    their total toughness' (607.2a: the cards its 'As ~ enters, exile ...' exiled)."""
    p.expect("~", "'s", "power", "is", "equal", "to", "the", "total", "power", "of", "the", "exiled", "cards", "and",
             "its", "toughness", "is", "equal", "to", "their", "total", "toughness")
    return Linked("Static: pt_equals power=exiled_power toughness=exiled_toughness")


@static(first=("as",))
def exile_as_enters(p: Parser) -> Linked:
    """'As ~ enters, exile any number of creature cards from your graveyard' (614.12)."""
    p.expect("as", "~", "enters", ",", "exile", "any", "number", "of", "creature", "cards", "from", "your", "graveyard")
    return Linked("AsEnters: exile_from_graveyard_with filter=creature")


@translates(StarValue)
def _(node: StarValue, ctx: Context) -> Written:
    if not ctx.facts.pt_star:  # 604.3: a characteristic-defining ability sets a * of the printed PT
        raise NotExpressible("a power defined on a creature whose power is printed")
    value = node.written if node.count is None else amount(node.count, ctx)
    key = "amount" if node.sides == "both" else "power"
    return [f"Static: pt_equals {key}={value}"], []


@translates(Linked)
def _(node: Linked, ctx: Context) -> Written:
    return [node.line], []
