"""The local card index: the printed facts of every card, read from MTGJSON's AtomicCards file.

``import_atomic_cards(FILE)`` streams MTGJSON's ``AtomicCards.json`` (plain, ``.gz``, ``.xz`` or
``.zip``; MIT-licensed, downloaded by the user: nothing is fetched here) with ``ijson``, one card
at a time, into an sqlite database under the data folder (``data_home()``: ``$HORDE_HOME`` or the
platform's user data folder). The database is written to a temporary file and renamed, so a
failed import leaves the old index as it was. ``CardIndex.lookup(name)`` finds a card by its name,
a face name or an ``A // B`` name, ignoring case.

The index holds facts only (name, mana cost, colours, type line, power/toughness, loyalty,
keywords, Oracle text, layout). What a card *does* comes from a hand-written entry or from the
Oracle-text compiler (``horde.oracle``); ``horde.catalogue`` decides which. Multi-faced cards are
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from horde.errors import HordeError

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


def card_from_faces(key: str, faces: list[dict[str, Any]]) -> IndexedCard | None:
    """The IndexedCard of one AtomicCards entry (a list of faces), or None for a layout that is
    not a card of a deck."""
    if not faces:
        return None
    layout = faces[0].get("layout", "normal")
    if layout in SKIPPED_LAYOUTS:
        return None
    front = next((f for f in faces if f.get("side", "a") == "a"), faces[0])
    note = refused = ""
    if layout in REFUSED_LAYOUTS:
        refused = f"'{front.get('name', key)}' is {REFUSED_LAYOUTS[layout]}"
    elif len(faces) > 1 or layout in FRONT_FACE_LAYOUTS:
        note = f"the front face of {FRONT_FACE_LAYOUTS.get(layout, 'a ' + layout + ' card')}; the other face is not played"
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

    def __init__(self, raw: IO[bytes], update: Callable[[int], object]) -> None:
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


def _open_source(path: Path, update: Callable[[int], object]) -> tuple[io.BufferedIOBase, int]:
    """The decompressed byte stream of an AtomicCards file, and the size its progress counts to."""
    name = path.name.lower()
    if name.endswith(".zip"):
        archive = zipfile.ZipFile(path)
        members = [m for m in archive.infolist() if m.filename.lower().endswith(".json")]
        if not members:
            raise HordeError("the zip archive holds no .json file", str(path))
        member = members[0]
        return io.BufferedReader(_Counting(archive.open(member), update), 1 << 20), member.file_size
    size = path.stat().st_size
    raw = io.BufferedReader(_Counting(open(path, "rb"), update), 1 << 20)
    if name.endswith(".gz"):
        return gzip.GzipFile(fileobj=raw), size
    if name.endswith(".xz"):
        return lzma.LZMAFile(raw), size
    return raw, size


def import_atomic_cards(source: str | os.PathLike[str], target: Path | None = None,
                        progress: Callable[[int, int], object] | None = None) -> dict[str, Any]:
    """Read MTGJSON's AtomicCards file ``source`` into the card index (``index_path()`` unless
    ``target``); returns the index's summary. The new index replaces the old one only once it
    is complete. ``progress(read, total)`` hears how many bytes of the file are read so far, of
    how many. Raises HordeError naming the file for a file that is not AtomicCards."""
    import ijson

    source = Path(source)
    target = Path(target) if target else index_path()
    if not source.is_file():
        raise HordeError("no such file: expected MTGJSON's AtomicCards.json (plain, .gz, .xz or .zip)",
                         str(source))
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, temporary = tempfile.mkstemp(prefix=".cards-", suffix=".sqlite", dir=target.parent)
    os.close(handle)
    cards = refused = 0
    read = size = 0

    def count(n: int) -> None:
        nonlocal read
        read += n
        if progress is not None:
            progress(read, size)

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
                for key, faces in ijson.kvitems(stream, "data", use_float=True):
                    card = card_from_faces(key, faces)
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
                    if len(rows) >= 5000:
                        db.executemany("INSERT OR IGNORE INTO cards VALUES (?, ?, ?)", rows)
                        rows.clear()
            except (ijson.JSONError, ValueError, EOFError, OSError, lzma.LZMAError, zipfile.BadZipFile) as error:
                raise HordeError(f"cannot read the file as MTGJSON's AtomicCards JSON: {error}",
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
        self.meta = {k: json.loads(v) for k, v in self._connection().execute("SELECT key, value FROM meta")}

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
        row = self._connection().execute("SELECT data FROM cards WHERE key = ?", (name.strip().lower(),)).fetchone()
        return IndexedCard.from_json(json.loads(row[0])) if row else None

    def close_matches(self, name: str, n: int = 3) -> list[str]:
        """Names in the index close to ``name`` (those that share its first two letters)."""
        prefix = name.strip().lower()[:2]
        if not prefix:
            return []
        names = [r[0] for r in self._connection().execute(
            "SELECT DISTINCT name FROM cards WHERE key >= ? AND key < ?", (prefix, prefix + "\uffff"))]
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
            _OPEN[key] = CardIndex(path) if path.is_file() else None
        except sqlite3.DatabaseError as error:
            raise HordeError(f"the card index cannot be read ({error}); import it again with horde cards import",
                             str(path)) from None
    return _OPEN[key]
