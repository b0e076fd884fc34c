"""Static abilities (604) and rules of the card: Enchant (303.4a), what Equipment and Auras give
(anthems of the attached creature), anthems of every permanent a noun phrase names, cost
reductions, a */* creature's characteristic-defining ability (604.3), entering with counters,
casting from the graveyard, the keywords '~ enters tapped', '~ can't block', and a few of their
own ('Players can't gain life')."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horde.cards.grammar.ast import Amount, Noun, Num, Static
from horde.cards.grammar.families.pump import grant_words, keywords
from horde.cards.grammar.lexer import MANA
from horde.cards.grammar.nouns import for_each, noun, number, pt, times
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import static, translates
from horde.cards.grammar.translate import Context, NotExpressible, amount, filter_of, pt_args, quote
from horde.cards.grammar.words import CARD_TYPES, singular
from horde.engine.filters import SUBTYPE_TERMS


@dataclass(frozen=True)
class SelfKeyword(Static):
    """'~ enters tapped', '~ can't block', '~ can't attack', '~ can't be blocked'."""

    keyword: str


@dataclass(frozen=True)
class Enchant(Static):
    what: Noun


@dataclass(frozen=True)
class Attached(Static):
    """'Equipped (Enchanted) creature gets +N/+N and has KEYWORDS', 'can't be blocked', 'can't
    attack or block'."""

    which: str  # Equipped, Enchanted
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnchantedPlayerAnthem(Static):
    power: int
    toughness: int


@dataclass(frozen=True)
class Anthem(Static):
    what: Noun
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class CostReduction(Static):
    kind: str
    amount: int


@dataclass(frozen=True)
class CostsLessEach(Static):
    """'~ costs {N} less to cast for each COUNT' (601.2f): N generic mana less for each."""

    amount: Amount


@dataclass(frozen=True)
class PTEquals(Static):
    amount: Amount


@dataclass(frozen=True)
class EntersWithCounters(Static):
    count: Amount
    kind: str


