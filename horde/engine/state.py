"""Plain game state: sides, players, zones, the battlefield, the boss and the lieutenants.

Nothing here knows a rule: ``horde.engine.rules`` changes this state by the rule book, ``horde.play``
drives it. The state is lean on purpose (``__slots__``, lists of shared ``CardDef`` values for
hidden zones) because millions of games are played. The top of a library is the *end* of its list.

A ``Game`` keeps three kinds of thing apart:

- the state proper: the ``Game``'s own fields (life, turn, zones of each side, the dice);
- the battlefield (``Battlefield``): both sides' permanents and the indexes derived from them,
  changed only through its methods, which keep the indexes true;
- the drivers (``Drivers``): the policy that chooses for the team, what records and watches the
  game, and the hook points where a higher layer acts inside the rules (L6, L7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from random import Random
from typing import Any, Protocol

from horde.engine.cards import CardDef
from horde.engine.decisions import Chooser
from horde.limits import BOARD_UNIT, WORK_BUDGET
from horde.setup import GameSetup


class Side(StrEnum):
    """The two sides (H1); a value equals its text, so records and traces read ``"team"``."""

    TEAM = "team"
    HORDE = "horde"


class Winner(StrEnum):
    """How a game ended: the team won (H12), the Horde won (H13), neither by the stall guard
    (H14), or the game was stopped by the work budget (H15: its cards make it run away)."""

    TEAM = "team"
    HORDE = "horde"
    STALL = "stall"
    ABORTED = "aborted"


def board_units(game: Game) -> int:
    """H15: the units a look at every permanent costs beyond the first (``spend``)."""
    battlefield = game.battlefield
    return (len(battlefield.team) + len(battlefield.horde)) // BOARD_UNIT


class GameAborted(Exception):
    """H15: the game passed its work budget (or nested its triggered abilities too deep); the
    engine ends it with the winner ``aborted``. ``reason`` says which limit it passed."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def spend(game: Game, units: int = 1) -> None:
    """H15: ``units`` of the game's work (an effect resolved, a permanent entering, a decision
    asked, a turn); past ``WORK_BUDGET`` the game is aborted. Work that looks at every permanent
    costs one more unit per ``BOARD_UNIT`` permanents on the battlefield, so a huge board spends
    the budget as fast as it spends time."""
    game.work += units
    if game.work > WORK_BUDGET:
        raise GameAborted(f"more than {WORK_BUDGET:,} units of work (effects resolved, permanents entering, "
                          "decisions)")


HORDE_CONTROLLER = -1  # the controller (and owner) index of every Horde permanent; team players count from 0
NO_MASTER = -2  # Z2: the master of a player who is no zombie
NO_CONTROLLER = -2  # a permanent's base_controller while no Aura controls it


