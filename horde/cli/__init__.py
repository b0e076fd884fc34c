"""The ``horde`` command: play one game, simulate many, check decks, show cards and policies, run
experiments, and summarise, compare and report their results.

Bad input never shows a traceback: every ``HordeError`` becomes one line on stderr naming the
file, line or knob and what was expected, and the exit code is 2. ``horde run`` stopped by Ctrl-C
or SIGTERM says in one line what it kept and how to continue, and exits with 130 or 143.

One module per command group: ``common`` (the group and shared options), ``games`` (play,
simulate), ``decks``, ``cards``, ``policies``, ``runs`` (run, summary, compare, report), ``tune``,
``draft`` and ``table`` (with ``tablepage``, the page that runs the Horde at a real table);
``playlog`` tells a traced game in a Magic player's words.
"""

from horde.cli import cards, decks, draft, games, policies, runs, table, tune  # noqa: F401 (each registers its commands)
from horde.cli.common import cli, main

__all__ = ["cli", "main"]
