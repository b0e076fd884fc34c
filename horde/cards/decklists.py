"""Read the decklist text players paste from MTG Arena, Moxfield, MTGO and Archidekt.

This module turns pasted text into a `Decklist`: one `DeckEntry` per card line
(count, name as written, section, optional set code, collector number, foil flag
and tags) plus the key/value lines of an `About` section. It only reads the text;
whether the card names exist is checked elsewhere against the card catalogue.
Every line it cannot read raises one `DeckError` naming the file, the line and
what was expected.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from horde.errors import DeckError
from horde.files import read_text
from horde.limits import CARD_NAME_MAX, DECKLIST_CARDS_MAX, LINE_COUNT_MAX, quoted

# Header word (lower-case) -> section name. "about" holds key/value lines, not cards.
SECTION_ALIASES: dict[str, str] = {
    "commander": "commander",
    "commanders": "commander",
    "deck": "deck",
    "mainboard": "deck",
    "main": "deck",
    "sideboard": "sideboard",
    "tokens": "tokens",
    "token": "tokens",
    "companion": "companion",
    "maybeboard": "maybeboard",
    "considering": "maybeboard",
    "about": "about",
    # Horde deck files (RULES.md B1, L1, L3) name their boss, lieutenant and equipment lists.
    "bosses": "bosses",
    "boss": "bosses",
    "lieutenants": "lieutenants",
    "lieutenant": "lieutenants",
    "equipment": "equipment",
    # A Horde deck's scheme deck (RULES.md A1).
    "schemes": "schemes",
    "scheme": "schemes",
}
SECTIONS = ("commander", "deck", "sideboard", "tokens", "companion", "maybeboard", "bosses", "lieutenants",
            "equipment", "schemes")

MAX_COUNT = LINE_COUNT_MAX

_HEADER_RE = re.compile(
    r"(?P<word>" + "|".join(sorted(SECTION_ALIASES, key=len, reverse=True)) + r")"
    r"\s*:?\s*(?:\(\s*[0-9]+\s*\))?\s*:?",
    re.IGNORECASE,
)
_COMMENT_RE = re.compile(r"#|//|;")
_SIDEBOARD_PREFIX_RE = re.compile(r"SB:\s*", re.IGNORECASE)
# The first word of a card line: "4", "4x", "4X"; also near-misses like "-1" or "1.5" to report as bad counts.
_COUNT_RE = re.compile(r"(?P<count>-?[0-9]+(?:[.,][0-9]*)?)[xX]?(?:\s+|$)")
# Trailing parts of a card line, stripped from the end in any order.
_HASH_TAGS_RE = re.compile(r"(?:^|\s)#(?P<tags>.*)$")
_FOIL_RE = re.compile(r"\s*\*[FfEe]\*$")
_BRACKET_TAGS_RE = re.compile(r"\s*\[(?P<tags>[^\[\]]*)\]$")
_SET_RE = re.compile(r"\s*\((?P<set>[A-Za-z0-9]{1,10})\)(?:\s+(?P<number>[^\s()\[\]]+))?$")
_ABOUT_KEY_VALUE_RE = re.compile(r"(?P<key>[^\s:=]+)\s*[:=]\s*(?P<value>.*)")
_ARCHIDEKT_FLAG_RE = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One card line: `count` copies of `name` in `section`, from 1-based `line` of the source."""

    count: int
    name: str
    section: str
    line: int
    set_code: str | None = None
    number: str | None = None
    foil: bool = False
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Decklist:
    """A whole decklist: its card entries in source order and its About key/value data."""

    path: str
    entries: tuple[DeckEntry, ...]
    about: dict[str, str] = field(hash=False)

    def section(self, name: str) -> tuple[DeckEntry, ...]:
        """The entries of one section, e.g. "deck"; header spellings like "Mainboard" also work."""
        wanted = _section_name(name)
        return tuple(entry for entry in self.entries if entry.section == wanted)

    def count(self, section: str | None = None) -> int:
        """Total number of cards, in every section or only in `section`."""
        entries = self.entries if section is None else self.section(section)
        return sum(entry.count for entry in entries)


def _section_name(name: str) -> str:
    section = SECTION_ALIASES.get(name.strip().lower())
    if section is None or section == "about":
        raise ValueError(f"unknown deck section {name!r}: expected one of {', '.join(SECTIONS)}")
    return section