class Permanent:
    """One permanent on the battlefield (a card or a token) and its counters."""

    __slots__ = (
        "id", "card", "controller", "owner", "tapped", "sick", "damage", "plus", "minus", "shields",
        "temp_power", "temp_toughness", "temp_keywords", "deathtouched", "attached_to", "attached_player",
        "equipment", "auras", "lieutenant", "is_commander", "attacking", "blocked", "blockers",
        "defender", "last_hit_by", "deck_card", "bonus", "bonus_version", "extra", "regeneration", "no_regen",
        "kicked", "unearthed", "skip_untaps", "kept_keywords", "kept_until", "sworn", "loyalty", "loyalty_turn",
        "attacked", "present", "all_keywords", "exiled_with", "charge", "chosen", "printed", "base_controller", "linked",
        "marks",
    )

    def __init__(self, pid: int, card: CardDef, controller: int, owner: int):
        self.id = pid
        self.card = card
        self.controller = controller  # team player index, or HORDE_CONTROLLER
        self.owner = owner
        self.tapped = False
        self.sick = True  # summoning sickness; the Horde's creatures have haste (H8)
        self.damage = 0
        self.plus = 0  # +1/+1 counters
        self.minus = 0  # -1/-1 counters (704.5q: never both kinds on one permanent)
        self.shields = 0  # L4 shield counters
        self.temp_power = 0  # until end of turn
        self.temp_toughness = 0
        self.temp_keywords: frozenset[str] = frozenset()
        self.deathtouched = False  # dealt damage by a source with deathtouch since the last check
        self.attached_to: Permanent | None = None  # equipment or aura: the permanent it is attached to
        self.attached_player: int | None = None  # an aura that enchants a player: that player (the Horde: -1)
        self.equipment: list[Permanent] = []  # creature: equipment attached to it
        self.auras: list[Permanent] = []  # the Auras attached to it
        self.lieutenant: Lieutenant | None = None  # the Lieutenant record when this permanent is one (L3)
        self.is_commander = False
        self.attacking = False
        self.blocked = False
        self.blockers: list[Permanent] = []
        self.defender = -1  # the team player it attacks, or the controller of the planeswalker it attacks (H8)
        self.last_hit_by = -2  # controller of the last source that dealt it damage or lowered its toughness (L6)
        self.deck_card = False  # a token card of the Horde deck (not a token an effect created)
        self.bonus: tuple[int, int, frozenset[str]] = (0, 0, frozenset())  # from anthems and equipment
        self.bonus_version = -1  # the battlefield version ``bonus`` was worked out at
        self.all_keywords = card.keywords  # printed and given by anthems and equipment, as of ``bonus_version``
        self.extra = False  # a lieutenant's equipment: not a card of the Horde deck (L3)
        self.regeneration = 0  # regeneration shields until end of turn
        self.no_regen = False  # it can't be regenerated this turn
        self.kicked = 0  # times its spell was kicked ('if it was kicked')
        self.unearthed = False  # returned by unearth: exiled at the next end step or when it would leave
        self.skip_untaps = 0  # its controller's next untap steps it does not untap in (F: Neck Tangle)
        self.kept_keywords: frozenset[str] = frozenset()  # keywords kept past this turn's end (F: Hide)
        self.kept_until = 0  # the Horde turn at whose end the kept keywords end
        self.sworn = -1  # the team player it attacks each combat if able (A: Rotted Ones, Lay Siege); -1: at random
        self.loyalty = 0  # loyalty counters: a planeswalker enters with its printed loyalty (306.5b)
        self.loyalty_turn = 0  # the turn it last activated a loyalty ability (606.3: one a turn)
        self.attacked: Permanent | None = None  # the team planeswalker it attacks (H8); None: the player `defender`
        self.present = False  # on the battlefield: kept by the Battlefield's enter and leave (a stand-in never is)
        self.exiled_with: tuple[CardDef, ...] = ()  # 607.2a: the cards its own ability exiled ("the exiled cards")
        self.charge = 0  # charge counters (a Vivid land's, Everflowing Chalice's)
        self.chosen = ""  # the colour chosen as it entered (CardDef.choose_colour), or ""
        self.printed: CardDef | None = None  # its own card while an Aura makes it something else (``card``: 613.1)
        self.base_controller = NO_CONTROLLER  # its controller before an Aura took control of it (613.1b)
        self.linked: list[tuple[CardDef, int, str]] | None = None  # what its abilities moved (607.2a: 'the exiled card')
        # Counters of other kinds (fade, time, age) and the designations keyword abilities give
        # (renowned, echo unpaid, dashed): kind -> number; None until one is put (most never have any).
        self.marks: dict[str, int] | None = None

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
        "identity", "pool", "spent_riders", "generic_mana", "banned", "out_of_game", "life", "zombie", "master", "removed",
        "spells_cast", "adventures",
    )

    def __init__(self, index: int, deck_name: str, commander: CardDef | None, rng: Random):
        self.index = index  # from 0; events name the player index + 1
        self.deck_name = deck_name
        self.library: list[CardDef] = []
        self.hand: list[CardDef] = []
        self.graveyard: list[CardDef] = []
        self.exile: list[CardDef] = []
        self.command: list[CardDef] = [commander] if commander is not None else []  # C2
        self.commander = commander
        self.commander_casts: dict[str, int] = {}  # C2: each commander's casts from the command zone (903.10)
        self.land_played = False
        self.poison = 0
        self.drew_from_empty = False  # 704.5b
        self.deck_size = 0
        self.rng = rng  # this deck's own stream (shuffles)
        self.identity: frozenset[str] = commander.identity if commander else frozenset()
        self.pool: list[frozenset[str]] = []  # mana left floating by a source that made more than it paid
        self.spent_riders: list[str] = []  # what the mana a payment spent does to its spell (RiderMana, 106.6)
        self.generic_mana = False  # C4: the deck asks for colours to count as generic mana
        self.banned: frozenset[str] = frozenset()  # R3
        self.out_of_game: list[CardDef] = []  # R3: banned cards drawn and thrown away (no zone of the game)
        # Z: with life = "individual", its own life; a fallen player is a zombie with a master (the
        # Horde's HORDE_CONTROLLER or a teammate's index); a player who lost otherwise is removed (Z4).
        self.life = 0
        self.zombie = False
        self.master = NO_MASTER
        self.removed = False
        self.spells_cast = 0  # spells it cast this turn (A: I Bask in Your Silent Awe)
        self.adventures: list[CardDef] = []  # 715.4: its cards in exile on an adventure (also in ``exile``)


