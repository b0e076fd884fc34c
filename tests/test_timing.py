"""No test asserts a wall-clock time: a busy machine would fail it. A test checks what a time
would stand for instead (the error comes before any game is played, the address is tried once, a
lookup takes the same steps in a big index, a stopped pool leaves nothing to wait on); speed is
measured by ``make bench``, and how long stops take to end by ``make stress``. The one guard
against a test that hangs is the suite's (pytest-timeout, ``pyproject.toml``): it measures nothing.

The check reads every test module: no clock is read, no timer set and no time limit given to a
call (``timeout=``, hypothesis's ``deadline=``), but where ``ALLOWED`` says why (the figures and
limits of a make target, never a verdict of the suite)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLOCKS = {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "time", "time_ns", "process_time",
          "process_time_ns", "thread_time", "thread_time_ns"}
TIMERS = {"alarm", "setitimer"}
# (module, function): why it reads a clock or gives a time limit.
ALLOWED = {
    ("stress_stops.py", "*"): "make stress's own tool: when each signal is sent, the exit times it reports and its "
                              "--hang (the suite's stops, tests/test_stops.py, wait without a limit)",
    ("test_soak.py", "test_soak_every_preset_and_policy_at_extreme_settings"): "the seconds column of make soak's log",
    ("test_fuzz.py", "in_subprocess"): "make fuzz's HORDE_FUZZ_SECONDS (the suite gives none)",
    ("test_fuzz.py", "run_case"): "make fuzz's HORDE_FUZZ_SECONDS (the suite gives none)",
}


def timings(path: Path) -> list[tuple[str, int, str]]:
    """Each clock read, timer set or time limit in ``path``: (function, line, what)."""
    tree = ast.parse(path.read_text(), str(path))
    from_time = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 and node.module == "time" for alias in node.names if alias.name in CLOCKS}
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call):
                called = child.func
                if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name) and (
                        (called.value.id == "time" and called.attr in CLOCKS)
                        or (called.value.id == "signal" and called.attr in TIMERS)):
                    found.append((function, child.lineno, f"{called.value.id}.{called.attr}()"))
                elif isinstance(called, ast.Name) and called.id in from_time:
                    found.append((function, child.lineno, f"{called.id}()"))
                if isinstance(called, ast.Attribute) and called.attr in ("set_default_timeout",
                                                                         "set_default_navigation_timeout"):
                    if not (child.args and isinstance(child.args[0], ast.Constant) and child.args[0].value == 0):
                        found.append((function, child.lineno, f"{called.attr}()"))  # Playwright's limit (0: none)
                for keyword in child.keywords:
                    given = not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
                    if keyword.arg in ("timeout", "deadline") and given:
                        found.append((function, child.lineno, f"{keyword.arg}="))
            visit(child, inner)

    visit(tree, "")
    return found


def test_no_test_reads_a_clock_or_gives_a_time_limit():
    modules = sorted((ROOT / "tests").glob("*.py")) + sorted((ROOT / "notebooks").glob("*.py"))
    found = [f"{path.name}:{line} in {function or 'the module'}: {what}" for path in modules
             for function, line, what in timings(path)
             if (path.name, "*") not in ALLOWED and (path.name, function) not in ALLOWED]
    assert found == []


def test_the_check_finds_each_kind_of_timing(tmp_path):
    path = tmp_path / "test_example.py"
    path.write_text("import time, signal, subprocess\nfrom time import perf_counter as clock\n"
                    "def test_a():\n    start = time.monotonic()\n    assert clock() - start < 5\n"
                    "    subprocess.run(['true'], timeout=30)\n    signal.alarm(20)\n"
                    "    subprocess.run(['true'], timeout=None)\n")
    assert timings(path) == [("test_a", 4, "time.monotonic()"), ("test_a", 5, "clock()"), ("test_a", 6, "timeout="),
                             ("test_a", 7, "signal.alarm()")]


def test_the_suite_has_one_hang_guard_and_no_deadline():
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert int(options["timeout"]) >= 1200  # far above any test's time on a loaded machine: a hang
    from hypothesis import settings

    assert settings.default.deadline is None
