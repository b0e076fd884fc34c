"""Policy puzzles: small positions written as data, each with the play a competent Horde player
would make and why, and the run of every team policy over them (``horde policies puzzles``).

A puzzle file (``puzzles/*.toml``, bundled like the decks) holds one theme and a list of puzzles.
Each puzzle is a board (each team player's hand, permanents, graveyard and command zone, the
Horde's permanents and library), the team's life, whose turn it is (``horde_turns``: how many Horde turns have begun,
by default 1 in the team's turn and 2 in the Horde's; 0 is a team turn before the Horde's
first), the step of the turn that is played (``step``), the
kind of decision that is judged (``ask``: one of ``horde.engine.decisions.KINDS``) and the answers a
competent player would give. The position is set up through the rules' own way onto the
battlefield (no Enters triggers), then the step is played by the engine's own functions with the
policy under test; its first answer of the asked kind is the one judged. A policy that never
reaches the decision (it cast nothing, so no target was asked) answers "not asked".

The answers are names: a permanent or card by its name, ``"the Horde"``, ``"none"`` for passing;
a selection (attackers, blocks) is a list, a block written ``"Blocker > Attacker"``; an equip
``"Equipment > Creature"``. Positions are played on a fixed seed, so every run gives the same
scores.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from horde.bundled import bundled_folder
from horde.engine import boss, rules, turns
from horde.engine.cards import CardDef
from horde.engine.decisions import KINDS, Decision
from horde.engine.state import HORDE_CONTROLLER, Game, Lieutenant, LieutenantState, Permanent, Side
from horde.errors import HordeError
from horde.play import new_game, prepare
from horde.setup import make_setup
from horde.team.policies import POLICIES, make_policy

STEPS = {
    "main": "the team's first main phase, then the rest of its turn (land, casts, targets, equip)",
    "attack": "the team's combat, then the rest of its turn (attackers)",
    "second_main": "the team's second main phase and end step (activated abilities)",
    "block": "the Horde's combat, then its end step (blocks, fog)",
    "horde_cast": "the Horde casts the puzzle's `cast` card, then attacks (counterspells, sacrifices)",
}
NOT_ASKED = "not asked"
DEFAULT_LIBRARY = ("Walking Corpse",) * 30  # the Horde's next reveals: one vanilla 2/2 a turn


class PuzzleError(HordeError):
    """A puzzle file that can't be read: names the file, the puzzle and what was expected."""


@dataclass(frozen=True)
class Puzzle:
    """One position and the answers a competent player would give."""

    name: str
    theme: str
    why: str
    step: str
    ask: str
    answers: tuple[Any, ...]
    players: int = 2
    team_life: int = 40
    team: tuple[dict[str, tuple[str, ...]], ...] = ()
    horde: tuple[str, ...] = ()
    library: tuple[str, ...] = DEFAULT_LIBRARY
    cast: str | None = None
    horde_turns: int | None = None
    source: str = ""


@dataclass
class Theme:
    """A puzzle file: its theme, the policies named for it, its puzzles."""

    name: str
    policies: tuple[str, ...]
    puzzles: list[Puzzle] = field(default_factory=list)


def puzzles_dir() -> Path:
    """The bundled puzzle folder."""
    return bundled_folder("puzzles")


def load_themes(folder: Path | None = None) -> list[Theme]:
    """Every puzzle file of ``folder`` (the bundled one by default), checked, in name order."""
    folder = folder or puzzles_dir()
    themes = [load_theme(path) for path in sorted(folder.glob("*.toml"))]
    if not themes:
        raise PuzzleError(f"{folder}: no puzzle files (*.toml)")
    return themes


