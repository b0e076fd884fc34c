"""The table's games on disk: a folder per group and season, a file per game, written whole after
every action (``horde.files.write_file``: a temporary file renamed over the old one, so a killed
server or a closed laptop leaves the last action kept, never half a file).

Layout of the table's folder::

    GROUP/SEASON/games/0001.json   a game's record: setup, seed, actions, revision (horde.table.game)
    GROUP/SEASON/games.csv         the finished games as ``horde calibrate`` reads them
    GROUP/SEASON/games-full.csv    the same with the per-game columns kept beside (cards left, life)
    GROUP/SEASON/games.jsonl       each finished game whole: record, result and every event
    GROUP/SEASON/season.json       what calibrate and tune said of the season (worked out after a game)

A ``Season`` serialises its changes with a lock: an action names the revision it was entered on,
and one entered on an older revision (another phone acted first, or the same tap sent twice) is
refused, so no action is ever applied twice.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from pathlib import Path
from typing import Any

from horde.errors import HordeError
from horde.files import make_folder, write_file
from horde.setup import PRESETS, GameSetup
from horde.table.game import Table, TableError, new_record, replay, try_action

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,39}$")
CSV_SKIPPED = {"preset", "skill", "policy", "policy_params", "players", "team_decks"}  # written apart or never


class StaleError(TableError):
    """An action entered on a page older than the game (another device acted, or it was sent twice)."""


def check_name(name: str, what: str) -> str:
    name = name.strip()
    if not NAME.match(name) or name.startswith("."):
        raise TableError(f"{what} {name!r}: expected 1 to 40 letters, digits, spaces, '-', '_' or '.', starting "
                         "with a letter or digit")
    return name


def csv_columns(setup: GameSetup) -> dict[str, str]:
    """The knobs of a setup as calibrate's columns: the preset, then every knob that differs from
    the preset's value (so ``make_setup(preset, **columns)`` is the setup again)."""
    columns = {"preset": setup.preset}
    base = dict(PRESETS[setup.preset])
    defaults = GameSetup()
    for name, value in setup.to_dict().items():
        if name in CSV_SKIPPED:
            continue
        preset_value = base.get(name, getattr(defaults, name))
        if isinstance(preset_value, tuple):
            preset_value = list(preset_value)
        if value == preset_value or value is None:
            continue
        columns["horde" if name == "horde_deck" else name] = (",".join(value) if isinstance(value, list)
                                                              else str(value).lower() if isinstance(value, bool)
                                                              else str(value))
    if list(setup.team_decks[:setup.players]) != list(GameSetup().team_decks[:setup.players]):
        columns["team"] = ",".join(setup.team_decks[:setup.players])
    return columns


