"""Deprecated alias of ``horde.team.policies`` (the team policies), kept for one release: import from
``horde.team.policies``."""

from horde.team.policies import *  # noqa: F401,F403
from horde.team.policies import POLICIES, BaselinePolicy, Policy, make_policy  # noqa: F401