class HordeSide:
    """The Horde's zones (H1: it has no player, the engine plays it)."""

    __slots__ = ("library", "hand", "graveyard", "exile", "revealed", "deck_size", "tokens_gone")

    def __init__(self) -> None:
        self.library: list[CardDef] = []
        self.hand: list[CardDef] = []  # H6: only bounced cards wait here
        self.graveyard: list[CardDef] = []
        self.exile: list[CardDef] = []
        self.revealed: list[CardDef] = []  # H5: revealed and set aside, not yet cast
        self.deck_size = 0
        self.tokens_gone = 0  # token cards of the deck that ceased to exist (H6)


class BossState:
    """The boss: not a permanent (B2), only its card, its loyalty, and a stand-in that lets its
    static and triggered abilities (B5) be found by the rules without being on the battlefield."""

    __slots__ = ("card", "loyalty", "arrived", "stand_in", "uses")

    def __init__(self, card: CardDef):
        self.card = card
        self.loyalty = card.loyalty or 0
        self.arrived = False
        self.stand_in: Permanent | None = None
        self.uses = {"plus": 0, "minus": 0, "ultimate": 0}


class Lieutenant:
    """One drawn lieutenant: how often it has entered, and its time counters while exiled."""

    __slots__ = ("card", "entered", "time_counters", "permanent")

    def __init__(self, card: CardDef):
        self.card = card
        self.entered = 0
        self.time_counters = 0
        self.permanent: Permanent | None = None


class LieutenantState:
    """The drawn lieutenants, the entry counters (L2), the exile queue (L7), the equipment list (L3)."""

    __slots__ = ("drawn", "entry_counters", "exiled", "equipment")

    def __init__(self, drawn: list[Lieutenant], equipment: list[CardDef]):
        self.drawn: list[Lieutenant] = drawn
        self.entry_counters = 0
        self.exiled: list[Lieutenant] = []  # in the order they were exiled (L7: first exiled first)
        self.equipment: list[CardDef] = list(equipment)


