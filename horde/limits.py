"""The limits of horde's input contract, and the one checker of every number a user gives.

Every number that comes from outside (a knob, a seed, a game count, a count in a decklist, a
number in a card file, a policy parameter) is read by ``whole_number`` or ``finite_number``
against the bounds named here, so no input the loaders accept can make a game run unbounded or
a result overflow the columns that store it. ``docs/limits.md`` lists them; a test checks that
it names every one. ``quoted`` cuts a value short before an error message shows it.
"""

from __future__ import annotations

import math
import re
from typing import Any

# ---------------------------------------------------------------- numbers
INT64_MAX = 2**63 - 1  # what results store a seed or a game index in
SEED_MAX = INT64_MAX  # seeds: 0 to 2^63 - 1
GAMES_MAX = 100_000_000  # games per cell of an experiment (horde run, compare, tune)
SIMULATE_GAMES_MAX = 1_000_000  # horde simulate keeps every game's record in memory
CHUNK_MAX = 100_000  # games per chunk (a chunk's rows are held in memory)
WORKERS_MAX = 256  # local worker processes
CELLS_MAX = 10_000  # cells of one experiment (the product of its sweep)
DECKLIST_CARDS_MAX = 10_000  # cards in one decklist (the sum of its counts)
LINE_COUNT_MAX = 999  # the count of one decklist line
CARD_FILES_MAX = 1_000  # card files a game reads (--cards, HORDE_CARDS, cards = [...])
CARD_NAME_MAX = 200  # characters of a card name (the longest printed name has 141)
CARD_TEXT_MAX = 5_000  # characters of a card's Oracle text (the longest printed text has about 1,200)
CARD_PT_MAX = 1_000  # |power| and |toughness| of a card (the largest printed is 99)
CARD_LOYALTY_MAX = 1_000  # a planeswalker's starting loyalty, and a loyalty ability's change
CARD_AMOUNT_MAX = 1_000  # damage, life and the other amounts of a card's effects
CARD_COUNT_MAX = 100  # tokens created, cards drawn or milled, counters put: per effect
MANA_MAX = 100  # a generic mana symbol, an X the Horde pays (HordeX)
HYBRID_MAX = 8  # hybrid, two-brid and Phyrexian symbols in one cost (the most printed: 5, Reaper King)
POLICY_NUMBER_MAX = 1_000_000_000  # |a policy parameter|
WORK_BUDGET = 1_000_000  # H15: units of work one game may spend (effects, permanents entering, decisions)
BOARD_UNIT = 50  # H15: an effect, a decision or a turn costs one more unit per this many permanents (or options)
BATTLEFIELD_MAX = 10_000  # H15: permanents on the battlefield at once (both sides)
DEPTH_MAX = 60  # H15: abilities resolving inside one another (a trigger's effect triggering another, ...)
ACTIVATIONS_MAX = 100  # H15: activations of one ability by one team player in one window (a free ability loops no further)
TOML_DEPTH_MAX = 8  # tables and arrays nested inside one another in an experiment file
ATOMIC_DEPTH_MAX = 64  # maps and arrays nested inside one another in MTGJSON's AtomicCards (its cards: 7)
ATOMIC_VALUE_MAX = 65_536  # bytes of one value of AtomicCards as the file writes it (a 5,000-character text: 60,000 at most)
ATOMIC_CARD_MAX = 4 * 1024 * 1024  # bytes of one card's JSON in AtomicCards (its faces, rulings and translations)
QUOTE_MAX = 80  # characters of a value an error message quotes


# ---------------------------------------------------------------- the checker
_WHOLE_RE = re.compile(r"[+-]?[0-9]{1,30}")


def whole_number(value: Any, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or ValueError saying what was expected.

    Takes an int, a float that is whole (TOML's ``5.0``), or text of ASCII digits with an optional
    sign ("12", "+3", "-1"); refuses a bool, a fraction, infinity and NaN, other digits ("²", "٣"),
    words and anything longer than 30 digits."""
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            number = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if _WHOLE_RE.fullmatch(text):
            number = int(text)
    if number is None or not low <= number <= high:
        raise ValueError(f"expected a whole number from {low} to {high}, got {quoted(value)}")
    return number


def finite_number(value: Any, low: float, high: float) -> float:
    """``value`` as a finite number from ``low`` to ``high`` (an int, a float, or text such as
    "0.25"), or ValueError; infinity, NaN, bools and words are refused."""
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str) and re.fullmatch(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})"
                                                 r"(?:[eE][+-]?[0-9]{1,3})?", value.strip()):
        number = float(value)
    if number is None or not math.isfinite(number) or not low <= number <= high:
        raise ValueError(f"expected a number from {low:g} to {high:g}, got {quoted(value)}")
    return number


def quoted(value: Any, limit: int = QUOTE_MAX) -> str:
    """A value as an error message quotes it: text in quotes, anything else as Python writes it
    (``12``, ``[1, 2]``), on one line, cut short past ``limit`` characters (saying how long it
    was)."""
    text = value if isinstance(value, str) else repr(value)
    text = "".join(c if c.isprintable() else " " for c in text)
    if len(text) > limit:
        text = f"{text[:limit - 3]}... ({len(text)} characters)"
    return f"'{text}'" if isinstance(value, str) else text
