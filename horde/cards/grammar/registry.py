"""The registry of the grammar's rules and their translations.

Each kind of rule has its set: ``EFFECTS`` (a clause of an effect: 'draw N cards'), ``STATICS``
(a static ability), ``TRIGGERS`` (what follows When/Whenever/At), ``CONDITIONS`` (what follows
'if'), ``COSTS`` (one activation cost) and ``SENTENCES`` (a whole sentence of an effect that is
no clause: 'It can't be regenerated'). A rule is a pattern of ``horde.cards.grammar.parser``
with a builder (``@effect("destroy {what:noun}")`` over ``def _(m, p) -> Node``), or a function
over the parser (``@effect(first=("destroy",))`` over ``def _(p) -> Node``). ``@translates(Node)``
registers what the translation pass writes for a node (``horde.cards.grammar.translate``).

The families of rules are the modules of ``horde.cards.grammar.families``: every module there is
imported (in the order of their names) when the grammar is first used, so a new family is a new
module and nothing else; within a set, rules are tried by ``priority`` (higher first), then in
the order they were registered. Rules are dispatched by the first word they can start with.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from horde.cards.grammar.parser import NoParse, Parser, Pattern

N = TypeVar("N")
Builder = Callable[[dict[str, Any], Parser], Any]
Reader = Callable[[Parser], Any]


@dataclass(frozen=True)
class Rule:
    """One rule: how it reads (``read(parser)`` -> a node, or NoParse), the words it may start
    with (empty: any), its family (module) and priority, and its source (the pattern, or the
    function's name) for messages."""

    read: Reader
    first: frozenset[str]
    family: str
    priority: int
    source: str
    order: int


class RuleSet:
    """The rules of one kind, tried in order: by priority, then as registered."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.rules: list[Rule] = []
        self._by_word: dict[str, list[Rule]] = {}
        self._any: list[Rule] = []

    def add(self, rule: Rule) -> None:
        self.rules.append(rule)
        self.rules.sort(key=lambda r: (-r.priority, r.order))
        self._by_word.clear()
        self._any = [r for r in self.rules if not r.first]

    def candidates(self, p: Parser) -> list[Rule]:
        """The rules that may read at the parser's position (by its first word)."""
        word = p.word()
        found = self._by_word.get(word)
        if found is None:
            found = [r for r in self.rules if not r.first or word in r.first]
            self._by_word[word] = found
        return found

    def read(self, p: Parser, expected: str) -> Any:
        """The node of the first rule that reads here (the position after it), else NoParse."""
        load_families()
        for rule in self.candidates(p):
            found = p.attempt(rule.read)
            if found is not None:
                return found
        p.fail(expected)

    def __len__(self) -> int:
        return len(self.rules)


EFFECTS = RuleSet("effect")
SENTENCES = RuleSet("sentence")
STATICS = RuleSet("static")
TRIGGERS = RuleSet("trigger")
CONDITIONS = RuleSet("condition")
COSTS = RuleSet("cost")
TRANSLATORS: dict[type, Callable[..., Any]] = {}
# Translations of a whole activated ability that is not an 'Activated:' line (a mana ability, an
# ability a card has in its graveyard), and of an 'if CONDITION, EFFECTS' that is no condition on
# each verb ('If ~ was kicked, it deals N damage instead'), by the condition's type.
SPECIAL_ACTIVATED: list[Callable[..., Any]] = []
SPECIAL_IF: dict[type, Callable[..., Any]] = {}
_ORDER = [0]


def _register(rules: RuleSet, source: str | None, first: tuple[str, ...] | None, priority: int
              ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    def register(function: Callable[..., N]) -> Callable[..., N]:
        family = function.__module__.rsplit(".", 1)[-1]
        _ORDER[0] += 1
        if source is not None:
            compiled = Pattern(source)

            def read(p: Parser) -> Any:
                found = function(compiled.match(p), p)
                if found is None:
                    raise NoParse
                return found

            starts = frozenset(first) if first is not None else compiled.first
            rules.add(Rule(read, starts, family, priority, source, _ORDER[0]))
        else:
            rules.add(Rule(function, frozenset(first or ()), family, priority, function.__name__, _ORDER[0]))
        return function

    return register


def effect(source: str | None = None, *, first: tuple[str, ...] | None = None, priority: int = 0
           ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register an effect rule: a pattern and its builder ``(slots, parser) -> Effect`` (None
    refuses the match), or a function ``(parser) -> Effect`` (``first``: the words it may start
    with)."""
    return _register(EFFECTS, source, first, priority)


def sentence(source: str | None = None, *, first: tuple[str, ...] | None = None, priority: int = 0
             ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register a rule that reads a whole sentence of an effect (a modifier of the effect before)."""
    return _register(SENTENCES, source, first, priority)


def static(source: str | None = None, *, first: tuple[str, ...] | None = None, priority: int = 0
           ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register a static ability's rule (a whole sentence)."""
    return _register(STATICS, source, first, priority)


def trigger(source: str | None = None, *, first: tuple[str, ...] | None = None, priority: int = 0
            ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register a trigger's rule (what follows When, Whenever or At, up to the comma)."""
    return _register(TRIGGERS, source, first, priority)


def condition(source: str | None = None, *, first: tuple[str, ...] | None = None, priority: int = 0
              ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register a condition's rule (what follows 'if', up to the comma)."""
    return _register(CONDITIONS, source, first, priority)


def cost(source: str | None = None, *, first: tuple[str, ...] | None = None, priority: int = 0
         ) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register an activation cost's rule (one cost, between commas)."""
    return _register(COSTS, source, first, priority)


def translates(*kinds: type) -> Callable[[Callable[..., N]], Callable[..., N]]:
    """Register what the translation writes for nodes of these types."""

    def register(function: Callable[..., N]) -> Callable[..., N]:
        for kind in kinds:
            TRANSLATORS[kind] = function
        return function

    return register


_LOADED: list[bool] = []


def load_families() -> None:
    """Import every module of ``horde.cards.grammar.families`` (once): their rules register."""
    if _LOADED:
        return
    _LOADED.append(True)
    import horde.cards.grammar.families as families

    for module in sorted(m.name for m in pkgutil.iter_modules(families.__path__)):
        importlib.import_module(f"{families.__name__}.{module}")