class Battlefield:
    """The permanents on the battlefield, each side's in the order they entered, and the indexes
    derived from them. Its methods are the one way onto, off and around the battlefield, and each
    keeps the indexes true, so nothing else writes them (the rules read them):

    - ``statics``: the permanents (and the boss's stand-in, B5) with anthems (Static or Equipped)
      or other static verbs (``CardDef.static_flags``: Maddened Oread's "attacks while", G4);
    - ``points``: point name -> the permanents (and the stand-in) with static verbs applied
      there (``horde.engine.effects.POINTS``);
    - ``auras``: the Auras on the battlefield (704.5m looks at them);
    - ``planeswalkers``: the planeswalkers on the battlefield (704.5i and H8 look at them);
    - ``legends``: how many legendary permanents are on the battlefield (704.5j looks from two);
    - ``mana_sources``: team player index -> its permanents that make mana, in the order of
      ``team`` (C4: what it can pay is counted from them alone); under ``HORDE_CONTROLLER``, the
      Horde's lands that make mana (what "a land an opponent controls could produce" reads);
    - ``hooked``: hook name -> how many of those sources have it, so a trigger nobody has costs
      no search;
    - ``counting``: creatures whose power and toughness count things (*/*);
    - ``version``: bumped whenever what anthems and equipment give may change, so a bonus cached
      on a permanent at an older version is stale;
    - ``volatile``: some anthem looks at a state that changes without a zone change (attacking,
      tapped), so no bonus is cached;
    - ``by_card``: every anthem asks only a permanent's card and controller (and whether it is
      the anthem's source), so what anthems give is kept per (card, controller) in ``bonuses``
      for permanents with no anthem of their own, until the anthems' sources or their
      controllers change;
    - ``unsettled``: something changed that state-based actions must look at.
    """

    __slots__ = ("team", "horde", "statics", "points", "auras", "planeswalkers", "hooked", "counting", "version", "volatile",
                 "by_card", "bonuses", "anthem_sources", "unsettled", "next_id", "protections", "unearthed",
                 "mana_sources", "legends")

    def __init__(self) -> None:
        self.team: list[Permanent] = []  # every team player's permanents
        self.horde: list[Permanent] = []
        self.statics: list[Permanent] = []
        self.points: dict[str, list[Permanent]] = {}
        self.auras: list[Permanent] = []
        self.planeswalkers: list[Permanent] = []
        self.hooked: dict[str, int] = {}
        self.counting = 0
        self.version = 0
        self.volatile = False
        self.by_card = True
        self.bonuses: dict[tuple[CardDef, int], tuple[int, int, frozenset[str]]] = {}
        self.anthem_sources: list[tuple[Permanent, int]] = []  # (source, its controller) the bonuses were worked out for
        self.unsettled = True
        self.next_id = 0
        self.protections = 0  # sources of a protection keyword (printed, given by anthems or until end of turn)
        self.unearthed: list[Permanent] = []  # permanents returned by unearth (702.84: exiled at the next end step)
        self.mana_sources: dict[int, list[Permanent]] = {}
        self.legends = 0  # legendary permanents on the battlefield (704.5j looks when there are two)

    def enter(self, card: CardDef, controller: int, owner: int) -> Permanent:
        """A new permanent of ``card`` on ``controller``'s side (no rule: its triggers and the
        states it enters with are the caller's, ``horde.engine.rules.put_onto_battlefield``)."""
        p = Permanent(self.next_id, card, controller, owner)
        p.present = True
        self.next_id += 1
        (self.horde if controller == HORDE_CONTROLLER else self.team).append(p)
        self._file(p, card, 1)
        if card.anthems:
            self.anthems_changed()  # a new anthem: every cached bonus is stale
        return p

    def _file(self, p: Permanent, card: CardDef, change: int) -> None:
        """Put a permanent of ``card`` into the indexes its card calls for (``change`` 1), or
        take it out of them (-1)."""
        if card.indexed:
            if card.anthems or card.equipped or card.static_flags:
                if change > 0:
                    self.statics.append(p)
                else:
                    self.statics.remove(p)
            if card.points:
                self._at_points(p, change)
            if card.enchant is not None:
                if change > 0:
                    self.auras.append(p)
                else:
                    self.auras.remove(p)
            if card.protection:
                self.protections += change
        if card.is_planeswalker:
            if change > 0:
                self.planeswalkers.append(p)
            else:
                self.planeswalkers.remove(p)
        if card.makes_mana and (p.controller != HORDE_CONTROLLER or card.is_land):
            if change > 0:
                self.mana_sources.setdefault(p.controller, []).append(p)
            else:
                self.mana_sources[p.controller].remove(p)
        if card.is_legendary:
            self.legends += change
        self._index(card, change)

    def leave(self, p: Permanent) -> bool:
        """Take a permanent off the battlefield: its equipment falls off (or it falls off its
        creature) and it leaves combat. False when it was not on the battlefield."""
        if not p.present:
            return False
        p.present = False
        changed = bool(p.card.anthems or p.equipment or p.auras or p.attached_to is not None)
        (self.horde if p.controller == HORDE_CONTROLLER else self.team).remove(p)
        card = p.card
        self._file(p, card, -1)  # enter put it there
        for equipment in p.equipment:
            equipment.attached_to = None
        p.equipment = []
        for aura in p.auras:
            aura.attached_to = None  # 704.5m puts it into the graveyard
        p.auras = []
        if p.attached_to is not None:
            attached = p.attached_to
            (attached.auras if p.card.enchant is not None else attached.equipment).remove(p)
            p.attached_to = None
        if p.unearthed:
            self.unearthed.remove(p)
        p.attacking = False
        p.attacked = None
        p.blockers = []
        if changed:
            self.anthems_changed()
        return True

    def change_control(self, p: Permanent, controller: int) -> None:
        """A permanent on the battlefield gets a new controller (moving sides if need be)."""
        if (p.controller == HORDE_CONTROLLER) != (controller == HORDE_CONTROLLER):
            (self.horde if p.controller == HORDE_CONTROLLER else self.team).remove(p)
            (self.horde if controller == HORDE_CONTROLLER else self.team).append(p)
        card = p.card
        if card.makes_mana:
            if p.controller != HORDE_CONTROLLER or card.is_land:
                self.mana_sources[p.controller].remove(p)
            if controller != HORDE_CONTROLLER:  # in the order of ``team``, where it may keep its place
                self.mana_sources[controller] = [q for q in self.team
                                                 if q.card.makes_mana and (q.controller == controller or q is p)]
            elif card.is_land:
                self.mana_sources.setdefault(controller, []).append(p)
        p.controller = controller
        self.anthems_changed()  # "yours" and "opponents" now answer otherwise

    def attach(self, equipment: Permanent, creature: Permanent) -> None:
        """Attach an equipment to a creature (moving it from another)."""
        if equipment.attached_to is not None:
            equipment.attached_to.equipment.remove(equipment)
        equipment.attached_to = creature
        creature.equipment.append(equipment)
        self.anthems_changed()

    def enchant(self, aura: Permanent, target: Permanent | int) -> None:
        """Attach an Aura to the permanent or player it enchants (the Horde: ``HORDE_CONTROLLER``)."""
        if isinstance(target, Permanent):
            aura.attached_to = target
            target.auras.append(aura)
        else:
            aura.attached_player = target
        self.anthems_changed()

    def become(self, p: Permanent, card: CardDef) -> None:
        """A permanent's characteristics become those of ``card`` (an Aura makes it a colorless
        Forest land: 613.1a-f): the indexes follow, as if it left as what it was and entered as
        what it is, with no zone change."""
        old = p.card
        if card is old:
            return
        self._file(p, old, -1)
        p.card = card
        self._file(p, card, 1)
        if card.makes_mana and p.controller != HORDE_CONTROLLER:  # in the order of ``team``
            self.mana_sources[p.controller] = [q for q in self.team if q.card.makes_mana and q.controller == p.controller]
        p.all_keywords = card.keywords
        self.anthems_changed()

    def unearth(self, p: Permanent) -> None:
        """A permanent returned by unearth: exiled at the next end step or if it would leave (702.84)."""
        p.unearthed = True
        self.unearthed.append(p)

    def watch(self, source: Permanent) -> None:
        """A source whose static and triggered abilities work though it is not on the
        battlefield: the boss's stand-in (B5)."""
        self._index(source.card, 1)
        if source.card.points:
            self._at_points(source, 1)
        if source.card.protection:
            self.protections += 1
        if source.card.anthems or source.card.static_flags:
            self.statics.append(source)
            if source.card.anthems:
                self.anthems_changed()

    def unwatch(self, source: Permanent) -> None:
        """A watched source stops working (an abandoned scheme: A1)."""
        self._index(source.card, -1)
        if source.card.points:
            self._at_points(source, -1)
        if source.card.protection:
            self.protections -= 1
        if source in self.statics:
            self.statics.remove(source)
            if source.card.anthems:
                self.anthems_changed()

    def anthems_changed(self) -> None:
        """What anthems and equipment give may have changed (an anthem entered or left, equipment
        moved, a permanent changed control): every cached bonus is stale."""
        self.version += 1
        self.unsettled = True
        self.volatile = any(getattr(effect.args["filter"], "volatile", False)
                            for source in self.statics for effect in source.card.anthems)
        self.by_card = all(getattr(effect.args["filter"], "by_card", False)
                           for source in self.statics for effect in source.card.anthems)
        sources = [(source, source.controller) for source in self.statics if source.card.anthems]
        if sources != self.anthem_sources:
            # Equipment or an Aura moving, or a permanent that carried some leaving, changes no
            # anthem's answers: the bonuses per card and controller stay.
            self.anthem_sources = sources
            self.bonuses = {}

    def unsettle(self) -> None:
        """A creature's damage or toughness changed: state-based actions must look."""
        self.unsettled = True

    def settle(self) -> None:
        """State-based actions have looked at everything that changed."""
        self.unsettled = False

    def _at_points(self, p: Permanent, change: int) -> None:
        for point in p.card.points:
            sources = self.points.setdefault(point, [])
            if change > 0:
                sources.append(p)
            else:
                sources.remove(p)
                if not sources:
                    del self.points[point]

    def _index(self, card: CardDef, change: int) -> None:
        hooked = self.hooked
        for hook in card.hooks:
            hooked[hook] = hooked.get(hook, 0) + change
        if card.pt_amount is not None:
            self.counting += change
        self.unsettled = True


@dataclass(slots=True)
class GameStats:
    """What a game records beyond its winner (for per-card and swing analysis)."""

    cards_revealed: int = 0
    streak: int = 0
    longest_streak: int = 0  # the longest run of tokens revealed in a row
    revealed: list[tuple[str, int]] = field(default_factory=list)  # (nontoken card name, Horde turn)
    cast_this_turn: int = 0
    biggest_turn: int = 0  # the most cards the Horde cast in one turn
    boss_uses: Counter[str] = field(default_factory=Counter)
    lieutenant_entries: int = 0
    lieutenant_defeats: int = 0
    lieutenant_actions: int = 0
    team_life_min: int = 0


# The hook points (named for what happens): L6, a lieutenant leaving the battlefield, with the
# controller of what removed it and the equipment it had; L7, a Horde creature dealing damage to
# a team player.
LieutenantLeaves = Callable[["Game", Permanent, int, list[Permanent]], None]
CreatureDamagedPlayer = Callable[["Game"], None]
# A Horde permanent left the battlefield (F3); damage or life loss the team would deal to the
# Horde, redirected (returns True when it was: F6, G3); a choice the Horde faces, made by a
# heuristic or by the team (kind, options, the card asking; returns the option: H9s, F7).
PermanentLeft = Callable[["Game", Permanent], None]
OpponentDamaged = Callable[["Game", int, "Permanent | None"], bool]
HordeChoice = Callable[["Game", str, list[Any], "CardDef | None"], Any]
# The opponent's creatures that would attack in its next combat as the board stands (G4: only
# those a card tells to), for the team's policies; None: every creature (H8).
HordeAttackers = Callable[["Game"], list[Permanent]]


