"""Which build of the engine runs: compiled (mypyc) or pure Python, and the guard against stale builds.

Installing horde (``pip install .``, ``make fast``, ``make demo``) compiles the modules in
``COMPILED`` with mypyc when a C compiler is present (``setup.py``) and records what it built in
``horde/_build.json``: for each compiled module, the SHA-256 of the source it was compiled from.
Without a compiler, or with ``HORDE_BUILD=pure`` at install time, the install is pure Python and
the record says why. An editable install (``make test``'s ``.venv``) is always pure Python.

At import (``horde/__init__.py`` calls ``check``), a compiled module is used only if its source
is the one it was built from. A compiled module whose ``.py`` beside it has changed since the build
is never imported: the whole package then runs its sources, and one line on stderr says which
module is stale and how to rebuild. ``HORDE_BUILD=pure`` at run time runs the sources too (the
benchmark uses it to time both builds on one install). Either way the whole package runs one build,
never a mix. ``describe`` is the line ``horde --version``, the benchmark and every manifest show.

This module uses the standard library only: ``setup.py`` reads ``COMPILED`` from it before horde
is installed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
# The engine: the modules a game runs through, compiled together by mypyc (paths in the package),
# and every module of the rules and opponents packages (a compiled package's __init__ can't import
# an interpreted module of its own package while it starts). The filters, amounts and conditions
# are small classes (horde.engine.filters), so they compile too, and so does the view every policy decision
# reads the game through (horde.team.view), the bundled policies' hot decisions (horde.team.tactics:
# casting and blocking, as plain functions, and horde.team.reading: what the cards' behaviour means
# for them) and the shuffles and random picks (horde.engine.shuffling: the standard library's
# random.Random.shuffle is interpreted Python), and the copies a searching
# policy plays forward (horde.engine.fork: thousands a game). Not the policy classes
# themselves (users subclass them, and their parameters are class attributes: see
# docs/speed.md), nor the layers above the engine.
PACKAGES = ("engine/rules", "engine/opponents")
COMPILED: tuple[str, ...] = (
    "engine/shuffling.py", "engine/state.py", "team/view.py", "team/tactics.py", "team/reading.py", "engine/characteristics.py",
    "engine/events.py", "engine/decisions.py", "engine/cards.py", "engine/filters.py", "engine/effects.py",
    "engine/boss.py", "engine/turns.py", "engine/fork.py",
    *sorted(path.relative_to(PACKAGE).as_posix() for package in PACKAGES for path in (PACKAGE / package).glob("*.py")),
)
RECORD = "_build.json"  # written into the built package by setup.py
GROUP = "horde._compiled"  # mypyc's group: the compiled modules share horde/_compiled__mypyc.*.so

_state: dict[str, object] = {"build": "pure", "reason": "not checked", "files": ()}


def source_hash(path: Path) -> str:
    """The SHA-256 of a source file, as the build records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_name(relative: str) -> str:
    """``engine/rules/__init__.py`` -> ``horde.engine.rules``; ``engine/state.py`` -> ``horde.engine.state``."""
    parts = ["horde", *relative[:-3].split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def extension_of(relative: str) -> Path | None:
    """The compiled module beside a source file, if there is one."""
    source = PACKAGE / relative
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.name[:-3] + suffix)
        if candidate.exists():
            return candidate
    return None


class _Sources(importlib.abc.MetaPathFinder):
    """Loads the engine modules from their ``.py`` sources even where compiled ones sit beside them."""

    def __init__(self, names: dict[str, Path]):
        self.names = names

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        source = self.names.get(fullname)
        if source is None:
            return None
        search = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, source, submodule_search_locations=search)


def check() -> None:
    """Decide which build this process runs, before any engine module is imported (see the module
    docstring); install the source loader when it is pure Python but compiled modules are present."""
    extensions = {relative: extension_of(relative) for relative in COMPILED}
    present = {relative: ext for relative, ext in extensions.items() if ext is not None}
    if not present:
        _state.update(build="pure", reason=_recorded_reason(), files=())
        return
    reason = None
    sources = {module_name(relative): PACKAGE / relative for relative in COMPILED}
    expected = set(present.values())
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # a compiled module no build here made
        for stray in PACKAGE.rglob("*" + suffix):
            if stray not in expected and not stray.name.startswith(GROUP.split(".")[-1] + "__mypyc."):
                relative = stray.relative_to(PACKAGE).as_posix()[:-len(suffix)] + ".py"
                sources[module_name(relative)] = PACKAGE / relative
                reason = reason or f"horde/{relative} has a compiled module of another build"
    if reason:
        print(f"horde: {reason}; running the pure-Python sources (rebuild: make fast, or pip install . again)",
              file=sys.stderr)
    elif os.environ.get("HORDE_BUILD", "") == "pure":
        reason = "HORDE_BUILD=pure"
    else:
        recorded = _record().get("modules", {})
        for relative in COMPILED:
            source = PACKAGE / relative
            if relative not in present:
                reason = f"horde/{relative} has no compiled module (a partial build)"
            elif source.exists() and recorded.get(relative) != source_hash(source):
                reason = f"horde/{relative} changed since it was compiled"
                print(f"horde: {reason}; running the pure-Python sources (rebuild: make fast, or pip install . again)",
                      file=sys.stderr)
            if reason:
                break
    if reason is None:
        shared = sorted(PACKAGE.glob(GROUP.split(".")[-1] + "__mypyc.*"))
        _state.update(build="compiled", reason="mypyc", files=tuple(sorted(present.values())) + tuple(shared))
        return
    _state.update(build="pure", reason=reason, files=())
    sys.meta_path.insert(0, _Sources(sources))


def _record() -> dict:
    path = PACKAGE / RECORD
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _recorded_reason() -> str:
    """Why an install is pure Python: the build's record, or an editable (source) install."""
    return str(_record().get("reason", "source install"))


def build() -> str:
    """``compiled`` or ``pure``: what this process runs."""
    return str(_state["build"])


def compiled_files() -> tuple[Path, ...]:
    """The compiled modules this process runs (none for a pure-Python build)."""
    files = _state["files"]
    assert isinstance(files, tuple)
    return files


def describe() -> str:
    """One line: which build runs, e.g. ``compiled (mypyc, 21 modules)`` or ``pure Python (no C compiler)``;
    a build whose C was not optimised at -O3 (make test-compiled's) says so: never benchmark it."""
    if build() == "compiled":
        level = _record().get("c_optimisation", "-O3")  # another level only for make test-compiled's build
        return f"compiled (mypyc, {len(COMPILED)} modules{'' if level == '-O3' else f', C at {level}'})"
    return f"pure Python ({_state['reason']})"
