"""The architecture: the package's modules in layers, bottom to top, and imports that go one way.

``LAYERS`` is the documented architecture (README's Layout shows it). Read top to bottom, every
module may import only modules listed before it, in its own layer or a lower one; an import
inside a function counts the same as one at the top. So no module imports a higher one, and
there is no import cycle. Importing ``horde.a.b`` also imports the package ``horde.a``, unless
the importer is inside that package (which Python is already importing).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "horde"

LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("foundation", "which build runs (compiled or pure Python), shuffles drawn as random.Random draws them, the input limits and the one number checker, errors, the one door for reading and writing "
                   "files, where the bundled data lives, card definitions, decklist text, setups and their "
                   "knobs, Wilson intervals",
     ("horde.build", "horde", "horde.shuffling", "horde.limits", "horde.errors", "horde.files", "horde.bundled", "horde.cards", "horde.decklists",
      "horde.presets", "horde.stats")),
    ("state", "the decisions offered to a policy; plain game state (the battlefield and its indexes, "
              "the drivers); the trace",
     ("horde.decisions", "horde.state", "horde.events")),
    ("characteristics", "what a permanent is now (anthems, equipment, L5) and where things are",
     ("horde.characteristics",)),
    ("filters", "compiled filters and amounts, the context of one resolution",
     ("horde.filters",)),
    ("rules", "the rule book, one room per part of the game; the package re-exports them",
     ("horde.rules.mana", "horde.rules.zombies", "horde.rules.abilities", "horde.rules.zones", "horde.rules.damage",
      "horde.rules.checks", "horde.rules.casting", "horde.rules.combat", "horde.rules.choices", "horde.rules.schemes",
      "horde.rules")),
    ("verbs", "the closed vocabulary of card behaviour",
     ("horde.effects",)),
    ("card sources", "the card index (MTGJSON's printed facts) and the Oracle-text compiler (text to card-file lines)",
     ("horde.cardindex", "horde.oracle")),
    ("cards and decks", "the card catalogue (checked against the verbs) and Horde and team decks",
     ("horde.catalogue", "horde.decks")),
    ("boss", "the boss and the lieutenants (B, L), calling the rules; the engine wires L6 and L7 in; the "
             "archenemy's schemes (A)",
     ("horde.boss", "horde.schemes")),
    ("turns", "the team's turn, the Horde's turn, opening hands",
     ("horde.turns",)),
    ("opponents", "each opponent's procedure: the Horde (and its variants), Face the Hydra, Battle the Horde, "
                  "Defeat a God; the engine picks one by the setup's opponent knob",
     ("horde.opponents.common", "horde.opponents.hydra", "horde.opponents.minotaurs", "horde.opponents.xenagos",
      "horde.opponents")),
    ("policies", "the read-only view of the game and the baseline's hot decisions (both compiled with the "
                 "engine), the team policies seeing the game through it",
     ("horde.view", "horde.tactics", "horde.policies")),
    ("draft", "drafted and sealed team decks (X1): the cube, packs passed around a table, pools, the drafters",
     ("horde.draft",)),
    ("engine", "prepare a setup, set up a game, play it",
     ("horde.engine",)),
    ("puzzles", "positions written as data that check the team policies' choices",
     ("horde.puzzles",)),
    ("experiments", "experiment files and their cells",
     ("horde.experiments",)),
    ("runner", "results folders, backends, batches, experiment runs",
     ("horde.runner.store", "horde.runner.backends", "horde.runner.batch", "horde.runner.run", "horde.runner")),
    ("analysis", "results into tables; tuning a knob; the benchmark",
     ("horde.analysis", "horde.tune", "horde.bench")),
    ("plots", "pictures of the tables",
     ("horde.plots",)),
    ("report", "one HTML page of a results folder",
     ("horde.report",)),
    ("command line", "a traced game in a Magic player's words; the horde command",
     ("horde.playlog", "horde.cli")),
)
ORDER = [module for _, _, modules in LAYERS for module in modules]
POSITION = {module: i for i, module in enumerate(ORDER)}
LAYER_OF = {module: name for name, _, modules in LAYERS for module in modules}
ENGINE = ORDER[:POSITION["horde.engine"] + 1]
NOT_IN_THE_ENGINE = {"pandas", "matplotlib", "click", "tqdm", "pyarrow", "numpy"}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(module: str, path: Path) -> list[tuple[str, int]]:
    """Every module a module imports (anywhere in it), with the line: horde's own and others'."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found.append((base, node.lineno))
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return found


