"""Mana (C4): what a team player's untapped sources and floating mana can pay, what a spell costs
it (C2 commander tax, cost reductions), and paying, with the least flexible mana spent first.

Hybrid, two-brid and Phyrexian symbols (107.4e-f: ``{W/U}``, ``{2/W}``, ``{W/P}``, ``{W/U/P}``) are
paid the cheapest way the player can: the least life, then the least mana, a symbol's first colour
before its second; a team never pays its last life for one (docs/cards.md).

Mana abilities (605) other than a source's free one (``{T}: Add ...``, ``CardDef.mana``) have costs
or riders: a Signet's ``{1}, {T}``, a filter land's ``{W/U}, {T}``, a pain land's damage, a Vivid
land's charge counter, an Eldrazi Spawn's sacrifice, a condition ("Activate only if"). A payment
takes the free mana first; only when that can't pay a cost does it look for the activations that
can, the fewest and least costly first (a sacrifice last, then life, then counters), activates
them (605.3a: during the payment, 601.2g) and leaves the mana they make beyond the cost floating
in the player's pool (106.4). What activating one does beyond mana (sacrificing, the damage, the
life) is done by the rules of zones and damage, which pay their own costs through this module:
they are wired here at import (``RIDERS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement, islice, permutations, product

from horde.engine.cards import (
    ANY,
    CHOSEN,
    COLOURS,
    IDENTITY,
    OPPONENTS_LANDS,
    CardDef,
    ManaAbility,
    pip_payments,
)
from horde.engine.characteristics import apply_statics, summoning_sick
from horde.engine.events import log
from horde.engine.filters import Context, evaluate
from horde.engine.pool import RiderMana
from horde.engine.rules.zombies import change_life, individual
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side

# One mana a player could make now: (its colours, its index in the floating pool or -1, the
# source to tap or None).
ManaUnit = tuple[frozenset[str], int, Permanent | None]
ColourCounts = tuple[dict[str, int] | None, int]  # units per colour (None: some unit offers a choice), 'any' units
# An activation a payment makes: the source, its mana ability and the mana it makes (colours read).
Activation = tuple[Permanent, ManaAbility, tuple[frozenset[str], ...]]

ANY_COLOUR = frozenset({ANY})
COLOUR_SET = frozenset(COLOURS)
SEARCH_MAX = 256  # the most sets of activations one payment tries (docs/cards.md)
PERMUTATIONS_MAX = 24  # the most orders of one set's abilities with mana costs it tries
VECTORS_MAX = 2048  # the most sets it ranks before trying SEARCH_MAX of them
# How much a payment avoids an activation's cost, against the others': a permanent sacrificed, a
# life paid or taken as damage, a charge counter removed, a mana ability's own mana cost.
SACRIFICE_WEIGHT, LIFE_WEIGHT, CHARGE_WEIGHT, CONVERT_WEIGHT = 50, 8, 2, 1
CREATURE_LAST = 10  # more than any unit's colours: a payment taps a creature for mana only when nothing else pays


class Riders:
    """What activating a mana ability does beyond its mana and this module's costs, as the rules
    of zones and damage do it (wired by ``horde.engine.rules`` at import)."""

    sacrifice: Callable[[Game, Permanent], None] | None = None
    damage: Callable[[Game, Permanent, int, int], None] | None = None  # source, its controller, amount
    gain: Callable[[Game, int, int], None] | None = None  # amount, player


RIDERS = Riders()


def unit_colours(game: Game, player: int, colours: frozenset[str],
                 source: Permanent | None = None) -> frozenset[str] | None:
    """What one mana of ``colours`` may be for the player now: a colour of its commander's colour
    identity (903.4; all five are any colour), or one a land of the other side could produce
    (H1: the Horde's lands are the team's opponents'), or the colour chosen as ``source`` entered
    (besides the unit's other colours: a Thriving land's); None when there is none (106.7: it
    makes no mana)."""
    if CHOSEN in colours:
        rest = colours - {CHOSEN}
        chosen = source.chosen if source is not None else ""
        return (rest | {chosen} if chosen else rest) or None
    if IDENTITY in colours:
        identity = game.players[player].identity & COLOUR_SET
        return (ANY_COLOUR if len(identity) == 5 else identity) or None
    if OPPONENTS_LANDS in colours:
        made: set[str] = set()
        for p in game.battlefield.mana_sources.get(HORDE_CONTROLLER, ()):
            made |= p.card.mana_colours
        if ANY in made:
            return ANY_COLOUR
        made &= COLOUR_SET  # 'any color': not colourless
        return frozenset(made) or None
    return colours



def available_mana(game: Game, player: int) -> int:
    """How much mana the player could make now (floating mana included): its free mana, and what
    its other mana abilities would add beyond their mana costs."""
    total = len(game.players[player].pool)
    for p in game.battlefield.mana_sources.get(player, ()):
        card = p.card
        usable = not p.tapped and not summoning_sick(game, p)
        free = len(card.mana) if usable else 0
        if free and card.mana_dynamic:
            free = sum(1 for unit in card.mana if unit_colours(game, player, unit, p) is not None)
        if card.mana_options:
            tapping = untapped = 0
            for ability in card.mana_options:
                if ability.tap and not usable or ability.charge > p.charge:
                    continue
                most = ability.most
                if ability.storage:
                    stored = p.marks.get("storage", 0) if p.marks is not None else 0
                    most = max(0, stored * len(ability.units) - (ability.cost.value if ability.cost is not None else 0))
                if ability.tap:
                    tapping = max(tapping, most)
                else:
                    untapped = max(untapped, most)
            free = max(free, tapping) + untapped
        total += free
    return total


def spell_cost(game: Game, card: CardDef, player: int, origin: str) -> tuple[int, tuple[str, ...]] | None:
    """The generic amount and coloured pips a team player pays for a card (C2 commander tax,
    cost reductions); ``origin`` 'flashback' is its flashback cost, 'graveyard' its mana cost and
    any extra its CastFromGraveyard names; None when it can't be cast from there at all."""
    cost = card.flashback if origin == "flashback" else card.overload if origin == "overload" else card.cost
    if origin in ("evoke", "dash", "suspend"):  # 702.74, 702.109: alternative costs; 702.62a: suspend's
        cost = card.evoke if origin == "evoke" else card.dash if origin == "dash" else \
            card.suspend[1] if card.suspend is not None else None
    if cost is None:
        return None
    generic = cost.generic + (card.horde_x if cost.x else 0)
    if origin == "graveyard" and card.from_graveyard is not None and card.from_graveyard[0] is not None:
        generic += evaluate(game, Context(card, None, player), card.from_graveyard[0])
    if origin == "command":
        pl = game.players[player]
        limit = game.setup.commander_casts
        casts = pl.commander_casts.get(card.name, 0)  # 903.10: each commander's own casts
        if limit is not None and casts >= limit:
            return None
        generic += 2 * casts  # C2: 903.10
    if card.costs_less is not None:  # 'this spell costs {1} less to cast for each creature on the battlefield'
        generic = max(0, generic - evaluate(game, Context(card, None, player), card.costs_less))
    if game.battlefield.points and origin != "suspend":  # suspending is no cast (702.62a)
        generic = apply_statics(game, "spell_cost", generic, card, player)  # cost_reduction
    pips = cost.pips
    if game.players[player].generic_mana:
        generic += len(pips)  # C4
        pips = ()
    return generic, pips


def can_pay(game: Game, player: int, generic: int, pips: tuple[str, ...], units: list[ManaUnit] | None = None,
            colours: ColourCounts | None = None) -> bool:
    """Whether the player's untapped sources and floating mana can pay the cost (``units`` and
    their ``colour_counts``, when given, are the player's free mana as it is now), its mana
    abilities with costs included."""
    if units is None:
        units = mana_units(game, player)
    if pips and has_hybrid(pips):
        return hybrid_payment(game, player, generic, pips, units) is not None
    if _free_pays(game, player, generic, pips, units, colours):
        return True
    return _activations(game, player, generic, pips, units) is not None


def _free_pays(game: Game, player: int, generic: int, pips: tuple[str, ...], units: list[ManaUnit],
               colours: ColourCounts | None) -> bool:
    """Whether the free mana ``units`` alone pay the cost (no hybrid symbol)."""
    if len(units) < generic + len(pips):
        return False
    if not pips:
        return True
    counts, wild = colour_counts(units) if colours is None else colours
    if counts is not None:
        # Exact without a search when every unit makes one colour or any colour: each colour's
        # shortfall must be covered by 'any' units.
        short = 0
        for c in set(pips):
            short += max(0, pips.count(c) - counts.get(c, 0))
        return short <= wild
    return _plan_payment(game, player, generic, pips, units) is not None


def colour_counts(units: list[ManaUnit]) -> ColourCounts:
    """(units per colour, units of any colour) of a player's mana; (None, 0) when some unit
    makes a choice of two or more colours (then only a search can tell what a cost takes)."""
    wild = 0
    counts: dict = {}
    for colours, _, _ in units:
        if ANY in colours:
            wild += 1
        elif len(colours) == 1:
            for c in colours:
                counts[c] = counts.get(c, 0) + 1
        else:
            return None, 0
    return counts, wild


def mana_units(game: Game, player: int) -> list[ManaUnit]:
    """Every free mana the player could make now (floating mana, then each untapped source's
    ``{T}: Add ...``): (colours, pool index or -1, source)."""
    pool = game.players[player].pool
    units: list[tuple] = [(colours, i, None) for i, colours in enumerate(pool)] if pool else []
    for p in game.battlefield.mana_sources.get(player, ()):
        if not p.tapped:
            card = p.card
            if not summoning_sick(game, p):
                if card.mana_dynamic:
                    for colours in card.mana:
                        read = unit_colours(game, player, colours, p)
                        if read is not None:
                            units.append((read, -1, p))
                else:
                    for colours in card.mana:
                        units.append((colours, -1, p))
    return units


def pay(game: Game, player: int, generic: int, pips: tuple[str, ...]) -> bool:
    """Tap sources to pay a cost, activating mana abilities with costs when the free mana can't
    pay it; mana made beyond the cost floats in the player's pool (106.4). Hybrid, two-brid and
    Phyrexian symbols are paid the cheapest way (``hybrid_payment``)."""
    life = 0
    if pips and has_hybrid(pips):
        payment = hybrid_payment(game, player, generic, pips)
        if payment is None:
            return False
        generic, pips, life = payment
    units = mana_units(game, player)
    hand = game.players[player].hand
    plan = _plan_payment(game, player, generic, pips, units, hand)
    if plan is None:
        activations = _activations(game, player, generic, pips, units)
        if activations is None:
            return False
        for activation in activations:
            activate(game, player, activation, pips)
        units = mana_units(game, player)
        plan = _plan_payment(game, player, generic, pips, units, hand)
        if plan is None:
            return False
    if life:
        pay_life(game, player, life)
    _spend(game, player, units, plan)
    return True


def _spend(game: Game, player: int, units: list[ManaUnit], used: list[bool]) -> None:
    """Spend the units a plan chose: floating mana leaves the pool; each source they come from is
    tapped, and the mana it makes that the cost does not take floats (106.4)."""
    pl = game.players[player]
    pool = pl.pool
    for i in range(len(units) - 1, -1, -1):
        if used[i] and units[i][1] >= 0:
            spent = pool.pop(units[i][1])
            if isinstance(spent, RiderMana):
                pl.spent_riders.append(spent.rider)  # read by the spell this payment casts (106.6)
    tapped: list = []
    for i, (_, _, source) in enumerate(units):
        if used[i] and source is not None and source not in tapped:
            tapped.append(source)
    for source in tapped:
        source.tapped = True
    for i, (colours, _, source) in enumerate(units):
        if not used[i] and source is not None and source in tapped:
            pool.append(colours)


def activate(game: Game, player: int, activation: Activation, keep: Sequence[str] = ()) -> None:
    """605.3: activate a mana ability for a payment: pay its costs ({T}, its mana, life, a
    sacrifice, charge counters; its mana without the colours ``keep`` when it can), add its mana
    to the pool, then its riders (a pain land's damage, life gained, staying tapped)."""
    p, ability, made = activation
    if ability.tap:
        p.tapped = True
    if ability.cost is not None:
        cost = ability.cost
        _pay_exactly(game, player, cost.generic, cost.pips, _keep(keep, made))
    if ability.charge:
        p.charge -= ability.charge
    if ability.storage and p.marks is not None:
        p.marks["storage"] -= len(made) // len(ability.units)  # X storage counters for X mana
    if ability.life:
        pay_life(game, player, ability.life)
    if ability.spent:  # 106.6: its mana remembers what spending it does
        made = tuple(RiderMana(unit, ability.spent) for unit in made)
    game.players[player].pool.extend(made)
    if game.drivers.trace is not None:
        log(game, "mana_ability", Side.TEAM, player=player + 1, card=p.card.name, id=p.id, ability=ability.text,
            mana=" ".join("/".join(sorted(unit)) for unit in made))
    if ability.sacrifice and RIDERS.sacrifice is not None:
        RIDERS.sacrifice(game, p)
    if ability.damage and RIDERS.damage is not None:
        RIDERS.damage(game, p, player, ability.damage)
    if ability.gain and RIDERS.gain is not None:
        RIDERS.gain(game, ability.gain, player)
    if ability.stays_tapped:  # 502.3: it doesn't untap during its controller's next untap step
        p.skip_untaps = max(p.skip_untaps, 1)


def _pay_exactly(game: Game, player: int, generic: int, pips: tuple[str, ...], keep: Sequence[str]) -> None:
    """Pay a mana ability's own mana cost as its payment's search planned it (keeping the colours
    the payment needs after)."""
    units = mana_units(game, player)
    plan = _plan_payment(game, player, generic, pips, units, keep=keep)
    if plan is None:
        activations = _activations(game, player, generic, pips, units)
        for activation in activations or ():
            activate(game, player, activation, keep)
        units = mana_units(game, player)
        plan = _plan_payment(game, player, generic, pips, units, keep=keep)
    if plan is not None:
        _spend(game, player, units, plan)


def _keep(pips: Sequence[str], made: tuple[frozenset[str], ...]) -> list[str]:
    """The colours a payment needs after a mana ability with a cost makes ``made``: what its cost
    should not spend (a Simic Signet paid with the U it gives back, not with the W it does not)."""
    keep = list(pips)
    for unit in made:
        if len(unit) == 1:
            for colour in unit:
                if colour in keep:
                    keep.remove(colour)
    return keep


def mana_options(game: Game, player: int) -> list[Activation]:
    """The mana abilities other than the free ones that the player could activate now, each with
    the mana it would make: 602.5b, a {T} ability of an untapped source not summoning sick; the
    charge counters it removes; life it pays or is dealt (a team never pays its last life for
    mana); its condition ('Activate only if'); mana it makes at all (106.7)."""
    options: list[Activation] = []
    life_left = -1
    for p in game.battlefield.mana_sources.get(player, ()):
        card = p.card
        if not card.mana_options:
            continue
        for ability in card.mana_options:
            if ability.tap and (p.tapped or summoning_sick(game, p)) or ability.charge > p.charge:
                continue
            if ability.life or ability.damage:
                if life_left < 0:
                    life_left = game.players[player].life if individual(game) else game.team_life
                if ability.life + ability.damage >= life_left:
                    continue
            ctx = None
            if ability.condition is not None:
                ctx = Context(card, p, player)
                if not ability.condition(game, ctx):
                    continue
            units: tuple[frozenset[str], ...] = ability.units
            if ability.dynamic:
                read = [unit_colours(game, player, unit, p) for unit in units]
                units = tuple(unit for unit in read if unit is not None)
            if ability.count is not None:
                units = units * evaluate(game, ctx or Context(card, p, player), ability.count)
            if ability.storage:  # X of its storage counters for X mana: each X a choice, the largest first
                stored = p.marks.get("storage", 0) if p.marks is not None else 0
                options.extend((p, ability, units * x) for x in range(stored, 0, -1))
            elif units:
                options.append((p, ability, units))
    return options


def _weight(ability: ManaAbility) -> int:
    """How much a payment avoids activating it (``SACRIFICE_WEIGHT``...)."""
    return (SACRIFICE_WEIGHT * ability.sacrifice + LIFE_WEIGHT * (ability.life + ability.damage)
            + CHARGE_WEIGHT * (ability.charge + ability.stays_tapped) + CONVERT_WEIGHT * (ability.cost is not None))


def _activations(game: Game, player: int, generic: int, pips: tuple[str, ...],
                 units: list[ManaUnit]) -> list[Activation] | None:
    """The mana abilities to activate so that a cost the free mana ``units`` can't pay is paid,
    in the order to activate them; None when none can. Identical abilities of identical sources
    are one choice of how many; the sets are tried from the least costly (``_weight``, then the
    fewest activations), at most ``SEARCH_MAX`` of them."""
    options = mana_options(game, player)
    if not options:
        return None
    need = generic + len(pips)
    # Quick bound: the most mana the player could have, each source giving its best {T} ability
    # (less the free mana it would not make then) and all its others.
    tapping: dict[int, int] = {}
    others = 0
    for p, ability, made in options:
        gain = len(made) - (ability.cost.value if ability.cost is not None else 0)
        if ability.tap:
            gain -= sum(1 for unit in units if unit[2] is p)
            tapping[id(p)] = max(tapping.get(id(p), 0), gain)
        else:
            others += max(0, gain)
    if len(units) + sum(tapping.values()) + others < need:
        return None
    groups: dict[tuple, list[Activation]] = {}
    for option in options:
        groups.setdefault((option[0].card.name, option[1], option[2]), []).append(option)
    kinds = sorted(groups.values(), key=lambda group: _weight(group[0][1]))
    most = [min(len(group), need) for group in kinds]
    while _product(most) > VECTORS_MAX:  # a bound on the work: the largest choices shrink first
        most[most.index(max(most))] -= 1
    choices = [range(n + 1) for n in most]
    weights = [_weight(group[0][1]) for group in kinds]
    vectors = sorted(product(*choices), key=lambda v: (sum(n * w for n, w in zip(v, weights, strict=True)), sum(v)))
    for vector in vectors[1:SEARCH_MAX + 1]:
        chosen: list[Activation] = []
        sources: set[int] = set()
        for n, group in zip(vector, kinds, strict=True):
            for option in group:
                if n == 0:
                    break
                if id(option[0]) not in sources:
                    sources.add(id(option[0]))
                    chosen.append(option)
                    n -= 1
        if len(chosen) < sum(vector):
            continue  # a source can't activate two of its abilities at once
        chosen.sort(key=lambda option: option[1].cost is not None)  # those without a mana cost first
        free = sum(1 for option in chosen if option[1].cost is None)
        orders = [chosen] if len(chosen) - free < 2 else [chosen[:free] + list(order) for order in
                                                           islice(permutations(chosen[free:]), PERMUTATIONS_MAX)]
        for order in orders:  # one mana ability's mana may pay another's cost (a Signet a Signet's)
            if _simulate(game, player, generic, pips, units, order):
                return order
    return None


def _product(counts: list[int]) -> int:
    """How many sets of activations ``counts`` (each kind's most) make."""
    total = 1
    for n in counts:
        total *= n + 1
    return total


def _simulate(game: Game, player: int, generic: int, pips: tuple[str, ...], units: list[ManaUnit],
              chosen: list[Activation]) -> bool:
    """Whether activating ``chosen`` in order, each paying its own mana cost from the mana there
    is then, leaves mana that pays the cost (the floating part first, as in the pool)."""
    gone = {id(p) for p, ability, _ in chosen if ability.tap or ability.sacrifice}
    floating: list[ManaUnit] = [(colours, -1, None) for colours, i, _ in units if i >= 0]
    tapping = [unit for unit in units if unit[2] is not None and id(unit[2]) not in gone]
    for _, ability, made in chosen:
        if ability.cost is not None:
            work = floating + tapping
            plan = _plan_payment(game, player, ability.cost.generic, ability.cost.pips, work, keep=_keep(pips, made))
            if plan is None:
                return False
            touched = {id(work[i][2]) for i in range(len(work)) if plan[i] and work[i][2] is not None}
            left_floating: list[ManaUnit] = []
            left_tapping: list[ManaUnit] = []
            for i, unit in enumerate(work):
                if plan[i]:
                    continue
                if i < len(floating):
                    left_floating.append(unit)
                elif id(unit[2]) in touched:
                    left_floating.append((unit[0], -1, None))  # the rest of a tapped source's mana floats
                else:
                    left_tapping.append(unit)
            floating, tapping = left_floating, left_tapping
        floating = floating + [(unit, -1, None) for unit in made]
    return _plan_payment(game, player, generic, pips, floating + tapping) is not None


def has_hybrid(pips: tuple[str, ...]) -> bool:
    """Whether a cost's pips hold a hybrid, two-brid or Phyrexian symbol (one of more than one letter)."""
    for pip in pips:
        if len(pip) > 1:
            return True
    return False


def hybrid_payment(game: Game, player: int, generic: int, pips: tuple[str, ...],
                   units: list[ManaUnit] | None = None) -> tuple[int, tuple[str, ...], int] | None:
    """The cheapest way the player can pay a cost with hybrid, two-brid or Phyrexian symbols, as
    (generic mana, one-colour pips, life), or None when it can't pay it at all. 107.4e: a hybrid
    symbol is paid with either of its colours, a two-brid one with its colour or {2}; 107.4f: a
    Phyrexian one with its colour or 2 life. Cheapest: the least life, then the least mana (the
    team's life is what the Horde attacks, mana comes back every turn); among equals, each
    symbol's ways in order (its first colour first). A team never pays life down to 0 or less
    for a symbol (119.4 would allow it; no player chooses to lose so)."""
    if units is None:
        units = mana_units(game, player)
    plain = tuple(pip for pip in pips if len(pip) == 1)
    groups: dict[str, int] = {}
    for pip in pips:
        if len(pip) > 1:
            groups[pip] = groups.get(pip, 0) + 1
    # Each symbol's ways, as a multiset per distinct symbol: {G/W}{G/W} is GG, GW or WW, not four orders.
    choices = [list(combinations_with_replacement(pip_payments(pip), count)) for pip, count in groups.items()]
    life_left = game.players[player].life if individual(game) else game.team_life
    options: list[tuple[int, int, int, tuple[str, ...]]] = []
    seen = set()
    for choice in product(*choices):
        ways = [way for group in choice for way in group]
        colours = tuple(colour for colour, _, _ in ways if colour)
        extra = sum(amount for _, amount, _ in ways)
        life = sum(paid for _, _, paid in ways)
        key = (life, extra, tuple(sorted(colours)))
        if key not in seen:
            seen.add(key)
            options.append((life, extra + len(colours), extra, colours))
    options.sort(key=lambda option: (option[0], option[1]))
    for life, _, extra, colours in options:
        if life and life >= life_left:
            continue
        if can_pay(game, player, generic + extra, plain + colours, units):
            return generic + extra, plain + colours, life
    return None


def pay_life(game: Game, player: int, amount: int) -> None:
    """119.4: the player pays ``amount`` life: it loses that much, from the team's shared life
    (H1), or with a life for each player (Z) from its own."""
    game.life_lost += amount
    if individual(game):
        change_life(game, player, -amount, player)
    else:
        game.team_life -= amount
    if game.drivers.trace is not None:
        log(game, "life_lost", Side.TEAM, amount=amount, team_life=game.team_life)


def _plan_payment(game: Game, player: int, generic: int, pips: Sequence[str], units: list[ManaUnit] | None = None,
                  hand: list[CardDef] | None = None, keep: Sequence[str] = ()) -> list[bool] | None:
    """Choose which of ``units`` (floating mana and sources' mana) pay a cost, as a flag for each:
    each coloured pip (or hybrid one, of a mana ability's cost) takes the unit with the fewest
    colours that can pay it (a creature's last: untapped, it could attack or block), generic mana
    the least flexible units left (of those, the ones
    whose colours ``hand`` needs least, or the colours ``keep`` a payment needs after a mana
    ability's cost is paid). Whether a cost can be paid does not depend on that choice."""
    if units is None:
        units = mana_units(game, player)
    if len(units) < generic + len(pips):
        return None
    used = [False] * len(units)
    # A creature's mana last (it could attack or block instead), then the least flexible first.
    flexibility = [_flexibility(unit[0]) + (CREATURE_LAST if unit[2] is not None and unit[2].card.is_creature else 0)
                   for unit in units]
    if len(pips) > 1:
        pips = sorted(pips, key=lambda c: sum(1 for u in units if c in u[0]))
    for pip in pips:
        best = -1
        for i, unit in enumerate(units):
            if not used[i] and (pip in unit[0] or ANY in unit[0]
                                or (len(pip) == 3 and (pip[0] in unit[0] or pip[2] in unit[0]))):
                if best < 0 or flexibility[i] < flexibility[best]:
                    best = i
        if best < 0:
            return None
        used[best] = True
    need = generic
    # 601.2h: the player chooses what pays the generic part: floating mana first, then the least
    # flexible sources, and among those the ones whose colours the rest of its hand needs least
    # (Sol Ring's {1} from the Plains, not from the Forest a {2}{G} creature in hand needs).
    wanted: dict[str, int] = {}
    if generic and (hand is not None or keep) and used.count(False) > generic:  # else every unit left pays
        for card in hand or ():
            for colour in card.cost.colours:
                wanted[colour] = wanted.get(colour, 0) + 1
        for pip in keep:
            for colour in pip.split("/"):
                wanted[colour] = wanted.get(colour, 0) + 1
    order = sorted(range(len(units)), key=lambda i: (units[i][1] < 0, flexibility[i],
                                                     sum(wanted.get(c, 0) for c in units[i][0])))
    for i in order:
        if need == 0:
            break
        if not used[i]:
            used[i] = True
            need -= 1
    if need:
        return None
    return used


def _flexibility(colours: frozenset[str]) -> int:
    """How many colours a mana unit can be ('any' is all five): spend the least flexible first."""
    return 5 if ANY in colours else len(colours)


def empty_pools(game: Game) -> None:
    for pl in game.players:
        pl.pool.clear()
