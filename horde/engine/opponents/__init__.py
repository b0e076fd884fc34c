"""Whose procedure the Horde side plays, chosen by the setup's ``opponent`` knob: the Horde's own
turn (H4, with the community variants of RULES.md section V), Face the Hydra (F), Battle the
Horde (M) or Defeat a God (G). Each procedure is its setup (after the library is built), its
turn, when its turn comes (H2 and extra turns) and what it checks at the end of every turn; the
engine asks ``procedure(setup)`` once and plays it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from horde.engine import turns
from horde.engine.events import log
from horde.engine.opponents import hydra, minotaurs, xenagos
from horde.engine.state import Game, Side, Winner
from horde.setup import GameSetup


@dataclass(frozen=True)
class Procedure:
    """One opponent's procedure: ``setup(game)`` once, before the opening hands; ``turn(game)``;
    ``opponent_next(game)`` whether the next turn is the opponent's; ``end_of_turn(game)`` after
    every turn of either side."""

    name: str
    setup: Callable[[Game], None]
    turn: Callable[[Game], None]
    opponent_next: Callable[[Game], bool]
    end_of_turn: Callable[[Game], None]


def horde_turn_now(setup: GameSetup, turn: int) -> bool:
    """H2: the team takes the first ``grace_turns`` turns, then the Horde and the team alternate,
    the Horde first."""
    return turn > setup.grace_turns and (turn - setup.grace_turns) % 2 == 1


def horde_turn(game: Game) -> None:
    """H4, then V2: at the end of each Horde turn of Overwhelming Numbers, the counter grows by the
    number of players and every 10 becomes an emblem."""
    turns.horde_turn(game)
    if game.setup.reveal == "emblems" and not game.over():
        count_emblems(game)


def count_emblems(game: Game) -> None:
    """V2: the counter grows by the number of players; each time it reaches 10 it loses 10 and the
    Horde gains an emblem."""
    game.emblem_counter += len(game.players)
    while game.emblem_counter >= 10:
        game.emblem_counter -= 10
        game.emblems += 1
    if game.drivers.trace is not None:
        log(game, "emblems", Side.HORDE, emblems=game.emblems, counter=game.emblem_counter)


def team_wins_in_upkeep(game: Game) -> None:
    """V10 (Horde Sealed): the team wins in its upkeep when the Horde's library is empty."""
    if (game.setup.team_wins_when == "upkeep" and not game.over() and not game.horde.library
            and game.active == Side.TEAM):
        if game.drivers.trace is not None:
            log(game, "team_wins", Side.TEAM, reason="the Horde's library is empty in the team's upkeep (V10)")
        game.winner = Winner.TEAM


def _nothing(game: Game) -> None:
    return None


HORDE = Procedure("horde", _nothing, horde_turn, lambda game: horde_turn_now(game.setup, game.turn + 1), _nothing)
PROCEDURES: dict[str, Procedure] = {
    "horde": HORDE,
    "hydra": Procedure("hydra", hydra.setup, hydra.turn, hydra.opponent_next, hydra.end_of_turn),
    "battle": Procedure("battle", minotaurs.setup, minotaurs.turn, minotaurs.opponent_next, _nothing),
    "god": Procedure("god", xenagos.setup, xenagos.turn, xenagos.opponent_next, _nothing),
}


def procedure(setup: GameSetup) -> Procedure:
    """The procedure the setup's ``opponent`` knob names."""
    return PROCEDURES[setup.opponent]


__all__ = ["Procedure", "procedure", "horde_turn_now", "count_emblems", "team_wins_in_upkeep"]


# ---------------------------------------------------------------- one turn of either side


def play_turn(game: Game, procedure: Procedure, team_turn: Callable[[Game], None] = turns.team_turn) -> bool:
    """Play the next turn (H2: the team's or the opponent's) to its end. False, with the game
    over, when the turn would pass ``max_turns`` (H14: a stall). ``team_turn`` plays the team's
    turn (at a table, its players do)."""
    opponent = procedure.opponent_next(game)  # H2 (F, M, G: and extra turns)
    game.turn += 1
    if game.turn > game.setup.max_turns:
        game.turn = game.setup.max_turns
        game.winner = Winner.STALL  # H14
        return False
    if game.drivers.trace is not None:
        side = Side.HORDE if opponent else Side.TEAM
        # The opponent's turns counted apart from the team's (an extra turn counts: F).
        number = game.horde_turns + 1 if opponent else game.turn - game.horde_turns
        log(game, "turn_begins", side, number=number)
    if opponent:
        procedure.turn(game)
    else:
        game.active = Side.TEAM
        team_wins_in_upkeep(game)  # V10
        if not game.over():
            team_turn(game)
    if not game.over():
        procedure.end_of_turn(game)  # F8
    return True
