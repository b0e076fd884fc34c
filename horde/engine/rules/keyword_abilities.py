"""Keyword abilities (702) the rules apply at their own points, each a small function the other
rooms call where the keyword matters: what a cascade exiles (702.85), how many copies storm
makes (702.40), exalted (702.83), the end of a dashed permanent (702.109) and of myriad's copies
(702.116), typecycling's search (702.29e-f), echo (702.30), suspend (702.62) and rebound (702.88)
at the beginning of the upkeep. Casting itself (alternative and additional costs, the cast
triggers) is ``horde.engine.rules.casting``'s; the keywords a card file writes as triggered
abilities (annihilator, bushido, renown, ...) are verbs of ``horde.engine.effects_keywords``.

A game with none of these keywords pays a look at a card's keywords or a field per cast and
nothing else: their state lives in ``Game.keyword_state``, made when first needed.
"""

from __future__ import annotations

from collections.abc import Callable

from horde.engine.cards import CardDef
from horde.engine.characteristics import has_keyword, on_battlefield, side_name
from horde.engine.events import log
from horde.engine.filters import card_matches
from horde.engine.rules.abilities import ask
from horde.engine.rules.mana import can_pay, pay
from horde.engine.rules.zones import bounce, exile, pump, sacrifice
from horde.engine.shuffling import shuffle
from horde.engine.state import HORDE_CONTROLLER, Game, KeywordState, Permanent, Side

# The keywords that trigger when their spell is cast (603.2): storm's copies, cascade's search.
CAST_TRIGGERS = frozenset({"storm", "cascade"})


def keyword_state(game: Game) -> KeywordState:
    """The game's keyword state, made the first time a keyword needs it."""
    state = game.keyword_state
    if state is None:
        state = game.keyword_state = KeywordState()
    return state


def storm_count(game: Game) -> int:
    """702.40a: the copies storm makes: one for each other spell cast before it this turn (by
    anyone: the Horde's token cards are cast too, H5t)."""
    return max(0, game.spells_this_turn - 1)


def cascade(game: Game, card: CardDef, controller: int, cast: Callable[[CardDef], bool]) -> None:
    """702.85a: exile cards from the top of the caster's library until a nonland card with a
    lesser mana value; ``cast(found)`` casts it without paying its mana cost when the caster does
    (returns whether it was cast); the exiled cards not cast go to the bottom in a random order
    (the Horde's stream for its library, the player's own for a team player's)."""
    if controller == HORDE_CONTROLLER:
        library, rng = game.horde.library, game.horde_rng
    else:
        library, rng = game.players[controller].library, game.players[controller].rng
    exiled: list[CardDef] = []
    found = None
    while library:
        top = library.pop()
        if not top.is_land and top.mana_value < card.mana_value:
            found = top
            break
        exiled.append(top)
    if game.drivers.trace is not None:
        log(game, "cascade", side_name(controller), card=card.name, found=None if found is None else found.name,
            exiled=len(exiled), player=None if controller == HORDE_CONTROLLER else controller + 1)
    if found is not None and not cast(found):
        exiled.append(found)
    shuffle(rng, exiled)
    library[0:0] = exiled  # the bottom of a library is the start of its list


def exalted(game: Game, attackers: list[Permanent]) -> None:
    """702.83: a creature that attacks alone gets +1/+1 until end of turn for each instance of
    exalted among the permanents its controller controls (each a triggered ability)."""
    if len(attackers) != 1:
        return
    attacker = attackers[0]
    board = game.battlefield.horde if attacker.controller == HORDE_CONTROLLER else game.battlefield.team
    count = sum(1 for p in board if p.controller == attacker.controller and has_keyword(game, p, "exalted"))
    if count and on_battlefield(game, attacker):
        pump(game, attacker, count, count)


def end_of_combat(game: Game) -> None:
    """702.116a: myriad's token copies are exiled at the end of combat."""
    state = game.keyword_state
    if state is not None and state.myriad:
        copies, state.myriad = state.myriad, []
        for p in copies:
            exile(game, p)


def dash_end_step(game: Game) -> None:
    """702.109a: a permanent cast with dash returns to its owner's hand at the beginning of the
    next end step (if it is still on the battlefield)."""
    state = game.keyword_state
    if state is not None and state.dashed:
        dashed, state.dashed = state.dashed, []
        for p in dashed:
            if on_battlefield(game, p):
                bounce(game, p)


def typecycle(game: Game, player: int, card: CardDef) -> None:
    """702.29e-f: instead of drawing, search the library for a card of the kind the card names
    ('basic land', 'plains'), reveal it, put it into the hand (the policy's ``search`` among the
    different cards found, subject False), then shuffle."""
    pl = game.players[player]
    finds = card.cycling_finds
    assert finds is not None
    options: list[CardDef] = []
    for c in pl.library:
        if card_matches(finds, c) and c not in options:
            options.append(c)
    if options:
        chosen = ask(game, "search", player, options, subject=False)
        pl.library.remove(chosen)
        pl.hand.append(chosen)
        if game.drivers.trace is not None:
            log(game, "search", Side.TEAM, player=player + 1, card=chosen.name, to="hand")
    shuffle(pl.rng, pl.library)


def echo(game: Game, board: list[Permanent]) -> None:
    """702.30a: at the beginning of its controller's upkeep, a permanent with echo that came under
    its control since its last upkeep is sacrificed unless the echo cost is paid: the Horde pays
    (H7), a team player when it can and its policy says so (``echo``)."""
    for p in list(board):
        marks = p.marks
        if not marks or "echo" not in marks or not on_battlefield(game, p):
            continue
        del marks["echo"]
        cost = p.card.echo
        assert cost is not None
        if p.controller == HORDE_CONTROLLER:
            continue  # H7: it has all the mana it needs
        generic, pips = (cost.generic + len(cost.pips), ()) if game.players[p.controller].generic_mana else \
            (cost.generic, cost.pips)
        if can_pay(game, p.controller, generic, pips) and ask(game, "echo", p.controller, (True, False), subject=p):
            pay(game, p.controller, generic, pips)
        else:
            sacrifice(game, p)


def mark(p: Permanent, kind: str, count: int = 1) -> None:
    """Put ``count`` counters (or a designation) of ``kind`` on a permanent (``Permanent.marks``)."""
    if p.marks is None:
        p.marks = {}
    p.marks[kind] = p.marks.get(kind, 0) + count
