"""The games cache: simulated games kept in the data folder, so that no command plays the same
game twice.

``horde calibrate`` plays hundreds of games of each of a group's setups at each skill it
compares, and ``horde tune`` plays each value it tries in seeded batches; run again (another
games file of the same group, a tune of the same setup) they would play the very same games.
A game is fixed by its setup (the skill is one of its knobs), its seed, the files it reads and
the code that plays it, so its record is kept under that key, in an SQLite file of the data
folder (``$HORDE_HOME`` or the platform's user data folder: ``games-cache.sqlite``). The key
holds the setup's digest, the seed of the series (game ``i`` plays with the seed ``(seed, i)``),
a digest of the deck and card files the setup reads (``horde.lab.experiments.data_digest``) and
a digest of the code a game runs through (every module outside the command line and the
lab): another deck file or another version plays other games, under another key.

Each game keeps what the likelihood of ``horde.lab.calibrate`` reads (``Record``: the winner, the
turn the game ended, the Horde turns, the team's life at the end and at its lowest, the cards left
in the Horde's library, and both of these after each of the Horde's turns) in about 100 bytes. The cache holds at most ``CACHE_GAMES_MAX`` games: past
that, the series used longest ago are dropped. A cache that can't be read or written (a damaged
file, a read-only folder) is left alone: the games are played, and one line says so.
``HORDE_NO_CACHE=1`` (or a command's ``--no-cache``) plays every game afresh.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from horde import __version__, build
from horde.setup import GameSetup

CACHE_NAME = "games-cache.sqlite"
CACHE_GAMES_MAX = 2_000_000  # games kept (about 200 MB); past it the series used longest ago are dropped
WINNERS = ("team", "horde", "stall", "aborted")  # stored as their place in this list
SCHEMA = 2  # what a Record holds: another schema, other keys


TRACK_TURNS = 12  # the Horde turns a Record's tracks hold, at most


class Record(NamedTuple):
    """What a game's likelihood reads: who won, the turn it ended (both sides' turns counted,
    H2), the Horde's turns, the team's life at the end and at its lowest, the cards left in the
    Horde's library, and the tracks: the team's life and the Horde's library at the end of each of
    the Horde's first ``TRACK_TURNS`` turns that the game played."""

    winner: str
    turn: int
    horde_turns: int
    team_life: int
    life_min: int
    horde_left: int
    life_track: tuple[int, ...] = ()
    horde_track: tuple[int, ...] = ()


def record_of(result) -> Record:
    """The Record of a GameResult (its tracks from its turn rows, when it kept them: H2 says
    which turns were the Horde's)."""
    from horde.engine.opponents import horde_turn_now

    ends = [row for row in result.turn_rows or () if horde_turn_now(result.setup, row[0])][:TRACK_TURNS]
    return Record(str(result.winner), result.turns, result.horde_turns, result.team_life, result.team_life_min,
                  result.horde_cards_left, tuple(row[1] for row in ends), tuple(row[3] for row in ends))


@functools.cache
def games_code_digest() -> str:
    """A digest of the code a game runs through: the source of every module of the package
    outside the command line (``cli``) and the lab (``lab``: it only schedules games). The
    compiled build plays the games of the sources it was built from (``horde.build`` refuses a
    stale one, and the pinned digest test holds both builds to the same games), so both share
    the cache."""
    package = Path(build.__file__).resolve().parent
    digest = hashlib.sha256(__version__.encode() + b"\0")
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if not relative.startswith(("cli/", "lab/")):
            digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def series_key(setup: GameSetup, seed) -> str:
    """The key of the series of games of ``setup`` with the seeds ``(seed, i)``."""
    from horde.lab.experiments import data_digest

    text = f"{SCHEMA}\0{setup.digest()}\0{seed!r}\0{data_digest(setup)}\0{games_code_digest()}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_path() -> Path:
    from horde.cards.cardindex import data_home

    return data_home() / CACHE_NAME


def enabled() -> bool:
    return os.environ.get("HORDE_NO_CACHE", "") in ("", "0")


_warned: set[str] = set()


def _warn(problem: str) -> None:
    if problem not in _warned:
        _warned.add(problem)
        print(f"warning: the games cache {cache_path()}: {problem}; the games are played without it",
              file=sys.stderr, flush=True)


