"""Which build runs (horde.build): the compiled engine when it is current, the sources otherwise, and
never a mix; the build named by ``horde --version`` and covered by the runner's code digest.

The stale-build checks need no compiler: a package copy gets fake compiled modules (files that
would crash if Python loaded them) and a build record, and must run its sources instead. The
compiled-build checks run where ``make test-compiled`` runs them (``HORDE_EXPECT_BUILD=compiled``).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import horde
from horde import build
from horde.cli import cli
from horde.lab.runner import code_digest

PACKAGE = Path(horde.__file__).resolve().parent
EXPECTED = os.environ.get("HORDE_EXPECT_BUILD")
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_version_names_the_build():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"horde {horde.__version__}, {build.describe()}"


@pytest.mark.skipif(EXPECTED != "compiled", reason="the compiled build is checked by make test-compiled")
def test_the_installed_build_is_compiled_and_current():
    import horde.engine.filters
    import horde.engine.fork
    import horde.engine.rules.combat
    import horde.engine.state

    assert build.build() == "compiled"
    level = json.loads((PACKAGE / build.RECORD).read_text())["c_optimisation"]  # -O0 for make test-compiled's
    assert level in ("-O0", "-O1", "-O2", "-O3")
    named = "" if level == "-O3" else f", C at {level}"  # the users' level goes unsaid
    assert build.describe() == f"compiled (mypyc, {len(build.COMPILED)} modules{named})"
    assert horde.engine.state.__file__.endswith(SUFFIX) and horde.engine.rules.combat.__file__.endswith(SUFFIX)
    assert horde.engine.filters.__file__.endswith(SUFFIX)  # filters and amounts are classes: they compile
    assert horde.engine.fork.__file__.endswith(SUFFIX)  # the copies a search plays forward
    record = json.loads((PACKAGE / build.RECORD).read_text())
    assert record["modules"] == {m: build.source_hash(PACKAGE / m) for m in build.COMPILED}


def fake_install(tmp_path: Path, record: dict) -> Path:
    """A copy of the package whose engine modules all have a 'compiled' module beside them that is
    not a real extension (importing one fails), and the given build record."""
    copy = tmp_path / "site" / "horde"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "_data", build.RECORD))
    for relative in build.COMPILED:
        (copy / relative).with_name(Path(relative).stem + SUFFIX).write_bytes(b"not an extension")
    (copy / build.RECORD).write_text(json.dumps(record))
    return copy.parent


def run_in(site: Path, code: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HORDE_BUILD")}
    environ.update(env, PYTHONPATH=str(site))
    return subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, env=environ)


PROBE = ("import horde.engine.state, horde.engine.rules.combat, horde.engine.opponents, horde.build as b; "
         "print(b.build(), horde.engine.state.__file__.endswith('.py'), horde.engine.rules.combat.__file__.endswith('.py'), "
         "horde.engine.opponents.__file__.endswith('__init__.py'))")


def test_a_compiled_module_older_than_its_source_is_never_imported(tmp_path):
    current = {m: build.source_hash(PACKAGE / m) for m in build.COMPILED}
    stale = dict(current, **{"engine/state.py": "0" * 64})  # engine/state.py edited since the build
    result = run_in(fake_install(tmp_path, {"build": "compiled", "reason": "mypyc", "modules": stale}), PROBE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["pure", "True", "True", "True"]  # all sources: never a mix
    assert result.stderr.splitlines() == [
        "horde: horde/engine/state.py changed since it was compiled; running the pure-Python sources "
        "(rebuild: make fast, or pip install . again)"]


def test_HORDE_BUILD_pure_runs_the_sources_of_a_compiled_install(tmp_path):
    current = {m: build.source_hash(PACKAGE / m) for m in build.COMPILED}
    site = fake_install(tmp_path, {"build": "compiled", "reason": "mypyc", "modules": current})
    result = run_in(site, PROBE + "; print(b.describe())", HORDE_BUILD="pure")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["pure True True True", "pure Python (HORDE_BUILD=pure)"]
    assert result.stderr == ""


def test_a_partial_build_runs_the_sources(tmp_path):
    current = {m: build.source_hash(PACKAGE / m) for m in build.COMPILED}
    site = fake_install(tmp_path, {"build": "compiled", "reason": "mypyc", "modules": current})
    next((site / "horde" / "engine").glob("turns.*" + SUFFIX[-3:])).unlink()
    result = run_in(site, PROBE + "; print(b.describe())")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["pure True True True",
                                          "pure Python (horde/engine/turns.py has no compiled module (a partial build))"]


def test_the_code_digest_covers_the_build(tmp_path):
    """A resumed run compares code digests: the same sources in another build give another digest."""
    code = "from horde.lab.runner import code_digest; print(code_digest())"
    pure = run_in(PACKAGE.parent, code, HORDE_BUILD="pure").stdout.strip()
    assert pure == (code_digest() if build.build() == "pure" else pure) and len(pure) == 16
    if build.build() == "compiled":
        assert code_digest() != pure


def test_a_compiled_module_of_another_build_runs_the_sources(tmp_path):
    """A compiled module left by an earlier build for a module this build does not compile."""
    current = {m: build.source_hash(PACKAGE / m) for m in build.COMPILED}
    site = fake_install(tmp_path, {"build": "compiled", "reason": "mypyc", "modules": current})
    (site / "horde" / "lab" / ("bench" + SUFFIX)).write_bytes(b"not an extension")
    result = run_in(site, PROBE + "; import horde.lab.bench; print(horde.lab.bench.__file__.endswith('.py'))")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["pure", "True", "True", "True", "True"]
    assert "horde/lab/bench.py has a compiled module of another build" in result.stderr
