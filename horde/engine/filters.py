"""Filters, amounts and the context of one resolution: the small objects a card's arguments are
compiled into at load, and who is doing what when an effect runs.

A filter (``"creature nonzombie opponents"``) becomes a ``Filter``, called as ``f(game, ctx,
permanent)``; a card filter answers for a card outside the battlefield; an amount (``2``, ``"X"``,
``"zombies_you_control"``) becomes an int or an ``AmountFunction``, called as ``f(game, ctx)``; a
condition (``if=...``) a ``Condition``. Each is a small class whose attributes (the text written,
what a filter looks at) are read by the rules, the loader and the policies; the engine compiles
them with mypyc (``horde.build``). ``Context`` carries the source, its controller, the chosen
target and the X paid. This module sits below the rules and the verbs: both use it, and it reads
the game only through ``horde.engine.characteristics``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

from horde.engine.cards import KEYWORDS, CardDef
from horde.engine.characteristics import board_of, graveyard_of, hand_of, has_keyword, power, toughness
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent
from horde.limits import CARD_AMOUNT_MAX, CARD_PT_MAX, quoted, whole_number


class Source(Protocol):
    """Whose effect or static ability is being looked at: a ``Context``, or a permanent, which is
    its own context for its static abilities."""

    @property
    def permanent(self) -> Permanent | None: ...

    @property
    def controller(self) -> int: ...

    @property
    def x(self) -> int: ...


Target = Permanent | int | str  # what an effect targets: a permanent, a team player's index, or "horde"
CardCheck = Callable[[CardDef], bool]
StateCheck = Callable[[Permanent, Game], bool]
TermFunction = Callable[[Game, Source], int]  # one term of an amount


# ---------------------------------------------------------------- filters
TYPE_TERMS = {
    "creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment",
    "planeswalker": "Planeswalker", "instant": "Instant", "sorcery": "Sorcery",
}


COLOUR_TERMS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


# The subtypes a filter names: those of the bundled cards, and every other creature, artifact,
# enchantment and land type cards print (205.3g-m): "Other Ooze creatures you control", "Gates".
SUBTYPE_TERMS = {
    "zombie", "skeleton", "army", "giant", "human", "soldier", "spirit", "vampire", "warrior",
    "wizard", "knight", "elf", "goblin", "dragon", "angel", "beast", "horror", "cleric", "rogue",
    "shaman", "druid", "elemental", "wurm", "hydra", "dinosaur", "cat", "bird", "wolf", "saproling",
    "insect", "merfolk", "demon", "devil", "sliver", "ally", "gnome", "golem", "construct", "minion",
    "swamp", "forest", "island", "mountain", "plains", "equipment", "aura",
    "phyrexian", "rat", "troll", "snake", "curse",
    "head", "minotaur", "reveler", "god", "satyr", "nymph", "centaur",
} | set("""
    advisor aetherborn antelope ape archer archon artificer assassin atog aurochs avatar
    azra background badger barbarian bard basilisk bat bear beeble beholder berserker blinkmoth blood
    boar brainiac bringer brushwagg camarid camel caribou carrier cartouche cave cephalid chicken
    chimera citizen clamfolk class clue cockatrice contraption cow coward crab crocodile cyborg cyclops
    dauthi demigod desert deserter djinn dog drake dreadnought drone dryad duck dwarf efreet egg elder
    eldrazi elephant elk eye faerie ferret fish flagbearer food fortification fox fractal frog fungus
    gamer gargoyle gate germ gnoll goat gold gorgon graveborn gremlin griffin guest hag halfling harpy
    hellion hippo hippogriff homarid homunculus horse hound hyena illusion imp incarnation jackal
    jellyfish juggernaut kavu key killbot kirin kithkin kobold kor kraken lair lamia lammasu leech
    leviathan lhurgoyf licid lizard locus manticore masticore mercenary metathran mine mole monger
    mongoose monk monkey moonfolk mouse mutant myr mystic naga nautilus nephilim nightmare nightstalker
    ninja noble noggle nomad octopus ogre ooze orc orgg otter ouphe ox oyster pangolin peasant pegasus
    pentavite pest phelddagrif phoenix pilot pincher pirate plant powerstone praetor prism
    processor rabbit raccoon ranger rebel reflection rhino rigger role rune sable saga salamander
    samurai scarecrow scientist scion scorpion scout sculpture serf serpent servo shade shapeshifter
    shard shark sheep shrine siren slith slug soltari spawn specter spellshaper sphinx spider spike
    splinter sponge squid squirrel starfish surrakar survivor tentacle tetravite thalakos thopter thrull
    tiefling tower treasure treefolk trilobite triskelavite turtle unicorn urza's vedalken vehicle
    viashino volver wall warlock weird werewolf whale wolverine wombat worm wraith yeti zubera
