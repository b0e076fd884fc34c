"""State-based actions, the ends of the game and the triggered abilities that wait for them, as
H13a times them (704.3, 603.3, 603.10a): every state-based action that applies is performed at
once and the check repeats until none applies; the team loses (H13) or wins (H12) there, so a
game ends the moment its condition holds; only then are the triggered abilities that waited put
on the stack, and the check runs again before each one resolves. ``check_state`` is the one place
that does this: the rules call it whenever a player would receive priority.
"""

from __future__ import annotations

from horde.engine.characteristics import has_keyword, on_battlefield, side_name, toughness
from horde.engine.events import log
from horde.engine.rules.abilities import Trigger, choose_card
from horde.engine.rules.zombies import check as zombies_check
from horde.engine.rules.zombies import individual
from horde.engine.rules.zones import aura_is_legal, destroy, leave_battlefield
from horde.engine.shuffling import shuffle
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side, Winner


def check_state(game: Game) -> None:
    """H13a: perform the state-based actions until none applies (``state_based_actions``); then
    put the triggered abilities that waited on the stack (``stack_order``) and resolve them one at
    a time from the top, the state-based actions performed again before each (what they trigger
    goes on top). Once the game is over nothing further resolves: what waited is dropped.
    A call made while the check runs (a rule inside a resolving trigger) returns at once: the
    loop looks again when the trigger has resolved."""
    if game.checking:
        return
    game.checking = True
    stack: list[Trigger] = []
    try:
        while True:
            state_based_actions(game)
            if game.over():
                break
            if game.waiting:
                stack.extend(stack_order(game, game.waiting))
                game.waiting.clear()
                game.left_together.clear()  # 603.10a: the event they looked back at is over
            if not stack:
                break
            game.left_together.clear()
            stack.pop().resolve(game)
    finally:
        game.checking = False
        if game.over():
            game.waiting.clear()
            game.left_together.clear()


def stack_order(game: Game, waiting: list[Trigger]) -> list[Trigger]:
    """603.3b: the triggers that waited, bottom of the stack first: the active side's first, so the
    other side's resolve first. The Horde puts its own in a random order (H9; only when they are
    not all the same ability, so that no choice is drawn where there is none); the team in the
    order that makes them resolve as they triggered (Decision: its order is not asked)."""
    horde = [t for t in waiting if t.controller == HORDE_CONTROLLER]
    team = [t for t in waiting if t.controller != HORDE_CONTROLLER]
    if len(horde) > 1:
        first = horde[0].key()
        if any(t.key() != first for t in horde):
            shuffle(game.horde_rng, horde)  # H9: the order of the Horde's triggers is its choice
    team.reverse()  # the first to trigger is put on the stack last: it resolves first
    return horde + team if game.active == Side.HORDE else team + horde


def state_based_actions(game: Game) -> None:
    """704.3: every state-based action that applies is performed at once: creatures with lethal
    damage are destroyed (L4: a shield counter is removed instead) and creatures with no toughness
    die, planeswalkers with no loyalty (704.5i), the legend rule
    (704.5j), Auras attached illegally (704.5m); the triggers of what left wait (``game.waiting``:
    the event that caused them is not over); then the ends of the game (H12, H13). Repeated until
    none applies or the game is over, or until none of them changed anything (G2: what can't leave
    stays)."""
    battlefield = game.battlefield
    while not game.over():
        dying: list[tuple[Permanent, bool]] = []
        if battlefield.unsettled or battlefield.volatile or battlefield.counting:
            battlefield.settle()
            dying = lethal(game)
        walkers = [w for w in battlefield.planeswalkers if w.loyalty <= 0] if battlefield.planeswalkers else []
        legends = legend_rule(game) if battlefield.legends > 1 else []
        auras = [a for a in battlefield.auras if not aura_is_legal(game, a)] if battlefield.auras else []
        if not (dying or walkers or legends or auras):
            game_ends(game)
            return
        game.left_together.clear()  # 603.10a: this is an event of its own
        for p, destroyed in dying:
            if destroyed:
                p.damage = 0
                p.deathtouched = False
                destroy(game, p, p.last_hit_by)
            else:
                leave_battlefield(game, p, "graveyard", shrunk_by(game, p))
        for p in walkers:
            if on_battlefield(game, p):
                if game.drivers.trace is not None:
                    log(game, "planeswalker_dies", side_name(p.controller), card=p.card.name, id=p.id)
                leave_battlefield(game, p, "graveyard", p.last_hit_by)  # 704.5i: no loyalty left
        for p in legends:
            if on_battlefield(game, p):
                if game.drivers.trace is not None:
                    log(game, "legend_rule", side_name(p.controller), card=p.card.name, id=p.id)
                leave_battlefield(game, p, "graveyard")  # 704.5j
        for aura in auras:
            if on_battlefield(game, aura):
                if game.drivers.trace is not None:
                    log(game, "aura_falls_off", side_name(aura.controller), card=aura.card.name, id=aura.id)
                leave_battlefield(game, aura, "graveyard")  # 704.5m
        if game_ends(game):
            return  # the game ended with them (H12, H13): nothing more is done
        acted = [p for p, _ in dying] + walkers + legends + auras
        if all(on_battlefield(game, p) for p in acted):
            battlefield.settle()
            return  # nothing could leave (G2) or a shield held (L4): nothing more applies


