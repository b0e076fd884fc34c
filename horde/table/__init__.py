"""The game at a real table, for ``horde table``: the engine runs the Horde for a group playing in person.

``game`` is the game at the table (the engine plays the Horde's side with its own rules, people
play the team's and tell it what happens on their side; the state is the setup, the seed and what
they entered, replayed), and ``store`` keeps groups, seasons and games on disk and turns finished
games into the rows ``horde calibrate`` reads. The page itself is ``horde.cli.tablepage``.
"""
