"""The whole vocabulary of card behaviour: the core verbs of ``horde.engine.effects`` and every
family of verbs written beside it (``effects_<family>``), each registered in the one ``VERBS`` table
by the ``verb`` decorator as its module is imported.

The engine never needs this module: a compiled card's effects carry their function. The catalogue
(which checks a card file's verbs and arguments) and ``horde cards verbs`` read ``VERBS`` from here,
so a family is seen wherever a card is compiled.
"""

from __future__ import annotations

from horde.engine import (
    effects_keywords,  # noqa: F401  (keyword abilities that are triggered abilities)
    effects_layers,  # noqa: F401  (characteristic-defining abilities and their linked abilities)
    effects_mana,  # noqa: F401  (lands and mana rocks)
    effects_staples,  # noqa: F401  (references back, searches, reanimation, Auras that take control)
    effects_walkers,  # noqa: F401  (planeswalkers' loyalty abilities: untap)
)
from horde.engine.effects import VERBS

__all__ = ["VERBS"]
