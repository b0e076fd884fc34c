"""The local card index: the printed facts of every card, read from MTGJSON's AtomicCards file.

``import_atomic_cards(FILE)`` streams MTGJSON's ``AtomicCards.json`` (plain, ``.gz``, ``.xz`` or
``.zip``; MIT-licensed, downloaded by the user: nothing is fetched here) with ``ijson``, one card
at a time, into an sqlite database under the data folder (``data_home()``: ``$HORDE_HOME`` or the
platform's user data folder). The database is written to a temporary file and renamed, so a
failed import leaves the old index as it was. ``CardIndex.lookup(name)`` finds a card by its name,
a face name or an ``A // B`` name, ignoring case.

The index holds facts only (name, mana cost, colours, type line, power/toughness, loyalty,
keywords, Oracle text, layout). What a card *does* comes from a hand-written entry or from the
Oracle-text compiler (``horde.cards.oracle``); ``horde.cards.catalogue`` decides which. Multi-faced cards are
kept by their front face (transform, modal double-faced, adventure, flip) or kept with the reason
they are refused (split, aftermath, meld), never half-read. AtomicCards has no tokens: tokens come
from the card files.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import io
import json
import lzma
import os
import sqlite3
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import accumulate
from operator import itemgetter, lt
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from horde.errors import HordeError
from horde.files import SIZES, WriteError, check_regular, make_folder
from horde.limits import ATOMIC_DEPTH_MAX, CARD_NAME_MAX, CARD_TEXT_MAX, quoted

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

INDEX_NAME = "cards.sqlite"
SCHEMA = 1
# MTGJSON fields kept for each card (the Card (Atomic) data model's names).
FIELDS = ("name", "faceName", "manaCost", "manaValue", "colors", "colorIdentity", "type", "supertypes",
          "types", "subtypes", "power", "toughness", "loyalty", "keywords", "text", "layout", "side")
# Multi-faced layouts played by their front face; the other face is never used.
FRONT_FACE_LAYOUTS = {"transform": "a transform card", "modal_dfc": "a modal double-faced card",
                      "adventure": "an adventure card", "flip": "a flip card"}
# Layouts refused with the reason: the engine plays one face per card.
REFUSED_LAYOUTS = {
    "split": "a split card: either half can be cast, and the engine plays one face per card",
    "aftermath": "an aftermath card: its second half is cast from the graveyard, which the engine does not do",
    "meld": "a meld card: melding two cards is beyond the engine",
}
# Layouts that are not cards of a deck (AtomicCards lists a few).
SKIPPED_LAYOUTS = {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"}
# What an AtomicCards file may hold (docs/limits.md): the decompressed JSON, the cards, the faces of one.
DECOMPRESSED_MAX = SIZES["AtomicCards file"]
INDEX_CARDS_MAX = 200_000
FACES_MAX = 8
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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IndexedCard:
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**values)


def check_faces(key: str, faces: Any) -> list[dict[str, Any]]:
    """One AtomicCards entry checked against MTGJSON's model: a list of at most ``FACES_MAX`` faces,
    each an object whose fields read here have their type (text, a list of texts, a number);
    raises ValueError saying what is wrong. Fields not read are not looked at."""
    if not isinstance(faces, list) or not 1 <= len(faces) <= FACES_MAX:
        raise ValueError(f"data[{quoted(key)}]: expected a list of 1 to {FACES_MAX} card faces")
    for face in faces:
        if not isinstance(face, dict):
            raise ValueError(f"data[{quoted(key)}]: expected card faces (JSON objects), got {type(face).__name__}")
        for name in TEXT_FIELDS:
            if face.get(name) is not None and not isinstance(face[name], str):
                raise ValueError(f"data[{quoted(key)}]: field {name!r} is {type(face[name]).__name__}: expected text")
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
    layout that is not a card of a deck. A card whose name or text passes the limits of a card
    (docs/limits.md) is kept only to say why it is refused."""
    if not faces:
        return None
    layout = faces[0].get("layout", "normal")
    if layout in SKIPPED_LAYOUTS:
        return None
    front = next((f for f in faces if f.get("side", "a") == "a"), faces[0])
    note = refused = ""
    if layout in REFUSED_LAYOUTS:
        refused = f"'{front.get('name', key)}' is {REFUSED_LAYOUTS[layout]}"
    elif len(front.get("name", key)) > CARD_NAME_MAX or len(front.get("text") or "") > CARD_TEXT_MAX:
        refused = (f"its name or text is longer than a card's may be ({CARD_NAME_MAX} and {CARD_TEXT_MAX:,} "
                   "characters: docs/limits.md)")
    elif len(faces) > 1 or layout in FRONT_FACE_LAYOUTS:
        others = " and ".join(f"'{f.get('faceName')}'" for f in faces if f is not front and f.get("faceName"))
        note = (f"the front face of {FRONT_FACE_LAYOUTS.get(layout, 'a ' + layout + ' card')}; "
                f"{'its other face ' + others if others else 'the other face'} is not played")
    value = front.get("faceManaValue", front.get("manaValue", 0)) or 0
    return IndexedCard(
        name=front.get("name", key) if refused else front.get("faceName") or front.get("name", key),
        full_name=front.get("name", key),
        mana_cost=front.get("manaCost", "") or "", mana_value=float(value),
        colors=tuple(front.get("colors", ())), color_identity=tuple(front.get("colorIdentity", ())),
        type=front.get("type", ""), supertypes=tuple(front.get("supertypes", ())),
        types=tuple(front.get("types", ())), subtypes=tuple(front.get("subtypes", ())),
        power=front.get("power"), toughness=front.get("toughness"), loyalty=front.get("loyalty"),
        keywords=tuple(front.get("keywords", ())), text=front.get("text", "") or "", layout=layout,
        note=note, refused=refused)


