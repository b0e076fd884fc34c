"""Casting: what a team player can cast, a team spell cast and resolved, the Horde casting its
revealed cards for free (H7) and the team's chance to counter them (H10).
"""

from __future__ import annotations

from typing import Any

from horde.engine.cards import EVERY_CREATURE_TYPE, CardDef, Effect, ManaCost
from horde.engine.characteristics import (
    all_permanents,
    graveyard_of,
    hand_of,
    on_battlefield,
    side_name,
    static_active,
    watchers,
)
from horde.engine.events import log
from horde.engine.filters import Context, Filter, card_matches, chosen_player
from horde.engine.rules.abilities import (
    ask,
    choose_target,
    has_legal_target,
    horde_pick,
    legal_targets,
    resolve,
    resolve_spell,
    target_still_legal,
)
from horde.engine.rules.checks import check_state
from horde.engine.rules.keyword_abilities import CAST_TRIGGERS, cascade, keyword_state, storm_count, typecycle
from horde.engine.rules.mana import ColourCounts, can_pay, colour_counts, mana_units, pay, spell_cost
from horde.engine.rules.zombies import may_cast, may_target
from horde.engine.rules.zones import (
    draw,
    graveyard_abilities_work,
    put_onto_battlefield,
    sacrifice,
    scry_cards,
    unearth,
)
from horde.engine.shuffling import randbelow
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side


def castable(game: Game, player: int, sorcery_speed: bool = True) -> list[tuple[CardDef, str]]:
    """The (card, origin) pairs a team player can cast now: from hand, and its commander from the
    command zone (C2). Counterspells are cast only in answer to a spell."""
    pl = game.players[player]
    options: list[tuple[CardDef, str]] = []
    if game.spells_locked or pl.removed:
        return options  # F: Disorienting Glower; Z4: a player who left the game
    if one_spell_cast(game, player):
        return options  # A: I Bask in Your Silent Awe
    candidates = []
    seen = set()
    for held in pl.hand:
        for card in held.hand_spells:  # itself, or the faces a card of two faces may be cast as
            if card.counters is not None or card.name in seen:
                continue
            if not sorcery_speed and "Instant" not in card.types and "flash" not in card.keywords:
                continue
            seen.add(card.name)
            candidates.append(card)
    from_graveyard: list[tuple[CardDef, str]] = []
    for card in pl.graveyard:
        if card.graveyard_ability:  # flashback and the like: only then look closer
            from_graveyard = graveyard_casts(game, player, sorcery_speed)
            break
    for card in pl.adventures:  # 715.3d: the creature of a card on an adventure, from exile
        if card.name not in seen and (sorcery_speed or "flash" in card.keywords):
            seen.add(card.name)
            from_graveyard.append((card, "adventure"))
    if not candidates and not pl.command and not from_graveyard:
        return options
    units = mana_units(game, player)
    if not units:
        return options
    colours: ColourCounts | None = None  # counted once, when a coloured cost first asks
    for card, origin in [(c, way) for c in candidates for way in c.hand_origins] + [
            (card, "command") for held in pl.command for card in held.hand_spells
            if sorcery_speed or "Instant" in card.types or "flash" in card.keywords] + from_graveyard:
        cost = spell_cost(game, card, player, origin)
        if cost is None:
            continue
        generic, pips = cost
        if pips and colours is None and len(units) >= generic + len(pips):
            colours = colour_counts(units)
        if not can_pay(game, player, generic, pips, units, colours):
            continue
        if origin == "hand" and card.enchant is not None and not can_enchant(game, card, player):
            continue  # an Aura needs something to enchant
        if card.is_permanent or spell_has_targets(game, card, player):
            options.append((card, origin))
        if card.overload is not None and origin == "hand":
            cost = spell_cost(game, card, player, "overload")
            if cost is not None and can_pay(game, player, *cost, units):
                options.append((card, "overload"))  # 702.96: cast for its overload cost instead
    if pl.zombie:
        options = [(card, origin) for card, origin in options if may_cast(game, player, card)]  # Z3
    return options


def spell_has_targets(game: Game, card: CardDef, player: int) -> bool:
    """601.2c: an instant or sorcery that targets is cast only with a legal target for it (its
    first targeted effect; none needed for 'up to one'); a modal one only with as many modes as it
    must choose that can be carried out (700.2: each mode's targets); a fused split card with a
    legal target for each half (702.102d)."""
    if card.face == "fused":
        return all(spell_has_targets(game, half, player) for half in card.whole_card.faces if half.face == "half")
    ctx = Context(card, None, player)
    cast = card.hooks.get("Cast")
    if cast and not has_legal_target(game, ctx, cast):
        return False
    if "Mode" in card.hooks:
        least = card.choose[0]
        return sum(1 for mode in card.abilities("Mode")
                   if all(e.target is None or e.optional or legal_targets(game, ctx, e) for e in mode)) >= least
    return True


