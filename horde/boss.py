"""The boss and the lieutenants: d20 tables, loyalty, shield counters, equipment, time counters.

Rules B1-B6 and L1-L8 of RULES.md. The dice come from ``game.dice_rng`` alone, so the boss and
lieutenants never shift the Horde's shuffle or the team's draws. Shield counters (L4) are a
general mechanic of ``horde.rules``; this module only decides when lieutenants get them.
"""

from __future__ import annotations

from horde import rules
from horde.events import log
from horde.filters import Context
from horde.state import HORDE_CONTROLLER, Game, Permanent

HORDE = HORDE_CONTROLLER


def d20(game: Game) -> int:
    return game.dice_rng.randrange(1, 21)


# ---------------------------------------------------------------- the boss (B1-B6)


class BossState:
    """The boss: not a permanent (B2), only its card, its loyalty, and a stand-in that lets its
    static and triggered abilities (B5) be found by the rules without being on the battlefield."""

    __slots__ = ("card", "loyalty", "arrived", "stand_in", "uses")

    def __init__(self, card):
        self.card = card
        self.loyalty = card.loyalty or 0
        self.arrived = False
        self.stand_in: Permanent | None = None
        self.uses = {"plus": 0, "minus": 0, "ultimate": 0}


def abilities(card, hook: str) -> list[tuple]:
    """A loyalty hook's abilities, each a tuple of the effects written on one line."""
    return card.abilities(hook)


def boss_arrives(game: Game) -> None:
    """B1: the boss appears at the start of the Horde's first turn with its starting loyalty."""
    boss = game.boss
    boss.arrived = True
    stand_in = Permanent(-1, boss.card, HORDE, HORDE)
    boss.stand_in = stand_in
    rules.track(game, boss.card, 1)  # B5: its triggered abilities trigger
    if boss.card.anthems or boss.card.static_flags:
        game.statics.append(stand_in)  # B5: its static abilities work while it is in the game
        rules.board_changed(game)
    if game.trace is not None:
        log(game, "boss_arrives", "horde", name=boss.card.name, loyalty=boss.loyalty)


def choose_boss_ability(game: Game) -> tuple[str, tuple, int | None]:
    """B3/B4: which loyalty ability the boss activates this turn; returns (class, effects, roll)."""
    boss = game.boss
    card = boss.card
    plus = abilities(card, "Plus")
    minus = abilities(card, "Minus")
    ultimate = abilities(card, "Ultimate")

    def affordable(group):
        return [a for a in group if boss.loyalty + a[0].cost >= 0]

    def pick(group):
        return group[0] if len(group) == 1 else group[game.dice_rng.randrange(len(group))]  # B4

    minus_ok = affordable(minus) + affordable(ultimate)
    if not minus_ok:
        return "plus", pick(plus), None  # B3: too low for every minus ability
    roll = d20(game)
    if roll <= 12:
        return "plus", pick(plus), roll
    wanted = minus if roll <= 18 else ultimate
    kind = "minus" if roll <= 18 else "ultimate"
    ok = affordable(wanted)
    if ok:
        return kind, pick(ok), roll
    # B3 Decision: the most expensive minus ability it can afford.
    cheapest = min(a[0].cost for a in minus_ok)
    best = [a for a in minus_ok if a[0].cost == cheapest]
    kind = "ultimate" if best[0] in ultimate else "minus"
    return kind, pick(best), roll


def boss_acts(game: Game) -> None:
    """B3: once in each Horde turn the boss activates one loyalty ability."""

    boss = game.boss
    if not (abilities(boss.card, "Plus") or abilities(boss.card, "Minus")):
        return
    kind, ability, roll = choose_boss_ability(game)
    before = boss.loyalty
    boss.loyalty = max(0, boss.loyalty + ability[0].cost)  # B2: loyalty may reach 0, it stays
    boss.uses[kind] += 1
    game.stats.boss_uses[f"{boss.card.name}: {kind}: {' ; '.join(e.describe() for e in ability)}"] += 1
    if game.trace is not None:
        log(game, "boss_ability", "horde", name=boss.card.name, roll=roll, ability=kind,
                  effects=" ; ".join(e.describe() for e in ability), loyalty_before=before,
                  loyalty_after=boss.loyalty)
    rules.resolve(game, ability, Context(boss.card, None, HORDE))
    rules.check_state(game)


