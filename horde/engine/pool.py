"""Mana in a pool that remembers what spending it does (106.6): Opal Palace's mana makes the
commander it casts enter with +1/+1 counters, Path of Ancestry's scries for a creature spell that
shares a type with the commander (``horde.engine.cards.SPENT_RIDERS``).

A plain module on purpose: the compiled build (``horde.build``) compiles the engine's other
modules, and a compiled class can't inherit from a built-in type; this one is a ``frozenset`` of
colours, so every check of a pool's colours reads it unchanged.
"""

from __future__ import annotations


class RiderMana(frozenset[str]):
    """One mana in a pool (its colours) that remembers what spending it on a spell does (106.6:
    a mana ability's mana can carry an effect of its spending)."""

    __slots__ = ("rider",)
    rider: str

    def __new__(cls, colours: frozenset[str], rider: str) -> RiderMana:
        made = super().__new__(cls, colours)
        made.rider = rider
        return made