def can_enchant(game: Game, card: CardDef, player: int) -> bool:
    """Whether an Aura spell has something to enchant: a legal target (303.4a), or for one that
    enchants a card in a graveyard (Animate Dead) such a card in a graveyard."""
    enchant = card.enchant
    assert enchant is not None
    if enchant.args["zone"] == "graveyard":
        return any(not c.is_token and enchant.target.card_ok(c) for pl in game.players for c in pl.graveyard) or any(
            not c.is_token and enchant.target.card_ok(c) for c in game.horde.graveyard)
    return bool(legal_targets(game, Context(card, None, player), enchant))


def _enchanting(game: Game, card: CardDef, controller: int) -> tuple[bool, Any]:
    """An Aura spell's target as it is cast (303.4a): (whether it has one, the permanent or player).
    One that enchants a card in a graveyard has its card chosen as it enters (its Enters returns
    it and attaches the Aura: Animate Dead), so it needs one there now."""
    enchant = card.enchant
    assert enchant is not None
    if enchant.args["zone"] == "graveyard":
        return can_enchant(game, card, controller), None
    target = choose_target(game, Context(card, None, controller), enchant)
    return target is not None, target


def resolve_overloaded(game: Game, card: CardDef, ctx: Context) -> None:
    """An overloaded spell resolves (702.96): each effect with a target applies to each permanent
    its target filter matches instead, none of them targeted (hexproof and shroud don't stop it)."""
    for effect in card.hooks.get("Cast", ()):
        if effect.target is None:
            resolve(game, (effect,), ctx)
            continue
        flt: Filter = effect.target
        for p in [q for q in all_permanents(game) if flt(game, ctx, q)]:
            ctx.target = p
            resolve(game, (effect,), ctx)
        ctx.target = None


def one_spell_cast(game: Game, player: int) -> bool:
    """A: while I Bask in Your Silent Awe is face up, a player who cast a spell this turn can't cast another."""
    return (game.schemes is not None and game.players[player].spells_cast > 0
            and static_active(game, "one_spell_each_turn"))


def graveyard_casts(game: Game, player: int, sorcery_speed: bool = True) -> list[tuple[CardDef, str]]:
    """The cards in a player's graveyard it may cast from there, with how: 'flashback' (702.34),
    or 'graveyard' ('you may cast ~ from your graveyard', when its condition holds); none while
    cards in graveyards lose all abilities."""
    found: list[tuple[CardDef, str]] = []
    for card in graveyard_of(game, player):
        if not card.graveyard_ability or card.is_token or any(card is c for c, _ in found):
            continue
        if not graveyard_abilities_work(game, card):
            break
        for face in card.faces:
            if face.face == "aftermath" and (sorcery_speed or "Instant" in face.types):
                found.append((face, "aftermath"))  # 702.127: cast only from the graveyard
        if card.counters is not None or (not sorcery_speed and "Instant" not in card.types
                                         and "flash" not in card.keywords):
            continue
        if card.flashback is not None:
            found.append((card, "flashback"))
        elif card.from_graveyard is not None:
            condition = card.from_graveyard[1]
            if condition is None or condition(game, Context(card, None, player)):
                found.append((card, "graveyard"))
        elif "retrace" in card.keywords and any(c.is_land for c in hand_of(game, player)):
            found.append((card, "retrace"))  # 702.81a: discarding a land card as an additional cost
    return found


# Origins of a spell cast without paying its mana cost (118.9): cascade's find (702.85), a suspended
# card's last time counter (702.62), a rebound card at its owner's upkeep (702.88).
FREE_ORIGINS = frozenset({"cascade", "suspend", "rebound"})