""".split())


STATE_TERMS = {"attacking", "blocking", "tapped", "untapped", "other", "yours", "opponents",
               "token", "nontoken", "legendary", "nonlegendary", "any"}

# Relations of a permanent (or a graveyard) to the effect looking at it.
RELATIONS = ("yours", "notyours", "opponents", "theirs", "chosen", "enchanted")
# Terms that name players as targets, not permanents: each team player and the Horde, or only
# the other side's ("any" is a creature or planeswalker, or one of the other side's players).
PLAYER_TERMS = {"player": "player", "opponent": "opponent", "any": "opponent"}
_COMPARISON = re.compile(r"(mv|power|toughness)(<=|>=|<|>|=)([0-9]+)")
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "=": lambda a, b: a == b,
}


def _compared(m: re.Match[str]) -> int:
    """The number a comparison term (``mv<=3``) compares with: ASCII digits, 0 to ``CARD_PT_MAX``
    (docs/limits.md), else ValueError naming the term."""
    try:
        return whole_number(m[3], 0, CARD_PT_MAX)
    except ValueError as error:
        raise ValueError(f"filter term {quoted(m[0])}: {error}") from None


class Filter:
    """A compiled filter: ``f(game, ctx, permanent)`` answers whether a permanent matches, for the
    effect or static ability ``ctx``. What the rules read of it: ``text``, as written (shown by
    Effect.describe); ``volatile``, it looks at a state that changes without entering or leaving
    (attacking, tapped, a keyword granted until end of turn), so its answers can't be kept;
    ``relation``, the relation shared by every alternative (else None); ``card_only``, only card
    terms (and ``yours`` or no relation): a count can ask the card alone (``_count``); ``by_card``,
    only card terms, ``other`` and a relation to the source's controller: for a permanent that is
    not the source, the answer is its card's and its controller's (horde.engine.characteristics);
    ``players``, the players a target filter names; ``card_ok(card)``, the card terms alone, and
    ``card_answer(card)`` the same answer kept per card."""

    __slots__ = ("text", "volatile", "relation", "card_only", "by_card", "players", "answers")

    def __init__(self, text: str, volatile: bool, relation: str | None, card_only: bool, by_card: bool,
                 players: str | None = None):
        self.text = text
        self.volatile = volatile
        self.relation = relation
        self.card_only = card_only
        self.by_card = by_card
        self.players = players
        self.answers: dict[CardDef, bool] = {}  # card -> whether it passes the card terms

    def __call__(self, game: Game, ctx: Source, permanent: Permanent) -> bool:
        raise NotImplementedError

    def card_ok(self, card: CardDef) -> bool:
        """Whether a card passes the card terms (of one alternative)."""
        raise NotImplementedError

    def card_answer(self, card: CardDef) -> bool:
        """``card_ok(card)``, worked out once per card: a card's terms never change."""
        ok = self.answers.get(card)
        if ok is None:
            ok = self.answers[card] = self.card_ok(card)
        return ok


class Terms(Filter):
    """A filter of one alternative: every term must hold. The card terms are answered once per card."""

    __slots__ = ("card_checks", "state_checks", "other")

    def __init__(self, text: str, card_checks: list[CardCheck], state_checks: list[StateCheck],
                 relation: str | None, other: bool):
        super().__init__(text, volatile=bool(state_checks), relation=relation,
                         card_only=not state_checks and not other and relation in (None, "yours"),
                         by_card=not state_checks and relation in (None, "yours", "opponents"))
        self.card_checks = card_checks
        self.state_checks = state_checks
        self.other = other

    def __call__(self, game: Game, ctx: Source, permanent: Permanent) -> bool:
        card = permanent.card
        ok = self.answers.get(card)
        if ok is None:
            ok = self.answers[card] = self.card_ok(card)
        if not ok:
            return False
        if self.other and permanent is ctx.permanent:
            return False
        relation = self.relation
        if relation is not None:
            if relation == "yours":
                if permanent.controller != ctx.controller:
                    return False  # a teammate's permanents are not "yours"
            elif relation == "opponents":
                if (permanent.controller == HORDE_CONTROLLER) == (ctx.controller == HORDE_CONTROLLER):
                    return False
            elif relation == "notyours":  # 'you don't control': a teammate's too
                if permanent.controller == ctx.controller:
                    return False
            elif relation == "chosen":  # 'the chosen player' of the source (choose_player)
                if permanent.controller != chosen_player(ctx):
                    return False
            elif relation == "theirs":
                if permanent.controller != their_player(ctx):
                    return False
            elif not _enchanted(ctx, permanent):
                return False
        for check in self.state_checks:
            if not check(permanent, game):
                return False
        return True

    def card_ok(self, card: CardDef) -> bool:
        for check in self.card_checks:
            if not check(card):
                return False
        return True