def lethal(game: Game) -> list[tuple[Permanent, bool]]:
    """704.5f-g: the creatures that die now, each with whether it is destroyed (lethal damage,
    deathtouch: indestructible ignores it) or put into its owner's graveyard (no toughness)."""
    battlefield = game.battlefield
    shrinking = False  # an anthem lowers toughness: creatures may die without damage
    for source in battlefield.statics:
        if source.card.shrinks:
            shrinking = True
            break
    dying: list[tuple[Permanent, bool]] = []
    for board in (battlefield.horde, battlefield.team):
        for p in board:
            card = p.card
            if not card.is_creature:
                continue
            if (not p.damage and card.pt_amount is None and not shrinking and not p.deathtouched
                    and (card.toughness or 0) + p.plus - p.minus + p.temp_toughness > 0):
                continue  # undamaged, and nothing can make its toughness 0 or less
            t = toughness(game, p)
            if t <= 0:
                dying.append((p, False))
            elif (p.damage >= t or p.deathtouched) and not has_keyword(game, p, "indestructible"):
                dying.append((p, True))
    return dying


def shrunk_by(game: Game, p: Permanent) -> int:
    """L6: who gave a creature that dies of no toughness its killing blow: the controller of the
    last -N/-N or -1/-1 counters put on it by a spell or ability, else of a static ability that
    lowers its toughness (an anthem such as Elesh Norn's)."""
    if p.last_hit_by >= 0 or p.lieutenant is None:
        return p.last_hit_by
    for source in game.battlefield.statics:
        if source.card.shrinks and source.controller >= 0:
            for effect in source.card.anthems:
                if effect.args["toughness"] < 0 and effect.args["filter"](game, source, p):
                    return source.controller
    return p.last_hit_by


def legend_rule(game: Game) -> list[Permanent]:
    """704.5j: a player who controls two or more legendary permanents with the same name, tokens
    too, chooses one of them (the team's player by its policy; the Horde at random, H9); the rest
    are put into their owners' graveyards. Returns the rest."""
    named: dict[tuple[int, str], list[Permanent]] = {}
    for board in (game.battlefield.team, game.battlefield.horde):
        for p in board:
            if p.card.is_legendary:
                named.setdefault((p.controller, p.card.name), []).append(p)
    rest: list[Permanent] = []
    for (controller, _), same in named.items():
        if len(same) > 1:
            kept = choose_card(game, controller, "keep", same)
            rest.extend(p for p in same if p is not kept)
    return rest


def game_ends(game: Game) -> bool:
    """The ends of the game, state-based actions themselves (704.5a-c): the team loses (H13; with
    a life for each player Z4 and Z5), else the team wins (H12). Whether the game is over."""
    if game.over():
        return True
    if individual(game):
        zombies_check(game)  # Z4, Z5 instead of H13
    elif game.team_life <= 0 or _a_player_lost(game):
        game.winner = Winner.HORDE  # H13
    if (not game.over() and not game.horde.library and not game.horde.hand and not game.horde.revealed
            and not any(p.card.is_creature for p in game.battlefield.horde)):
        if game.boss is not None and game.drivers.trace is not None:
            log(game, "boss_vanishes", Side.HORDE)  # B6
        game.winner = Winner.TEAM  # H12
    return game.over()


def _a_player_lost(game: Game) -> bool:
    """H13: a team player drew from an empty library or has 15 poison counters (the team loses)."""
    for pl in game.players:
        if pl.drew_from_empty or pl.poison >= 15:
            return True
    return False
