"""The translation pass: from the syntax of a card's text to the card-file lines of the effect
vocabulary (``Enters: discard who=each_opponent count=1``, ``Keywords: flying``, ``Mana: G``).

Here, and only here, is decided what the vocabulary can say: a node without a translation, a
noun phrase whose terms the filter vocabulary does not know, a second target in one ability, an
'it' that is not the card itself in a verb that only acts on the card, a reference the
vocabulary has no word for: each raises ``NotExpressible`` with the reason, and the ability is
left out whole (its sentence is listed as not read, with the reason). Nothing is approximated
silently. The lines then go through the catalogue's own loader, like a hand-written card's.

A node's translation is registered with ``@translates(NodeType)`` (``horde.cards.grammar.registry``)
beside the rule that reads it: an effect's returns its verbs (``list[str]``), a trigger's its
hooks and ``when`` filter, a static's its lines and keywords, a condition's its ``if=`` (or
``unless=``) argument, a cost's its card-file cost. ``Context`` is what one ability's
translation knows: the card's facts, its hook, its target so far (one per ability), the group
'those creatures' names, what 'X' is, and the verbs written so far (which a modifier such as
'It can't be regenerated' changes).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from typing import Any

from horde.cards.grammar.ast import (
    Ability,
    ActivatedAbility,
    Amount,
    CardCount,
    Condition,
    Cost,
    Count,
    Effect,
    Half,
    If,
    KeywordAbility,
    Kicked,
    Line,
    LoyaltyAbility,
    May,
    ModalAbility,
    Node,
    Noun,
    Num,
    Obj,
    Player,
    Property,
    Ref,
    SelfRef,
    SpellAbility,
    StaticAbility,
    Sum,
    Times,
    Trigger,
    TriggeredAbility,
    VarX,
    WhereX,
)
from horde.cards.grammar.compiled import Compiled, Facts
from horde.cards.grammar.registry import SPECIAL_ACTIVATED, SPECIAL_IF, TRANSLATORS, load_families
from horde.engine.cards import CardDef, mana_symbol
from horde.engine.filters import COLOUR_TERMS, SUBTYPE_TERMS, TYPE_TERMS, compile_filter

BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


class NotExpressible(Exception):
    """This node is beyond the effect vocabulary (the reason)."""


@dataclass
class Context:
    """What one ability's translation knows (the module's paragraph)."""

    facts: Facts
    tokens: Mapping[str, CardDef]
    made: dict[str, CardDef] = field(default_factory=dict)  # new token cards of this text
    taken: Container[str] = ()  # names (lower case) a new token may not take: the catalogue's cards
    hook: str = ""
    x_is: str | None = None
    target: str | None = None  # the filter of the ability's target ('player', 'opponent' for a player)
    group: str | None = None  # the filter of the last 'each creature ...' effect ('those creatures')
    self_subject: bool = False  # a trigger about the card itself: 'it' is the card
    verbs: list[str] = field(default_factory=list)  # the verbs of the ability so far
    pending: list[str] = field(default_factory=list)  # the lines of this ability's line of text so far
    antecedent: str | None = None  # what 'it' names: self (the card), target, token (one just created)
    optional: bool = False  # the target is 'up to one target': its verb is a choice
    nested: int = 0  # inside 'you may' or 'if': a verb before it is not to be changed from here
    per_player: bool = False  # an amount for each player in turn ('that player controls': damage_all's who)


# ---------------------------------------------------------------- small parts
def quote(value: str) -> str:
    if '"' in value:  # a token named by its description, with a quoted ability: quoted as a shell would
        return shlex.quote(value)
    return f'"{value}"' if " " in value or "," in value else value


def _check(text: str) -> str:
    try:
        compile_filter(text)
    except ValueError as error:
        raise NotExpressible(f"the filter {text!r}: {error}") from None
    return text


def filter_of(noun: Noun, ctx: Context | None = None) -> str:
    """A noun phrase of permanents (or players, or 'any target') as a filter of the vocabulary.
    'that player controls' (``theirs``) needs a player the ability is about (``ctx``: a target
    player, or 'that player' of its trigger)."""
    if noun.head == "any":
        return "any"
    if noun.head in ("card", "spell", "source"):
        raise NotExpressible(f"a {noun.head} where a permanent is meant")
    if noun.relation == "theirs" and (ctx is None or (ctx.target not in ("player", "opponent")
                                                      and ctx.hook not in THAT_PLAYER_HOOKS and not ctx.per_player)):
        raise NotExpressible("'that player controls' with no player the ability is about")
    if noun.relation in ("target_player", "target_opponent"):
        raise NotExpressible("permanents a target player controls")
    parts = []
    for alternative in noun.alternatives:
        terms = list(alternative) + list(noun.shared) + (["other"] if noun.other else []) + \
            ([noun.relation] if noun.relation else [])
        if not terms:
            terms = ["permanent"]
        parts.append(" ".join(terms))
    return _check(" | ".join(parts))


CARD_WORDS = re.compile(r"(non)?[a-z'-]+")


def card_filter(noun: Noun, empty: str = "any") -> str:
    """A noun phrase of cards ('creature card', 'instant or sorcery card', 'creature card with
    mana value 3 or less', 'card') as a filter of card terms; ``empty`` for a card of no kind.
    Only terms a card outside the battlefield answers (``horde.engine.filters.card_matches``)."""
    if noun.head not in ("card", "spell") or noun.other or noun.relation:
        raise NotExpressible("a card phrase the vocabulary can't say")
    for term in noun.shared:
        if not card_term(term):
            raise NotExpressible(f"a card with {term}")
    parts = []
    for alternative in noun.alternatives:
        for term in alternative:
            if not card_term(term):
                raise NotExpressible(f"a card that is {term}")
        terms = list(alternative) + list(noun.shared)
        parts.append(" ".join(terms) if terms else empty)
    return _check(" | ".join(parts))


def card_term(term: str) -> bool:
    """Whether a card outside the battlefield answers this term (``card_matches`` answers
    types, colours, subtypes, basic, permanent, printed keywords and mana value, and their
    non-; any other term would match every card)."""
    if term.startswith(("with-", "without-", "mv")):
        return True
    word = term[3:].lstrip("-") if term.startswith("non") else term
    return word in TYPE_TERMS or word in COLOUR_TERMS or word in SUBTYPE_TERMS or word in ("basic", "permanent",
                                                                                            "elite")


def spell_filter(noun: Noun) -> str:
    """'creature spell', 'noncreature spell', 'spell' as card terms ('' for any spell)."""
    if noun.head != "spell":
        raise NotExpressible("a spell phrase the vocabulary can't say")
    if noun.alternatives == ((),) and not noun.shared and not noun.relation and not noun.other:
        return ""
    return card_filter(noun, empty="")


WHO = {"you": "you", "each_opponent": "each_opponent", "each_player": "each_player",
       "each_other_player": "each_other_player", "that_player": "that_player", "target_player": "target_player",
       "target_opponent": "target_opponent"}
TARGET_WHO = {"target_player": "player", "target_opponent": "opponent"}
THAT_PLAYER_HOOKS = ("EachUpkeep", "OpponentUpkeep", "EachDrawStep", "CreatureDies", "HitsPlayer", "SpellCast")


def who(player: Player, ctx: Context) -> str:
    """A player as the vocabulary's ``who``."""
    kind = player.kind
    if kind == "its_controller" and ctx.hook == "CreatureDies" and ctx.antecedent == "trigger":
        return "that_player"  # the controller of the creature that died ('that player' of CreatureDies)
    if kind == "its_controller":
        if ctx.optional:
            raise NotExpressible("'its controller' of a target that may not be chosen")
        if ctx.antecedent != "target" or ctx.target is None or ctx.target in ("any", "player", "opponent") or "|" in ctx.target and \
                ("player" in ctx.target.split() or "opponent" in ctx.target.split()):
            raise NotExpressible("'its controller' of no targeted permanent")
        return "target_controller"
    if kind == "that_spells_controller":
        if ctx.hook != "TargetedBySpell":
            raise NotExpressible("'that spell's controller' outside a trigger on a spell targeting it")
        return "caster"
    found = WHO.get(kind)
    if found is None:
        raise NotExpressible(f"the player '{kind.replace('_', ' ')}'")
    if found == "that_player" and ctx.hook not in THAT_PLAYER_HOOKS:
        raise NotExpressible("'that player' with no player of the trigger")
    if found in TARGET_WHO:  # one target per ability: the same player may be named again
        if ctx.target is not None and ctx.target != TARGET_WHO[found]:
            raise NotExpressible("a second target in one ability")
        ctx.target = TARGET_WHO[found]
    return found


PLAYER_OR_PLANESWALKER = {("player",): "player | planeswalker", ("opponent",): "opponent | planeswalker"}


def target(noun: Noun, ctx: Context) -> str:
    """The filter of a target ('target creature', 'any target', 'target player or
    planeswalker'); the ability's one target. 'Up to one target' is one target its controller
    may choose not to act on (``optional``: the effect's verb gets ``may=true``, 608.2d)."""
    if noun.det == "up_to_target" and noun.count == Num(1):
        ctx.optional = True
    elif not noun.targeted or noun.det != "target" or noun.count is not None:
        raise NotExpressible("not one target")
    if noun.head == "player":
        names = tuple(a[0] for a in noun.alternatives)
        if names in (("player", "planeswalker"), ("opponent", "planeswalker")):
            flt = f"{names[0]} | planeswalker"
        else:
            raise NotExpressible("a player where a permanent is meant")
    else:
        flt = filter_of(noun)
    if ctx.target is not None:
        raise NotExpressible("a second target in one ability")
    ctx.target = flt
    return flt


def amount(value: Amount, ctx: Context) -> str:
    """An amount of the vocabulary: 2, X, kicked, count:FILTER, graveyard:FILTER, hand:FILTER,
    sums, N*COUNT, half:COUNT; quoted when it has spaces."""
    return quote(_amount(value, ctx))


def _amount(value: Amount, ctx: Context) -> str:
    if isinstance(value, Num):
        return str(value.n)
    if isinstance(value, VarX):
        if ctx.x_is:
            return ctx.x_is.strip('"')
        if ctx.facts.x_cost and ctx.hook in ("Cast", "Mode"):  # the X paid for the spell
            return "X"
        raise NotExpressible("an X that is not the spell's")
    if isinstance(value, Kicked):
        return "kicked"
    if isinstance(value, Count):
        return f"count:{filter_of(value.what, ctx)}"
    if isinstance(value, CardCount):
        return _card_count(value)
    if isinstance(value, Sum):
        return "+".join(_count_only(t, ctx) for t in value.terms)
    if isinstance(value, Times):
        if not isinstance(value.factor, Num):
            raise NotExpressible("X times a count")
        inner = _count_only(value.of, ctx) if not isinstance(value.of, Sum) else None
        if inner is None:
            if value.factor.n != 1:
                raise NotExpressible("a number times a sum of counts")
            return _amount(value.of, ctx)
        return inner if value.factor.n == 1 else f"{value.factor.n}*{inner}"
    if isinstance(value, Half):
        if value.up:
            raise NotExpressible("half, rounded up")
        return "half:" + _count_only(value.of, ctx)
    if isinstance(value, Property):
        whose = "~'s" if isinstance(value.of, SelfRef) else "its" if isinstance(value.of, Ref) and \
            value.of.kind == "it" else f"that {getattr(value.of, 'word', '')}'s"
        raise NotExpressible(f"the amount '{whose} {value.name}'")
    raise NotExpressible(f"the amount '{type(value).__name__}'")


def _count_only(value: Amount, ctx: Context) -> str:
    if isinstance(value, (Count, CardCount, Kicked)):
        return _amount(value, ctx)
    raise NotExpressible("a count of something the vocabulary does not count")


def _card_count(value: CardCount) -> str:
    noun = value.what
    whose = {"yours": " yours", "all": "", "theirs": " theirs", "opponents": " opponents", "chosen": " chosen"}.get(value.whose)
    if whose is None:
        raise NotExpressible(f"cards in {value.whose}'s {value.zone}")
    if value.zone == "graveyard":
        flt = card_filter(Noun(head="card", alternatives=noun.alternatives, shared=noun.shared), empty="nontoken")
        return "graveyard:" + " | ".join(f"{part}{' other' if noun.other else ''}{whose}" for part in flt.split(" | "))
    if value.zone == "hand":
        if noun.alternatives != ((),) or noun.other:
            raise NotExpressible("a kind of card in a hand")
        return f"hand:{whose.strip()}"
    raise NotExpressible(f"cards in a {value.zone}")


_SYMBOLS = re.compile(r"\{([^{}]+)\}")


def mana_only(cost: str, x: bool = False) -> bool:
    """Whether ``cost`` is mana symbols alone that a card file's cost takes (numbers, colours, C,
    hybrid, two-brid and Phyrexian symbols; X only with ``x``)."""
    symbols = _SYMBOLS.findall(cost)
    if not symbols or "".join("{" + s + "}" for s in symbols) != cost.replace(" ", ""):
        return False
    return all(s.isdigit() or (x and s == "X") or mana_symbol(s) is not None for s in symbols)


def keywords_arg(keywords: list[str]) -> str:
    return quote(",".join(keywords))


def pt_args(power: int, toughness: int, keywords: list[str]) -> str:
    parts = []
    if power:
        parts.append(f"power={power}")
    if toughness:
        parts.append(f"toughness={toughness}")
    if keywords:
        parts.append(f"keywords={keywords_arg(keywords)}")
    return " ".join(parts)


def is_self(obj: Obj, ctx: Context) -> bool:
    """Whether ``obj`` is the card itself: ~, or 'it' in a trigger about the card before any
    other object is named ('create a token. Put a counter on it': the token)."""
    if isinstance(obj, SelfRef):
        return True
    return isinstance(obj, Ref) and obj.kind == "it" and ctx.self_subject and ctx.antecedent == "self"


def it_is_self(obj: Obj, ctx: Context, hooks: tuple[str, ...]) -> bool:
    """``is_self``, with 'it' the card in the triggers ``hooks`` too (its own upkeep, end step)."""
    if isinstance(obj, SelfRef):
        return True
    return isinstance(obj, Ref) and obj.kind == "it" and ctx.hook in hooks and ctx.antecedent == "self"


def conditioned(effects: list[str], condition: str) -> list[str]:
    """Effects each given a condition (``if=kicked``, ``if=done``; none: only checked); a verb
    takes one condition."""
    if any(re.search(r" (if|unless)=", e) for e in effects):
        raise NotExpressible("two conditions on one verb")
    return [f"{e} {condition}" if condition else e for e in effects]


# ---------------------------------------------------------------- nodes
def translate_node(node: Node, ctx: Context) -> Any:
    load_families()
    translator = TRANSLATORS.get(type(node))
    if translator is None:
        raise NotExpressible(f"{_describe(node)}: beyond the effect vocabulary")
    return translator(node, ctx)


def _describe(node: Node) -> str:
    name = type(node).__name__
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def effects(nodes: tuple[Effect, ...], ctx: Context) -> list[str]:
    """The verbs of effects, in order, into ``ctx.verbs`` (and returned)."""
    start = len(ctx.verbs)
    for node in nodes:
        ctx.verbs.extend(effect(node, ctx))
    return ctx.verbs[start:]


def effect(node: Effect, ctx: Context) -> list[str]:
    """One effect's verbs (an effect that modifies the verbs before it changes ``ctx.verbs`` and
    returns none)."""
    if isinstance(node, May):  # 608.2d: an optional effect; what follows it in the clause goes with it
        inner = _inner(node.effects, ctx, nested=True)
        chosen, *more = conditioned(inner, "")
        return [chosen + " may=true"] + conditioned(more, "if=done")
    if isinstance(node, If):
        special = SPECIAL_IF.get(type(node.condition))
        if special is not None:
            found = special(node, ctx)
            if found is not None:
                return list(found)
        holds = translate_node(node.condition, ctx)
        if holds == "if=done" and not any(" may=true" in v or v.startswith(OPTIONAL_VERBS) for v in ctx.verbs):
            raise NotExpressible("'if you do' after nothing optional")  # 'done' is set by a 'may' verb only
        return conditioned(_inner(node.effects, ctx, nested=True), holds)
    if isinstance(node, WhereX):
        saved = ctx.x_is
        ctx.x_is = amount(node.amount, ctx)
        try:
            return _inner(node.effects, ctx)
        finally:
            ctx.x_is = saved
    before = ctx.target
    optional = ctx.optional
    found = list(translate_node(node, ctx))
    if ctx.optional and not optional:  # 'up to one target': the controller may choose none
        if len(found) != 1:
            raise NotExpressible("'up to one target' of several verbs")
        found = [found[0] if " may=true" in found[0] else found[0] + " may=true"]
    if getattr(node, "introduces", False):
        ctx.antecedent = "token"
    elif ctx.target != before:
        ctx.antecedent = "target"
    return found


OPTIONAL_VERBS = ("any_player_exiles_from_graveyard",)  # verbs that set 'done' themselves


def _inner(nodes: tuple[Effect, ...], ctx: Context, nested: bool = False) -> list[str]:
    out: list[str] = []
    ctx.nested += nested
    try:
        for node in nodes:
            out.extend(effect(node, ctx))
    finally:
        ctx.nested -= nested
    return out


def may_change_last(ctx: Context) -> bool:
    """Whether an effect may change the verb before it ('It gains trample', 'It can't be
    regenerated'): not from inside a 'you may' or an 'if', whose condition the change would lose."""
    return bool(ctx.verbs) and not ctx.nested


def condition(node: Condition, ctx: Context) -> str:
    return translate_node(node, ctx)


def costs(nodes: tuple[Cost, ...], ctx: Context) -> str:
    return ", ".join(translate_node(c, ctx) for c in nodes)


# ---------------------------------------------------------------- abilities
SELF_HOOKS = ("Enters", "Attacks", "Blocks", "Blocked", "Monstrous", "Dies", "DealtDamage", "Targeted", "TargetedBySpell", "Cycled", "HitsPlayer")


@dataclass
class _Written:
    lines: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    loyalty: tuple[str, str] | None = None  # (change, body) of a loyalty ability


def ability(node: Ability, ctx: Context) -> _Written:
    """One ability's lines (a loyalty ability's body waits for the order of all of them: B3)."""
    out = _Written()
    if isinstance(node, KeywordAbility):
        for keyword in node.keywords:
            lines, words = translate_node(keyword, ctx)
            out.lines += lines
            out.keywords += words
        return out
    if isinstance(node, StaticAbility):
        lines, words = translate_node(node.static, ctx)
        out.lines += lines
        out.keywords += words
        return out
    if isinstance(node, SpellAbility):
        ctx.hook = "Cast"
        out.lines.append(f"Cast: {' ; '.join(_body(node.effects, node.sentences, ctx))}")
        return out
    if isinstance(node, ModalAbility):
        if not {"Instant", "Sorcery"} & ctx.facts.types:
            raise NotExpressible("modes of a permanent's ability")
        if node.choose not in ("one", "two", "three", "one or more", "one or both"):
            raise NotExpressible(f"choose {node.choose}")
        if node.choose != "one":
            out.lines.append(f"Choose: {node.choose}")
        for mode in node.modes:
            mode_ctx = Context(ctx.facts, ctx.tokens, ctx.made, ctx.taken, hook="Mode")
            out.lines.append(f"Mode: {' ; '.join(_body(mode, (), mode_ctx))}")
        return out
    if isinstance(node, LoyaltyAbility):
        ctx.hook = "Loyalty"
        out.loyalty = (node.change, " ; ".join(_body(node.effects, node.sentences, ctx)))
        return out
    if isinstance(node, TriggeredAbility):
        hooks, when = trigger(node.trigger, ctx)
        suffix = f" when={quote(when)}" if when else ""
        verbs = _body(node.effects, node.sentences, ctx)
        body = " ; ".join(e + suffix for e in verbs)
        out.lines += [f"{hook}: {body}" for hook in hooks]
        return out
    if isinstance(node, ActivatedAbility):
        for handler in SPECIAL_ACTIVATED:
            found = handler(node, ctx)
            if found is not None:
                out.lines += found
                return out
        ctx.hook = "Activated"
        ctx.self_subject, ctx.antecedent = True, "self"  # 'it' in an ability of the card: the card
        limit = f" ({node.restriction})" if node.restriction else ""
        prefix = f"Activated: {costs(node.costs, ctx)}{limit} -> "
        verbs = _body(node.effects, node.sentences, ctx)
        if node.restriction:
            restricted(node, verbs)
        answers_only(verbs)
        out.lines.append(prefix + " ; ".join(verbs))
        return out
    raise NotExpressible(f"{_describe(node)}: beyond the vocabulary")


def restricted(node: ActivatedAbility, verbs: list[str]) -> None:
    """602.5b: a team player activates an ability whenever it may (in its second main phase, at
    the beginning of its combat, after blocks in either combat: ``horde.engine.turns``), as often as
    it pays, within the ability's limits ('Activate only once each turn', 'only as a sorcery', 'only
    during your turn', written after its costs); a lieutenant instead of attacking (L8). An
    ability that only regenerates itself is also activated when the creature would be destroyed,
    which such a limit forbids."""
    if all(verb.startswith("regenerate on=self") for verb in verbs):
        raise NotExpressible(f"a regeneration to activate only {node.restriction}")


# Keywords whose only use until end of turn is as an answer to a spell or ability that targets.
RESPONSE_KEYWORDS = frozenset({"hexproof", "shroud"})


def answers_only(verbs: list[str]) -> None:
    """An ability that only gives hexproof or shroud until end of turn answers a spell that
    targets, activated in response to it; the team activates abilities in its windows (second
    main phase, combat) and the Horde's spells choose their targets as they resolve, so such an
    ability never does what it is for: left out, the card approximated."""
    for verb in verbs:
        words = verb.split()
        if words[0] != "pump" or any(w.startswith(("power=", "toughness=")) for w in words):
            return
        given = next((w.partition("=")[2].strip('"') for w in words if w.startswith("keywords=")), "")
        if not given or not set(given.split(",")) <= RESPONSE_KEYWORDS:
            return
    raise NotExpressible("hexproof or shroud until end of turn, an answer activated in response to a spell (the "
                         "team activates abilities in its windows; the Horde's spells choose targets as they resolve)")


def trigger(node: Trigger, ctx: Context) -> tuple[list[str], str | None]:
    hooks, when = translate_node(node, ctx)
    ctx.hook = hooks[0]
    ctx.self_subject = ctx.self_subject or hooks[0] in SELF_HOOKS
    ctx.antecedent = "self" if hooks[0] in SELF_HOOKS + ("Upkeep", "EndStep") else \
        "trigger" if hooks[0] in ("CreatureDies", "PermanentEnters", "CreatureAttacks") else None
    return hooks, when


def _body(nodes: tuple[Effect, ...], origins: tuple[int, ...], ctx: Context) -> list[str]:
    ctx.verbs = []
    for i, node in enumerate(nodes):
        try:
            ctx.verbs.extend(effect(node, ctx))
        except NotExpressible as error:
            error.sentence = origins[i] if i < len(origins) else 0  # type: ignore[attr-defined]
            raise
    return ctx.verbs


def _overload_needs_a_target(out: Compiled) -> None:
    """702.96: overload changes the spell's 'target' to 'each'; with no targeted Cast effect read
    (the spell's own text not read, or nothing targeted) the keyword is left out too."""
    overload = next((line for line in out.lines if line.startswith("Overload:")), None)
    if overload is None or any(line.startswith("Cast:") and "target=" in line for line in out.lines):
        return
    out.lines.remove(overload)
    sentence = out.made_from.get(overload, overload)
    out.unread.append(sentence)
    out.why[sentence] = "not expressible: overload with no targeted effect of the spell read"
    out.dropped.append(sentence)


def special_activated(handler: Any) -> Any:
    """Register a translation of an activated ability that is not an ``Activated:`` line (a mana
    ability, a graveyard ability): ``handler(node, ctx)`` returns its lines, or None."""
    SPECIAL_ACTIVATED.append(handler)
    return handler


def special_if(condition_type: type) -> Any:
    """Register a translation of 'if CONDITION, EFFECTS' that is not a condition on each verb
    ('If ~ was kicked, it deals N damage instead'): ``handler(node, ctx)`` returns verbs, or None."""

    def register(handler: Any) -> Any:
        SPECIAL_IF[condition_type] = handler
        return handler

    return register


# ---------------------------------------------------------------- the pass
def translate(lines: list[Line], facts: Facts, tokens: Mapping[str, CardDef], taken: Container[str] = ()
              ) -> Compiled:
    """A text's lines (``horde.cards.grammar.abilities``) as a ``Compiled``: card-file lines,
    sentences not read and why, abilities dropped, new tokens."""
    load_families()
    out = Compiled()
    made: dict[str, CardDef] = {}
    # (loyalty change, body or None if not read, source, line number)
    loyalty: list[tuple[str, str | None, str, int]] = []
    unread_lines: set[int] = set()
    for number, line in enumerate(lines):
        pending: list[str] = []
        unread: dict[int, str] = {i: why for i, why in line.errors}
        for node in line.abilities:
            ctx = Context(facts, tokens, made, taken, pending=pending)
            source_of = ". ".join(line.sentences[i] for i in sorted(set(node.sentences)) if i < len(line.sentences))
            try:
                written = ability(node, ctx)
            except NotExpressible as error:
                at = getattr(error, "sentence", None)
                i = at if at is not None else (min(node.sentences) if node.sentences else 0)
                unread.setdefault(i, f"not expressible: {error}")
                if isinstance(node, LoyaltyAbility) and "Planeswalker" in facts.types:
                    loyalty.append((node.change, None, source_of, number))
                continue
            for word in written.keywords:
                if word not in out.keywords:
                    out.keywords.append(word)
            for made_line in written.lines:
                pending.append(made_line)
                out.made_from[made_line] = source_of
            if written.loyalty is not None:
                loyalty.append((written.loyalty[0], written.loyalty[1], source_of, number))
        for i in line.loyalty_unread:
            loyalty.append((line.loyalty_unread[i], None, line.sentences[i], number))
        if unread:
            for i in sorted(unread):
                out.unread.append(line.sentences[i])
                out.why[line.sentences[i]] = unread[i]
            out.dropped.append(". ".join(line.sentences))
            unread_lines.add(number)
        else:
            out.lines.extend(pending)
    _loyalty_lines(loyalty, unread_lines, out)
    _overload_needs_a_target(out)
    if "Land" in facts.types and not any(line.startswith("Mana:") for line in out.lines):
        basic = [BASIC_MANA[t] for t in ("Plains", "Island", "Swamp", "Mountain", "Forest") if t in facts.subtypes]
        if basic:  # 305.6: a basic land type's own mana ability
            out.lines.append("Mana: " + "/".join(basic))
            out.made_from[out.lines[-1]] = "(its basic land type)"
    if out.keywords:
        out.lines.insert(0, "Keywords: " + ", ".join(out.keywords))
        out.made_from[out.lines[0]] = "(keywords)"
    out.made_from = {line: out.made_from.get(line, "") for line in out.lines}
    # only the new tokens of the abilities read (an ability not read whole creates none)
    out.tokens = {name: card for name, card in made.items() if any(f"token={quote(name)}" in line for line in out.lines)}
    return out


def _loyalty_lines(loyalty: list[tuple[str, str | None, str, int]], unread_lines: set[int], out: Compiled) -> None:
    """B3: the last of three or more loyalty abilities, a minus after another minus, is the ultimate."""
    costs = [int(change.replace("X", "0")) for change, *_ in loyalty]
    minus = [i for i, cost in enumerate(costs) if cost < 0]
    for i, (change, body, source, on_line) in enumerate(loyalty):
        if body is None or on_line in unread_lines:
            continue
        cost = costs[i]
        hook = "Plus" if cost >= 0 else ("Ultimate" if i == len(loyalty) - 1 and len(loyalty) >= 3
                                         and len(minus) >= 2 else "Minus")
        out.lines.append(f"{hook}: {change}: {body}")
        out.made_from[out.lines[-1]] = source