class AnyOf(Filter):
    """A filter of alternatives separated by ``|``: a permanent matches if one of them does."""

    __slots__ = ("alternatives",)

    def __init__(self, text: str, alternatives: list[Terms]):
        relations = {alternative.relation for alternative in alternatives}
        relation = relations.pop() if len(relations) == 1 else None  # shared by every alternative
        super().__init__(text, volatile=any(alternative.volatile for alternative in alternatives),
                         relation=relation,
                         card_only=all(alternative.card_only for alternative in alternatives)
                         and relation in (None, "yours"),
                         by_card=all(alternative.by_card for alternative in alternatives))
        self.alternatives = alternatives

    def __call__(self, game: Game, ctx: Source, permanent: Permanent) -> bool:
        for alternative in self.alternatives:
            if alternative(game, ctx, permanent):
                return True
        return False

    def card_ok(self, card: CardDef) -> bool:
        for alternative in self.alternatives:
            if alternative.card_ok(card):
                return True
        return False


def compile_filter(text: str) -> Filter:
    """Compile a filter such as ``"creature nonzombie opponents"`` to a ``Filter``.

    Every term of an alternative must hold; alternatives are separated by ``|`` ("artifact |
    enchantment": either). Terms: card types (creature, land, ..., instant, sorcery, and
    ``permanent``), ``nonTYPE``, colours and ``nonCOLOUR``, ``colorless``, ``multicolored``,
    ``monocolored``, creature or land subtypes (zombie, ...) and ``nonSUBTYPE``, keywords as
    ``with-flying`` (``without-flying``), comparisons ``mv<=3``, ``power>=4``, ``toughness<2``;
    relations to the effect: ``other`` (not the source), ``yours`` (the same controller),
    ``opponents`` (the other side), ``theirs`` (the player the effect is about: its target player,
    or 'that player'), ``enchanted`` (what the source aura enchants, or the permanents of the
    player it enchants); states ``attacking``, ``blocking``, ``tapped``, ``untapped``, ``token``,
    ``nontoken``, ``legendary``; and the player terms of a target: ``player`` (any team player or
    the Horde), ``opponent`` (the other side's), ``any`` (a creature, a planeswalker or an
    opponent). Raises ValueError naming the first unknown term. The terms about the card alone
    are answered once per card.
    """
    alternatives = [part.strip() for part in text.split("|")]
    if any(not part for part in alternatives):
        raise ValueError("empty alternative in a filter with '|'")
    compiled = [_compile_alternative(part) for part in alternatives]
    players: str | None = None
    for part in alternatives:
        kind = PLAYER_TERMS.get(part.lower())
        if kind is not None and (players is None or kind == "player"):
            players = kind
    matches: Filter = compiled[0] if len(compiled) == 1 else AnyOf(text, compiled)
    matches.text = text
    matches.players = players
    return matches


def _compile_alternative(text: str) -> Terms:
    card_checks: list[CardCheck] = []
    state_checks: list[StateCheck] = []
    relation = None
    other = False
    for term in text.lower().replace(",", " ").split():
        negate = False
        word = term
        if word.startswith("without-"):
            negate, word = True, "with-" + word[len("without-"):]
        elif word.startswith("non") and word not in STATE_TERMS:
            negate, word = True, word[3:].lstrip("-")
        if word in RELATIONS and not negate:
            relation = word
            continue
        if word == "other" and not negate:
            other = True
            continue
        if word in ("player", "opponent") and not negate:
            card_checks.append(_no_card)  # names players, never a permanent
            continue
        card_check = _card_term(word)
        if card_check is not None:
            card_checks.append(_not_card(card_check) if negate else card_check)
            continue
        state_check = _state_term(word)
        if state_check is None or (negate and word in STATE_TERMS):
            raise ValueError(f"unknown filter term '{term}'")
        state_checks.append(_not_state(state_check) if negate else state_check)
    if not card_checks and not state_checks and relation is None and not other:
        raise ValueError("empty filter")
    return Terms(text, card_checks, state_checks, relation, other)


def their_player(ctx: Source) -> int | None:
    """The player an effect is about ('target player', 'that player'): its chosen target when
    that is a player (the Horde is ``HORDE_CONTROLLER``), else its ``that_player``."""
    target = getattr(ctx, "target", None)
    if isinstance(target, int) and not isinstance(target, bool):
        return target
    if target == "horde":
        return HORDE_CONTROLLER
    return getattr(ctx, "that_player", None)


def _enchanted(ctx: Source, permanent: Permanent) -> bool:
    """What the source aura enchants: that permanent, or the permanents of the player it enchants."""
    source = ctx.permanent
    if source is None:
        return False
    if source.attached_to is not None:
        return permanent is source.attached_to
    return source.attached_player is not None and permanent.controller == source.attached_player


def _no_card(card: CardDef) -> bool:
    return False