def team_cast(game: Game, player: int, card: CardDef, origin: str) -> None:
    """A team player casts a card: kicker and buyback (its policy chooses, among what it can
    pay), pay, leave its zone, cast triggers (storm and cascade too), then resolve. Origin
    'suspend' from a hand is no cast: the card is exiled with its time counters (702.62a).
    A card cast without paying its mana cost (``FREE_ORIGINS``) was taken from its zone by the caller."""
    pl = game.players[player]
    if origin == "suspend" and card in pl.hand:
        suspend(game, player, card)
        return
    free = origin in FREE_ORIGINS
    cost = (0, ()) if free else spell_cost(game, card, player, origin)
    assert cost is not None, "castable() offers only what can be cast"
    kicked = 0
    if card.kicker is not None:
        kicked = _kicks(game, player, card, cost)
        cost = _kicked_cost(cost, card.kicker, kicked)
    bought = False
    if card.buyback is not None and can_pay(game, player, *_kicked_cost(cost, _team_mana(game, player, card.buyback), 1)):
        bought = bool(ask(game, "buyback", player, (True, False), subject=card))  # 702.27a: an additional cost
        if bought:
            cost = _kicked_cost(cost, _team_mana(game, player, card.buyback), 1)
    generic, pips = cost
    pl.spent_riders.clear()
    pay(game, player, generic, pips)
    riders = tuple(pl.spent_riders)  # 106.6: what the mana spent on it does
    pl.spent_riders.clear()
    whole = card.whole_card  # a face is cast; the card leaves its zone (709.3, 712.12, 715.3)
    if origin == "retrace":  # 702.81a: discard a land card as an additional cost
        lands = [c for c in pl.hand if c.is_land]
        land = lands[0] if len(lands) == 1 else ask(game, "discard", player, lands)
        pl.hand.remove(land)
        pl.graveyard.append(land)
    if origin == "command":
        pl.command.remove(whole)
        pl.commander_casts[whole.name] = pl.commander_casts.get(whole.name, 0) + 1
    elif origin in ("flashback", "graveyard", "retrace", "aftermath"):
        pl.graveyard.remove(whole)
    elif origin == "adventure":
        pl.exile.remove(whole)
        pl.adventures.remove(whole)
    elif not free:
        pl.hand.remove(whole)
    if game.drivers.trace is not None:
        log(game, "cast", Side.TEAM, player=player + 1, card=card.name, origin=origin, token=card.is_token,
            kicked=kicked)
    game.spells_this_turn += 1
    if game.schemes is not None:
        pl.spells_cast += 1  # A: I Bask in Your Silent Awe counts them
        game.schemes.spells_since += 1
    enchants, enchanting = _enchanting(game, card, player) if card.enchant is not None else (True, None)
    spell_cast_triggers(game, card, player)
    x = card.horde_x if card.cost.x and not free else 0
    if not CAST_TRIGGERS.isdisjoint(card.keywords):
        cast_triggers(game, card, player, x, kicked)
    plus = 0
    for rider in riders:
        if rider == "commander_counters" and whole is pl.commander:
            plus += pl.commander_casts.get(whole.name, 0)  # Opal Palace: the casts from the command zone, this one too
        elif rider == "shared_type_scry" and card.is_creature and pl.commander is not None \
                and card.subtypes & pl.commander.subtypes & EVERY_CREATURE_TYPE:
            scry_cards(game, player, 1, card)  # Path of Ancestry's trigger resolves before the spell (603.3)
    if card.enchant is not None and (not enchants or enchanting is not None and not target_still_legal(game, enchanting)):
        pl.graveyard.append(whole)  # an Aura whose target is gone does not resolve (608.2b)
    elif card.is_permanent:
        p = put_onto_battlefield(game, card, player, player, commander=(origin == "command" or whole is pl.commander),
                                 attach=enchanting, kicked=kicked, plus=plus)
        if origin in ("evoke", "dash"):
            alternative_cost_paid(game, p, origin)
    else:
        _resolve_faces(game, card, player, kicked, origin == "overload", free)
        if whole is pl.commander:
            pl.command.append(whole)  # C2
        elif origin == "flashback" or card.face == "aftermath":
            pl.exile.append(whole)  # 702.34a, 702.127: exiled instead of going anywhere else
        elif bought:
            pl.hand.append(whole)  # 702.27a: put into its owner's hand as it resolves
        elif origin == "hand" and "rebound" in card.keywords:
            pl.exile.append(whole)  # 702.88a: exiled, cast again at its owner's next upkeep
            keyword_state(game).rebounding.append((whole, player))
        elif card.face == "adventure":
            pl.exile.append(whole)  # 715.4: exiled on an adventure; its creature may be cast from there
            pl.adventures.append(whole)
        else:
            pl.graveyard.append(whole)
    check_state(game)

def alternative_cost_paid(game: Game, p: Permanent, origin: str) -> None:
    """A permanent cast for an alternative cost: evoked, its controller sacrifices it as it enters
    (702.74a: a triggered ability, after its own Enters abilities); dashed, it has haste and
    returns to its owner's hand at the beginning of the next end step (702.109a)."""
    if not on_battlefield(game, p):
        return
    if origin == "evoke":
        sacrifice(game, p)
    else:
        p.sick = False
        keyword_state(game).dashed.append(p)


