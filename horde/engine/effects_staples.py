"""The verbs of the Commander staples: library searches and tutors, reanimation, what an earlier
verb of the same ability moved ('put all cards exiled this way onto the battlefield'), a permanent
shuffled into its owner's library, damage divided among targets, and the Auras that take control
of a permanent or change what it is.

Each verb is registered with ``horde.engine.effects.verb`` like every other, and reads and writes
the references of its resolution (``Context.it``, ``Context.moved``: ``horde.engine.filters``):
a verb that acts on one object remembers it as it last existed (608.2h), so the verbs after it
say 'its controller' (``who=target_controller``), 'its power' (``amount=it:power``), 'that
creature' (``on=it``), 'the cards exiled this way' (``return_moved zone=exile``). The team's
choices are asked of its policy (``tutor``, ``reanimate``, ``divide``), the Horde's are made at
random (H9). Nothing here runs unless a card uses it.
"""

from __future__ import annotations

import dataclasses

from horde.engine import rules
from horde.engine.cards import CardDef, Effect
from horde.engine.effects import WHO, Arg, _players_for, acted_on, reached, verb
from horde.engine.events import log
from horde.engine.filters import (
    Amount,
    Context,
    Filter,
    Known,
    Target,
    card_matches,
    evaluate,
    known_permanent,
)
from horde.engine.shuffling import randbelow, shuffle
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side

# Where a card found or moved may go.
DESTINATIONS = ("hand", "battlefield", "top", "graveyard")
ZONES = ("graveyard", "exile", "hand", "library", "battlefield")


def _library(game: Game, player: int) -> list[CardDef]:
    return game.horde.library if player == HORDE_CONTROLLER else game.players[player].library


def _shuffle_library(game: Game, player: int) -> None:
    """701.20: a player shuffles its library with its own stream (the Horde's: H9)."""
    if player == HORDE_CONTROLLER:
        shuffle(game.horde_rng, game.horde.library)
    else:
        shuffle(game.players[player].rng, game.players[player].library)


def _pick(game: Game, ctx: Context, player: int, kind: str, horde_kind: str, options: list, cards: list[CardDef],
          subject: object) -> int:
    """The index of the option a player picks: the Horde's at random (H9; ``horde_kind`` for a
    smart Horde, H9s, which reads ``cards``), a team player's by its policy (``kind``)."""
    if player == HORDE_CONTROLLER:
        if game.drivers.horde_choice is None:
            return randbelow(game.horde_rng, len(options))  # H9
        chosen = rules.horde_pick(game, horde_kind, cards, ctx.card)
        return next(i for i, card in enumerate(cards) if card is chosen)
    choice = rules.ask(game, kind, player, options, subject=subject)
    return next(i for i, option in enumerate(options) if option is choice or option == choice)


def _enter(game: Game, card: CardDef, controller: int, owner: int, tapped: bool) -> Permanent | None:
    """A card put onto the battlefield by an effect; an Aura enters attached to a permanent or
    player its controller chooses (303.4f; with none, it stays where it was: 303.4g, None)."""
    attach = None
    if card.enchant is not None:
        attach = rules.choose_target(game, Context(card, None, controller), card.enchant)
        if attach is None:
            return None
    return rules.put_onto_battlefield(game, card, controller, owner, tapped=tapped, attach=attach)


# ---------------------------------------------------------------- library searches and tutors


@verb("search", who=Arg("choice", "you", WHO), filter=Arg("cards", None), count=Arg("amount", 1),
      to=Arg("choice", "hand", DESTINATIONS), tapped=Arg("bool", False), same_type=Arg("bool", False))
