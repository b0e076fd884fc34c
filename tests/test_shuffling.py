"""horde.engine.shuffling draws exactly as random.Random: the same list order and the same stream after."""

from __future__ import annotations

from random import Random

import pytest

from horde.engine.shuffling import randbelow, shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 60, 99, 100, 101, 257])
def test_shuffle_is_random_shuffle_bit_for_bit(length: int) -> None:
    for seed in range(20):
        ours, theirs = Random(f"seed {seed}"), Random(f"seed {seed}")
        a, b = list(range(length)), list(range(length))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getrandbits(64) == theirs.getrandbits(64)  # the streams are left alike


def test_shuffle_known_order() -> None:
    cards = list("abcdefgh")
    shuffle(Random(1), cards)
    assert cards == ["d", "g", "b", "f", "h", "a", "e", "c"]  # what Random(1).shuffle gives


def test_randbelow_is_randrange_bit_for_bit() -> None:
    ours, theirs = Random(7), Random(7)
    for n in [1, 2, 3, 5, 20, 21, 64, 65, 100, 1000, 2**40 + 3] * 50:
        assert randbelow(ours, n) == theirs.randrange(n)
    assert ours.random() == theirs.random()


def test_randbelow_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="empty range"):
        randbelow(Random(1), 0)


def test_a_stream_that_is_not_a_random_is_asked_itself() -> None:
    class Loaded(Random):
        def randrange(self, n: int) -> int:  # type: ignore[override]
            return n - 1

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Loaded(1), cards)
    assert cards == [3, 2, 1]
    assert randbelow(Loaded(1), 20) == 19
