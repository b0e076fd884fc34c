"""The card catalogue: reads card files, checks every verb, argument and hook, builds ``CardDef``s.

A card file (``decks/cards/*.txt``) holds cards as blocks of ``Field: value`` lines separated by
blank lines; ``docs/cards.md`` describes the format. Behaviour lines name a hook of
``horde.engine.cards.HOOKS`` and a verb of ``horde.engine.effects.VERBS`` with ``key=value`` arguments. Every
problem is a ``DeckError`` naming the file and line; a card the vocabulary cannot express is
refused here, never played as something else.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import shlex
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horde.bundled import bundled_folder
from horde.cards import name_key
from horde.cards.tokens import described_token
from horde.engine.cards import (
    ACTIVATION_LIMITS,
    ANY,
    CHOSEN,
    COLOURS,
    HOOKS,
    IDENTITY,
    KEYWORDS,
    OPPONENTS_LANDS,
    SPENT_RIDERS,
    WHEN_HOOKS,
    CardDef,
    Effect,
    ManaAbility,
    ManaCost,
    mana_symbol,
)
from horde.engine.filters import (
    COLOUR_TERMS,
    AmountFunction,
    Condition,
    Filter,
    NumberReader,
    compile_amount,
    compile_condition,
    compile_filter,
)
from horde.engine.vocabulary import VERBS
from horde.errors import DeckError
from horde.files import check_regular, read_text
from horde.limits import (
    CARD_AMOUNT_MAX,
    CARD_COUNT_MAX,
    CARD_FILES_MAX,
    CARD_LOYALTY_MAX,
    CARD_NAME_MAX,
    CARD_PT_MAX,
    CARD_TEXT_MAX,
    HYBRID_MAX,
    MANA_MAX,
    quoted,
    whole_number,
)
from horde.setup import GameSetup

if TYPE_CHECKING:  # both are imported where used: a game whose cards are all in card files needs neither
    from horde.cards.cardindex import CardIndex, IndexedCard
    from horde.cards.oracle import Compiled, Facts

FIELDS = {"Name", "Cost", "Type", "PT", "Loyalty", "Keywords", "Colors", "Identity", "Mana", "Equip",
          "Flashback", "HordeX", "Text", "Enchant", "Kicker", "Multikicker", "Choose", "Cycling", "Unearth",
          "CastFromGraveyard", "EntersTapped", "Overload", "CostsLess", "ChooseColor", "Layout", "Face"} | {"Evoke", "Dash", "Buyback", "Typecycling", "Echo", "Suspend"}  # keyword costs
# The layouts of cards of two faces a card file may give (``Layout:``), each with its ``Face:`` sections.
LAYOUTS = {"split": "two halves, either cast from hand (709); with fuse both at once",
           "aftermath": "two halves, the second (Keywords: aftermath) cast only from the graveyard (702.127)",
           "adventure": "a creature and its Adventure, an instant or sorcery cast first from hand (715)",
           "modal_dfc": "two faces, either played (712.12)",
           "transform": "a front face played; its back face is not (no verb transforms a permanent)",
           "flip": "a front face played; its flipped face is not"}
CHOOSE = {"one": (1, 1), "two": (2, 2), "three": (3, 3), "one or more": (1, 99), "one or both": (1, 2)}
SUPERTYPES = {"Legendary", "Basic", "Snow", "World", "Token", "Elite", "Ongoing"}
CARD_TYPES = {"Artifact", "Enchantment", "Planeswalker", "Land", "Creature", "Instant", "Sorcery", "Kindred",
              "Tribal", "Scheme"}
LOYALTY_HOOKS = ("Plus", "Minus", "Ultimate")
_COST_RE = re.compile(r"\{([^}]+)\}")
_LOYALTY_RE = re.compile(r"([+\-\u2212]?[^:\s]+)\s*:\s*(.*)")  # the change is checked by card_number
_QUOTING = re.compile(r"[\"'\\]")
_SHELL_SPACE = re.compile(r"[ \t\r\n]+")  # what shlex splits on


BUNDLED_DECKS = bundled_folder("decks")


def decks_dir() -> Path:
    """Where the bundled data lives: ``$HORDE_DECKS`` or the ``decks/`` folder of the project (inside
    the package when installed from a wheel: ``horde.bundled``)."""
    env = os.environ.get("HORDE_DECKS")
    return Path(env) if env else BUNDLED_DECKS


def parse_cost(text: str, path: str, line: int) -> ManaCost:
    """Parse ``{2}{B}{B}``, ``{X}{R}``, ``{0}``, and hybrid, two-brid and Phyrexian symbols as
    MTGJSON writes them: ``{1}{G/W}``, ``{2/W}``, ``{B/P}``, ``{G/U/P}`` (``mana_symbol``)."""
    text = text.strip()
    if not text:
        return ManaCost()
    symbols = _COST_RE.findall(text)
    if "".join(f"{{{s}}}" for s in symbols) != text.replace(" ", ""):
        raise DeckError(f"bad mana cost {quoted(text)}: expected symbols like {{2}}{{B}}{{B}}", path, line)
    generic, pips, x = 0, [], False
    for s in symbols:
        s = s.upper()
        if s.isascii() and s.isdigit():
            generic += card_number(s, "mana", path, line)
        elif s == "X":
            x = True
        elif (pip := mana_symbol(s)) is not None:
            pips.append(pip)
        else:
            raise DeckError(f"mana symbol {quoted('{' + s + '}')} is beyond the vocabulary: expected a number, X, W, "
                            "U, B, R, G, C, a hybrid symbol such as {W/U} or {2/W}, or a Phyrexian one such as {W/P} "
                            "or {G/U/P}", path, line)
    if generic > MANA_MAX:
        raise DeckError(f"mana cost {quoted(text)}: at most {MANA_MAX} generic mana (docs/limits.md)", path, line)
    if sum(len(pip) > 1 for pip in pips) > HYBRID_MAX:
        raise DeckError(f"mana cost {quoted(text)}: at most {HYBRID_MAX} hybrid, two-brid and Phyrexian symbols "
                        "(docs/limits.md)", path, line)
    return ManaCost(generic, tuple(pips), x)


# ---------------------------------------------------------------- numbers in card files
# The bounds of every number a card file gives, by field or argument name (docs/limits.md); a
# number under any other name (a field or argument added later) gets DEFAULT_BOUNDS.
NUMBER_BOUNDS: dict[str, tuple[int, int]] = {
    "PT": (-CARD_PT_MAX, CARD_PT_MAX),
    "power": (-CARD_PT_MAX, CARD_PT_MAX),
    "toughness": (-CARD_PT_MAX, CARD_PT_MAX),
    "Loyalty": (0, CARD_LOYALTY_MAX),
    "loyalty change": (-CARD_LOYALTY_MAX, CARD_LOYALTY_MAX),
    "mana": (0, MANA_MAX),
    "HordeX": (0, MANA_MAX),
    "amount": (0, CARD_AMOUNT_MAX),
    "per": (0, CARD_AMOUNT_MAX),
    "count": (0, CARD_COUNT_MAX),
}
DEFAULT_BOUNDS = (0, CARD_COUNT_MAX)


def card_number(text: str, what: str, path: str, line: int, card_name: str | None = None) -> int:
    """Every number of a card file goes through here: ``text`` as a whole number (ASCII digits,
    an optional sign; a Unicode minus is a minus) within the bounds of ``what`` (a field such as
    ``PT`` or ``Loyalty``, or a verb's argument, ``argument count``: ``NUMBER_BOUNDS`` by its
    name), else a DeckError naming the card, the field and what was expected."""
    low, high = NUMBER_BOUNDS.get(what.removeprefix("argument "), DEFAULT_BOUNDS)
    try:
        return whole_number(text.replace("\u2212", "-"), low, high)
    except ValueError as error:
        card = f"card '{card_name}': " if card_name else ""
        raise DeckError(f"{card}{what}: {error}", path, line) from None


def parse_colours(text: str, what: str, path: str, line: int, card_name: str) -> frozenset[str]:
    """A ``Colors`` or ``Identity`` value: colour letters (``WU``, ``W U``, ``W, U``) or colour
    names (``white, blue``), or ``colorless``; anything else is a DeckError."""
    colours: set[str] = set()
    for word in re.split(r"[\s,/]+", text.strip()):
        low = word.lower()
        if not low or low in ("colorless", "colourless", "none", "c"):
            continue
        if low in COLOUR_TERMS:
            colours.add(COLOUR_TERMS[low])
        elif all(c in COLOURS for c in word.upper()) and word.isalpha():
            colours.update(word.upper())
        else:
            raise DeckError(f"card '{card_name}': {what}: unknown colour {quoted(word)}: expected colour letters "
                            f"({COLOURS}) or names (white, blue, black, red, green), or colorless", path, line)
    return frozenset(colours)


@dataclass
class _Block:
    path: str
    line: int
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)
    hooks: list[tuple[str, str, int]] = field(default_factory=list)
    mana: list[tuple[str, int]] = field(default_factory=list)  # its Mana lines, one mana ability each
    error: DeckError | None = None  # the first problem of a block read leniently
    faces: list[_Block] = field(default_factory=list)  # the ``Face:`` sections of a card of two faces


@dataclass(frozen=True)
class Origin:
    """Where a card's behaviour came from: ``hand-written`` (a card file), ``compiled`` (the
    index's facts and the Oracle-text compiler), ``approximated`` (the index's facts and the
    abilities read, with ``dropped`` each ability that was not played), ``described`` (a token a
    Horde list describes) or ``created`` (a token a compiled card's text creates; ``where`` names
    that card). An approximated card is ``blank`` when nothing of its text was read: it plays
    by its printed facts alone (a spell that does nothing, a creature without its abilities)."""

    kind: str
    where: str
    dropped: tuple[str, ...] = ()
    note: str = ""
    blank: bool = False

    @property
    def slot(self) -> str:
        """What a card slot of this origin is, for the counts of a deck: ``exact`` (hand-written,
        compiled, a token), ``approximated`` (some of its text read), or ``blank`` (none)."""
        if self.kind != "approximated":
            return "exact"
        return "blank" if self.blank else "approximated"


class Catalogue:
    """Every card and token the engine models, by name (lookups ignore case).

    A name is resolved in this order: a hand-written entry (the bundled card files, then the
    user's, which override them), the card index's facts with the Oracle-text compiler, else the
    card is refused with each sentence the compiler could not read. With ``approximate`` a card
    whose text is not understood whole plays by its facts and the abilities read, and is recorded
    as ``approximated``."""

    def __init__(self) -> None:
        self.cards: dict[str, CardDef] = {}
        self.tokens: dict[str, CardDef] = {}
        self._lower: dict[str, str] = {}
        self.origins: dict[str, Origin] = {}
        self.broken: dict[str, DeckError] = {}  # lower-case name -> why its user card file entry is refused
        self.file_errors: list[DeckError] = []  # problems of user card files that name no card
        self.index_path: Path | None = None  # where to look cards up when no file has them
        self.approximate = False
        self.refused: dict[str, DeckError] = {}  # lower-case name -> why the index's card is refused
        self._cache_key: str | None = None

    def __contains__(self, name: str) -> bool:
        return name_key(name) in self._lower

    def __len__(self) -> int:
        return len(self.cards) + len(self.tokens)

    def get(self, name: str, path: str | None = None, line: int | None = None) -> CardDef:
        """The card of that name (hand-written, else compiled from the index); a card that can't be
        had is a DeckError naming the card and why (closest names for an unknown one)."""
        low = name_key(name)
        key = self._lower.get(low)
        if key is not None:
            return self.cards.get(key) or self.tokens[key]
        if low in self.broken:
            raise DeckError(f"card '{name}' is refused: {self.broken[low].one_line()}", path, line)
        token = self._token_phrase(name)
        if token is not None:
            return token
        described = described_token(name, self.tokens, self._lower)  # a Horde list's '20 2/2 black Zombie'
        if isinstance(described, str):
            raise DeckError(described, path, line)
        if described is not None:
            if name_key(described.name) not in self._lower:
                self.add(described, path or "<text>", line or 0, Origin("described", f"{path}:{line}"))
            self._lower[low] = described.name
            return described
        if low not in self.refused:
            card = self._from_index(name)
            if card is not None:
                return card
        error = self.refused[low]
        raise DeckError(error.message, path, line)

    def token(self, name: str, path: str | None = None, line: int | None = None) -> CardDef:
        card = self.get(name, path, line)
        if not card.is_token:
            raise DeckError(f"'{name}' is not a token", path, line)
        return card

    def add(self, card: CardDef, path: str, line: int, origin: Origin | None = None, replace: bool = False) -> None:
        low = name_key(card.name)
        if low in self._lower:
            if not replace:
                raise DeckError(f"card '{card.name}' is defined twice", path, line)
            old = self._lower.pop(low)
            self.cards.pop(old, None)
            self.tokens.pop(old, None)
        (self.tokens if card.is_token else self.cards)[card.name] = card
        self._lower[low] = card.name
        self.origins[card.name] = origin or Origin("hand-written", f"{path}:{line}")

    def copy(self) -> Catalogue:
        """A catalogue holding the same cards, to which others may be added."""
        other = Catalogue()
        other.cards, other.tokens, other._lower = dict(self.cards), dict(self.tokens), dict(self._lower)
        other.origins = dict(self.origins)
        return other

    def origins_of(self, cards: Iterable[CardDef]) -> dict[str, Origin]:
        """Where the behaviour of each of ``cards`` comes from, by card name in order."""
        names = sorted({card.name for card in cards})
        return {name: self.origins[name] for name in names if name in self.origins}

    def approximated_in(self, cards: Iterable[CardDef]) -> dict[str, tuple[str, ...]]:
        """The cards among ``cards`` that play approximated (--approximate), by name in
        order, with the text each drops."""
        return {name: origin.dropped for name, origin in self.origins_of(cards).items()
                if origin.kind == "approximated"}

    def cache_key(self) -> str:
        """What the card index's compiled texts must have been compiled with for this catalogue
        to use them (``import_cards``): a digest of its hand-written tokens and card names, the
        tokens a text may name and the names a new token may not take."""
        if self._cache_key is None:
            written = [(name, card) for name, card in self.cards.items() | self.tokens.items()
                       if self.origins.get(name, Origin("hand-written", "")).kind == "hand-written"]
            self._cache_key = compiled_with(dict(written))
        return self._cache_key

    def _token_phrase(self, name: str) -> CardDef | None:
        """Token lines as Horde lists write them: '2/2 Zombie tokens', 'Zombie token'."""
        m = re.fullmatch(r"(?:([0-9]{1,6})/([0-9]{1,6})\s+)?(.+?)(?:\s+tokens?)?", name.strip(), re.I)
        if not m or (m[1] is None and m[3] == name.strip()):
            return None
        key = self._lower.get(name_key(m[3]))
        card = self.tokens.get(key) if key else None
        if card is None or (m[1] is not None and (card.power, card.toughness) != (int(m[1]), int(m[2]))):
            return None
        return card

    def _unknown(self, name: str, index: CardIndex | None) -> DeckError:
        close = difflib.get_close_matches(name, list(self.cards) + list(self.tokens), n=3, cutoff=0.6)
        if index is not None:
            close = (close + [c for c in index.close_matches(name) if c not in close])[:3]
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        where = "in the card files or the card index" if index is not None else \
            "in the card catalogue (import MTGJSON's AtomicCards with 'horde cards import' to play any card)"
        return DeckError(f"unknown card {quoted(name)}: not {where}{hint}")

    def _from_index(self, name: str) -> CardDef | None:
        """Resolve a name through the card index and the compiler (or refuse it, remembered in
        ``refused``)."""
        from horde.cards.cardindex import open_index
        from horde.cards.oracle import grammar_version

        index = open_index(self.index_path) if self.index_path is not None else None
        indexed = index.lookup(name) if index is not None else None
        low = name_key(name)
        if index is None or indexed is None:
            self.refused[low] = self._unknown(name, index)
            return None
        if name_key(indexed.name) in self._lower:  # a face or split name of a card the files have
            return self.get(indexed.name)
        compiled = None
        if self.cache_key() == index.meta.get("compiled_with") and index.meta.get("grammar") == grammar_version():
            compiled = cached_compiled(index.compiled(indexed.name), self.tokens, self._lower)
        try:
            card, origin, tokens = compile_indexed(indexed, self.tokens, self.approximate, str(index.path),
                                                   self._lower, compiled)
        except DeckError as error:
            self.refused[low] = error
            return None
        for token in tokens:  # 111.4: the tokens its text creates, defined by that text
            self.add(token, str(index.path), 0, Origin("created", card.name))
        self.add(card, str(index.path), 0, origin)
        if low != name_key(card.name):
            self._lower[low] = card.name
        return card


def read_blocks(text: str, path: str, lenient: bool = False) -> list[_Block]:
    """Split a card file into blocks of fields and behaviour lines. ``lenient``: a line that can't
    be read marks its block (``_Block.error``) instead of stopping the file."""
    blocks: list[_Block] = []
    current: _Block | None = None
    section: _Block | None = None  # where the lines go: the card, or its last Face section
    recognised = False  # a known field or hook was read: the file is a card file, its lines may be quoted
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                current = None
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if key == "Name" and current is not None and "Name" in current.fields:
            current = None
        if current is None:
            current = section = _Block(path, number)
            blocks.append(current)
        assert section is not None
        try:
            if not recognised and (not sep or (key not in FIELDS and key not in HOOKS)):
                # Nothing yet says this is a card file: its content is not shown.
                raise DeckError("expected 'Field: value' lines of a card file (Name, Type, ...; docs/cards.md): this "
                                "line and the ones before it do not read as a card file", path, number)
            if not sep:
                raise DeckError(f"expected 'Field: value', got {quoted(line)}", path, number)
            value = value.strip()
            if key == "Face":  # a face of a card of two faces: the lines after it are the face's
                if not value:
                    raise DeckError("expected 'Face: NAME' (the face's name)", path, number)
                section = _Block(path, number, {"Name": (value, number)})
                current.faces.append(section)
            elif key == "Mana":  # one line for each mana ability (of the card, or of its face)
                section.mana.append((value, number))
                section.fields.setdefault(key, (value, number))
            elif key == "Typecycling" and key in section.fields:  # 'Mountaincycling {2}, forestcycling {2}'
                section.fields[key] = (_more_typecycling(section.fields[key][0], value, path, number),
                                       section.fields[key][1])
            elif key in FIELDS:
                if key in section.fields and key != "Text":
                    raise DeckError(f"field '{key}' given twice", path, number)
                section.fields[key] = (value, number)
            elif key in HOOKS:
                section.hooks.append((key, value, number))
            else:
                raise DeckError(f"unknown field or hook {quoted(key)}: expected one of "
                                f"{', '.join(sorted(FIELDS | set(HOOKS)))}", path, number)
            recognised = True
        except DeckError as error:
            if not lenient:
                raise
            current.error = current.error or error
    return blocks


def split_words(text: str) -> list[str]:
    """``shlex.split(text)``: words split at spaces, quotes and backslashes read as a shell does.
    Text with no quote or backslash is split directly (the same words, without shlex's
    character-by-character reading, which was most of the time of loading the catalogue)."""
    if _QUOTING.search(text) is None:
        return [word for word in _SHELL_SPACE.split(text) if word]
    return shlex.split(text)


def parse_effect(hook: str, text: str, path: str, line: int, card_name: str) -> list[Effect]:
    """Parse ``verb key=value ...`` (several joined by ' ; '), checking the verb and every argument."""
    effects = []
    cost = None
    if hook in LOYALTY_HOOKS:
        m = _LOYALTY_RE.fullmatch(text)
        if not m:
            raise DeckError(f"card '{card_name}': expected '{hook}: +N: verb ...' with the loyalty change",
                            path, line)
        if m.group(1).lstrip("+-\u2212").upper() == "X":
            raise DeckError(f"card '{card_name}': a loyalty ability with X in its cost ('{m.group(1)}'): a loyalty change "
                            "of X is beyond the vocabulary (the engine has no choice of X for loyalty abilities)",
                            path, line)
        cost = card_number(m.group(1), "loyalty change", path, line, card_name)
        text = m.group(2)
    costs: tuple[str | ManaCost, ...] = ()
    limit = ""
    if hook in ("Activated", "GraveyardActivated"):
        head, sep, text = text.partition("->")
        if not sep:
            raise DeckError(f"card '{card_name}': expected 'Activated: COSTS -> verb ...'", path, line)
        head, limit = _activation_limit(head, card_name, path, line)
        costs = _activation_costs(head, card_name, path, line)
        text = text.strip()
    for part in text.split(" ; "):
        try:
            words = split_words(part)
        except ValueError as error:
            raise DeckError(f"card '{card_name}': cannot read {quoted(part)}: {error}", path, line) from None
        if not words:
            raise DeckError(f"card '{card_name}': hook '{hook}' names no verb", path, line)
        name, rest = words[0], words[1:]
        verb = VERBS.get(name)
        if verb is None:
            close = difflib.get_close_matches(name, list(VERBS), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise DeckError(f"card '{card_name}': unknown verb {quoted(name)}{hint}", path, line)
        static_hook = hook in ("Static", "Equipped", "Enchanted")
        if verb.static != static_hook:
            kind = "a continuous (Static, Equipped or Enchanted)" if verb.static else "a one-shot"
            raise DeckError(f"card '{card_name}': '{name}' is {kind} verb and can't attach to '{hook}'", path, line)
        args: dict = {}
        when = None
        condition = None
        optional = False
        tax = None
        for word in rest:
            key, sep, value = word.partition("=")
            if not sep:
                raise DeckError(f"card '{card_name}': expected key=value, got {quoted(word)}", path, line)
            if key == "when" and hook in WHEN_HOOKS:
                when = _convert(card_name, "when", "filter", value, (), path, line)
                continue
            if key in ("if", "unless") and not static_hook:
                if condition is not None:
                    raise DeckError(f"card '{card_name}': one condition (if= or unless=) per verb", path, line)
                condition = _condition(card_name, key, value, path, line)
                continue
            if key == "may" and not static_hook:  # 'you may': a choice of its controller (rules.may)
                optional = _convert(card_name, "may", "bool", value, (), path, line)
                continue
            if key == "unless_pays" and not static_hook:  # 'unless that player pays {1}' (rules.pays_tax)
                tax = parse_cost(value, path, line)
                if tax.x:
                    raise DeckError(f"card '{card_name}': unless_pays={value}: a payment with X is beyond the "
                                    "vocabulary", path, line)
                continue
            spec = verb.args.get(key)
            if spec is None:
                raise DeckError(f"card '{card_name}': verb '{name}' takes no argument {quoted(key)} (it takes: "
                                f"{', '.join(verb.args) or 'nothing'})", path, line)
            args[key] = _convert(card_name, key, spec.kind, value, spec.choices, path, line)
        for key, spec in verb.args.items():
            if key not in args:
                if spec.required:
                    raise DeckError(f"card '{card_name}': verb '{name}' needs argument '{key}'", path, line)
                default = spec.default
                if spec.kind == "filter" and isinstance(default, str):
                    default = compile_filter(default)
                args[key] = default
        target = None
        if verb.targets is not None and args.get("on", "target") == "target":
            target = args.get(verb.targets)
            if target is None:
                raise DeckError(f"card '{card_name}': verb '{name}' on a target needs '{verb.targets}'", path, line)
        if args.get("who") in TARGET_PLAYERS:
            if target is not None:
                raise DeckError(f"card '{card_name}': verb '{name}' targets twice", path, line)
            target = TARGET_PLAYERS[args["who"]]  # 'target player', 'target opponent'
        effects.append(Effect(name, args, verb.run, cost, line, target, costs, when, condition, optional, tax, limit))
    return effects


# The target of a verb whose ``who`` is a target player: any team player or the Horde, or one
# of the other side (the Horde's 'target opponent' is a random team player: H9).
TARGET_PLAYERS = {"target_player": compile_filter("player"), "target_opponent": compile_filter("opponent"),
                  # 'target player (opponent) or planeswalker' (``damage_all`` only: H8's targets)
                  "target_player_or_planeswalker": compile_filter("player | planeswalker"),
                  "target_opponent_or_planeswalker": compile_filter("opponent | planeswalker")}

ACTIVATION_COSTS = ("tap", "sacrifice another creature", "sacrifice another zombie", "sacrifice this", "exile this",
                    "discard a card")  # and 'pay N life' (119.4)


def _activation_limit(head: str, card_name: str, path: str, line: int) -> tuple[str, str]:
    """An Activated line's costs and its 'Activate only ...' in parentheses after them (602.5b):
    '{1}{R} (once each turn)', '{T} (as a sorcery and once each turn)'."""
    head = head.strip()
    if not head.endswith(")"):
        return head, ""
    costs, sep, limit = head[:-1].rpartition("(")
    parts = [part.strip() for part in limit.split(" and ")]
    if not sep or not all(part in ACTIVATION_LIMITS for part in parts) or len(set(parts)) != len(parts):
        raise DeckError(f"card '{card_name}': activation limit {quoted('(' + limit + ')')} is beyond the vocabulary "
                        f"(expected some of: {', '.join(ACTIVATION_LIMITS)}, joined by 'and')", path, line)
    return costs.strip(), " and ".join(parts)


def _activation_costs(text: str, card_name: str, path: str, line: int) -> tuple[str | ManaCost, ...]:
    """Activation costs: "tap", a ManaCost (the Horde pays any mana: H7), 'sacrifice another creature'."""
    costs: list[str | ManaCost] = []
    for part in (p.strip() for p in text.split(",")):
        if part.upper() == "{T}":
            costs.append("tap")
        elif part.lower() in ACTIVATION_COSTS or re.fullmatch(r"pay [0-9]{1,3} life", part.lower()):
            costs.append(part.lower())
        elif part and re.fullmatch(r"(\{[^}]+\})+", part):
            costs.append(parse_cost(part, path, line))  # the Horde pays any mana (H7); the team pays it
        else:
            raise DeckError(f"card '{card_name}': activation cost {quoted(part)} is beyond the vocabulary "
                            f"(expected {{T}}, mana, {', '.join(ACTIVATION_COSTS[1:])}, or pay N life)", path, line)
    return tuple(costs)


# The mana a Mana line's unit may name besides colour letters, C and choices like W/U/B.
MANA_UNITS = {"any": ANY, "commander": IDENTITY, "opponents_lands": OPPONENTS_LANDS}
CHOSEN_UNIT = "chosen"  # the colour chosen as it entered (ChooseColor), alone or in a choice: R/chosen
# Its costs besides {T} and mana: pay N life, sacrifice this, remove N charge counters.
_MANA_COST = re.compile(r"pay ([0-9]{1,3}) life|sacrifice this|remove ([0-9]{1,2}) charge counters?|remove (x) storage counters")


def _mana_unit(word: str) -> frozenset[str]:
    """One mana of a Mana line: a colour letter, C, a choice (W/U/B), or a word of MANA_UNITS."""
    if word.lower() in MANA_UNITS:
        return frozenset({MANA_UNITS[word.lower()]})
    parts = word.split("/")
    chosen = frozenset({CHOSEN}) if CHOSEN_UNIT in (part.lower() for part in parts) else frozenset()
    colours = frozenset(part.upper() for part in parts if part.lower() != CHOSEN_UNIT)
    if chosen and colours <= set(COLOURS):
        return colours | chosen
    if not colours <= set(COLOURS) | {"C"}:
        raise ValueError(f"bad mana {quoted(word)}: expected W, U, B, R, G, C, a choice like W/U/B, any, commander, "
                         "opponents_lands or chosen (R/chosen)")
    return colours


def parse_mana_ability(text: str, card_name: str, path: str, line: int) -> ManaAbility:
    """A ``Mana:`` line: ``[COSTS ->] UNITS [count=AMOUNT] [damage=N] [gain=N] [stays_tapped=true] [if=CONDITION]``.
    Without costs it is ``{T}: Add UNITS``. COSTS: ``{T}``, mana symbols (``{1}``, ``{W/U}``),
    ``pay N life``, ``sacrifice this``, ``remove N charge counter(s)``. UNITS: one word for each
    mana: a colour letter, ``C``, a choice (``W/U``, ``W/U/B``), ``any`` (one mana of any colour),
    ``commander`` (of any colour in its controller's commander's colour identity: 903.4),
    ``opponents_lands`` (of any colour a land an opponent controls could produce). ``count``:
    the units are added that many times ('for each'); ``damage``: it deals that much damage to
    its controller (a pain land); ``gain``: its controller gains that much life; ``stays_tapped``:
    it doesn't untap during its controller's next untap step; ``spent``: what spending its mana on
    a spell does (``SPENT_RIDERS``: commander_counters, Opal Palace's; shared_type_scry, Path of
    Ancestry's); ``if``/``unless``: it may be activated only then ('Activate only if')."""
    head, sep, rest = text.partition("->")
    tap, cost, life, sacrifice, charge, storage = True, None, 0, False, 0, False
    if sep:
        tap = False
        for part in (p.strip() for p in head.split(",")):
            m = _MANA_COST.fullmatch(part.lower())
            if part.upper() == "{T}":
                tap = True
            elif m and m[1]:
                life = card_number(m[1], "life", path, line, card_name)
            elif m and m[2]:
                charge = card_number(m[2], "charge counters", path, line, card_name)
            elif m and m[3]:
                storage = True
            elif m:
                sacrifice = True
            elif part and re.fullmatch(r"(\{[^}]+\})+", part) and cost is None:
                cost = parse_cost(part, path, line)
                if cost.x or any(len(pip) > 1 and not (len(pip) == 3 and pip[0] in COLOURS and pip[2] in COLOURS)
                                 for pip in cost.pips):
                    raise DeckError(f"card '{card_name}': a mana ability's cost {quoted(part)} is beyond the "
                                    "vocabulary (mana symbols and hybrid ones, no X, two-brid or Phyrexian)", path, line)
            else:
                raise DeckError(f"card '{card_name}': mana ability cost {quoted(part)} is beyond the vocabulary "
                                "(expected {T}, mana, pay N life, sacrifice this, remove N charge counters, remove X "
                                "storage counters)", path, line)
        if not (tap or cost or life or sacrifice or charge or storage):
            raise DeckError(f"card '{card_name}': expected 'Mana: COSTS -> UNITS', got no cost", path, line)
    try:
        words = split_words(rest if sep else text)
    except ValueError as error:
        raise DeckError(f"card '{card_name}': cannot read 'Mana: {text}': {error}", path, line) from None
    units: list[frozenset[str]] = []
    args: dict[str, Any] = {}
    condition = None
    for word in words:
        key, eq, value = word.partition("=")
        if eq and key in ("if", "unless"):
            if condition is not None:
                raise DeckError(f"card '{card_name}': one condition (if= or unless=) per mana ability", path, line)
            condition = _condition(card_name, key, value, path, line, "mana ability ")
        elif eq and key == "count":
            args[key] = _convert(card_name, key, "amount", value, (), path, line)
        elif eq and key in ("damage", "gain"):
            args[key] = card_number(value, key, path, line, card_name)
        elif eq and key == "stays_tapped":
            args[key] = _convert(card_name, key, "bool", value, (), path, line)
        elif eq and key == "spent":
            args[key] = _convert(card_name, key, "choice", value, SPENT_RIDERS, path, line)
        elif eq:
            raise DeckError(f"card '{card_name}': a mana ability takes count=, damage=, gain=, stays_tapped=, spent=, "
                            "if= or unless=, "
                            f"got {quoted(word)}", path, line)
        else:
            try:
                units.append(_mana_unit(word))
            except ValueError as error:
                raise DeckError(f"card '{card_name}': {error}", path, line) from None
    if not units:
        raise DeckError(f"card '{card_name}': 'Mana: {text}' adds no mana", path, line)
    if storage and (len(units) != 1 or "count" in args):
        raise DeckError(f"card '{card_name}': 'remove X storage counters' makes one mana a counter: one unit, no "
                        "count=", path, line)
    return ManaAbility(tuple(units), tap=tap, cost=cost, life=life, sacrifice=sacrifice, charge=charge, storage=storage,
                       damage=args.get("damage", 0), gain=args.get("gain", 0), count=args.get("count"),
                       stays_tapped=args.get("stays_tapped", False),
                       condition=condition, spent=args.get("spent", ""), text=text)


def _convert(card_name: str, key: str, kind: str, value: str, choices: tuple[str, ...], path: str,
             line: int) -> Any:
    try:
        if kind == "int":
            return card_number(value, f"argument {key}", path, line, card_name)
        if kind == "amount":  # a number, or an expression whose every number is read by card_number
            return compile_amount(value, _numbers(key, path, line, card_name))
        if kind == "bool":
            if value.lower() in ("true", "yes", "1"):
                return True
            if value.lower() in ("false", "no", "0"):
                return False
            raise ValueError(f"expected true or false, got {quoted(value)}")
        if kind == "filter":
            return compile_filter(value)
        if kind == "cards":
            compile_filter(value)  # every term checked; the card terms are read by horde.engine.filters.card_matches
            return value
        if kind == "choice":
            if value not in choices:
                raise ValueError(f"expected one of {', '.join(choices)}, got {quoted(value)}")
            return value
        if kind == "mana":  # mana a verb adds, as a Mana line's units
            return tuple(_mana_unit(word) for word in value.split())
        if kind == "keywords":
            words = frozenset(w.strip().lower() for w in value.split(",") if w.strip())
            unknown = words - KEYWORDS
            if unknown:
                raise ValueError(f"unknown keyword {quoted(sorted(unknown)[0])}")
            return words
        if kind == "types":  # card types, as a type line writes them ('land', 'artifact creature')
            types = frozenset(w.capitalize() for w in value.replace(",", " ").split())
            unknown_types = sorted(types - CARD_TYPES)
            if not types or unknown_types:
                raise ValueError(f"expected card types ({', '.join(sorted(CARD_TYPES))}), got {quoted(value)}")
            return types
        if kind == "subtypes":  # subtypes, as a type line writes them ('forest', 'zombie')
            return frozenset(w.capitalize() for w in value.replace(",", " ").split())
        if kind == "colours":  # as the Colors field: 'colorless', letters or names
            return parse_colours(value, f"argument {key}", path, line, card_name)
        return value  # "str" and "token" (tokens are checked once all files are read)
    except ValueError as error:
        raise DeckError(f"card '{card_name}': argument {key}: {error}", path, line) from None


def _numbers(key: str, path: str, line: int, card_name: str) -> NumberReader:
    """How the numbers inside an amount or a condition of argument ``key`` are read: each by
    ``card_number``, within the argument's bounds."""
    return lambda text: card_number(text, f"argument {key}", path, line, card_name)


def _condition(card_name: str, key: str, value: str, path: str, line: int, where: str = "") -> Condition:
    """An ``if=`` or ``unless=`` condition (``key``), its numbers read by ``card_number``; a
    DeckError naming the card, ``where`` it is and what was expected."""
    try:
        return compile_condition(value, negate=(key == "unless"), number=_numbers(key, path, line, card_name))
    except ValueError as error:
        raise DeckError(f"card '{card_name}': {where}{key}: {error}", path, line) from None


def _from_graveyard(name: str, field: tuple[str, int], path: str) -> tuple[Any, Any]:
    """'CastFromGraveyard:' (the card may be cast from its owner's graveyard), with ``extra=AMOUNT``
    (generic mana more: Risen Executioner) and ``if=CONDITION`` (Gravecrawler's 'as long as you
    control a Zombie')."""
    text, line = field
    extra = condition = None
    try:
        words = split_words(text)
    except ValueError as error:
        raise DeckError(f"card '{name}': cannot read 'CastFromGraveyard: {quoted(text)[1:-1]}': {error}", path,
                        line) from None
    for word in words:
        key, sep, value = word.partition("=")
        if key == "extra" and sep:
            extra = _convert(name, "extra", "amount", value, (), path, line)
        elif key in ("if", "unless") and sep:
            condition = _condition(name, key, value, path, line, "CastFromGraveyard ")
        else:
            raise DeckError(f"card '{name}': 'CastFromGraveyard:' takes extra=AMOUNT and if=CONDITION, got "
                            f"{quoted(word)}", path, line)
    return extra, condition


def _one_target(hook: str, effects: list[Effect], name: str, path: str) -> list[Effect]:
    """An ability has one target (modes, activated and loyalty abilities: one per line): a later
    verb about the same target player ('target player draws two cards and loses 2 life') uses
    the target the first chose, and any other second target is beyond the vocabulary."""
    grouped = hook in LOYALTY_HOOKS + ("Mode", "Activated", "GraveyardActivated")
    first: dict[int, Effect] = {}
    out = []
    for effect in effects:
        key = effect.line if grouped else 0
        if effect.target is not None:
            earlier = first.get(key)
            if earlier is None:
                first[key] = effect
            elif earlier.target is effect.target and effect.target in TARGET_PLAYERS.values():
                effect = dataclasses.replace(effect, target=None)  # the same player, chosen once
            else:
                raise DeckError(f"card '{name}': two targeted effects on '{hook}' are beyond the vocabulary", path,
                                effect.line)
        out.append(effect)
    return out


def _pt_side(text: str, name: str, pt: str, path: str, line: int) -> tuple[int, bool]:
    """One side of a PT line: a number, or a * (208.2) alone or with a number added (``1+*``,
    ``*+1``): (the number, whether a * is there)."""
    text = text.strip()
    if "*" not in text:
        return card_number(text, "PT", path, line, name), False
    m = re.fullmatch(r"\*|([0-9]{1,4})\s*\+\s*\*|\*\s*\+\s*([0-9]{1,4})", text)
    if not m:
        raise DeckError(f"card '{name}': bad PT {quoted(pt)}: a * side is *, N+* or *+N (208.2)", path, line)
    added = m[1] or m[2]
    return (card_number(added, "PT", path, line, name) if added else 0), True


def _characteristic_defining(name: str, types: frozenset[str], starred: tuple[bool, bool], statics: list[Effect],
                             f: dict[str, tuple[str, int]], path: str) -> tuple[Any, Any]:
    """The amounts of a creature's characteristic-defining ability (604.3, ``Static: pt_equals``)
    for its * power and * toughness: ``amount=`` both, ``power=`` and ``toughness=`` each; every
    * side needs one, and a side printed as a number has none."""
    found = [e for e in statics if e.verb == "pt_equals"]
    if len(found) > 1:
        raise DeckError(f"card '{name}' has two 'Static: pt_equals' lines: one gives both sides", path, found[1].line)
    if not found:
        if any(starred):
            raise DeckError(f"creature '{name}' has a * in its PT but no 'Static: pt_equals amount=...' (or power=, "
                            "toughness=: its characteristic-defining ability, 604.3)", path, f["PT"][1])
        return None, None
    args, line = found[0].args, found[0].line
    if "Creature" not in types:
        raise DeckError(f"card '{name}': pt_equals is a creature's characteristic-defining ability", path, line)
    if args["amount"] is not None and (args["power"] is not None or args["toughness"] is not None):
        raise DeckError(f"card '{name}': pt_equals takes amount= (both sides) or power= and toughness=, not both",
                        path, line)
    power = args["power"] if args["amount"] is None else args["amount"]
    toughness = args["toughness"] if args["amount"] is None else args["amount"]
    for side, amount, star in (("power", power, starred[0]), ("toughness", toughness, starred[1])):
        if star and amount is None:
            raise DeckError(f"card '{name}': its {side} is printed with a * but pt_equals gives no {side} (write "
                            f"{side}=AMOUNT, or amount= for both)", path, line)
        if amount is not None and not star:
            raise DeckError(f"card '{name}': pt_equals gives its {side}, but its PT {quoted(f['PT'][0])} prints that "
                            "side as a number (a characteristic-defining ability sets a * side: 604.3)", path, line)
    return power, toughness


def build_card(block: _Block) -> CardDef:
    """Turn one block into a checked CardDef (a card of two faces with its ``Face:`` sections)."""
    if not block.faces and "Layout" not in block.fields:
        return _build_one(block)
    return _build_faced(block)


def _build_faced(block: _Block) -> CardDef:
    """A card of two faces: ``Layout:`` and its ``Face:`` sections, each face a card of its own.
    A split (aftermath) card's own lines hold only its name (``A // B``), its layout and its text:
    its characteristics are its halves' combined (709.4); any other layout's own lines are its
    front face, and its one ``Face:`` is the back (the Adventure, 715)."""
    f = block.fields
    path = block.path
    name, name_line = f.get("Name", ("", block.line))
    layout, layout_line = f.get("Layout", ("", block.line))
    if layout not in LAYOUTS:
        raise DeckError(f"card '{name}': 'Layout: {quoted(layout)[1:-1]}' is not a layout of two faces: expected one "
                        f"of {', '.join(LAYOUTS)}", path, layout_line)
    faces = [_build_one(face) for face in block.faces]  # a Face: section holds no Face: of its own
    halves = layout in ("split", "aftermath")
    wanted = 2 if halves else 1
    if len(faces) != wanted:
        raise DeckError(f"card '{name}': a card of layout {layout} has {wanted} 'Face:' section"
                        f"{'s' if wanted > 1 else ''}, not {len(faces)}", path, layout_line)
    for face in faces:
        if "aftermath" in face.keywords and (not halves or face is faces[0]):
            raise DeckError(f"card '{name}': only a split card's second half has aftermath (702.127)", path,
                            layout_line)
        if "fuse" in face.keywords and not halves:
            raise DeckError(f"card '{name}': only a split card's halves have fuse (702.102)", path, layout_line)
    if not halves:
        front = _build_one(block, layout, tuple(faces))
        if layout == "adventure" and not (front.is_creature and {"Instant", "Sorcery"} & faces[0].types):
            raise DeckError(f"card '{name}': an adventure card is a creature whose Face is an instant or sorcery "
                            "(715.2)", path, layout_line)
        return front
    extra = sorted(set(f) - {"Name", "Layout", "Text"})
    if extra:
        raise DeckError(f"card '{name}': a split card's facts are its halves' (709.4): field '{extra[0]}' goes in a "
                        "'Face:' section", path, f[extra[0]][1])
    if block.hooks:
        raise DeckError(f"card '{name}': a split card's abilities are its halves': '{block.hooks[0][0]}' goes in a "
                        "'Face:' section", path, block.hooks[0][2])
    left, right = faces
    if not name:
        raise DeckError("card block has no 'Name:' line", path, block.line)
    for face in faces:
        if face.is_permanent:
            raise DeckError(f"card '{name}': a split card's halves are instants or sorceries here", path, layout_line)
    both = _combined(name, left, right, f.get("Text", (f"{left.text} // {right.text}", 0))[0],
                     f"{path}:{name_line}")
    fused: tuple[CardDef, ...] = ()
    if "fuse" in left.keywords and "fuse" in right.keywords:  # 702.102: both halves cast together from hand
        fused = (dataclasses.replace(both, layout="fused", hooks={"Cast": left.hooks.get("Cast", ())
                                                                  + right.hooks.get("Cast", ())}),)
    return dataclasses.replace(both, layout=layout, faces=(left, right) + fused)


def _combined(name: str, left: CardDef, right: CardDef, text: str, source: str) -> CardDef:
    """A split card outside the stack (709.4): both halves' characteristics combined, no ability."""
    cost = ManaCost(left.cost.generic + right.cost.generic, left.cost.pips + right.cost.pips,
                    left.cost.x or right.cost.x)
    return CardDef(name=name, cost=cost, types=left.types | right.types, subtypes=left.subtypes | right.subtypes,
                   supertypes=left.supertypes | right.supertypes, keywords=left.keywords | right.keywords,
                   colours=left.colours | right.colours, identity=left.identity | right.identity, text=text,
                   source=source)


def _build_one(block: _Block, layout: str = "", faces: tuple[CardDef, ...] = ()) -> CardDef:
    """Turn one block (or a card's front face, with its other ``faces``) into a checked CardDef."""
    f = block.fields
    path = block.path
    if "Name" not in f:
        raise DeckError("card block has no 'Name:' line", path, block.line)
    name, line = f["Name"]
    if not name:
        raise DeckError("empty card name", path, line)
    if len(name) > CARD_NAME_MAX:
        raise DeckError(f"a card name of {len(name):,} characters, {quoted(name)}: a card name has at most "
                        f"{CARD_NAME_MAX} (docs/limits.md)", path, line)
    if len(f.get("Text", ("", 0))[0]) > CARD_TEXT_MAX:
        raise DeckError(f"card '{name}': its Text has {len(f['Text'][0]):,} characters; a card's text has at most "
                        f"{CARD_TEXT_MAX:,} (docs/limits.md)", path, f["Text"][1])
    type_text, type_line = f.get("Type", ("", block.line))
    if not type_text:
        raise DeckError(f"card '{name}' has no 'Type:' line", path, block.line)
    left, _, right = type_text.replace(" - ", " — ").partition("—")
    words = left.split()
    supertypes = frozenset(w for w in words if w in SUPERTYPES)
    types = frozenset("Kindred" if w == "Tribal" else w for w in words if w in CARD_TYPES)
    unknown = [w for w in words if w not in SUPERTYPES and w not in CARD_TYPES]
    if unknown or not types:
        raise DeckError(f"card '{name}': bad type line {quoted(type_text)}: expected supertypes and types such as "
                        f"'Legendary Creature — Zombie'", path, type_line)
    subtypes = frozenset(right.split())
    cost = parse_cost(f.get("Cost", ("", 0))[0], path, f.get("Cost", ("", block.line))[1])
    power = toughness = None
    starred = (False, False)  # which sides are printed with a * (208.2: a characteristic-defining ability's)
    if "Creature" in types:
        if "PT" not in f:
            raise DeckError(f"creature '{name}' has no 'PT:' line", path, block.line)
        text, pt_line = f["PT"]
        m = re.fullmatch(r"([^/]*)/([^/]*)", text)
        if not m:
            raise DeckError(f"card '{name}': bad PT {quoted(text)}: expected like 2/2, */* or */1+*", path, pt_line)
        sides = [_pt_side(v, name, text, path, pt_line) for v in m.groups()]
        (power, power_star), (toughness, toughness_star) = sides
        starred = (power_star, toughness_star)
    loyalty = None
    if "Loyalty" in f:
        text, loyalty_line = f["Loyalty"]
        loyalty = card_number(text, "Loyalty", path, loyalty_line, name)
    keywords: frozenset[str] = frozenset()
    if "Keywords" in f:
        text, kw_line = f["Keywords"]
        keywords = frozenset(k.strip().lower() for k in text.split(",") if k.strip())
        unknown_kw = sorted(keywords - KEYWORDS)
        if unknown_kw:
            raise DeckError(f"card '{name}': unknown keyword {quoted(unknown_kw[0])} (known: {', '.join(sorted(KEYWORDS))})",
                            path, kw_line)
    mana_abilities = tuple(parse_mana_ability(text, name, path, mana_line) for text, mana_line in block.mana)
    colours = cost.colours  # 202.2: a hybrid or Phyrexian symbol is each of its colours
    if "Colors" in f:
        colours = parse_colours(f["Colors"][0], "Colors", path, f["Colors"][1], name)
    equip = parse_cost(f["Equip"][0], path, f["Equip"][1]) if "Equip" in f else None
    flashback = parse_cost(f["Flashback"][0], path, f["Flashback"][1]) if "Flashback" in f else None
    if "Kicker" in f and "Multikicker" in f:
        raise DeckError(f"card '{name}' has both 'Kicker:' and 'Multikicker:'", path, f["Multikicker"][1])
    kick_field = "Multikicker" if "Multikicker" in f else "Kicker"
    kicker = parse_cost(f[kick_field][0], path, f[kick_field][1]) if kick_field in f else None
    # CR 903.4: the colour identity holds the colours of the mana symbols of its mana cost and its
    # rules text (its mana, equip, flashback and kicker costs), whatever its colour (a Colors line).
    identity = colours | cost.colours \
        | frozenset(c for a in mana_abilities for unit in a.units for c in unit if c in COLOURS) \
        | frozenset(c for a in mana_abilities if a.cost is not None for c in a.cost.colours)
    more = _keyword_costs(f, path, name)
    for text_cost in (equip, flashback, kicker, *more.pop("_costs")):
        if text_cost is not None:
            identity |= text_cost.colours
    for other in faces:
        identity |= other.identity  # 903.4: a card's colour identity holds both faces' colours
    if "Identity" in f:
        identity = identity | parse_colours(f["Identity"][0], "Identity", path, f["Identity"][1], name)
    horde_x = card_number(f["HordeX"][0], "HordeX", path, f["HordeX"][1], name) if "HordeX" in f else 3
    enters_tapped, enters_pay_life = None, 0
    if "EntersTapped" in f:  # 614.1c: "~ enters tapped unless you control a Swamp or a Mountain"
        text, tapped_line = f["EntersTapped"]
        key, sep, value = text.partition("=")
        if sep and key == "pay_life":  # 614.12: "As ~ enters, you may pay 2 life. If you don't, it enters tapped"
            enters_pay_life = card_number(value, "pay_life", path, tapped_line, name)
        elif not sep or key not in ("if", "unless"):
            raise DeckError(f"card '{name}': expected 'EntersTapped: if=CONDITION', 'unless=CONDITION' or "
                            f"'pay_life=N', got {quoted(text)}", path, tapped_line)
        else:
            enters_tapped = _condition(name, key, value.strip().strip('"'), path, tapped_line, "EntersTapped ")
    choose_colour: frozenset[str] = frozenset()
    if "ChooseColor" in f:  # 'As ~ enters, choose a color [other than red]' (614.12)
        text, choose_line = f["ChooseColor"]
        choose_colour = frozenset(COLOURS) if text.strip().lower() == "any" else frozenset(text.strip().upper().split("/"))
        if not choose_colour or not choose_colour <= set(COLOURS):
            raise DeckError(f"card '{name}': expected 'ChooseColor: any' or colours like W/U/B/G, got {quoted(text)}",
                            path, choose_line)
    if any(CHOSEN in unit for a in mana_abilities for unit in a.units) and not choose_colour:
        raise DeckError(f"card '{name}': a mana of the chosen colour needs a 'ChooseColor:' line", path,
                        block.mana[0][1])
    hooks: dict[str, list[Effect]] = {}
    for hook, text, hook_line in block.hooks:
        hooks.setdefault(hook, []).extend(parse_effect(hook, text, path, hook_line, name))
    for hook, effects in hooks.items():
        hooks[hook] = effects = _one_target(hook, effects, name, path)
        if hook == "Equipped" and "Equipment" not in subtypes:
            raise DeckError(f"card '{name}': only Equipment has 'Equipped' effects", path, effects[0].line)
        if hook == "Enchanted" and "Aura" not in subtypes:
            raise DeckError(f"card '{name}': only an Aura has 'Enchanted' effects", path, effects[0].line)
        if hook in ("Cast", "Mode") and not ({"Instant", "Sorcery"} & types):
            raise DeckError(f"card '{name}': only instants and sorceries have 'Cast' effects (use Enters)",
                            path, effects[0].line)
    for hook, effects in hooks.items():
        # H10: a spell is countered as it is cast, by a counterspell cast then (the rest of its
        # effects resolve after: Exclude's draw); no spell waits on a stack for another ability.
        counter = next((e for e in effects if e.verb == "counter_spell"), None)
        if counter is not None and (hook != "Cast" or counter.optional or counter is not effects[0]):
            raise DeckError(f"card '{name}': counter_spell is an instant's first 'Cast' effect, not optional (H10: "
                            "the team counters a Horde spell as it is cast; no spell waits on a stack for a "
                            "triggered or activated ability)", path, counter.line)
    if "Mode" in hooks and ("Cast" in hooks or len({e.line for e in hooks["Mode"]}) < 2):
        raise DeckError(f"card '{name}': a modal spell has two or more 'Mode:' lines and no 'Cast:' line",
                        path, block.line)
    choose = (1, 1)
    if "Choose" in f:
        text, choose_line = f["Choose"]
        if text.lower() not in CHOOSE:
            raise DeckError(f"card '{name}': bad 'Choose: {quoted(text)[1:-1]}': expected one of {', '.join(CHOOSE)}",
                            path, choose_line)
        choose = CHOOSE[text.lower()]
        modes = len({e.line for e in hooks.get("Mode", [])})
        if "Mode" not in hooks or choose[0] > modes:
            raise DeckError(f"card '{name}': 'Choose: {text}' needs that many 'Mode:' lines", path, choose_line)
    if "Equipment" in subtypes and equip is None:
        raise DeckError(f"equipment '{name}' has no 'Equip:' cost", path, block.line)
    enchant = None
    if "Enchant" in f:
        text, enchant_line = f["Enchant"]
        if "Aura" not in subtypes:
            raise DeckError(f"card '{name}': only an Aura has 'Enchant:'", path, enchant_line)
        # 'Enchant creature card in a graveyard' (Animate Dead): graveyard:FILTER, the card its Enters returns
        zone = "graveyard" if text.lower().startswith("graveyard:") else "battlefield"
        flt = _convert(name, "Enchant", "filter", text.partition(":")[2] if zone == "graveyard" else text, (), path,
                       enchant_line)
        enchant = Effect("enchant", {"target": flt, "zone": zone}, None, line=enchant_line, target=flt)
    elif "Aura" in subtypes:
        raise DeckError(f"aura '{name}' has no 'Enchant:' line (creature, permanent, player, ...)", path, block.line)
    if "Planeswalker" in types and loyalty is None:
        raise DeckError(f"planeswalker '{name}' has no 'Loyalty:' line", path, block.line)
    statics = hooks.get("Static", [])
    anthems = tuple(e for e in statics if e.verb == "anthem")
    static_flags = frozenset(e.verb for e in statics if e.verb not in ("anthem", "pt_equals"))
    points: dict[str, tuple[Effect, ...]] = {}
    for e in statics:
        at = VERBS[e.verb].at
        if at is not None:
            points[at] = points.get(at, ()) + (e,)
    power_amount, toughness_amount = _characteristic_defining(name, types, starred, statics, f, path)
    cast = hooks.get("Cast", [])
    counters = next((e for e in cast if e.verb == "counter_spell"), None)
    overload = None
    if "Overload" in f:
        text, overload_line = f["Overload"]
        if not cast or not any(e.target is not None for e in cast):
            raise DeckError(f"card '{name}': 'Overload:' needs a 'Cast:' effect with a target (702.96: overloaded, "
                            "'target' becomes 'each')", path, overload_line)
        overload = parse_cost(text, path, overload_line)
    costs_less = None
    if "CostsLess" in f:
        text, less_line = f["CostsLess"]
        costs_less = _convert(name, "CostsLess", "amount", text, (), path, less_line)
    return CardDef(
        name=name, cost=cost, types=types, subtypes=subtypes, supertypes=supertypes, power=power,
        toughness=toughness, loyalty=loyalty, keywords=keywords, colours=colours, identity=identity,
        hooks={k: tuple(v) for k, v in hooks.items()}, mana_abilities=mana_abilities, equip=equip, flashback=flashback,
        horde_x=horde_x, text=f.get("Text", ("", 0))[0], source=f"{path}:{block.line}", anthems=anthems,
        equipped=tuple(e for e in hooks.get("Equipped", []) + hooks.get("Enchanted", []) if e.verb == "anthem"),
        enchant=enchant, kicker=kicker, multikicker="Multikicker" in f, choose=choose,
        cycling=parse_cost(f["Cycling"][0], path, f["Cycling"][1]) if "Cycling" in f else more.pop("cycling", None),
        unearth=parse_cost(f["Unearth"][0], path, f["Unearth"][1]) if "Unearth" in f else None,
        from_graveyard=_from_graveyard(name, f["CastFromGraveyard"], path) if "CastFromGraveyard" in f else None, static_flags=static_flags, points=points,
        power_amount=power_amount, toughness_amount=toughness_amount, counters=counters,
        is_fog=any(e.verb == "fog" for e in cast), enters_tapped=enters_tapped, overload=overload,
        costs_less=costs_less, layout=layout, faces=faces, enters_pay_life=enters_pay_life,
        choose_colour=choose_colour, **more)


def _more_typecycling(before: str, value: str, path: str, line: int) -> str:
    """A second ``Typecycling:`` line of one cost: one search for a card of either kind (702.29e:
    each is an ability of its own; with one cost, the player searches for what either finds)."""
    cost, _, finds = before.strip().partition(" ")
    more_cost, _, more_finds = value.strip().partition(" ")
    if more_cost != cost or not more_finds.strip():
        raise DeckError(f"a second 'Typecycling: {value}': expected the same cost as the first ({cost}) and the card "
                        "it finds", path, line)
    return f"{cost} {finds.strip()} | {more_finds.strip()}"


def _keyword_costs(f: dict[str, tuple[str, int]], path: str, name: str) -> dict[str, Any]:
    """The fields of keywords with a cost (702): ``Evoke``, ``Dash``, ``Buyback``, ``Echo`` (a mana
    cost each), ``Typecycling: {1} basic land`` (a cost and the card terms it finds: 702.29e-f),
    ``Suspend: 4 {1}{R}`` (time counters and a cost: 702.62), as CardDef arguments; ``_costs``
    lists the costs, whose colours join the colour identity (903.4)."""
    found: dict[str, Any] = {}
    for key in ("Evoke", "Dash", "Buyback", "Echo"):
        if key in f:
            found[key.lower()] = parse_cost(f[key][0], path, f[key][1])
    costs = list(found.values())
    if "Typecycling" in f:
        text, line = f["Typecycling"]
        cost, _, finds = text.strip().partition(" ")
        if not finds.strip() or "Cycling" in f:
            raise DeckError(f"card '{name}': 'Typecycling: {text}': expected a cost and the card it finds, "
                            "'{1} basic land' or '{2} plains' (and no 'Cycling:' beside it)", path, line)
        found["cycling"] = parse_cost(cost, path, line)
        found["cycling_finds"] = _convert(name, "Typecycling", "cards", finds.strip(), (), path, line)
        costs.append(found["cycling"])
    if "Suspend" in f:
        text, line = f["Suspend"]
        count, _, cost = text.strip().partition(" ")
        time = card_number(count, "count", path, line, name)
        if time < 1:
            raise DeckError(f"card '{name}': 'Suspend: {text}': expected a number of time counters, at least 1, "
                            "and a cost: 'Suspend: 4 {1}{R}'", path, line)
        found["suspend"] = (time, parse_cost(cost, path, line), "Cost" in f)
        costs.append(found["suspend"][1])
    found["_costs"] = costs
    return found


# ---------------------------------------------------------------- compiled cards


def facts_of(card: CardDef) -> Facts:
    """The compiler's view of a card's printed facts (``horde.cards.oracle.Facts``)."""
    from horde.cards.oracle import Facts

    return Facts(card.name, card.types, card.subtypes, card.supertypes, card.colours,
                 pt_star=card.pt_amount is not None, x_cost=card.cost.x)


def pt_text(card: CardDef) -> str:
    """A creature's power and toughness as printed: ``2/2``, ``*/*``, ``*/4``, ``*/1+*`` (208.2)."""
    def side(value: int | None, amount: Any) -> str:
        if amount is None:
            return str(value)
        return f"{value}+*" if value else "*"

    return f"{side(card.power, card.power_amount)}/{side(card.toughness, card.toughness_amount)}"


def fact_lines(card: CardDef) -> list[str]:
    """The printed facts of a card as card-file lines (Name, Cost, Type, PT, Loyalty, Colors)."""
    lines = [f"Name: {card.name}"]
    if card.cost.value or card.cost.x or card.cost.pips:
        lines.append(f"Cost: {card.cost}")
    lines.append(f"Type: {card.type_line()}")
    if card.is_creature:
        lines.append(f"PT: {pt_text(card)}")
    if card.loyalty is not None:
        lines.append(f"Loyalty: {card.loyalty}")
    if card.colours != card.cost.colours:
        lines.append(f"Colors: {''.join(c for c in COLOURS if c in card.colours)}")
    return lines


def build_from_lines(lines: list[str], source: str) -> CardDef:
    """A CardDef from card-file lines, through the same loader as a card file (``source`` names it)."""
    blocks = read_blocks("\n".join(lines), source)
    if len(blocks) != 1:
        raise DeckError("expected one card", source)
    return build_card(blocks[0])


def recompile(card: CardDef, tokens: Mapping[str, CardDef]) -> tuple[CardDef | None, list[str]]:
    """Compile a catalogue card's own ``Text:`` with its printed facts: (the compiled CardDef, or
    None with the sentences the compiler could not read)."""
    from horde.cards.oracle import compile_text

    compiled = compile_text(card.text, facts_of(card), tokens)
    if not compiled.ok:
        return None, compiled.unread
    lines = fact_lines(card) + compiled.lines
    try:
        return build_from_lines(lines, f"compiled:{card.name}"), []
    except DeckError as error:
        return None, [error.message]


QUOTE_MAX = 100


def shown(sentence: str) -> str:
    """A sentence quoted in a message, cut short when very long."""
    sentence = " ".join(sentence.split())
    return repr(sentence if len(sentence) <= QUOTE_MAX else sentence[: QUOTE_MAX - 3] + "...")


def index_fact_lines(indexed: IndexedCard) -> list[str]:
    """The printed facts of an index card (``horde.cards.cardindex.IndexedCard``) as card-file lines."""
    lines = [f"Name: {indexed.name}"]
    if indexed.mana_cost:
        lines.append(f"Cost: {indexed.mana_cost}")
    lines.append(f"Type: {indexed.type}")
    if "Creature" in indexed.types:
        lines.append(f"PT: {indexed.power}/{indexed.toughness}")
    if indexed.loyalty is not None:
        lines.append(f"Loyalty: {indexed.loyalty}")
    lines.append(f"Colors: {''.join(c for c in COLOURS if c in indexed.colors)}")
    identity = "".join(c for c in COLOURS if c in indexed.color_identity)
    if identity:
        lines.append(f"Identity: {identity}")
    if indexed.text:
        lines.append("Text: " + " ".join(indexed.text.split()))
    return lines


def face_fact_lines(face: Mapping[str, Any]) -> list[str]:
    """The printed facts of one face of an index card (``IndexedCard.faces``) as card-file lines,
    without its name (a ``Face:`` line or the card's own gives it)."""
    lines = [f"Cost: {face['manaCost']}"] if face.get("manaCost") else []
    lines.append(f"Type: {face.get('type', '')}")
    if "Creature" in face.get("types", ()):
        lines.append(f"PT: {face.get('power')}/{face.get('toughness')}")
    if face.get("loyalty") is not None:
        lines.append(f"Loyalty: {face['loyalty']}")
    lines.append(f"Colors: {''.join(c for c in COLOURS if c in face.get('colors', ()))}")
    if face.get("text"):
        lines.append("Text: " + " ".join(face["text"].split()))
    return lines


def compile_indexed(indexed: IndexedCard, tokens: Mapping[str, CardDef], approximate: bool, where: str,
                    taken: Container[str] = (), compiled: list[Compiled] | None = None
                    ) -> tuple[CardDef, Origin, tuple[CardDef, ...]]:
    """The CardDef of an index card: its facts and its compiled text, through the card-file loader,
    with the new token cards its text creates (``compile_text``: none of ``tokens`` has exactly
    their facts; each named apart from ``tokens`` and ``taken``, the catalogue's names in lower
    case), for the caller to add to its catalogue.
    A card of two faces that plays every face (split, aftermath, adventure, modal double-faced:
    ``IndexedCard.faces``) has each face's text compiled by the face's own name, and its faces
    joined as a card file joins them (``Layout:``, ``Face:``).
    A card is compiled (exact) when the compiler read every ability of every face it plays and no
    face is left unplayed; else it is refused (DeckError quoting each sentence not read), unless
    ``approximate``: then it plays by its facts and the abilities the compiler did read, and
    ``Origin.dropped`` lists every ability left out (a face's with the face's name) and the face
    not played. Its keywords are those its own text says, never MTGJSON's ``keywords`` list,
    which also names keywords a card only grants or mentions. ``compiled``: its text compiled
    already, one ``Compiled`` for each face it plays (the index's, made at import:
    ``cached_compiled``), else it is compiled here (``compile_card``)."""
    name = indexed.name
    if indexed.refused:
        raise DeckError(f"card '{name}' (index) is refused: {indexed.refused}")
    faces = played_faces(indexed)
    if compiled is None or len(compiled) != len(faces):  # never a face left out: compiled again
        compiled = compile_card(indexed, tokens, taken)
    several = len(faces) > 1
    lines: list[str] = []
    dropped: list[str] = []
    unread: list[str] = []
    made: tuple[CardDef, ...] = ()
    read = False
    for i, (face, text) in enumerate(zip(faces, compiled, strict=True)):
        face_name = face.get("faceName") or name
        made += tuple(text.tokens.values())
        suffix = f" [{face_name}]" if several else ""  # which face the sentence is of
        dropped += [s.replace("~", face_name) + suffix for s in text.dropped]
        unread += [s + suffix for s in text.unread]
        read = read or bool(text.lines)
        if "Creature" in face.get("types", ()) and not all(re.fullmatch(r"-?\d+", str(face.get(v)))
                                                           for v in ("power", "toughness")) \
                and not any(line.startswith("Static: pt_equals") for line in text.lines):
            if approximate:
                raise DeckError(f"card '{name}' (compiler) is refused even approximated: its power and "
                                f"toughness ({face.get('power')}/{face.get('toughness')}) are not known without "
                                f"its text{suffix}")
        if not several:
            lines = index_fact_lines(indexed) + text.lines
        elif indexed.layout in ("split", "aftermath"):
            if i == 0:
                lines = [f"Name: {name}", f"Layout: {indexed.layout}",
                         "Text: " + " // ".join(" ".join((f.get("text") or "").split()) for f in faces)]
            lines += [f"Face: {face_name}"] + face_fact_lines(face) + text.lines
        elif i == 0:
            lines = [f"Name: {name}"] + face_fact_lines(face) + text.lines + [f"Layout: {indexed.layout}"]
        else:
            lines += [f"Face: {face_name}"] + face_fact_lines(face) + text.lines
    if several:
        identity = "".join(c for c in COLOURS if c in indexed.color_identity)
        if identity:  # 903.4: the symbols of either face's text too
            lines.insert(lines.index(next(line for line in lines if line.startswith("Face: "))) + 1,
                         f"Identity: {identity}")
    source = f"index:{name}"
    note = indexed.note
    dropped += [f"({note})"] if note else []
    if not dropped:
        try:
            return build_from_lines(lines, source), Origin("compiled", where, note=note), made
        except DeckError as error:
            raise DeckError(f"card '{name}' (index) is refused: {error.message}") from None
    if not approximate:
        reasons = [f"not understood: {'; '.join(shown(s) for s in unread)}"] if unread else []
        reasons += [note] if note else []
        raise DeckError(f"card '{name}' ({'compiler' if unread else 'index'}) is refused: "
                        f"{'; '.join(reasons)} (write it in a card file given with --cards, or play it "
                        "approximated with --approximate)")
    try:
        card = build_from_lines(lines, source)
    except DeckError as error:
        raise DeckError(f"card '{name}' (compiler) is refused even approximated: {error.message}") from None
    return card, Origin("approximated", where, tuple(dropped), note, blank=not read), made


def played_faces(indexed: IndexedCard) -> list[Mapping[str, Any]]:
    """The faces of an index card that it plays, each with its facts and text: a card of two faces
    (split, aftermath, adventure, modal double-faced: ``IndexedCard.faces``) both, front first;
    any other card its own facts (a transform or flip card's front face)."""
    if indexed.faces:
        return list(indexed.faces)
    return [{"faceName": indexed.name, "manaCost": indexed.mana_cost, "type": indexed.type,
             "supertypes": indexed.supertypes, "types": indexed.types, "subtypes": indexed.subtypes,
             "power": indexed.power, "toughness": indexed.toughness, "loyalty": indexed.loyalty,
             "colors": indexed.colors, "text": indexed.text}]


def face_facts(face: Mapping[str, Any], name: str) -> Facts:
    """The compiler's view of one face's printed facts (``played_faces``), read by the face's name."""
    from horde.cards.oracle import Facts

    return Facts(face.get("faceName") or name, frozenset(face.get("types", ())), frozenset(face.get("subtypes", ())),
                 frozenset(face.get("supertypes", ())), frozenset(face.get("colors", ())),
                 pt_star="*" in f"{face.get('power')}{face.get('toughness')}",  # a * side: a CDA (604.3)
                 x_cost="{X}" in (face.get("manaCost") or ""))


def compile_card(indexed: IndexedCard, tokens: Mapping[str, CardDef], taken: Container[str] = ()) -> list[Compiled]:
    """An index card's text compiled (``horde.cards.oracle.compile_text``), one ``Compiled`` for
    each face it plays (``played_faces``), each face's by its own name; a token an earlier face
    creates is known to the later ones."""
    from horde.cards.oracle import compile_text

    out: list[Compiled] = []
    made: dict[str, CardDef] = {}
    for face in played_faces(indexed):
        compiled = compile_text(face.get("text") or "", face_facts(face, indexed.name), {**tokens, **made}, taken)
        made.update(compiled.tokens)
        out.append(compiled)
    return out


# ---------------------------------------------------------------- texts compiled at import
def token_lines(card: CardDef) -> list[str]:
    """A token card (one a text creates) as card-file lines: its facts, keywords, mana, text."""
    lines = [f"Name: {card.name}", f"Type: {card.type_line()}"]
    if card.is_creature:
        lines.append(f"PT: {card.power}/{card.toughness}")
    lines.append(f"Colors: {''.join(c for c in COLOURS if c in card.colours) or 'colorless'}")
    if card.keywords:
        lines.append("Keywords: " + ", ".join(sorted(card.keywords)))
    if card.mana:
        lines.append("Mana: " + " ".join("any" if unit == frozenset("*") else "/".join(sorted(unit))
                                         for unit in card.mana))
    if card.text:
        lines.append(f"Text: {card.text}")
    return lines


def compiled_with(written: Mapping[str, CardDef]) -> str:
    """A digest of what a compiled text depends on besides itself: the tokens it may name (their
    facts) and the names a new token may not take."""
    import hashlib

    digest = hashlib.sha256()
    for name in sorted(written):
        card = written[name]
        digest.update(("\n".join(token_lines(card)) if card.is_token else name.lower()).encode() + b"\0")
    return digest.hexdigest()[:16]


def compiled_record(compiled: list[Compiled]) -> str:
    """A card's compiled text as the index keeps it (JSON): a card of one face its ``Compiled``'s
    fields, a card of two faces ``{"faces": [...]}``, each face's (``compile_card``)."""
    import json

    def one(text: Compiled) -> dict[str, Any]:
        return {"lines": text.lines, "unread": text.unread, "dropped": text.dropped, "why": text.why,
                "tokens": {name: token_lines(card) for name, card in text.tokens.items()}}

    record = one(compiled[0]) if len(compiled) == 1 else {"faces": [one(text) for text in compiled]}
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def cached_compiled(record: Any, tokens: Mapping[str, CardDef], taken: Container[str]) -> list[Compiled] | None:
    """The compiled text the index keeps (``compiled_record``), one ``Compiled`` for each face,
    with its new tokens as cards; None when there is none, or when a new token's name is now
    another token's or card's (compiled again then, so that it is named apart as it would have
    been). ``compile_indexed`` compiles again a card whose faces are not the record's."""
    from horde.cards.oracle import Compiled

    if not isinstance(record, dict):
        return None
    out: list[Compiled] = []
    known_now = dict(tokens)
    for face in record.get("faces") or [record]:
        if not isinstance(face, dict):
            return None
        made: dict[str, CardDef] = {}
        for name, lines in face.get("tokens", {}).items():
            known = known_now.get(name)
            if known is not None:
                if token_lines(known) != lines:
                    return None
                made[name] = known
                continue
            if name.lower() in taken:
                return None
            try:
                made[name] = build_from_lines(lines, "compiled token")
            except DeckError:
                return None
        new = {n: c for n, c in made.items() if n not in known_now}
        out.append(Compiled(lines=list(face["lines"]), unread=list(face["unread"]), dropped=list(face["dropped"]),
                            why=dict(face.get("why", {})), tokens=new))
        known_now.update(new)
    return out


_IMPORTING: dict[str, Any] = {}  # what the import's compiling processes compile with (inherited by fork)
PARALLEL_MIN = 200  # a batch of fewer cards is compiled in the importing process itself


def _quiet_worker() -> None:
    """A compiling process leaves a stop to the importing one: Ctrl-C is ignored (the importer
    reports it once, with its one line) and SIGTERM ends it at once, without a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _compile_record(indexed: IndexedCard) -> str:
    return compiled_record(compile_card(indexed, _IMPORTING["tokens"], _IMPORTING["taken"]))


def import_cards(source: str | os.PathLike[str], target: Path | None = None,
                 progress: Callable[[int, int], object] | None = None, workers: int | None = None) -> dict[str, Any]:
    """``horde cards import``: MTGJSON's AtomicCards into the card index, with every card's text
    compiled against the bundled card files' tokens and names (the grammar's version and what it
    was compiled with are in the index's meta), so a deck load pays nothing for parsing. The
    texts are compiled by ``workers`` processes (default: the machine's cores, at most four,
    where processes can be forked); each card's on its own, so the index is the same whatever
    their number."""
    import multiprocessing

    from horde.cards.cardindex import import_atomic_cards
    from horde.cards.oracle import grammar_version

    bundled = bundled_catalogue()
    _IMPORTING.update(tokens=bundled.tokens, taken=frozenset(bundled._lower))
    meta = {"grammar": grammar_version(), "compiled_with": bundled.cache_key()}
    if workers is None:
        workers = min(os.cpu_count() or 1, 4)
    forking = "fork" in multiprocessing.get_all_start_methods()
    pool = multiprocessing.get_context("fork").Pool(workers, _quiet_worker) if workers > 1 and forking else None

    def compile_batch(cards: list[IndexedCard]) -> list[str]:
        if pool is None or len(cards) < PARALLEL_MIN:
            return [_compile_record(card) for card in cards]
        return pool.map(_compile_record, cards, chunksize=max(1, len(cards) // (4 * workers)))

    try:
        return import_atomic_cards(source, target, progress, compile=compile_batch, compiled_meta=meta)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def behaviour(card: CardDef) -> dict[str, Any]:
    """What a card does, as plain comparable values: keywords, mana, equip and flashback costs, and
    each hook's effects (hook, verb, arguments, costs, trigger condition, loyalty change); the
    hooks whose abilities are grouped by line (modes, activated and loyalty abilities) keep their
    grouping. Two cards with equal behaviour play alike."""

    def plain(value: Any) -> Any:
        if isinstance(value, AmountFunction):
            return value.canonical or value.text
        if isinstance(value, Filter):
            # its alternatives, each a set of terms (the order of terms does not matter)
            return ("filter", frozenset(frozenset(part.lower().split()) for part in value.text.split("|")))
        if isinstance(value, frozenset):
            return frozenset(value)
        return value

    def effect(e: Effect) -> tuple[Any, ...]:
        return (e.verb, tuple(sorted((k, plain(v)) for k, v in e.args.items())), e.costs,
                plain(e.when) if e.when is not None else None, e.cost,
                getattr(e.condition, "text", None), e.optional, e.tax, e.limit)

    hooks: dict[str, tuple[Any, ...]] = {}
    for hook in card.hooks:
        if hook in ("Mode", "Activated", "GraveyardActivated") + LOYALTY_HOOKS:
            hooks[hook] = tuple(tuple(effect(e) for e in group) for group in card.abilities(hook))
        else:
            hooks[hook] = tuple(effect(e) for e in card.hooks[hook])
    return {"keywords": card.keywords, "mana": tuple(a.key() for a in card.mana_abilities), "equip": card.equip, "flashback": card.flashback,
            "kicker": (card.kicker, card.multikicker), "choose": card.choose, "cycling": card.cycling,
            "unearth": card.unearth,
            "from_graveyard": None if card.from_graveyard is None else tuple(
                plain(part) if callable(part) else part for part in card.from_graveyard),
            "enchant": (plain(card.enchant.target), card.enchant.args["zone"]) if card.enchant is not None else None,
            "overload": card.overload, "costs_less": plain(card.costs_less), "hooks": hooks,
            "enters_tapped": (getattr(card.enters_tapped, "text", None), card.enters_pay_life),
            "choose_colour": card.choose_colour}


@dataclass
class Recall:
    """How the compiler does on a catalogue's own cards: the nontoken cards it reproduces exactly,
    those it compiles differently from their hand-written model, and those it refuses."""

    exact: list[str] = field(default_factory=list)
    differ: list[str] = field(default_factory=list)
    refused: dict[str, list[str]] = field(default_factory=dict)  # name -> sentences not understood

    @property
    def total(self) -> int:
        return len(self.exact) + len(self.differ) + len(self.refused)

    @property
    def rate(self) -> float:
        return len(self.exact) / self.total if self.total else 0.0

    def describe(self) -> str:
        return (f"compiler recall: {len(self.exact)} of {self.total} bundled nontoken cards compiled exactly as "
                f"hand-written ({self.rate:.1%}); {len(self.refused)} refused; {len(self.differ)} differ")


def recall(catalogue: Catalogue) -> Recall:
    """Compile every nontoken card's ``Text:`` and compare its behaviour with the hand-written model."""
    report = Recall()
    for name, card in sorted(catalogue.cards.items()):
        compiled, unread = recompile(card, catalogue.tokens)
        if compiled is None:
            report.refused[name] = unread
        elif behaviour(compiled) == behaviour(card):
            report.exact.append(name)
        else:
            report.differ.append(name)
    return report


def load_catalogue(paths: Iterable[str | os.PathLike[str]] | None = None) -> Catalogue:
    """Read every card file (default: ``decks/cards/*.txt``) into one checked Catalogue; the first
    problem stops it (the bundled files must all be good)."""
    if paths is None:
        paths = sorted((decks_dir() / "cards").glob("*.txt"))
    catalogue = Catalogue()
    token_uses: list[tuple[str, str, str, int]] = []
    for path in paths:
        path = str(path)
        for block in read_blocks(_read_card_file(path), path):
            card = build_card(block)
            catalogue.add(card, path, block.line)
            token_uses += _token_uses(card, path)
    for card_name, token, path, line in token_uses:
        if token not in catalogue.tokens:
            raise DeckError(f"card '{card_name}': unknown token '{token}' (tokens: "
                            f"{', '.join(sorted(catalogue.tokens))})", path, line)
    return catalogue


def _read_card_file(path: str) -> str:
    return read_text(path, "card file", DeckError)


def _token_uses(card: CardDef, path: str) -> list[tuple[str, str, str, int]]:
    return [(card.name, effect.args["token"], path, effect.line) for effects in card.hooks.values()
            for effect in effects if "token" in effect.args]


def card_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The card files a list of paths names: each file, and each folder's ``*.txt`` files."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if os.path.isdir(path):
            files += sorted(path.glob("*.txt"))
        elif os.path.exists(path):
            check_regular(path, "card file", DeckError)  # never a named pipe or a device
            files.append(path)
        else:
            raise DeckError("no such card file or folder", str(path))
        if len(files) > CARD_FILES_MAX:
            raise DeckError(f"more than {CARD_FILES_MAX:,} card files: a game reads at most {CARD_FILES_MAX:,} "
                            "(docs/limits.md)", str(path))
    return files


def add_user_cards(catalogue: Catalogue, paths: Iterable[str | os.PathLike[str]]) -> None:
    """Add the user's card files to ``catalogue``, leniently: a card that can't be read is kept in
    ``catalogue.broken`` with its problem (file and line) and refuses only the decks that use it; a
    problem that names no card goes to ``catalogue.file_errors`` (``catalogue_for`` refuses it). A
    user card replaces a bundled card of the same name."""
    bundled = set(catalogue._lower)
    added: dict[str, str] = {}
    token_uses: list[tuple[str, str, str, int]] = []
    for file in card_files(paths):
        path = str(file)
        try:
            blocks = read_blocks(_read_card_file(path), path, lenient=True)
        except DeckError as error:
            catalogue.file_errors.append(error)
            continue
        for block in blocks:
            name = block.fields.get("Name", ("", 0))[0]
            try:
                if block.error is not None:
                    raise block.error
                card = build_card(block)
            except DeckError as error:
                if name:
                    catalogue.broken[name_key(name)] = error
                    catalogue._lower.pop(name_key(name), None)
                else:
                    catalogue.file_errors.append(error)
                continue
            low = name_key(card.name)
            if low in added:
                catalogue.broken[low] = DeckError(f"card '{card.name}' is defined twice (also at {added[low]})",
                                                  path, block.line)
                continue
            added[low] = f"{path}:{block.line}"
            catalogue.add(card, path, block.line, replace=low in bundled)
            token_uses += _token_uses(card, path)
    for card_name, token, path, line in token_uses:
        if token not in catalogue.tokens:
            catalogue.broken[name_key(card_name)] = DeckError(
                f"card '{card_name}': unknown token '{token}' (tokens: {', '.join(sorted(catalogue.tokens))})",
                path, line)
            stored = catalogue._lower.pop(name_key(card_name), None)
            if stored is not None:
                catalogue.cards.pop(stored, None)
                catalogue.tokens.pop(stored, None)
    for low in catalogue.broken:
        catalogue._lower.pop(low, None)


def user_card_paths(cards: Iterable[str | os.PathLike[str]] = ()) -> tuple[str, ...]:
    """The user's card files: ``$HORDE_CARDS`` (paths separated by ``os.pathsep``), then ``cards``."""
    env = [p for p in os.environ.get("HORDE_CARDS", "").split(os.pathsep) if p.strip()]
    return tuple(env) + tuple(str(p) for p in cards)


_BUNDLED: dict[str, Catalogue] = {}
_CATALOGUES: dict[tuple[str, tuple[str, ...], bool, str], Catalogue] = {}


def bundled_catalogue() -> Catalogue:
    """The catalogue of the decks folder's card files alone (``decks_dir``), read once per process."""
    key = str(decks_dir())
    if key not in _BUNDLED:
        _BUNDLED[key] = load_catalogue()
    return _BUNDLED[key]


def catalogue_for(cards: Iterable[str | os.PathLike[str]] = (), approximate: bool = False) -> Catalogue:
    """The catalogue a command or a game plays with: the bundled card files, the user's
    (``$HORDE_CARDS`` and ``cards``), the card index of the data folder, and ``approximate``;
    made once per process for each combination."""
    from horde.cards.cardindex import index_path

    paths = user_card_paths(cards)
    key = (str(decks_dir()), paths, bool(approximate), str(index_path()))
    if key not in _CATALOGUES:
        catalogue = bundled_catalogue().copy()
        add_user_cards(catalogue, paths)
        if catalogue.file_errors:
            # A problem that names no card (a file that is no card file, a line outside every
            # card) can't refuse only the decks that use a card: it refuses the catalogue.
            raise catalogue.file_errors[0]
        catalogue.index_path = index_path()
        catalogue.approximate = bool(approximate)
        _CATALOGUES[key] = catalogue
    return _CATALOGUES[key]


def default_catalogue() -> Catalogue:
    """The catalogue of a command without ``--cards``: bundled and ``$HORDE_CARDS`` card files and
    the card index."""
    return catalogue_for()


def setup_catalogue(setup: GameSetup) -> Catalogue:
    """The catalogue a game of ``setup`` plays with (its ``cards`` and ``approximate`` knobs)."""
    return catalogue_for(setup.cards, setup.approximate)
