"""Casting: what a team player can cast, a team spell cast and resolved, the Horde casting its
revealed cards for free (H7) and the team's chance to counter them (H10).
"""

from __future__ import annotations

from horde.cards import CardDef
from horde.characteristics import watchers
from horde.events import log
from horde.filters import Context, card_matches
from horde.rules.abilities import ask, resolve_spell, run_hook
from horde.rules.checks import check_state
from horde.rules.mana import can_pay, colour_counts, mana_units, pay, spell_cost
from horde.rules.zones import put_onto_battlefield
from horde.state import HORDE_CONTROLLER, Game, Side


def castable(game: Game, player: int, sorcery_speed: bool = True) -> list[tuple[CardDef, str]]:
    """The (card, origin) pairs a team player can cast now: from hand, and its commander from the
    command zone (C2). Counterspells are cast only in answer to a spell."""
    pl = game.players[player]
    options: list[tuple[CardDef, str]] = []
    if game.spells_locked:
        return options  # F: Disorienting Glower
    candidates = []
    seen = set()
    for card in pl.hand:
        if card.is_land or card.counters is not None or card.name in seen:
            continue
        if not sorcery_speed and "Instant" not in card.types:
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
            options.append((card, "hand"))
    for card in pl.command:
        cost = spell_cost(game, card, player, "command")
        if cost is not None and can_pay(game, player, *cost, units, colours):
            options.append((card, "command"))
    return options


def team_cast(game: Game, player: int, card: CardDef, origin: str) -> None:
    """A team player casts a card: pay, leave its zone, cast triggers, then resolve."""
    pl = game.players[player]
    cost = spell_cost(game, card, player, origin)
    assert cost is not None, "castable() offers only what can be cast"
    pay(game, player, *cost)
    if origin == "command":
        pl.command.remove(card)
        pl.commander_casts += 1
    else:
        pl.hand.remove(card)
    if game.drivers.trace is not None:
        log(game, "cast", Side.TEAM, player=player + 1, card=card.name, origin=origin, token=card.is_token)
    spell_cast_triggers(game, card)
    if card.is_permanent:
        put_onto_battlefield(game, card, player, player, commander=(origin == "command" or card is pl.commander))
    else:
        ctx = Context(card, None, player, x=card.horde_x if card.cost.x else 0)
        resolve_spell(game, card, ctx)
        if card is pl.commander:
            pl.command.append(card)  # C2
        else:
            pl.graveyard.append(card)
    check_state(game)


def spell_cast_triggers(game: Game, card: CardDef) -> None:
    """'Whenever a player casts a spell' abilities (Blind Creeper)."""
    if not game.battlefield.hooked.get("SpellCast"):
        return
    for p in watchers(game):
        if "SpellCast" in p.card.hooks:
            run_hook(game, p, "SpellCast", spell=card)


def horde_cast(game: Game, card: CardDef) -> None:
    """The Horde casts a card for free (H7); the team may counter it (H10)."""
    game.drivers.stats.cast_this_turn += 1
    if game.drivers.trace is not None:
        log(game, "cast", Side.HORDE, player=None, card=card.name, origin=None, token=card.is_token)
    spell_cast_triggers(game, card)
    if counter_window(game, card):
        if card.is_token:
            game.horde.tokens_gone += 1
        else:
            game.horde.graveyard.append(card)  # H10
        check_state(game)
        return
    if card.is_permanent:
        put_onto_battlefield(game, card, HORDE_CONTROLLER, HORDE_CONTROLLER)
    else:
        ctx = Context(card, None, HORDE_CONTROLLER, x=card.horde_x)  # H7: X is the card's horde_x
        resolve_spell(game, card, ctx)
        game.horde.graveyard.append(card)
    check_state(game)


def counter_window(game: Game, card: CardDef) -> bool:
    """H10: the team may answer a Horde spell with a counterspell it can pay for."""
    options: list[tuple[int, CardDef] | None] = []
    if game.spells_locked:
        return False  # F: Disorienting Glower
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