# ---------------------------------------------------------------- lieutenants (L1-L8)


class Lieutenant:
    """One drawn lieutenant: how often it has entered, and its time counters while exiled."""

    __slots__ = ("card", "entered", "time_counters", "permanent")

    def __init__(self, card):
        self.card = card
        self.entered = 0
        self.time_counters = 0
        self.permanent: Permanent | None = None


class LieutenantState:
    """The drawn lieutenants, the entry counters (L2), the exile queue (L7), the equipment list (L3)."""

    __slots__ = ("drawn", "entry_counters", "exiled", "equipment")

    def __init__(self, drawn, equipment):
        self.drawn: list[Lieutenant] = drawn
        self.entry_counters = 0
        self.exiled: list[Lieutenant] = []  # in the order they were exiled (L7: first exiled first)
        self.equipment: list = list(equipment)


def draw_lieutenants(game: Game, pool, equipment) -> LieutenantState | None:
    """L1: one lieutenant per player above two, drawn at random without replacement."""
    count = min(max(0, game.setup.players - 2), len(pool))
    if count == 0:
        return None
    pool = list(pool)
    drawn = []
    for _ in range(count):
        drawn.append(Lieutenant(pool.pop(game.dice_rng.randrange(len(pool)))))
    return LieutenantState(drawn, equipment)


def entry_roll(game: Game) -> None:
    """L2: roll a d20 plus the entry counters; 18 or more lets a random waiting lieutenant enter.
    Decision: a natural 17 is no entry."""
    state = game.lieutenants
    waiting = [lt for lt in state.drawn if lt.entered == 0]
    if not waiting:
        return
    roll = d20(game)
    total = roll + state.entry_counters
    entered = roll != 17 and total >= 18
    if game.trace is not None:
        log(game, "lieutenant_roll", "horde", roll=roll, counters=state.entry_counters, total=total,
                  entered=entered)
    if entered:
        state.entry_counters = 0
        lieutenant_enters(game, waiting[game.dice_rng.randrange(len(waiting))])
    else:
        state.entry_counters += 1


def lieutenant_enters(game: Game, lieutenant: Lieutenant) -> None:
    """L3: it enters with one shield counter per time it has entered, then a random equipment
    from the equipment list is attached to it (none when the list is empty)."""
    state = game.lieutenants
    lieutenant.entered += 1
    game.stats.lieutenant_entries += 1
    card = state.equipment.pop(game.dice_rng.randrange(len(state.equipment))) if state.equipment else None
    if game.trace is not None:
        log(game, "lieutenant_enters", "horde", name=lieutenant.card.name, shields=lieutenant.entered,
                  equipment=card.name if card else None)
    p = rules.put_onto_battlefield(game, lieutenant.card, HORDE, HORDE, lieutenant=lieutenant,
                                   shields=lieutenant.entered)  # L4 counters
    if card is not None:
        if lieutenant.permanent is p and rules.on_battlefield(game, p):
            equipment = rules.put_onto_battlefield(game, card, HORDE, HORDE)
            equipment.extra = True
            attach(game, equipment, p)
        else:
            state.equipment.append(card)  # it left before the equipment could be attached


def attach(game: Game, equipment: Permanent, creature: Permanent) -> None:
    """Attach an equipment to a creature (moving it from another)."""
    if equipment.attached_to is not None:
        equipment.attached_to.equipment.remove(equipment)
    equipment.attached_to = creature
    creature.equipment.append(equipment)
    rules.board_changed(game)


def protected(game: Game, p: Permanent) -> bool:
    """L5: a lieutenant can't be targeted, blocked or dealt damage unless the Horde controls no
    other creature (blocking has a second way out: see ``blocks_allowed``)."""
    for other in game.horde_board:
        if other is not p and other.card.is_creature:
            return True
    return False


def blocks_allowed(game: Game, attackers: list[Permanent], blocks: list[tuple]) -> bool:
    """L5 for blocking: a protected lieutenant may be blocked only if every other attacking Horde
    creature is blocked in the same declaration."""
    blocked = {id(a) for _, a in blocks}
    for _, attacker in blocks:
        if attacker.lieutenant is not None and protected(game, attacker):
            if any(id(a) not in blocked for a in attackers if a is not attacker):
                return False
    return True


