"""The local card index: the printed facts of every card, read from MTGJSON's AtomicCards file.

``import_atomic_cards(FILE)`` streams MTGJSON's ``AtomicCards.json`` (plain, ``.gz``, ``.xz`` or
``.zip``; MIT-licensed, downloaded by the user: nothing is fetched here) with ``ijson``, one card
at a time, into an sqlite database under the data folder (``data_home()``: ``$HORDE_HOME`` or the
platform's user data folder). The database is written to a temporary file and renamed, so a
failed import leaves the old index as it was; the temporary files of imports killed outright are
removed by the next one. The file's work is bounded as well as its size (docs/limits.md): every
value, every card and the whole decompressed JSON are checked as they stream to the parser, and
a card past the limits of a card stops the import there, naming it. ``CardIndex.lookup(name)``
finds a card by its name, a face name or an ``A // B`` name, ignoring case and reading æ as ae
(``horde.cards.name_key``: old lists write ``AEthersnipe`` and ``Æther Gale``).

The index holds facts only (name, mana cost, colours, type line, power/toughness, loyalty,
keywords, Oracle text, layout). What a card *does* comes from a hand-written entry or from the
Oracle-text compiler (``horde.cards.oracle``); ``horde.cards.catalogue`` decides which. A card of
two faces keeps every face's facts and text (``IndexedCard.faces``): split, aftermath, adventure
and modal double-faced cards play every face, transform and flip cards their front face; meld
cards are kept with the reason they are refused, never half-read. AtomicCards has no tokens:
tokens come from the card files.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import io
import json
import lzma
import os
import re
import sqlite3
import stat
import tempfile
import zipfile
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, compress, tee
from operator import eq, itemgetter, lt
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from horde.cards import name_key
from horde.errors import HordeError
from horde.files import SIZES, WriteError, check_regular, make_folder, shown
from horde.limits import (
    ATOMIC_CARD_MAX,
    ATOMIC_DEPTH_MAX,
    ATOMIC_VALUE_MAX,
    CARD_NAME_MAX,
    CARD_TEXT_MAX,
    quoted,
)

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

INDEX_NAME = "cards.sqlite"
SCHEMA = 2  # 2: every face of a card of two faces is kept (``IndexedCard.faces``)
# MTGJSON fields kept for each card (the Card (Atomic) data model's names).
FIELDS = ("name", "faceName", "manaCost", "manaValue", "colors", "colorIdentity", "type", "supertypes",
          "types", "subtypes", "power", "toughness", "loyalty", "keywords", "text", "layout", "side")
# Multi-faced layouts played by their front face; the other face is never used (no verb transforms
# a permanent).
FRONT_FACE_LAYOUTS = {"transform": "a transform card", "flip": "a flip card"}
# Multi-faced layouts whose every face is played (horde.engine.cards.FACES): a deck names a split
# card by either half too, an adventure or modal double-faced card by its front face.
FACED_LAYOUTS = {"split": "a split card", "aftermath": "an aftermath card", "adventure": "an adventure card",
                 "modal_dfc": "a modal double-faced card"}
# Layouts refused with the reason.
REFUSED_LAYOUTS = {
    "meld": "a meld card: melding two cards is beyond the engine",
}
# The facts of each face kept for a card of two faces (MTGJSON's names).
FACE_FIELDS = ("faceName", "manaCost", "type", "supertypes", "types", "subtypes", "power", "toughness", "loyalty",
               "colors", "text", "side")
# Layouts that are not cards of a deck (AtomicCards lists a few).
SKIPPED_LAYOUTS = {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"}
# What an AtomicCards file may hold (docs/limits.md): the decompressed JSON, the cards, the faces of one.
DECOMPRESSED_MAX = SIZES["AtomicCards file"]
INDEX_CARDS_MAX = 200_000
FACES_MAX = 8
ATOMIC_MEMBER = "AtomicCards.json"
COMPILE_BATCH = 2000  # cards compiled at a time while an import reads on  # the member of a zip archive read (in any of its folders, in any case)
# The type of each face field read (MTGJSON's Card (Atomic) model); any other is a damaged file.
TEXT_FIELDS = ("name", "faceName", "manaCost", "type", "power", "toughness", "loyalty", "text", "layout", "side")
LIST_FIELDS = ("colors", "colorIdentity", "supertypes", "types", "subtypes", "keywords")
NUMBER_FIELDS = ("manaValue", "faceManaValue")


def data_home() -> Path:
    """The data folder: ``$HORDE_HOME``, else the platform's user data folder for horde."""
    env = os.environ.get("HORDE_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("horde", appauthor=False))


def index_path() -> Path:
    return data_home() / INDEX_NAME


@dataclass(frozen=True)
class IndexedCard:
    """One card's facts as MTGJSON gives them (its front face for a multi-faced card)."""

    name: str  # the name decks use: the face name of a multi-faced card's front face
    full_name: str  # MTGJSON's name ("A // B" for a multi-faced card)
    mana_cost: str
    mana_value: float
    colors: tuple[str, ...]
    color_identity: tuple[str, ...]
    type: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: str | None
    toughness: str | None
    loyalty: str | None
    keywords: tuple[str, ...]
    text: str
    layout: str
    note: str = ""  # e.g. "the front face of a transform card"
    refused: str = ""  # why the card can't be played at all, or ""
    faces: tuple[dict[str, Any], ...] = ()  # each face's facts and text (FACE_FIELDS), front first, for a card of two faces

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IndexedCard:
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**values)