def _not_card(check: CardCheck) -> CardCheck:
    return lambda card: not check(card)


def _not_state(check: StateCheck) -> StateCheck:
    return lambda p, game: not check(p, game)


def _card_term(word: str) -> CardCheck | None:
    """A check on the card alone (its types, colours, subtypes, supertypes, mana value)."""
    if word in TYPE_TERMS:
        kind = TYPE_TERMS[word]
        return lambda card: kind in card.types
    if word in COLOUR_TERMS:
        colour = COLOUR_TERMS[word]
        return lambda card: colour in card.colours
    if word in SUBTYPE_TERMS:
        subtype = word.capitalize()
        return lambda card: subtype in card.subtypes
    m = _COMPARISON.fullmatch(word)
    if m and m[1] == "mv":
        compare, value = _COMPARE[m[2]], _compared(m)
        return lambda card: compare(card.mana_value, value)
    return {
        "card": lambda card: True,  # any card ("cards in your graveyard": graveyard:card yours)
        # "any target": a creature or planeswalker here; players and the Horde are added by the rules.
        "any": lambda card: card.is_creature or "Planeswalker" in card.types,
        "permanent": lambda card: card.is_permanent,
        "colorless": lambda card: not card.colours,
        "multicolored": lambda card: len(card.colours) > 1,
        "monocolored": lambda card: len(card.colours) == 1,
        "token": lambda card: card.is_token,
        "nontoken": lambda card: not card.is_token,
        "legendary": lambda card: "Legendary" in card.supertypes,
        "basic": lambda card: "Basic" in card.supertypes,
        "nonlegendary": lambda card: "Legendary" not in card.supertypes,
        "elite": lambda card: "Elite" in card.supertypes,
    }.get(word)


def _state_term(word: str) -> StateCheck | None:
    """A check on the permanent's state in the game, ``f(permanent, game)``."""
    if word.startswith("with-"):
        keyword = word[5:].replace("-", " ")
        if keyword not in KEYWORDS:
            return None  # a typo (with-flyng) would match nothing: refused as an unknown term
        return lambda p, g: has_keyword(g, p, keyword)
    m = _COMPARISON.fullmatch(word)
    if m:
        compare, value = _COMPARE[m[2]], _compared(m)
        if m[1] == "power":
            return lambda p, g: compare(power(g, p), value)
        return lambda p, g: compare(toughness(g, p), value)
    return {
        "attacking": lambda p, g: p.attacking,
        "blocking": lambda p, g: p.blocked and not p.attacking,
        "tapped": lambda p, g: p.tapped,
        "untapped": lambda p, g: not p.tapped,
    }.get(word)


def card_matches(filter_text: str, card: CardDef) -> bool:
    """Whether a card (not a permanent: in a graveyard or library) matches a filter's card terms
    (one of its ``|`` alternatives)."""
    answers = _CARD_ANSWERS.get(filter_text)
    if answers is None:
        answers = _CARD_ANSWERS[filter_text] = {}
    ok = answers.get(card)
    if ok is None:
        check = _CARD_FILTERS.get(filter_text)
        if check is None:
            check = _CARD_FILTERS[filter_text] = _compile_card_filter(filter_text)
        ok = answers[card] = check(card)
    return ok


def _compile_card_filter(text: str) -> CardFilter:
    return CardFilter([part.lower().split() for part in text.split("|")])


class CardFilter:
    """The card terms of a filter, for a card outside the battlefield: ``f(card)`` holds when every
    term of one of its ``|`` alternatives does (relations and states do not apply)."""

    __slots__ = ("alternatives",)

    def __init__(self, alternatives: list[list[str]]):
        self.alternatives = alternatives  # each the lower-case terms of one alternative

    def __call__(self, card: CardDef) -> bool:
        for terms in self.alternatives:
            if _card_terms_hold(terms, card):
                return True
        return False


def _card_terms_hold(terms: list[str], card: CardDef) -> bool:
    for term in terms:
        negate = term.startswith("non") and term not in STATE_TERMS
        word = term[3:].lstrip("-") if negate else term
        if word.startswith("without-"):
            negate, word = True, "with-" + word[len("without-"):]
        if word in TYPE_TERMS:
            hit = TYPE_TERMS[word] in card.types
        elif word in COLOUR_TERMS:
            hit = COLOUR_TERMS[word] in card.colours
        elif word in SUBTYPE_TERMS:
            hit = word.capitalize() in card.subtypes
        elif word == "basic":
            hit = "Basic" in card.supertypes
        elif word == "permanent":
            hit = card.is_permanent
        elif word.startswith("with-"):
            hit = word[5:].replace("-", " ") in card.keywords  # a card's printed keywords
        elif word.startswith("mv"):
            m = _COMPARISON.fullmatch(word)
            hit = m is None or _COMPARE[m[2]](card.mana_value, _compared(m))
        elif word == "elite":
            hit = "Elite" in card.supertypes
        else:
            hit = True  # relations and states do not apply to cards outside the battlefield
        if hit == negate:
            return False
    return True


