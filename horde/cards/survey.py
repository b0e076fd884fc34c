"""Coverage of a whole card index: how many cards the compiler reads exactly, how many play only
approximated, how many are refused even so, by card type and by refusal class.

``survey_index(index, tokens)`` compiles every card of an imported AtomicCards index (as a deck
would resolve it, with ``--approximate``) and ``survey_texts(cards, tokens)`` every card of a
catalogue by its own ``Text:``; ``Survey.describe()`` is the table ``horde cards survey`` prints.
Each ability the compiler leaves out is put in the first refusal class of ``CLASSES`` whose
pattern it matches (a card counts once in each class of its dropped abilities). ``sample(seed,
count)`` draws exact cards for the precision audit (``docs/audit/README.md``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from horde.cards.cardindex import CardIndex, IndexedCard
from horde.cards.catalogue import (
    build_from_lines,
    cached_compiled,
    compile_card,
    compile_indexed,
    fact_lines,
    facts_of,
    played_faces,
)
from horde.engine.cards import CardDef
from horde.errors import DeckError

# The card types a survey counts by (a card counts under each of its types).
TYPES = ("Creature", "Instant", "Sorcery", "Enchantment", "Artifact", "Planeswalker", "Land", "Battle")
# Refusal classes, the first whose pattern an ability left out matches (case ignored); the names
# are those of the issue that asked for them, largest first.
CLASSES = (
    ("other face not played", r"^\(the front face of"),
    ("counterspell outside a cast", r"\bcounter target\b[^.]*\bspell\b"),
    ("keyword the engine lacks", r"^[A-Z][a-z]+(?:[ -][a-z]+)?(?: \d+| X| ?\{[^}]+\}.*| —.*| from .*)?$|"
                                 r"^(?:[A-Z][a-z]+(?: [a-z]+)?, )+[A-Z]?[a-z]+(?: [a-z]+)?$"),
    ("loyalty ability", r"^[+-]?(?:\d+|X): "),
    ("activated-ability cost", r"^[^\"]*?\b(?:sacrifice|discard|pay \d+ life|remove|\{X\}|tap an untapped|exile)"
                               r"[^:\"]*: "),
    ("activated ability", r"^[^\"]*?\{[^}]+\}[^:\"]*: "),
    ("condition", r"\bas long as\b|\bif you control\b|\bunless\b|\bonly if\b"),
    ("'if you do'", r"\bif you do\b|\bif (?:a|that) player does\b"),
    ("reference back", r"\bthat (?:creature|card|player|permanent|spell|token)\b|\bits (?:power|toughness|"
                       r"controller|owner)\b|\bthis way\b"),
    ("library: search, look, scry", r"\bsearch\b.*\blibrary\b|\blook at\b|\bscry\b|\breveal the top\b|\bsurveil\b"),
    ("replacement or prevention", r"\binstead\b|\bprevent\b|\bwould\b"),
    ("other counters", r"\bcounters?\b"),
    ("restriction", r"\bcan't\b|\bcannot\b"),
    ("keyword grant", r"\b(?:gains?|ha(?:ve|s)) (?:flying|first strike|double strike|deathtouch|haste|hexproof|"
                      r"indestructible|lifelink|menace|reach|shroud|trample|vigilance|protection|\w+walk|shadow|"
                      r"fear|intimidate|defender|flash|ward|infect|wither|prowess)\b"),
    ("token", r"\bcreate\b"),
    ("'When ~ enters'", r"^When .* enters\b"),
    ("other trigger", r"^(?:When|Whenever|At)\b"),
)
_PATTERNS = tuple((name, re.compile(pattern, re.I)) for name, pattern in CLASSES)


_FACE = re.compile(r" \[[^\]]+\]$")  # the face an ability of a card of two faces is of: ' [Ice]'


def refusal_class(ability: str) -> str:
    """The refusal class of one ability the compiler left out (``CLASSES``), else 'other'."""
    ability = _FACE.sub("", ability)
    for name, pattern in _PATTERNS:
        if pattern.search(ability):
            return name
    return "other"


@dataclass
class Surveyed:
    """One card's outcome: ``exact``, ``approximated`` or ``refused``, its types, and the
    abilities dropped (or the reason it is refused)."""

    name: str
    types: tuple[str, ...]
    outcome: str
    dropped: tuple[str, ...] = ()
    text: str = ""
    lines: tuple[str, ...] = ()


@dataclass
class Survey:
    source: str
    cards: list[Surveyed] = field(default_factory=list)
    cached: bool = False  # the texts were compiled at import

    def counts(self) -> dict[str, Counter[str]]:
        """Outcomes by type ('all' first)."""
        table: dict[str, Counter[str]] = {"all": Counter()}
        for kind in TYPES:
            table[kind.lower()] = Counter()
        for card in self.cards:
            table["all"][card.outcome] += 1
            for kind in card.types:
                if kind in TYPES:
                    table[kind.lower()][card.outcome] += 1
        return {k: v for k, v in table.items() if k == "all" or v}

    def classes(self) -> Counter[str]:
        """Cards by refusal class of the abilities they drop (a card once per class)."""
        found: Counter[str] = Counter()
        for card in self.cards:
            if card.outcome != "exact":
                found.update({refusal_class(d) for d in card.dropped})
        return found

    def describe(self) -> str:
        lines = [f"{len(self.cards):,} cards ({self.source})",
                 f"{'type':<14}{'cards':>8}{'exact':>16}{'approximated':>16}{'refused':>16}"]
        for kind, counter in self.counts().items():
            total = sum(counter.values())
            cells = "".join(f"{f'{counter[o]:,} ({counter[o] / total:.1%})':>16}"
                            for o in ("exact", "approximated", "refused"))
            lines.append(f"{kind:<14}{total:>8,}{cells}")
        not_exact = [c for c in self.cards if c.outcome != "exact"]
        if not_exact:
            lines.append("refusal classes (cards not exact with an ability of the class left out; a card counts "
                         "once in each of its classes):")
            for name, n in sorted(self.classes().items(), key=lambda item: (-item[1], item[0])):
                lines.append(f"  {name:<30}{n:>8,} ({n / len(not_exact):.1%})")
            one = sum(1 for c in not_exact if len(c.dropped) == 1)
            lines.append(f"cards not exact by exactly one ability: {one:,} of {len(not_exact):,} "
                         f"({one / len(not_exact):.1%})")
        return "\n".join(lines)

    def sample(self, seed: int, count: int) -> list[Surveyed]:
        """``count`` exact cards drawn at random (``random.Random(seed)``, from the exact cards
        sorted by name): the precision audit's sample."""
        exact = sorted((c for c in self.cards if c.outcome == "exact"), key=lambda c: c.name)
        return random.Random(seed).sample(exact, min(count, len(exact)))


