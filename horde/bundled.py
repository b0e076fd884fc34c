"""Where the bundled data lives: the ``decks/``, ``experiments/`` and ``puzzles/`` folders.

In a source checkout (and an editable install) they are the repository's own folders beside the
package. A built wheel ships copies of them inside the package as ``horde/_data/decks``,
``horde/_data/experiments`` and ``horde/_data/puzzles`` (``setup.py`` copies them at build time), read here through
``importlib.resources``, so ``pip install .`` finds the bundled decks, card files and experiments.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from horde.errors import HordeError

FOLDERS = ("decks", "experiments", "puzzles")


def bundled_folder(name: str) -> Path:
    """The bundled folder ``name`` ("decks", "experiments" or "puzzles"): the installed package's data if the
    package carries it, else the repository's folder."""
    packaged = resources.files("horde").joinpath("_data", name)
    if packaged.is_dir():
        if not isinstance(packaged, Path):  # e.g. a package inside a zip archive
            raise HordeError(f"horde's bundled {name} can't be read where horde is installed ({packaged}); "
                             "install it as files (pip install)")
        return packaged
    return Path(__file__).resolve().parent.parent / name
