"""The test suite runs every notebook here (nbmake) with a few games on the small test decks.

The notebooks read ``HORDE_NOTEBOOK_GAMES`` and ``HORDE_NOTEBOOK_KNOBS``; unless the environment
already sets ``HORDE_NOTEBOOK_KNOBS`` (to run them on other decks), each notebook's kernel gets
the test decks and a small game count, and the environment is restored after it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

TEST_DECKS = Path(__file__).resolve().parent.parent / "tests" / "data" / "decks"
SMALL = {
    "HORDE_DECKS": str(TEST_DECKS),
    "HORDE_NOTEBOOK_GAMES": "40",
    "HORDE_NOTEBOOK_KNOBS": json.dumps({"horde_deck": "mini", "team_decks": ["white"] * 4, "boss": "none"}),
}
_saved: dict = {}


def pytest_runtest_setup(item):
    if item.path.suffix != ".ipynb" or "HORDE_NOTEBOOK_KNOBS" in os.environ:
        return
    for name, value in SMALL.items():
        _saved[name] = os.environ.get(name)
        os.environ[name] = value


def pytest_runtest_teardown(item):
    for name, value in _saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _saved.clear()
