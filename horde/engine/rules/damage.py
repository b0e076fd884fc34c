"""Damage and life: damage to permanents (shields L4, protection L5, deathtouch, lifelink), to
team players (the shared life, H1), to the Horde (milling, H11); life lost and gained; fog.
"""

from __future__ import annotations

from horde.engine.cards import CardDef
from horde.engine.characteristics import (
    apply_own_statics,
    apply_statics,
    has_keyword,
    keywords,
    on_battlefield,
    protected,
    protected_from,
    side_name,
    watchers,
)
from horde.engine.events import log
from horde.engine.filters import Context
from horde.engine.rules.abilities import trigger, trigger_hook
from horde.engine.rules.zombies import change_life, individual
from horde.engine.rules.zones import add_counters, remove_shield, went_to_graveyard
from horde.engine.shuffling import randbelow
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side

# L4: one damage event (a combat damage step, damage dealt to several permanents at once) is the
# set of permanents whose shield counter it has already removed; it is passed down explicitly.
DamageEvent = set[Permanent]
NO_KEYWORDS: frozenset[str] = frozenset()


def damage_permanent(game: Game, source: Permanent | None, by: int, p: Permanent, n: int,
                     deathtouch: bool | None = None, event: DamageEvent | None = None, combat: bool = False,
                     source_card: CardDef | None = None) -> int:
    """Deal ``n`` damage to a permanent; returns the damage dealt after shields and prevention.
    ``event``: the damage event this is part of, when several are dealt at the same time (L4);
    None for damage dealt alone. ``combat``: combat damage (for the trace). ``source_card``: the
    spell dealing it, when no permanent is the source (for protection)."""
    if n <= 0 or not on_battlefield(game, p):
        return 0
    if game.prevented and _prevented(game, p):
        return 0  # A: Delight in the Hunt
    if p.lieutenant is not None and protected(game, p) and (p.controller == HORDE_CONTROLLER) != (by == HORDE_CONTROLLER):
        return 0  # L5: a protected lieutenant can't be dealt damage
    card = source.card if source is not None else source_card
    if game.battlefield.protections and protected_from(game, p, card):
        if game.drivers.trace is not None:
            log(game, "protection", side_name(p.controller), card=p.card.name, id=p.id, source=card.name if card else "",
                amount=n)
        return 0  # 702.16e: damage from a source it has protection from is prevented
    if p.shields or (event is not None and p in event):
        # L4: one shield counter absorbs all damage dealt at the same time.
        if event is None:
            remove_shield(game, p)
        elif p not in event:
            remove_shield(game, p)
            event.add(p)
        return 0
    if p.card.points:
        n = apply_own_statics(game, p, "dealt_damage", n)  # prevention (Unbreathing Horde)
        if n <= 0:
            return 0
    kw = keywords(game, source) if source is not None else (source_card.keywords if source_card else NO_KEYWORDS)
    walker = p.card.is_planeswalker
    as_counters = ("wither" in kw or "infect" in kw) and not (walker and not p.card.is_creature)
    if walker:
        p.loyalty = max(0, p.loyalty - n)  # 120.3c: damage to a planeswalker removes loyalty counters
    if as_counters:
        add_counters(game, p, n, "minus")  # dealt as -1/-1 counters (120.3d)
    elif p.card.is_creature or not walker:
        p.damage += n
    p.last_hit_by = by
    game.battlefield.unsettle()
    if deathtouch is None:
        deathtouch = "deathtouch" in kw
    if deathtouch:
        p.deathtouched = True
    if game.drivers.trace is not None:
        log(game, "damage", side_name(by), source=source.card.name if source else None, target=p.card.name,
            target_id=p.id, target_player=None, amount=n, team_life=None, combat=combat, as_counters=as_counters)
    if by != HORDE_CONTROLLER and "lifelink" in kw:
        gain_life(game, n, by)
    if "DealtDamage" in p.card.hooks:
        trigger_hook(game, p, "DealtDamage")  # H13a: it waits for the damage event to end
    return n


