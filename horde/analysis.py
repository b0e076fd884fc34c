"""Deprecated alias of ``horde.lab.analysis`` (results into tables), kept for one release: import from
``horde.lab.analysis``."""

from horde.lab.analysis import *  # noqa: F401,F403
