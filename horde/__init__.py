"""horde: a fast simulator of the Magic: The Gathering co-operative Horde format.

The engine (``horde.engine.play_game``) plays one seeded game of a validated setup
(``horde.presets.GameSetup``); the runner plays many; the analysis layer turns records into
win rates, curves and per-card impact. See RULES.md in the project docs for the rule IDs cited
throughout the code.
"""

__version__ = "0.1.0"
