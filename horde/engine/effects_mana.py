"""The verbs of lands and mana rocks beyond their mana abilities: what a land does as it enters
(a bounce land's "return a land you control to its owner's hand", Rupture Spire's "sacrifice it
unless you pay {1}", Coral Atoll's "unless you return an untapped Island you control"), scry
(701.22: New Benalia's "When ~ enters, scry 1"), searches for land cards (a Panorama's, Ghost
Quarter's "its controller may search") and a ritual's mana. Registered in the one vocabulary of
``horde.engine.effects`` with its ``verb`` decorator; the mana abilities themselves are the card's
``Mana:`` lines (``horde.engine.cards.ManaAbility``, paid by ``horde.engine.rules.mana``).
"""

from __future__ import annotations

from horde.engine import rules
from horde.engine.cards import CardDef
from horde.engine.effects import Arg, verb
from horde.engine.filters import Amount, Context, Filter, card_matches, evaluate
from horde.engine.shuffling import shuffle
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent


@verb("return_own", filter=Arg("filter"), or_sacrifice=Arg("bool", False))
def return_own(game: Game, ctx: Context, filter: Filter, or_sacrifice: bool) -> None:
    """Its controller returns a permanent it controls matching FILTER to its owner's hand (a bounce land's 'return a land you control'); with OR_SACRIFICE it sacrifices this instead when it returns none."""
    mine = [p for p in rules.board_of(game, ctx.controller) if filter(game, ctx, p)]
    if ctx.is_horde:
        chosen: Permanent | None = rules.horde_pick(game, "return", mine) if mine else None  # H9
    elif mine:
        chosen = rules.ask(game, "return_own", ctx.controller, mine + [None] if or_sacrifice else mine,
                           subject=ctx.permanent)
    else:
        chosen = None
    if chosen is not None:
        rules.bounce(game, chosen, ctx.controller)
    elif or_sacrifice and ctx.permanent is not None and rules.on_battlefield(game, ctx.permanent):
        rules.sacrifice(game, ctx.permanent)


@verb("sacrifice_unless_paid", generic=Arg("int", 1))
def sacrifice_unless_paid(game: Game, ctx: Context, generic: int) -> None:
    """Sacrifice this unless its controller pays GENERIC mana ('sacrifice it unless you pay {1}': a team player pays when it can and its policy says so, the 'may' decision; the Horde pays any mana: H7)."""
    p = ctx.permanent
    if p is None or not rules.on_battlefield(game, p) or ctx.is_horde:
        return
    effect = next((e for e in p.card.hooks.get("Enters", ()) if e.verb == "sacrifice_unless_paid"), None)
    if rules.can_pay(game, ctx.controller, generic, ()) and (effect is None or rules.may(game, ctx, effect)):
        rules.pay(game, ctx.controller, generic, ())
        return
    rules.sacrifice(game, p)


@verb("scry", count=Arg("amount", 1))
def scry(game: Game, ctx: Context, count: Amount) -> None:
    """701.22: its controller looks at the top COUNT cards of its library and puts any number of them on the bottom (its policy chooses: decision 'scry'), the rest back on top in the same order."""
    rules.scry_cards(game, ctx.controller, evaluate(game, ctx, count), ctx.card)


@verb("add_mana", mana=Arg("mana"))
def add_mana(game: Game, ctx: Context, mana: tuple[frozenset[str], ...]) -> None:
    """Add MANA to its controller's pool (a ritual: 'Add {B}{B}{B}'), units as a Mana line writes them; it floats until the step ends (106.4). The Horde pays no mana (H7): it adds none."""
    if ctx.is_horde:
        return
    pool = game.players[ctx.controller].pool
    for unit in mana:
        read = rules.unit_colours(game, ctx.controller, unit)
        if read is not None:
            pool.append(read)


@verb("search_land", filter=Arg("cards", "basic land"), count=Arg("int", 1), tapped=Arg("bool", True),
      who=Arg("choice", "you", ("you", "target_controller")), same_type=Arg("bool", False))
def search_land(game: Game, ctx: Context, filter: str, count: int, tapped: bool, who: str, same_type: bool) -> None:
    """The player WHO names (its controller, or the controller of the permanent it targeted) searches its library for up to COUNT land cards matching FILTER, puts them onto the battlefield (TAPPED), then shuffles (701.19; SAME_TYPE: they share a land type)."""
    target = ctx.target
    player = target.controller if who == "target_controller" and isinstance(target, Permanent) else ctx.controller
    horde = player == HORDE_CONTROLLER
    library = game.horde.library if horde else game.players[player].library
    types: frozenset[str] | None = None
    for _ in range(count):
        options: list[CardDef] = []
        for card in library:
            if (card.is_land and card_matches(filter, card) and card not in options
                    and (types is None or card.subtypes & types)):
                options.append(card)
        if not options:
            break
        if horde:
            card = rules.horde_pick(game, "search", options)  # H9
        else:
            card = rules.ask(game, "search", player, options, subject=True)
        library.remove(card)
        if same_type:
            types = card.subtypes & BASIC_LAND_TYPES
        rules.put_onto_battlefield(game, card, player, player, tapped=tapped)
    shuffle(game.horde_rng if horde else game.players[player].rng, library)


BASIC_LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})


@verb("no_maximum_hand_size", static=True)
def no_maximum_hand_size(game: Game, ctx: Context) -> None:
    """Static: its controller has no maximum hand size (402.2: no discarding down to seven in its cleanup step; Reliquary Tower)."""