def cast_triggers(game: Game, card: CardDef, controller: int, x: int, kicked: int) -> None:
    """The keywords that trigger as a spell is cast, resolving before it (603.2, 608.2): cascade
    (702.85), then storm's copies (702.40: each of an instant or sorcery, its X and kicker kept,
    its target chosen anew: 707.10). The Horde casts what cascade finds (a free option: H7), a
    team player when its policy says so (``cast_free``) and the card can be cast."""
    if "cascade" in card.keywords:
        def cast(found: CardDef) -> bool:
            if controller == HORDE_CONTROLLER:
                horde_cast(game, found, "cascade")
                return True
            if not can_cast_free(game, controller, found) or not ask(game, "cast_free", controller, (True, False),
                                                                    subject=found):
                return False
            team_cast(game, controller, found, "cascade")
            return True

        cascade(game, card, controller, cast)
    if "storm" in card.keywords and not card.is_permanent:
        copies = storm_count(game)
        if game.drivers.trace is not None and copies:
            log(game, "storm", side_name(controller), card=card.name, copies=copies,
                player=None if controller == HORDE_CONTROLLER else controller + 1)
        for _ in range(copies):
            if game.over():
                return
            resolve_spell(game, card, Context(card, None, controller, x=x, kicked=kicked))
            check_state(game)


def can_cast_free(game: Game, player: int, card: CardDef) -> bool:
    """Whether a team player could cast a card without paying its mana cost now: never a
    counterspell (nothing to counter in the team's turn), an Aura only with something to enchant
    (the rest of the engine's rules of casting apply: Z3)."""
    if card.counters is not None or card.is_land:
        return False
    if card.enchant is not None and not legal_targets(game, Context(card, None, player), card.enchant):
        return False
    return not game.players[player].zombie or may_cast(game, player, card)


def _team_mana(game: Game, player: int, cost: ManaCost) -> ManaCost:
    return ManaCost(cost.generic + len(cost.pips)) if game.players[player].generic_mana else cost  # C4


def _resolve_faces(game: Game, card: CardDef, controller: int, kicked: int, overloaded: bool = False,
                   free: bool = False) -> None:
    """An instant or sorcery resolves (overloaded: 702.96); a fused split card's halves in turn,
    each with its own targets (702.102d: the left half, then the right); cast without paying its
    mana cost, its X is 0 (118.9c)."""
    halves = [face for face in card.whole_card.faces if face.face == "half"] if card.face == "fused" else [card]
    for half in halves:
        x = 0 if free else half.horde_x if controller == HORDE_CONTROLLER or half.cost.x else 0  # H7: the Horde's X
        ctx = Context(half, None, controller, x=x, kicked=kicked)
        if overloaded:
            resolve_overloaded(game, half, ctx)
        else:
            resolve_spell(game, half, ctx)


KICK_LIMIT = 20  # more multikicks than a team player ever has mana for


def _kicked_cost(cost: tuple[int, tuple[str, ...]], kicker: ManaCost, times: int) -> tuple[int, tuple[str, ...]]:
    generic, pips = cost
    return generic + times * kicker.generic, pips + kicker.pips * times


def _kicks(game: Game, player: int, card: CardDef, cost: tuple[int, tuple[str, ...]]) -> int:
    """How many times a team player kicks a spell: the policy picks among the counts it can pay
    (kicker: 0 or 1; multikicker: 0 to as many as it can)."""
    assert card.kicker is not None
    kicker = card.kicker
    if game.players[player].generic_mana:
        kicker = ManaCost(kicker.generic + len(kicker.pips))  # C4
    limit = KICK_LIMIT if card.multikicker else 1
    options = [0]
    while len(options) <= limit and can_pay(game, player, *_kicked_cost(cost, kicker, len(options))):
        options.append(len(options))
    if len(options) == 1:
        return 0
    return int(ask(game, "kick", player, options, subject=card))


def cyclable(game: Game, player: int) -> list[CardDef]:
    """The cards in a team player's hand it can cycle now (their Cycling cost paid)."""
    options: list[CardDef] = []
    pl = game.players[player]
    for card in pl.hand:
        cost = card.cycling
        if cost is not None and card not in options:
            generic, pips = (cost.generic + len(cost.pips), ()) if pl.generic_mana else (cost.generic, cost.pips)
            if can_pay(game, player, generic, pips):
                options.append(card)
    return options


