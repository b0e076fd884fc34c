"""The closed verb vocabulary: every card behaviour is one of these verbs with checked arguments.

Each verb is a small function ``verb(game, ctx, **args)`` with a one-line docstring and a
declared argument spec; ``horde.catalogue`` checks every verb and argument of every card at
load, so an unknown verb, a missing argument or a value of the wrong kind fails loudly there.
Filters (``"creature nonzombie opponents"``) and amounts (``2``, ``"X"``,
``"zombies_you_control"``) are compiled once at load into small functions. The AI that decides
*whether* to use a card lives in ``horde.policies``, never here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from horde import rules
from horde.state import HORDE_CONTROLLER

# Decision: the token cards of a Horde deck that are milled or discarded lie in the Horde's
# graveyard only as counts of what left the library; they are not cards for effects (a
# token is not a card), so nothing returns them and nothing counts them as Zombie cards.

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
}
STATE_TERMS = {"attacking", "blocking", "tapped", "untapped", "other", "yours", "opponents",
               "token", "nontoken", "legendary", "nonlegendary", "any"}


def compile_filter(text: str) -> Callable:
    """Compile a filter such as ``"creature nonzombie opponents"`` to ``f(game, ctx, permanent)``.

    Every term must hold. Terms: card types (creature, land, ...), ``nonTYPE``, colours and
    ``nonCOLOUR``, creature or land subtypes (zombie, ...) and ``nonSUBTYPE``, keywords as
    ``with-flying``, and relations to the effect: ``other`` (not the source), ``yours`` (the
    same controller), ``opponents`` (the other side); states ``attacking``, ``blocking``,
    ``tapped``, ``untapped``, ``token``, ``nontoken``, ``legendary``. Raises ValueError naming
    the first unknown term. The terms about the card alone are answered once per card.
    """
    card_checks: list[Callable] = []
    state_checks: list[Callable] = []
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
        check = _card_term(word)
        target = card_checks
        if check is None:
            check = _state_term(word)
            target = state_checks
        if check is None or (negate and word in STATE_TERMS):
            raise ValueError(f"unknown filter term '{term}'")
        if negate:
            check = ((lambda c: lambda p: not c(p)) if target is card_checks else (lambda c: lambda p, g: not c(p, g)))(check)
        target.append(check)
    if not card_checks and not state_checks and relation is None and not other:
        raise ValueError("empty filter")
    answers: dict = {}  # card -> whether it passes the card terms

    def matches(game, ctx, permanent) -> bool:
        card = permanent.card
        ok = answers.get(card)
        if ok is None:
            ok = answers[card] = all(check(card) for check in card_checks)
        if not ok:
            return False
        if other and permanent is ctx.permanent:
            return False
        if relation is not None:
            if relation == "yours":
                if permanent.controller != ctx.controller:
                    return False  # a teammate's permanents are not "yours"
            elif (permanent.controller == HORDE_CONTROLLER) == (ctx.controller == HORDE_CONTROLLER):
                return False
        for check in state_checks:
            if not check(permanent, game):
                return False
        return True

    matches.text = text  # type: ignore[attr-defined]
    # A filter that looks at a state that changes without entering or leaving (attacking,
    # tapped, a keyword granted until end of turn) can't have its answers kept.
    matches.volatile = bool(state_checks)  # type: ignore[attr-defined]
    return matches


def _card_term(word: str):
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
    }.get(word)


def _state_term(word: str):
    """A check on the permanent's state in the game, ``f(permanent, game)``."""
    if word.startswith("with-"):
        keyword = word[5:].replace("-", " ")
        return lambda p, g: rules.has_keyword(g, p, keyword)
    return {
        "attacking": lambda p, g: p.attacking,
        "blocking": lambda p, g: p.blocked and not p.attacking,
        "tapped": lambda p, g: p.tapped,
        "untapped": lambda p, g: not p.tapped,
    }.get(word)


def card_matches(filter_text: str, card) -> bool:
    """Whether a card (not a permanent: in a graveyard or library) matches a filter's card terms."""
    return _CARD_FILTERS.setdefault(filter_text, _compile_card_filter(filter_text))(card)