def damage_many(game: Game, source: Permanent | None, by: int, targets: list[Permanent], n: int,
                source_card: CardDef | None = None) -> None:
    """Damage dealt to several permanents at the same time: one event for shields (L4)."""
    event: DamageEvent = set()
    for p in targets:
        damage_permanent(game, source, by, p, n, event=event, source_card=source_card)


def damage_player(game: Game, source: Permanent | None, by: int, player: int, n: int,
                  combat: bool = False) -> int:
    """Damage to a team player comes off the shared team life (H1), or off its own (Z)."""
    if n <= 0:
        return 0
    infect = source is not None and has_keyword(game, source, "infect")
    if individual(game) and game.players[player].removed:
        return 0  # Z4: a removed player is no longer in the game
    if game.battlefield.points:
        n = apply_statics(game, "player_dealt_damage", n, player, by)  # A: Nothing Can Stop Me Now
        if n <= 0:
            return 0
    team_side = game.drivers.team_side
    if team_side is not None and by == HORDE_CONTROLLER and not combat:
        prevented = team_side.prevent(game, source, player, n)  # at a table: prevention the players report
        if prevented:
            n -= prevented
            if game.drivers.trace is not None:
                log(game, "prevention", Side.TEAM, player=player + 1, amount=prevented,
                    source=source.card.name if source is not None else None)
            if n <= 0:
                return 0
    if infect:
        give_poison(game, player, n)  # infect: poison counters instead of life (H13, Z4)
    elif individual(game):
        game.damage_taken += n
        change_life(game, player, -n, by)  # Z1, Z2: a player brought to 0 falls to ``by``
    else:
        game.team_life -= n
        game.damage_taken += n
    if game.drivers.trace is not None:
        log(game, "damage", side_name(by), source=source.card.name if source else None,
            target=f"player {player + 1}", target_id=None, target_player=player + 1, amount=n,
            team_life=game.team_life, combat=combat, as_counters=infect)
    creature_damaged_player = game.drivers.creature_damaged_player  # wired when lieutenants are drawn
    if by == HORDE_CONTROLLER and source is not None and source.card.is_creature and creature_damaged_player is not None:
        trigger(game, HORDE_CONTROLLER, (), None, creature_damaged_player)  # L7, waiting as a trigger (H13a)
    if source is not None:
        controller_damaged(game, player, source)
    return n


def give_poison(game: Game, player: int, n: int) -> None:
    """A team player gets ``n`` poison counters (H13: 15 lose the game; Z4: with a life of its own,
    10 remove the player). The Horde has no life and no poison: poison counters given to it do
    nothing (only damage mills it, H11)."""
    if n <= 0 or player < 0:
        return
    pl = game.players[player]
    if pl.removed:
        return
    pl.poison += n
    if game.drivers.trace is not None:
        log(game, "poison", Side.TEAM, player=player + 1, added=n, total=pl.poison)


def damage_horde(game: Game, n: int, source: Permanent | None = None, life_loss: bool = False) -> int:
    """H11: each point of damage to the Horde mills the top card of its library (infect and
    wither damage too; ``life_loss``: life the team makes it lose, which counts the same but is
    no damage)."""
    if n <= 0:
        return 0
    redirect = game.drivers.opponent_damaged
    if redirect is not None and redirect(game, n, source):
        return 0  # F6, G3: dealt to a creature of the opponent the team chooses
    if game.schemes is not None and not life_loss:
        if game.battlefield.points:
            # A: Nothing Can Stop Me Now prevents 1 of each source's damage (a team spell's has no permanent)
            n = apply_statics(game, "player_dealt_damage", n, HORDE_CONTROLLER,
                              source.controller if source is not None else 0)
            if n <= 0:
                return 0
        game.schemes.damage_this_turn += n  # what the Horde is dealt, for abandon conditions
    if game.burning and source is not None:
        return burn_bodies(game, n)  # V5
    library = game.horde.library
    milled = 0
    bottom = game.unknown_order  # a fair copy's: the same law, the same next reveals (Game.unknown_order)
    while milled < n and library:  # a milled card's reward may mill more (M3: Massacre Totem)
        card = library.pop(0) if bottom else library.pop()
        milled += 1
        game.horde.graveyard.append(card)
        if "ToGraveyard" in card.hooks:
            went_to_graveyard(game, card, HORDE_CONTROLLER)  # M3
    game.horde_milled += milled
    if game.drivers.trace is not None:
        log(game, "mill", Side.TEAM, amount=n, milled=milled, library=len(library))
    if source is not None and has_keyword(game, source, "lifelink"):
        gain_life(game, n, source.controller)
    if source is not None:
        controller_damaged(game, HORDE_CONTROLLER, source)
    return milled