def cycle(game: Game, player: int, card: CardDef) -> None:
    """Cycling (702.29): pay the cost and discard the card; its 'when you cycle' abilities (the
    Cycled hook) trigger as it is activated and resolve first (603.2, 405.5: Krosan Tusker's
    search comes before the draw); then the cycling ability draws a card (typecycling: searches
    for a card of its kind instead, 702.29e-f)."""
    pl = game.players[player]
    cost = card.cycling
    assert cost is not None, "cyclable() offers only cards with cycling"
    generic, pips = (cost.generic + len(cost.pips), ()) if pl.generic_mana else (cost.generic, cost.pips)
    pay(game, player, generic, pips)
    pl.hand.remove(card)
    pl.graveyard.append(card)
    if game.drivers.trace is not None:
        log(game, "cycle", Side.TEAM, player=player + 1, card=card.name)
    if "Cycled" in card.hooks:
        resolve(game, card.hooks["Cycled"], Context(card, None, player))
    if card.cycling_finds is not None:
        typecycle(game, player, card)  # 702.29e-f: a search instead of the draw
    else:
        draw(game, pl)
    check_state(game)


def spell_cast_triggers(game: Game, card: CardDef, caster: int) -> None:
    """'Whenever a player casts a spell' abilities (Blind Creeper), and 'whenever you cast a
    FILTER spell' (``when``: the spell's card terms, ``yours``/``opponents`` its caster)."""
    if not game.battlefield.hooked.get("SpellCast"):
        return
    for p in watchers(game):
        if "SpellCast" not in p.card.hooks:
            continue
        effects = [e for e in p.card.hooks["SpellCast"] if e.when is None or spell_matches(e.when, card, caster, p)]
        if effects:
            ctx = Context(p.card, p, p.controller, that_player=caster)
            ctx.spell, ctx.caster = card, caster
            resolve(game, effects, ctx)


def spell_matches(when: Filter, card: CardDef, caster: int, watcher: Permanent) -> bool:
    """Whether a spell cast by ``caster`` matches a SpellCast condition of ``watcher``."""
    relation = when.relation
    if relation == "yours" and caster != watcher.controller:
        return False
    if relation == "opponents" and (caster == HORDE_CONTROLLER) == (watcher.controller == HORDE_CONTROLLER):
        return False
    if relation == "chosen" and caster != chosen_player(watcher):
        return False
    return card_matches(when.text, card)


def horde_cast(game: Game, card: CardDef, origin: str | None = None) -> None:
    """The Horde casts a card for free (H7); the team may counter it (H10), unless it has split
    second (702.61a). ``origin``: 'flashback' or 'graveyard' for a card cast from its graveyard
    (already taken out of it), 'hand' for a bounced card (H6), 'cascade', 'suspend' or
    'rebound' for one cast without paying its mana cost (``FREE_ORIGINS``); None: revealed (a
    card of two faces: the face it casts, H7f). A card with suspend and no mana cost can't be
    cast (118.6): the Horde suspends it instead (702.62a; its cost is free, H7)."""
    if card.suspend is not None and not card.suspend[2] and origin not in FREE_ORIGINS:
        suspend(game, HORDE_CONTROLLER, card)
        return
    if card.faces and card.whole is None and card.layout not in ("transform", "flip") and origin is None:
        card = horde_face(game, card)  # a card of two faces: the face it casts
    whole = card.whole_card
    game.drivers.stats.cast_this_turn += 1
    game.spells_this_turn += 1
    # H7: the Horde pays every additional cost: it kicks once, a multikicker horde_x times; it buys back.
    kicked = (card.horde_x if card.multikicker else 1) if card.kicker is not None else 0
    if game.drivers.trace is not None:
        log(game, "cast", Side.HORDE, player=None, card=card.name, origin=origin, token=card.is_token, kicked=kicked)
    spell_cast_triggers(game, card, HORDE_CONTROLLER)
    x = 0 if origin in FREE_ORIGINS else card.horde_x  # H7: X is the card's horde_x; cast free, X is 0 (118.9c)
    if not CAST_TRIGGERS.isdisjoint(card.keywords):
        cast_triggers(game, card, HORDE_CONTROLLER, x, kicked)
        if game.over():
            return
    if "split second" not in card.keywords and counter_window(game, card):
        if card.is_token:
            game.horde.tokens_gone += 1
        elif origin == "flashback" or card.face == "aftermath":
            game.horde.exile.append(whole)  # 702.34a, 702.127
        else:
            game.horde.graveyard.append(whole)  # H10
        check_state(game)
        return
    if card.enchant is not None:
        # H9: a Horde Aura enchants a random legal permanent or player; with none it goes to the graveyard.
        enchants, enchanting = _enchanting(game, card, HORDE_CONTROLLER)
        if not enchants:
            game.horde.graveyard.append(whole)
        else:
            put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER, attach=enchanting, kicked=kicked)
    elif card.is_permanent:
        put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER, kicked=kicked)
    else:
        # H7: X is the card's horde_x (0 cast free: 118.9c); it has the mana of any cost, and overloads
        _resolve_faces(game, card, HORDE_CONTROLLER, kicked, card.overload is not None, origin in FREE_ORIGINS)
        if card.face == "adventure":
            # Decision (H7, 715.4): exiled on an adventure, its creature is cast from exile at once, for free.
            game.horde.exile.append(whole)
            check_state(game)
            if not game.over() and whole in game.horde.exile:
                game.horde.exile.remove(whole)
                horde_cast(game, whole, "adventure")
            return
        if origin == "flashback" or card.face == "aftermath":
            game.horde.exile.append(whole)  # 702.34a, 702.127
        elif card.buyback is not None:
            game.horde.hand.append(whole)  # 702.27a, H7: it buys back; H6: cast again on its next turn
        elif origin == "hand" and "rebound" in card.keywords:
            game.horde.exile.append(whole)  # 702.88a: cast again at the Horde's next upkeep
            keyword_state(game).rebounding.append((whole, HORDE_CONTROLLER))
        else:
            game.horde.graveyard.append(whole)
    check_state(game)

