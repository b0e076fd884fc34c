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
    # -- foundation (horde/): below every part
    ("foundation", "which build runs (compiled or pure Python), the input limits and the one number checker, errors, "
                   "the one door for reading and writing files, where the bundled data lives, the setup type with its "
                   "knobs and presets",
     ("horde.build", "horde", "horde.limits", "horde.errors", "horde.files", "horde.bundled", "horde.setup")),
    # -- the engine core (horde/engine/): never imports a part above it, never a policy
    ("engine", "the package of the game's core",
     ("horde.engine",)),
    ("state", "shuffles drawn as random.Random draws them, card definitions, the decisions offered to a policy; plain "
              "game state (the battlefield and its indexes, the drivers); the trace",
     ("horde.engine.shuffling", "horde.engine.cards", "horde.engine.pool", "horde.engine.decisions", "horde.engine.state",
      "horde.engine.events")),
    ("characteristics", "what a permanent is now (anthems, equipment, L5) and where things are",
     ("horde.engine.characteristics",)),
    ("filters", "compiled filters and amounts, the context of one resolution",
     ("horde.engine.filters",)),
    ("rules", "the rule book, one room per part of the game; the package re-exports them",
     ("horde.engine.rules.zombies", "horde.engine.rules.mana", "horde.engine.rules.abilities", "horde.engine.rules.zones",
      "horde.engine.rules.damage", "horde.engine.rules.checks",
      "horde.engine.rules.keyword_abilities", "horde.engine.rules.casting", "horde.engine.rules.combat",
      "horde.engine.rules.choices", "horde.engine.rules.schemes", "horde.engine.rules")),
    ("verbs", "the closed vocabulary of card behaviour",
     ("horde.engine.effects",)),
    ("verb families", "the verbs of one family of cards each (lands and mana rocks, the staples, keyword abilities, "
                      "characteristic-defining abilities, ...), registered in the one vocabulary with ``verb``; the "
                      "module that imports them all (the card pipeline reads it)",
     ("horde.engine.effects_layers", "horde.engine.effects_mana", "horde.engine.effects_staples",
      "horde.engine.effects_keywords", "horde.engine.effects_walkers",
      "horde.engine.vocabulary")),
    ("boss", "the boss and the lieutenants (B, L), calling the rules; the engine wires L6 and L7 in; the "
             "archenemy's schemes (A)",
     ("horde.engine.boss", "horde.engine.schemes")),
    ("turns", "the team's turn, the Horde's turn, opening hands",
     ("horde.engine.turns",)),
    ("opponents", "each opponent's procedure: the Horde (and its variants), Face the Hydra, Battle the Horde, "
                  "Defeat a God; the engine picks one by the setup's opponent knob",
     ("horde.engine.opponents.common", "horde.engine.opponents.hydra", "horde.engine.opponents.minotaurs",
      "horde.engine.opponents.xenagos", "horde.engine.opponents")),
    ("forks", "copies of a game that play on exactly as it would, and copies made fair for a search",
     ("horde.engine.fork",)),
    # -- the card pipeline (horde/cards/): reads the engine's card definitions and verbs
    ("cards", "decklist text, the card index (MTGJSON's printed facts), tokens read from text, the Oracle-text "
              "compiler, the catalogue (checked against the verbs), Horde and team decks",
     ("horde.cards", "horde.cards.decklists", "horde.cards.cardindex", "horde.cards.tokens",
      # the grammar of Oracle text: its core, then its families of rules (every module of the folder,
      # one layer: a family may use another's nodes), then the package that puts them together
      "horde.cards.grammar.lexer", "horde.cards.grammar.words", "horde.cards.grammar.parser", "horde.cards.grammar.ast",
      "horde.cards.grammar.compiled", "horde.cards.grammar.families", "horde.cards.grammar.registry",
      "horde.cards.grammar.nouns", "horde.cards.grammar.translate", "horde.cards.grammar.effects",
      "horde.cards.grammar.abilities", "horde.cards.grammar.triggers", "horde.cards.grammar.conditions",
      "horde.cards.grammar.costs", "horde.cards.grammar.families.*", "horde.cards.grammar",
      "horde.cards.oracle", "horde.cards.catalogue", "horde.cards.survey", "horde.cards.decks")),
    # -- the team (horde/team/): sees the game through its view and the decisions
    ("team", "the read-only view of the game, what the cards' behaviour means for the team's choices and the "
             "baseline's hot decisions (compiled with the engine), the team policies seeing the game through it, the skill ladder of policies; drafted and sealed team decks (X1) and their drafters",
     ("horde.team", "horde.team.view", "horde.team.reading", "horde.team.tactics", "horde.team.tricks", "horde.team.policies", "horde.team.expert", "horde.team.skill",
      "horde.team.draft")),
    # -- the composition root
    ("play", "prepare a setup (decks, banlist, policy, draft, every check), set up a game, play it",
     ("horde.play",)),
    # -- the laboratory (horde/lab/)
    ("lab", "Wilson intervals, policy puzzles, experiment files, progress bars, the runner (results folders, backends, batches, "
            "runs), analysis, the games cache, calibration, tuning, the recovery checks, the benchmark, plots, the report",
     ("horde.lab", "horde.lab.stats", "horde.lab.puzzles", "horde.lab.experiments", "horde.lab.progress",
      "horde.lab.runner.store",
      "horde.lab.runner.backends", "horde.lab.runner.batch", "horde.lab.runner.run", "horde.lab.runner",
      "horde.lab.analysis", "horde.lab.cache", "horde.lab.calibrate", "horde.lab.tune",
      "horde.lab.doctor", "horde.lab.recovery", "horde.lab.bench", "horde.lab.plots", "horde.lab.report")),
    # -- the game at a real table (horde/table/)
    ("table", "a game at a real table replayed from the players' actions; groups, seasons and their records on disk",
     ("horde.table", "horde.table.game", "horde.table.store")),
    # -- the command line (horde/cli/)
    ("command line", "a traced game, a setup and a boss's abilities in a Magic player's words; house rules; the "
                     "horde command, a module per command group",
     ("horde.cli.playlog", "horde.cli.words", "horde.cli.config", "horde.cli.common", "horde.cli.games", "horde.cli.decks", "horde.cli.cards",
      "horde.cli.policies", "horde.cli.runs", "horde.cli.tune", "horde.cli.draft", "horde.cli.tablepage", "horde.cli.table",
      "horde.cli", "horde.cli.__main__")),
)
# The parts, bottom to top: a module of a part imports only modules of its own part or the parts below.
PARTS = ("foundation", "engine", "cards", "team", "play", "lab", "table", "cli")