class TeamSide(Protocol):
    """The team's side when people play it at a real table (``horde.table``): the engine knows the
    Horde's side and the team's life, not the team's cards. Where a rule needs what it cannot see,
    it asks at that moment, and never guesses:

    - ``targets``: the team's permanents a Horde effect could target (H9: the Horde then picks among
      them and its own; ``harm``: the effect hurts what it targets, which a smart Horde aims at the
      team's most valuable, H9s; ``known``: the legal targets the engine already has);
    - ``respond``: what the team does at instant speed in a window of the Horde's turn
      (``window``: "attackers" once the attackers are declared, "fog" once blocks are, "bite"
      before the Hydra's Heads bite, F2);
    - ``blockers``: the team's blockers (H8: stand-in creatures with the power and toughness the
      players give, put onto the battlefield for the combat and taken off after it);
    - ``counts``: the team's part of a count a Horde card reads (``kind``: "count" permanents,
      "graveyard" or "hand" cards matching ``text``), one number for each of ``players``;
    - ``sacrifice``: how many permanents matching ``flt`` each of ``players`` sacrifices to a Horde
      effect (``n`` of them, None: as many as the players say, ``may``: each chooses whether),
      sacrificed as stand-ins so that the Horde's abilities see them die;
    - ``counter``: the team player who counters a Horde spell as it is cast (H10), or None;
    - ``prevent``: how much of ``n`` damage the Horde would deal a team player outside combat the
      team prevents;
    - ``decided``: a condition of a Horde effect decided by the Horde's part of its count alone
      (the team's part can only add to it), else None (then its count is asked)."""

    def targets(self, game: Game, ctx: Any, flt: Any, harm: bool, known: list[Any]) -> list[Permanent]: ...

    def respond(self, game: Game, window: str) -> None: ...

    def blockers(self, game: Game, attackers: list[Permanent]) -> None: ...

    def counts(self, game: Game, ctx: Any, kind: str, text: str, players: list[int]) -> list[int]: ...

    def sacrifice(self, game: Game, ctx: Any, flt: Any, players: list[int], n: int | None,
                  may: bool = False) -> list[int]: ...

    def counter(self, game: Game, card: CardDef) -> int | None: ...

    def prevent(self, game: Game, source: Permanent | None, player: int, n: int) -> int: ...

    def decided(self, game: Game, ctx: Any, condition: Any) -> bool | None: ...


