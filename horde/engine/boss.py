"""The boss and the lieutenants: d20 tables, loyalty, shield counters, equipment, time counters.

Rules B1-B6 and L1-L8 of RULES.md. The dice come from ``game.dice_rng`` alone, so the boss and
lieutenants never shift the Horde's shuffle or the team's draws. Shield counters (L4) are a
general mechanic of ``horde.engine.rules``; this module only decides when lieutenants get them.
"""

from __future__ import annotations

from horde.engine import rules
from horde.engine.cards import LOCKED, CardDef, Effect, ability_text
from horde.engine.events import log
from horde.engine.filters import Context
from horde.engine.shuffling import randbelow
from horde.engine.state import HORDE_CONTROLLER, Game, Lieutenant, LieutenantState, Permanent, Side

Ability = tuple[Effect, ...]  # the effects written on one line of a card: one ability


def loyalty_change(ability: Ability) -> int:
    """A loyalty ability's change of loyalty (B3)."""
    return ability[0].cost or 0


def d20(game: Game) -> int:
    return game.dice_rng.randrange(1, 21)


# ---------------------------------------------------------------- the boss (B1-B6)


def boss_arrives(game: Game) -> None:
    """B1: the boss appears at the start of the Horde's first turn with its starting loyalty."""
    boss = game.boss
    assert boss is not None, "only called while a boss is in the game"
    boss.arrived = True
    stand_in = Permanent(-1, boss.card, HORDE_CONTROLLER, HORDE_CONTROLLER)
    boss.stand_in = stand_in
    game.battlefield.watch(stand_in)  # B5: its static and triggered abilities work while it is in the game
    if game.drivers.trace is not None:
        log(game, "boss_arrives", Side.HORDE, name=boss.card.name, loyalty=boss.loyalty)


def choose_boss_ability(game: Game) -> tuple[str, Ability, int | None]:
    """B3/B4: which loyalty ability the boss activates this turn; returns (class, effects, roll)."""
    boss = game.boss
    assert boss is not None, "only called while a boss is in the game"
    card = boss.card
    plus = card.abilities("Plus")
    minus = card.abilities("Minus")
    ultimate = card.abilities("Ultimate")

    def affordable(group: list[Ability]) -> list[Ability]:
        return [a for a in group if boss.loyalty + loyalty_change(a) >= 0]

    def pick(group: list[Ability]) -> Ability:
        return group[0] if len(group) == 1 else group[randbelow(game.dice_rng, len(group))]  # B4

    if not affordable(minus) and not affordable(ultimate):
        return "plus", pick(plus), None  # B3: too low for every minus ability
    roll = d20(game)
    if roll <= 12:
        return "plus", pick(plus), roll
    if roll >= 19:
        ok = affordable(ultimate)
        if ok:
            return "ultimate", pick(ok), roll  # B3: the ultimate only on 19-20
    elif not minus:
        # B3: no non-ultimate minus ability (Elspeth, Knight-Errant: +1, +1, -8): its second
        # printed ability, whatever its sign.
        printed = sorted(plus, key=lambda a: a[0].line)
        return "plus", printed[1] if len(printed) > 1 else pick(plus), roll
    else:
        ok = affordable(minus)
        if ok:
            return "minus", pick(ok), roll
    # B3 Decision: the rolled ability costs more loyalty than it has: the most expensive
    # non-ultimate minus ability it can afford; with none, a plus ability.
    ok = affordable(minus)
    if not ok:
        return "plus", pick(plus), roll
    cheapest = min(loyalty_change(a) for a in ok)
    return "minus", pick([a for a in ok if loyalty_change(a) == cheapest]), roll