@contextlib.contextmanager
def _database() -> Iterator[sqlite3.Connection | None]:
    """The cache's database, made if missing; None (after one warning line) when it can't be used."""
    path = cache_path()
    connection = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise OSError("it is not a regular file")
        connection = sqlite3.connect(str(path), timeout=60)
        connection.execute("CREATE TABLE IF NOT EXISTS series (key TEXT PRIMARY KEY, used REAL, games INTEGER)")
        connection.execute("CREATE TABLE IF NOT EXISTS games (key TEXT, game INTEGER, winner INTEGER, turn INTEGER, "
                           "horde_turns INTEGER, team_life INTEGER, life_min INTEGER, horde_left INTEGER, "
                           "life_track TEXT, horde_track TEXT, PRIMARY KEY (key, game)) WITHOUT ROWID")
    except (OSError, sqlite3.Error) as problem:
        if connection is not None:
            connection.close()
        _warn(str(problem))
        yield None
        return
    try:
        yield connection
    finally:
        connection.close()


def cached(key: str, start: int, stop: int) -> dict[int, Record]:
    """The games ``start`` to ``stop - 1`` of the series ``key`` the cache holds."""
    if not enabled():
        return {}
    with _database() as db:
        if db is None:
            return {}
        try:
            rows = db.execute("SELECT game, winner, turn, horde_turns, team_life, life_min, horde_left, life_track, "
                              "horde_track FROM games WHERE key = ? AND game >= ? AND game < ?",
                              (key, start, stop)).fetchall()
            if rows:
                with db:
                    db.execute("UPDATE series SET used = ? WHERE key = ?", (time.time(), key))
        except sqlite3.Error as problem:
            _warn(str(problem))
            return {}
    return {row[0]: Record(WINNERS[row[1]], row[2], row[3], row[4], row[5], row[6], _numbers(row[7]),
                           _numbers(row[8])) for row in rows}


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split()) if text else ()


def keep(key: str, records: dict[int, Record]) -> None:
    """Add games of the series ``key`` to the cache, then drop the series used longest ago while
    it holds more than ``CACHE_GAMES_MAX`` games."""
    if not enabled() or not records:
        return
    with _database() as db:
        if db is None:
            return
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               [(key, game, WINNERS.index(r.winner), *r[1:6], " ".join(map(str, r.life_track)),
                                 " ".join(map(str, r.horde_track))) for game, r in records.items()])
                count = db.execute("SELECT COUNT(*) FROM games WHERE key = ?", (key,)).fetchone()[0]
                db.execute("INSERT OR REPLACE INTO series VALUES (?, ?, ?)", (key, time.time(), count))
                total = db.execute("SELECT COALESCE(SUM(games), 0) FROM series").fetchone()[0]
                for old, games in db.execute("SELECT key, games FROM series WHERE key != ? ORDER BY used",
                                             (key,)).fetchall():
                    if total <= CACHE_GAMES_MAX:
                        break
                    db.execute("DELETE FROM games WHERE key = ?", (old,))
                    db.execute("DELETE FROM series WHERE key = ?", (old,))
                    total -= games
        except sqlite3.Error as problem:
            _warn(str(problem))


def play_records(setup: GameSetup, seed, start: int, stop: int, workers: int | None = None,
                 done: Callable[[int], object] | None = None, cache: bool = True) -> list[Record]:
    """The Records of games ``start`` to ``stop - 1`` of ``setup`` (game ``i`` with the seed
    ``(seed, i)``): those the cache holds, and the others played on ``workers`` processes (default:
    one per core) and kept. ``done(1)`` hears of every game played. Without ``cache`` every game
    is played, and none kept."""
    from horde.lab.runner import play_many

    cache = cache and enabled()
    key = series_key(setup, seed) if cache else ""
    found = cached(key, start, stop) if cache else {}
    runs: list[list[int]] = []  # the missing games, in runs of consecutive ones
    for i in range(start, stop):
        if i not in found:
            if runs and runs[-1][1] == i:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
    for first, last in runs:
        count = max(1, min(workers or os.cpu_count() or 1, last - first))
        chunk = max(1, min(100, math.ceil((last - first) / count)))
        played: dict[int, Record] = {}
        try:
            for number, result in enumerate(play_many(setup, seed, last - first, workers=count, chunk_size=chunk,
                                                      progress=False, start=first, record_turns=True), first):
                played[number] = record_of(result)
                if done is not None:
                    done(1)
        finally:
            if cache:
                keep(key, played)  # what was played is kept, even when stopped
        found.update(played)
    return [found[i] for i in range(start, stop)]


def play_winners(setup: GameSetup, seed, games: int, workers: int | None = None, cache: bool = True) -> list[str]:
    """The winners of ``games`` seeded games of ``setup`` (game ``i`` with the seed ``(seed, i)``),
    from the cache or played on ``workers`` processes (default: one per core)."""
    return [r.winner for r in play_records(setup, seed, 0, games, workers, cache=cache)]
