"""Card definitions: the printed facts of a card and its behaviour as data.

A ``CardDef`` is immutable and shared by every copy of the card in every game. Behaviour is a
tuple of ``Effect`` values (a verb from the closed vocabulary of ``horde.engine.effects`` with its
checked arguments) attached to one hook of the closed set ``HOOKS``. The loader that reads card
files and checks them lives in ``horde.cards.catalogue``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

COLOURS = "WUBRG"

# The closed set of hooks a card attaches behaviour to.
HOOKS = {
    "Cast": "when the spell resolves (instants and sorceries)",
    "Enters": "when the permanent enters the battlefield",
    "AsEnters": "as the permanent enters (614.12): what its 'As ~ enters' replacement effect does, before its Enters "
                "abilities and anything else see it",
    "Attacks": "when the creature attacks",
    "Blocks": "when the creature blocks",
    "Dies": "when the creature is put into a graveyard from the battlefield",
    "CreatureDies": "whenever a creature matching `when` dies (this one included; 'that player' is its controller)",
    "PermanentEnters": "whenever a permanent matching `when` enters (this one included)",
    "HitsPlayer": "whenever it deals combat damage to a player ('that player'; the Horde too)",
    "Upkeep": "at the beginning of its controller's upkeep",
    "EachDrawStep": "at the beginning of each player's draw step ('that player'; a team player's, once its draw is "
                    "done: the Horde has no draw step, H4)",
    "EachUpkeep": "at the beginning of each player's upkeep ('that player'; on the team's shared turn, once for each "
                  "of its players)",
    "UpkeepStep": "at the beginning of each upkeep: once an upkeep step, the team's shared one or the Horde's",
    "OpponentUpkeep": "at the beginning of each opponent's upkeep ('that player')",
    "EndStep": "at the beginning of each end step",
    "DealtDamage": "whenever a source deals damage to it",
    "ControllerDamaged": "whenever a source matching `when` deals damage to its controller ('that source')",
    "Targeted": "when it becomes the target of a spell or ability",
    "TargetedBySpell": "when it becomes the target of a spell ('caster' is that spell's controller)",
    "SpellCast": "whenever a player casts a spell (matching `when`: its card terms, `yours` for its own spells)",
    "Blocked": "whenever it becomes blocked (bushido, rampage: 702.45, 702.23)",
    "Monstrous": "when it becomes monstrous (701.37b: its monstrosity ability resolved)",
    "Cycled": "when its owner cycles it (from hand: pay its Cycling cost, discard it, draw a card)",
    "Static": "while it is on the battlefield (continuous effects)",
    "Equipped": "continuous effects on the creature it is attached to (equipment)",
    "Enchanted": "continuous effects on the permanent it enchants (an Aura with Enchant: a permanent)",
    "Activated": "an activated ability (lieutenants use it instead of attacking, L8)",
    "GraveyardActivated": "an activated ability it has in its owner's graveyard ('{1}{B}: Return ~ from your graveyard ...')",
    "Mode": "one mode of a modal instant or sorcery ('choose one'): its controller picks one as it resolves",
    "Plus": "a plus (or zero) loyalty ability: a boss's (B3), or a team planeswalker's (606)",
    "Minus": "a minus loyalty ability: a boss's non-ultimate minus (B3), or a team planeswalker's (606)",
    "Ultimate": "a boss's ultimate loyalty ability (B3); a team planeswalker's is a minus ability like any (606)",
    # Hooks of the published automated opponents' cards (RULES.md sections F, M, G).
    "Leaves": "when the permanent leaves the battlefield (a Hero's Reward: F4, G5; an Aura's 'it' is what it enchanted)",
    "AttachedDies": "whenever the creature it is attached to dies ('whenever equipped creature dies': 'it' is that creature)",
    "ToGraveyard": "when the card is put into a graveyard from anywhere (an artifact's Hero's Reward: M3)",
    "YourEndStep": "at the beginning of its controller's end step (an elite Head: F5)",
    "MainPhase": "at the beginning of its controller's precombat main phase (M2)",
    "ThisCombat": "effects a spell's `at_beginning_of_combat` leaves for the beginning of this turn's combat (M4, G6)",
    "CreatureAttacks": "whenever a creature matching `when` attacks (Dance of Flame: G6)",
    # Hooks of schemes (RULES.md section A).
    "SetInMotion": "when the Horde sets this scheme in motion (904.9, A1)",
    "OpponentsEndStep": "at the beginning of each end step of the controller's opponents (an ongoing scheme's abandon condition)",
    "ChoosesSelf": "what a 'self or others' effect does when the chosen opponent chooses self",
    "ChoosesOthers": "what a 'self or others' effect does when the chosen opponent chooses others",
}

# The hooks whose effects take a trigger condition ``when=FILTER``.
WHEN_HOOKS = {"CreatureDies", "ControllerDamaged", "PermanentEnters", "SpellCast", "CreatureAttacks"}

KEYWORDS = {
    "flying", "reach", "deathtouch", "first strike", "double strike", "trample", "menace",
    "lifelink", "indestructible", "vigilance", "defender", "haste", "enters tapped",
    "can't block", "fear", "swampwalk", "islandwalk", "forestwalk", "flanking", "shroud",
    "hexproof", "can't attack", "unblockable", "intimidate", "undying", "assigns no combat damage",
    "wither", "infect", "persist", "flash",
    "protection from white", "protection from blue", "protection from black", "protection from red",
    "protection from green", "protection from creatures", "protection from artifacts", "protection from everything",
    # a split card's halves: cast both together (702.102), or one only from the graveyard (702.127)
    "fuse", "aftermath",
    # 'its activated abilities can't be activated unless they're mana abilities' (Faith's Fetters): mana still flows
    "activated abilities can't be activated",
    # Keyword abilities played where the rules apply them (horde.engine.rules.keyword_abilities; docs/cards.md):
    # landwalk of every land type (702.14), shadow (702.28), horsemanship (702.31), exalted (702.83),
    # split second (702.61), storm (702.40), cascade (702.85), retrace (702.81), rebound (702.88).
    # changeling: it is every creature type (702.73a; its subtypes hold them all: ``CardDef``)
    "changeling",
    # skulk: it can't be blocked by creatures with greater power (702.118b)
    "skulk",
    "mountainwalk", "plainswalk", "desertwalk", "nonbasic landwalk", "legendary landwalk", "snow landwalk",
    "shadow", "horsemanship", "exalted", "split second", "storm", "cascade", "retrace", "rebound",
    # until end of turn only, from the challenge decks' spells (M4, G4)
    "attacks this turn", "destroyed after combat", "must be blocked",
}


# The creature types (205.3m), lower case: a changeling is each of them (702.73a), and a token's
# name in a list is some of them ('Ooze', 'Zombie Giant'; not 'All Is Dust').
CREATURE_TYPES = frozenset(t.lower() for t in """
Advisor Aetherborn Alien Ally Angel Antelope Ape Archer Archon Army Artificer Assassin Assembly-Worker
Astartes Atog Aurochs Avatar Azra Badger Balloon Barbarian Bard Basilisk Bat Bear Beast Beeble Beholder Berserker
Bird Blinkmoth Boar Bringer Brushwagg Camarid Camel Caribou Carrier Cat Centaur Cephalid Child Chimera Citizen
Cleric Clown Cockatrice Construct Coward Crab Crocodile C'tan Custodes Cyclops Dauthi Demigod Demon Deserter
Devil Dinosaur Djinn Dog Dragon Drake Dreadnought Drone Druid Dryad Dwarf Efreet Egg Elder Eldrazi Elemental
Elephant Elf Elk Eye Faerie Ferret Fish Flagbearer Fox Fractal Frog Fungus Gargoyle Germ Giant Gith Gnoll Gnome
Goat Goblin God Golem Gorgon Graveborn Gremlin Griffin Hag Halfling Hamster Harpy Hellion Hippo Hippogriff
Homarid Homunculus Horror Horse Human Hydra Hyena Illusion Imp Incarnation Inkling Insect Jackal Jellyfish
Juggernaut Kavu Kirin Kithkin Knight Kobold Kor Kraken Lamia Lammasu Leech Leviathan Lhurgoyf Licid Lizard
Manticore Masticore Mercenary Merfolk Metathran Minion Minotaur Mite Mole Monger Mongoose Monk Monkey Moonfolk
Mouse Mutant Myr Mystic Naga Nautilus Nephilim Nightmare Nightstalker Ninja Noble Noggle Nomad Nymph Octopus
Ogre Ooze Orb Orc Orgg Otter Ouphe Ox Oyster Pangolin Peasant Pegasus Pentavite Pest Phelddagrif Phoenix
Phyrexian Pilot Pincher Pirate Plant Praetor Prism Processor Rabbit Ranger Rat Rebel Reflection Rhino Rigger
Rogue Sable Salamander Samurai Sand Saproling Satyr Scarecrow Scion Scorpion Scout Sculpture Serf Serpent Servo
Shade Shaman Shapeshifter Shark Sheep Siren Skeleton Slith Sliver Slug Snake Soldier Soltari Spawn Specter
Spellshaper Sphinx Spider Spike Spirit Splinter Sponge Squid Squirrel Starfish Surrakar Survivor Tentacle
Tetravite Thalakos Thopter Thrull Tiefling Treefolk Trilobite Triskelavite Troll Turtle Unicorn Vampire Vedalken
Viashino Volver Wall Walrus Warlock Warrior Weird Werewolf Whale Wizard Wolf Wolverine Wombat Worm Wraith Wurm
Yeti Zombie Zubera
""".split())
# As the filters read a subtype (``word.capitalize()``): what a changeling's subtypes hold.
EVERY_CREATURE_TYPE = frozenset(t.capitalize() for t in CREATURE_TYPES)


# What may follow an Activated line's costs, in parentheses (602.5b): 'Activate only ...'.
ACTIVATION_LIMITS = ("once each turn", "as a sorcery", "during your turn")
LOCKED = "activated abilities can't be activated"  # its abilities other than mana abilities can't be activated


# Hybrid, Phyrexian and two-brid mana symbols (107.4e-f) as MTGJSON writes them: the two colours of a
# hybrid symbol in the order the cards print them, then a Phyrexian "P".
HYBRID_PAIRS = ("W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U")


def mana_symbol(text: str) -> str | None:
    """The pip a mana symbol of a cost is (its text without braces, any case): a colour letter or
    C; a hybrid symbol "W/U" (either colour: 107.4e); a two-brid symbol "2/W" (the colour or two
    generic mana: 107.4e); a Phyrexian symbol "W/P" (the colour or 2 life: 107.4f); a hybrid
    Phyrexian symbol "W/U/P". None for anything else (generic amounts and X are not pips)."""
    symbol = text.strip().upper()
    if symbol in COLOURS or symbol == "C":
        return symbol
    parts = symbol.split("/")
    phyrexian = parts[-1] == "P"
    if phyrexian:
        parts = parts[:-1]
    if len(parts) == 1 and parts[0] in COLOURS and phyrexian:
        return f"{parts[0]}/P"
    if len(parts) == 2 and parts[0] == "2" and parts[1] in COLOURS and not phyrexian:
        return f"2/{parts[1]}"
    if len(parts) == 2 and parts[0] in COLOURS and parts[1] in COLOURS and parts[0] != parts[1]:
        pair = "/".join(parts) if "/".join(parts) in HYBRID_PAIRS else f"{parts[1]}/{parts[0]}"
        return pair + ("/P" if phyrexian else "")
    return None


def pip_payments(pip: str) -> tuple[tuple[str, int, int], ...]:
    """The ways to pay one pip, each (a colour of mana or "", generic mana, life): a plain pip its
    colour; "W/U" either colour; "2/W" the colour or {2}; "W/P" the colour or 2 life (107.4e-f)."""
    parts = pip.split("/")
    if len(parts) == 1:
        return ((pip, 0, 0),)
    if parts[0] == "2":
        return ((parts[1], 0, 0), ("", 2, 0))
    ways = tuple((colour, 0, 0) for colour in parts if colour != "P")
    return ways + (("", 0, 2),) if parts[-1] == "P" else ways


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A mana cost: generic amount, its other mana symbols (pips: a colour letter or C each, or a
    hybrid, two-brid or Phyrexian symbol such as "W/U", "2/W", "W/P": ``mana_symbol``), and
    whether it has X."""

    generic: int = 0
    pips: tuple[str, ...] = ()
    x: bool = False
    value: int = field(init=False, default=0, compare=False)  # mana value (202.3), X counted as 0
    colours: frozenset[str] = field(init=False, default=frozenset(), compare=False)  # its symbols' colours (202.2, 903.4)

    def __post_init__(self) -> None:
        # 202.3f: a hybrid symbol counts its largest component: {2/W} is 2, {W/U} and {W/P} are 1
        object.__setattr__(self, "value", self.generic + sum(2 if pip[0] == "2" else 1 for pip in self.pips))
        object.__setattr__(self, "colours", frozenset(c for pip in self.pips for c in pip.split("/") if c in COLOURS))

    def __str__(self) -> str:
        text = ("{X}" if self.x else "") + (f"{{{self.generic}}}" if self.generic else "")
        text += "".join(f"{{{p}}}" for p in self.pips)
        return text or "{0}"