def _compile_card_filter(text: str):
    terms = text.lower().split()

    def matches(card) -> bool:
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
            else:
                hit = True  # relations and states do not apply to cards outside the battlefield
            if hit == negate:
                return False
        return True

    return matches


_CARD_FILTERS: dict[str, Callable] = {}


# ---------------------------------------------------------------- amounts
def _zombies_you_control(game, ctx):
    return sum(1 for p in rules.board_of(game, ctx.controller) if "Zombie" in p.card.subtypes)


def _zombie_cards_in_your_graveyard(game, ctx):
    return sum(1 for c in rules.graveyard_of(game, ctx.controller) if "Zombie" in c.subtypes and not c.is_token)


AMOUNTS: dict[str, Callable] = {
    "X": lambda g, x: x.x,
    "zombies_you_control": _zombies_you_control,
    "half_zombies_you_control": lambda g, x: _zombies_you_control(g, x) // 2,
    "other_zombies_you_control_and_zombie_cards_in_your_graveyard":
        lambda g, x: _zombies_you_control(g, x) - (1 if x.permanent is not None and "Zombie" in x.permanent.card.subtypes
                                                   and x.permanent in rules.board_of(g, x.controller) else 0)
        + _zombie_cards_in_your_graveyard(g, x),
    "zombies_on_battlefield_and_zombie_cards_in_graveyards": lambda g, x: (
        sum(1 for p in g.team_board if "Zombie" in p.card.subtypes)
        + sum(1 for p in g.horde_board if "Zombie" in p.card.subtypes)
        + sum(1 for c in g.horde.graveyard if "Zombie" in c.subtypes and not c.is_token)
        + sum(1 for pl in g.players for c in pl.graveyard if "Zombie" in c.subtypes)),
    "creatures_you_control": lambda g, x: sum(1 for p in rules.board_of(g, x.controller) if p.card.is_creature),
    "cards_in_hand": lambda g, x: len(rules.hand_of(g, x.controller)),
    "team_players": lambda g, x: len(g.players),
}


for _name, _function in AMOUNTS.items():
    _function.text = _name  # type: ignore[attr-defined]  (shown by Effect.describe)


def compile_amount(value) -> Callable | int:
    """An amount is a whole number or one of ``AMOUNTS``; returns the int or a function."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"negative amount {value}")
        return value
    if isinstance(value, str) and value in AMOUNTS:
        return AMOUNTS[value]
    raise ValueError(f"expected a whole number or one of {', '.join(sorted(AMOUNTS))}, got '{value}'")


def evaluate(game, ctx, value) -> int:
    """Evaluate a compiled amount."""
    return value if isinstance(value, int) else value(game, ctx)


# ---------------------------------------------------------------- the context of one resolution
class Context:
    """Who is doing what: the source, its controller, the chosen target, the X paid, and for
    'each player' triggers the player concerned (``that_player``)."""

    __slots__ = ("card", "permanent", "controller", "target", "x", "that_player", "spell", "caster")

    def __init__(self, card, permanent, controller, target=None, x=0, that_player=None):
        self.card = card
        self.permanent = permanent
        self.controller = controller
        self.target = target
        self.x = x
        self.that_player = that_player
        self.spell = None  # the spell being countered or targeting
        self.caster = None  # the controller of the spell that targeted (Targeted hook)

    @property
    def is_horde(self) -> bool:
        return self.controller == HORDE_CONTROLLER


# ---------------------------------------------------------------- argument kinds
@dataclass(frozen=True)
class Arg:
    kind: str  # "int", "amount", "bool", "filter", "token", "choice", "keywords", "str"
    default: Any = ...
    choices: tuple = ()

    @property
    def required(self) -> bool:
        return self.default is ...


@dataclass(frozen=True)
class Verb:
    name: str
    run: Callable
    args: dict[str, Arg]
    doc: str
    targets: str | None = None  # the argument holding the target filter, for targeted verbs
    static: bool = False  # a continuous effect read by the rules, not run


VERBS: dict[str, Verb] = {}

WHO = ("you", "each_opponent", "each_player", "that_player", "each_other_player", "caster")


def verb(name: str, *, targets: str | None = None, static: bool = False, **args: Arg):
    """Register a verb of the vocabulary with its argument spec."""

    def register(function):
        VERBS[name] = Verb(name, function, args, (function.__doc__ or "").strip().splitlines()[0],
                           targets, static)
        return function

    return register


# ---------------------------------------------------------------- the verbs
@verb("create_tokens", token=Arg("token"), count=Arg("amount", 1), tapped=Arg("bool", False))
def create_tokens(game, ctx, token, count, tapped):
    """Create COUNT copies of the named token under the controller's control."""
    card = game.tokens[token]
    for _ in range(evaluate(game, ctx, count)):
        rules.put_onto_battlefield(game, card, ctx.controller, ctx.controller, tapped=tapped, created=True)