# ---------------------------------------------------------------- cards in exile: suspend (702.62), rebound (702.88)


def suspend(game: Game, controller: int, card: CardDef) -> None:
    """702.62a: pay the suspend cost (the Horde's is free: H7) and exile the card from its
    owner's hand (the Horde's revealed card) with its time counters."""
    assert card.suspend is not None
    time, cost, _ = card.suspend
    if controller == HORDE_CONTROLLER:
        game.horde.exile.append(card)
    else:
        pay(game, controller, *_team_cost(game, controller, cost))
        pl = game.players[controller]
        pl.hand.remove(card)
        pl.exile.append(card)
    keyword_state(game).suspended.append([card, controller, time])
    if game.drivers.trace is not None:
        log(game, "suspend", side_name(controller), card=card.name, time=time,
            player=None if controller == HORDE_CONTROLLER else controller + 1)


def exile_upkeep(game: Game, controllers: list[int]) -> None:
    """At the beginning of the upkeep of each of ``controllers``: remove a time counter from each
    card it suspended, and cast the card whose last counter is removed without paying its mana
    cost (702.62a: a team player when its policy says so, ``cast_free``; a creature so cast has
    haste: 702.62b); then cast each card its rebound
    exiled (702.88a: a team player casts it when its policy says so, ``cast_free``; the Horde
    always, H7). Cards that can't be cast stay in exile."""
    state = game.keyword_state
    if state is None:
        return
    for entry in list(state.suspended):
        card, controller, time = entry
        if controller not in controllers or game.over():
            continue
        entry[2] = time - 1
        if entry[2] > 0:
            continue
        state.suspended.remove(entry)
        exiled = game.horde.exile if controller == HORDE_CONTROLLER else game.players[controller].exile
        if card not in exiled:
            continue
        if controller == HORDE_CONTROLLER:
            exiled.remove(card)
            horde_cast(game, card, "suspend")
        elif can_cast_free(game, controller, card) and ask(game, "cast_free", controller, (True, False), subject=card):
            exiled.remove(card)
            team_cast(game, controller, card, "suspend")
        else:
            continue  # 702.62a: it remains exiled
        if card.is_creature:
            for p in game.battlefield.horde if controller == HORDE_CONTROLLER else game.battlefield.team:
                if p.card is card and p.controller == controller:
                    p.sick = False  # 702.62b: it has haste
    for card, controller in list(state.rebounding):
        if controller not in controllers or game.over():
            continue
        state.rebounding.remove((card, controller))
        exiled = game.horde.exile if controller == HORDE_CONTROLLER else game.players[controller].exile
        if card not in exiled:
            continue
        if controller == HORDE_CONTROLLER:
            exiled.remove(card)
            horde_cast(game, card, "rebound")
        elif can_cast_free(game, controller, card) and ask(game, "cast_free", controller, (True, False), subject=card):
            exiled.remove(card)
            team_cast(game, controller, card, "rebound")


