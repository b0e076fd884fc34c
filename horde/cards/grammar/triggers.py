"""Triggers (603): what follows 'When', 'Whenever' or 'At', up to the comma, and the hooks the
translation attaches the ability to.

    trigger := ~ EVENTS                     enters, attacks, blocks, dies, 'enters or attacks', ...
             | the beginning of STEP        your upkeep, each upkeep, each opponent's upkeep, the end step
             | ~ or another NOUN dies|enters
             | a|an|another NOUN dies|enters|attacks
             | you cast a|an NOUN spell | a player casts a spell
             | a source deals damage to ~ | a NOUN deals damage to you
             | ~ becomes the target of a spell (or ability)
             | ~ deals combat damage to a player | you cycle ~ | you set ~ in motion
             | equipped (enchanted) creature dies

'A creature enters' triggers on the card itself too (603.6a); 'another' never.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from horde.cards.grammar.ast import CastSpell, DamagesYou, ObjectEvent, Player, SelfEvent, Step
from horde.cards.grammar.nouns import noun
from horde.cards.grammar.parser import Parser
from horde.cards.grammar.registry import translates, trigger
from horde.cards.grammar.translate import Context, NotExpressible, card_filter, filter_of
from horde.engine.filters import COLOUR_TERMS, SUBTYPE_TERMS

SELF_EVENTS = {"enters": "enters", "attacks": "attacks", "blocks": "blocks", "dies": "dies"}


@trigger(first=("~",))
def self_events(p: Parser) -> SelfEvent:
    """'~ enters', '~ attacks or blocks', '~ enters or dies', '~ deals combat damage to a player',
    '~ becomes the target of a spell (or ability)'."""
    p.expect("~")
    if p.accept("deals", "combat", "damage", "to", "a", "player"):
        return SelfEvent(("hits_player",))
    if p.accept("becomes", "the", "target", "of", "a", "spell"):
        if p.accept("or", "ability"):
            return SelfEvent(("targeted",))
        return SelfEvent(("targeted_by_spell",))
    events = [p.next().value]
    if events[0] not in SELF_EVENTS:
        p.fail("enters, attacks, blocks, dies")
    while p.accept("or"):
        events.append(p.next().value)
        if events[-1] not in SELF_EVENTS:
            p.fail("enters, attacks, blocks, dies")
    if p.word() != ",":
        p.fail("','")
    return SelfEvent(tuple(events))


@trigger("a source deals damage to ~")
def _(m: dict[str, Any], p: Parser) -> SelfEvent:
    return SelfEvent(("dealt_damage",))


@trigger(first=("equipped", "enchanted"))
def attached_dies(p: Parser) -> SelfEvent:
    """'equipped (enchanted) creature dies': the creature it is attached to (AttachedDies)."""
    if not (p.accept("equipped") or p.accept("enchanted")):
        p.fail("equipped or enchanted")
    p.expect("creature", "dies")
    return SelfEvent(("attached_dies",))


@trigger("you cycle ~")
def _(m: dict[str, Any], p: Parser) -> SelfEvent:
    return SelfEvent(("cycled",))


@trigger("you set ~ in motion")
def _(m: dict[str, Any], p: Parser) -> SelfEvent:
    return SelfEvent(("set_in_motion",))  # A1: a scheme


STEPS = (
    (("your", "upkeep"), "upkeep", "your"),
    (("each", "upkeep"), "upkeep", "step"),  # once an upkeep step, not once a player (H1's shared turn)
    (("each", "player's", "upkeep"), "upkeep", "each"),
    (("each", "player's", "draw", "step"), "draw_step", "each"),
    (("each", "opponent's", "upkeep"), "upkeep", "opponent"),
    (("the", "end", "step"), "end_step", "each"),
    (("each", "end", "step"), "end_step", "each"),
)


@trigger(first=("the",))
def beginning(p: Parser) -> Step:
    """'the beginning of your upkeep (each upkeep, each opponent's upkeep, the end step)'."""
    p.expect("the", "beginning", "of")
    for words, step, whose in STEPS:
        if p.accept(*words):
            return Step(step, whose)
    p.fail("a step")


@trigger(first=("~",))
def or_another(p: Parser) -> ObjectEvent:
    """'~ or another NOUN dies (enters)'."""
    p.expect("~", "or", "another")
    what = noun(p)
    event = p.next().value
    if event not in ("dies", "enters"):
        p.fail("dies, enters")
    return ObjectEvent(event, what, or_self=True)


@trigger(first=("a", "an", "another", "one"))
def object_event(p: Parser) -> ObjectEvent:
    """'a/an/another NOUN dies (enters, attacks)', 'a NOUN enters under your control'."""
    what = noun(p)
    if what.det != "a":
        p.fail("a or another")
    event = p.next().value
    if event not in ("dies", "enters", "attacks"):
        p.fail("dies, enters, attacks")
    if event == "enters" and p.accept("under", "your", "control"):  # a permanent you control enters
        if what.relation is not None:
            p.fail("one controller")
        what = replace(what, relation="yours")
    return ObjectEvent(event, what)