_CARD_FILTERS: dict[str, CardFilter] = {}
_CARD_ANSWERS: dict[str, dict[CardDef, bool]] = {}  # filter text -> card -> its answer (cards never change)


# ---------------------------------------------------------------- amounts
# An amount is a whole number or an expression: terms joined by '+', each an optional 'N*'
# factor and one of: a whole number; X (paid for the spell; the Horde's horde_x: H7); kicked
# (how many times the spell was kicked); charge (the charge counters on the source: Everflowing
# Chalice); opponents (the source's controller's opponents: the team players for the Horde, the
# Horde alone for a team player: docs/decisions.md); count:FILTER (permanents on the battlefield);
# graveyard:FILTER and hand:FILTER (cards, never token cards: docs/decisions.md; the relations
# yours, opponents and theirs choose whose zone, none means every player's); graveyard_types:FILTER
# (how many card types among those cards: Tarmogoyf); exiled, exiled_power, exiled_toughness (the
# cards the source permanent's ability exiled, 607.2a: Sutured Ghoul); the whole optionally
# 'half:' (rounded down). Named amounts of earlier card files are aliases.
AMOUNT_ALIASES = {
    "zombies_you_control": "count:zombie yours",
    "half_zombies_you_control": "half:count:zombie yours",
    "other_zombies_you_control_and_zombie_cards_in_your_graveyard": "count:zombie other yours+graveyard:zombie yours",
    "zombies_on_battlefield_and_zombie_cards_in_graveyards": "count:zombie+graveyard:zombie",
    "creatures_you_control": "count:creature yours",
    "cards_in_hand": "hand:yours",
    "heads_on_battlefield": "count:head",  # Face the Hydra's Heads (F)
    "revelers_on_battlefield": "count:reveler",  # Defeat a God's Revelers (G)
}


def _exiled_with(ctx: Source) -> tuple[CardDef, ...]:
    """The cards the source permanent's own ability exiled (607.2a: "the exiled cards")."""
    source = ctx.permanent
    return () if source is None else source.exiled_with


def card_power(game: Game, card: CardDef, controller: int) -> int:
    """A card's power outside the battlefield: printed, its characteristic-defining ability's *
    counted too (604.3: it works in every zone); 0 for a card that is no creature."""
    if card.power is None:
        return 0
    amount = card.power_amount
    return card.power + (0 if amount is None else evaluate(game, Context(card, None, controller), amount))


def card_toughness(game: Game, card: CardDef, controller: int) -> int:
    """A card's toughness outside the battlefield (as ``card_power``)."""
    if card.toughness is None:
        return 0
    amount = card.toughness_amount
    return card.toughness + (0 if amount is None else evaluate(game, Context(card, None, controller), amount))


def _charge(p: Permanent | None) -> int:
    """The charge counters on an amount's source (none without a permanent)."""
    return p.charge if p is not None else 0


AMOUNT_ATOMS: dict[str, TermFunction] = {
    "X": lambda g, x: x.x,
    "kicked": lambda g, x: getattr(x, "kicked", 0),
    "team_players": lambda g, x: len(g.players),
    # 607.2a: the cards exiled with the source permanent ("the exiled cards"), their total power and toughness
    "exiled": lambda g, x: len(_exiled_with(x)),
    "exiled_power": lambda g, x: sum(card_power(g, c, x.controller) for c in _exiled_with(x)),
    "exiled_toughness": lambda g, x: sum(card_toughness(g, c, x.controller) for c in _exiled_with(x)),
    "charge": lambda g, x: _charge(getattr(x, "permanent", None)),
    "opponents": lambda g, x: len(g.players) if x.controller == HORDE_CONTROLLER else 1,
    # References back (608.2h): what an earlier verb of the same resolution acted on ('it': its
    # power, toughness or mana value as it last existed), or how many objects it moved ('this way').
    "it:power": lambda g, x: _it_value(g, x, "power"),
    "it:toughness": lambda g, x: _it_value(g, x, "toughness"),
    "it:mv": lambda g, x: _it_value(g, x, "mv"),
    "this_way": lambda g, x: len(getattr(x, "moved", None) or ()),
}
AMOUNTS = set(AMOUNT_ALIASES) | set(AMOUNT_ATOMS)  # the names an amount may be (besides expressions)
AMOUNT_KINDS = ("count", "graveyard", "hand", "graveyard_types")
# The card types (205.2a) ``graveyard_types`` counts among cards (Tarmogoyf's "card types among cards").
CARD_TYPE_NAMES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
                             "Planeswalker", "Sorcery"})