class Drivers:
    """What plays and watches a game without being part of its state: the team's policy and the
    read-only view it is shown, the trace and the statistics the result records, the check run
    after every step (tests; the table's clean-up of its stand-ins), the hook points where the
    boss's rules act inside the rules (wired by the engine when lieutenants are drawn, so the rules
    never import the boss), and at a real table the people who play the team's side (``team_side``)."""

    __slots__ = ("policy", "view", "trace", "stats", "turn_rows", "check", "lieutenant_leaves",
                 "creature_damaged_player", "permanent_left", "opponent_damaged", "horde_choice",
                 "horde_attackers", "team_side")

    def __init__(self, policy: Chooser, stats: GameStats, trace: list[dict[str, Any]] | None = None):
        self.policy = policy
        self.view: object = None  # the policies' read-only TeamView of this game
        self.trace = trace  # events, only when a trace was asked for
        self.stats = stats
        self.turn_rows: list[tuple[int, int, int, int]] | None = None  # (turn, team life, Horde power, library)
        self.check: Callable[[Game], None] | None = None  # called after every step (conformance tests)
        self.lieutenant_leaves: LieutenantLeaves | None = None  # L6
        self.creature_damaged_player: CreatureDamagedPlayer | None = None  # L7
        self.permanent_left: PermanentLeft | None = None  # F3: a Head left (wired by an opponent's setup)
        self.opponent_damaged: OpponentDamaged | None = None  # F6, G3: damage to the opponent goes to a creature
        self.horde_choice: HordeChoice | None = None  # H9s, F7: who makes the Horde's choices (None: at random)
        self.horde_attackers: HordeAttackers | None = None  # G4: who attacks next (None: every creature, H8)
        self.team_side: TeamSide | None = None  # people play the team at a table (None: the policy plays it)