class Season:
    """One group's season: its games, the one being played, and its records."""

    def __init__(self, root: Path, group: str, season: str):
        self.group = check_name(group, "group")
        self.season = check_name(season, "season")
        self.folder = Path(root) / self.group / self.season
        self.lock = threading.Lock()
        self._cache: tuple[str, int, Table] | None = None
        # each finished game's result and games.jsonl line, by file: (revision, result, line); a
        # finished game is replayed once, not at every later game's end
        self._done: dict[str, tuple[int, dict[str, Any], str]] = {}

    # ------------------------------------------------------------ games

    def game_files(self) -> list[Path]:
        folder = self.folder / "games"
        return sorted(folder.glob("[0-9][0-9][0-9][0-9].json")) if folder.is_dir() else []

    def read(self, path: Path) -> dict[str, Any]:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise HordeError(f"cannot read the game: {error}", str(path)) from None

    def records(self) -> list[tuple[Path, dict[str, Any]]]:
        return [(path, self.read(path)) for path in self.game_files()]

    def current(self) -> tuple[Path, dict[str, Any]] | None:
        """The game being played (the last one, if not finished)."""
        files = self.game_files()
        if not files:
            return None
        record = self.read(files[-1])
        return (files[-1], record) if record["status"] == "playing" else None

    def table(self, path: Path, record: dict[str, Any]) -> Table:
        """The game replayed (kept for its revision: a page view replays nothing new)."""
        key = (str(path), record["revision"])
        if self._cache is not None and self._cache[:2] == key:
            return self._cache[2]
        table = replay(record)
        self._cache = (key[0], key[1], table)
        return table

    def start(self, setup: GameSetup, seed: int) -> Path:
        with self.lock:
            if self.current() is not None:
                raise TableError("a game is being played in this season: finish it (or end it) first")
            record = new_record(setup, seed, self.group, self.season)
            number = len(self.game_files()) + 1
            path = make_folder(self.folder / "games") / f"{number:04d}.json"
            self._write(path, record)
            return path

    def act(self, revision: int, action: dict[str, Any] | None) -> Table:
        """Add ``action`` to the game being played (None: undo the last one), if entered on the
        game's current ``revision``; the game is written before the answer. Raises StaleError or
        TableError, changing nothing."""
        with self.lock:
            found = self.current()
            if found is None:
                raise StaleError("this game is over (or none is being played): nothing was changed")
            path, record = found
            if revision != record["revision"]:
                raise StaleError("this page was out of date: the game had changed on another device (or the "
                                 "same tap was sent twice); nothing was changed: here is the game as it stands")
            if action is None:
                if not record["actions"]:
                    raise TableError("nothing to undo")
                new = dict(record, actions=record["actions"][:-1])
                table = replay(new)
            else:
                new, table = try_action(record, action, self.table(path, record))
            new["revision"] = record["revision"] + 1
            if table.over:
                new["status"] = "over"
                new["finished"] = table.game.drivers.trace[-1]["turn"] if table.game.drivers.trace else None
            self._write(path, new)
            if table.over:
                self._finish()
            self._cache = (str(path), new["revision"], table)
            table.record = new
            return table

    def _write(self, path: Path, record: dict[str, Any]) -> None:
        write_file(path, json.dumps(record, indent=1, sort_keys=True) + "\n")

    # ------------------------------------------------------------ records

    def _finished(self) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
        """Each finished game's record, result row and games.jsonl line (its record, result and
        every event, replayed from its record: the record is the game), in order."""
        rows = []
        for path, record in self.records():
            if record["status"] != "over":
                continue
            done = self._done.get(str(path))
            if done is None or done[0] != record["revision"]:
                played = self.table(path, record)
                result = played.result()
                line = json.dumps({"record": record, "result": result, "events": played.game.drivers.trace},
                                  sort_keys=True, default=str)
                done = self._done[str(path)] = (record["revision"], result, line)
            rows.append((record, done[1], done[2]))
        return rows

    def finished(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Each finished game's record and result row, in order."""
        return [(record, result) for record, result, _ in self._finished()]

    def _finish(self) -> None:
        """A game ended: the season's CSV files and the game whole in games.jsonl (all rewritten
        from the games' records, so they always agree with them)."""
        done = self._finished()
        finished = [(record, result) for record, result, _ in done]
        write_file(self.folder / "games.jsonl", "\n".join(line for _, _, line in done) + "\n")
        write_file(self.folder / "games.csv", self.csv_text(finished, full=False))
        write_file(self.folder / "games-full.csv", self.csv_text(finished, full=True))

    def csv_text(self, finished: list[tuple[dict[str, Any], dict[str, Any]]], full: bool) -> str:
        """The finished games (won or lost: a stall or an aborted game is no result calibrate reads)
        as CSV: result, players, turn and the knobs; ``full`` adds the Horde's cards left, the
        team's life at the end and at its lowest, the seed and the boss met (all of which
        ``horde calibrate`` reads too)."""
        rows = []
        for record, result in finished:
            if result["winner"] not in ("team", "horde"):
                continue
            setup = GameSetup(**{**record["setup"], "team_decks": tuple(record["setup"]["team_decks"]),
                                 "policy_params": tuple(record["setup"]["policy_params"].items()),
                                 "cards": tuple(record["setup"]["cards"])})
            row = {"result": "won" if result["winner"] == "team" else "lost", "players": str(setup.players),
                   "turn": str(result["turns"])}
            if full:
                row.update(horde_cards_left=str(result["horde_cards_left"]), team_life=str(result["team_life"]),
                           life_min=str(result["team_life_min"]), seed=str(record["seed"]),
                           boss=str(result["boss"] or ""))
            row.update(csv_columns(setup))
            rows.append(row)
        header: list[str] = []
        for row in rows:
            header += [name for name in row if name not in header]
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=header or ["result", "players", "turn"], lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({name: row.get(name, "") for name in header})
        return out.getvalue()

    def summary(self) -> dict[str, Any]:
        """Games, wins, losses and stalls so far, and what calibrate and tune said (season.json)."""
        finished = self.finished()
        wins = sum(1 for _, r in finished if r["winner"] == "team")
        losses = sum(1 for _, r in finished if r["winner"] == "horde")
        estimate = {}
        path = self.folder / "season.json"
        if path.is_file():
            try:
                estimate = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                estimate = {}
        return {"games": len(finished), "wins": wins, "losses": losses, "other": len(finished) - wins - losses,
                "estimate": estimate}


def seasons(root: Path) -> list[tuple[str, str]]:
    """Every (group, season) kept under the table's folder."""
    found = []
    if Path(root).is_dir():
        for group in sorted(Path(root).iterdir()):
            if group.is_dir() and NAME.match(group.name):
                for season in sorted(group.iterdir()):
                    if season.is_dir() and NAME.match(season.name):
                        found.append((group.name, season.name))
    return found