class AmountFunction:
    """A compiled amount that is not a whole number: ``f(game, ctx)``, the sum of its terms (halved
    and rounded down for ``half:``). ``text`` is the expression it was compiled from, or the name
    written (shown by Effect.describe); a named amount's ``canonical`` is the expression it stands
    for (compared by horde.cards.catalogue.behaviour), else None."""

    __slots__ = ("text", "terms", "half", "canonical")

    def __init__(self, text: str, terms: list[TermFunction], half: bool = False, canonical: str | None = None):
        self.text = text
        self.terms = terms
        self.half = half
        self.canonical = canonical

    def __call__(self, game: Game, ctx: Source) -> int:
        total = 0
        for term in self.terms:
            total += term(game, ctx)
        return total // 2 if self.half else total


Amount = int | AmountFunction  # a compiled amount


NumberReader = Callable[[str], int]  # reads one number of an amount or condition, within its bounds
_NUMBER = re.compile(r"[+\-\u2212]?[\w.,]*[0-9][\w.,]*")  # a term meant as a number ("3", "-1", "2.5")


def amount_number(text: str) -> int:
    """A number of an amount or a condition that no caller bounds: ASCII digits, 0 to
    ``CARD_AMOUNT_MAX`` (a card file's numbers are read by ``horde.cards.catalogue.card_number``)."""
    return whole_number(text, 0, CARD_AMOUNT_MAX)


def _is_number(text: str) -> bool:
    return text.isdigit() or bool(_NUMBER.fullmatch(text) and ":" not in text and text not in AMOUNT_ATOMS)


def compile_amount(value: object, number: NumberReader = amount_number) -> Amount:
    """An amount is a whole number, a named amount or an expression (above); returns the int or
    an ``AmountFunction`` whose ``text`` is the expression it was compiled from. Every
    number written in it (a whole amount, a term, a factor) is read by ``number``, which checks
    its bounds (docs/limits.md)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return number(str(value))
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected a whole number or an amount, got {quoted(value)}")
    alias = AMOUNT_ALIASES.get(value)
    if alias is not None:
        named = compile_amount(alias, number)
        assert isinstance(named, AmountFunction)  # no alias is a number
        return AmountFunction(value, named.terms, named.half, canonical=alias)
    text = value.strip()
    if _is_number(text):
        return number(text)
    if text in AMOUNT_ATOMS:
        return AmountFunction(text, [AMOUNT_ATOMS[text]])
    half = text.startswith("half:")
    body = text[len("half:"):] if half else text
    return AmountFunction(text, [_amount_term(part.strip(), value, number) for part in body.split("+")], half)


def _amount_term(text: str, whole: object, number: NumberReader) -> TermFunction:
    factor = 1
    m = re.fullmatch(r"([^*]+?)\s*\*\s*(.+)", text)
    if m and _is_number(m[1]):
        factor, text = number(m[1]), m[2].strip()
    if _is_number(text):
        constant = number(text) * factor
        return lambda g, x: constant
    atom = AMOUNT_ATOMS.get(text)
    kind, sep, flt = text.partition(":")
    if atom is None and (not sep or kind not in AMOUNT_KINDS):
        raise ValueError(f"expected a whole number, X, kicked, {', '.join(k + ':FILTER' for k in AMOUNT_KINDS)} "
                         f"or one of {', '.join(sorted(AMOUNT_ALIASES))}, got {quoted(whole)}")
    if atom is None:
        atom = _count(kind, flt.strip())
    if factor == 1:
        return atom
    base = atom
    return lambda g, x: factor * base(g, x)


def _count(kind: str, text: str) -> TermFunction:
    compiled = compile_filter(text)  # checks every term
    relation = compiled.relation
    if kind == "count":
        yours = relation == "yours"  # only the controller's board
        if compiled.card_only:  # the answer is the card's: kept per card
            card_ok = compiled.card_ok
            answers: dict[CardDef, bool] = {}

            def permanents(game: Game, ctx: Source) -> int:
                total = 0
                table = game.drivers.team_side is not None and not yours
                for board in ((board_of(game, ctx.controller),) if yours else
                              (game.battlefield.horde,) if table else
                              (game.battlefield.team, game.battlefield.horde)):
                    for p in board:
                        card = p.card
                        try:
                            if answers[card]:
                                total += 1
                        except KeyError:
                            if card_ok(card):
                                total += 1
                                answers[card] = True
                            else:
                                answers[card] = False
                if table:
                    total += _team_part(game, ctx, kind, text, relation)
                return total

            return permanents
        if yours:
            return lambda g, x: sum(1 for p in board_of(g, x.controller) if compiled(g, x, p))

        def matching(game: Game, ctx: Source) -> int:
            if game.drivers.team_side is not None:
                return (sum(1 for p in game.battlefield.horde if compiled(game, ctx, p))
                        + _team_part(game, ctx, kind, text, relation))
            return sum(1 for board in (game.battlefield.team, game.battlefield.horde) for p in board
                       if compiled(game, ctx, p))

        return matching
    zone = hand_of if kind == "hand" else graveyard_of
    other = "other" in text.lower().split()  # not the card of the effect itself ('each other creature card')
    check = _compile_card_filter(text)
    counted: dict[CardDef, bool] = {}  # card -> whether it counts (a token card never does)

    def matching_cards(game: Game, ctx: Source) -> list[CardDef]:
        """The cards of the zones counted that match, one entry a card."""
        found: list[CardDef] = []
        table = game.drivers.team_side is not None
        for player in _whose(game, ctx, relation):
            if table and player != HORDE_CONTROLLER:
                continue  # at a table the team's cards are unknown: its players count them (below)
            for card in zone(game, player):
                try:
                    ok = counted[card]
                except KeyError:
                    ok = counted[card] = not card.is_token and check(card)
                if ok:
                    found.append(card)
        return found

    if kind == "graveyard_types":

        def types(game: Game, ctx: Source) -> int:
            found: set[str] = set()
            for card in matching_cards(game, ctx):
                found |= card.types
            return len(found & CARD_TYPE_NAMES)

        return types

    def cards(game: Game, ctx: Source) -> int:
        found = matching_cards(game, ctx)
        itself = getattr(ctx, "card", None) if other else None
        total = len(found) - 1 if itself is not None and any(card is itself for card in found) else len(found)
        if game.drivers.team_side is not None:
            total += _team_part(game, ctx, kind, text, relation)
        return total

    return cards


def _team_part(game: Game, ctx: Source, kind: str, text: str, relation: str | None) -> int:
    """At a table (``drivers.team_side``): the team's part of a count, as its players give it (the
    engine knows the Horde's cards, not the team's)."""
    team_side = game.drivers.team_side
    players = [p for p in _whose(game, ctx, relation) if p != HORDE_CONTROLLER and not game.players[p].removed]
    if team_side is None or not players:
        return 0
    return sum(team_side.counts(game, ctx, kind, text, players))


def chosen_player(ctx: Any) -> int | None:
    """The player the source chose as it entered (``choose_player``), or None."""
    source = getattr(ctx, "permanent", None)
    marks = source.marks if source is not None else None
    return None if marks is None else marks.get("player")


def _whose(game: Game, ctx: Source, relation: str | None) -> list[int]:
    """Whose graveyards or hands an amount counts: the controller's, the other side's, the
    player the effect is about, or everyone's."""
    team = [pl.index for pl in game.players]
    if relation == "yours":
        return [ctx.controller]
    if relation == "opponents":
        return team if ctx.controller == HORDE_CONTROLLER else [HORDE_CONTROLLER]
    if relation == "notyours":
        return [i for i in team + [HORDE_CONTROLLER] if i != ctx.controller]
    if relation == "chosen":
        chosen = chosen_player(ctx)
        return [] if chosen is None else [chosen]
    if relation == "theirs":
        player = their_player(ctx)
        return [] if player is None else [player]
    return team + [HORDE_CONTROLLER]