@verb("counters", on=Arg("choice", "self", ("self", "target", "each")), count=Arg("amount", 1),
      filter=Arg("filter", None), targets="filter")
def counters(game, ctx, on, count, filter):
    """Put COUNT +1/+1 counters on this permanent, on a target, or on each permanent matching FILTER."""
    n = evaluate(game, ctx, count)
    if on == "self":
        if ctx.permanent is not None and rules.on_battlefield(game, ctx.permanent):
            rules.add_counters(game, ctx.permanent, n)
    elif on == "target":
        if ctx.target is not None:
            rules.add_counters(game, ctx.target, n)
    else:
        for p in rules.all_permanents(game):
            if filter(game, ctx, p):
                rules.add_counters(game, p, n)


@verb("anthem", static=True, filter=Arg("filter", None), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()))
def anthem(game, ctx, filter, power, toughness, keywords):
    """Static: permanents matching FILTER (or the equipped creature) get +POWER/+TOUGHNESS and KEYWORDS."""


@verb("pt_equals", static=True, amount=Arg("amount"))
def pt_equals(game, ctx, amount):
    """Static: this creature's power and toughness are each equal to AMOUNT."""


@verb("damage_removes_counters", static=True)
def damage_removes_counters(game, ctx):
    """Static: damage that would be dealt to this creature is prevented; remove a +1/+1 counter instead."""


@verb("cant_gain_life", static=True)
def cant_gain_life(game, ctx):
    """Static: players can't gain life."""


@verb("cost_reduction", static=True, filter=Arg("filter"), amount=Arg("int", 1))
def cost_reduction(game, ctx, filter, amount):
    """Static: spells matching FILTER that you cast cost AMOUNT less generic mana."""


@verb("graveyards_lose_abilities", static=True)
def graveyards_lose_abilities(game, ctx):
    """Static: cards in graveyards lose all abilities (no flashback from a graveyard)."""


@verb("damage_each_opponent", amount=Arg("amount"))
def damage_each_opponent(game, ctx, amount):
    """Deal AMOUNT damage to each opponent (each team player, or the Horde: H11)."""
    n = evaluate(game, ctx, amount)
    if ctx.is_horde:
        for player in game.players:
            rules.damage_player(game, ctx.permanent, ctx.controller, player.index, n)
    else:
        rules.damage_horde(game, n)


def _players_for(game, ctx, who) -> list[int]:
    """The players WHO names, relative to the effect's controller; -1 stands for the Horde."""
    team = [p.index for p in game.players]
    if who == "you":
        return [ctx.controller]
    if who == "that_player":
        return [ctx.that_player] if ctx.that_player is not None else []
    if who == "caster":
        return [ctx.caster] if ctx.caster is not None else []
    if who == "each_opponent":
        return team if ctx.is_horde else [HORDE_CONTROLLER]
    if who == "each_other_player":
        return [i for i in team + [HORDE_CONTROLLER] if i != ctx.controller]
    return team + [HORDE_CONTROLLER]  # each_player: the Horde counts as a player (H9)