# What one mana of a mana ability may be, besides a colour letter and "C": any colour ("*"), a
# colour of its controller's commander's colour identity ("I": 903.4), a colour a land an
# opponent controls could produce ("O": Exotic Orchard), the colour chosen as its source entered
# ("S": Coldsteel Heart, a Thriving land's 'Add {R} or one mana of the chosen color'). "I", "O"
# and "S" are read when the mana is made; a choice of no colour makes no mana (106.7).
ANY, IDENTITY, OPPONENTS_LANDS, CHOSEN = "*", "I", "O", "S"


@dataclass(frozen=True, slots=True)
class ManaAbility:
    """One mana ability (605.1a): the mana it adds, each one mana of any of its colours, and
    what activating it costs: {T}, mana (a Signet's {1}, a filter land's {W/U}), life (119.4),
    sacrificing it, removing charge counters; its riders (a pain land's "~ deals 1 damage to
    you", "you gain 1 life", "~ doesn't untap during your next untap step"); ``count`` repeats the mana ("Add {C} for each charge counter");
    ``condition`` says when it may be activated ("Activate only if you control five or more
    lands"). ``free``: {T} alone for fixed mana and nothing else, the mana a payment takes
    first (``CardDef.mana``)."""

    units: tuple[frozenset[str], ...]
    tap: bool = True
    cost: ManaCost | None = None
    life: int = 0
    sacrifice: bool = False
    charge: int = 0  # charge counters removed from it
    storage: bool = False  # 'Remove X storage counters': its units once for each counter removed (X chosen by the payment)
    damage: int = 0  # damage it deals to its controller (a pain land)
    gain: int = 0  # life its controller gains
    stays_tapped: bool = False  # '~ doesn't untap during your next untap step' (a Tempest land)
    count: Any = None  # an amount: the units are added that many times
    condition: Any = None  # an if=/unless= condition (horde.engine.filters): 'Activate only if'
    spent: str = ""  # what spending its mana on a spell does (SPENT_RIDERS): Opal Palace's, Path of Ancestry's
    text: str = ""  # as written in the card file
    free: bool = field(init=False, default=False)
    dynamic: bool = field(init=False, default=False)  # some unit is read when the mana is made (IDENTITY, OPPONENTS_LANDS)

    def __post_init__(self) -> None:
        object.__setattr__(self, "free", self.tap and self.cost is None and not (
            self.life or self.sacrifice or self.charge or self.damage or self.gain or self.stays_tapped) and self.count is None
            and self.condition is None and not self.spent and not self.storage)
        object.__setattr__(self, "dynamic", any(IDENTITY in u or OPPONENTS_LANDS in u or CHOSEN in u
                                                for u in self.units))

    def describe(self) -> str:
        """The ability as a card file's Mana line writes it."""
        if self.text:
            return self.text
        names = {ANY: "any", IDENTITY: "commander", OPPONENTS_LANDS: "opponents_lands", CHOSEN: "chosen"}
        return " ".join(names.get(next(iter(u)), "") or "/".join(sorted(u)) if len(u) == 1 else "/".join(sorted(u))
                        for u in self.units)

    def key(self) -> tuple[Any, ...]:
        """Its parts as plain comparable values (amounts and conditions by their text)."""
        return (self.units, self.tap, self.cost, self.life, self.sacrifice, self.charge, self.damage, self.gain,
                self.stays_tapped,
                getattr(self.count, "text", self.count), getattr(self.condition, "text", None), self.spent, self.storage)

    @property
    def most(self) -> int:
        """The mana it makes beyond what it costs, for an estimate of what a player could make:
        its units less its mana cost (a Signet 1, Sol Ring 2); one for a counted ability."""
        made = len(self.units) if self.count is None else 1
        return max(0, made - (self.cost.value if self.cost is not None else 0))


