"""Mana (106, 605) and what lands do as they enter: mana abilities written as the card's ``Mana:``
lines ('{T}: Add {G}', 'Add {C}{C}', 'Add {U}, {B}, or {R}', 'Add {W}{W}, {W}{U}, or {U}{U}',
'Add one mana of any color [in your commander's color identity | that a land an opponent
controls could produce]', 'Add {G} for each Elf you control', with costs ({1}, {T}, 'Sacrifice
~', 'Pay 1 life', 'Remove a charge counter from ~'), riders ('~ deals 1 damage to you', 'You gain
1 life', '~ doesn't untap during your next untap step') and 'Activate only if CONDITION'); a
land's basic land types (305.6, in the translation pass); and the rest of the family's text: '~
enters tapped unless CONDITION' (614.1c), '~ enters tapped with N charge counters on it', 'As ~
enters, you may reveal a X card from your hand (pay N life). If you don't, ~ enters tapped', 'As
~ enters, choose a color [other than red]', a bounce land's
'return a land you control to its owner's hand', 'sacrifice it unless you pay {1}' (unless you
return an untapped Island ...), 'scry N', searches for land cards (a Panorama's, a fetch land's,
Ghost Quarter's 'Its controller may search'), 'You have no maximum hand size', 'Return a creature
card at random from your graveyard to your hand'."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from typing import Any

from horde.cards.grammar.ast import (
    ActivatedAbility,
    Amount,
    Condition,
    Cost,
    CountersCost,
    Effect,
    LifeCost,
    ManaCost,
    Modifier,
    Noun,
    Num,
    Player,
    SacrificeCost,
    SelfRef,
    Static,
    TapCost,
)
from horde.cards.grammar.costs import X_COUNTERS
from horde.cards.grammar.families.damage import Damage
from horde.cards.grammar.families.life import GainLife
from horde.cards.grammar.lexer import MANA, QUOTE
from horde.cards.grammar.nouns import count_phrase, noun, number
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import condition, effect, sentence, static, translates
from horde.cards.grammar.translate import (
    Context,
    NotExpressible,
    amount,
    card_filter,
    filter_of,
    mana_only,
    quote,
    special_activated,
    translate_node,
)

COLOUR_SYMBOLS = ("W", "U", "B", "R", "G")


@dataclass(frozen=True)
class AddMana(Effect):
    """Mana added: each unit one mana, as a Mana line writes it ('G', 'U/B', 'any', 'C',
    'commander', 'opponents_lands'); ``count``: the units that many times ('for each COUNT',
    'X mana' of a chosen X is refused)."""

    units: tuple[str, ...]
    count: Amount | None = None
    charge: bool = False  # 'for each charge counter on ~'
    refused: str = ""  # read, but beyond the vocabulary (the reason)


def _symbol(p: Parser) -> str:
    t = p.peek()
    if t is None or t.kind != MANA or t.value not in COLOUR_SYMBOLS + ("C",):
        p.fail("a mana symbol")
    p.pos += 1
    return t.value


def _symbols(p: Parser) -> list[str]:
    found = [_symbol(p)]
    while p.peek() is not None and p.peek().kind == MANA and p.peek().value in COLOUR_SYMBOLS + ("C",):  # type: ignore[union-attr]
        found.append(_symbol(p))
    return found


def _groups(p: Parser) -> tuple[str, ...] | str:
    """'{G}', '{C}{C}', '{U}, {B}, or {R}' (one mana, a choice), '{W}{W}, {W}{U}, or {U}{U}' (a filter
    land: two mana, each of either colour): the units, or why they are beyond the vocabulary."""
    groups = [_symbols(p)]
    while True:
        saved = p.pos
        if not (p.accept(",", "or") or p.accept("or") or p.accept(",")):
            break
        t = p.peek()
        if t is None or t.kind != MANA:
            p.pos = saved
            break
        groups.append(_symbols(p))
    if len(groups) == 1:
        return tuple(groups[0])
    size = len(groups[0])
    if size == 1:
        return ("/".join(g[0] for g in groups),)
    colours = sorted({c for g in groups for c in g}, key="WUBRGC".index)
    every = {tuple(sorted(combo, key="WUBRGC".index)) for combo in _multisets(colours, size)}
    if all(len(g) == size for g in groups) and {tuple(sorted(g, key="WUBRGC".index)) for g in groups} == every \
            and len(groups) == len(every) and "C" not in colours:
        return ("/".join(colours),) * size  # 106.1: every combination: each mana either colour
    return "a choice among fixed combinations of mana"


def _multisets(colours: list[str], size: int) -> list[tuple[str, ...]]:
    if size == 0:
        return [()]
    out = []
    for i, colour in enumerate(colours):
        out += [(colour,) + rest for rest in _multisets(colours[i:], size - 1)]
    return out


ANY_COLOR = (("one", "mana", "of", "any", "color"), ("one", "mana", "of", "any", "colour"))


@effect(first=("add",))
def add(p: Parser) -> AddMana:
    """'Add MANA [for each COUNT]' (the module's paragraph)."""
    p.expect("add")
    found: AddMana
    if p.accept("one", "mana", "of", "any", "color") or p.accept("one", "mana", "of", "any", "colour"):
        if p.accept("in", "your", "commander's", "color", "identity"):
            found = AddMana(("commander",))
        elif p.accept("that", "a", "land", "an", "opponent", "controls", "could", "produce"):
            found = AddMana(("opponents_lands",))
        else:
            found = AddMana(("any",))
    elif p.accept("one", "mana", "of", "the", "chosen", "color"):
        found = AddMana(("chosen",))
    elif p.at("x", "mana", "in", "any", "combination", "of"):
        p.pos += 6
        units = _combination(p)
        found = AddMana(units, refused="X mana of a chosen X")
    elif p.peek() is not None and p.peek().kind != MANA:  # type: ignore[union-attr]
        n = number(p)
        if p.accept("mana", "in", "any", "combination", "of"):
            units = _combination(p)
        elif p.accept("mana", "of", "any", "one", "color"):
            return AddMana(("any",), n, refused="mana all of one colour chosen")
        else:
            p.fail("mana in any combination of colors")
        if not isinstance(n, Num):
            return AddMana(units, refused="X mana of a chosen X")
        found = AddMana(units * n.n)
    else:
        groups = _groups(p)
        if isinstance(groups, str):
            return AddMana(("C",), refused=groups)
        if len(groups) == 1 and p.accept("or", "one", "mana", "of", "the", "chosen", "color"):
            groups = (groups[0] + "/chosen",)  # a Thriving land's '{R} or one mana of the chosen color'
        found = AddMana(groups)
    if p.accept("for", "each", "charge", "counter", "on", "~"):
        return replace(found, charge=True)
    if p.at("for", "each"):
        p.pos += 2
        return replace(found, count=count_phrase(p))
    return found


def _combination(p: Parser) -> tuple[str, ...]:
    """'colors' (any colour) or '{R} and/or {G}': one unit."""
    if p.accept("colors") or p.accept("colours"):
        return ("any",)
    first = _symbol(p)
    if not p.accept("and/or"):  # as the lexer reads it: 'and', '/', 'or'
        p.expect("and")
        if p.word() != "/":
            p.fail("and/or")
        p.pos += 1
        p.expect("or")
    return (f"{first}/{_symbol(p)}",)


@dataclass(frozen=True)
class ActivateOnlyIf(Modifier):
    """'Activate only if CONDITION' (602.5b) after a mana ability: when it may be activated."""

    condition: Condition


@sentence(first=("activate",))
def activate_only_if(p: Parser) -> ActivateOnlyIf:
    p.expect("activate", "only", "if")
    return ActivateOnlyIf(read_condition(p))


def read_condition(p: Parser) -> Condition:
    """A condition (the grammar's nonterminal, imported where used: effects imports the families)."""
    from horde.cards.grammar.effects import condition as nonterminal

    found: Condition = nonterminal(p)
    return found


@translates(AddMana)
def _(node: AddMana, ctx: Context) -> list[str]:
    """Mana a spell or a trigger adds (a ritual's 'Add {B}{B}{B}', 'When ~ enters, add one mana of
    any color'): it floats in its controller's pool (106.4)."""
    if node.refused or node.count is not None or node.charge or ctx.hook not in ("Cast", "Enters"):
        raise NotExpressible(node.refused or "mana added outside a mana ability, a spell or 'When ~ enters'")
    return [f"add_mana mana={quote(' '.join(node.units))}"]


@translates(ActivateOnlyIf)
def _(node: ActivateOnlyIf, ctx: Context) -> list[str]:
    raise NotExpressible("'Activate only if' on an ability that is not a mana ability")


def _mana_cost(cost: Cost, ctx: Context) -> str:
    """One cost of a mana ability as a Mana line writes it."""
    if isinstance(cost, TapCost) and not cost.untap:
        return "{T}"
    if isinstance(cost, ManaCost):
        text = cost.text
        if not mana_only(text) or any("/" in s and not (len(s) == 3 and s[0] in COLOUR_SYMBOLS and s[2] in COLOUR_SYMBOLS)
                                      for s in cost.symbols):
            raise NotExpressible(f"a mana ability's cost {text} (X, two-brid, Phyrexian)")
        return text
    if isinstance(cost, SacrificeCost) and isinstance(cost.what, SelfRef):
        return "sacrifice this"
    if isinstance(cost, LifeCost) and cost.amount <= 999:
        return f"pay {cost.amount} life"
    if isinstance(cost, CountersCost) and cost.remove and cost.kind == "charge" and cost.count > 0:
        return f"remove {cost.count} charge counter{'s' if cost.count != 1 else ''}"
    if isinstance(cost, CountersCost) and cost.remove and cost.kind == "storage" and cost.count == X_COUNTERS:
        return "remove X storage counters"  # a storage land's: X mana for X counters
    raise NotExpressible("a mana ability's cost beyond {T}, mana, life, sacrificing it and charge counters")


@special_activated
def mana_ability(node: ActivatedAbility, ctx: Context) -> list[str] | None:
    """'COSTS: Add MANA [RIDERS]': the card's Mana line (605.1a: no target, not a loyalty ability)."""
    if not node.effects or not isinstance(node.effects[0], AddMana):
        return None
    added = node.effects[0]
    storage = any(isinstance(c, CountersCost) and c.kind == "storage" and c.count == X_COUNTERS for c in node.costs)
    if storage and added.refused == "X mana of a chosen X" and len(added.units) == 1:
        added = replace(added, refused="")  # 'Remove X storage counters: Add X mana': one mana a counter
    elif storage:
        raise NotExpressible("X storage counters for other than X mana")
    if added.refused:
        raise NotExpressible(added.refused)
    ctx.hook = "Mana"
    words = list(added.units)
    if added.charge:
        words.append("count=charge")
    elif added.count is not None:
        words.append(f"count={amount(added.count, ctx)}")
    for rider in node.effects[1:]:
        if isinstance(rider, Damage) and isinstance(rider.source, SelfRef) and rider.to == (Player("you"),) \
                and isinstance(rider.amount, Num):
            words.append(f"damage={rider.amount.n}")
        elif isinstance(rider, GainLife) and rider.who == Player("you") and isinstance(rider.amount, Num):
            words.append(f"gain={rider.amount.n}")
        elif isinstance(rider, StaysTapped):
            words.append("stays_tapped=true")
        elif isinstance(rider, SpentRider):
            words.append(f"spent={rider.kind}")
        elif isinstance(rider, ActivateOnlyIf):
            words.append(translate_node(rider.condition, ctx))
        else:
            raise NotExpressible("a mana ability that does more than add mana, deal damage to you or gain life")
    if len([w for w in words if w.startswith(("if=", "unless="))]) > 1:
        raise NotExpressible("two conditions on one mana ability")
    if getattr(node, "restriction", ""):  # 'Activate only once each turn', ... (602.5b)
        raise NotExpressible(f"a mana ability activated only {node.restriction}")
    costs = [_mana_cost(c, ctx) for c in node.costs]
    if costs == ["{T}"]:
        return ["Mana: " + " ".join(words)]
    return [f"Mana: {', '.join(costs)} -> " + " ".join(words)]


@dataclass(frozen=True)
class SpentRider(Effect):
    """What spending a mana ability's mana on a spell does (106.6): 'If you spend this mana to cast
    your commander, it enters with a number of additional +1/+1 counters on it equal to the number
    of times it's been cast from the command zone this game' (commander_counters); 'When that
    mana is spent to cast a creature spell that shares a creature type with your commander, scry
    1' (shared_type_scry)."""

    kind: str


@effect(first=("if",), priority=1)
def spent_on_commander(p: Parser) -> SpentRider:
    p.expect("if", "you", "spend", "this", "mana", "to", "cast", "your", "commander", ",", "it", "enters", "with",
             "a", "number", "of", "additional")
    if p.kind("pt").value != "+1/+1":
        p.fail("+1/+1")
    p.expect("counters", "on", "it", "equal", "to", "the", "number", "of", "times", "it's", "been", "cast", "from",
             "the", "command", "zone", "this", "game")
    return SpentRider("commander_counters")


@effect("when that mana is spent to cast a creature spell that shares a creature type with your commander , "
        "scry 1", priority=1)
def _(m: dict[str, Any], p: Parser) -> SpentRider:
    return SpentRider("shared_type_scry")


@translates(SpentRider)
def _(node: SpentRider, ctx: Context) -> list[str]:
    raise NotExpressible("what spending mana does, other than after a mana ability's mana")


@dataclass(frozen=True)
class StaysTapped(Effect):
    """'~ doesn't untap during your next untap step' after a mana ability's mana (a Tempest land's)."""


@effect("~ doesn't untap during your next untap step", priority=1)
def _(m: dict[str, Any], p: Parser) -> StaysTapped:
    return StaysTapped()


@translates(StaysTapped)
def _(node: StaysTapped, ctx: Context) -> list[str]:
    raise NotExpressible("'doesn't untap during your next untap step' other than after a mana ability's mana")


@dataclass(frozen=True)
class WhenYouDo(Effect):
    """'When you do, EFFECTS' (603.12, a reflexive trigger) after 'sacrifice it' as a land
    enters (Brokers Hideout): sacrificing a permanent that is on the battlefield is always done,
    so the effects follow at once."""

    effects: tuple[Effect, ...]


@sentence(first=("when",), priority=1)
def when_you_do(p: Parser) -> WhenYouDo:
    from horde.cards.grammar.effects import clauses

    p.expect("when", "you", "do", ",")
    return WhenYouDo(clauses(p))


@translates(WhenYouDo)
def _(node: WhenYouDo, ctx: Context) -> list[str]:
    if ctx.hook != "Enters" or not ctx.verbs or ctx.verbs[-1] != "sacrifice_self":
        raise NotExpressible("'When you do' after anything but sacrificing it as it enters")
    out: list[str] = []
    for node_effect in node.effects:
        out += translate_node(node_effect, ctx)
    return out


# ---------------------------------------------------------------- as a land enters
@dataclass(frozen=True)
class ReturnOwn(Effect):
    """'return a land you control to its owner's hand' (a bounce land's); ``or_sacrifice``:
    'sacrifice it unless you return ...' (Coral Atoll)."""

    what: Noun
    or_sacrifice: bool = False


@dataclass(frozen=True)
class SacrificeUnlessPaid(Effect):
    """'sacrifice it unless you pay {N}' (Rupture Spire)."""

    generic: int


@effect(first=("return",), priority=1)
def return_own(p: Parser) -> ReturnOwn:
    p.expect("return")
    what = noun(p)
    p.expect("to", "its", "owner's", "hand")
    if what.det != "a" or what.relation != "yours" or what.head != "permanent" or what.targeted:
        p.fail("a permanent you control")
    return ReturnOwn(what)


@effect(first=("sacrifice",), priority=1)
def sacrifice_unless(p: Parser) -> ReturnOwn | SacrificeUnlessPaid:
    p.expect("sacrifice")
    if not (p.accept("~") or p.accept("it")):
        p.fail("it")
    p.expect("unless", "you")
    if p.accept("pay"):
        t = p.peek()
        if t is None or t.kind != MANA or not t.value.isdigit():
            p.fail("{N}")
        p.pos += 1
        return SacrificeUnlessPaid(int(t.value))
    found = return_own(p)
    return ReturnOwn(found.what, or_sacrifice=True)


@translates(ReturnOwn)
def _(node: ReturnOwn, ctx: Context) -> list[str]:
    if ctx.hook != "Enters":
        raise NotExpressible("returning a permanent you control other than as it enters")
    flt = filter_of(node.what, ctx)
    return [f"return_own filter={quote(flt)}" + (" or_sacrifice=true" if node.or_sacrifice else "")]


@translates(SacrificeUnlessPaid)
def _(node: SacrificeUnlessPaid, ctx: Context) -> list[str]:
    if ctx.hook != "Enters":
        raise NotExpressible("'sacrifice it unless you pay' other than as it enters")
    return [f"sacrifice_unless_paid generic={node.generic}"]


@dataclass(frozen=True)
class Scry(Effect):
    count: Amount


@effect("scry {n:number}")
def _(m: dict[str, Any], p: Parser) -> Scry:
    return Scry(m["n"])


@translates(Scry)
def _(node: Scry, ctx: Context) -> list[str]:
    return [f"scry count={amount(node.count, ctx)}"]


# ---------------------------------------------------------------- searches for lands
@dataclass(frozen=True)
class SearchLand(Effect):
    """A search of a library for land cards put onto the battlefield (701.19): one of each
    ``filters`` (a Forest card and a Plains card: two searches), or ``count`` of one filter
    (``same_type``: 'that share a land type'); ``who``: its controller (Ghost Quarter)."""

    filters: tuple[Noun, ...]
    tapped: bool
    count: int = 1
    same_type: bool = False
    who: str = "you"


def _put_onto(p: Parser) -> bool:
    """', put it (them) onto the battlefield [tapped], then shuffle': whether tapped."""
    p.expect(",", "put")
    if not (p.accept("it") or p.accept("them") or p.accept("that", "card") or p.accept("those", "cards")):
        p.fail("it")
    p.expect("onto", "the", "battlefield")
    tapped = p.accept("tapped")
    p.expect(",", "then", "shuffle")
    return tapped


@effect(first=("search", "its", "that"), priority=1)
def search_land(p: Parser) -> SearchLand:
    """'[Its controller may] search your (their) library for a basic Island, Swamp, or Mountain
    card | a Forest or Plains card | a Forest card and a Plains card | up to two basic land cards
    that share a land type, put it (them) onto the battlefield [tapped], then shuffle'."""
    who = "you"
    if p.accept("its", "controller", "may", "search", "their", "library", "for") or \
            p.accept("that", "player", "may", "search", "their", "library", "for"):
        who = "target_controller"
    else:
        p.expect("search", "your", "library", "for")
    filters: list[Noun] = []
    count, same_type = 1, False
    if p.accept("up", "to"):
        n = number(p)
        if not isinstance(n, Num):
            p.fail("a number")
        count = n.n
        filters.append(noun(p))
        if p.accept("that", "share", "a", "land", "type"):
            same_type = True
    else:
        filters.append(_land_card(p))
        while p.accept("and"):
            filters.append(_land_card(p))
    tapped = _put_onto(p)
    for found in filters:
        if found.head != "card" or found.relation or found.zone:
            p.fail("a land card")
    if who == "you" and not same_type and all(f.alternatives == (("basic", "land"),) for f in filters):
        p.fail("a search the search family reads")  # basic land cards: the ramp verb's shapes
    return SearchLand(tuple(filters), tapped, count, same_type, who)


def _land_card(p: Parser) -> Noun:
    """'a basic Forest, Plains, or Island card', 'a Forest or Plains card', 'a basic land card'."""
    basic = p.at("a|an", "basic")
    found = noun(p)
    if found.det != "a":
        p.fail("a land card")
    if basic:  # 'a basic Forest, Plains, or Island card': 'basic' belongs to each, written first
        found = replace(found, alternatives=tuple(("basic",) + tuple(t for t in a if t != "basic")
                                                  for a in found.alternatives))
    return found


LAND_TERMS = {"land", "plains", "island", "swamp", "mountain", "forest", "basic"}


@translates(SearchLand)
def _(node: SearchLand, ctx: Context) -> list[str]:
    out = []
    for what in node.filters:
        if what.shared or any(not set(a) <= LAND_TERMS or not set(a) - {"basic"} for a in what.alternatives):
            raise NotExpressible("a search for cards other than lands of basic land types")
        flt = card_filter(what)
        words = ["search_land"]
        if node.who != "you":
            if ctx.target is None or ctx.antecedent != "target":
                raise NotExpressible("'its controller may search' with no targeted permanent")
            words.append(f"who={node.who}")
        words.append(f"filter={quote(flt)}")
        if node.count != 1:
            words.append(f"count={node.count}")
        words.append(f"tapped={'true' if node.tapped else 'false'}")
        if node.same_type:
            words.append("same_type=true")
        out.append(" ".join(words))
    return out


# ---------------------------------------------------------------- a card at random
@dataclass(frozen=True)
class ReturnAtRandom(Effect):
    """'Return a creature card at random from your graveyard to your hand' (Haunted Fengraf)."""

    what: Noun


@effect("return {what:noun} at random from your graveyard to your hand", priority=1)
def _(m: dict[str, Any], p: Parser) -> ReturnAtRandom:
    return ReturnAtRandom(m["what"])


@translates(ReturnAtRandom)
def _(node: ReturnAtRandom, ctx: Context) -> list[str]:
    what = node.what
    if what.det != "a" or what.head != "card":
        raise NotExpressible("returning cards at random other than one card")
    return [f"return_from_graveyard filter={quote(card_filter(what))} to=hand count=1 at_random=true"]


# ---------------------------------------------------------------- statics of lands
@dataclass(frozen=True)
class EntersTappedUnless(Static):
    """'~ enters tapped unless CONDITION' (614.1c); ``when``: 'If CONDITION, ~ enters tapped'."""

    condition: Condition
    when: bool = False


@dataclass(frozen=True)
class EntersWithCharge(Static):
    """'~ enters [tapped] with N charge counters on it [for each time it was kicked]'."""

    count: Amount
    tapped: bool


@dataclass(frozen=True)
class RevealOrTapped(Static):
    """'As ~ enters, you may reveal a NOUN card from your hand' (with 'If you don't, ~ enters
    tapped' after it: the card enters tapped unless its controller's hand holds one; a player
    reveals whenever it can, as revealing costs nothing)."""

    what: Noun


@dataclass(frozen=True)
class IfYouDontTapped(Static):
    """'If you don't, ~ enters tapped' after a reveal or a life paid."""


@dataclass(frozen=True)
class NoMaximumHandSize(Static):
    """'You have no maximum hand size' (402.2)."""


def _enters(p: Parser) -> None:
    if not (p.accept("~") or p.accept("it")):
        p.fail("~")
    p.expect("enters")


@static(first=("~", "it"), priority=1)
def enters_tapped_unless(p: Parser) -> EntersTappedUnless | EntersWithCharge:
    _enters(p)
    tapped = p.accept("tapped")
    if p.accept("with"):
        n = number(p)
        p.expect("charge", "counter|counters", "on", "it")
        if p.accept("for", "each", "time", "it|~", "was", "kicked"):
            if n != Num(1):
                p.fail("a charge counter for each time it was kicked")
            from horde.cards.grammar.ast import Kicked

            n = Kicked()
        p.end()
        return EntersWithCharge(n, tapped)
    if not tapped:
        p.fail("tapped")
    p.expect("unless")
    found = read_condition(p)
    p.end()
    return EntersTappedUnless(found)


@static(first=("if",), priority=1)
def if_enters_tapped(p: Parser) -> EntersTappedUnless | IfYouDontTapped:
    p.expect("if")
    if p.accept("you", "don't", ","):
        _enters(p)
        p.expect("tapped")
        p.end()
        return IfYouDontTapped()
    found = read_condition(p)
    p.expect(",")
    _enters(p)
    p.expect("tapped")
    p.end()
    return EntersTappedUnless(found, when=True)


@static(first=("as",))
def reveal_or_tapped(p: Parser) -> RevealOrTapped:
    p.expect("as", "~", "enters", ",", "you", "may", "reveal")
    what = noun(p)
    p.end()
    if what.det != "a" or what.head != "card" or what.zone != "hand" or what.whose != "yours":
        p.fail("a card from your hand")
    return RevealOrTapped(what)


@dataclass(frozen=True)
class ChooseColour(Static):
    """'As ~ enters, choose a color [other than red]' (614.12): the colours it may choose."""

    colours: tuple[str, ...]


COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


@static(first=("as",), priority=1)
def choose_colour(p: Parser) -> ChooseColour:
    p.expect("as", "~", "enters", ",", "choose", "a", "color")
    colours = list(COLOUR_SYMBOLS)
    if p.accept("other", "than"):
        t = p.next()
        if t.value not in COLOUR_WORDS:
            p.fail("a colour")
        colours.remove(COLOUR_WORDS[t.value])
    p.end()
    return ChooseColour(tuple(colours))


@dataclass(frozen=True)
class ChoosePlayer(Static):
    """'As ~ enters, choose a player' (614.12): 'the chosen player' is that one."""


@static("as ~ enters , choose a player", priority=1)
def _(m: dict[str, Any], p: Parser) -> ChoosePlayer:
    return ChoosePlayer()


@translates(ChoosePlayer)
def _(node: ChoosePlayer, ctx: Context) -> Written:
    return ["AsEnters: choose_player"], []


@dataclass(frozen=True)
class PayLifeOrTapped(Static):
    """'As ~ enters, you may pay N life' (with 'If you don't, it enters tapped' after it: a shock
    land, 614.12)."""

    life: int


@static(first=("as",), priority=1)
def pay_life_or_tapped(p: Parser) -> PayLifeOrTapped:
    p.expect("as", "~", "enters", ",", "you", "may", "pay")
    n = number(p)
    p.expect("life")
    p.end()
    if not isinstance(n, Num):
        p.fail("a number")
    return PayLifeOrTapped(n.n)


@translates(PayLifeOrTapped)
def _(node: PayLifeOrTapped, ctx: Context) -> Written:
    return [f"EntersTapped: pay_life={node.life}"], []


@translates(ChooseColour)
def _(node: ChooseColour, ctx: Context) -> Written:
    return ["ChooseColor: " + ("any" if len(node.colours) == 5 else "/".join(node.colours))], []


@static("you have no maximum hand size")
def _(m: dict[str, Any], p: Parser) -> NoMaximumHandSize:
    return NoMaximumHandSize()


Written = tuple[list[str], list[str]]  # (lines, keywords)


def _holds(condition_node: Condition, ctx: Context) -> tuple[str, str]:
    """A condition as (its key, its value): ('if', '"count:swamp yours"')."""
    holds = translate_node(condition_node, ctx)
    key, _, value = holds.partition("=")
    if key not in ("if", "unless") or value == "done":
        raise NotExpressible("a condition as it enters")
    return key, value


@translates(EntersTappedUnless)
def _(node: EntersTappedUnless, ctx: Context) -> Written:
    key, value = _holds(node.condition, ctx)
    if node.when:  # 'If CONDITION, ~ enters tapped'
        return [f"EntersTapped: {key}={value}"], []
    return [f"EntersTapped: {'unless' if key == 'if' else 'if'}={value}"], []


@translates(EntersWithCharge)
def _(node: EntersWithCharge, ctx: Context) -> Written:
    return [f"Enters: counters on=self count={amount(node.count, ctx)} kind=charge"], \
        (["enters tapped"] if node.tapped else [])


@translates(RevealOrTapped)
def _(node: RevealOrTapped, ctx: Context) -> Written:
    flt = card_filter(replace(node.what, zone=None, whose=None))
    parts = " | ".join(f"{part} yours" for part in flt.split(" | "))
    return [f'EntersTapped: unless="hand:{parts}"'], []


@translates(IfYouDontTapped)
def _(node: IfYouDontTapped, ctx: Context) -> Written:
    if not ctx.pending or not ctx.pending[-1].startswith(('EntersTapped: unless="hand:', "EntersTapped: pay_life=")):
        raise NotExpressible("'If you don't, ~ enters tapped' after no reveal and no life paid")
    return [], []


@translates(NoMaximumHandSize)
def _(node: NoMaximumHandSize, ctx: Context) -> Written:
    return ["Static: no_maximum_hand_size"], []


# ---------------------------------------------------------------- conditions of lands
@dataclass(frozen=True)
class ControlsAny(Condition):
    """'you control a Swamp or a Mountain' (each with its article), 'you control N or fewer
    (more) NOUNs'."""

    what: Noun
    compare: str = ">="
    n: int = 1


@dataclass(frozen=True)
class Opponents(Condition):
    """'you have N or more opponents'."""

    n: int


@condition(first=("you",), priority=1)
def controls_any(p: Parser) -> ControlsAny:
    p.expect("you", "control")
    if p.at("a|an"):
        first = noun(p)
        alternatives = list(first.alternatives)
        while p.accept("or"):
            more = noun(p)
            if more.det != "a" or more.relation or more.shared:
                p.fail("a noun")
            alternatives += more.alternatives
        if len(alternatives) == len(first.alternatives):
            p.fail("two or more alternatives")
        return ControlsAny(replace(first, alternatives=tuple(alternatives)))
    n = number(p)
    if not isinstance(n, Num):
        p.fail("a number")
    p.expect("or")
    if not p.accept("fewer"):
        p.fail("fewer")
    return ControlsAny(noun(p), "<=", n.n)


@condition("you have {n:number} or more opponents", priority=1)
def _(m: dict[str, Any], p: Parser) -> Opponents:
    if not isinstance(m["n"], Num):
        p.fail("a number")
    return Opponents(m["n"].n)


@translates(ControlsAny)
def _(node: ControlsAny, ctx: Context) -> str:
    count = f"count:{filter_of(replace(node.what, relation='yours', det='', count=None), ctx)}"
    if node.compare == ">=" and node.n == 1:
        return f"if={quote(count)}"
    return f"if={quote(f'{count} {node.compare} {node.n}')}"


@translates(Opponents)
def _(node: Opponents, ctx: Context) -> str:
    return f"if={quote(f'opponents >= {node.n}')}"



# ---------------------------------------------------------------- a token's mana ability
@dataclass(frozen=True)
class TokenHas(Modifier):
    """'It has "Sacrifice ~: Add {C}."' after a create clause: the token just created has the
    ability too (111.4: the text describes it whole; Awakening Zone's Eldrazi Spawn)."""

    ability: str


@sentence(first=("it", "they"))
def token_has(p: Parser) -> TokenHas:
    if not p.accept("it", "has"):
        p.expect("they", "have")
    t = p.next()
    if t.kind != QUOTE:
        p.fail("a quoted ability")
    return TokenHas(t.value)


@translates(TokenHas)
def _(node: TokenHas, ctx: Context) -> list[str]:
    from horde.cards.grammar.families.tokens import token_for

    last = shlex.split(ctx.verbs[-1]) if ctx.verbs else []
    if not last or last[0] != "create_tokens" or ctx.antecedent != "token":
        raise NotExpressible("'It has' after no token created")
    name = next(word.partition("=")[2] for word in last if word.startswith("token="))
    card = {**ctx.tokens, **ctx.made}.get(name)
    if card is None or card.mana_abilities or card.hooks or card.power is None:
        raise NotExpressible("'It has' of a token with abilities of its own")
    colours = " and ".join(w for w, c in (("white", "W"), ("blue", "U"), ("black", "B"), ("red", "R"), ("green", "G"))
                           if c in card.colours) or "colorless"
    subtypes = card.name if set(card.name.split()) == set(card.subtypes) else " ".join(sorted(card.subtypes))
    kinds = " ".join(t.lower() for t in ("Artifact", "Enchantment") if t in card.types)
    extras = sorted(card.keywords) + [f'"{node.ability}"']
    description = f"{card.power}/{card.toughness} {colours} {subtypes} {kinds + ' ' if kinds else ''}creature token " \
        f"with {' and '.join(extras)}"
    made = token_for(description, "", ctx)
    ctx.verbs[-1] = " ".join(f"token={quote(made)}" if word.startswith("token=") else quote(word) for word in last)
    return []