def burn_bodies(game: Game, n: int) -> int:
    """V5: combat damage to the Horde exiles that many random cards of its graveyard instead."""
    graveyard = game.horde.graveyard
    exiled = min(n, len(graveyard))
    for _ in range(exiled):
        game.horde.exile.append(graveyard.pop(randbelow(game.horde_rng, len(graveyard))))
    if game.drivers.trace is not None:
        log(game, "graveyard_exiled", Side.HORDE, player=None, cards=exiled)  # the Horde's cards
    return 0


def controller_damaged(game: Game, player: int, source: Permanent) -> None:
    """'Whenever a source matching `when` deals damage to you' abilities of ``player``'s permanents."""
    if not game.battlefield.hooked.get("ControllerDamaged"):
        return
    for watcher in [w for w in watchers(game) if "ControllerDamaged" in w.card.hooks]:
        if watcher.controller != player:
            continue
        for effect in watcher.card.hooks["ControllerDamaged"]:
            ctx = Context(watcher.card, watcher, watcher.controller, target=source)
            when = effect.when
            if when is None or when(game, ctx, source):
                trigger(game, watcher.controller, (effect,), ctx)  # H13a: after the damage event


def lose_life(game: Game, n: int, player: int | None = None, by: int = HORDE_CONTROLLER,
              source: str | None = None) -> None:
    """The team loses ``n`` life (H1); with a life for each player (Z), ``player`` loses it (the
    first player still in the game when none is named), ``by`` being who made it lose it and
    ``source`` the card whose ability or spell did (the trace names it)."""
    if n > 0:
        game.life_lost += n
        if individual(game):
            player = _someone(game, player)
            if player is None:
                return
            change_life(game, player, -n, by)  # Z: life loss to 0 makes a zombie too (docs/decisions.md)
        else:
            game.team_life -= n
        if game.drivers.trace is not None:
            log(game, "life_lost", Side.TEAM, amount=n, team_life=game.team_life, source=source)


def gain_life(game: Game, n: int, player: int | None = None) -> None:
    """The team gains ``n`` life (H1); with a life for each player (Z), ``player`` gains it."""
    if n > 0 and game.battlefield.points:
        n = apply_statics(game, "gain_life", n)  # the team's shared life (Forsaken Wastes: none)
    if n > 0:
        if individual(game):
            player = _someone(game, player)
            if player is None:
                return
            change_life(game, player, n, HORDE_CONTROLLER)
        else:
            game.team_life += n
        game.life_gained += n
        if game.drivers.trace is not None:
            log(game, "life_gained", Side.TEAM, amount=n, team_life=game.team_life)


def _someone(game: Game, player: int | None) -> int | None:
    """The team player a life change reaches (Z): the one named, unless removed; else the first
    still in the game."""
    if player is not None and player >= 0 and not game.players[player].removed:
        return player
    return next((pl.index for pl in game.players if not pl.removed), None)


def _prevented(game: Game, p: Permanent) -> bool:
    """Whether damage to ``p`` is prevented this turn (A: Delight in the Hunt)."""
    return any(flt(game, ctx, p) for flt, ctx in game.prevented)


def prevent_combat_damage(game: Game) -> None:
    game.fogged = True
