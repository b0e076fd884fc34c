"""What the compiler is given besides a text (``Facts``) and what it makes of it (``Compiled``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from horde.engine.cards import CardDef


@dataclass(frozen=True)
class Facts:
    """What the compiler needs to know of the card besides its text."""

    name: str
    types: frozenset[str]
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colours: frozenset[str] = frozenset()
    pt_star: bool = False  # printed */*
    x_cost: bool = False  # its mana cost has {X}


@dataclass
class Compiled:
    """What the compiler made of a text: the card-file lines of the abilities it read, and the
    sentences it could not read (their abilities are not in ``lines``: the card is exact only when
    ``unread`` is empty, and ``lines`` is then all of it). ``why`` says, for each sentence not
    read, where the grammar stopped and what it expected there, or which part of it the effect
    vocabulary can't express."""

    lines: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # each ability not read, whole (the sentences of its line)
    keywords: list[str] = field(default_factory=list)
    made_from: dict[str, str] = field(default_factory=dict)  # each line -> the sentence(s) it was read from
    tokens: dict[str, CardDef] = field(default_factory=dict)  # the new token cards ``lines`` create, by name
    why: dict[str, str] = field(default_factory=dict)  # each sentence of ``unread`` -> why

    @property
    def ok(self) -> bool:
        return not self.unread