def _survey_one(indexed: IndexedCard, tokens: Mapping[str, CardDef], where: str, record: Any = None) -> Surveyed:
    types = tuple(indexed.types)
    compiled = cached_compiled(record, tokens, ()) if record is not None else None
    if compiled is not None and len(compiled) != len(played_faces(indexed)):
        compiled = None  # not every face it plays: compiled again
    if compiled is None and not indexed.refused:
        compiled = compile_card(indexed, tokens)
    try:
        card, origin, _ = compile_indexed(indexed, tokens, True, where, (), compiled)
    except DeckError as error:
        return Surveyed(indexed.name, types, "refused", (error.message,), indexed.text)
    if origin.kind == "compiled":
        if compiled is None:
            return Surveyed(card.name, types, "exact", (), indexed.text, ())
        if len(compiled) > 1:  # a card of two faces: each face's lines, after its name
            faces = played_faces(indexed)
            lines = tuple(line for face, text in zip(faces, compiled, strict=True)
                          for line in [f"Face: {face.get('faceName') or card.name}"] + text.lines)
            return Surveyed(card.name, types, "exact", (), " // ".join(face.get("text") or "" for face in faces), lines)
        return Surveyed(card.name, types, "exact", (), indexed.text, tuple(compiled[0].lines))
    return Surveyed(card.name, types, "approximated", origin.dropped, indexed.text)


def survey_index(index: CardIndex, tokens: Mapping[str, CardDef], cache_key: str = "") -> Survey:
    """Every card of an imported index, as a deck with ``--approximate`` would resolve it: by the
    texts the index compiled at import when they were compiled by this grammar with these tokens
    (``cache_key``: ``Catalogue.cache_key``), else each compiled now (``Survey.cached`` says which)."""
    from horde.cards.oracle import grammar_version

    survey = Survey(f"the card index {index.path}")
    records: dict[str, Any] = {}
    if cache_key and index.meta.get("compiled_with") == cache_key and index.meta.get("grammar") == grammar_version():
        records = index.compiled_all()
    survey.cached = bool(records)
    for indexed in index.cards():
        survey.cards.append(_survey_one(indexed, tokens, str(index.path), records.get(indexed.name.lower())))
    survey.cards.sort(key=lambda c: c.name)
    return survey


def survey_texts(cards: Iterable[CardDef], tokens: Mapping[str, CardDef], source: str) -> Survey:
    """Every card of ``cards`` compiled from its own ``Text:`` (its abilities are not on lines of
    their own there: a card with any sentence unread is approximated as a whole text)."""
    from horde.cards.oracle import compile_text

    survey = Survey(source)
    for card in sorted(cards, key=lambda c: c.name):
        types = tuple(sorted(card.types))
        compiled = compile_text(card.text, facts_of(card), tokens)
        try:
            build_from_lines(fact_lines(card) + compiled.lines, f"survey:{card.name}")
        except DeckError as error:
            survey.cards.append(Surveyed(card.name, types, "refused", (error.message,), card.text))
            continue
        if compiled.ok:
            survey.cards.append(Surveyed(card.name, types, "exact", (), card.text, tuple(compiled.lines)))
        else:
            survey.cards.append(Surveyed(card.name, types, "approximated", tuple(compiled.unread), card.text))
    return survey
