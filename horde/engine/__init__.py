"""The game's core: card definitions as the engine reads them, state, the rules, the verbs of card
behaviour, the boss and lieutenants, the turns and each opponent's procedure.

Nothing here imports a part above it (the card pipeline, the team, the composition root, the
laboratory or the command line), and never a policy: a team decision is asked through
``horde.engine.decisions``. ``horde.play`` prepares a setup and plays it.
"""