# What spending a mana ability's mana on a spell does (``ManaAbility.spent``): the commander cast
# with it enters with a +1/+1 counter for each time it has been cast from the command zone
# (Opal Palace); a creature spell sharing a creature type with the commander: scry 1 (Path of
# Ancestry).
SPENT_RIDERS = ("commander_counters", "shared_type_scry")


@dataclass(frozen=True, slots=True)
class Effect:
    """One verb of the vocabulary with its checked arguments, attached to a hook."""

    verb: str
    args: dict[str, Any]
    run: Any = field(repr=False, compare=False, hash=False)  # the verb's function
    cost: int | None = None  # loyalty change for boss abilities (B3), else None
    line: int = 0
    target: Any = None  # compiled target filter, or "any", when the verb targets
    costs: tuple[str | ManaCost, ...] = ()  # activation costs of an Activated ability: "tap", a ManaCost, "sacrifice another creature"
    when: Any = None  # the trigger condition of a CreatureDies or ControllerDamaged effect (a filter)
    condition: Any = None  # if=... / unless=...: the effect happens only when it holds (horde.engine.filters)
    optional: bool = False  # may=true: 'you may': its controller chooses whether it happens (``rules.may``)
    tax: ManaCost | None = None  # unless_pays={1}: it happens unless the player it names pays this (``rules.pays_tax``)
    limit: str = ""  # an Activated ability's 'Activate only ...' (602.5b): ACTIVATION_LIMITS, joined by ' and '

    def describe(self) -> str:
        """The verb and its arguments as written in a card file."""
        parts = []
        for key, value in self.args.items():
            if value is None or value == frozenset():
                continue
            if callable(value):
                value = getattr(value, "text", None) or key
            elif isinstance(value, frozenset):
                value = ",".join(sorted(value))
            parts.append(f"{key}={value}")
        if self.when is not None:
            parts.append(f"when={getattr(self.when, 'text', self.when)}")
        if self.condition is not None:
            parts.append(getattr(self.condition, "text", "if=?"))
        if self.optional:
            parts.append("may=true")
        if self.tax is not None:
            parts.append(f"unless_pays={self.tax}")
        return f"{self.verb} {' '.join(parts)}".strip()


