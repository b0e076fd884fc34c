"""Plain game state: sides, players, zones, permanents and counters.

Nothing here knows a rule: ``horde.rules`` changes this state, ``horde.engine`` drives it. The
state is lean on purpose (``__slots__``, lists of shared ``CardDef`` values for hidden zones)
because millions of games are played. The top of a library is the *end* of its list.
"""

from __future__ import annotations

from horde.cards import CardDef

TEAM = "team"
HORDE = "horde"
HORDE_CONTROLLER = -1  # the controller index of every Horde permanent


class Permanent:
    """One permanent on the battlefield (a card or a token) and its counters."""

    __slots__ = (
        "id", "card", "controller", "owner", "tapped", "sick", "damage", "plus", "shields",
        "temp_power", "temp_toughness", "temp_keywords", "deathtouched", "attached_to",
        "equipment", "lieutenant", "is_commander", "attacking", "blocked", "blockers",
        "defender", "last_hit_by", "deck_card", "bonus", "bonus_version", "extra",
    )

    def __init__(self, pid: int, card: CardDef, controller: int, owner: int):
        self.id = pid
        self.card = card
        self.controller = controller  # team player index, or HORDE_CONTROLLER
        self.owner = owner
        self.tapped = False
        self.sick = True  # summoning sickness; the Horde's creatures have haste (H8)
        self.damage = 0
        self.plus = 0  # +1/+1 counters (a -1/-1 counter would cancel one)
        self.shields = 0  # L4 shield counters
        self.temp_power = 0  # until end of turn
        self.temp_toughness = 0
        self.temp_keywords: frozenset[str] = frozenset()
        self.deathtouched = False  # dealt damage by a source with deathtouch since the last check
        self.attached_to: Permanent | None = None  # equipment: the creature it is attached to
        self.equipment: list[Permanent] = []  # creature: equipment attached to it
        self.lieutenant = None  # boss.Lieutenant record when this permanent is one (L3)
        self.is_commander = False
        self.attacking = False
        self.blocked = False
        self.blockers: list[Permanent] = []
        self.defender = -1  # the team player it attacks (H8)
        self.last_hit_by = -2  # controller of the last source that dealt it damage (L6)
        self.deck_card = False  # a token card of the Horde deck (not a token an effect created)
        self.bonus = (0, 0, frozenset())  # what anthems and equipment give it (rules.static_bonus)
        self.bonus_version = -1
        self.extra = False  # a lieutenant's equipment: not a card of the Horde deck (L3)

    @property
    def is_horde(self) -> bool:
        return self.controller == HORDE_CONTROLLER

    @property
    def permanent(self) -> Permanent:
        """A permanent is its own context for the filters of its static abilities."""
        return self

    @property
    def x(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"<{self.card.name}#{self.id}>"


class TeamPlayer:
    """One player of the team: its zones and what it has done this turn."""

    __slots__ = (
        "index", "deck_name", "library", "hand", "graveyard", "exile", "command", "commander",
        "commander_casts", "land_played", "poison", "drew_from_empty", "deck_size", "rng",
        "identity", "pool", "generic_mana", "banned",
    )

    def __init__(self, index: int, deck_name: str, commander: CardDef | None, rng):
        self.index = index
        self.deck_name = deck_name
        self.library: list[CardDef] = []
        self.hand: list[CardDef] = []
        self.graveyard: list[CardDef] = []
        self.exile: list[CardDef] = []
        self.command: list[CardDef] = [commander] if commander is not None else []  # C2
        self.commander = commander
        self.commander_casts = 0  # C2: casts from the command zone so far
        self.land_played = False
        self.poison = 0
        self.drew_from_empty = False  # 704.5b
        self.deck_size = 0
        self.rng = rng  # this deck's own stream (shuffles)
        self.identity: frozenset[str] = commander.identity if commander else frozenset()
        self.pool: list[frozenset[str]] = []  # mana left floating by a source that made more than it paid
        self.generic_mana = False  # C4: the deck asks for colours to count as generic mana
        self.banned: frozenset[str] = frozenset()  # R3


class HordeSide:
    """The Horde's zones (H1: it has no player, the engine plays it)."""

    __slots__ = ("library", "hand", "graveyard", "exile", "revealed", "deck_size", "tokens_gone")

    def __init__(self):
        self.library: list[CardDef] = []
        self.hand: list[CardDef] = []  # H6: only bounced cards wait here
        self.graveyard: list[CardDef] = []
        self.exile: list[CardDef] = []
        self.revealed: list[CardDef] = []  # H5: revealed and set aside, not yet cast
        self.deck_size = 0
        self.tokens_gone = 0  # token cards of the deck that ceased to exist (H6)


class Game:
    """The whole state of one game. Rules live in ``horde.rules``; this only holds values."""

    __slots__ = (
        "setup", "players", "horde", "team_board", "horde_board", "turn", "horde_turns",
        "active", "team_life", "start_life", "damage_taken", "life_lost", "life_gained",
        "winner", "trace", "horde_rng", "dice_rng", "policy", "next_id",
        "statics", "boss", "lieutenants", "stats", "turn_rows", "catalogue", "tokens",
        "horde_milled", "check", "fogged", "shielded", "view", "version", "volatile",
        "unsettled", "hooked", "counting",
    )

    def __init__(self, setup, catalogue, horde_rng, dice_rng, policy, trace=None):
        self.setup = setup
        self.catalogue = catalogue
        self.tokens = catalogue.tokens
        self.players: list[TeamPlayer] = []
        self.horde = HordeSide()
        self.team_board: list[Permanent] = []
        self.horde_board: list[Permanent] = []
        self.turn = 0
        self.horde_turns = 0  # how many Horde turns have begun (H5e: k)
        self.active = TEAM
        self.start_life = setup.life_per_player * setup.players  # H1
        self.team_life = self.start_life
        self.damage_taken = 0
        self.life_lost = 0
        self.life_gained = 0
        self.winner: str | None = None  # "team", "horde" or "stall"
        self.trace: list | None = trace  # events, only when a trace was asked for
        self.horde_rng = horde_rng  # H9: the Horde's shuffle and choices
        self.dice_rng = dice_rng  # B3, L2, L6: the boss's and lieutenants' dice
        self.policy = policy
        self.next_id = 0
        self.statics: list[Permanent] = []  # permanents with Static or Equipped effects
        self.boss = None  # boss.BossState when a boss is in the game (B1)
        self.lieutenants = None  # boss.LieutenantState when lieutenants are drawn (L1)
        self.stats = None  # engine.GameStats: what the result records
        self.turn_rows: list | None = None  # (turn, team life, Horde power, Horde library) per turn
        self.horde_milled = 0
        self.check = None  # a function called after every step (conformance tests)
        self.fogged = False  # combat damage is prevented this turn
        self.shielded: set | None = None  # L4: permanents whose shield absorbed this damage event
        self.view = None  # the policies' read-only TeamView of this game
        self.version = 0  # bumped whenever the battlefield changes (cached bonuses go stale)
        self.volatile = False  # an anthem looks at a changing state (attacking, tapped, ...)
        self.unsettled = True  # something changed that state-based actions must look at
        self.hooked: dict[str, int] = {}  # hook -> permanents on the battlefield (and the boss) having it
        self.counting = 0  # creatures whose power and toughness count things (*/*) on the battlefield