def boss_acts(game: Game) -> None:
    """B3: once in each Horde turn the boss activates one loyalty ability."""
    boss = game.boss
    assert boss is not None, "only called while a boss is in the game"
    if not (boss.card.abilities("Plus") or boss.card.abilities("Minus")):
        return
    kind, ability, roll = choose_boss_ability(game)
    before = boss.loyalty
    boss.loyalty = max(0, boss.loyalty + loyalty_change(ability))  # B2: loyalty may reach 0, it stays
    boss.uses[kind] += 1
    game.drivers.stats.boss_uses[f"{boss.card.name}: {kind}: {' ; '.join(e.describe() for e in ability)}"] += 1
    if game.drivers.trace is not None:
        log(game, "boss_ability", Side.HORDE, name=boss.card.name, roll=roll, ability=kind,
            effects=" ; ".join(e.describe() for e in ability), text=ability_text(boss.card, ability),
            loyalty_before=before, loyalty_after=boss.loyalty)
    rules.resolve(game, ability, Context(boss.card, None, HORDE_CONTROLLER))
    rules.check_state(game)


# ---------------------------------------------------------------- lieutenants (L1-L8)


def draw_lieutenants(game: Game, pool: list[CardDef], equipment: list[CardDef]) -> LieutenantState | None:
    """L1: one lieutenant per player above two, drawn at random without replacement."""
    count = min(max(0, game.setup.players - 2), len(pool))
    if count == 0:
        return None
    pool = list(pool)
    drawn = []
    for _ in range(count):
        drawn.append(Lieutenant(pool.pop(randbelow(game.dice_rng, len(pool)))))
    return LieutenantState(drawn, equipment)


def entry_roll(game: Game) -> None:
    """L2: roll a d20 plus the entry counters; a total of 18 or more lets a random waiting
    lieutenant enter (a natural 17 with counters enters). Decision: a total of 17 is no entry."""
    state = game.lieutenants
    assert state is not None, "only called when lieutenants are drawn"
    waiting = [lt for lt in state.drawn if lt.entered == 0]
    if not waiting:
        return
    roll = d20(game)
    total = roll + state.entry_counters
    entered = total >= 18  # L2: the total counts; a total of 17 is no entry
    if game.drivers.trace is not None:
        log(game, "lieutenant_roll", Side.HORDE, roll=roll, counters=state.entry_counters, total=total,
            entered=entered)
    if entered:
        state.entry_counters = 0
        lieutenant_enters(game, waiting[randbelow(game.dice_rng, len(waiting))])
    else:
        state.entry_counters += 1


def lieutenant_enters(game: Game, lieutenant: Lieutenant) -> None:
    """L3: it enters with one shield counter per time it has entered, then a random equipment
    from the equipment list is attached to it (none when the list is empty)."""
    state = game.lieutenants
    assert state is not None, "only called when lieutenants are drawn"
    lieutenant.entered += 1
    game.drivers.stats.lieutenant_entries += 1
    card = state.equipment.pop(randbelow(game.dice_rng, len(state.equipment))) if state.equipment else None
    if game.drivers.trace is not None:
        log(game, "lieutenant_enters", Side.HORDE, name=lieutenant.card.name, shields=lieutenant.entered,
            equipment=card.name if card else None)
    p = rules.put_onto_battlefield(game, lieutenant.card, HORDE_CONTROLLER, HORDE_CONTROLLER, lieutenant=lieutenant,
                                   shields=lieutenant.entered)  # L4 counters
    if card is not None:
        if lieutenant.permanent is p and rules.on_battlefield(game, p):
            equipment = rules.put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER)
            equipment.extra = True
            game.battlefield.attach(equipment, p)
        else:
            state.equipment.append(card)  # it left before the equipment could be attached


def lieutenant_leaves(game: Game, p: Permanent, by: int, equipment: list[Permanent]) -> None:
    """L6: a lieutenant that would leave the battlefield is exiled with d20 time counters; its
    equipment goes to the team player who dealt the killing blow, whatever the means (``by``:
    damage, destroy, -N/-N, bounce, exile, a forced sacrifice). Decision: when no team player did
    (the Horde's own spell, a cost it paid), the equipment goes back to the equipment list. (The rules call this through ``game.drivers``, once the lieutenant
    is off the battlefield.)"""
    lieutenant = p.lieutenant
    state = game.lieutenants
    assert lieutenant is not None and state is not None
    lieutenant.permanent = None
    lieutenant.time_counters = d20(game)
    state.exiled.append(lieutenant)
    game.drivers.stats.lieutenant_defeats += 1
    battlefield = game.battlefield
    to = None
    for item in equipment:
        if item not in battlefield.horde:
            continue
        if by >= 0:
            battlefield.change_control(item, by)  # the team player may equip it for its equip cost
            to = by
        else:
            battlefield.leave(item)
            state.equipment.append(item.card)
    if game.drivers.trace is not None:
        log(game, "lieutenant_defeated", Side.HORDE, name=lieutenant.card.name,
            time_counters=lieutenant.time_counters, equipment_to=None if to is None else to + 1)