@verb("lose_life", who=Arg("choice", "each_opponent", WHO), amount=Arg("amount"))
def lose_life(game, ctx, who, amount):
    """Each player WHO names loses AMOUNT life (the shared team life; the Horde mills: H11)."""
    n = evaluate(game, ctx, amount)
    for player in _players_for(game, ctx, who):
        if player == HORDE_CONTROLLER:
            if not ctx.is_horde:
                rules.damage_horde(game, n)  # H11: life the team makes the Horde lose
        else:
            rules.lose_life(game, n)


@verb("gain_life", amount=Arg("amount"))
def gain_life(game, ctx, amount):
    """The controller gains AMOUNT life (the team's shared total; the Horde has none)."""
    if not ctx.is_horde:
        rules.gain_life(game, evaluate(game, ctx, amount))


@verb("destroy_all", filter=Arg("filter"))
def destroy_all(game, ctx, filter):
    """Destroy every permanent matching FILTER."""
    doomed = [p for p in rules.all_permanents(game) if filter(game, ctx, p)]
    for p in doomed:
        rules.destroy(game, p, ctx.controller)


@verb("each_player_sacrifices", who=Arg("choice", "each_player", WHO), filter=Arg("filter"),
      count=Arg("amount", 1))
def each_player_sacrifices(game, ctx, who, filter, count):
    """Each player WHO names sacrifices COUNT permanents matching FILTER of its choice."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        for _ in range(n):
            options = [p for p in rules.board_of(game, player) if p.controller == player and filter(game, ctx, p)]
            if not options:
                break
            victim = rules.choose_sacrifice(game, player, options)
            rules.sacrifice(game, victim)


@verb("discard", who=Arg("choice", "each_opponent", WHO), count=Arg("amount", 1))
def discard(game, ctx, who, count):
    """Each player WHO names discards COUNT cards of its choice (the Horde: at random, H9)."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        rules.discard(game, player, n)


@verb("mill", who=Arg("choice", "each_opponent", WHO), count=Arg("amount", 1))
def mill(game, ctx, who, count):
    """Each player WHO names mills COUNT cards."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        rules.mill(game, player, n)


@verb("draw", who=Arg("choice", "you", WHO), count=Arg("amount", 1))
def draw(game, ctx, who, count):
    """Each player WHO names draws COUNT cards (the Horde draws none: H4)."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        if player != HORDE_CONTROLLER:
            for _ in range(n):
                rules.draw(game, game.players[player])


@verb("reanimate_all", who=Arg("choice", "each_player", WHO), filter=Arg("str", "creature"))
def reanimate_all(game, ctx, who, filter):
    """Each player WHO names returns all cards matching FILTER from its graveyard to the battlefield."""
    for player in _players_for(game, ctx, who):
        graveyard = rules.graveyard_of(game, player)
        back = [c for c in graveyard if not c.is_token and card_matches(filter, c)]
        for card in back:
            if card in graveyard:  # an earlier one's enter trigger may have moved it
                graveyard.remove(card)
                rules.put_onto_battlefield(game, card, player, player)


@verb("return_from_graveyard", filter=Arg("str", "creature"), to=Arg("choice", "battlefield", ("battlefield", "hand")),
      count=Arg("int", 1))
def return_from_graveyard(game, ctx, filter, to, count):
    """Return up to COUNT cards matching FILTER from the controller's graveyard to the battlefield or hand."""
    graveyard = rules.graveyard_of(game, ctx.controller)
    for _ in range(count):
        options = [c for c in graveyard if not c.is_token and card_matches(filter, c)]
        if not options:
            return
        card = rules.choose_card(game, ctx.controller, "return", options)
        graveyard.remove(card)
        if to == "battlefield":
            rules.put_onto_battlefield(game, card, ctx.controller, ctx.controller)
        else:
            rules.hand_of(game, ctx.controller).append(card)


@verb("destroy", target=Arg("filter"), targets="target")
def destroy(game, ctx, target):
    """Destroy target permanent matching TARGET."""
    if ctx.target is not None:
        rules.destroy(game, ctx.target, ctx.controller)


