"""Fallen heroes (RULES.md section Z): with ``life = "individual"`` each team player has a life total
of its own; a player reduced to 0 life becomes a zombie under a master (Z1, Z2) with the limits of
Z3; a player who loses otherwise leaves the game (Z4); the team loses when no living, non-zombie
player is left (Z5).

The shared-life game (H1) never reaches this room's changes: every function here is asked only
when the setup's ``life`` is ``"individual"``, so the reference games are unchanged. ``team_life``
stays the sum of the lives of the players still in the game, for the policies and the records.
"""

from __future__ import annotations

from collections.abc import Iterable

from horde.engine.cards import CardDef, Effect
from horde.engine.events import log
from horde.engine.state import HORDE_CONTROLLER, NO_MASTER, Game, Side, TeamPlayer, Winner

INDIVIDUAL_POISON = 10  # 704.5c: with a life of its own, a player loses to ten poison counters (Z4)
# The verbs and the players they can reach, for Z3's "no spell that would harm itself or its master".
HARMING_VERBS = frozenset({"lose_life", "damage_all", "poison"})


def individual(game: Game) -> bool:
    """Whether each team player has a life total of its own (Z)."""
    return game.setup.life == "individual"


def in_game(game: Game) -> list[TeamPlayer]:
    """The team players still in the game (Z4 removes players; with a shared life no one is)."""
    return [pl for pl in game.players if not pl.removed]


def start_lives(game: Game) -> None:
    """Z: each player starts with ``life_per_player`` life; the team's life is their sum."""
    for pl in game.players:
        pl.life = game.setup.life_per_player
    game.team_life = sum(pl.life for pl in game.players)


def master_name(master: int) -> str:
    """A master as the log shows it: 'the Horde' or 'player N'."""
    return "the Horde" if master == HORDE_CONTROLLER else f"player {master + 1}"


def change_life(game: Game, player: int, change: int, by: int) -> None:
    """A team player's life changes by ``change`` (damage and life loss are negative); ``by`` is
    the controller of the source or effect. A player brought to 0 or less falls (Z1, Z2)."""
    pl = game.players[player]
    if pl.removed:
        return
    pl.life += change
    game.team_life += change
    if pl.life <= 0:
        fall(game, pl, by)


def fall(game: Game, pl: TeamPlayer, by: int) -> None:
    """Z1: the player does not leave; it becomes a zombie, its life back to its start, everything
    it has stays. Z2: its master is the controller of the lethal source (``by``). A zombie brought
    to 0 again falls again, to the new source's controller. (Z1's spells and abilities on the
    stack: the engine resolves each ability at once, so none waits on a stack when a player falls.)"""
    restored = game.setup.life_per_player - pl.life
    pl.life += restored
    game.team_life += restored
    pl.zombie = True
    pl.master = by if by != NO_MASTER else HORDE_CONTROLLER
    if game.drivers.trace is not None:
        log(game, "player_falls", Side.TEAM, player=pl.index + 1, master=master_name(pl.master),
            life=pl.life, may_attack=may_attack(game, pl.index), may_target=may_target(game, pl.index))


def remove(game: Game, pl: TeamPlayer, reason: str) -> None:
    """Z4: the player leaves the game (800.4a): what it owns leaves with it (its cards are counted
    in its exile), what it controls of another's goes back to its owner."""
    if pl.removed:
        return
    pl.removed = True
    game.team_life -= pl.life
    pl.life = 0
    battlefield = game.battlefield
    for p in list(battlefield.team):
        if p.owner == pl.index:
            battlefield.leave(p)
            if not p.card.is_token:
                (pl.command if p.is_commander else pl.exile).append(p.card)
        elif p.controller == pl.index:
            battlefield.change_control(p, p.owner)
    for p in list(battlefield.horde):
        if p.owner == pl.index:
            battlefield.leave(p)
            if not p.card.is_token:
                pl.exile.append(p.card)
    if game.drivers.trace is not None:
        log(game, "player_removed", Side.TEAM, player=pl.index + 1, reason=reason)


def check(game: Game) -> None:
    """Z4: a player who drew from an empty library (704.5b) or has ten poison counters (704.5c)
    leaves the game; Z5: the team loses when no living, non-zombie player is left."""
    for pl in game.players:
        if not pl.removed and (pl.drew_from_empty or pl.poison >= INDIVIDUAL_POISON):
            remove(game, pl, "drew from an empty library" if pl.drew_from_empty else "ten poison counters")
    if not any(not pl.removed and not pl.zombie for pl in game.players):
        game.winner = Winner.HORDE  # Z5


def may_attack(game: Game, player: int) -> bool:
    """Z3: a zombie whose master is the Horde may not attack (the Horde never gives permission; a
    teammate master does); a removed player has nothing to attack with."""
    pl = game.players[player]
    return not pl.removed and not (pl.zombie and pl.master == HORDE_CONTROLLER)


def may_target(game: Game, player: int) -> bool:
    """Z3: a zombie whose master is the Horde may not target anything with its spells and abilities."""
    return may_attack(game, player)


def harms(game: Game, player: int, card: CardDef) -> bool:
    """Z3: whether a zombie's spell (or its permanent's abilities) would deal damage to, or make
    lose life, the zombie itself or its master: 'you', 'each player', and 'each other player' when
    the master is a teammate. A player who is no zombie is never held back."""
    if not game.players[player].zombie or not card.verbs & HARMING_VERBS:
        return False
    return any(ability_harms(game, player, effects) for effects in card.hooks.values())


def ability_harms(game: Game, player: int, effects: Iterable[Effect]) -> bool:
    """Z3: whether one ability (its effects) of a zombie would harm the zombie itself or its
    master, read as ``harms`` reads a spell (a planeswalker's loyalty ability)."""
    pl = game.players[player]
    if not pl.zombie:
        return False
    reach = {"you", "each_player"} | ({"each_other_player"} if pl.master >= 0 and pl.master != player else set())
    return any(e.verb in HARMING_VERBS and e.args.get("who") in reach for e in effects)


def targets(card: CardDef) -> bool:
    """Whether casting the card asks for a target (Z3): a targeted effect of an instant or sorcery,
    or a counterspell (it targets a spell). A modal spell may still be cast for a mode without a
    target, and a permanent's triggered abilities find no legal target (``legal_targets``)."""
    if card.counters is not None:
        return True
    return any(e.target is not None for e in card.hooks.get("Cast", ()))


def may_cast(game: Game, player: int, card: CardDef) -> bool:
    """Z3: what a player may cast: no spell that targets while its master is the Horde, and no
    spell that would harm itself or its master."""
    if not individual(game):
        return True
    if not may_target(game, player) and targets(card):
        return False
    return not harms(game, player, card)
