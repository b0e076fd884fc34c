"""Read decklists as players export them: MTG Arena, Moxfield, Archidekt, TappedOut, MTGO.

This module turns an exported decklist into a `Decklist`: one `DeckEntry` per card line
(count, name as written, section, optional set code, collector number, foil flag and tags)
plus the key/value lines of an `About` section. The text exports differ in how they name the
commander and group the cards, and each is read as written: Arena's and Moxfield's section
headers (`Commander`, `Deck`, `Sideboard`) and Moxfield's category headings (`Creatures (12)`),
Archidekt's categories in brackets (`[Commander{top}]`; a category marked `{noDeck}` is not
played), Moxfield's and TappedOut's `*CMDR*` marker, TappedOut's bullets and prices (`* 1 Sol
Ring $1.50`) and bold headings (`**Commanders (1):**`), MTGO's `.txt` (the cards after a blank
line are its sideboard, where MTGO keeps a commander: ``horde.cards.decks``) and MTGO's `.dek`
XML (`<Cards Quantity="1" Sideboard="false" Name="Sol Ring" />`). It only reads the text;
whether the card names exist is checked elsewhere against the card catalogue. Every line it
cannot read raises one `DeckError` naming the file, the line and what was expected.
"""

from __future__ import annotations

import html
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
# Moxfield's and TappedOut's commander marker, after the card's name and printing.
_COMMANDER_MARK_RE = re.compile(r"\s*\*CMDR\*$", re.IGNORECASE)
# Archidekt's colour label, last on a line: `^Have,#37d67a^`.
_ARCHIDEKT_LABEL_RE = re.compile(r"\s*\^[^^]*\^$")
# TappedOut's price after a card: `$1.50`.
_PRICE_RE = re.compile(r"\s+\$\s?[0-9]+(?:[.,][0-9]+)?$")
# TappedOut's and markdown's bullet before a card line: `* 1 Sol Ring`, `- 1 Sol Ring`.
_BULLET_RE = re.compile(r"[*-]\s+(?=[0-9])")
# A category heading with its card count, as Moxfield and TappedOut group a list: `Creatures (12)`,
# `Lands (36):`. A category that is not a section (above) is a group of the deck.
_CATEGORY_RE = re.compile(r"[^\s0-9*#/;(\[][^()\[\]]*?\s*\(\s*[0-9]+\s*\)\s*:?")
# An MTGO .dek file: XML, one element a line.
_DEK_START_RE = re.compile(r"<\?xml\b|<Deck\b", re.IGNORECASE)
_DEK_TOKEN_RE = re.compile(r"<[^<>]*>|[^<>]+")
_DEK_ATTRIBUTE_RE = re.compile(r"\s+(?P<key>[A-Za-z_:][\w:.-]*)\s*=\s*(?:\"(?P<double>[^\"<]*)\"|'(?P<single>[^'<]*)')")
_DEK_CARDS_RE = re.compile(r"<Cards(?P<attributes>(?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*)\s*/?>")
_DEK_OTHER_RE = re.compile(r"<\?xml\b[^<>]*\?>|</?Deck\b[^<>]*>|</?(?:NetDeckID|PreconstructedDeckID)>|</Cards>|"
                           r"<!--.*-->|\s*[0-9]*\s*", re.IGNORECASE)  # the deck's ids are numbers