class Game:
    """The state of one game. Rules live in ``horde.engine.rules``; this only holds values."""

    __slots__ = (
        "setup", "tokens", "players", "horde", "battlefield", "turn", "horde_turns", "active",
        "team_life", "start_life", "damage_taken", "life_lost", "life_gained", "winner", "horde_rng",
        "dice_rng", "boss", "lieutenants", "horde_milled", "fogged", "drivers",
        "emblems", "emblem_counter", "extra_turns", "spells_locked", "held", "delayed", "horde_haste", "burning",
        "schemes", "borrowed", "prevented", "work", "depth", "waiting", "checking", "left_together",
        "spells_this_turn", "keyword_state", "unknown_order",
    )

    def __init__(self, setup: GameSetup, tokens: dict[str, CardDef], horde_rng: Random, dice_rng: Random,
                 drivers: Drivers):
        self.setup = setup  # the rules' settings (section D)
        self.tokens = tokens  # the token cards effects create, by name
        self.players: list[TeamPlayer] = []
        self.horde = HordeSide()
        self.battlefield = Battlefield()
        self.turn = 0
        self.horde_turns = 0  # how many Horde turns have begun (H5e: k)
        self.active = Side.TEAM
        self.start_life = setup.start_life  # H1 (or a fixed team life: V1, V9)
        self.team_life = self.start_life
        self.damage_taken = 0
        self.life_lost = 0
        self.life_gained = 0
        self.winner: Winner | None = None
        self.horde_rng = horde_rng  # H9: the Horde's shuffle and choices
        self.dice_rng = dice_rng  # B3, L2, L6: the boss's and lieutenants' dice
        self.boss: BossState | None = None  # when a boss is in the game (B1)
        self.lieutenants: LieutenantState | None = None  # when lieutenants are drawn (L1)
        self.horde_milled = 0
        self.fogged = False  # combat damage is prevented this turn
        self.drivers = drivers
        self.emblems = 1  # V2: the Horde's emblems (Overwhelming Numbers)
        self.emblem_counter = 0  # V2: grows by the players at the end of each Horde turn
        self.extra_turns = 0  # Horde turns to take right after this one (F: Strike the Weak Spot)
        self.spells_locked = False  # team players can't cast spells until the Horde's next turn (F)
        self.held: list[tuple[CardDef, int, Any]] = []  # (card, owner, filter): exiled until a permanent matching leaves (F)
        self.delayed: list[tuple[Any, Any]] = []  # (context, effects) at the beginning of this combat (M, G)
        self.horde_haste = True  # H8: Horde creatures have haste (not Xenagos's: G4)
        self.burning = False  # V5: this combat's damage to the Horde exiles from its graveyard
        self.schemes: SchemeState | None = None  # A1: the Horde's scheme deck, when it is an archenemy
        self.borrowed: list[tuple[Permanent, int]] = []  # (permanent, controller to return to) at end of turn
        self.prevented: list[tuple[Any, Any]] = []  # (filter, context): damage to matching permanents is prevented this turn
        self.work = 0  # H15: units of work spent (state.spend)
        self.depth = 0  # H15: abilities resolving inside one another now
        self.waiting: list[Any] = []  # H13a: triggered abilities that wait to be put on the stack (rules.Trigger)
        self.checking = False  # H13a: state-based actions and the stack are being worked through now
        self.left_together: list[Permanent] = []  # 603.10a: creatures with "whenever a creature dies" abilities that died in this event
        self.spells_this_turn = 0  # spells cast this turn by anyone (storm: 702.40)
        self.keyword_state: KeywordState | None = None  # what keyword abilities leave waiting (made when first needed)
        # A fair copy's (engine.fork.redraw): its libraries were shuffled again, so nobody knows their
        # order, and a mill takes their bottom cards: the same law as the top ones (any cards of a
        # shuffled library are a random draw), and copies that mill more meet the same next reveals
        self.unknown_order = False

    def over(self) -> bool:
        """Whether the game has ended. Asked as a call, so no type checker or compiler takes the
        answer to hold across the calls that may end the game."""
        return self.winner is not None


class KeywordState:
    """What keyword abilities leave waiting outside the battlefield's permanents: cards exiled
    with time counters by suspend (702.62: [card, owner, counters]), cards exiled by rebound to be
    cast at their owner's next upkeep (702.88: (card, owner)), permanents cast with dash that
    return to their owner's hand at the next end step (702.109), and myriad's token copies, exiled
    at the end of combat (702.116)."""

    __slots__ = ("suspended", "rebounding", "dashed", "myriad")

    def __init__(self) -> None:
        self.suspended: list[list[Any]] = []
        self.rebounding: list[tuple[CardDef, int]] = []
        self.dashed: list[Permanent] = []
        self.myriad: list[Permanent] = []


# ---------------------------------------------------------------- the archenemy's schemes (A1)


class SchemeState:
    """The Horde's scheme deck (904.3-904.4: shuffled, face down; its top is the end of the list)
    and the ongoing schemes face up in the command zone (904.11), each a stand-in watched by the
    battlefield so that its static and triggered abilities work (904.8), and what the abandon
    conditions count this turn."""

    __slots__ = ("deck", "face_up", "set_in_motion", "damage_this_turn", "graveyard_at_start",
                 "spells_since", "next_id", "rng")

    def __init__(self, deck: list[CardDef], rng: Random):
        self.deck = deck
        self.face_up: list[Permanent] = []  # the ongoing schemes set in motion and not yet abandoned
        self.set_in_motion = 0  # schemes set in motion so far
        self.damage_this_turn = 0  # damage dealt to the Horde this turn (Nothing Can Stop Me Now)
        self.graveyard_at_start = 0  # cards in the Horde's graveyard when this turn began (I Know All, I See All)
        self.spells_since = 0  # spells the team cast since the Horde's last turn ended (I Bask in Your Silent Awe)
        self.next_id = SCHEME_ID
        self.rng = rng  # the scheme deck's own stream: a game without schemes draws nothing from it


SCHEME_ID = -1000  # schemes' stand-ins count down from here (the boss is -1, emblems -2, -3, ...)
