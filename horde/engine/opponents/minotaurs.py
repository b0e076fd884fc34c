"""Battle the Horde (RULES.md M): the Minotaur Horde's turn. It reveals two cards at the start
of its first main phase and casts them, one more for each player beyond the first (M2), the
artifacts it had when the phase began reveal one more each, spells leave effects for the beginning of combat (M4), and every
creature attacks (H8). It has no life: damage mills it (H11), and the team wins as in H12; it
has no hand either: a card bounced or exiled goes to its graveyard (M6).
"""

from __future__ import annotations

import horde.engine.opponents.common as common
from horde.engine import rules, turns
from horde.engine.state import Game


def setup(game: Game) -> None:
    """M1: no permanent starts on the battlefield; the whole deck is the library. M6: a card of
    the Horde's that would go to a hand or exile goes to its graveyard instead."""
    game.drivers.permanent_left = common.to_graveyard_instead


def reveal(game: Game) -> None:
    """M2: at the start of its first main phase the Horde reveals two cards plus one for each player
    beyond the first and casts them; then each of its artifacts that was on the battlefield when
    the phase began reveals one more."""
    present = [p for p in game.battlefield.horde if "MainPhase" in p.card.hooks]
    rules.reveal_and_cast_top(game, 2 + len(game.players) - 1)
    if not game.over():
        common.main_phase_triggers(game, present)


def combat(game: Game) -> None:
    """M4, H8: the beginning of combat (delayed effects), then every Horde creature attacks."""
    common.begin_combat(game)
    if not game.over():
        turns.horde_combat(game, set())


def turn(game: Game) -> None:
    common.run(game, (common.begin_turn, reveal, combat, common.end_step))


def opponent_next(game: Game) -> bool:
    return common.opponent_next(game)
