"""Filters, amounts and the context of one resolution: the small functions a card's arguments are
compiled into at load, and who is doing what when an effect runs.

A filter (``"creature nonzombie opponents"``) becomes ``f(game, ctx, permanent)``; a card filter
answers for a card outside the battlefield; an amount (``2``, ``"X"``, ``"zombies_you_control"``)
becomes an int or ``f(game, ctx)``. ``Context`` carries the source, its controller, the chosen
target and the X paid. This module sits below the rules and the verbs: both use it, and it reads
the game only through ``horde.characteristics``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from horde.cards import CardDef
from horde.characteristics import board_of, graveyard_of, hand_of, has_keyword
from horde.state import HORDE_CONTROLLER, Game, Permanent


class Source(Protocol):
    """Whose effect or static ability is being looked at: a ``Context``, or a permanent, which is
    its own context for its static abilities."""

    @property
    def permanent(self) -> Permanent | None: ...

    @property
    def controller(self) -> int: ...

    @property
    def x(self) -> int: ...


Filter = Callable[[Game, Source, Permanent], bool]  # a compiled filter: does this permanent match?
CardFilter = Callable[[CardDef], bool]  # the card terms of a filter, for a card outside the battlefield
AmountFunction = Callable[[Game, Source], int]
Amount = int | AmountFunction  # a compiled amount
Target = Permanent | int | str  # what an effect targets: a permanent, a team player's index, or "horde"
CardCheck = Callable[[CardDef], bool]
StateCheck = Callable[[Permanent, Game], bool]


# ---------------------------------------------------------------- filters
TYPE_TERMS = {
    "creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment",
    "planeswalker": "Planeswalker",
}


COLOUR_TERMS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


SUBTYPE_TERMS = {
    "zombie", "skeleton", "army", "giant", "human", "soldier", "spirit", "vampire", "warrior",
    "wizard", "knight", "elf", "goblin", "dragon", "angel", "beast", "horror", "cleric", "rogue",
    "shaman", "druid", "elemental", "wurm", "hydra", "dinosaur", "cat", "bird", "wolf", "saproling",
    "insect", "merfolk", "demon", "devil", "sliver", "ally", "gnome", "golem", "construct", "minion",
    "swamp", "forest", "island", "mountain", "plains", "equipment", "aura",
    "head", "minotaur", "reveler", "god", "satyr", "nymph", "centaur",
}


STATE_TERMS = {"attacking", "blocking", "tapped", "untapped", "other", "yours", "opponents",
               "token", "nontoken", "legendary", "nonlegendary", "any"}


def compile_filter(text: str) -> Filter:
    """Compile a filter such as ``"creature nonzombie opponents"`` to ``f(game, ctx, permanent)``.

    Every term must hold. Terms: card types (creature, land, ...), ``nonTYPE``, colours and
    ``nonCOLOUR``, creature or land subtypes (zombie, ...) and ``nonSUBTYPE``, keywords as
    ``with-flying``, and relations to the effect: ``other`` (not the source), ``yours`` (the
    same controller), ``opponents`` (the other side); states ``attacking``, ``blocking``,
    ``tapped``, ``untapped``, ``token``, ``nontoken``, ``legendary``. Raises ValueError naming
    the first unknown term. The terms about the card alone are answered once per card.
    """
    card_checks: list[CardCheck] = []
    state_checks: list[StateCheck] = []
    relation = None
    other = False
    for term in text.lower().replace(",", " ").split():
        negate = False
        word = term
        if word.startswith("non") and word not in STATE_TERMS:
            negate, word = True, word[3:].lstrip("-")
        if word in ("yours", "opponents") and not negate:
            relation = word
            continue
        if word == "other" and not negate:
            other = True
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
    return CompiledFilter(text, card_checks, state_checks, relation, other)


class CompiledFilter:
    """A compiled filter, called as ``f(game, ctx, permanent)``; ``text`` is its source (shown by
    Effect.describe). A filter that looks at a state that changes without entering or leaving
    (attacking, tapped, a keyword granted until end of turn) is ``volatile``: its answers can't be kept."""

    __slots__ = ("text", "volatile", "card_checks", "state_checks", "relation", "other", "answers")

    def __init__(self, text: str, card_checks: list[CardCheck], state_checks: list[StateCheck],
                 relation: str | None, other: bool):
        self.text = text
        self.volatile = bool(state_checks)
        self.card_checks = card_checks
        self.state_checks = state_checks
        self.relation = relation
        self.other = other
        self.answers: dict[CardDef, bool] = {}  # card -> whether it passes the card terms

    def __call__(self, game: Game, ctx: Source, permanent: Permanent) -> bool:
        card = permanent.card
        ok = self.answers.get(card)
        if ok is None:
            ok = self.answers[card] = all(check(card) for check in self.card_checks)
        if not ok:
            return False
        if self.other and permanent is ctx.permanent:
            return False
        relation = self.relation
        if relation is not None:
            if relation == "yours":
                if permanent.controller != ctx.controller:
                    return False  # a teammate's permanents are not "yours"
            elif (permanent.controller == HORDE_CONTROLLER) == (ctx.controller == HORDE_CONTROLLER):
                return False
        for check in self.state_checks:
            if not check(permanent, game):
                return False
        return True


