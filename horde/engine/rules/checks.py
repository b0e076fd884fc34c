"""State-based actions and the ends of the game: creatures with lethal damage or no toughness
die, planeswalkers with no loyalty go to the graveyard (704.5i); the team loses (H13) or wins (H12).
"""

from __future__ import annotations

from horde.engine.characteristics import has_keyword, on_battlefield, side_name, toughness
from horde.engine.events import log
from horde.engine.rules.zombies import check as zombies_check
from horde.engine.rules.zombies import individual
from horde.engine.rules.zones import aura_is_legal, destroy, leave_battlefield
from horde.engine.state import Game, Permanent, Side, Winner


def check_state(game: Game) -> None:
    """State-based actions: creatures with lethal damage or no toughness die, a planeswalker with
    no loyalty is put into its owner's graveyard (704.5i); then the ends of the game: the team loses (H13), the team wins (H12)."""
    battlefield = game.battlefield
    if battlefield.unsettled or battlefield.volatile or battlefield.counting:
        shrinking = False  # an anthem lowers toughness: creatures may die without damage
        for source in battlefield.statics:
            if source.card.shrinks:
                shrinking = True
                break
        while True:
            battlefield.settle()
            dead: list[tuple[Permanent, bool]] = []
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
                        dead.append((p, False))
                    elif ((p.damage >= t or p.deathtouched)
                          and not has_keyword(game, p, "indestructible")):
                        dead.append((p, True))
            for p, destroyed in dead:
                if destroyed:
                    p.damage = 0
                    p.deathtouched = False
                    destroy(game, p, p.last_hit_by)
                else:
                    leave_battlefield(game, p, "graveyard", p.last_hit_by)
            if not dead or all(on_battlefield(game, p) for p, _ in dead):
                break  # nothing left, or only what can't leave (G2) or a shield held (L4)
        if battlefield.planeswalkers:
            for p in [w for w in battlefield.planeswalkers if w.loyalty <= 0]:
                if game.drivers.trace is not None:
                    log(game, "planeswalker_dies", side_name(p.controller), card=p.card.name, id=p.id)
                leave_battlefield(game, p, "graveyard", p.last_hit_by)  # 704.5i: no loyalty left
    if battlefield.auras:
        for aura in list(battlefield.auras):
            if not aura_is_legal(game, aura):
                if game.drivers.trace is not None:
                    log(game, "aura_falls_off", side_name(aura.controller), card=aura.card.name, id=aura.id)
                leave_battlefield(game, aura, "graveyard")  # 704.5m
    if not game.over():
        if individual(game):
            zombies_check(game)  # Z4, Z5 instead of H13
        elif game.team_life <= 0 or _a_player_lost(game):
            game.winner = Winner.HORDE  # H13
        if not game.over() and not game.horde.library and not game.horde.hand and not game.horde.revealed and not any(
                p.card.is_creature for p in game.battlefield.horde):
            game.winner = Winner.TEAM  # H12
            if game.boss is not None and game.drivers.trace is not None:
                log(game, "boss_vanishes", Side.HORDE)  # B6


def _a_player_lost(game: Game) -> bool:
    """H13: a team player drew from an empty library or has 15 poison counters (the team loses)."""
    for pl in game.players:
        if pl.drew_from_empty or pl.poison >= 15:
            return True
    return False
