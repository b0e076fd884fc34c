"""The abstract syntax of Oracle text: what the parser (``horde.cards.grammar.parser`` and the
rules of ``horde.cards.grammar``) makes of a card's text, before any question of what the effect
vocabulary can say (``horde.cards.grammar.translate`` decides that).

A text is ``Line``s (abilities as MTGJSON separates them), each of ``Ability`` nodes: keywords,
statics, triggered abilities (a trigger, an optional intervening "if", effects), activated
abilities (costs, effects), loyalty abilities, modal spells, a spell's effects. Effects, costs,
triggers, conditions and statics are dataclasses; the effect families
(``horde.cards.grammar.families``) define their own effect nodes beside the rules that read them.
Every effect shares one grammar of noun phrases (``Noun``), players (``Player``), references back
(``Ref``) and amounts (``Amount``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Node:
    """Any node of the syntax."""


# ---------------------------------------------------------------- amounts
@dataclass(frozen=True)
class Amount(Node):
    """A number an effect names."""


@dataclass(frozen=True)
class Num(Amount):
    n: int


@dataclass(frozen=True)
class VarX(Amount):
    """X: paid for the spell, or defined by a 'where X is' clause."""


@dataclass(frozen=True)
class Kicked(Amount):
    """The number of times the spell was kicked ('for each time it was kicked')."""


@dataclass(frozen=True)
class Count(Amount):
    """The number of permanents a noun phrase names ('creatures you control', 'Zombies on the battlefield')."""

    what: Noun


@dataclass(frozen=True)
class CardCount(Amount):
    """The number of cards a noun phrase names in a zone: 'creature cards in your graveyard',
    'cards in your hand'. ``whose``: yours, all, theirs, opponents."""

    what: Noun
    zone: str
    whose: str


@dataclass(frozen=True)
class Times(Amount):
    """BASE for each COUNT ('2 damage for each creature you control')."""

    factor: Amount
    of: Amount


@dataclass(frozen=True)
class Sum(Amount):
    terms: tuple[Amount, ...]


@dataclass(frozen=True)
class Half(Amount):
    """Half of an amount, rounded down (or up)."""

    of: Amount
    up: bool = False


@dataclass(frozen=True)
class Property(Amount):
    """A number of an object: 'its power', '~'s toughness', 'that creature's mana value'."""

    of: Obj
    name: str  # power, toughness, mana value, loyalty


@dataclass(frozen=True)
class LifeTotal(Amount):
    who: Player


# ---------------------------------------------------------------- players
@dataclass(frozen=True)
class Player(Node):
    """A player or players: you, each_opponent, each_player, each_other_player, that_player,
    target_player, target_opponent, an_opponent, its_controller, its_owner, that_spells_controller,
    defending_player, target_player_or_planeswalker, target_opponent_or_planeswalker."""

    kind: str

    @property
    def targeted(self) -> bool:
        return self.kind.startswith("target_")


# ---------------------------------------------------------------- objects
@dataclass(frozen=True)
class Obj(Node):
    """Something an effect acts on: a noun phrase, the card itself, or a reference back."""


@dataclass(frozen=True)
class Noun(Obj):
    """A noun phrase: a determiner (target, each, all, a, another, '' for a bare plural, up_to,
    any_number), a count, one or more alternatives (each its terms in the order the filter
    vocabulary writes them: 'artifact | enchantment'), terms shared by every alternative (with a
    keyword, a comparison, token), ``other``, a controller relation (yours, opponents, theirs)
    and, for cards, a zone and whose it is. ``head``: permanent, card, spell, player, any."""

    det: str = ""
    alternatives: tuple[tuple[str, ...], ...] = ()
    shared: tuple[str, ...] = ()
    other: bool = False
    relation: str | None = None
    head: str = "permanent"
    count: Amount | None = None
    zone: str | None = None
    whose: str | None = None
    plural: bool = False

    @property
    def targeted(self) -> bool:
        return self.det == "target" or self.det == "up_to_target" or self.det == "any_number_target"


@dataclass(frozen=True)
class SelfRef(Obj):
    """The card itself (``~``, 'this creature')."""


@dataclass(frozen=True)
class Ref(Obj):
    """A reference back: it, they, that creature, that card, those creatures, the exiled card,
    enchanted creature, equipped creature, the creature dealt damage this way. ``word`` is the
    noun it was written with ('' for it/they)."""

    kind: str  # it, that, those, the_exiled, enchanted, equipped, this_way
    word: str = ""


# ---------------------------------------------------------------- effects
@dataclass(frozen=True)
class Effect(Node):
    """One effect of an ability (a family module defines each kind). ``sentence``: which
    sentence of its ability it was read from (what a refusal quotes)."""

    sentence: int = field(default=0, kw_only=True, compare=False)


@dataclass(frozen=True)
class May(Effect):
    """'You may EFFECTS': the first is optional (608.2d), the rest happen if it was done."""

    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class If(Effect):
    """An effect that happens only if a condition holds ('if you do', 'if ~ was kicked', an
    intervening 'if' of a trigger: 603.4)."""

    condition: Condition
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class WhereX(Effect):
    """EFFECTS, where X is AMOUNT."""

    amount: Amount
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Modifier(Effect):
    """A sentence that changes the effect before it instead of adding one ('It can't be
    regenerated', 'If ~ was kicked, it deals N damage instead')."""


@dataclass(frozen=True)
class CantBeRegenerated(Modifier):
    what: Obj  # the destroyed ones, or 'a creature dealt damage this way'


@dataclass(frozen=True)
class KickedInstead(Modifier):
    """'If ~ was kicked, it deals N damage instead'."""

    amount: Amount


# ---------------------------------------------------------------- conditions
@dataclass(frozen=True)
class Condition(Node):
    """A condition: an intervening if (603.4), 'as long as', 'if you do'."""


@dataclass(frozen=True)
class Done(Condition):
    """'If you do', 'if a player does': the last optional effect was done."""


@dataclass(frozen=True)
class WasKicked(Condition):
    pass


@dataclass(frozen=True)
class Controls(Condition):
    """'you control a Zombie', 'an opponent controls three or more artifacts', 'you control no
    creatures'."""

    who: Player
    what: Noun
    at_least: int = 1
    none: bool = False


@dataclass(frozen=True)
class CardsInZone(Condition):
    """'you have no cards in hand', 'there are seven or more cards in your graveyard'."""

    what: CardCount
    compare: str  # <=, >=, =
    n: int


@dataclass(frozen=True)
class LifeCompare(Condition):
    """'you have 10 or more life', 'you have less life than an opponent'."""

    who: Player
    compare: str
    n: int


@dataclass(frozen=True)
class NoCreatures(Condition):
    """'if no creatures are on the battlefield'."""

    what: Noun


# ---------------------------------------------------------------- durations
@dataclass(frozen=True)
class Duration(Node):
    """until end of turn, this turn, until your next turn, for as long as ..."""

    kind: str  # end_of_turn, this_turn, your_next_turn, as_long_as
    condition: Condition | None = None


# ---------------------------------------------------------------- costs
@dataclass(frozen=True)
class Cost(Node):
    """One activation cost (602.1)."""


@dataclass(frozen=True)
class ManaCost(Cost):
    symbols: tuple[str, ...]  # '2', 'B', 'W/U', 'X', 'C'

    @property
    def text(self) -> str:
        return "".join("{" + s + "}" for s in self.symbols)


@dataclass(frozen=True)
class TapCost(Cost):
    untap: bool = False  # {Q}


@dataclass(frozen=True)
class SacrificeCost(Cost):
    what: Obj
    count: int = 1


@dataclass(frozen=True)
class DiscardCost(Cost):
    count: int
    what: Noun | None = None  # a card of this kind
    hand: bool = False  # 'discard your hand'


@dataclass(frozen=True)
class LifeCost(Cost):
    amount: int


@dataclass(frozen=True)
class ExileCost(Cost):
    what: Obj
    count: int = 1


@dataclass(frozen=True)
class CountersCost(Cost):
    """'Remove N counters of a kind from ~' (or 'put ... on ~')."""

    count: int
    kind: str
    remove: bool = True


@dataclass(frozen=True)
class TapOthersCost(Cost):
    """'Tap an untapped creature you control'."""

    what: Noun
    count: int = 1


@dataclass(frozen=True)
class ReturnCost(Cost):
    """'Return a land you control to its owner's hand'."""

    what: Obj


# ---------------------------------------------------------------- triggers
@dataclass(frozen=True)
class Trigger(Node):
    """What a triggered ability waits for (603.1)."""


@dataclass(frozen=True)
class SelfEvent(Trigger):
    """The card itself: enters, attacks, blocks, dies, leaves, is_put_into_graveyard, becomes
    the target of a spell or ability (targeted), of a spell (targeted_by_spell), is dealt damage
    (dealt_damage), deals combat damage to a player (hits_player), is cycled (cycled), is set in
    motion (set_in_motion)."""

    events: tuple[str, ...]


@dataclass(frozen=True)
class Step(Trigger):
    """'At the beginning of ...': step (upkeep, end_step, precombat_main, combat, draw_step) and
    whose (your, each, opponent, the)."""

    step: str
    whose: str


@dataclass(frozen=True)
class ObjectEvent(Trigger):
    """'Whenever a/another NOUN dies (enters, attacks)': ``or_self`` for '~ or another NOUN'."""

    event: str
    what: Noun
    or_self: bool = False


@dataclass(frozen=True)
class CastSpell(Trigger):
    """'Whenever you (a player, an opponent) cast a(n) NOUN spell'."""

    who: Player
    what: Noun | None


@dataclass(frozen=True)
class DamagesYou(Trigger):
    """'Whenever a NOUN deals damage to you'."""

    what: Noun


@dataclass(frozen=True)
class PlayerEvent(Trigger):
    """Other events of players: gain life, draw a card, ... (``event``), by ``who``."""

    who: Player
    event: str


# ---------------------------------------------------------------- statics
@dataclass(frozen=True)
class Static(Node):
    """A static ability (604) or a rule of the card."""


# ---------------------------------------------------------------- abilities
@dataclass(frozen=True)
class Keyword(Node):
    """A keyword: its name (``flying``, ``protection from black``, ``equip``), its cost and
    number if it has them, as printed."""

    name: str
    cost: str = ""
    number: str = ""
    text: str = ""


@dataclass(frozen=True)
class Ability(Node):
    """One ability; ``sentences``: how many sentences of its line it was read from."""

    sentences: tuple[int, ...] = field(default=(), kw_only=True, compare=False)


@dataclass(frozen=True)
class KeywordAbility(Ability):
    keywords: tuple[Keyword, ...]


@dataclass(frozen=True)
class StaticAbility(Ability):
    static: Static


@dataclass(frozen=True)
class SpellAbility(Ability):
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class TriggeredAbility(Ability):
    trigger: Trigger
    effects: tuple[Effect, ...]
    condition: Condition | None = None  # an intervening 'if' (603.4)


@dataclass(frozen=True)
class ActivatedAbility(Ability):
    costs: tuple[Cost, ...]
    effects: tuple[Effect, ...]
    restriction: str = ""  # 'activate only as a sorcery', 'only once each turn'


@dataclass(frozen=True)
class LoyaltyAbility(Ability):
    change: str  # '+1', '-3', '0', '-X'
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class ModalAbility(Ability):
    choose: str  # one, two, three, one or more, one or both
    modes: tuple[tuple[Effect, ...], ...]


@dataclass
class Line:
    """A line of the text (an ability as MTGJSON separates them): its sentences, the abilities
    read and the parse errors of the sentences not read."""

    sentences: list[str]
    abilities: list[Ability] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)  # (sentence number, what was expected where)
    loyalty_unread: dict[int, str] = field(default_factory=dict)  # a planeswalker's loyalty ability not read: its change

    @property
    def text(self) -> str:
        return ". ".join(self.sentences)