def _members(package: str) -> list[str]:
    """'PACKAGE.*' in LAYERS: every module of that folder (a new module there needs no entry)."""
    folder = PACKAGE.parent.joinpath(*package.split("."))
    return sorted(f"{package}.{path.stem}" for path in folder.glob("*.py") if path.stem != "__init__")


_EXPANDED = [(name, [(m, i) for m in (_members(entry[:-2]) if entry.endswith(".*") else [entry])])
             for name, _, modules in LAYERS for i, entry in enumerate(modules)]
ORDER = [module for _, group in _EXPANDED for module, _ in group]
# the modules of one 'PACKAGE.*' entry share its place: none comes after another
POSITION = {module: n for n, (_, group) in enumerate(_EXPANDED) for module, _ in group}
LAYER_OF = {module: name for name, group in _EXPANDED for module, _ in group}
ENGINE = ORDER[:POSITION["horde.play"] + 1]  # the engine core, cards, team and the composition root
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


def part_of(module: str) -> str:
    """The part a module belongs to: its folder under horde/ (README's "Code" section maps them)."""
    for part in ("engine", "cards", "team", "lab", "table", "cli"):
        if module == f"horde.{part}" or module.startswith(f"horde.{part}."):
            return part
    return "play" if module == "horde.play" else "foundation"


def test_the_parts_are_folders_stacked_in_one_order():
    """The layers of each part follow one another, and the parts come in the order of PARTS: so a
    lower part (the engine core) never imports a higher one (a policy, the laboratory)."""
    parts = [part_of(module) for module in ORDER]
    order = [part for i, part in enumerate(parts) if i == 0 or parts[i - 1] != part]
    assert order == list(PARTS)


def test_no_part_imports_a_higher_part():
    known = modules()
    upward = []
    for module, path in sorted(known.items()):
        for target, line in horde_imports(module, path, known):
            if PARTS.index(part_of(target)) > PARTS.index(part_of(module)):
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} ({part_of(module)}) imports "
                              f"{target} ({part_of(target)})")
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

    code = "import sys, horde.lab.runner, horde.lab.bench, horde.lab.tune; print(sorted(m for m in ('pyarrow', 'pandas') if m in sys.modules))"
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
    """One owner: outside horde/engine/state.py (the Battlefield's own methods), no module or test
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


@pytest.mark.parametrize("alias", ["horde.presets", "horde.policies", "horde.analysis", "horde.plots"])
def test_the_aliases_kept_for_0_2_are_gone_in_0_3(alias):
    """README "Changed in 0.3": the old flat names were kept for one release; import from horde.setup,
    horde.team.policies, horde.lab.analysis and horde.lab.plots."""
    import importlib

    import horde

    assert horde.__version__.startswith("0.3.")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(alias)
