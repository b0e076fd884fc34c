"""Shuffling and random picks with exactly the draws of ``random.Random``, in compiled code.

A game's randomness comes from its own ``random.Random`` streams (the seed alone decides a game).
``Random.shuffle`` and ``Random.randrange`` are written in Python inside the standard library, so
even the compiled engine runs them as interpreted bytecode: a reference game shuffles about ten
libraries of up to a hundred cards, close to a thousand draws. This module does the same thing
with the same calls to the stream's ``getrandbits`` (CPython 3.11's ``_randbelow_with_getrandbits``
and ``shuffle``, which the native-core spike reproduces bit for bit too), and is compiled with the
engine, so every shuffle (701.20) and random pick leaves the stream and the list exactly as the
standard library would. ``tests/test_shuffling.py`` checks that against ``random.Random`` itself.

Standard library only; nothing here knows a rule.
"""

from __future__ import annotations

from random import Random
from typing import Protocol, TypeVar

T = TypeVar("T")


class Stream(Protocol):
    """A game's random stream: a ``random.Random``, or anything with its ``randrange`` and
    ``shuffle`` (a test's loaded dice)."""

    def randrange(self, n: int) -> int: ...

    def shuffle(self, x: list[T]) -> None: ...


def randbelow(rng: Stream, n: int) -> int:
    """A random integer in ``[0, n)``: ``rng.randrange(n)`` for ``n > 0``, drawn the same way.
    A stream that is not exactly a ``random.Random`` (a subclass, a test's dice) is asked itself."""
    if type(rng) is not Random:
        return rng.randrange(n)
    if n <= 0:
        raise ValueError(f"empty range for randbelow ({n})")
    return _below(rng, n)


def shuffle(rng: Stream, cards: list[T]) -> None:
    """Shuffle ``cards`` in place: ``rng.shuffle(cards)``, the same draws and the same order
    (Fisher-Yates from the end of the list). A stream that is not exactly a ``random.Random`` is
    asked itself."""
    if type(rng) is not Random:
        rng.shuffle(cards)
        return
    for i in range(len(cards) - 1, 0, -1):
        j = _below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def _below(rng: Random, n: int) -> int:
    """Random._randbelow_with_getrandbits: ``n.bit_length()`` bits drawn until below ``n`` (n > 0)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:  # rejection sampling
        r = rng.getrandbits(k)
    return r
