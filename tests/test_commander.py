"""The commander rules of the team's decks (C): the command zone as the rule book writes it."""

from __future__ import annotations

from conftest import HORDE

from horde.cards.catalogue import build_from_lines
from horde.engine import rules

DIES = ["Type: Legendary Creature — Human", "PT: 2/2", "Cost: {1}{W}", "Dies: gain_life amount=3"]


def test_C2_a_commander_goes_to_the_command_zone_instead_and_does_not_die(make_game):
    """C2 (903.11-12 as the rule book has them): the owner puts the commander into the command
    zone *instead* of the graveyard, a replacement: it never dies, so its "when ~ dies" ability
    does not trigger; the same card that is no commander dies and triggers (a rule on its own
    resolves its trigger at once, H13a)."""
    game = make_game(players=2)
    card = build_from_lines(["Name: Test Paladin", *DIES], "test")
    commander = rules.put_onto_battlefield(game, card, 0, 0, triggers=False)
    commander.is_commander = True
    life, home = game.team_life, list(game.players[0].command)
    rules.leave_battlefield(game, commander, "graveyard", by=HORDE)
    assert game.players[0].command == [*home, card] and game.players[0].graveyard == []
    assert game.team_life == life

    other = rules.put_onto_battlefield(game, build_from_lines(["Name: Test Squire", *DIES], "test"), 1, 1,
                                       triggers=False)
    rules.leave_battlefield(game, other, "graveyard", by=HORDE)
    assert [c.name for c in game.players[1].graveyard] == ["Test Squire"]
    assert game.team_life == life + 3