def horde_imports(module: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int]]:
    """The package's own modules ``module`` imports, with the packages Python imports on the way."""
    targets = []
    for name, line in imports(module, path):
        if name not in known or name == module:
            continue
        targets.append((name, line))
        parts = name.split(".")
        for i in range(1, len(parts)):
            parent = ".".join(parts[:i])
            if parent != "horde" and not module.startswith(parent + ".") and parent != module:
                targets.append((parent, line))
    return targets


def test_every_module_has_a_layer():
    known = modules()
    assert sorted(set(known) - set(ORDER)) == [], "a module with no layer: add it to LAYERS"
    assert sorted(set(ORDER) - set(known)) == [], "LAYERS names a module that does not exist"


def test_imports_go_one_way_down_the_layers():
    known = modules()
    upward = []
    for module, path in sorted(known.items()):
        for target, line in horde_imports(module, path, known):
            if POSITION[target] > POSITION[module]:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} ({LAYER_OF[module]}) imports "
                              f"{target} ({LAYER_OF[target]}), which comes after it")
    assert upward == []


def test_no_import_cycle():
    known = modules()
    graph = {m: {t for t, _ in horde_imports(m, p, known)} for m, p in known.items()}
    cycles = []
    state: dict[str, int] = {}

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(" -> ".join(stack[stack.index(target):] + [module, target]))
            elif target not in state:
                visit(target, stack + [module])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    assert cycles == []


@pytest.mark.parametrize("module", ENGINE)
def test_the_engine_imports_no_dataframe_plotting_or_command_line_library(module):
    path = modules()[module]
    used = {name.split(".")[0] for name, _ in imports(module, path)} & NOT_IN_THE_ENGINE
    assert used == set(), f"{module} imports {sorted(used)}"


def test_the_rule_book_names_functions_that_exist():
    """docs/RULES.md's table of where each rule lives names real modules and functions."""
    import importlib
    import re

    text = (PACKAGE.parent / "docs" / "RULES.md").read_text()
    table = text[text.index("## Where each rule lives"):]
    names = set(re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)+)`", table))
    assert len(names) > 40
    missing = []
    for name in sorted(names):
        parts = ("horde." + name.removeprefix("horde.")).split(".")
        for cut in range(len(parts), 0, -1):  # the longest prefix that is a module, then attributes
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attribute in parts[cut:]:
                found = getattr(found, attribute, None)
            if found is None:
                missing.append(name)
            break
    assert missing == []


def test_playing_batches_loads_no_pyarrow():
    """play_many and the benchmark's engine runs need no Parquet: the runner imports pyarrow only
    where it writes or reads result files, so a batch in memory stays small."""
    import subprocess
    import sys

    code = "import sys, horde.runner, horde.bench, horde.tune; print(sorted(m for m in ('pyarrow', 'pandas') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


BATTLEFIELD_LISTS = {"team", "horde", "statics"}
BATTLEFIELD_INDEXES = {"statics", "hooked", "counting", "version", "volatile", "unsettled", "next_id", "team", "horde"}
MUTATORS = {"append", "remove", "insert", "pop", "clear", "extend", "sort", "reverse", "__setitem__", "__delitem__"}


def _is_battlefield(node: ast.expr) -> bool:
    """``something.battlefield``, or a local named ``battlefield``."""
    return (isinstance(node, ast.Attribute) and node.attr == "battlefield") or (
        isinstance(node, ast.Name) and node.id == "battlefield")


def test_only_the_battlefield_changes_its_permanents_and_indexes():
    """One owner: outside horde/state.py (the Battlefield's own methods), no module or test
    changes a board list or a derived index of the battlefield; they call its methods."""
    paths = [p for p in PACKAGE.rglob("*.py") if p.name != "state.py" or p.parent != PACKAGE]
    paths += list((PACKAGE.parent / "tests").glob("*.py"))
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                receiver = node.func.value
                if (isinstance(receiver, ast.Attribute) and receiver.attr in BATTLEFIELD_LISTS
                        and _is_battlefield(receiver.value)):
                    found.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
                targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript):
                    target = target.value
                if (isinstance(target, ast.Attribute) and target.attr in BATTLEFIELD_INDEXES
                        and _is_battlefield(target.value)):
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []
