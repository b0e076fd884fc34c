"""A regular install works: the wheel (not an editable install) carries the bundled decks, card
files and experiments as package data, and `horde simulate` plays from it anywhere. Built here with
the C compiler hidden, it is the pure-Python fallback (the compiled build is `make fast`'s; `make
test-compiled` tests the same build with its C at -O1)."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("horde", "decks", "experiments", "puzzles", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")


def run(*args, cwd, env=None, both=False):
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr if both else result.stdout


def test_the_wheel_plays_from_a_fresh_environment(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCES:  # a clean copy: the build leaves nothing in the repository
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copyfile
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__", "_data")}
                                            if (ROOT / name).is_dir() else {}))
    # Build offline with the test environment's setuptools and wheel (the test extra) when it has them.
    try:
        import setuptools
        import wheel  # noqa: F401

        isolation = ["--no-build-isolation"] if int(setuptools.__version__.split(".")[0]) >= 77 else []
    except ImportError:
        isolation = []
    # The compiler hidden (CC names none): the build falls back to pure Python and says so in one line.
    hidden = dict(os.environ, CC="/nonexistent/cc")
    built = run(sys.executable, "-m", "pip", "wheel", source, "--no-deps", "-v", "-w", tmp_path / "wheel", *isolation,
                cwd=tmp_path, env=hidden, both=True)
    assert "horde build: pure Python (no C compiler)" in built
    assert "SetuptoolsDeprecationWarning" not in built  # pyproject's license as an SPDX string: no warning
    wheel = next((tmp_path / "wheel").glob("horde-*.whl"))
    # A new environment that sees the test environment's packages (numpy, pandas, ...) but not its
    # editable horde: a plain path line in a .pth file, whose own .pth files are not read.
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    packages = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path).strip())
    (packages / "test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    run(sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", packages, wheel,
        cwd=tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HORDE_DECKS", "PYTHONPATH"))}
    where = run(python, "-c", "import horde.bundled as b; print(b.__file__); print(b.bundled_folder('decks')); "
                "print(b.bundled_folder('experiments'))", cwd=work, env=env).split()
    assert all(line.startswith(str(packages)) for line in where)
    assert (Path(where[2]) / "deck-size.toml").exists()
    version = run(python, "-m", "horde.cli", "--version", cwd=work, env=env)
    assert version == "horde 0.3.0, pure Python (no C compiler)\n"
    output = run(python, "-m", "horde.cli", "simulate", "--games", "5", "--workers", "1", "--quiet", cwd=work, env=env)
    assert "games        5" in output and "team win rate" in output
    # The README's horde run examples as printed, outside the checkout: by name, and by the
    # checkout's path, which names the bundled experiment here.
    for name in ("difficulty", "experiments/difficulty.toml"):
        ran = run(python, "-m", "horde.cli", "run", name, "--games", "1", "--workers", "1", "--quiet",
                  "--out", "results", cwd=work, env=env)
        assert "results: results/difficulty-" in ran
    summary = run(python, "-m", "horde.cli", "summary", *(work / "results").glob("difficulty-*"), "--by", "players",
                  cwd=work, env=env)
    assert summary.startswith("players  level  games")
    check = run(python, "-m", "horde.cli", "decks", "check", "zombie-horde", cwd=work, env=env)
    assert check.strip().endswith("zombie-horde.txt (horde deck): ok; plays 1-4 players (a recipe: built to 25 cards "
                                  "per player, R1)") and check.startswith(str(packages))
