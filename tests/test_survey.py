"""The refusal classes of a coverage survey (``horde.cards.survey``): each ability the compiler
leaves out is put in the first class whose pattern it matches."""

from __future__ import annotations

import pytest

from horde.cards.survey import refusal_class


@pytest.mark.parametrize("ability, expected", [
    ("Morph {2}{G}", "keyword the engine lacks"),
    ("Cumulative upkeep {1}", "keyword the engine lacks"),
    ("Devoid", "keyword the engine lacks"),
    ("Prowess, convoke", "keyword the engine lacks"),
    ("When Mystic Snake enters, counter target spell", "counterspell outside a cast"),
    ("-7: Any number of target players each draw twenty cards", "loyalty ability"),
    ("{1}, Sacrifice a creature: Draw a card", "activated-ability cost"),
    ("{2}, Discard a card: Draw a card", "activated-ability cost"),
    ("{1}{G}: Regenerate target Elf", "activated ability"),
    ("Gravecrawler gets +1/+1 as long as you control a Swamp", "condition"),
    ("When ~ enters, you may sacrifice a creature. If you do, draw two cards", "'if you do'"),
    ("When ~ enters, exile target creature. Return that card at the beginning of the next end step",
     "reference back"),
    ("When ~ enters, scry 2", "library: search, look, scry"),
    ("If a source would deal damage to you, prevent 1 of that damage", "replacement or prevention"),
    ("Put a charge counter on ~", "other counters"),
    ("Creatures can't attack you", "restriction"),
    ("Enchanted creature has shroud", "keyword grant"),
    ("When ~ dies, create a Treasure token", "token"),
    ("When ~ enters, goad target creature", "'When ~ enters'"),
    ("Whenever you gain life, draw a card", "other trigger"),
    ("Players play with their hands revealed", "other"),
])
def test_refusal_classes(ability, expected):
    assert refusal_class(ability) == expected
