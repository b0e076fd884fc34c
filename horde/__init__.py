"""horde: a fast simulator of the Magic: The Gathering co-operative Horde format.

``horde.play`` prepares a validated setup (``horde.setup.GameSetup``) once and plays seeded games
of it (``play_game``) on the game's core (``horde.engine``), with cards from the card pipeline
(``horde.cards``) and a team policy (``horde.team``); the laboratory (``horde.lab``) plays many
and turns records into win rates, curves and per-card impact; ``horde.cli`` is the command. The
parts import one way, bottom to top, as README's Code section maps them (``tests/test_layers.py``
keeps them so). See RULES.md in the project docs for the rule IDs cited throughout the code, and
where each rule lives.

The engine modules may be compiled (``horde.build``): which build runs is decided here, before
any of them is imported.
"""

from horde import build as _build

__version__ = "0.3.0"

_build.check()
