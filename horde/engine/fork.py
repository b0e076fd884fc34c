"""Forks: a copy of a game that plays on exactly as the game itself would, and the same copy with
what the team can't know drawn again.

A policy that searches plays candidate answers forward on copies of the game, thousands of times
a game, so the copy is made here, in compiled code, class by class: every zone, permanent,
counter and index of the battlefield copied, each permanent once (a permanent named in several
places, the battlefield's lists, its equipment and blockers, a lieutenant's record, a delayed
ability's context, is one permanent in the copy too), and what never changes in place shared (the
card definitions, the setup, the token cards, filters, text). The copy has drivers of its own: the
policy given, fresh statistics, no trace unless asked, the same rule hooks (L6, L7, F3, H9s, G4).

``fork`` copies the random streams too, so the copy meets the same reveals and dice as the game
(a clairvoyant copy). ``redraw`` then makes a copy fair: it gives the copy new random streams and
shuffles again the zones that are face down (701.20, 401.2: no player knows a library's order),
each first put in one canonical order, so the copy depends on what is hidden only through what
is known (which cards a zone holds, not their order).

Nothing here knows a policy: the team layer wraps the copy in its view.
"""

from __future__ import annotations

from _random import Random as BaseRandom
from random import Random

from horde.engine.cards import CardDef
from horde.engine.decisions import Chooser
from horde.engine.filters import Context, Known
from horde.engine.rules.abilities import Trigger
from horde.engine.shuffling import shuffle
from horde.engine.state import (
    Battlefield,
    BossState,
    Drivers,
    Game,
    GameStats,
    HordeSide,
    KeywordState,
    Lieutenant,
    LieutenantState,
    Permanent,
    SchemeState,
    TeamPlayer,
)

_HOOKS = ("lieutenant_leaves", "creature_damaged_player", "permanent_left", "opponent_damaged", "horde_choice",
          "horde_attackers")


def fork(game: Game, policy: Chooser, trace: bool = False) -> Game:
    """A copy of ``game`` that plays on exactly as it would, chosen for by ``policy``: its random
    streams at the same state, its own drivers (the same rule hooks, fresh statistics, a trace
    when asked); the game itself is untouched by anything the copy does. Its ``drivers.view`` is
    left for the caller to set (the team's view sits above the engine)."""
    return _Copier({}).game(game, policy, trace)


class Snapshot:
    """A game kept to be forked many times (a search's position at the start of a turn): an exact
    copy, and its random streams' states read once. Reading a stream's state is most of a
    fork's work (624 numbers made for each of up to seven streams), so forks of a snapshot
    reuse the states read here."""

    __slots__ = ("game", "states")

    def __init__(self, game: Game, policy: Chooser):
        self.game = fork(game, policy)
        self.states: dict[int, tuple[int, ...]] = {id(rng): BaseRandom.getstate(rng) for rng in streams(self.game)}

    def fork(self, policy: Chooser) -> Game:
        """A copy of the kept game, as ``fork`` makes it."""
        return _Copier(self.states).game(self.game, policy, False)


def streams(game: Game) -> list[Random]:
    """Every random stream of a game: the Horde's, the dice, each team deck's, the scheme deck's."""
    found = [game.horde_rng, game.dice_rng] + [player.rng for player in game.players]
    if game.schemes is not None:
        found.append(game.schemes.rng)
    return found


def redraw(game: Game, rng: Random) -> None:
    """Make a copy fair: ``rng`` becomes every random stream of ``game`` (the Horde's, the dice,
    each team deck's, the scheme deck's), and every face-down zone (the Horde's library, each
    team player's library, the scheme deck: 401.2) is put in a canonical order and shuffled with
    it, so the future reveals, draws, dice and random picks are ones the team could imagine from
    what it knows. ``rng`` alone decides them (with the known contents of those zones)."""
    game.horde_rng = rng
    game.dice_rng = rng
    game.unknown_order = True  # its mills take the bottom cards (Game.unknown_order)
    game.horde.library.sort(key=canonical)
    shuffle(rng, game.horde.library)  # H4: the Horde's library is face down
    for player in game.players:
        player.rng = rng
        player.library.sort(key=canonical)
        shuffle(rng, player.library)
    schemes = game.schemes
    if schemes is not None:
        schemes.rng = rng
        schemes.deck.sort(key=canonical)
        shuffle(rng, schemes.deck)  # 904.4: the scheme deck is face down


def canonical(card: CardDef) -> tuple[str, str]:
    """A card's place in the canonical order of a face-down zone: its name, then where it is
    defined, so two orders of the same cards sort alike."""
    return (card.name, card.source)


