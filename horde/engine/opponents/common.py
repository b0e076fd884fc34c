"""What the challenge decks' procedures share (RULES.md F, M, G): their turn order with extra
turns, the opponent's beginning of turn, a reveal counted by the procedure, the beginning of
combat with the effects spells left for it, and damage to the opponent redirected to one of its
creatures the team chooses.
"""

from __future__ import annotations

from collections.abc import Callable

from horde.engine import rules, turns
from horde.engine.events import log
from horde.engine.rules import ask
from horde.engine.state import HORDE_CONTROLLER, Game, Permanent, Side


def opponent_next(game: Game) -> bool:
    """After the team's ``grace_turns`` first turns the opponent and the team alternate; an extra
    turn (F: Strike the Weak Spot) gives the opponent another turn right after its own."""
    if game.turn < game.setup.grace_turns:
        return False
    if game.turn == game.setup.grace_turns:
        return True
    if game.active == Side.HORDE and game.extra_turns:
        game.extra_turns -= 1
        if game.drivers.trace is not None:
            log(game, "extra_turn", Side.HORDE)
        return True
    return game.active == Side.TEAM


def begin_turn(game: Game) -> None:
    """The opponent's turn begins: its permanents untap (but those a card keeps tapped: F), the
    team's spell lock and cards held 'until the opponent's next turn' end (F), upkeep."""
    game.active = Side.HORDE
    game.horde_turns += 1
    game.drivers.stats.cast_this_turn = 0
    game.spells_locked = False
    game.held.clear()  # F: the exiled cards stay exiled
    for p in game.battlefield.horde:
        if p.skip_untaps:
            p.skip_untaps -= 1
        else:
            p.tapped = False
        p.sick = False  # G4: under its control since the start of this turn
    turns.upkeep(game, [HORDE_CONTROLLER], game.battlefield.horde)


def horde_hook(game: Game, hook: str, permanents: list[Permanent] | None = None) -> bool:
    """Run ``hook`` of each Horde permanent (of ``permanents``, those the trigger event saw)
    still on the battlefield, state-based actions after each; whether the game ended on the way
    (the rest are then not run)."""
    for p in list(game.battlefield.horde) if permanents is None else permanents:
        if hook in p.card.hooks and rules.on_battlefield(game, p):
            rules.run_hook(game, p, hook)
            rules.check_state(game)
            if game.over():
                return True
    return False


def main_phase_triggers(game: Game, present: list[Permanent]) -> None:
    """M2: 'at the beginning of the Horde's precombat main phase' abilities of ``present``, the
    permanents (the artifacts) on the battlefield when the phase began: one cast in this phase
    came too late to trigger."""
    horde_hook(game, "MainPhase", present)


def begin_combat(game: Game) -> None:
    """M4, G6: the effects spells left for the beginning of this turn's combat resolve."""
    delayed, game.delayed = game.delayed, []
    for ctx, effects in delayed:
        rules.resolve(game, effects, ctx)
        rules.check_state(game)
        if game.over():
            return


def end_step(game: Game) -> None:
    """'At the beginning of its controller's end step' abilities (F5), then the end step (H4)."""
    if not horde_hook(game, "YourEndStep"):
        turns.end_step(game)


def run(game: Game, steps: tuple[Callable[[Game], None], ...]) -> None:
    turns.run_steps(game, steps)


def redirect(choices: Callable[[Game], list[Permanent]]) -> Callable[[Game, int, Permanent | None], bool]:
    """F6, G3: damage or life loss the team would deal to the opponent is dealt to one of
    ``choices(game)`` the team chooses (the damage is lost when there is none)."""

    def redirected(game: Game, n: int, source: Permanent | None) -> bool:
        options = choices(game)
        if options:
            target = ask(game, "redirect", -1, options, subject=n)
            if game.drivers.trace is not None:
                log(game, "redirected", Side.TEAM, amount=n, **rules.target_fields(target))
            by = source.controller if source is not None else 0
            rules.damage_permanent(game, source, by, target, n)
        return True

    return redirected


def to_graveyard_instead(game: Game, p: Permanent) -> None:
    """F9, M6, G6: a challenge deck's card that would go to its owner's hand or exile goes to its
    graveyard instead; it is put into a graveyard, so 'from anywhere' abilities trigger (M3)."""
    card = p.card
    for name, zone in (("hand", game.horde.hand), ("exile", game.horde.exile)):
        if card in zone and not card.is_token:
            zone.remove(card)
            game.horde.graveyard.append(card)
            if game.drivers.trace is not None:
                log(game, "to_graveyard_instead", Side.HORDE, card=card.name, instead_of=name)
            if "ToGraveyard" in card.hooks:
                rules.went_to_graveyard(game, card, p.owner)
            return