def _not_card(check: CardCheck) -> CardCheck:
    return lambda card: not check(card)


def _not_state(check: StateCheck) -> StateCheck:
    return lambda p, game: not check(p, game)


def _card_term(word: str) -> CardCheck | None:
    """A check on the card alone (its types, colours, subtypes, supertypes)."""
    if word in TYPE_TERMS:
        kind = TYPE_TERMS[word]
        return lambda card: kind in card.types
    if word in COLOUR_TERMS:
        colour = COLOUR_TERMS[word]
        return lambda card: colour in card.colours
    if word == "colorless":
        return lambda card: not card.colours
    if word in SUBTYPE_TERMS:
        subtype = word.capitalize()
        return lambda card: subtype in card.subtypes
    return {
        # "any target": a creature or planeswalker here; players and the Horde are added by the rules.
        "any": lambda card: card.is_creature or "Planeswalker" in card.types,
        "token": lambda card: card.is_token,
        "nontoken": lambda card: not card.is_token,
        "legendary": lambda card: "Legendary" in card.supertypes,
        "nonlegendary": lambda card: "Legendary" not in card.supertypes,
        "elite": lambda card: "Elite" in card.supertypes,
    }.get(word)


def _state_term(word: str) -> StateCheck | None:
    """A check on the permanent's state in the game, ``f(permanent, game)``."""
    if word.startswith("with-"):
        keyword = word[5:].replace("-", " ")
        return lambda p, g: has_keyword(g, p, keyword)
    return {
        "attacking": lambda p, g: p.attacking,
        "blocking": lambda p, g: p.blocked and not p.attacking,
        "tapped": lambda p, g: p.tapped,
        "untapped": lambda p, g: not p.tapped,
    }.get(word)


def card_matches(filter_text: str, card: CardDef) -> bool:
    """Whether a card (not a permanent: in a graveyard or library) matches a filter's card terms."""
    return _CARD_FILTERS.setdefault(filter_text, _compile_card_filter(filter_text))(card)


def _compile_card_filter(text: str) -> CardFilter:
    terms = text.lower().split()

    def matches(card: CardDef) -> bool:
        for term in terms:
            negate = term.startswith("non") and term not in STATE_TERMS
            word = term[3:].lstrip("-") if negate else term
            if word in TYPE_TERMS:
                hit = TYPE_TERMS[word] in card.types
            elif word in COLOUR_TERMS:
                hit = COLOUR_TERMS[word] in card.colours
            elif word in SUBTYPE_TERMS:
                hit = word.capitalize() in card.subtypes
            elif word == "basic":
                hit = "Basic" in card.supertypes
            elif word == "elite":
                hit = "Elite" in card.supertypes
            else:
                hit = True  # relations and states do not apply to cards outside the battlefield
            if hit == negate:
                return False
        return True

    return matches


