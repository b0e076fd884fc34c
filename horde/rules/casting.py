"""Casting: what a team player can cast, a team spell cast and resolved, the Horde casting its
revealed cards for free (H7) and the team's chance to counter them (H10).
"""

from __future__ import annotations

from horde.cards import CardDef, ManaCost
from horde.characteristics import watchers
from horde.events import log
from horde.filters import Context, Filter, card_matches
from horde.rules.abilities import (
    ask,
    choose_target,
    legal_targets,
    resolve,
    resolve_spell,
    target_still_legal,
)
from horde.rules.checks import check_state
from horde.rules.mana import can_pay, colour_counts, mana_units, pay, spell_cost
from horde.rules.zones import draw, put_onto_battlefield
from horde.state import HORDE_CONTROLLER, Game, Permanent, Side


def castable(game: Game, player: int, sorcery_speed: bool = True) -> list[tuple[CardDef, str]]:
    """The (card, origin) pairs a team player can cast now: from hand, and its commander from the
    command zone (C2). Counterspells are cast only in answer to a spell."""
    pl = game.players[player]
    options: list[tuple[CardDef, str]] = []
    candidates = []
    seen = set()
    for card in pl.hand:
        if card.is_land or card.counters is not None or card.name in seen:
            continue
        if not sorcery_speed and "Instant" not in card.types and "flash" not in card.keywords:
            continue
        seen.add(card.name)
        candidates.append(card)
    if not candidates and not pl.command:
        return options
    units = mana_units(game, player)
    if not units:
        return options
    colours = colour_counts(units)
    for card in candidates:
        cost = spell_cost(game, card, player, "hand")
        if cost is not None and can_pay(game, player, *cost, units, colours):
            if card.enchant is not None and not legal_targets(game, Context(card, None, player), card.enchant):
                continue  # an Aura needs something to enchant
            options.append((card, "hand"))
    for card in pl.command:
        if not sorcery_speed and "Instant" not in card.types and "flash" not in card.keywords:
            continue
        cost = spell_cost(game, card, player, "command")
        if cost is not None and can_pay(game, player, *cost, units, colours):
            options.append((card, "command"))
    return options


def team_cast(game: Game, player: int, card: CardDef, origin: str) -> None:
    """A team player casts a card: kicker (its policy chooses how many times, among what it can
    pay), pay, leave its zone, cast triggers, then resolve."""
    pl = game.players[player]
    cost = spell_cost(game, card, player, origin)
    assert cost is not None, "castable() offers only what can be cast"
    kicked = 0
    if card.kicker is not None:
        kicked = _kicks(game, player, card, cost)
        cost = _kicked_cost(cost, card.kicker, kicked)
    pay(game, player, *cost)
    if origin == "command":
        pl.command.remove(card)
        pl.commander_casts += 1
    else:
        pl.hand.remove(card)
    if game.drivers.trace is not None:
        log(game, "cast", Side.TEAM, player=player + 1, card=card.name, origin=origin, token=card.is_token,
            kicked=kicked)
    enchanting = choose_target(game, Context(card, None, player), card.enchant) if card.enchant is not None else None
    spell_cast_triggers(game, card, player)
    if card.enchant is not None and (enchanting is None or not target_still_legal(game, enchanting)):
        pl.graveyard.append(card)  # an Aura whose target is gone does not resolve (608.2b)
    elif card.is_permanent:
        put_onto_battlefield(game, card, player, player, commander=(origin == "command" or card is pl.commander),
                             attach=enchanting, kicked=kicked)
    else:
        ctx = Context(card, None, player, x=card.horde_x if card.cost.x else 0, kicked=kicked)
        resolve_spell(game, card, ctx)
        if card is pl.commander:
            pl.command.append(card)  # C2
        else:
            pl.graveyard.append(card)
    check_state(game)


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
    """Cycling (702.29): pay the cost, discard the card, draw a card; then its 'when you cycle'
    abilities (the Cycled hook) resolve."""
    pl = game.players[player]
    cost = card.cycling
    assert cost is not None, "cyclable() offers only cards with cycling"
    generic, pips = (cost.generic + len(cost.pips), ()) if pl.generic_mana else (cost.generic, cost.pips)
    pay(game, player, generic, pips)
    pl.hand.remove(card)
    pl.graveyard.append(card)
    if game.drivers.trace is not None:
        log(game, "cycle", Side.TEAM, player=player + 1, card=card.name)
    draw(game, pl)
    if "Cycled" in card.hooks:
        resolve(game, card.hooks["Cycled"], Context(card, None, player))
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
    relation = getattr(when, "relation", None)
    if relation == "yours" and caster != watcher.controller:
        return False
    if relation == "opponents" and (caster == HORDE_CONTROLLER) == (watcher.controller == HORDE_CONTROLLER):
        return False
    return card_matches(getattr(when, "text"), card)  # noqa: B009


def horde_cast(game: Game, card: CardDef) -> None:
    """The Horde casts a card for free (H7); the team may counter it (H10)."""
    game.drivers.stats.cast_this_turn += 1
    # H7: the Horde pays every additional cost: it kicks once, a multikicker horde_x times.
    kicked = (card.horde_x if card.multikicker else 1) if card.kicker is not None else 0
    if game.drivers.trace is not None:
        log(game, "cast", Side.HORDE, player=None, card=card.name, origin=None, token=card.is_token, kicked=kicked)
    spell_cast_triggers(game, card, HORDE_CONTROLLER)
    if counter_window(game, card):
        if card.is_token:
            game.horde.tokens_gone += 1
        else:
            game.horde.graveyard.append(card)  # H10
        check_state(game)
        return
    if card.enchant is not None:
        # H9: a Horde Aura enchants a random legal permanent or player; with none it goes to the graveyard.
        enchanting = choose_target(game, Context(card, None, HORDE_CONTROLLER), card.enchant)
        if enchanting is None:
            game.horde.graveyard.append(card)
        else:
            put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER, attach=enchanting, kicked=kicked)
    elif card.is_permanent:
        put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER, kicked=kicked)
    else:
        ctx = Context(card, None, HORDE_CONTROLLER, x=card.horde_x, kicked=kicked)  # H7: X is the card's horde_x
        resolve_spell(game, card, ctx)
        game.horde.graveyard.append(card)
    check_state(game)


def counter_window(game: Game, card: CardDef) -> bool:
    """H10: the team may answer a Horde spell with a counterspell it can pay for."""
    options: list[tuple[int, CardDef] | None] = []
    for pl in game.players:
        seen = set()
        for held in pl.hand:
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
    pl.hand.remove(counterspell)
    pl.graveyard.append(counterspell)
    if game.drivers.trace is not None:
        log(game, "counter", Side.TEAM, player=player + 1, card=counterspell.name, countered=card.name)
    return True