def search(game: Game, ctx: Context, who: str, filter: str | None, count: Amount, to: str, tapped: bool,
           same_type: bool) -> None:
    """Each player WHO names searches its library for up to COUNT cards matching FILTER (any card without one; SAME_TYPE: lands that share a basic land type), puts them TO its hand, onto the battlefield (TAPPED), on top of its library or into its graveyard, and shuffles (701.19; on top: after the shuffle)."""
    n = evaluate(game, ctx, count)
    for player in _players_for(game, ctx, who):
        library = _library(game, player)
        found: list[CardDef] = []
        shared: frozenset[str] | None = None  # the land types the cards found so far share
        for _ in range(n):
            options: list[CardDef] = []
            for card in library:  # one of each card: a token is not a card (the Horde's token cards)
                if (not card.is_token and (filter is None or card_matches(filter, card)) and card not in options
                        and (shared is None or card.subtypes & shared)):
                    options.append(card)
            if not options:
                break  # 701.19b: a search for cards with a quality may find none
            card = options[_pick(game, ctx, player, "tutor", "search", options, options, (ctx.card, to))]
            library.remove(card)
            found.append(card)
            if same_type:
                shared = (card.subtypes if shared is None else shared & card.subtypes) & frozenset(BASIC_LAND_MANA)
        if to != "top":
            for card in found:
                _found(game, ctx, player, card, to, tapped)
        _shuffle_library(game, player)
        if to == "top":
            for card in found:
                _found(game, ctx, player, card, to, tapped)


def _found(game: Game, ctx: Context, player: int, card: CardDef, to: str, tapped: bool) -> None:
    """A card found by a search goes where the effect puts it; it is 'it' for the verbs after."""
    if game.drivers.trace is not None:
        log(game, "search", rules.side_name(player), card=card.name,
            player=None if player == HORDE_CONTROLLER else player + 1, to=to)
    ctx.remember(Known(None, card, player, player))
    if to == "battlefield":
        p = _enter(game, card, player, player, tapped)
        if p is None:
            _library(game, player).insert(0, card)  # 303.4g: an Aura with nothing to enchant stays in the library
            return
        if rules.on_battlefield(game, p):
            ctx.remember(known_permanent(game, p))
    elif to == "top":
        _library(game, player).append(card)  # the top of a library is the end of its list
        to = "library"
    elif to == "graveyard":
        rules.graveyard_of(game, player).append(card)
        if "ToGraveyard" in card.hooks:
            rules.went_to_graveyard(game, card, player)
    else:
        rules.hand_of(game, player).append(card)  # the Horde's waits there and is cast next turn (H6)
    ctx.moved_card(card, player, to)


# ---------------------------------------------------------------- reanimation


@verb("reanimate", filter=Arg("cards", "creature"), graveyards=Arg("choice", "all", ("all", "opponents")),
      count=Arg("amount", 1), tapped=Arg("bool", False), attach=Arg("bool", False))
def reanimate(game: Game, ctx: Context, filter: str, graveyards: str, count: Amount, tapped: bool, attach: bool
              ) -> None:
    """Put up to COUNT cards matching FILTER from a graveyard (GRAVEYARDS=opponents: an opponent's) onto the battlefield under the controller's control (TAPPED); with ATTACH this Aura is attached to it (Animate Dead). From the controller's own graveyard: return_from_graveyard."""
    whose = _whose_graveyards(game, ctx.controller, graveyards)
    for _ in range(evaluate(game, ctx, count)):
        options: list[tuple[int, CardDef]] = []
        for owner in whose:
            for card in rules.graveyard_of(game, owner):
                if not card.is_token and card_matches(filter, card) and (owner, card) not in options:
                    options.append((owner, card))
        if not options:
            return
        owner, card = options[_pick(game, ctx, ctx.controller, "reanimate", "return", options,
                                    [card for _, card in options], ctx.card)]
        rules.graveyard_of(game, owner).remove(card)
        p = rules.put_onto_battlefield(game, card, ctx.controller, owner, tapped=tapped)
        ctx.moved_card(card, owner, "battlefield")
        if not rules.on_battlefield(game, p):
            ctx.remember(Known(None, card, ctx.controller, owner))
            continue
        ctx.remember(known_permanent(game, p))
        aura = ctx.permanent
        if attach and aura is not None and rules.on_battlefield(game, aura) and aura.card.enchant is not None:
            rules.enchant(game, aura, p)


