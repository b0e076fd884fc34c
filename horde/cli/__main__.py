"""``python -m horde.cli``: the horde command."""

from horde.cli import main

main()