@dataclass(frozen=True, slots=True, eq=False)
class CardDef:
    """The printed facts of one card and its behaviour as verbs attached to hooks."""

    name: str
    cost: ManaCost
    types: frozenset[str]
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    keywords: frozenset[str] = frozenset()
    colours: frozenset[str] = frozenset()
    identity: frozenset[str] = frozenset()
    hooks: dict[str, tuple[Effect, ...]] = field(default_factory=dict)
    mana: tuple[frozenset[str], ...] = ()  # its first free mana ability's mana, each one mana of any of these colours ("C" colourless)
    mana_abilities: tuple[ManaAbility, ...] = ()  # every mana ability (the free one of ``mana`` too), in printed order
    equip: ManaCost | None = None
    enchant: Effect | None = None  # an Aura's Enchant: what it may enchant, as a target (its ``target`` filter)
    flashback: ManaCost | None = None
    kicker: ManaCost | None = None  # kicker (or multikicker) cost: an additional cost it may pay
    multikicker: bool = False  # the kicker cost may be paid any number of times
    cycling: ManaCost | None = None  # cycling cost: discard it from hand and draw a card
    unearth: ManaCost | None = None  # unearth cost: from the graveyard to the battlefield with haste, exiled at end step
    # Keywords with a cost (702; horde.engine.rules.keyword_abilities): evoke (702.74) and dash (702.109) are
    # alternative costs, buyback (702.27) an additional one; typecycling (702.29e-f) finds a card of
    # ``cycling_finds`` (card terms: "basic land", "plains") instead of drawing; echo (702.30) is paid
    # in the upkeep after it came under its controller's control; suspend (702.62) is (time counters,
    # cost, whether the card has a mana cost to be cast with at all).
    evoke: ManaCost | None = None
    dash: ManaCost | None = None
    buyback: ManaCost | None = None
    cycling_finds: str | None = None
    echo: ManaCost | None = None
    suspend: tuple[int, ManaCost, bool] | None = None
    from_graveyard: Any = None  # 'you may cast ~ from your graveyard': (extra generic cost amount or None, condition or None)
    horde_x: int = 3  # H7: the X the Horde pays for a spell with X
    enters_tapped: Any = None  # a condition under which it enters tapped (614.1c: a check land's 'unless you control ...')
    enters_pay_life: int = 0  # 'As ~ enters, you may pay 2 life. If you don't, it enters tapped' (a shock land)
    choose_colour: frozenset[str] = frozenset()  # 'As ~ enters, choose a color [other than red]': the colours it may choose
    choose: tuple[int, int] = (1, 1)  # a modal spell's modes to choose: (least, most)
    text: str = ""
    source: str = ""  # file:line where the card is defined
    # Derived at load (horde.cards.catalogue) so the rules need not search hooks on the hot path.
    anthems: tuple[Effect, ...] = ()  # Static anthem effects
    equipped: tuple[Effect, ...] = ()  # the anthems it gives what it is attached to (Equipped, Enchanted)
    static_flags: frozenset[str] = frozenset()  # names of rule-level static verbs it has
    points: dict[str, tuple[Effect, ...]] = field(default_factory=dict)  # its static verbs by the point they apply at
    # 604.3, 208.2: a characteristic-defining ability (Static: pt_equals): the amount each `*` of
    # the printed power and toughness stands for (None: that side is printed as a number); a printed
    # "1+*" keeps its 1 in ``power`` or ``toughness``, the amount added to it.
    power_amount: Any = None
    toughness_amount: Any = None
    counters: Effect | None = None  # its counter_spell effect, when it is a counterspell
    is_fog: bool = False
    # A card of two faces (709, 712, 715): its layout as MTGJSON names it (``split``, ``aftermath``,
    # ``adventure``, ``modal_dfc``, ``transform``, ``flip``; "" for a card of one face) and its other
    # faces, each a CardDef of its own (a split card's halves and, with fuse, both halves cast
    # together: a face of layout ``fused``; an adventure card's Adventure; a double-faced card's back).
    # In every zone but the stack and the battlefield the card is this whole (709.4: a split card's
    # characteristics are both halves' combined); a face is cast, or played, and is the permanent.
    layout: str = ""
    faces: tuple[CardDef, ...] = ()
    overload: ManaCost | None = None  # overload cost (702.96): cast for it, its 'target' becomes 'each'
    costs_less: Any = None  # 'this spell costs {1} less to cast for each ...': the generic mana less (an amount)
    # Type facts asked on the hot path, set once in __post_init__.
    is_token: bool = field(init=False, default=False)
    is_legendary: bool = field(init=False, default=False)  # the legend rule looks at it (704.5j)
    is_creature: bool = field(init=False, default=False)
    is_land: bool = field(init=False, default=False)
    is_planeswalker: bool = field(init=False, default=False)
    is_permanent: bool = field(init=False, default=True)
    verbs: frozenset[str] = field(init=False, default=frozenset())  # every verb it uses, for the AI
    makes_mana: bool = field(init=False, default=False)  # it has a mana ability (the battlefield indexes it)
    mana_dynamic: bool = field(init=False, default=False)  # its free mana is read when made (ManaAbility.dynamic)
    mana_options: tuple[ManaAbility, ...] = field(init=False, default=())  # its mana abilities other than ``mana``'s
    mana_colours: frozenset[str] = field(init=False, default=frozenset())  # what its mana abilities can make
    mana_yield: int = field(init=False, default=0)  # the most one of its mana abilities makes (ManaAbility.most)
    graveyard_ability: bool = field(init=False, default=False)  # flashback, unearth, cast or activated from a graveyard
    protection: bool = field(init=False, default=False)  # it has, or its anthems give, a protection keyword
    indexed: bool = field(init=False, default=False)  # the battlefield keeps it in an index beyond its hooks
    grouped: dict[str, list[tuple[Effect, ...]]] = field(init=False, default_factory=dict, repr=False)
    shrinks: bool = field(init=False, default=False)  # an anthem of it (or of what it is attached to) lowers toughness
    # How it may be cast from a hand: 'hand' (its mana cost; not for a card with suspend and no mana
    # cost: 118.6), 'evoke' and 'dash' (alternative costs), 'suspend' (exiled with time counters: 702.62).
    hand_origins: tuple[str, ...] = field(init=False, default=("hand",))
    pt_amount: Any = field(init=False, default=None)  # a */* CDA's amount (power's, else toughness's); None: none
    whole: CardDef | None = field(init=False, default=None, repr=False)  # a face's card: the one in hand, library, graveyard
    face: str = field(init=False, default="")  # how a face is played: FACES
    hand_spells: tuple[CardDef, ...] = field(init=False, default=(), repr=False)  # what a player may cast of it from hand
    land_faces: tuple[CardDef, ...] = field(init=False, default=(), repr=False)  # the faces it may be played as a land

    def __post_init__(self) -> None:
        object.__setattr__(self, "verbs", frozenset(e.verb for effects in self.hooks.values() for e in effects))
        object.__setattr__(self, "pt_amount", self.power_amount if self.power_amount is not None else self.toughness_amount)
        abilities = self.mana_abilities
        if not abilities and self.mana:
            abilities = (ManaAbility(self.mana),)
            object.__setattr__(self, "mana_abilities", abilities)
        first = next((a for a in abilities if a.free), None)
        if first is not None and not self.mana:
            object.__setattr__(self, "mana", first.units)
        object.__setattr__(self, "makes_mana", bool(abilities))
        object.__setattr__(self, "mana_dynamic", first is not None and first.dynamic)
        object.__setattr__(self, "mana_options", tuple(a for a in abilities if a is not first))
        # what it can make: its commander's colours and a colour chosen as it enters count as any
        # colour (a deck holds only cards of its identity), the opponents' lands' as none (the
        # Horde seldom has lands)
        object.__setattr__(self, "mana_colours", frozenset(ANY if c in (IDENTITY, CHOSEN) else c for a in abilities
                                                           for u in a.units for c in u if c != OPPONENTS_LANDS))
        object.__setattr__(self, "mana_yield", max((a.most for a in abilities), default=0))
        object.__setattr__(self, "is_token", "Token" in self.supertypes)
        object.__setattr__(self, "is_legendary", "Legendary" in self.supertypes)
        object.__setattr__(self, "is_creature", "Creature" in self.types)
        object.__setattr__(self, "is_land", "Land" in self.types)
        object.__setattr__(self, "is_planeswalker", "Planeswalker" in self.types)
        object.__setattr__(self, "is_permanent", not ({"Instant", "Sorcery", "Scheme"} & self.types))
        object.__setattr__(self, "shrinks", any(e.args["toughness"] < 0 for e in self.anthems + self.equipped))
        for face in self.faces:
            object.__setattr__(face, "whole", self)
            object.__setattr__(face, "face", _face_kind(self.layout, face))
        playable = (self,) + tuple(f for f in self.faces if f.face in ("half", "fused", "adventure", "back"))
        if self.layout in ("split", "aftermath"):
            playable = playable[1:]  # the whole of a split card is never cast: a half is (709.3)
        object.__setattr__(self, "hand_spells", tuple(f for f in playable if not f.is_land))
        object.__setattr__(self, "land_faces", tuple(f for f in playable if f.is_land))
        object.__setattr__(self, "graveyard_ability", bool(self.flashback or self.unearth or self.from_graveyard
                                                               or "GraveyardActivated" in self.hooks
                                                               or "retrace" in self.keywords  # 702.81
                                                               or any(f.face == "aftermath" for f in self.faces)))
        if "changeling" in self.keywords:  # 702.73a: every creature type, in every zone
            object.__setattr__(self, "subtypes", self.subtypes | EVERY_CREATURE_TYPE)
        object.__setattr__(self, "protection", any(k.startswith("protection from") for k in self.keywords) or any(
            k.startswith("protection from") for e in self.anthems + self.equipped for k in e.args["keywords"]))
        if self.evoke or self.dash or self.suspend:
            origins: tuple[str, ...] = () if self.suspend is not None and not self.suspend[2] else ("hand",)
            origins += ("evoke",) * (self.evoke is not None) + ("dash",) * (self.dash is not None)
            object.__setattr__(self, "hand_origins", origins + ("suspend",) * (self.suspend is not None))
        object.__setattr__(self, "indexed", bool(self.anthems or self.equipped or self.points or self.enchant
                                                 or self.protection or self.static_flags))

    @property
    def mana_value(self) -> int:
        return self.cost.value

    @property
    def whole_card(self) -> CardDef:
        """The card this is: a face's whole card (what goes to a zone: 709.4, 712.8, 715.4), else itself."""
        whole = self.whole
        return self if whole is None else whole

    def __deepcopy__(self, memo: dict[int, Any]) -> CardDef:
        return self  # a card's definition never changes: a copied game (look-ahead) shares it

    def abilities(self, hook: str) -> list[tuple[Effect, ...]]:
        """A hook's abilities (or modes), each the tuple of effects written on one line (worked
        out once per card and hook; callers must not change the list)."""
        found = self.grouped.get(hook)
        if found is None:
            groups: dict[int, list] = {}
            for effect in self.hooks.get(hook, ()):
                groups.setdefault(effect.line, []).append(effect)
            found = self.grouped[hook] = [tuple(group) for group in groups.values()]
        return found

    def type_line(self) -> str:
        left = " ".join(sorted(self.supertypes - {"Token"}) + (["Token"] if self.is_token else []))
        main = " ".join(t for t in ("Artifact", "Enchantment", "Planeswalker", "Land", "Creature",
                                    "Instant", "Sorcery", "Kindred", "Scheme") if t in self.types)
        line = f"{left} {main}".strip()
        subtypes = self.subtypes
        if "changeling" in self.keywords:
            subtypes = (subtypes - EVERY_CREATURE_TYPE) | {"(every creature type)"}
        if subtypes:
            line += " — " + " ".join(sorted(subtypes))
        return line