def evaluate(game: Game, ctx: Source, value: Amount) -> int:
    """Evaluate a compiled amount."""
    return value if isinstance(value, int) else value(game, ctx)


# ---------------------------------------------------------------- the context of one resolution
class Known:
    """An object an earlier verb of a resolution acted on, as it last existed there (608.2h: last
    known information): the permanent (None for a card that was never one: a card searched for,
    discarded or exiled from a graveyard), its card, controller and owner, and a permanent's
    power and toughness when the verb met it (a creature exiled keeps the power it had: Swords to
    Plowshares). ``it:power`` and the other references of an amount read it."""

    __slots__ = ("permanent", "card", "controller", "owner", "power", "toughness")

    def __init__(self, permanent: Permanent | None, card: CardDef, controller: int, owner: int, power: int = 0,
                 toughness: int = 0):
        self.permanent = permanent
        self.card = card
        self.controller = controller
        self.owner = owner
        self.power = power
        self.toughness = toughness


def known_permanent(game: Game, p: Permanent) -> Known:
    """A permanent as it is now, kept for the verbs after the one that acts on it (608.2h)."""
    return Known(p, p.card, p.controller, p.owner, power(game, p), toughness(game, p))


def _it_value(game: Game, ctx: Source, what: str) -> int:
    """'Its power' ('toughness', 'mana value'): of what an earlier verb of this resolution acted
    on, as it last existed (608.2h); with none, of the permanent the ability targets, as it is now."""
    it = getattr(ctx, "it", None)
    if it is None:
        target = getattr(ctx, "target", None)
        if not isinstance(target, Permanent):
            return 0
        it = known_permanent(game, target)
    if what == "mv":
        return it.card.mana_value
    if it.card.power is None:
        return 0  # not a creature
    return it.power if what == "power" else it.toughness


