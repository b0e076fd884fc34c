"""The team: the read-only view a policy sees the game through, the policies and their hot
decisions, and the drafters of drafted and sealed team decks. A policy only chooses among the
options the engine offers (``horde.engine.decisions``)."""