class _Copier:
    """One copy in the making: each permanent and lieutenant of the game copied once; the
    streams' states read already (by ``id`` of the stream), if any."""

    def __init__(self, states: dict[int, tuple[int, ...]]) -> None:
        self.states = states
        self.permanents: dict[int, Permanent] = {}
        self.lieutenants: dict[int, Lieutenant] = {}

    def game(self, old: Game, policy: Chooser, trace: bool) -> Game:
        drivers = old.drivers
        own = Drivers(policy, GameStats(team_life_min=drivers.stats.team_life_min), [] if trace else None)
        own.lieutenant_leaves = drivers.lieutenant_leaves
        own.creature_damaged_player = drivers.creature_damaged_player
        own.permanent_left = drivers.permanent_left
        own.opponent_damaged = drivers.opponent_damaged
        own.horde_choice = drivers.horde_choice
        own.horde_attackers = drivers.horde_attackers
        new = Game(old.setup, old.tokens, self.stream(old.horde_rng), self.stream(old.dice_rng), own)
        new.players = [self.player(player) for player in old.players]
        new.horde = self.horde(old.horde)
        new.battlefield = self.battlefield(old.battlefield)
        new.turn = old.turn
        new.horde_turns = old.horde_turns
        new.active = old.active
        new.team_life = old.team_life
        new.start_life = old.start_life
        new.damage_taken = old.damage_taken
        new.life_lost = old.life_lost
        new.life_gained = old.life_gained
        new.winner = old.winner
        new.boss = None if old.boss is None else self.boss(old.boss)
        new.lieutenants = None if old.lieutenants is None else self.lieutenant_state(old.lieutenants)
        new.horde_milled = old.horde_milled
        new.fogged = old.fogged
        new.emblems = old.emblems
        new.emblem_counter = old.emblem_counter
        new.extra_turns = old.extra_turns
        new.spells_locked = old.spells_locked
        new.held = list(old.held)  # (card, owner, filter): nothing in them changes in place
        new.delayed = [(self.context(ctx), effects) for ctx, effects in old.delayed]
        new.horde_haste = old.horde_haste
        new.burning = old.burning
        new.schemes = None if old.schemes is None else self.schemes(old.schemes)
        new.borrowed = [(self.permanent(p), controller) for p, controller in old.borrowed]
        new.prevented = [(flt, self.context(ctx)) for flt, ctx in old.prevented]
        new.work = old.work
        new.depth = old.depth
        # H13a: the triggered abilities waiting for the stack, and the creatures that died together
        new.waiting = [self.trigger(waiting) for waiting in old.waiting]
        new.checking = old.checking
        new.left_together = self.permanent_list(old.left_together)
        new.spells_this_turn = old.spells_this_turn
        new.unknown_order = old.unknown_order
        if old.keyword_state is not None:
            state = new.keyword_state = KeywordState()
            state.suspended = [list(entry) for entry in old.keyword_state.suspended]
            state.rebounding = list(old.keyword_state.rebounding)
            state.dashed = self.permanent_list(old.keyword_state.dashed)
            state.myriad = self.permanent_list(old.keyword_state.myriad)
        return new

    def trigger(self, old: Trigger) -> Trigger:
        """A waiting triggered ability: its context's permanents are the copy's (an action of the
        rules, undying or persist, takes the game it runs in and holds no permanent)."""
        return Trigger(old.controller, old.effects, None if old.ctx is None else self.context(old.ctx), old.action)

    def player(self, old: TeamPlayer) -> TeamPlayer:
        new = TeamPlayer(old.index, old.deck_name, old.commander, self.stream(old.rng))
        new.library = list(old.library)
        new.hand = list(old.hand)
        new.graveyard = list(old.graveyard)
        new.exile = list(old.exile)
        new.command = list(old.command)
        new.commander_casts = dict(old.commander_casts)  # C2: each commander's casts
        new.out_of_game = list(old.out_of_game)  # R3
        new.land_played = old.land_played
        new.poison = old.poison
        new.drew_from_empty = old.drew_from_empty
        new.deck_size = old.deck_size
        new.identity = old.identity
        new.pool = list(old.pool)
        new.spent_riders = list(old.spent_riders)
        new.generic_mana = old.generic_mana
        new.banned = old.banned
        new.life = old.life
        new.zombie = old.zombie
        new.master = old.master
        new.removed = old.removed
        new.spells_cast = old.spells_cast
        new.adventures = list(old.adventures)
        return new

    def horde(self, old: HordeSide) -> HordeSide:
        new = HordeSide()
        new.library = list(old.library)
        new.hand = list(old.hand)
        new.graveyard = list(old.graveyard)
        new.exile = list(old.exile)
        new.revealed = list(old.revealed)
        new.deck_size = old.deck_size
        new.tokens_gone = old.tokens_gone
        return new

    def battlefield(self, old: Battlefield) -> Battlefield:
        new = Battlefield()
        new.team = self.permanent_list(old.team)
        new.horde = self.permanent_list(old.horde)
        new.statics = self.permanent_list(old.statics)
        new.points = {point: self.permanent_list(sources) for point, sources in old.points.items()}
        new.auras = self.permanent_list(old.auras)
        new.planeswalkers = self.permanent_list(old.planeswalkers)
        new.hooked = dict(old.hooked)
        new.counting = old.counting
        new.version = old.version
        new.volatile = old.volatile
        new.by_card = old.by_card
        new.bonuses = dict(old.bonuses)
        new.anthem_sources = [(self.permanent(p), controller) for p, controller in old.anthem_sources]
        new.unsettled = old.unsettled
        new.next_id = old.next_id
        new.legends = old.legends  # 704.5j
        new.protections = old.protections
        new.unearthed = self.permanent_list(old.unearthed)
        new.mana_sources = {player: self.permanent_list(sources) for player, sources in old.mana_sources.items()}
        return new

    def permanent_list(self, old: list[Permanent]) -> list[Permanent]:
        return [self.permanent(p) for p in old]

    def permanent(self, old: Permanent) -> Permanent:
        """The copy of a permanent, made the first time it is met (its links after it is known,
        so a link back to it finds it)."""
        found = self.permanents.get(id(old))
        if found is not None:
            return found
        new = Permanent(old.id, old.card, old.controller, old.owner)
        self.permanents[id(old)] = new
        new.tapped = old.tapped
        new.sick = old.sick
        new.damage = old.damage
        new.plus = old.plus
        new.charge = old.charge
        new.chosen = old.chosen
        new.minus = old.minus
        new.shields = old.shields
        new.temp_power = old.temp_power
        new.temp_toughness = old.temp_toughness
        new.temp_keywords = old.temp_keywords
        new.deathtouched = old.deathtouched
        new.attached_player = old.attached_player
        new.is_commander = old.is_commander
        new.attacking = old.attacking
        new.blocked = old.blocked
        new.defender = old.defender
        new.last_hit_by = old.last_hit_by
        new.deck_card = old.deck_card
        new.bonus = old.bonus
        new.bonus_version = old.bonus_version
        new.all_keywords = old.all_keywords
        new.extra = old.extra
        new.regeneration = old.regeneration
        new.no_regen = old.no_regen
        new.kicked = old.kicked
        new.unearthed = old.unearthed
        new.skip_untaps = old.skip_untaps
        new.kept_keywords = old.kept_keywords
        new.kept_until = old.kept_until
        new.sworn = old.sworn
        new.loyalty = old.loyalty
        new.loyalty_turn = old.loyalty_turn
        new.present = old.present
        new.marks = None if old.marks is None else dict(old.marks)
        new.exiled_with = old.exiled_with
        new.printed = old.printed
        new.base_controller = old.base_controller
        new.linked = None if old.linked is None else list(old.linked)
        attached = old.attached_to
        new.attached_to = None if attached is None else self.permanent(attached)
        new.equipment = self.permanent_list(old.equipment)
        new.auras = self.permanent_list(old.auras)
        lieutenant = old.lieutenant
        new.lieutenant = None if lieutenant is None else self.lieutenant(lieutenant)
        new.blockers = self.permanent_list(old.blockers)
        attacked = old.attacked
        new.attacked = None if attacked is None else self.permanent(attacked)
        return new

    def lieutenant(self, old: Lieutenant) -> Lieutenant:
        found = self.lieutenants.get(id(old))
        if found is not None:
            return found
        new = Lieutenant(old.card)
        self.lieutenants[id(old)] = new
        new.entered = old.entered
        new.time_counters = old.time_counters
        permanent = old.permanent
        new.permanent = None if permanent is None else self.permanent(permanent)
        return new

    def lieutenant_state(self, old: LieutenantState) -> LieutenantState:
        new = LieutenantState([self.lieutenant(lieutenant) for lieutenant in old.drawn], old.equipment)
        new.entry_counters = old.entry_counters
        new.exiled = [self.lieutenant(lieutenant) for lieutenant in old.exiled]
        return new

    def boss(self, old: BossState) -> BossState:
        new = BossState(old.card)
        new.loyalty = old.loyalty
        new.arrived = old.arrived
        stand_in = old.stand_in
        new.stand_in = None if stand_in is None else self.permanent(stand_in)
        new.uses = dict(old.uses)
        return new

    def schemes(self, old: SchemeState) -> SchemeState:
        new = SchemeState(list(old.deck), self.stream(old.rng))
        new.face_up = self.permanent_list(old.face_up)
        new.set_in_motion = old.set_in_motion
        new.damage_this_turn = old.damage_this_turn
        new.graveyard_at_start = old.graveyard_at_start
        new.spells_since = old.spells_since
        new.next_id = old.next_id
        return new

    def stream(self, old: Random) -> Random:
        """A random stream at the same state as ``old``."""
        state = self.states.get(id(old))
        new = Random.__new__(Random)
        BaseRandom.setstate(new, BaseRandom.getstate(old) if state is None else state)
        setattr(new, "gauss_next", None)  # noqa: B010 (the rest of a stream's state: a game draws no gauss)
        return new

    def context(self, old: Context) -> Context:
        permanent = old.permanent
        target = old.target
        new = Context(old.card, None if permanent is None else self.permanent(permanent), old.controller,
                      self.permanent(target) if isinstance(target, Permanent) else target, old.x, old.that_player,
                      old.kicked)
        new.spell = old.spell
        new.caster = old.caster
        new.done = old.done
        it = old.it
        if it is not None:
            known = it.permanent
            new.it = Known(None if known is None else self.permanent(known), it.card, it.controller, it.owner,
                           it.power, it.toughness)
        new.moved = None if old.moved is None else list(old.moved)
        return new


