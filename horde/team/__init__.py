"""The team: the read-only view a policy sees the game through, the policies and their hot
decisions, and the drafters of drafted and sealed team decks. A policy only chooses among the
options the engine offers (``horde.engine.decisions``)."""

from horde.team import expert as _expert  # noqa: E402, F401 (registers the expert beside the bundled policies)