@verb("exile", target=Arg("filter"), targets="target")
def exile(game, ctx, target):
    """Exile target permanent matching TARGET."""
    if ctx.target is not None:
        rules.exile(game, ctx.target, ctx.controller)


@verb("bounce", target=Arg("filter"), targets="target")
def bounce(game, ctx, target):
    """Return target permanent matching TARGET to its owner's hand (a token ceases to exist: H6)."""
    if ctx.target is not None:
        rules.bounce(game, ctx.target)


@verb("damage", amount=Arg("amount"), target=Arg("filter"), targets="target")
def damage(game, ctx, amount, target):
    """Deal AMOUNT damage to one target: a creature matching TARGET, or with 'any' also a player or the Horde."""
    n = evaluate(game, ctx, amount)
    chosen = ctx.target
    if chosen is None:
        return
    if chosen == "horde":
        rules.damage_horde(game, n)  # H11
    elif isinstance(chosen, int):
        rules.damage_player(game, ctx.permanent, ctx.controller, chosen, n)
    else:
        rules.damage_permanent(game, ctx.permanent, ctx.controller, chosen, n)


@verb("damage_all", amount=Arg("amount"), filter=Arg("filter"), players=Arg("bool", False))
def damage_all(game, ctx, amount, filter, players):
    """Deal AMOUNT damage to each creature matching FILTER (and with PLAYERS, to each opponent)."""
    n = evaluate(game, ctx, amount)
    hits = [p for p in rules.all_permanents(game) if filter(game, ctx, p)]
    rules.damage_many(game, ctx.permanent, ctx.controller, hits, n)
    if players:
        damage_each_opponent(game, ctx, n)


@verb("counter_spell", filter=Arg("str", "any"))
def counter_spell(game, ctx, filter):
    """Counter target spell matching FILTER (a countered Horde card goes to its graveyard: H10)."""
    # The casting rules ask this verb's card when a spell is cast; the spell is countered there.


@verb("fog")
def fog(game, ctx):
    """Prevent all combat damage that would be dealt this turn."""
    rules.prevent_combat_damage(game)


@verb("pump", on=Arg("choice", "self", ("self", "target")), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()), target=Arg("filter", None), targets="target")
def pump(game, ctx, on, power, toughness, keywords, target):
    """This creature (or target creature) gets +POWER/+TOUGHNESS and KEYWORDS until end of turn."""
    p = ctx.permanent if on == "self" else ctx.target
    if p is not None and rules.on_battlefield(game, p):
        rules.pump(game, p, power, toughness, keywords)


@verb("pump_all", filter=Arg("filter"), power=Arg("int", 0), toughness=Arg("int", 0),
      keywords=Arg("keywords", frozenset()))
def pump_all(game, ctx, filter, power, toughness, keywords):
    """Each permanent matching FILTER gets +POWER/+TOUGHNESS and KEYWORDS until end of turn."""
    for p in [p for p in rules.all_permanents(game) if filter(game, ctx, p)]:
        rules.pump(game, p, power, toughness, keywords)


@verb("tap_all", filter=Arg("filter"))
def tap_all(game, ctx, filter):
    """Tap every permanent matching FILTER."""
    for p in rules.all_permanents(game):
        if filter(game, ctx, p):
            p.tapped = True


@verb("ramp", count=Arg("int", 1), tapped=Arg("bool", True), to_hand=Arg("int", 0))
def ramp(game, ctx, count, tapped, to_hand):
    """Search for up to COUNT basic lands onto the battlefield (and TO_HAND more into hand), then shuffle."""
    if not ctx.is_horde:
        rules.search_basic_lands(game, game.players[ctx.controller], count, tapped, to_hand)


@verb("sacrifice_self")
def sacrifice_self(game, ctx):
    """Sacrifice this permanent."""
    if ctx.permanent is not None and rules.on_battlefield(game, ctx.permanent):
        rules.sacrifice(game, ctx.permanent)


@verb("sacrifice_self_if_no_creatures")
def sacrifice_self_if_no_creatures(game, ctx):
    """Sacrifice this permanent if no creatures are on the battlefield."""
    if ctx.permanent is not None and not any(p.card.is_creature for p in rules.all_permanents(game)):
        rules.sacrifice(game, ctx.permanent)