def horde_face(game: Game, card: CardDef) -> CardDef:
    """The face of a card of two faces the Horde casts (its mana is free: H7): both halves of a
    split card with fuse (702.102), an adventure card's Adventure first (its creature follows from
    exile: ``horde_cast``); else one of the faces it may cast from hand, at random among those
    whose targeted effects have a target (H9; H9s: the one that hurts the team most)."""
    spells = [face for face in card.hand_spells if not face.is_land]
    for face in spells:
        if face.face in ("fused", "adventure"):
            return face
    if len(spells) <= 1:
        return spells[0] if spells else card
    able = [face for face in spells if all(e.target is None or legal_targets(game, Context(face, None, HORDE_CONTROLLER), e)
                                          for effects in face.hooks.values() for e in effects)]
    return horde_pick(game, "face", able or spells, card)


# ---------------------------------------------------------------- graveyard abilities


GraveyardUse = tuple[CardDef, Any]  # a card in a graveyard and how it is used: 'unearth' or an ability


def graveyard_uses(game: Game, player: int) -> list[GraveyardUse]:
    """What a player can do now with the cards in its graveyard besides casting them: unearth
    (702.84, its cost paid: the Horde's is free, H7) and activated abilities that work there
    (their costs paid and conditions met); none while cards in graveyards lose all abilities."""
    found: list[GraveyardUse] = []
    horde = player == HORDE_CONTROLLER
    for card in graveyard_of(game, player):
        if not card.graveyard_ability or card.is_token or any(card is c for c, _ in found):
            continue
        if not graveyard_abilities_work(game, card):
            break
        if card.unearth is not None and (horde or can_pay(game, player, *_team_cost(game, player, card.unearth))):
            found.append((card, "unearth"))
        for ability in card.abilities("GraveyardActivated"):
            if _can_activate_from_graveyard(game, player, card, ability):
                found.append((card, ability))
    return found


def use_graveyard(game: Game, player: int, card: CardDef, how: Any) -> None:
    """Unearth a card or activate one of its graveyard abilities (costs paid: the Horde's mana is
    free, H7)."""
    if how == "unearth":
        if player != HORDE_CONTROLLER:
            assert card.unearth is not None
            pay(game, player, *_team_cost(game, player, card.unearth))
        unearth(game, card, player)
    else:
        for cost in how[0].costs:
            if isinstance(cost, ManaCost) and player != HORDE_CONTROLLER:
                pay(game, player, *_team_cost(game, player, cost))
        if game.drivers.trace is not None:
            log(game, "graveyard_ability", side_name(player), card=card.name,
                player=None if player == HORDE_CONTROLLER else player + 1,
                effects=" ; ".join(e.describe() for e in how))
        resolve(game, how, Context(card, None, player))
    check_state(game)


def _team_cost(game: Game, player: int, cost: ManaCost) -> tuple[int, tuple[str, ...]]:
    if game.players[player].generic_mana:
        return cost.generic + len(cost.pips), ()  # C4
    return cost.generic, cost.pips


def _can_activate_from_graveyard(game: Game, player: int, card: CardDef, ability: tuple[Effect, ...]) -> bool:
    """A graveyard ability's costs (mana only: the Horde's is free) and its restrictions (the
    conditions of its effects: 'activate only if you have one or fewer cards in hand')."""
    ctx = Context(card, None, player)
    for effect in ability:
        if effect.condition is not None and not effect.condition(game, ctx):
            return False
    for cost in ability[0].costs:
        if not isinstance(cost, ManaCost):
            return False  # tapping or sacrificing from a graveyard is beyond the vocabulary
        if player != HORDE_CONTROLLER and not can_pay(game, player, *_team_cost(game, player, cost)):
            return False
    return True


