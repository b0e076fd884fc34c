"""The native-core spike (spikes/native, docs/speed.md): CPython's random.Random reproduced bit
for bit, and the native Horde turn checked against the Python engine event by event.

The pure-Python port of the generator (spikes/native/pyrandom.py) is always checked, so the
algorithm the C++ core implements is proven on every run. The tests marked ``native`` need the
extension that ``make spike`` builds; without it they are skipped, and ``make test`` never
builds it.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest

from horde import engine
from horde.decks import build_horde_library, load_horde_deck

SPIKE = Path(__file__).resolve().parent.parent / "spikes" / "native"
sys.path.append(str(SPIKE))  # after the installed packages: its module names shadow none

import compile_cards  # noqa: E402
import solitaire  # noqa: E402
from pyrandom import MersenneRandom  # noqa: E402

SEEDS = ["horde/1/0/horde", "horde/digest/999/dice", "horde/7/team3", "", "é" * 70, b"\x00\x01bytes",
         0, 1, 2**32, 2**200 + 12345, -17]


def native_module():
    try:
        import horde_native
    except ImportError:
        pytest.skip("the native spike is not built (make spike)")
    return horde_native


# ---------------------------------------------------------------- the pure-Python port, always


@pytest.mark.parametrize("seed", SEEDS)
def test_H9_port_gives_the_draws_of_random_Random(seed):
    """Seeding by text (SHA-512, init_by_array), getrandbits for k above and below 32,
    randrange, shuffle, random and sample draw what CPython draws."""
    expected, port = random.Random(seed), MersenneRandom(seed)
    for k in (0, 1, 2, 7, 31, 32, 33, 63, 64, 65, 96, 127, 1000):
        assert port.getrandbits(k) == expected.getrandbits(k)
    assert [port.random() for _ in range(100)] == [expected.random() for _ in range(100)]
    for n in (1, 2, 3, 4, 5, 7, 100, 2**31, 2**32 - 1, 2**40 + 3):
        assert [port.randrange(n) for _ in range(50)] == [expected.randrange(n) for _ in range(50)]
    assert [port.randint(5, 6) for _ in range(50)] == [expected.randint(5, 6) for _ in range(50)]
    mine, theirs = list(range(100)), list(range(100))
    port.shuffle(mine)
    expected.shuffle(theirs)
    assert mine == theirs
    # sample: the pool method (n within the set size) and the set method (n above it)
    for n, k in ((5, 5), (21, 3), (22, 3), (42, 6), (100, 6), (43, 40), (1000, 40), (10_000, 200)):
        assert port.sample(range(n), k) == expected.sample(range(n), k)


def test_H9_port_follows_a_long_stream():
    """Past many twists of the 624-word state the port still draws what CPython draws."""
    expected, port = random.Random("horde/1/2/horde"), MersenneRandom("horde/1/2/horde")
    assert [port.getrandbits(32) for _ in range(20_000)] == [expected.getrandbits(32) for _ in range(20_000)]


# ---------------------------------------------------------------- the C++ generator (make spike)


@pytest.mark.native
def test_H9_native_sha512_is_hashlib():
    native = native_module()
    for size in (0, 1, 111, 112, 127, 128, 129, 255, 1000):
        data = bytes(range(256)) * 4
        assert native.sha512(data[:size]) == hashlib.sha512(data[:size]).digest()


@pytest.mark.native
def test_H9_native_generator_gives_the_draws_of_random_Random():
    """Millions of draws for many text seeds: getrandbits (k <= 32, above 32), randrange, shuffle,
    random and sample, each the same as CPython's."""
    native = native_module()
    for i in range(40):
        text = f"horde/{i}/{i * 7}/{('horde', 'dice', 'team1', 'policy')[i % 4]}"
        expected, mine = random.Random(text), native.Random(text)
        k = 1 + i % 32
        assert mine.bits_block(k, 25_000) == [expected.getrandbits(k) for _ in range(25_000)]
        bound = (2, 3, 4, 5, 25, 100, 2**31 + 1, 2**32 - 1)[i % 8]
        assert mine.below_block(bound, 25_000) == [expected.randrange(bound) for _ in range(25_000)]
        for bits in (33, 64, 65, 200):
            assert mine.getrandbits(bits) == expected.getrandbits(bits)
        assert [mine.random() for _ in range(1000)] == [expected.random() for _ in range(1000)]
        cards = list(range(100))
        assert mine.shuffle(cards) == (expected.shuffle(cards) or cards)
        for n, k in ((42, 6), (100, 6), (1000, 40)):
            assert mine.sample(list(range(n)), k) == expected.sample(range(n), k)