def time_counters_turn(game: Game) -> None:
    """L7: at the beginning of each Horde turn, remove a time counter from each exiled lieutenant."""
    state = game.lieutenants
    assert state is not None, "only called when lieutenants are drawn"
    for lieutenant in list(state.exiled):
        _remove_time_counter(game, lieutenant, "horde_turn")


def creature_damaged_player(game: Game) -> None:
    """L7: a Horde creature dealt damage to a team player: the lieutenant exiled first loses one."""
    state = game.lieutenants
    assert state is not None, "only called when lieutenants are drawn"
    if state.exiled:
        _remove_time_counter(game, state.exiled[0], "damage")


def _remove_time_counter(game: Game, lieutenant: Lieutenant, reason: str) -> None:
    lieutenant.time_counters -= 1
    if game.drivers.trace is not None:
        log(game, "time_counter_removed", Side.HORDE, name=lieutenant.card.name, reason=reason,
            left=lieutenant.time_counters)
    if lieutenant.time_counters <= 0 and game.lieutenants is not None:
        game.lieutenants.exiled.remove(lieutenant)
        lieutenant_enters(game, lieutenant)  # L7: it enters again (L3)


def can_activate(game: Game, p: Permanent, ability: Ability) -> bool:
    """Whether a lieutenant can pay an activated ability's costs now (mana is free: H7)."""
    costs = ability[0].costs
    if "tap" in costs and p.tapped:
        return False
    if rules.has_keyword(game, p, LOCKED):
        return False  # Faith's Fetters
    if any(cost == "discard a card" or cost.startswith("pay ") for cost in costs if isinstance(cost, str)):
        return False  # its hand holds only bounced cards it casts (H6), and it has no life to pay (H11)
    return all(rules.sacrifice_options(game, p, cost) for cost in costs
               if isinstance(cost, str) and cost.startswith("sacrifice"))


def lieutenants_act(game: Game) -> set:
    """L8: a lieutenant with an activated ability it can pay for activates it instead of attacking.
    Returns the ids of the lieutenants that acted (they do not attack)."""
    acted: set[int] = set()
    if game.lieutenants is None:
        return acted
    for lieutenant in game.lieutenants.drawn:
        p = lieutenant.permanent
        if p is None or not rules.on_battlefield(game, p):
            continue
        usable = [a for a in p.card.abilities("Activated") if can_activate(game, p, a)
                  and not all(e.verb == "regenerate" for e in a)]  # it regenerates when it would be destroyed
        if not usable:
            continue
        ability = usable[randbelow(game.horde_rng, len(usable))]  # H9
        costs = ability[0].costs
        if game.drivers.trace is not None:
            log(game, "lieutenant_acts", Side.HORDE, name=p.card.name,
                effects=" ; ".join(e.describe() for e in ability), text=ability_text(p.card, ability))
        if "tap" in costs:
            p.tapped = True
        for cost in costs:
            if isinstance(cost, str) and cost.startswith("sacrifice"):
                options = rules.sacrifice_options(game, p, cost)
                rules.sacrifice(game, options[randbelow(game.horde_rng, len(options))])  # H9
        if "exile this" in costs:
            rules.exile(game, p, HORDE_CONTROLLER)  # L6: it is exiled with time counters
        acted.add(p.id)
        game.drivers.stats.lieutenant_actions += 1
        rules.resolve(game, ability, Context(p.card, p, HORDE_CONTROLLER))
        rules.check_state(game)
        if game.over():
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
