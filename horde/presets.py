"""Deprecated alias of ``horde.setup`` (the setup type, its knobs and the presets), kept for one
release: import from ``horde.setup``."""

from horde.setup import *  # noqa: F401,F403
from horde.setup import PRESETS, GameSetup, SetupError, make_setup, setup_from_dict, with_changes  # noqa: F401