@dataclass(frozen=True)
class Fixed(Static):
    """A static the vocabulary says in a fixed way: its card-file lines."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class CastFromGraveyardExtra(Static):
    """'If you do, it costs {1} more to cast for each COUNT' (after 'You may cast ~ from your graveyard')."""

    amount: Amount


@static(first=("~",))
def self_keyword(p: Parser) -> SelfKeyword:
    p.expect("~")
    for words in (("enters", "tapped"), ("can't", "block"), ("can't", "attack"), ("can't", "be", "blocked")):
        if p.accept(*words):
            p.end()
            return SelfKeyword({"can't be blocked": "unblockable"}.get(" ".join(words), " ".join(words)))
    p.fail("enters tapped, can't block, ...")


@static(first=("enchant",))
def enchant(p: Parser) -> Enchant:
    p.expect("enchant")
    return Enchant(noun(p))


@static(first=("equipped", "enchanted"))
def attached(p: Parser) -> Attached:
    which = p.next().text.capitalize()
    if which not in ("Equipped", "Enchanted"):
        p.fail("equipped or enchanted")
    p.expect("creature")
    if p.accept("can't", "attack", "or", "block"):
        return Attached(which, keywords=("can't attack", "can't block"))
    if p.accept("can't", "be", "blocked"):
        granted: tuple[str, ...] = ("can't be blocked",)
        if p.accept("and", "has"):
            granted += keywords(p)
        return Attached(which, keywords=granted)
    if p.accept("has"):
        return Attached(which, keywords=keywords(p))
    p.expect("gets")
    power, toughness = pt(p)
    granted = ()
    if p.accept("and", "has"):
        granted = keywords(p)
    return Attached(which, power, toughness, granted)


@static("creatures enchanted player controls get {pt:pt}")
def _(m: dict[str, Any], p: Parser) -> EnchantedPlayerAnthem:
    return EnchantedPlayerAnthem(*m["pt"])


@static()
def anthem(p: Parser) -> Anthem:
    """'NOUNs get +N/+N [and have KEYWORDS]', 'NOUNs have KEYWORDS'."""
    if p.at("target") or p.at("~"):
        p.fail("a noun phrase")
    what = noun(p)
    if what.targeted or what.head not in ("permanent",):
        p.fail("permanents")
    if p.accept("get|gets"):
        power, toughness = pt(p)
        granted: tuple[str, ...] = ()
        if p.accept("and", "have|has"):
            granted = keywords(p)
        return Anthem(what, power, toughness, granted)
    p.expect("have|has")
    return Anthem(what, keywords=keywords(p))


@static(first=())
def cost_reduction(p: Parser) -> CostReduction:
    """'KIND spells you cast cost {N} less to cast'."""
    kind = singular(p.next().value)
    p.expect("spells", "you", "cast", "cost")
    t = p.peek()
    if t is None or t.kind != MANA or not t.value.isdigit():
        p.fail("{N}")
    p.pos += 1
    p.expect("less", "to", "cast")
    return CostReduction(kind, int(t.value))


@static(first=("~",), priority=1)
def costs_less_each(p: Parser) -> CostsLessEach:
    """'~ costs {N} less to cast for each COUNT' (Blasphemous Act)."""
    p.expect("~", "costs")
    t = p.peek()
    if t is None or t.kind != MANA or not t.value.isdigit():
        p.fail("{N}")
    p.pos += 1
    p.expect("less", "to", "cast")
    return CostsLessEach(times(Num(int(t.value)), for_each(p)))


@static("~ 's power and toughness are each equal to {n:count_phrase}")
def _(m: dict[str, Any], p: Parser) -> PTEquals:
    return PTEquals(m["n"])


@static(first=("~",))
def enters_with_counters(p: Parser) -> EntersWithCounters:
    """'~ enters with N +1/+1 (-1/-1) counters on it [for each COUNT]'."""
    from horde.cards.grammar.families.counters import counter_kind

    p.expect("~", "enters", "with")
    n = number(p)
    kind = counter_kind(p)
    p.expect("counter|counters", "on", "it")
    return EntersWithCounters(times(n, p.attempt(for_each)), kind)


FIXED = {
    "you may cast ~ from your graveyard": ("CastFromGraveyard:",),
    "if ~ would be dealt damage , prevent that damage and remove a +1/+1 counter from it":
        ("Static: damage_removes_counters",),
    "~ can be your commander": (),  # 903.3d: a rule of building a deck, nothing in a game
    "players can't gain life": ("Static: cant_gain_life",),
    "cards in graveyards lose all abilities": ("Static: graveyards_lose_abilities",),
}


@static()
def fixed(p: Parser) -> Fixed:
    text = " ".join(t.value for t in p.tokens[p.pos:])
    if text not in FIXED:
        p.fail("a static ability")
    p.pos = len(p.tokens)
    return Fixed(FIXED[text])


@static(first=("if",))
def cast_from_graveyard_extra(p: Parser) -> CastFromGraveyardExtra:
    """'If you do, it costs {1} more to cast for each COUNT'."""
    p.expect("if", "you", "do", ",", "it", "costs")
    t = p.peek()
    if t is None or t.kind != MANA or t.value != "1":
        p.fail("{1}")
    p.pos += 1
    p.expect("more", "to", "cast")
    return CastFromGraveyardExtra(for_each(p))


# ---------------------------------------------------------------- translation
Written = tuple[list[str], list[str]]  # (lines, keywords)


@translates(SelfKeyword)
def _(node: SelfKeyword, ctx: Context) -> Written:
    return [], [node.keyword]


@translates(Enchant)
def _(node: Enchant, ctx: Context) -> Written:
    if "Aura" not in ctx.facts.subtypes:  # 303.4a: 'Enchant FILTER' says what an Aura may be attached to
        raise NotExpressible("Enchant on a card that is no Aura")
    what = node.what
    if what.head == "player" and len(what.alternatives) == 1 and what.alternatives[0][0] in ("player", "opponent"):
        return [f"Enchant: {what.alternatives[0][0]}"], []
    return [f"Enchant: {filter_of(what)}"], []


@translates(Attached)
def _(node: Attached, ctx: Context) -> Written:
    if node.which == "Enchanted" and "Aura" not in ctx.facts.subtypes:
        raise NotExpressible("'enchanted creature' on a card that is no Aura (bestow)")
    if node.which == "Equipped" and "Equipment" not in ctx.facts.subtypes:
        raise NotExpressible("'equipped creature' on a card that is no Equipment (reconfigure)")
    granted = grant_words(node.keywords)
    return [f"{node.which}: anthem {pt_args(node.power, node.toughness, granted)}".rstrip()], []


@translates(EnchantedPlayerAnthem)
def _(node: EnchantedPlayerAnthem, ctx: Context) -> Written:
    if "Aura" not in ctx.facts.subtypes:
        raise NotExpressible("'enchanted player' on a card that is no Aura")
    return [f'Static: anthem filter="creature enchanted" {pt_args(node.power, node.toughness, [])}'], []


@translates(Anthem)
def _(node: Anthem, ctx: Context) -> Written:
    if node.what.det not in ("", "each", "all") or node.what.count is not None:
        raise NotExpressible("an anthem of one permanent")
    granted = grant_words(node.keywords)
    flt = filter_of(node.what)
    if any(f"with-{word.replace(' ', '-')}" in flt.split() for word in granted):
        raise NotExpressible("granting a keyword to what has it already (an instance more)")
    args = pt_args(node.power, node.toughness, granted)
    return [f"Static: anthem filter={quote(filter_of(node.what))} {args}".rstrip()], []


@translates(CostReduction)
def _(node: CostReduction, ctx: Context) -> Written:
    if node.kind not in CARD_TYPES | {"permanent"} and node.kind not in SUBTYPE_TERMS:
        raise NotExpressible(f"{node.kind} spells")
    return [f"Static: cost_reduction filter={node.kind} amount={node.amount}"], []


@translates(CostsLessEach)
def _(node: CostsLessEach, ctx: Context) -> Written:
    return [f"CostsLess: {amount(node.amount, ctx).strip(chr(34))}"], []  # a field: the rest of its line, unquoted


@translates(PTEquals)
def _(node: PTEquals, ctx: Context) -> Written:
    if not ctx.facts.pt_star:  # 604.3: the characteristic-defining ability of a */* creature
        raise NotExpressible("a power and toughness defined on a creature whose are printed")
    return [f"Static: pt_equals amount={amount(node.amount, ctx)}"], []


@translates(EntersWithCounters)
def _(node: EntersWithCounters, ctx: Context) -> Written:
    if node.kind not in ("+1/+1", "-1/-1"):
        raise NotExpressible(f"{node.kind} counters")
    kind = " kind=minus" if node.kind == "-1/-1" else ""
    return [f"Enters: counters on=self count={amount(node.count, ctx)}{kind}"], []


@translates(Fixed)
def _(node: Fixed, ctx: Context) -> Written:
    return list(node.lines), []


@translates(CastFromGraveyardExtra)
def _(node: CastFromGraveyardExtra, ctx: Context) -> Written:
    if not ctx.pending or ctx.pending[-1] != "CastFromGraveyard:":
        raise NotExpressible("'it costs {1} more' after no 'You may cast ~ from your graveyard'")
    ctx.pending[-1] = f"CastFromGraveyard: extra={amount(node.amount, ctx)}"
    return [], []