def _whose_graveyards(game: Game, controller: int, graveyards: str) -> list[int]:
    """The graveyards a reanimation takes from: every player's, or its opponents'."""
    team = [pl.index for pl in game.players if not pl.removed]  # Z4: a removed player's cards are gone
    if graveyards == "opponents":
        return team if controller == HORDE_CONTROLLER else [HORDE_CONTROLLER]
    return team + [HORDE_CONTROLLER]


@verb("exile_from_graveyard", who=Arg("choice", "you", WHO), filter=Arg("cards", None))
def exile_from_graveyard(game: Game, ctx: Context, who: str, filter: str | None) -> None:
    """Each player WHO names exiles every card matching FILTER (every card without one) from its graveyard: the cards moved this way."""
    for player in _players_for(game, ctx, who):
        graveyard = rules.graveyard_of(game, player)
        exile = game.horde.exile if player == HORDE_CONTROLLER else game.players[player].exile
        for card in [c for c in graveyard if not c.is_token and (filter is None or card_matches(filter, c))]:
            graveyard.remove(card)
            exile.append(card)
            ctx.moved_card(card, player, "exile")


@verb("sacrifice_all", filter=Arg("filter"), who=Arg("choice", None, WHO))
def sacrifice_all(game: Game, ctx: Context, filter: Filter, who: str | None) -> None:
    """Each permanent matching FILTER (that a player WHO names controls) is sacrificed by its controller: 'each player sacrifices all creatures they control'."""
    doomed = [p for p in rules.all_permanents(game) if filter(game, ctx, p)]
    if who is not None:
        players = _players_for(game, ctx, who)
        doomed = [p for p in doomed if p.controller in players]
    for p in doomed:
        if rules.on_battlefield(game, p):
            known = known_permanent(game, p)
            rules.sacrifice(game, p, ctx.controller)  # L6: the effect forced it
            reached(game, ctx, known, "graveyard")


@verb("return_moved", zone=Arg("choice", "exile", ZONES), to=Arg("choice", "battlefield", ("battlefield", "hand")),
      tapped=Arg("bool", False))
def return_moved(game: Game, ctx: Context, zone: str, to: str, tapped: bool) -> None:
    """Put the cards an earlier verb of this ability moved to ZONE ('exiled this way'), those still there, onto the battlefield (TAPPED) or into their owners' hands, each under its owner's control."""
    for card, owner, went in list(ctx.moved or ()):
        if went != zone or card.is_token:
            continue  # a token ceased to exist (H6)
        cards = _zone(game, owner, zone)
        if card not in cards:
            continue  # it left that zone since (a commander went to the command zone: C2)
        cards.remove(card)
        if not _put(game, ctx, card, owner, to, tapped):
            cards.append(card)


def _put(game: Game, ctx: Context, card: CardDef, owner: int, to: str, tapped: bool) -> bool:
    """A card an effect puts into its owner's hand or onto the battlefield under its owner's
    control: 'it' for the verbs after. False: an Aura with nothing to enchant, which stays where
    it was (303.4g)."""
    if to == "hand":
        rules.hand_of(game, owner).append(card)
        ctx.remember(Known(None, card, owner, owner))
        return True
    p = _enter(game, card, owner, owner, tapped)
    if p is None:
        return False
    if rules.on_battlefield(game, p):
        ctx.remember(known_permanent(game, p))
    return True


def _zone(game: Game, player: int, zone: str) -> list[CardDef]:
    if zone == "graveyard":
        return rules.graveyard_of(game, player)
    if zone == "hand":
        return rules.hand_of(game, player)
    if zone == "library":
        return _library(game, player)
    if zone == "exile":
        return game.horde.exile if player == HORDE_CONTROLLER else game.players[player].exile
    return []  # the battlefield holds permanents, not cards