def defeat(game: Game, p: Permanent, by: int, equipment: list[Permanent]) -> None:
    """L6: a lieutenant that would leave the battlefield is exiled with d20 time counters; its
    equipment goes to the team player whose source dealt the lethal damage or destroyed it.
    Decision: when no team player did (the Horde's own spell, a sacrifice), the equipment goes
    back to the equipment list."""
    lieutenant = p.lieutenant
    state = game.lieutenants
    lieutenant.permanent = None
    lieutenant.time_counters = d20(game)
    state.exiled.append(lieutenant)
    game.stats.lieutenant_defeats += 1
    if p in game.statics:
        game.statics.remove(p)
    to = None
    for item in equipment:
        if item not in game.horde_board:
            continue
        game.horde_board.remove(item)
        if by >= 0:
            item.controller = by  # the team player may equip it for its equip cost
            game.team_board.append(item)
            to = by
        else:
            if item in game.statics:
                game.statics.remove(item)
            state.equipment.append(item.card)
    if game.trace is not None:
        log(game, "lieutenant_defeated", "horde", name=lieutenant.card.name,
                  time_counters=lieutenant.time_counters, equipment_to=None if to is None else to + 1)


def time_counters_turn(game: Game) -> None:
    """L7: at the beginning of each Horde turn, remove a time counter from each exiled lieutenant."""
    for lieutenant in list(game.lieutenants.exiled):
        _remove_time_counter(game, lieutenant, "horde_turn")


def creature_damaged_player(game: Game) -> None:
    """L7: a Horde creature dealt damage to a team player: the lieutenant exiled first loses one."""
    state = game.lieutenants
    if state.exiled:
        _remove_time_counter(game, state.exiled[0], "damage")


def _remove_time_counter(game: Game, lieutenant: Lieutenant, reason: str) -> None:
    lieutenant.time_counters -= 1
    if game.trace is not None:
        log(game, "time_counter_removed", "horde", name=lieutenant.card.name, reason=reason,
                  left=lieutenant.time_counters)
    if lieutenant.time_counters <= 0:
        game.lieutenants.exiled.remove(lieutenant)
        lieutenant_enters(game, lieutenant)  # L7: it enters again (L3)


def can_activate(game: Game, p: Permanent, ability) -> bool:
    """Whether a lieutenant can pay an activated ability's costs now (mana is free: H7)."""
    costs = ability[0].costs
    if "tap" in costs and p.tapped:
        return False
    return all(rules.sacrifice_options(game, p, cost) for cost in costs
               if isinstance(cost, str) and cost.startswith("sacrifice"))


def lieutenants_act(game: Game) -> set:
    """L8: a lieutenant with an activated ability it can pay for activates it instead of attacking.
    Returns the ids of the lieutenants that acted (they do not attack)."""

    acted = set()
    if game.lieutenants is None:
        return acted
    for lieutenant in game.lieutenants.drawn:
        p = lieutenant.permanent
        if p is None or not rules.on_battlefield(game, p):
            continue
        usable = [a for a in abilities(p.card, "Activated") if can_activate(game, p, a)]
        if not usable:
            continue
        ability = usable[game.horde_rng.randrange(len(usable))]  # H9
        costs = ability[0].costs
        if game.trace is not None:
            log(game, "lieutenant_acts", "horde", name=p.card.name,
                      effects=" ; ".join(e.describe() for e in ability))
        if "tap" in costs:
            p.tapped = True
        for cost in costs:
            if isinstance(cost, str) and cost.startswith("sacrifice"):
                options = rules.sacrifice_options(game, p, cost)
                rules.sacrifice(game, options[game.horde_rng.randrange(len(options))])  # H9
        if "exile this" in costs:
            rules.exile(game, p, HORDE)  # L6: it is exiled with time counters
        acted.add(p.id)
        game.stats.lieutenant_actions += 1
        rules.resolve(game, ability, Context(p.card, p, HORDE))
        rules.check_state(game)
        if game.winner is not None:
            break
    return acted


def beginning_of_horde_turn(game: Game) -> None:
    """H4: the beginning of the Horde's turn: the boss arrives (B1), entry roll (L2), time
    counters fall (L7)."""
    if game.boss is not None and not game.boss.arrived:
        boss_arrives(game)
    if game.lieutenants is not None:
        entry_roll(game)
        time_counters_turn(game)
