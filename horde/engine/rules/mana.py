"""Mana (C4): what a team player's untapped sources and floating mana can pay, what a spell costs
it (C2 commander tax, cost reductions), and paying, with the least flexible mana spent first.

Hybrid, two-brid and Phyrexian symbols (107.4e-f: ``{W/U}``, ``{2/W}``, ``{W/P}``, ``{W/U/P}``) are
paid the cheapest way the player can: the least life, then the least mana, a symbol's first colour
before its second; a team never pays its last life for one (docs/cards.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement, product

from horde.engine.cards import CardDef, pip_payments
from horde.engine.characteristics import apply_statics, summoning_sick
from horde.engine.events import log
from horde.engine.filters import Context, evaluate
from horde.engine.rules.zombies import change_life, individual
from horde.engine.state import Game, Permanent, Side

# One mana a player could make now: (its colours, its index in the floating pool or -1, the
# source to tap or None).
ManaUnit = tuple[frozenset[str], int, Permanent | None]
ColourCounts = tuple[dict[str, int] | None, int]  # units per colour (None: some unit offers a choice), 'any' units


def available_mana(game: Game, player: int) -> int:
    """How much mana the player could make now (floating mana included)."""
    total = len(game.players[player].pool)
    for p in game.battlefield.mana_sources.get(player, ()):
        if not p.tapped and not summoning_sick(game, p):
            total += len(p.card.mana)
    return total


def spell_cost(game: Game, card: CardDef, player: int, origin: str) -> tuple[int, tuple[str, ...]] | None:
    """The generic amount and coloured pips a team player pays for a card (C2 commander tax,
    cost reductions); ``origin`` 'flashback' is its flashback cost, 'graveyard' its mana cost and
    any extra its CastFromGraveyard names; None when it can't be cast from there at all."""
    cost = card.flashback if origin == "flashback" else card.cost
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
    if game.battlefield.points:
        generic = apply_statics(game, "spell_cost", generic, card, player)  # cost_reduction
    pips = cost.pips
    if game.players[player].generic_mana:
        generic += len(pips)  # C4
        pips = ()
    return generic, pips


def can_pay(game: Game, player: int, generic: int, pips: tuple[str, ...], units: list[ManaUnit] | None = None,
            colours: ColourCounts | None = None) -> bool:
    """Whether the player's untapped sources and floating mana can pay the cost (``units`` and
    their ``colour_counts``, when given, are the player's mana as it is now)."""
    if units is None:
        units = mana_units(game, player)
    if pips and has_hybrid(pips):
        return hybrid_payment(game, player, generic, pips, units) is not None
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
        if "*" in colours:
            wild += 1
        elif len(colours) == 1:
            for c in colours:
                counts[c] = counts.get(c, 0) + 1
        else:
            return None, 0
    return counts, wild


def mana_units(game: Game, player: int) -> list[ManaUnit]:
    """Every mana the player could make now: (colours, pool index or -1, source)."""
    pool = game.players[player].pool
    units: list[tuple] = [(colours, i, None) for i, colours in enumerate(pool)] if pool else []
    for p in game.battlefield.mana_sources.get(player, ()):
        if not p.tapped:
            card = p.card
            if not summoning_sick(game, p):
                for colours in card.mana:
                    units.append((colours, -1, p))
    return units


def pay(game: Game, player: int, generic: int, pips: tuple[str, ...]) -> bool:
    """Tap sources to pay a cost; surplus mana of a tapped source floats in the player's pool.
    Hybrid, two-brid and Phyrexian symbols are paid the cheapest way (``hybrid_payment``)."""
    life = 0
    if pips and has_hybrid(pips):
        payment = hybrid_payment(game, player, generic, pips)
        if payment is None:
            return False
        generic, pips, life = payment
    plan = _plan_payment(game, player, generic, pips, hand=game.players[player].hand)
    if plan is None:
        return False
    if life:
        pay_life(game, player, life)
    pool_used, sources = plan
    pl = game.players[player]
    for unit in sorted(pool_used, reverse=True):
        pl.pool.pop(unit)
    needed = generic + len(pips) - len(pool_used)
    for p in sources:
        p.tapped = True
        made = len(p.card.mana)
        use = min(made, needed)
        needed -= use
        pl.pool.extend(p.card.mana[use:])
    return True


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
                  hand: list[CardDef] | None = None) -> tuple[list[int], list[Permanent]] | None:
    """Choose which floating mana and which sources pay a cost: each coloured pip takes the unit
    with the fewest colours that can pay it, generic mana the least flexible units left (of
    those, the ones whose colours ``hand`` needs least). Whether a cost can be paid does not
    depend on that choice."""
    if units is None:
        units = mana_units(game, player)
    if len(units) < generic + len(pips):
        return None
    used = [False] * len(units)
    flexibility = [_flexibility(unit[0]) for unit in units]
    if len(pips) > 1:
        pips = sorted(pips, key=lambda c: sum(1 for u in units if c in u[0]))
    for pip in pips:
        best = -1
        for i, unit in enumerate(units):
            if not used[i] and (pip in unit[0] or "*" in unit[0]):
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
    if generic and hand is not None and used.count(False) > generic:  # else every unit left pays: no choice
        for card in hand:
            for colour in card.cost.colours:
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
    pool_used = [units[i][1] for i in range(len(units)) if used[i] and units[i][1] >= 0]
    sources: list = []
    for i in range(len(units)):
        if used[i] and units[i][2] is not None and units[i][2] not in sources:
            sources.append(units[i][2])
    return pool_used, sources


def _flexibility(colours: frozenset[str]) -> int:
    """How many colours a mana unit can be ('any' is all five): spend the least flexible first."""
    return 5 if "*" in colours else len(colours)


def empty_pools(game: Game) -> None:
    for pl in game.players:
        pl.pool.clear()
