"""Build step: the wheel carries the repository's decks/, experiments/ and puzzles/ folders as package data
(horde/_data/...), read through importlib.resources by horde.bundled. Everything else about the
package is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithData(build_py):
    """build_py, then the bundled data folders copied into the built package."""

    def run(self):
        super().run()
        for folder, pattern in (("decks", "*.txt"), ("experiments", "*.toml"), ("puzzles", "*.toml")):
            target = Path(self.build_lib) / "horde" / "_data" / folder
            for source in sorted(Path(folder).rglob(pattern)):
                destination = target / source.relative_to(folder)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, destination)


setup(cmdclass={"build_py": BuildWithData})