# How each face of a card of two faces is played (``CardDef.face``).
FACES = {
    "half": "a split card's half, cast from hand (709.3)",
    "fused": "both halves of a split card with fuse, cast together from hand (702.102)",
    "aftermath": "an aftermath half: cast only from its owner's graveyard, then exiled (702.127)",
    "adventure": "an Adventure, cast from hand; as it resolves the card is exiled, and its creature may be cast "
                 "from exile later (715.3)",
    "back": "a modal double-faced card's back face, cast (or played as a land) instead of the front (712.12)",
    "transformed": "a transforming card's back face: not played (no verb transforms a permanent)",
}


def _face_kind(layout: str, face: CardDef) -> str:
    if face.layout == "fused":
        return "fused"
    if layout in ("split", "aftermath"):
        return "aftermath" if "aftermath" in face.keywords else "half"
    if layout == "adventure":
        return "adventure"
    if layout == "modal_dfc":
        return "back"
    return "transformed"


# ---------------------------------------------------------------- abilities in the words of the card

_SENTENCE = re.compile(r"(?<=[.)\"])\s+(?=[A-Z+\u2212{-])")
_LOYALTY = re.compile(r"^[+\u2212-](?:\d+|X):")
_ACTIVATED = re.compile(r"^(?:(?:\{[^}]+\})+|[A-Z][^.:]*?)(?:,\s*(?:(?:\{[^}]+\})+|[^.:,]+))*:")