# ---------------------------------------------------------------- 'it': the object an earlier verb acted on


@verb("sacrifice", on=Arg("choice", "it", ("it",)))
def sacrifice(game: Game, ctx: Context, on: str) -> None:
    """Its controller sacrifices it: the permanent an earlier verb acted on, or the one an Aura or Equipment was attached to as it left ('that creature's controller sacrifices it': Animate Dead)."""
    it = ctx.it
    if it is not None and it.permanent is not None and rules.on_battlefield(game, it.permanent):
        rules.sacrifice(game, it.permanent, ctx.controller)


@verb("shuffle_into_library", target=Arg("filter"), bottom=Arg("bool", False), targets="target")
def shuffle_into_library(game: Game, ctx: Context, target: Filter, bottom: bool) -> None:
    """The owner of target permanent matching TARGET shuffles it into its library (BOTTOM: puts it on the bottom of its library); a token ceases to exist (H6), a commander goes to the command zone (903.9b)."""
    p = ctx.target
    if not isinstance(p, Permanent) or not rules.on_battlefield(game, p):
        return
    known = acted_on(game, ctx, p)
    rules.leave_battlefield(game, p, "library", ctx.controller)
    reached(game, ctx, known, "library")
    library = _library(game, p.owner)
    if bottom:
        if p.owner == HORDE_CONTROLLER and library and library[-1] is known.card and not known.card.is_token:
            library.insert(0, library.pop())  # the Horde's library took it on top: the bottom is the start
    else:
        _shuffle_library(game, p.owner)


@verb("reveal_top", who=Arg("choice", "you", WHO), filter=Arg("cards", "permanent"),
      to=Arg("choice", "battlefield", ("battlefield", "hand")))
def reveal_top(game: Game, ctx: Context, who: str, filter: str, to: str) -> None:
    """Each player WHO names reveals the top card of its library; if it matches FILTER, that player puts it onto the battlefield or into its hand ('if it's a permanent card, they put it onto the battlefield')."""
    for player in _players_for(game, ctx, who):
        library = _library(game, player)
        if not library:
            continue
        card = library[-1]
        if game.drivers.trace is not None and player == HORDE_CONTROLLER:
            log(game, "reveal", Side.HORDE, cards=[card.name], library=len(library) - 1)
        if not card_matches(filter, card):
            continue  # it stays on top, revealed
        library.pop()
        if not _put(game, ctx, card, player, to, False):
            library.append(card)


# ---------------------------------------------------------------- damage divided


@verb("damage_divided", amount=Arg("amount"), filter=Arg("filter", "any"), among=Arg("int", 0))
def damage_divided(game: Game, ctx: Context, amount: Amount, filter: Filter, among: int) -> None:
    """Deal AMOUNT damage divided as the controller chooses among up to AMONG targets matching FILTER (0: any number), each dealt at least 1 (601.2d); the team's policy divides it (``divide``), the Horde at random (H9)."""
    n = evaluate(game, ctx, amount)
    probe = Effect("damage", {}, None, target=filter)
    options = rules.legal_targets(game, ctx, probe)
    if n <= 0 or not options:
        return
    most = min(n, len(options), among or n)
    if ctx.is_horde:
        points = _horde_divides(game, options, n, most)
    else:
        points = list(rules.ask(game, "divide", ctx.controller, options, subject=(ctx.card, n, most), count=n,
                                is_legal=lambda chosen: len(chosen) == n and _distinct(chosen) <= most))
    division: list[tuple[Target, int]] = []
    for target in points:
        for i, (chosen, dealt) in enumerate(division):
            if chosen is target or chosen == target:
                division[i] = (chosen, dealt + 1)
                break
        else:
            division.append((target, 1))
    for target, _ in division:
        if game.drivers.trace is not None:
            log(game, "target", rules.side_name(ctx.controller), card=ctx.card.name if ctx.card else None,
                **rules.target_fields(target))
        if isinstance(target, Permanent):
            rules.became_target(game, target, ctx)
    for target, dealt in division:  # the damage is dealt at once, after the targets are chosen (601.2d)
        if target == "horde":
            rules.damage_horde(game, dealt)  # H11
        elif isinstance(target, int):
            rules.damage_player(game, ctx.permanent, ctx.controller, target, dealt)
        elif isinstance(target, Permanent) and rules.on_battlefield(game, target):
            rules.damage_permanent(game, ctx.permanent, ctx.controller, target, dealt, source_card=ctx.card)