# ---------------------------------------------------------------- the native Horde turn (make spike)


def _compiled(deck, bodies=False):
    return solitaire.compiled(deck, bodies)


@pytest.mark.native
@pytest.mark.parametrize("deck", ["zombie-horde", "slice"])
def test_R1_native_library_is_the_engines(deck):
    """The recipe library (R1: randint, sample, shuffle from the Horde stream) is the one
    decks.build_horde_library builds, for the reference deck and the spike's slice of it."""
    native = native_module()
    name = solitaire.SLICE_DECK if deck == "slice" else deck
    compiled, setup = _compiled(name, bodies=True)
    data = native.make_data(compiled.cards, compiled.filters, compiled.recipe)
    horde_deck = load_horde_deck(setup.horde_deck)
    for i in range(200):
        library = build_horde_library(horde_deck, setup, engine.stream((1, i), "horde"))
        native_library = native.library(data, solitaire.seed_text((1, i)))
        assert [compiled.names[c] for c in native_library] == [c.name for c in library]


@pytest.mark.native
def test_H8_native_horde_turns_match_the_engine_event_by_event():
    """The trace comparison: every reveal, cast, entering and leaving, target (H9), counter
    (R2), attack with its random player (H8), damage and life loss of the Horde's turns is the
    Python engine's, for many seeds; the first divergent event is reported."""
    native = native_module()
    compiled, setup = _compiled(solitaire.SLICE_DECK)
    data = native.make_data(compiled.cards, compiled.filters, compiled.recipe)
    for i in range(100):
        expected = solitaire.python_events(setup, (1, i))
        got = solitaire.native_events(native.play(data, solitaire.seed_text((1, i))), compiled.names)
        assert solitaire.first_divergence(expected, got) is None


def test_H5_compiler_refuses_a_verb_outside_the_prototype():
    """A card the native prototype cannot express is refused, naming the card and the verb."""
    with pytest.raises(compile_cards.Refused, match="'Carrion Wurm' .*verb 'any_player_exiles_from_graveyard'"):
        _compiled("zombie-horde")
    compiled, _ = _compiled("zombie-horde", bodies=True)
    assert "Cackling Fiend" in compiled.skipped and "Grave Titan" not in compiled.skipped


def test_H5_slice_deck_compiles_whole():
    compiled, _ = _compiled(solitaire.SLICE_DECK)
    assert not compiled.skipped
    assert len(compiled.recipe["creatures"]) == 30 and len(compiled.recipe["spells"]) == 7


def test_H8_first_divergence_names_the_event():
    a = [("cast", 1, "Zombie"), ("attack", 1, "Zombie", 0, 2, 3)]
    b = [("cast", 1, "Zombie"), ("attack", 1, "Zombie", 0, 2, 4)]
    assert solitaire.first_divergence(a, a) is None
    assert solitaire.first_divergence(a, b).startswith("event 1 differs: Python ('attack', 1, 'Zombie', 0, 2, 3)")
    assert solitaire.first_divergence(a, a[:1]) == "only Python has event 1: ('attack', 1, 'Zombie', 0, 2, 3)"


@pytest.mark.native
def test_H8_trace_comparison_reports_where_a_card_plays_differently():
    """A native Grave Titan that makes one Zombie instead of two is caught at its first entering."""
    native = native_module()
    compiled, setup = _compiled(solitaire.SLICE_DECK)
    titan = compiled.names.index("Grave Titan")
    cards = list(compiled.cards)
    row = list(cards[titan])
    row[9] = [(hook, verb, who, a, 1 if hook == 0 else b, *rest) for hook, verb, who, a, b, *rest in row[9]]
    cards[titan] = tuple(row)
    data = native.make_data(cards, compiled.filters, compiled.recipe)
    for i in range(200):
        expected = solitaire.python_events(setup, (1, i))
        if not any(e[:3] == ("enters", e[1], "Grave Titan") for e in expected):
            continue
        got = solitaire.native_events(native.play(data, solitaire.seed_text((1, i))), compiled.names)
        divergence = solitaire.first_divergence(expected, got)
        assert divergence is not None and "'Zombie'" in divergence.split("native")[0]
        assert "'Grave Titan'" in divergence.split("the events before it")[1]
        return
    pytest.fail("no game of 200 cast Grave Titan")