@verb("lose_life_if_spell", amount=Arg("amount"))
def lose_life_if_spell(game, ctx, amount):
    """When it is targeted by a spell, that spell's controller loses AMOUNT life."""
    if ctx.spell is not None and ctx.caster is not None:
        sub = Context(ctx.card, ctx.permanent, ctx.controller, that_player=ctx.caster)
        lose_life(game, sub, "that_player", amount)


@verb("zombie_army")
def zombie_army(game, ctx):
    """R2: X = Zombie Armies the controller controls (this one included); each of its Zombies gets X +1/+1 counters."""
    board = rules.board_of(game, ctx.controller)
    armies = sum(1 for p in board if "Army" in p.card.subtypes and "Zombie" in p.card.subtypes)
    # R2 Decision: one trigger per entering Army; option army_trigger = "per_army" repeats it per Army.
    times = armies if game.setup.army_trigger == "per_army" else 1
    for _ in range(times):
        for p in list(board):
            if "Zombie" in p.card.subtypes:
                rules.add_counters(game, p, armies)


@verb("graveyard_exile_stops_damage", count=Arg("int", 3))
def graveyard_exile_stops_damage(game, ctx, count):
    """Any player may exile COUNT cards from its graveyard; if one does, this creature assigns no combat damage this turn."""
    if ctx.permanent is None or not rules.on_battlefield(game, ctx.permanent):
        return
    if rules.any_player_exiles_from_graveyard(game, ctx.controller, count):
        rules.pump(game, ctx.permanent, 0, 0, frozenset({"assigns no combat damage"}))


@verb("destroy_that_source")
def destroy_that_source(game, ctx):
    """Destroy the creature that dealt the damage (ControllerDamaged)."""
    if ctx.target is not None and not isinstance(ctx.target, int | str):
        rules.destroy(game, ctx.target, ctx.controller)


# ---------------------------------------------------------------- verbs for the bundled Horde decks
PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")


@verb("target_controller_loses_life", amount=Arg("amount"))
def target_controller_loses_life(game, ctx, amount):
    """The controller of the permanent this ability targeted (with an earlier verb) loses AMOUNT life."""
    target = ctx.target
    if target is None or isinstance(target, int | str):
        return
    sub = Context(ctx.card, ctx.permanent, ctx.controller, that_player=target.controller)
    lose_life(game, sub, "that_player", amount)


@verb("target_opponent_loses_life_per_card", per=Arg("int", 1), filter=Arg("str", "creature"))
def target_opponent_loses_life_per_card(game, ctx, per, filter):
    """Target opponent loses PER life for each card matching FILTER in its graveyard."""
    if ctx.is_horde:
        options = [pl.index for pl in game.players]
        if not options:
            return
        player = rules.choose_card(game, HORDE_CONTROLLER, "target", options)  # H9: a random team player
    else:
        player = HORDE_CONTROLLER  # the team's only opponent
    cards = sum(1 for c in rules.graveyard_of(game, player) if not c.is_token and card_matches(filter, c))
    sub = Context(ctx.card, ctx.permanent, ctx.controller, that_player=player)
    lose_life(game, sub, "that_player", per * cards)


@verb("keep_one_of_each_type", who=Arg("choice", "each_opponent", WHO))
def keep_one_of_each_type(game, ctx, who):
    """Each player WHO names chooses a permanent it controls of each permanent type and sacrifices the rest."""
    for player in _players_for(game, ctx, who):
        board = [p for p in rules.board_of(game, player) if p.controller == player]
        kept = []
        for kind in PERMANENT_TYPES:
            candidates = [p for p in board if kind in p.card.types]
            # The player gives up all but one of this type, one sacrifice choice at a time.
            while len(candidates) > 1:
                candidates.remove(rules.choose_sacrifice(game, player, candidates))
            if candidates and candidates[0] not in kept:
                kept.append(candidates[0])
        for p in board:
            if p not in kept and rules.on_battlefield(game, p):
                rules.sacrifice(game, p)