def _distinct(chosen: list) -> int:
    seen: list = []
    for target in chosen:
        if not any(target is s or target == s for s in seen):
            seen.append(target)
    return len(seen)


def _horde_divides(game: Game, options: list, n: int, most: int) -> list:
    """H9, for a division: how many targets (1 to ``most``) uniformly, which ones uniformly among
    the legal ones, one point to each, then each remaining point to one of them uniformly."""
    rng = game.horde_rng
    k = 1 + randbelow(rng, most)
    pool = list(options)
    chosen = [pool.pop(randbelow(rng, len(pool))) for _ in range(k)]
    return chosen + [chosen[randbelow(rng, k)] for _ in range(n - k)]


# ---------------------------------------------------------------- Auras that take or change a permanent


@verb("you_control", static=True)
def you_control(game: Game, ctx: Context) -> None:
    """Static (an Aura's Enchanted): you control enchanted permanent (613.1b, layer 2; when the Aura leaves, it returns to the controller it had)."""
    # The rules apply it as the Aura is attached and when it falls off (horde.engine.rules.auras_apply).


@verb("becomes", static=True, types=Arg("types"), subtypes=Arg("subtypes", frozenset()),
      colors=Arg("colours", None), loses_abilities=Arg("bool", False))
def becomes(game: Game, printed: CardDef, types: frozenset[str], subtypes: frozenset[str],
            colors: frozenset[str] | None, loses_abilities: bool) -> CardDef:
    """Static (an Aura's Enchanted): enchanted permanent is a TYPES with SUBTYPES (and COLORS) instead of its other types; a land with a basic land type loses its other abilities and taps for that type's colour (305.7), as with LOSES_ABILITIES."""
    key = (printed, types, subtypes, colors, loses_abilities)
    card = _BECOME.get(key)
    if card is None:
        card = _BECOME[key] = _became(printed, types, subtypes, colors, loses_abilities)
    return card


_BECOME: dict[tuple[object, ...], CardDef] = {}  # what a card becomes, made once (filters keep answers per card)
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def _became(printed: CardDef, types: frozenset[str], subtypes: frozenset[str], colours: frozenset[str] | None,
            loses_abilities: bool) -> CardDef:
    """The card a permanent is while an Aura makes it something else (layers 4-6): its name, cost
    and supertypes kept (Song of the Dryads: a legendary creature stays legendary)."""
    basics = frozenset(BASIC_LAND_MANA[t] for t in subtypes if t in BASIC_LAND_MANA)
    creature = "Creature" in types
    card = dataclasses.replace(printed, types=types, subtypes=subtypes,
                               colours=printed.colours if colours is None else colours,
                               power=printed.power if creature else None,
                               toughness=printed.toughness if creature else None,
                               power_amount=printed.power_amount if creature else None,
                               toughness_amount=printed.toughness_amount if creature else None,
                               layout="", faces=())  # a permanent is one face: its faces stay the card's
    if not (loses_abilities or ("Land" in types and basics)):  # 305.7
        return card
    return dataclasses.replace(
        card, keywords=frozenset(), hooks={}, mana=(basics,) if basics else (), equip=None, enchant=None,
        flashback=None, kicker=None, cycling=None, unearth=None, from_graveyard=None, anthems=(), equipped=(),
        mana_abilities=(), static_flags=frozenset(), points={}, power_amount=None, toughness_amount=None,
        counters=None, is_fog=False, overload=None, costs_less=None)