class _Counting(io.RawIOBase):
    """A readable stream that reports how many bytes were read through it (for the progress bar)."""

    def __init__(self, raw: IO[bytes] | io.BufferedIOBase, update: Callable[[int], object],
                 most: int | None = None) -> None:
        self.raw = raw
        self.update = update
        self.most = most  # the most bytes it may give (a decompressed stream: a zip bomb is refused)
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer)
        data = self.raw.read(len(view))
        view[:len(data)] = data
        self.update(len(data))
        self.given += len(data)
        if self.most is not None and self.given > self.most:
            raise OSError(f"it decompresses to more than {self.most:,} bytes, the most an AtomicCards file may hold "
                          "(docs/limits.md)")
        return len(data)


def _open_source(path: Path, update: Callable[[int], object]) -> tuple[io.BufferedIOBase, int]:
    """The decompressed byte stream of an AtomicCards file, and the size its progress counts to."""
    name = path.name.lower()
    if name.endswith(".zip"):
        archive = zipfile.ZipFile(path)
        members = [m for m in archive.infolist() if m.filename.lower().endswith(".json")]
        if not members:
            raise HordeError("the zip archive holds no .json file", str(path))
        member = members[0]
        return io.BufferedReader(_Counting(archive.open(member), update, DECOMPRESSED_MAX), 1 << 20), \
            min(member.file_size, DECOMPRESSED_MAX)
    size = path.stat().st_size
    raw = io.BufferedReader(_Counting(open(path, "rb"), update), 1 << 20)
    if name.endswith(".gz"):
        return io.BufferedReader(_Counting(gzip.GzipFile(fileobj=raw), lambda n: None, DECOMPRESSED_MAX)), size
    if name.endswith(".xz"):
        return io.BufferedReader(_Counting(lzma.LZMAFile(raw), lambda n: None, DECOMPRESSED_MAX)), size
    return raw, size


_DEPTH_STEP = {"start_map": 1, "start_array": 1, "end_map": -1, "end_array": -1}


def check_depth(stream: io.BufferedIOBase) -> None:
    """Raise ValueError if the JSON of ``stream`` nests maps and arrays more than
    ``ATOMIC_DEPTH_MAX`` deep (MTGJSON's cards nest 7 deep). ijson's fast parser keeps the path
    to every value it is inside, so 200,000 brackets would take it tens of gigabytes: the depth
    is read first, by its path-less parser, with the counting done in C (itertools)."""
    import ijson

    events = map(itemgetter(0), ijson.basic_parse(stream))
    depths = accumulate(map(_DEPTH_STEP.__getitem__, filter(_DEPTH_STEP.__contains__, events)))
    if next(filter(partial(lt, ATOMIC_DEPTH_MAX), depths), None) is not None:
        raise ValueError(f"its maps and arrays nest more than {ATOMIC_DEPTH_MAX} deep (docs/limits.md)")