DEK_EXPECTED = ("expected an element of an MTGO .dek file, like '<Cards CatID=\"1\" Quantity=\"1\" Sideboard=\"false\" "
                "Name=\"Sol Ring\" />'")


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
    Text that opens as XML is an MTGO `.dek` file (``parse_dek``).

    Raises DeckError (with path and line) for the first line that is not a header,
    comment, blank line, About data or readable card line, and for a list of more than
    ``DECKLIST_CARDS_MAX`` cards. A line is quoted only once the file has shown it is a decklist
    (a card line or a section header before it), so a file that is no decklist at all (a path
    given by mistake, or on purpose) never has its content shown.
    """
    text = text.removeprefix("\ufeff")
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if _DEK_START_RE.match(text.lstrip()):
        return parse_dek(raw_lines, path)
    lines = [_normalise(raw) for raw in raw_lines]
    has_headers = any(_heading(line) is not None for line in lines)

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
        heading = _heading(line)
        if heading is not None:
            section = heading
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


def _heading(line: str) -> str | None:
    """The section a header or category heading line starts, or None for any other line. A
    markdown heading's bold (``**Commanders (1):**``, TappedOut) is read through; a category
    that is not a section (``Creatures (12)``, Moxfield) is a group of the deck."""
    if line.startswith("**") and line.endswith("**") and len(line) > 4:
        line = line[2:-2].strip()
    header = _HEADER_RE.fullmatch(line)
    if header:
        return SECTION_ALIASES[header["word"].lower()]
    if _CATEGORY_RE.fullmatch(line):
        return "deck"
    return None


def parse_dek(lines: list[str], path: str = "<text>") -> Decklist:
    """An MTGO `.dek` file (XML): each `<Cards Quantity="N" Name="..." Sideboard="true|false" />`
    element is one card line of the deck or of its sideboard (where MTGO keeps a Commander
    deck's commander). Read line by line, so that a line that is not an element of such a file
    is one DeckError naming the file and line."""
    entries: list[DeckEntry] = []
    total = 0
    for number, raw in enumerate(lines, start=1):
        for element in _DEK_TOKEN_RE.findall(raw):
            if _DEK_OTHER_RE.fullmatch(element):
                continue
            cards = _DEK_CARDS_RE.fullmatch(element)
            if cards is None:
                raise DeckError(DEK_EXPECTED, path, number)
            entry = _dek_entry(cards["attributes"], path, number)
            total += entry.count
            if total > DECKLIST_CARDS_MAX:
                raise DeckError(f"more than {DECKLIST_CARDS_MAX:,} cards: a decklist holds at most "
                                f"{DECKLIST_CARDS_MAX:,} (docs/limits.md)", path, number)
            entries.append(entry)
    return Decklist(path=path, entries=tuple(entries), about={})


def _dek_entry(attributes: str, path: str, number: int) -> DeckEntry:
    """One `<Cards ... />` element's card: its Quantity, Name and Sideboard attributes."""
    values = {m["key"].lower(): html.unescape(m["double"] if m["double"] is not None else m["single"])
              for m in _DEK_ATTRIBUTE_RE.finditer(attributes)}
    for key in ("quantity", "name"):
        if not values.get(key, "").strip():
            raise DeckError(f"a <Cards> element without its {key.title()}: {DEK_EXPECTED}", path, number)
    count = _parse_count(values["quantity"].strip(), path, number)
    sideboard = values.get("sideboard", "false").strip().lower()
    if sideboard not in ("true", "false"):
        raise DeckError(f"Sideboard={quoted(sideboard)}: expected \"true\" or \"false\"", path, number)
    name = " ".join(values["name"].split())
    if len(name) > CARD_NAME_MAX:
        raise DeckError(f"a card name of {len(name):,} characters, {quoted(name)}: a card name has at most "
                        f"{CARD_NAME_MAX} (docs/limits.md)", path, number)
    return DeckEntry(count=count, name=name, section="sideboard" if sideboard == "true" else "deck", line=number)


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


def _category_section(categories: str, section: str) -> str:
    """The section an Archidekt card's categories put it in: its first category's, when that
    names a section (`Commander`, `Sideboard`, `Maybeboard`, `Tokens`); the maybeboard when
    that category is marked `{noDeck}`; else the section it is in."""
    first = categories.split(",")[0]
    name = _ARCHIDEKT_FLAG_RE.sub("", first).strip().lstrip("!").strip().lower()
    named = SECTION_ALIASES.get(name)
    if named is not None and named != "about":
        return named
    if "{nodeck}" in first.replace(" ", "").lower():
        return "maybeboard"
    return section


def _parse_card(line: str, section: str, path: str, number: int, recognised: bool = True) -> DeckEntry:
    """Read `[* ][SB:] <count>[x] <name> [[tags]] [(SET) [number]] [*F*|*E*] [*CMDR*] [$price] [#tags]`.

    The commander marker `*CMDR*` and an Archidekt card's first category naming a section
    (`[Commander{top}]`, `[Maybeboard{noDeck}]`) put the card in that section; a first category
    marked `{noDeck}` (Archidekt: not in the deck) puts it in the maybeboard."""
    rest = _BULLET_RE.sub("", line, count=1) if line[:1] in "*-" else line
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
    foil = bracketed = marked = labelled = priced = False
    while True:  # peel optional trailing parts off the end, each at most once
        if not foil and (match := _FOIL_RE.search(rest)):
            foil = True
        elif not marked and (match := _COMMANDER_MARK_RE.search(rest)):
            marked = True
            section = "commander"
        elif not labelled and (match := _ARCHIDEKT_LABEL_RE.search(rest)):
            labelled = True
        elif not priced and (match := _PRICE_RE.search(rest)):
            priced = True
        elif not bracketed and (match := _BRACKET_TAGS_RE.search(rest)):
            bracketed = True
            bracket_tags = _split_tags(_ARCHIDEKT_FLAG_RE.sub("", match["tags"]).split(","))
            if not marked:
                section = _category_section(match["tags"], section)
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
