"""``horde table``: the engine runs the Horde for a group playing a real game in person.

``game`` is the game at the table (the engine plays the Horde's side with its own rules, people
play the team's and tell the page what happens on it; the state is the setup, the seed and what
they entered, replayed), ``store`` keeps groups, seasons and games on disk and turns finished games
into the rows ``horde calibrate`` reads, ``pages`` writes the HTML and ``web`` serves it.
"""
