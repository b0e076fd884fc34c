"""Build step: the wheel carries the repository's decks/, experiments/ and puzzles/ folders as package data
(horde/_data/...), read through importlib.resources by horde.bundled; and the engine modules
(``horde.build.COMPILED``) compiled with mypyc when a C compiler is present, else pure Python.

One line says which build is made (``pip install -v .`` shows it; ``horde --version`` says it
afterwards), and ``horde/_build.json`` records it: the SHA-256 of each compiled module's source,
which ``horde.build`` checks at import so a stale compiled module is never used. ``HORDE_BUILD=pure``
makes a pure-Python build on purpose; an editable install (``pip install -e .``) is always pure
Python, so editing a source never meets an old compiled module. Everything else about the package
is in pyproject.toml.
"""

import json
import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUILD = runpy.run_path(str(HERE / "horde" / "build.py"))
COMPILED = BUILD["COMPILED"]


# The C compiler's optimisation level (-O3 for users). mypyc translates the same Python to the same C
# at every level; only the C compiler's work differs: make test-compiled builds at -O0, where it
# is the least (docs/speed.md, "The suite's time").
OPT_LEVEL = os.environ.get("HORDE_BUILD_OPT", "3")


def compiler() -> str | None:
    """The C compiler the build would use (CC, else Python's own), if it can be found."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def editable() -> bool:
    return any(arg in ("editable_wheel", "develop") for arg in sys.argv) or "--editable" in sys.argv


def choose_build() -> tuple[list, str]:
    """The mypyc extensions to build (none for pure Python) and the reason recorded."""
    if not any(command in sys.argv for command in ("bdist_wheel", "build", "build_ext", "install")):
        return [], ""  # metadata only (egg_info, dist_info): nothing is built
    if os.environ.get("HORDE_BUILD", "") == "pure":
        return [], "HORDE_BUILD=pure at install"
    if editable():
        return [], "editable install"
    if compiler() is None:
        return [], "no C compiler"
    try:
        from mypyc.build import mypycify
    except ImportError:
        return [], "mypyc not installed"
    paths = [f"horde/{relative}" for relative in COMPILED]
    extensions = mypycify(paths, opt_level=OPT_LEVEL, debug_level="0", group_name=BUILD["GROUP"])
    for extension in extensions:  # at -O0 mypyc turns its runtime's C assertions on: they stay off,
        # as in the users' build, so the build tested runs the users' C, only less optimised
        extension.extra_compile_args = [arg for arg in extension.extra_compile_args if arg != "-UNDEBUG"]
    return extensions, "mypyc"


EXTENSIONS, REASON = choose_build()
if REASON:
    print(f"horde build: {f'compiled with mypyc, C at -O{OPT_LEVEL}' if EXTENSIONS else 'pure Python'} ({REASON})",
          file=sys.stderr)


class BuildWithData(build_py):
    """build_py, then the bundled data folders copied into the built package and the build recorded."""

    def run(self):
        super().run()
        for folder, pattern in (("decks", "*.txt"), ("experiments", "*.toml"), ("puzzles", "*.toml")):
            target = Path(self.build_lib) / "horde" / "_data" / folder
            for source in sorted(Path(folder).rglob(pattern)):
                destination = target / source.relative_to(folder)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, destination)
        if not self.editable_mode:
            record = {"build": "compiled" if EXTENSIONS else "pure", "reason": REASON,
                      **({"c_optimisation": f"-O{OPT_LEVEL}"} if EXTENSIONS else {}),
                      "modules": {relative: BUILD["source_hash"](HERE / "horde" / relative)
                                  for relative in COMPILED} if EXTENSIONS else {}}
            (Path(self.build_lib) / "horde" / BUILD["RECORD"]).write_text(json.dumps(record, indent=1) + "\n")


setup(cmdclass={"build_py": BuildWithData}, ext_modules=EXTENSIONS)