class TooLong(ValueError):
    """A value or a card of an AtomicCards file longer than it may be (docs/limits.md): the
    import stops at that card. ``offset``: where in the decompressed JSON it was found, when the
    card is not named yet (``card_at`` names it)."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


def check_faces(key: str, faces: Any) -> list[dict[str, Any]]:
    """One AtomicCards entry checked against MTGJSON's model: a list of at most ``FACES_MAX`` faces,
    each an object whose fields read here have their type (text, a list of texts, a number), and
    names and texts within a card's limits (docs/limits.md); raises ValueError saying what is
    wrong (TooLong for a name or text too long). Fields not read are not looked at."""
    if not isinstance(faces, list) or not 1 <= len(faces) <= FACES_MAX:
        raise ValueError(f"data[{quoted(key)}]: expected a list of 1 to {FACES_MAX} card faces")
    if len(key) > CARD_NAME_MAX:
        raise TooLong(f"data[{quoted(key)}]: its name is {len(key):,} characters, more than the {CARD_NAME_MAX} a "
                      "card's name may have (docs/limits.md)")
    for face in faces:
        if not isinstance(face, dict):
            raise ValueError(f"data[{quoted(key)}]: expected card faces (JSON objects), got {type(face).__name__}")
        for name in TEXT_FIELDS:
            if face.get(name) is not None and not isinstance(face[name], str):
                raise ValueError(f"data[{quoted(key)}]: field {name!r} is {type(face[name]).__name__}: expected text")
        for name, most in (("name", CARD_NAME_MAX), ("faceName", CARD_NAME_MAX), ("text", CARD_TEXT_MAX)):
            if len(face.get(name) or "") > most:
                raise TooLong(f"data[{quoted(key)}]: its {name} is {len(face[name]):,} characters, more than the "
                              f"{most:,} a card's {name} may have (docs/limits.md)")
        for name in LIST_FIELDS:
            value = face.get(name, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"data[{quoted(key)}]: field {name!r}: expected a list of texts")
        for name in NUMBER_FIELDS:
            value = face.get(name, 0)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                      or not 0 <= value <= 1_000_000):
                raise ValueError(f"data[{quoted(key)}]: field {name!r}: expected a number from 0 to 1,000,000")
    return faces


def card_from_faces(key: str, faces: list[dict[str, Any]]) -> IndexedCard | None:
    """The IndexedCard of one AtomicCards entry (a list of faces, ``check_faces``), or None for a
    layout that is not a card of a deck."""
    if not faces:
        return None
    layout = faces[0].get("layout", "normal")
    if layout in SKIPPED_LAYOUTS:
        return None
    front = next((f for f in faces if f.get("side", "a") == "a"), faces[0])
    note = refused = ""
    kept: tuple[dict[str, Any], ...] = ()
    if layout in REFUSED_LAYOUTS:
        refused = f"'{front.get('name', key)}' is {REFUSED_LAYOUTS[layout]}"
    elif layout in FACED_LAYOUTS and len(faces) == 2:
        ordered = [front] + [f for f in faces if f is not front]
        kept = tuple({k: f.get(k) for k in FACE_FIELDS if f.get(k) is not None} for f in ordered)
    elif len(faces) > 1 or layout in FRONT_FACE_LAYOUTS or layout in FACED_LAYOUTS:
        others = " and ".join(f"'{f.get('faceName')}'" for f in faces if f is not front and f.get("faceName"))
        note = (f"the front face of {FRONT_FACE_LAYOUTS.get(layout, 'a ' + layout + ' card')}; "
                f"{'its other face ' + others if others else 'the other face'} is not played")
    value = front.get("faceManaValue", front.get("manaValue", 0)) or 0
    whole = refused or (kept and layout in ("split", "aftermath"))  # named by both halves: 'Fire // Ice'
    return IndexedCard(
        name=front.get("name", key) if whole else front.get("faceName") or front.get("name", key),
        full_name=front.get("name", key),
        mana_cost=front.get("manaCost", "") or "", mana_value=float(value),
        colors=tuple(front.get("colors", ())), color_identity=tuple(front.get("colorIdentity", ())),
        type=front.get("type", ""), supertypes=tuple(front.get("supertypes", ())),
        types=tuple(front.get("types", ())), subtypes=tuple(front.get("subtypes", ())),
        power=front.get("power"), toughness=front.get("toughness"), loyalty=front.get("loyalty"),
        keywords=tuple(front.get("keywords", ())), text=front.get("text", "") or "", layout=layout,
        note=note, refused=refused, faces=kept)


class _Counting(io.RawIOBase):
    """A readable stream that reports how many bytes were read through it (for the progress bar)."""

    def __init__(self, raw: IO[bytes] | io.IOBase, update: Callable[[int], object]) -> None:
        self.raw = raw
        self.update = update

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer)
        data = self.raw.read(len(view))
        view[:len(data)] = data
        self.update(len(data))
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self.raw.close()
        super().close()


_ESCAPE = re.compile(rb"\\.", re.DOTALL)  # a backslash and the byte it escapes: never the end of a text


class _Checked(io.RawIOBase):
    """The decompressed JSON of an AtomicCards file as the parser reads it, checked as it streams
    past so that no input makes the import's work grow without bound: at most
    ``DECOMPRESSED_MAX`` bytes in all, no value (a text, a number, the bytes between two texts)
    longer than ``ATOMIC_VALUE_MAX`` bytes, and no card longer than ``ATOMIC_CARD_MAX`` bytes
    (from one ``next_card`` to the next). yajl, ijson's parser, reads a value split across its
    reads from the value's start again at every read, so a text of 640 MiB would take it hours:
    the value is refused (TooLong) once it passes the limit, before the parser sees more of it.
    ``end``: the stream ends there (to find the card a TooLong was in, ``card_at``)."""

    def __init__(self, raw: IO[bytes] | io.IOBase, closing: tuple[Any, ...] = (), end: int | None = None) -> None:
        self.raw = raw
        self.closing = closing  # what closes with it: the file under a decompressor, the zip archive
        self.end = DECOMPRESSED_MAX + 1 if end is None else end
        self.given = 0
        self.run = 0  # bytes since the last quote that is not escaped
        self.opened = 0  # where that run began (just after the quote)
        self.escaped = False  # the last read ended with a backslash that escapes the next byte
        self.card_start: int | None = None  # where the card being read began (None: the limit is not applied)

    def readable(self) -> bool:
        return True

    def next_card(self) -> None:
        """A card of ``data`` begins about here: the per-card limit counts from here."""
        self.card_start = self.given

    def close(self) -> None:
        if not self.closed:
            for thing in (self.raw, *self.closing):
                thing.close()
        super().close()

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer)
        data = self.raw.read(min(len(view), self.end - self.given))
        if self.given + len(data) > DECOMPRESSED_MAX:
            raise OSError(f"it decompresses to more than {DECOMPRESSED_MAX:,} bytes, the most an AtomicCards file "
                          "may hold (docs/limits.md)")
        for at in range(0, len(data), ATOMIC_VALUE_MAX):
            self._check_value(data[at:at + ATOMIC_VALUE_MAX], self.given + at)
        self.given += len(data)
        if self.card_start is not None and self.given - self.card_start > ATOMIC_CARD_MAX:
            raise TooLong(f"more than {ATOMIC_CARD_MAX:,} bytes of JSON, the most one card may take (docs/limits.md)",
                          self.given)
        view[:len(data)] = data
        return len(data)

    def _check_value(self, text: bytes, offset: int) -> None:
        """Raise TooLong if the value open at the start of ``text`` (at most ``ATOMIC_VALUE_MAX``
        bytes, from ``offset``) or at its end runs past ``ATOMIC_VALUE_MAX`` bytes; no value
        inside it can."""
        if self.escaped:
            text = text[1:]
        if b"\\" in text:
            text = _ESCAPE.sub(b"__", text)  # an escaped quote or backslash counts as two bytes of text
        if self.escaped:
            text = b"_" + text
        self.escaped = text.endswith(b"\\")  # only a last backslash can be left unpaired
        first = text.find(b'"')
        if first < 0:
            self.run += len(text)
        elif self.run + first <= ATOMIC_VALUE_MAX:
            last = text.rfind(b'"')
            self.run, self.opened = len(text) - last - 1, offset + last + 1
        else:
            self.run += first
        if self.run > ATOMIC_VALUE_MAX:
            raise TooLong(f"a value of more than {ATOMIC_VALUE_MAX:,} bytes; a card's text may hold at most "
                          f"{CARD_TEXT_MAX:,} characters (docs/limits.md)", self.opened)


def _open_source(path: Path, update: Callable[[int], object], end: int | None = None) -> tuple[_Checked, int]:
    """The decompressed JSON of an AtomicCards file (``_Checked``, ending at ``end``), and the
    size its progress counts to; ``update(n)`` hears the bytes read. A zip archive is read from
    its member named AtomicCards.json (in any folder of it, in any case); a damaged archive is
    one HordeError."""
    name = path.name.lower()
    if name.endswith(".zip"):
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
            raise HordeError(f"cannot read the zip archive: {first_line(error)}", str(path)) from None
        names = [m.filename for m in archive.infolist()]
        members = [m for m in archive.infolist() if m.filename.rsplit("/", 1)[-1].lower() == ATOMIC_MEMBER.lower()]
        if len(members) != 1:
            archive.close()
            listed = ", ".join(quoted(n, 60) for n in names[:5]) + (f" and {len(names) - 5:,} more"
                                                                    if len(names) > 5 else "")
            found = "no member" if not members else f"{len(members)} members"
            raise HordeError(f"the zip archive holds {found} named {ATOMIC_MEMBER}; it holds "
                             f"{listed or 'nothing'}", str(path))
        try:
            member = archive.open(members[0])
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, ValueError, EOFError,
                zlib.error, lzma.LZMAError) as error:  # a damaged entry, a method zipfile can't read, a password
            archive.close()
            raise HordeError(f"cannot read {quoted(members[0].filename)} in the zip archive: {first_line(error)}",
                             str(path)) from None
        return _Checked(_Counting(member, update), (archive,), end), min(members[0].file_size, DECOMPRESSED_MAX)
    size = path.stat().st_size
    raw = open(path, "rb")
    counted = io.BufferedReader(_Counting(raw, update), 1 << 20)
    if name.endswith(".gz"):
        return _Checked(gzip.GzipFile(fileobj=counted), (counted, raw), end), size
    if name.endswith(".xz"):
        return _Checked(lzma.LZMAFile(counted), (counted, raw), end), size
    return _Checked(counted, (raw,), end), size


_DEPTH_STEP = {"start_map": 1, "start_array": 1, "end_map": -1, "end_array": -1}


def check_depth(stream: _Checked) -> None:
    """Raise ValueError if the JSON of ``stream`` nests maps and arrays more than
    ``ATOMIC_DEPTH_MAX`` deep (MTGJSON's cards nest 7 deep). ijson's fast parser keeps the path
    to every value it is inside, so 200,000 brackets would take it tens of gigabytes: the depth
    is read first, by its path-less parser, with the counting done in C (itertools)."""
    import ijson

    events = map(itemgetter(0), ijson.basic_parse(stream))
    depths = accumulate(map(_DEPTH_STEP.__getitem__, filter(_DEPTH_STEP.__contains__, events)))
    if next(filter(partial(lt, ATOMIC_DEPTH_MAX), depths), None) is not None:
        raise ValueError(f"its maps and arrays nest more than {ATOMIC_DEPTH_MAX} deep (docs/limits.md)")


def card_at(source: Path, offset: int) -> str | None:
    """The name of the card of ``data`` that the decompressed JSON of ``source`` is in at byte
    ``offset`` (the last card named before it), or None. Read again up to there only when an
    import stops at a card too long (``check_depth`` has seen that it nests within bounds)."""
    import ijson

    last: deque[tuple[str, str, Any]] = deque(maxlen=1)
    stream, _ = _open_source(source, lambda n: None, end=offset)
    with stream:
        events, copy = tee(ijson.parse(stream))
        try:
            last.extend(compress(copy, map(partial(eq, ("data", "map_key")), map(itemgetter(0, 1), events))))
        except Exception:  # noqa: BLE001 - the JSON ends at ``offset``: the card named last is the one
            pass
    return last[0][2] if last else None


def first_line(error: BaseException) -> str:
    """An error's first line, cut short: a JSON parser's message may go on to quote the file."""
    reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return quoted(reason, 300)[1:-1]


def import_atomic_cards(source: str | os.PathLike[str], target: Path | None = None,
                        progress: Callable[[int, int], object] | None = None,
                        compile: Callable[[list[IndexedCard]], list[str]] | None = None,
                        compiled_meta: dict[str, str] | None = None) -> dict[str, Any]:
    """Read MTGJSON's AtomicCards file ``source`` into the card index (``index_path()`` unless
    ``target``); returns the index's summary. The new index replaces the old one only once it
    is complete; the temporary files of imports stopped before (killed, say) are removed first.
    ``progress(read, total)`` hears how many bytes of the file are read so far, of how many.
    ``compile(cards)``, when given, is the compiled text of each of a batch of playable cards (JSON,
    kept in the index's ``compiled`` table by the name a deck names it by: ``CardIndex.compiled``),
    and ``compiled_meta`` what it was compiled with (``horde.cards.catalogue.import_cards``).
    Raises HordeError naming the file for a file that is not AtomicCards, or that holds a card
    past the limits of a card (docs/limits.md): the import stops at that card."""
    import ijson

    source = Path(source)
    target = Path(target) if target else index_path()
    if not os.path.exists(source):
        raise HordeError("no such file: expected MTGJSON's AtomicCards.json (plain, .gz, .xz or .zip)",
                         str(source))
    size = check_regular(source, "AtomicCards file")  # never a named pipe, a device or a folder
    if size > SIZES["AtomicCards file"]:
        raise HordeError(f"cannot read AtomicCards file: it is {size:,} bytes; it may hold at most "
                         f"{SIZES['AtomicCards file']:,} (docs/limits.md)", str(source))
    make_folder(target.parent, follow=True)
    if os.path.exists(target) and not os.path.isfile(target):
        raise WriteError("cannot write the card index: it is not a regular file (move it away)", str(target))
    remove_stopped_imports(target.parent)
    digest = hashlib.sha256()
    temporary, lock = _temporary_index(target)
    unreadable = (ijson.JSONError, ValueError, EOFError, OSError, lzma.LZMAError, zipfile.BadZipFile, zlib.error,
                  RecursionError, MemoryError)  # the file's own problems; what the index's writing meets is below
    cards = refused = 0
    read = size = 0

    def count(n: int) -> None:
        nonlocal read
        read += n
        if progress is not None:
            progress(read, 2 * size)  # the file is read twice: its shape (check_shape), then its cards

    try:
        stream, size = _open_source(source, count)
        with stream:
            try:
                check_depth(stream)
            except TooLong as error:
                raise stopped(source, error) from None
            except unreadable as error:
                raise not_read(source, error) from None
        db = sqlite3.connect(temporary)
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("CREATE TABLE cards (key TEXT PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL)")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE compiled (name TEXT PRIMARY KEY, data TEXT NOT NULL)")
        rows: list[tuple[str, str, str]] = []
        compiled: list[tuple[str, str]] = []
        batch: list[IndexedCard] = []

        def compile_batch() -> None:
            if compile is not None and batch:
                compiled.extend(zip([c.name.lower() for c in batch], compile(list(batch)), strict=True))
                batch.clear()

        stream, size = _open_source(source, count)
        with stream:
            try:
                stream.next_card()
                for key, faces in ijson.kvitems(stream, "data", use_float=True):
                    stream.next_card()
                    card = card_from_faces(key, check_faces(key, faces))
                    if card is None:
                        continue
                    data = json.dumps(card.__dict__, separators=(",", ":"), ensure_ascii=False)
                    digest.update(data.encode())
                    keys = {name_key(key), name_key(card.name), name_key(card.full_name)}
                    rows.extend((k, card.name, data) for k in keys)
                    if compile is not None and not card.refused:
                        batch.append(card)
                    for face in faces:  # the other faces' names say which card to name
                        other = face.get("faceName", "")
                        if other and card.layout in ("split", "aftermath") and card.faces:
                            rows.append((name_key(other), card.name, data))  # a half names its card
                        elif other and name_key(other) not in keys:
                            reason = card.refused or (f"'{other}' is the back face of '{card.full_name}'; a deck names "
                                                      f"its front face '{card.name}'")
                            record = dict(card.__dict__, name=other, refused=reason)
                            rows.append((name_key(other), other, json.dumps(record, separators=(",", ":"),
                                                                          ensure_ascii=False)))
                    cards += 1
                    refused += bool(card.refused)
                    if cards > INDEX_CARDS_MAX:
                        raise ValueError(f"more than {INDEX_CARDS_MAX:,} cards, the most an index holds "
                                         "(docs/limits.md)")
                    if len(batch) >= COMPILE_BATCH:
                        compile_batch()
                    if len(rows) >= 5000:
                        db.executemany("INSERT OR IGNORE INTO cards VALUES (?, ?, ?)", rows)
                        db.executemany("INSERT OR REPLACE INTO compiled VALUES (?, ?)", compiled)
                        rows.clear()
                        compiled.clear()
            except TooLong as error:
                raise stopped(source, error) from None
            except unreadable as error:
                raise not_read(source, error) from None
        compile_batch()
        db.executemany("INSERT OR IGNORE INTO cards VALUES (?, ?, ?)", rows)
        db.executemany("INSERT OR REPLACE INTO compiled VALUES (?, ?)", compiled)
        if not cards:
            raise HordeError("no cards found: expected MTGJSON's AtomicCards.json with a 'data' object",
                             str(source))
        summary: dict[str, Any] = {"schema": SCHEMA, "source": shown(source.name), "cards": cards,
                                   "refused_layouts": refused, "digest": digest.hexdigest()[:16]}
        if compile is not None:
            summary.update(compiled_meta or {})
        db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in summary.items()])
        db.commit()
        db.close()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as any file the user writes (mkstemp makes it private)
        os.replace(temporary, target)
    except (sqlite3.Error, OSError) as error:  # the data folder's disk full or read-only
        Path(temporary).unlink(missing_ok=True)
        raise WriteError(f"cannot write the card index: {error}", str(target)) from None
    except BaseException:  # a HordeError, or the import stopped (Ctrl-C, SIGTERM): no temporary file is left
        Path(temporary).unlink(missing_ok=True)
        raise
    finally:
        os.close(lock)
    _OPEN.clear()
    return summary


def not_read(source: Path, error: BaseException) -> HordeError:
    """The one line of a file that can't be read: a damaged or truncated archive, or not JSON."""
    if isinstance(error, (EOFError, lzma.LZMAError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile)):
        kind = next((k for end, k in ((".zip", "zip archive"), (".gz", "gzip file"), (".xz", "xz file"))
                     if source.name.lower().endswith(end)), "file")
        return HordeError(f"cannot read the {kind}: it is damaged or cut short ({first_line(error)})", str(source))
    return HordeError(f"cannot read the file as MTGJSON's AtomicCards JSON: {first_line(error)}", str(source))


def stopped(source: Path, error: TooLong) -> HordeError:
    """The one line of an import stopped at a card too long, naming the card."""
    card = card_at(source, error.offset) if error.offset is not None else None
    where = f"data[{quoted(card)}]: " if card is not None else f"at byte {error.offset:,}: " if error.offset else ""
    return HordeError(f"import stopped: {where}{error}", str(source))


TEMPORARY_INDEX = ".cards-*.sqlite"  # an index being written (``tempfile.mkstemp``'s name in the data folder)


def _lock(fd: int, wait: bool) -> bool | None:
    """Take the lock (``flock``) of an import's temporary file: True when taken, False when a
    running import holds it, None where the system has no such lock."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks
        return None
    return True


def _temporary_index(target: Path) -> tuple[str, int]:
    """A new temporary file next to the index ``target``, and an open descriptor of it that holds
    a lock on it (``flock``) until the import ends: another import sees that it is in use."""
    while True:
        try:
            handle, temporary = tempfile.mkstemp(prefix=".cards-", suffix=".sqlite", dir=target.parent)
        except OSError as error:
            raise WriteError(f"cannot write the card index: {error.strerror or error}", str(target.parent),
                             error.errno) from None
        if _lock(handle, wait=True) is None:
            return temporary, handle
        try:
            if os.stat(temporary).st_ino == os.fstat(handle).st_ino:
                return temporary, handle
        except FileNotFoundError:
            pass
        os.close(handle)  # another import removed it before it was locked: make another


def remove_stopped_imports(folder: Path) -> list[Path]:
    """Remove the temporary index files that imports stopped without a word left in ``folder``
    (killed, or the machine turned off): each running import holds a lock on its own, so a file
    no one holds is stale. Links are never followed nor removed. Returns the files removed."""
    removed: list[Path] = []
    for path in sorted(folder.glob(TEMPORARY_INDEX)):
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                         | os.O_NONBLOCK)
        except OSError:
            continue  # a link, or gone already
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            if not _lock(fd, wait=False):
                continue  # an import running now (or no locks here: which is running can't be told)
            if os.lstat(path).st_ino == os.fstat(fd).st_ino:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


class CardIndex:
    """A read-only view of the card index (one sqlite connection per process)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._pid: int | None = None
        try:
            self.meta = {k: json.loads(v) for k, v in self._connection().execute("SELECT key, value FROM meta")}
        except (ValueError, TypeError) as error:
            raise sqlite3.DatabaseError(f"its meta table is damaged ({error})") from None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None or self._pid != os.getpid():  # a forked worker opens its own
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            self._pid = os.getpid()
        return self._db

    @property
    def digest(self) -> str:
        """A digest of the index's content (results from other card facts are other results)."""
        return self.meta.get("digest", "")

    def lookup(self, name: str) -> IndexedCard | None:
        """The card named ``name`` (its name, a face name or ``A // B``; case ignored, æ read as ae),
        or None."""
        try:
            key = name_key(name)
            row = None
            for spelling in (key, key.replace("ae", "æ")) if "ae" in key else (key,):  # an index of older files: Æ
                row = self._connection().execute("SELECT data FROM cards WHERE key = ?", (spelling,)).fetchone()
                if row:
                    break
            if not row:
                return None
            card = IndexedCard.from_json(json.loads(row[0]))
            check_faces(card.name, [{"name": card.name, "faceName": card.full_name, "manaCost": card.mana_cost,
                                     "type": card.type, "power": card.power, "toughness": card.toughness,
                                     "loyalty": card.loyalty, "text": card.text, "layout": card.layout,
                                     "colors": list(card.colors), "colorIdentity": list(card.color_identity),
                                     "supertypes": list(card.supertypes), "types": list(card.types),
                                     "subtypes": list(card.subtypes), "keywords": list(card.keywords),
                                     "manaValue": card.mana_value}])
            if card.faces:
                check_faces(card.name, [dict(face) for face in card.faces])
            return card
        except (sqlite3.Error, ValueError, TypeError, RecursionError) as error:
            raise HordeError(f"the card index is damaged ({' '.join(str(error).split())[:200]}); import it again "
                             "with horde cards import", str(self.path)) from None

    def cards(self) -> list[IndexedCard]:
        """Every card of the index once, by its MTGJSON name in order (a multi-faced card by the
        face a deck names: the one not refused, else the whole card's name)."""
        try:
            rows = self._connection().execute("SELECT DISTINCT data FROM cards").fetchall()
            found: dict[str, IndexedCard] = {}
            for (data,) in rows:
                card = IndexedCard.from_json(json.loads(data))
                kept = found.get(card.full_name)
                if kept is None or (kept.refused and not card.refused) or \
                        (kept.refused and card.refused and card.name == card.full_name):
                    found[card.full_name] = card
        except (sqlite3.Error, ValueError, TypeError) as error:
            raise HordeError(f"the card index is damaged ({' '.join(str(error).split())[:200]}); import it again "
                             "with horde cards import", str(self.path)) from None
        return [found[name] for name in sorted(found)]

    def close_matches(self, name: str, n: int = 3) -> list[str]:
        """Names in the index close to ``name`` (those that share its first two letters)."""
        prefix = name_key(name)[:2]
        if not prefix:
            return []
        try:
            names = [r[0] for r in self._connection().execute(
                "SELECT DISTINCT name FROM cards WHERE key >= ? AND key < ?", (prefix, prefix + "\uffff"))
                if isinstance(r[0], str)]
        except sqlite3.Error as error:
            raise HordeError(f"the card index is damaged ({error}); import it again with horde cards import",
                             str(self.path)) from None
        return difflib.get_close_matches(name, names, n=n, cutoff=0.75)

    def compiled(self, name: str) -> Any:
        """The compiled text of the card a deck names ``name`` (as ``import_atomic_cards``'s
        ``compile`` wrote it, parsed from JSON), or None: not compiled at import (an index of an
        earlier version, or imported without a compiler). Whether it is still good is the
        caller's to say (``meta``: what it was compiled with)."""
        try:
            row = self._connection().execute("SELECT data FROM compiled WHERE name = ?",
                                             (name.strip().lower(),)).fetchone()
            return json.loads(row[0]) if row else None
        except sqlite3.OperationalError:  # an index written before the compiled table
            return None
        except (sqlite3.Error, ValueError, TypeError, RecursionError) as error:
            raise HordeError(f"the card index is damaged ({' '.join(str(error).split())[:200]}); import it again "
                             "with horde cards import", str(self.path)) from None

    def compiled_all(self) -> dict[str, Any]:
        """Every card's compiled text, by the lower-case name a deck names it by ({} if none)."""
        try:
            return {name: json.loads(data) for name, data in
                    self._connection().execute("SELECT name, data FROM compiled")}
        except sqlite3.OperationalError:
            return {}
        except (sqlite3.Error, ValueError, TypeError, RecursionError) as error:
            raise HordeError(f"the card index is damaged ({' '.join(str(error).split())[:200]}); import it again "
                             "with horde cards import", str(self.path)) from None

    def __len__(self) -> int:
        return int(self.meta.get("cards", 0))


_OPEN: dict[str, CardIndex | None] = {}


def open_index(path: Path | None = None) -> CardIndex | None:
    """The card index at ``path`` (default ``index_path()``), or None if there is none; opened
    once per process."""
    path = Path(path) if path else index_path()
    key = str(path)
    if key not in _OPEN:
        try:
            _OPEN[key] = CardIndex(path) if os.path.isfile(path) else None
        except sqlite3.DatabaseError as error:
            raise HordeError(f"the card index cannot be read ({error}); import it again with horde cards import",
                             str(path)) from None
    return _OPEN[key]