_CARD_FILTERS: dict[str, CardFilter] = {}


# ---------------------------------------------------------------- amounts
def _zombies_you_control(game: Game, ctx: Source) -> int:
    return sum(1 for p in board_of(game, ctx.controller) if "Zombie" in p.card.subtypes)


def _zombie_cards_in_your_graveyard(game: Game, ctx: Source) -> int:
    return sum(1 for c in graveyard_of(game, ctx.controller) if "Zombie" in c.subtypes and not c.is_token)


AMOUNTS: dict[str, AmountFunction] = {
    "X": lambda g, x: x.x,
    "zombies_you_control": _zombies_you_control,
    "half_zombies_you_control": lambda g, x: _zombies_you_control(g, x) // 2,
    "other_zombies_you_control_and_zombie_cards_in_your_graveyard":
        lambda g, x: _zombies_you_control(g, x) - (1 if x.permanent is not None and "Zombie" in x.permanent.card.subtypes
                                                   and x.permanent in board_of(g, x.controller) else 0)
        + _zombie_cards_in_your_graveyard(g, x),
    "zombies_on_battlefield_and_zombie_cards_in_graveyards": lambda g, x: (
        sum(1 for p in g.battlefield.team if "Zombie" in p.card.subtypes)
        + sum(1 for p in g.battlefield.horde if "Zombie" in p.card.subtypes)
        + sum(1 for c in g.horde.graveyard if "Zombie" in c.subtypes and not c.is_token)
        + sum(1 for pl in g.players for c in pl.graveyard if "Zombie" in c.subtypes)),
    "creatures_you_control": lambda g, x: sum(1 for p in board_of(g, x.controller) if p.card.is_creature),
    "cards_in_hand": lambda g, x: len(hand_of(g, x.controller)),
    "team_players": lambda g, x: len(g.players),
    "heads_on_battlefield": lambda g, x: sum(1 for p in g.battlefield.horde if "Head" in p.card.subtypes),
    "revelers_on_battlefield": lambda g, x: sum(1 for p in g.battlefield.horde + g.battlefield.team
                                                if "Reveler" in p.card.subtypes),
}


class NamedAmount:
    """An amount function with its name (``text``, shown by Effect.describe)."""

    __slots__ = ("text", "function")

    def __init__(self, text: str, function: AmountFunction):
        self.text = text
        self.function = function

    def __call__(self, game: Game, ctx: Source) -> int:
        return self.function(game, ctx)


AMOUNTS.update({_name: NamedAmount(_name, _function) for _name, _function in AMOUNTS.items()})


def compile_amount(value: object) -> Amount:
    """An amount is a whole number or one of ``AMOUNTS``; returns the int or a function."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"negative amount {value}")
        return value
    if isinstance(value, str) and value in AMOUNTS:
        return AMOUNTS[value]
    raise ValueError(f"expected a whole number or one of {', '.join(sorted(AMOUNTS))}, got '{value}'")


def evaluate(game: Game, ctx: Source, value: Amount) -> int:
    """Evaluate a compiled amount."""
    return value if isinstance(value, int) else value(game, ctx)


# ---------------------------------------------------------------- the context of one resolution
class Context:
    """Who is doing what: the source, its controller, the chosen target, the X paid, and for
    'each player' triggers the player concerned (``that_player``)."""

    __slots__ = ("card", "permanent", "controller", "target", "x", "that_player", "spell", "caster")

    def __init__(self, card: CardDef | None, permanent: Permanent | None, controller: int,
                 target: Target | None = None, x: int = 0, that_player: int | None = None):
        self.card = card
        self.permanent = permanent
        self.controller = controller
        self.target = target
        self.x = x
        self.that_player = that_player
        self.spell: CardDef | None = None  # the spell being countered or targeting
        self.caster: int | None = None  # the controller of the spell that targeted (Targeted hook)

    @property
    def is_horde(self) -> bool:
        return self.controller == HORDE_CONTROLLER