def first_line(error: BaseException) -> str:
    """An error's first line, cut short: a JSON parser's message may go on to quote the file."""
    reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return quoted(reason, 300)[1:-1]


def import_atomic_cards(source: str | os.PathLike[str], target: Path | None = None,
                        progress: Callable[[int, int], object] | None = None) -> dict[str, Any]:
    """Read MTGJSON's AtomicCards file ``source`` into the card index (``index_path()`` unless
    ``target``); returns the index's summary. The new index replaces the old one only once it
    is complete. ``progress(read, total)`` hears how many bytes of the file are read so far, of
    how many. Raises HordeError naming the file for a file that is not AtomicCards."""
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
    digest = hashlib.sha256()
    try:
        handle, temporary = tempfile.mkstemp(prefix=".cards-", suffix=".sqlite", dir=target.parent)
    except OSError as error:
        raise WriteError(f"cannot write the card index: {error.strerror or error}", str(target.parent),
                         error.errno) from None
    os.close(handle)
    cards = refused = 0
    read = size = 0

    def count(n: int) -> None:
        nonlocal read
        read += n
        if progress is not None:
            progress(read, 2 * size)  # the file is read twice: its depth (check_depth), then its cards

    try:
        stream, size = _open_source(source, count)
        db = sqlite3.connect(temporary)
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("CREATE TABLE cards (key TEXT PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL)")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        rows: list[tuple[str, str, str]] = []
        with stream:
            try:
                check_depth(stream)
            except (ijson.JSONError, ValueError, EOFError, OSError, lzma.LZMAError, zipfile.BadZipFile,
                    zlib.error, MemoryError) as error:
                raise HordeError(f"cannot read the file as MTGJSON's AtomicCards JSON: {first_line(error)}",
                                 str(source)) from None
        stream, size = _open_source(source, count)
        with stream:
            try:
                for key, faces in ijson.kvitems(stream, "data", use_float=True):
                    card = card_from_faces(key, check_faces(key, faces))
                    if card is None:
                        continue
                    data = json.dumps(card.__dict__, separators=(",", ":"), ensure_ascii=False)
                    digest.update(data.encode())
                    keys = {key.lower(), card.name.lower(), card.full_name.lower()}
                    rows.extend((k, card.name, data) for k in keys)
                    for face in faces:  # the other faces' names say which card to name
                        other = face.get("faceName", "")
                        if other and other.lower() not in keys:
                            reason = card.refused or (f"'{other}' is the back face of '{card.full_name}'; a deck names "
                                                      f"its front face '{card.name}'")
                            record = dict(card.__dict__, name=other, refused=reason)
                            rows.append((other.lower(), other, json.dumps(record, separators=(",", ":"),
                                                                          ensure_ascii=False)))
                    cards += 1
                    refused += bool(card.refused)
                    if cards > INDEX_CARDS_MAX:
                        raise ValueError(f"more than {INDEX_CARDS_MAX:,} cards, the most an index holds "
                                         "(docs/limits.md)")
                    if len(rows) >= 5000:
                        db.executemany("INSERT OR IGNORE INTO cards VALUES (?, ?, ?)", rows)
                        rows.clear()
            except (ijson.JSONError, ValueError, EOFError, OSError, lzma.LZMAError, zipfile.BadZipFile,
                    zlib.error, RecursionError, MemoryError) as error:
                raise HordeError(f"cannot read the file as MTGJSON's AtomicCards JSON: {first_line(error)}",
                                 str(source)) from None
        db.executemany("INSERT OR IGNORE INTO cards VALUES (?, ?, ?)", rows)
        if not cards:
            raise HordeError("no cards found: expected MTGJSON's AtomicCards.json with a 'data' object",
                             str(source))
        summary = {"schema": SCHEMA, "source": source.name, "cards": cards, "refused_layouts": refused,
                   "digest": digest.hexdigest()[:16]}
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
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _OPEN.clear()
    return summary


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
        """The card named ``name`` (its name, a face name or ``A // B``; case ignored), or None."""
        try:
            row = self._connection().execute("SELECT data FROM cards WHERE key = ?", (name.strip().lower(),)).fetchone()
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
        prefix = name.strip().lower()[:2]
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