def horde_graveyard(game: Game) -> None:
    """The Horde uses its graveyard (decision, H6/H7/H9): once in each of its turns, right after
    its revealed and bounced cards, it goes through its graveyard from the card put there first
    and uses each card's graveyard ability once: casts a flashback card or a card it may cast
    from there (exiling a flashback card after), unearths, activates an ability that works from
    the graveyard; all for free (H7). The option horde_graveyard = "coin" flips a coin for each
    (H9), "never" switches it off."""
    mode = game.setup.horde_graveyard
    if mode == "never":
        return
    done: list[CardDef] = []
    for card in list(game.horde.graveyard):
        if game.over():
            return
        if not card.graveyard_ability or card.is_token or any(card is c for c in done):
            continue
        if card not in game.horde.graveyard:
            continue  # an earlier card's effect moved it
        if not graveyard_abilities_work(game, card):
            return
        if mode == "coin" and not randbelow(game.horde_rng, 2):  # H9
            continue
        done.append(card)
        aftermath = next((face for face in card.faces if face.face == "aftermath"), None)
        if aftermath is not None:
            game.horde.graveyard.remove(card)
            horde_cast(game, aftermath, "aftermath")  # 702.127: its second half, then exiled
        elif card.flashback is not None or card.from_graveyard is not None:
            if card.flashback is None:
                condition = card.from_graveyard[1]
                if condition is not None and not condition(game, Context(card, None, HORDE_CONTROLLER)):
                    continue
            game.horde.graveyard.remove(card)
            horde_cast(game, card, "flashback" if card.flashback is not None else "graveyard")
        elif card.unearth is not None:
            unearth(game, card, HORDE_CONTROLLER)
            check_state(game)
        elif "retrace" in card.keywords:
            lands = [c for c in game.horde.hand if c.is_land]  # 702.81a: a land card to discard (its hand: H6)
            if lands:
                land = horde_pick(game, "discard", lands)
                game.horde.hand.remove(land)
                game.horde.graveyard.append(land)
                game.horde.graveyard.remove(card)
                horde_cast(game, card, "retrace")
        else:
            for ability in card.abilities("GraveyardActivated"):
                if card in game.horde.graveyard and _can_activate_from_graveyard(game, HORDE_CONTROLLER, card, ability):
                    use_graveyard(game, HORDE_CONTROLLER, card, ability)


def counter_window(game: Game, card: CardDef) -> bool:
    """H10: the team may answer a Horde spell with a counterspell it can pay for."""
    options: list[tuple[int, CardDef] | None] = []
    if game.spells_locked:
        return False  # F: Disorienting Glower
    team_side = game.drivers.team_side
    if team_side is not None:  # at a table: the players say whether one of them counters it
        player = team_side.counter(game, card)
        if player is None:
            return False
        if game.schemes is not None:
            game.players[player].spells_cast += 1  # A: I Bask in Your Silent Awe counts them
            game.schemes.spells_since += 1
        if game.drivers.trace is not None:
            log(game, "counter", Side.TEAM, player=player + 1, card="a counterspell", countered=card.name)
        return True
    for pl in game.players:
        if pl.zombie and not may_target(game, pl.index) or pl.removed or one_spell_cast(game, pl.index):
            continue  # Z3: a counterspell targets; Z4: a player who left the game; A: I Bask in Your Silent Awe
        seen = set()
        for whole in pl.hand:
            for held in whole.hand_spells:  # a split card's counterspell half too (Trial // Error)
                effect = held.counters
                if effect is None or held.name in seen:
                    continue
                seen.add(held.name)
                if not card_matches(effect.args["filter"], card):
                    continue
                cost = spell_cost(game, held, pl.index, "hand")
                if cost is not None and can_pay(game, pl.index, *cost):
                    options.append((pl.index, held))
    if not options:
        return False
    options.append(None)
    choice = ask(game, "counter", -1, options, subject=card)
    if choice is None:
        return False
    player, counterspell = choice
    pl = game.players[player]
    cost = spell_cost(game, counterspell, player, "hand")
    assert cost is not None, "offered only if it can be paid"
    pay(game, player, *cost)
    pl.hand.remove(counterspell.whole_card)
    pl.graveyard.append(counterspell.whole_card)
    game.spells_this_turn += 1
    if game.schemes is not None:
        pl.spells_cast += 1  # A: I Bask in Your Silent Awe counts them
        game.schemes.spells_since += 1
    if game.drivers.trace is not None:
        log(game, "counter", Side.TEAM, player=player + 1, card=counterspell.name, countered=card.name)
    rest = counterspell.hooks["Cast"][1:]
    if rest:  # the counterspell's other effects resolve after the counter (Exclude: 'Draw a card')
        ctx = Context(counterspell, None, player)
        ctx.spell, ctx.caster = card, HORDE_CONTROLLER  # 'its controller': the countered spell's (Swan Song)
        resolve(game, rest, ctx)
    return True


def reveal_and_cast_top(game: Game, count: int) -> None:
    """The Horde reveals the top ``count`` cards of its library and casts them, in the order
    revealed (F2, M2, G1: a challenge deck's reveal; H7 free, H10 counterable)."""
    library = game.horde.library
    revealed = [library.pop() for _ in range(min(count, len(library)))]
    if not revealed:
        return
    if game.drivers.trace is not None:
        log(game, "reveal", Side.HORDE, cards=[c.name for c in revealed], library=len(library))
    game.horde.revealed.extend(revealed)
    for card in revealed:
        game.horde.revealed.remove(card)
        game.drivers.stats.cards_revealed += 1
        if not card.is_token:
            game.drivers.stats.revealed.append((card.name, game.horde_turns))
        horde_cast(game, card)
        if game.over():
            return