def printed_abilities(card: CardDef) -> tuple[list[str], list[str]]:
    """The card's loyalty abilities and its activated abilities as printed, each in the order of
    its text: an ability is the sentence that starts with its cost and the sentences after it
    (Liliana's "-3: Destroy target creature. Its controller loses 2 life.")."""
    loyalty: list[str] = []
    activated: list[str] = []
    current: list[str] | None = None
    for sentence in _SENTENCE.split(card.text.strip()) if card.text.strip() else []:
        if _LOYALTY.match(sentence):
            loyalty.append(sentence)
            current = loyalty
        elif _ACTIVATED.match(sentence) and ("{" in sentence.split(":")[0] or "Exile" in sentence.split(":")[0]
                                               or "Sacrifice" in sentence.split(":")[0]):
            activated.append(sentence)
            current = activated
        elif current is not None:
            current[-1] += " " + sentence
    return loyalty, activated


def ability_text(card: CardDef, ability: tuple[Effect, ...]) -> str:
    """An ability of the card (a boss's loyalty ability, a lieutenant's activated one) in the
    words of its card; the card file's verbs where the text can't be matched to it."""
    loyalty, activated = printed_abilities(card)
    if ability[0].cost is not None:
        group = sorted((a for hook in ("Plus", "Minus", "Ultimate") for a in card.abilities(hook)),
                       key=lambda a: a[0].line)
        printed = loyalty
    else:
        group = card.abilities("Activated")
        printed = activated
    if len(group) == len(printed) and ability in group:
        return printed[group.index(ability)]
    return " ; ".join(e.describe() for e in ability)