def load_theme(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise PuzzleError(f"{path}: {error}") from None
    name = data.get("theme")
    if not isinstance(name, str):
        raise PuzzleError(f"{path}: expected a 'theme' name")
    policies = tuple(data.get("policies", ()))
    for policy in policies:
        if policy not in POLICIES:
            raise PuzzleError(f"{path}: policy '{policy}' is not one of {', '.join(POLICIES)}")
    theme = Theme(name, policies)
    for i, entry in enumerate(data.get("puzzle", ())):
        theme.puzzles.append(_puzzle(entry, name, f"{path.name} puzzle {i + 1}"))
    if not theme.puzzles:
        raise PuzzleError(f"{path}: expected at least one [[puzzle]]")
    return theme


def _puzzle(entry: dict[str, Any], theme: str, where: str) -> Puzzle:
    def need(key: str, kind: type) -> Any:
        value = entry.get(key)
        if not isinstance(value, kind):
            raise PuzzleError(f"{where}: expected '{key}' ({kind.__name__})")
        return value

    name = need("name", str)
    where = f"{where} ({name})"
    step, ask = need("step", str), need("ask", str)
    if step not in STEPS:
        raise PuzzleError(f"{where}: step '{step}' is not one of {', '.join(STEPS)}")
    if ask not in KINDS:
        raise PuzzleError(f"{where}: ask '{ask}' is not a decision kind ({', '.join(KINDS)})")
    if "answer" in entry:
        answers = (entry["answer"],)
    elif "answers" in entry:
        answers = tuple(entry["answers"])
    else:
        raise PuzzleError(f"{where}: expected 'answer' or 'answers'")
    players = entry.get("players", 2)
    team = []
    for i in range(players):
        spec = entry.get(f"player{i + 1}", {})
        team.append({zone: tuple(spec.get(zone, ())) for zone in ("hand", "battlefield", "graveyard", "command")})
    extra = set(entry) - {"name", "why", "step", "ask", "answer", "answers", "players", "team_life", "horde",
                          "library", "cast", "horde_turns"} - {f"player{i + 1}" for i in range(players)}
    if extra:
        raise PuzzleError(f"{where}: unknown keys {', '.join(sorted(extra))}")
    horde_turns = entry.get("horde_turns")
    first = 1 if step in ("block", "horde_cast") else 0
    if horde_turns is not None and (not isinstance(horde_turns, int) or isinstance(horde_turns, bool)
                                    or not first <= horde_turns <= 50):
        raise PuzzleError(f"{where}: expected 'horde_turns' a whole number from {first} to 50 (the Horde turns begun)")
    return Puzzle(name=name, theme=theme, why=need("why", str), step=step, ask=ask, answers=answers,
                  players=players, team_life=entry.get("team_life", 20 * players), team=tuple(team),
                  horde=tuple(entry.get("horde", ())), library=tuple(entry.get("library", DEFAULT_LIBRARY)),
                  cast=entry.get("cast"), horde_turns=horde_turns, source=where)


# ---------------------------------------------------------------- setting a position up


def _parse(spec: str) -> tuple[str, dict[str, str]]:
    """'Name (tapped, +2, on Other)' -> ('Name', {'tapped': '', '+2': '', 'on': 'Other'})."""
    name, _, rest = spec.partition("(")
    mods: dict[str, str] = {}
    for part in rest.rstrip(")").split(","):
        part = part.strip()
        if part:
            key, _, value = part.partition(" ")
            mods[key] = value.strip()
    return name.strip(), mods


def setup_position(puzzle: Puzzle, policy: Any) -> Game:
    """The puzzle's game: both boards, hands, life and turn set, the policy playing the team."""
    setup = make_setup("zombie-horde", players=puzzle.players, boss="none", lieutenants=False)
    prepared = prepare(setup)
    catalogue = prepared.catalogue
    game = new_game(prepared, ("puzzle", puzzle.name), policy)

    def card(name: str) -> CardDef:
        try:
            return catalogue.get(name)
        except HordeError as error:
            raise PuzzleError(f"{puzzle.source}: {error.one_line()}") from None

    horde_side = puzzle.step in ("block", "horde_cast")
    # H2: with 3 grace turns, turn 5 is the team's and turn 6 the Horde's (by default one Horde
    # turn has been played before the team's, two have begun in the Horde's); turns 1-3 are the
    # team's before the Horde's first (``horde_turns = 0``).
    horde_turns = puzzle.horde_turns if puzzle.horde_turns is not None else 2 if horde_side else 1
    game.horde_turns = horde_turns
    game.turn = 3 + 2 * horde_turns if not horde_side else 2 + 2 * horde_turns
    game.active = Side.HORDE if horde_side else Side.TEAM
    game.team_life = puzzle.team_life
    game.drivers.stats.team_life_min = puzzle.team_life
    game.horde.library = [card(n) for n in puzzle.library]
    game.horde.deck_size = len(game.horde.library) + len(puzzle.horde)
    for player, spec in zip(game.players, puzzle.team, strict=True):
        player.command.clear()
        player.library = [card("Wastes")] * 20
        player.hand = [card(n) for n in spec["hand"]]
        player.graveyard = [card(n) for n in spec["graveyard"]]
        for entry in spec.get("command", ()):  # a commander in the command zone, cast N times before (C2: its tax)
            name, mods = _parse(entry)
            commander = card(name)
            player.command.append(commander)
            player.commander = commander
            player.commander_casts[commander.name] = int(mods.get("casts", "0"))
        _put_all(game, spec["battlefield"], player.index, card, puzzle)
    _put_all(game, puzzle.horde, HORDE_CONTROLLER, card, puzzle)
    return game


def _put_all(game: Game, specs: Iterable[str], controller: int, card: Callable[[str], CardDef],
             puzzle: Puzzle) -> None:
    placed: list[Permanent] = []
    attach: list[tuple[Permanent, str]] = []
    for spec in specs:
        name, mods = _parse(spec)
        lieutenant = None
        if "lieutenant" in mods:
            lieutenant = Lieutenant(card(name))
            lieutenant.entered = 1
            if game.lieutenants is None:
                game.lieutenants = LieutenantState([], [])
                game.drivers.lieutenant_leaves = boss.lieutenant_leaves  # L6
                game.drivers.creature_damaged_player = boss.creature_damaged_player  # L7
            game.lieutenants.drawn.append(lieutenant)
        p = rules.put_onto_battlefield(game, card(name), controller, controller, triggers=False,
                                       commander="commander" in mods, lieutenant=lieutenant,
                                       shields=int(mods.get("shields", "1" if lieutenant else "0")))
        p.sick = "sick" in mods
        p.tapped = "tapped" in mods
        p.damage = int(mods.get("damage", "0"))
        for key in mods:
            if key.startswith("+") and key[1:].isdigit():
                rules.add_counters(game, p, int(key[1:]))
        if "on" in mods:
            attach.append((p, mods["on"]))
        if "commander" in mods:
            game.players[controller].commander = p.card
        placed.append(p)
    for equipment, name in attach:
        # On a permanent of its own side, else of the other (a Horde Aura on a team creature).
        creature = next((p for p in placed if p.card.name == name), None) or next(
            (p for p in rules.all_permanents(game) if p.card.name == name and p not in placed), None)
        if creature is None:
            raise PuzzleError(f"{puzzle.source}: '{equipment.card.name}' is on '{name}', not on the battlefield")
        if equipment.card.enchant is not None:
            game.battlefield.enchant(equipment, creature)  # an Aura
        else:
            game.battlefield.attach(equipment, creature)


def step_function(puzzle: Puzzle, spell: CardDef | None) -> Callable[[Game], None]:
    """The part of the turn the puzzle plays: its step, then the rest of that turn."""

    def horde_combat(g: Game) -> None:
        turns.horde_combat(g, set())

    def horde_cast(g: Game) -> None:
        assert spell is not None, "checked when the position is set up"
        rules.horde_cast(g, spell)  # H5, H10: the counter window opens as it is cast
        turns.run_steps(g, (horde_combat, turns.end_step))

    steps: dict[str, Callable[[Game], None]] = {
        "main": lambda g: turns.run_steps(g, (turns.main_phase, turns.team_combat, turns.second_main_phase,
                                              turns.end_step)),
        "attack": lambda g: turns.run_steps(g, (turns.team_combat, turns.second_main_phase, turns.end_step)),
        "second_main": lambda g: turns.run_steps(g, (turns.second_main_phase, turns.end_step)),
        "block": lambda g: turns.run_steps(g, (horde_combat, turns.end_step)),
        "horde_cast": horde_cast,
    }
    return steps[puzzle.step]


# ---------------------------------------------------------------- playing a puzzle


class _Asked(Exception):
    """The judged decision was answered: the rest of the step is not played."""


class _Watch:
    """Passes every decision to the policy under test and stops at the first of the judged kind."""

    def __init__(self, policy: Any, kind: str):
        self.policy = policy
        self.kind = kind
        self.answer: tuple[Decision, Any] | None = None

    @property
    def rng(self) -> Any:
        return self.policy.rng

    @rng.setter
    def rng(self, value: Any) -> None:
        self.policy.rng = value

    def choose(self, decision: Decision, view: Any) -> Any:
        choice = self.policy.choose(decision, view)
        if decision.kind == self.kind:
            self.answer = (decision, choice)
            raise _Asked
        return choice


def label(choice: Any, kind: str = "") -> Any:
    """A policy's answer in the puzzles' words: names, 'the Horde', 'none', lists for selections;
    a number of kicks as a number, a mode or an ability by its verbs as the card file writes them."""
    if choice is None:
        return "none"
    if kind == "kick":
        return str(choice)
    if kind == "modes":
        return sorted(" ; ".join(e.describe() for e in mode) for mode in choice)
    if kind in ("mode", "regenerate"):
        return " ; ".join(e.describe() for e in choice)
    if isinstance(choice, Permanent):
        return choice.card.name
    if isinstance(choice, CardDef):
        return choice.name
    if isinstance(choice, str):
        return "the Horde" if choice == "horde" else choice
    if isinstance(choice, bool):
        return "yes" if choice else "no"
    if isinstance(choice, int):
        return f"player {choice + 1}"
    if isinstance(choice, list):
        return sorted(str(label(item)) for item in choice)
    if isinstance(choice, tuple) and len(choice) == 2:
        first, second = choice
        if isinstance(first, Permanent) and isinstance(second, Permanent):
            return f"{first.card.name} > {second.card.name}"  # a block, or an equip
        if isinstance(second, CardDef):
            return second.name  # (player, counterspell or fog)
        if isinstance(first, CardDef):
            return first.name  # (card, origin) to cast
        if isinstance(first, Permanent):
            return first.card.name  # (permanent, ability) to activate
    return str(choice)


def _same(answer: Any, expected: Any) -> bool:
    if isinstance(expected, list):
        return isinstance(answer, list) and sorted(answer) == sorted(str(e) for e in expected)
    return answer == expected


@dataclass(frozen=True)
class Outcome:
    """One policy's answer to one puzzle."""

    puzzle: Puzzle
    policy: str
    answer: Any
    solved: bool


def play_puzzle(puzzle: Puzzle, policy: Any, policy_name: str = "") -> Outcome:
    """Set the position up, play its step with ``policy`` and judge its first answer of the
    asked kind."""
    watch = _Watch(policy, puzzle.ask)
    game = setup_position(puzzle, watch)
    spell = None
    if puzzle.step == "horde_cast":
        if puzzle.cast is None:
            raise PuzzleError(f"{puzzle.source}: step 'horde_cast' needs 'cast'")
        spell = prepare(game.setup).catalogue.get(puzzle.cast)
    rest = step_function(puzzle, spell)
    start = getattr(policy, "start", None)
    if start is not None:
        start(game.drivers.view, rest)  # a look-ahead policy's snapshot of the position
    try:
        rest(game)
    except _Asked:
        pass
    answer = NOT_ASKED if watch.answer is None else label(watch.answer[1], puzzle.ask)
    solved = any(_same(answer, expected) for expected in puzzle.answers)
    return Outcome(puzzle, policy_name, answer, solved)


def play_all(themes: list[Theme], policies: Iterable[str]) -> list[Outcome]:
    """Every puzzle with every named policy (a fresh policy for each puzzle)."""
    outcomes = []
    for name in policies:
        for theme in themes:
            for puzzle in theme.puzzles:
                outcomes.append(play_puzzle(puzzle, make_policy(name), name))
    return outcomes


def score_table(themes: list[Theme], outcomes: list[Outcome], policies: list[str]) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the score table: one row per theme and one for all puzzles; each
    cell the puzzles solved, a * where the policy is named for the theme."""
    solved: dict[tuple[str, str], int] = {}
    for o in outcomes:
        if o.solved:
            key = (o.policy, o.puzzle.theme)
            solved[key] = solved.get(key, 0) + 1
    header = ["theme", "puzzles"] + policies
    rows = []
    total = 0
    for theme in themes:
        n = len(theme.puzzles)
        total += n
        rows.append([theme.name, str(n)] + [f"{solved.get((p, theme.name), 0)}" + ("*" if p in theme.policies else "")
                                            for p in policies])
    all_row = ["all", str(total)]
    for p in policies:
        s = sum(v for (q, _), v in solved.items() if q == p)
        all_row.append(f"{s} ({100 * s / total:.0f}%)")
    rows.append(all_row)
    return header, rows