@trigger(first=("you", "a", "an", "the"))
def cast(p: Parser) -> CastSpell:
    """'you (an opponent) cast(s) a NOUN spell', 'a player casts a spell'."""
    if p.accept("a", "player", "casts", "a", "spell"):
        return CastSpell(Player("each_player"), None)
    if p.accept("the", "chosen", "player", "casts", "a", "spell"):
        return CastSpell(Player("chosen"), None)
    if p.accept("you", "cast"):
        who = Player("you")
    else:
        p.expect("an", "opponent", "casts")
        who = Player("an_opponent")
    what = noun(p)
    if what.head != "spell" or what.det != "a":
        p.fail("a spell")
    return CastSpell(who, what)


@trigger(first=("a", "an"))
def damages_you(p: Parser) -> DamagesYou:
    """'a NOUN deals damage to you'."""
    what = noun(p)
    if what.det != "a":
        p.fail("a NOUN")
    p.expect("deals", "damage", "to", "you")
    return DamagesYou(what)


# ---------------------------------------------------------------- translation
SELF_HOOKS = {"enters": "Enters", "attacks": "Attacks", "blocks": "Blocks", "dies": "Dies",
              "dealt_damage": "DealtDamage", "targeted": "Targeted", "targeted_by_spell": "TargetedBySpell",
              "hits_player": "HitsPlayer", "cycled": "Cycled", "set_in_motion": "SetInMotion",
              "attached_dies": "AttachedDies"}
STEP_HOOKS = {("upkeep", "your"): "Upkeep", ("upkeep", "each"): "EachUpkeep", ("upkeep", "step"): "UpkeepStep",
              ("upkeep", "opponent"): "OpponentUpkeep",
              ("end_step", "each"): "EndStep", ("draw_step", "each"): "EachDrawStep"}


@translates(SelfEvent)
def _(node: SelfEvent, ctx: Context) -> tuple[list[str], str | None]:
    if len(node.events) > 2 or (len(node.events) == 2 and node.events not in (
            ("enters", "attacks"), ("enters", "dies"), ("attacks", "blocks"))):
        raise NotExpressible(f"the trigger '{' or '.join(node.events)}'")
    hooks = [SELF_HOOKS[e] for e in node.events]
    return hooks, None


@translates(Step)
def _(node: Step, ctx: Context) -> tuple[list[str], str | None]:
    hook = STEP_HOOKS.get((node.step, node.whose))
    if hook is None:
        raise NotExpressible(f"the beginning of {node.whose} {node.step.replace('_', ' ')}")
    return [hook], None


def _self_matches(flt: str, ctx: Context) -> bool:
    """Whether the card itself passes a filter's card terms ('~ or another Zombie': itself included)."""
    facts = ctx.facts
    types = {"creature", "artifact", "enchantment", "land", "planeswalker", "instant", "sorcery", "permanent"}
    for term in flt.split():
        negate = term.startswith("non") and term not in ("nontoken", "nonlegendary")
        word = term[3:] if negate else term
        if word in types:
            hit = word == "permanent" or word.capitalize() in facts.types
        elif word in COLOUR_TERMS:
            hit = COLOUR_TERMS[word] in facts.colours
        elif word in SUBTYPE_TERMS:
            hit = word.capitalize() in facts.subtypes
        elif word in ("token", "nontoken"):
            hit = (word == "token") == ("Token" in facts.supertypes)
            negate = False
        elif word in ("yours", "other"):
            hit = word == "yours"
            negate = False
        else:
            return False
        if hit == negate:
            return False
    return True


EVENT_HOOKS = {"dies": "CreatureDies", "enters": "PermanentEnters", "attacks": "CreatureAttacks"}


@translates(ObjectEvent)
def _(node: ObjectEvent, ctx: Context) -> tuple[list[str], str | None]:
    what = node.what
    if node.event == "attacks" and what.relation != "yours":
        raise NotExpressible("a creature attacking that is not yours")
    flt = filter_of(what)
    if node.or_self and not _self_matches(flt, ctx):
        raise NotExpressible("'~ or another' of a kind the card is not")
    return [EVENT_HOOKS[node.event]], flt


@translates(CastSpell)
def _(node: CastSpell, ctx: Context) -> tuple[list[str], str | None]:
    if node.what is None:
        return ["SpellCast"], "chosen" if node.who.kind == "chosen" else None
    whose = "yours" if node.who.kind == "you" else "opponents"
    if node.what.alternatives == ((),) and not node.what.shared:
        return ["SpellCast"], whose  # any spell of the caster's
    flt = card_filter(node.what, empty="")
    return ["SpellCast"], " | ".join(f"{part} {whose}" for part in flt.split(" | "))


@translates(DamagesYou)
def _(node: DamagesYou, ctx: Context) -> tuple[list[str], str | None]:
    return ["ControllerDamaged"], filter_of(node.what)
