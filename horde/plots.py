"""Deprecated alias of ``horde.lab.plots`` (pictures of the tables), kept for one release: import from
``horde.lab.plots``."""

from horde.lab.plots import *  # noqa: F401,F403