class Context:
    """Who is doing what: the source, its controller, the chosen target, the X paid, how many
    times the spell was kicked, for 'each player' triggers the player concerned
    (``that_player``), and whether the last 'may' verb of the ability was done (``done``: 'if
    you do', 'if a player does'). What the ability's verbs have acted on so far, for the verbs
    after them (references back: 'it', 'that creature', 'the exiled card', 'this way'):
    ``it``, the last object one acted on (``Known``), and ``moved``, every card they moved from
    one zone to another, each (card, owner, zone it went to) (None until one moves a card)."""

    __slots__ = ("card", "permanent", "controller", "target", "x", "that_player", "spell", "caster", "kicked",
                 "done", "it", "moved", "paid")

    def __init__(self, card: CardDef | None, permanent: Permanent | None, controller: int,
                 target: Target | None = None, x: int = 0, that_player: int | None = None, kicked: int = 0):
        self.card = card
        self.permanent = permanent
        self.controller = controller
        self.target = target
        self.x = x
        self.that_player = that_player
        self.spell: CardDef | None = None  # the spell being countered or targeting
        self.caster: int | None = None  # the controller of the spell that targeted (Targeted hook)
        self.kicked = kicked  # times the spell (or the permanent's spell) was kicked
        self.done = False  # the last 'may' verb of this ability did it
        self.it: Known | None = None  # what the last verb that acted on one object acted on
        self.moved: list[tuple[CardDef, int, str]] | None = None  # (card, owner, zone) moved this way
        # The cards paying the ability's costs moved (a creature sacrificed, this exiled): its targets
        # were chosen before its costs were paid (601.2c, 601.2h), so none of them can be one
        self.paid: tuple[CardDef, ...] = ()

    def remember(self, known: Known) -> None:
        """An earlier verb acted on this object: 'it' for the verbs after it."""
        self.it = known

    def moved_card(self, card: CardDef, owner: int, zone: str) -> None:
        """An earlier verb moved this card to ``zone`` ('graveyard', 'exile', 'hand', 'library',
        'battlefield'): a card moved 'this way'."""
        if self.moved is None:
            self.moved = []
        self.moved.append((card, owner, zone))

    @property
    def is_horde(self) -> bool:
        return self.controller == HORDE_CONTROLLER


# ---------------------------------------------------------------- conditions
_CONDITION = re.compile(r"(.+?)\s+(<=|>=|<|>|=)\s+(\S+)")


class Condition:
    """A compiled condition of an effect: ``f(game, ctx)`` holds when the effect happens. ``text``
    is what was written, with its key (``if=done``, ``unless=hand:yours <= 1``)."""

    __slots__ = ("text", "amount", "compare", "limit", "negate", "op")

    def __init__(self, text: str, amount: Amount | None, compare: Callable[[int, int], bool], limit: int,
                 negate: bool, op: str = ">"):
        self.text = text
        self.amount = amount  # None: 'done'
        self.compare = compare
        self.limit = limit
        self.negate = negate
        self.op = op  # the comparison written ('>' when none is)

    def __call__(self, game: Game, ctx: Context) -> bool:
        if self.amount is None:
            return ctx.done != self.negate
        team_side = game.drivers.team_side
        if team_side is not None and not isinstance(self.amount, int):
            decided = team_side.decided(game, ctx, self)  # at a table: the Horde's part may settle it
            if decided is not None:
                return decided
        return self.compare(evaluate(game, ctx, self.amount), self.limit) != self.negate

    def at_least(self, low: int) -> bool | None:
        """The condition's answer when its amount is ``low`` or more, if that settles it (a count
        the team's part can only add to), else None."""
        if self.op in (">", ">="):
            return (not self.negate) if self.compare(low, self.limit) else None
        if self.op in ("<", "<="):
            return None if self.compare(low, self.limit) else self.negate
        return None


def compile_condition(text: str, negate: bool = False, number: NumberReader = amount_number) -> Condition:
    """A condition of an effect (``if=...``, or ``unless=...`` with ``negate``): ``done`` (the
    ability's last 'may' verb was done: 'if you do'), or an amount, true when more than 0, or
    compared with a number: ``"hand:yours <= 1"`` (spaces around the comparison). Its numbers are
    read by ``number`` (as ``compile_amount``'s)."""
    text = text.strip()
    written = f"{'unless' if negate else 'if'}={text}"
    if text == "done":
        return Condition(written, None, _COMPARE[">"], 0, negate)
    m = _CONDITION.fullmatch(text)
    amount = compile_amount(m[1].strip() if m else text, number)
    return Condition(written, amount, _COMPARE[m[2]] if m else _COMPARE[">"], number(m[3]) if m else 0, negate,
                     m[2] if m else ">")