def parse_decklist(text: str, path: str = "<text>", kind: str | None = None) -> Decklist:
    """Parse decklist text; `path` only names the source in error messages.

    `kind` is "horde", "team" or None (not known). In a Horde deck blank lines only separate
    groups of cards, as the Horde helper apps write them, and only a `Sideboard` header (or an
    `SB:` prefix) starts a sideboard. Otherwise MTGO's rule holds: in a list without any header,
    the cards after a blank line are the sideboard. (A list with headers never uses that rule.)

    Raises DeckError (with path and line) for the first line that is not a header,
    comment, blank line, About data or readable card line, and for a list of more than
    ``DECKLIST_CARDS_MAX`` cards. A line is quoted only once the file has shown it is a decklist
    (a card line or a section header before it), so a file that is no decklist at all (a path
    given by mistake, or on purpose) never has its content shown.
    """
    text = text.removeprefix("\ufeff")
    lines = [_normalise(raw) for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    has_headers = any(_HEADER_RE.fullmatch(line) for line in lines)

    entries: list[DeckEntry] = []
    about: dict[str, str] = {}
    section = "deck"
    seen_card = False
    recognised = False  # a card line or a header was read: the file is a decklist
    blank_after_cards = False
    total = 0
    for number, line in enumerate(lines, start=1):
        if not line:
            blank_after_cards = seen_card
            continue
        if _COMMENT_RE.match(line):
            continue
        header = _HEADER_RE.fullmatch(line)
        if header:
            section = SECTION_ALIASES[header["word"].lower()]
            recognised = True
            continue
        if section == "about":
            key, value = _parse_about(line)
            about[key] = value
            continue
        if blank_after_cards and not has_headers and kind != "horde":
            section = "sideboard"  # MTGO: cards after a blank line are the sideboard
        entry = _parse_card(line, section, path, number, recognised)
        total += entry.count
        if total > DECKLIST_CARDS_MAX:
            raise DeckError(f"more than {DECKLIST_CARDS_MAX:,} cards: a decklist holds at most {DECKLIST_CARDS_MAX:,} "
                            "(docs/limits.md)", path, number)
        entries.append(entry)
        seen_card = recognised = True
    return Decklist(path=path, entries=tuple(entries), about=about)


def read_decklist(path: str | os.PathLike[str], kind: str | None = None, what: str = "decklist") -> Decklist:
    """Read and parse a UTF-8 decklist file (a byte-order mark is fine); `kind` as for
    `parse_decklist`; `what` names the file in errors ("decklist" or "banlist").

    Raises DeckError naming the path if the file cannot be read (not a regular file, larger
    than a decklist may be, not UTF-8: ``horde.files``).
    """
    name = os.fspath(path)
    return parse_decklist(read_text(name, what, DeckError), name, kind)


def _normalise(line: str) -> str:
    """Strip the line and collapse runs of whitespace (spaces, tabs) to one space."""
    return " ".join(line.split())


def _parse_about(line: str) -> tuple[str, str]:
    """`key: value`, `key = value` or Arena's `Name Something`; keys are lower-cased."""
    match = _ABOUT_KEY_VALUE_RE.fullmatch(line)
    if match:
        return match["key"].lower(), match["value"]
    key, _, value = line.partition(" ")
    return key.lower(), value


def _card_error(line: str, path: str, number: int, recognised: bool = True) -> DeckError:
    if not recognised:  # nothing yet says this is a decklist: its content is not shown
        return DeckError("expected '<count> <card name>', e.g. '1 Sol Ring' (this line and the ones before it "
                         "do not read as a decklist)", path, number)
    return DeckError(f"expected '<count> <card name>', e.g. '1 Sol Ring', got {quoted(line)}", path, number)


def _parse_count(text: str, path: str, number: int) -> int:
    digits = text.lstrip("-0")
    if text.startswith("-") or not digits.isdigit() or len(digits) > 3 or int(digits) > MAX_COUNT:
        message = f"bad count {quoted(text)}: expected a whole number from 1 to {MAX_COUNT}"
        raise DeckError(message, path, number)
    return int(digits)


def _split_tags(parts: list[str]) -> list[str]:
    """Clean tag names; Moxfield's `!` (global tag) marker is dropped."""
    return [tag for tag in (part.strip().lstrip("!").strip() for part in parts) if tag]


def _parse_card(line: str, section: str, path: str, number: int, recognised: bool = True) -> DeckEntry:
    """Read `[SB:] <count>[x] <name> [[tags]] [(SET) [number]] [*F*|*E*] [#tags]`."""
    rest = line
    prefix = _SIDEBOARD_PREFIX_RE.match(rest)
    if prefix:
        rest = rest[prefix.end():]
        section = "sideboard"
    count_match = _COUNT_RE.match(rest)
    if not count_match:
        raise _card_error(line, path, number, recognised)
    count = _parse_count(count_match["count"], path, number)
    rest = rest[count_match.end():]

    hash_tags: list[str] = []
    hashed = _HASH_TAGS_RE.search(rest)
    if hashed:
        hash_tags = _split_tags(hashed["tags"].split("#"))
        rest = rest[: hashed.start()]

    bracket_tags: list[str] = []
    set_code = collector_number = None
    foil = bracketed = False
    while True:  # peel optional trailing parts off the end, each at most once
        if not foil and (match := _FOIL_RE.search(rest)):
            foil = True
        elif not bracketed and (match := _BRACKET_TAGS_RE.search(rest)):
            bracketed = True
            bracket_tags = _split_tags(_ARCHIDEKT_FLAG_RE.sub("", match["tags"]).split(","))
        elif set_code is None and (match := _SET_RE.search(rest)):
            set_code, collector_number = match["set"].upper(), match["number"]
        else:
            break
        rest = rest[: match.start()]

    name = rest.strip()
    if not name or name.count("(") != name.count(")") or name.count("[") != name.count("]"):
        raise _card_error(line, path, number, recognised)
    if len(name) > CARD_NAME_MAX:
        raise DeckError(f"a card name of {len(name):,} characters, {quoted(name)}: a card name has at most "
                        f"{CARD_NAME_MAX} (docs/limits.md)", path, number)
    return DeckEntry(
        count=count,
        name=name,
        section=section,
        line=number,
        set_code=set_code,
        number=collector_number,
        foil=foil,
        tags=tuple(bracket_tags + hash_tags),
    )
