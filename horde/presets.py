"""The game setup: every knob of RULES.md section D (and the options the rules name), validated,
hashable, recorded with every result; and the named presets of section P.

``GameSetup`` is a frozen dataclass: two games with equal setups and seeds are the same game.
``KNOBS`` describes each field (kind, allowed values, help) for the command line and experiment
files, so every interface validates the same way and names the same fields.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from horde.errors import HordeError
from horde.limits import POLICY_NUMBER_MAX, finite_number, quoted, whole_number


class SetupError(HordeError):
    """A setup knob with a value it can't take."""


@dataclass(frozen=True)
class Knob:
    kind: str  # "int", "str", "bool", "optional_int", "decks"
    help: str
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    team_side: bool = False  # changes only the team's side (paired comparisons: same Horde stream)
    unset: str = ""  # optional_int: the word that leaves it unset (None), e.g. "unlimited"


KNOBS: dict[str, Knob] = {
    "preset": Knob("str", "named preset the other knobs start from (P)"),
    "players": Knob("int", "team players (H1)", low=1, high=4),
    "life_per_player": Knob("int", "starting life per player (H1)", low=1, high=1000),
    "grace_turns": Knob("int", "team turns before the Horde's first (H2)", low=0, high=50),
    "cards_per_player": Knob("int", "Horde deck cards per player (H3)", low=1, high=200),
    "reveal": Knob("str", "reveal until a nontoken card, or escalating (H5, H5e)",
                   choices=("until_nontoken", "escalating")),
    "reveal_base": Knob("int", "cards the Horde's first turn reveals in escalating mode (H5e)", low=1, high=100),
    "token_entry": Knob("str", "tokens are cast, or put onto the battlefield (H5t)", choices=("cast", "put")),
    "cast_order": Knob("str", "tokens first, or in revealed order (H5o)", choices=("tokens_first", "revealed")),
    "strong_mix": Knob("str", "Zombie Giant : Zombie Army among the 5 strong tokens per player (R1), e.g. '3:2'"),
    "strong_tokens": Knob("int", "strong tokens per player (R1)", low=0, high=100),
    "token_percent": Knob("optional_int", "the share of the recipe deck that is tokens, in percent, or 'default' "
                          "(R1 as written, about 60%)", low=0, high=100, unset="default"),
    "commander_casts": Knob("optional_int", "casts of each commander allowed, or 'unlimited' (D: unlimited, or 1)",
                            low=1, high=100, team_side=True, unset="unlimited"),
    "boss": Knob("str", "'random' from the deck's boss list, 'none', or a boss name (B1)"),
    "lieutenants": Knob("bool", "draw lieutenants from the deck's list (L1)"),
    "army_trigger": Knob("str", "Zombie Army trigger once per entering Army, or per Army (R2)",
                         choices=("once", "per_army")),
    "max_turns": Knob("int", "turns before the game is a stall (H14)", low=1, high=1000),
    "mulligan": Knob("str", "London with the first mulligan free, or the old partial Paris (C3)",
                     choices=("london", "partial_paris"), team_side=True),
    "blocking": Knob("str", "any team creature blocks any attacker, or only the attacked player's (H8)",
                     choices=("team", "defender"), team_side=True),
    "horde_deck": Knob("str", "the Horde deck: a bundled name or a path"),
    "team_decks": Knob("decks", "team decks, one per player (first N used): bundled names or paths",
                       team_side=True),
    "policy": Knob("str", "the team policy: a registered name or module:Class", team_side=True),
    "policy_params": Knob("params", "the policy's parameters, e.g. wrath_threshold=12", team_side=True),
    "banlist": Knob("str", "R3 banlist: 'default' (the source's list), 'none', or a path", team_side=True),
    "allow_illegal": Knob("bool", "simulate team decks that break C1 anyway", team_side=True),
    "cards": Knob("paths", "the user's card files or folders (hand-written cards that override the index)"),
    "approximate": Knob("bool", "play a card whose text is not understood by its facts alone (named in "
                        "every output)"),
}
# Knobs added after results were first published: left out of the setup hash at their default,
# so the hash of every setup that does not use them stays as it was.
LATER_KNOBS = {"cards": (), "approximate": False}


@dataclass(frozen=True)
class GameSetup:
    """Every knob of one game. Build with ``make_setup`` to get a preset and validation."""

    preset: str = "zombie-horde"
    players: int = 4
    life_per_player: int = 20
    grace_turns: int = 3
    cards_per_player: int = 25
    reveal: str = "until_nontoken"
    reveal_base: int = 3
    token_entry: str = "cast"
    cast_order: str = "tokens_first"
    strong_mix: str = "3:2"
    strong_tokens: int = 5
    token_percent: int | None = None
    commander_casts: int | None = None
    boss: str = "random"
    lieutenants: bool = True
    army_trigger: str = "once"
    max_turns: int = 60
    mulligan: str = "london"
    blocking: str = "team"
    horde_deck: str = "zombie-horde"
    team_decks: tuple[str, ...] = ("go-wide", "ramp", "control", "aggro")
    policy: str = "baseline"
    policy_params: tuple[tuple[str, object], ...] = ()
    banlist: str = "default"
    allow_illegal: bool = False
    cards: tuple[str, ...] = ()
    approximate: bool = False

    def to_dict(self) -> dict:
        data = asdict(self)
        data["team_decks"] = list(self.team_decks)
        data["policy_params"] = dict(self.policy_params)
        data["cards"] = list(self.cards)
        return data

    def digest(self) -> str:
        """A short stable hash of every knob (results carry it)."""
        data = self.to_dict()
        for name, default in LATER_KNOBS.items():
            if getattr(self, name) == default:
                del data[name]
        text = json.dumps(data, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def strong_split(self) -> tuple[int, int]:
        """(giants, armies) per player from ``strong_mix`` scaled to ``strong_tokens`` (R1)."""
        giant, army = (int(x) for x in self.strong_mix.split(":"))
        giants = round(self.strong_tokens * giant / (giant + army)) if giant + army else 0
        return giants, self.strong_tokens - giants

    def horde_key(self) -> dict:
        """The knobs that shape the Horde's side (paired comparisons share these)."""
        return {k: v for k, v in self.to_dict().items() if not KNOBS[k].team_side}


PRESETS: dict[str, dict] = {
    # P: everything of RULES.md with boss and lieutenants.
    "zombie-horde": {},
    # P: the original format and deck: no boss, no lieutenants.
    "knudson-2011": {"horde_deck": "knudson-2011", "boss": "none", "lieutenants": False},
}


def convert(name: str, value: Any, where: str = "setup") -> Any:
    """Check and convert one knob value (from the command line or an experiment file)."""
    knob = KNOBS.get(name)
    if knob is None:
        raise SetupError(f"{where}: unknown knob {quoted(name)}; knobs are: {', '.join(KNOBS)}")
    expected = ""
    try:
        if knob.kind in ("int", "optional_int"):
            if knob.kind == "optional_int":
                if value is None or (isinstance(value, str) and value.strip().lower() == knob.unset):
                    return None
                if isinstance(value, str) and value.strip().lower() == "none":
                    # Decision: 'none' could mean no casts or no limit: neither is guessed.
                    expected = (f"a whole number from {knob.low} to {knob.high} or '{knob.unset}' ('none' could "
                                f"mean either: say which)")
                    raise ValueError
            return whole_number(value, knob.low if knob.low is not None else -2**63,
                                knob.high if knob.high is not None else 2**63 - 1)
        if knob.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).lower()
            if text in ("true", "yes", "on", "1"):
                return True
            if text in ("false", "no", "off", "0"):
                return False
            raise ValueError
        if knob.kind == "params":
            if isinstance(value, str):
                pairs = [p.split("=", 1) for p in value.split(",") if p.strip()]
                if any(len(p) != 2 for p in pairs):
                    expected = "key=value pairs like wrath_threshold=12"
                    raise ValueError
                value = {k.strip(): _number(v.strip()) for k, v in pairs}
            if isinstance(value, list | tuple):
                value = dict(value)
            if not isinstance(value, dict):
                raise ValueError
            for key, item in value.items():
                expected = (f"parameter '{key}' = {quoted(item)}: expected a number (finite, at most "
                            f"{POLICY_NUMBER_MAX:,} either way), true or false, or a text value")
                if not isinstance(key, str) or not isinstance(item, bool | int | float | str):
                    raise ValueError  # a list or a table is no parameter value
                if isinstance(item, int | float) and not isinstance(item, bool):
                    finite_number(item, -POLICY_NUMBER_MAX, POLICY_NUMBER_MAX)
            return tuple(sorted(value.items()))
        if knob.kind == "decks":
            listed = value.split(",") if isinstance(value, str) else list(value)
            items = tuple(str(v).strip() for v in listed if str(v).strip())
            if not items:
                raise ValueError
            return items
        if knob.kind == "paths":
            if isinstance(value, str):
                value = value.split(",")
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                expected = "a list of card files or folders"
                raise ValueError
            return tuple(v.strip() for v in value if v.strip())
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise ValueError
        text = str(value)
        if knob.choices and text not in knob.choices:
            expected = f"one of {', '.join(knob.choices)}"
            raise ValueError
        if name == "strong_mix":
            expected = "GIANTS:ARMIES like '3:2', each from 0 to 100, not both 0"
            parts = text.split(":")
            if len(parts) != 2 or sum(whole_number(p, 0, 100) for p in parts) == 0:
                raise ValueError
            text = ":".join(str(whole_number(p, 0, 100)) for p in parts)
        if name == "preset" and text not in PRESETS:
            expected = f"one of {', '.join(PRESETS)}"
            raise ValueError
        return text
    except (TypeError, ValueError):
        if not expected:
            expected = {"int": "a whole number", "optional_int": "a whole number",
                        "bool": "true or false", "decks": "a list of deck names"}.get(knob.kind, "a text value")
            if knob.low is not None and knob.kind in ("int", "optional_int"):
                expected += f" from {knob.low} to {knob.high}"
            if knob.kind == "optional_int":
                expected += f", or '{knob.unset}'"
        raise SetupError(f"{where}: knob '{name}' = {quoted(value)}: expected {expected}") from None


def _number(text: str) -> int | float | str | bool:
    """A policy parameter written on the command line: a whole number, a number, true or false,
    else the text."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return whole_number(text, -POLICY_NUMBER_MAX, POLICY_NUMBER_MAX) if "." not in text else float(text)
    except ValueError:
        pass
    try:
        return float(text)  # checked (finite, bounded) with the other parameters
    except ValueError:
        return text


def make_setup(preset: str = "zombie-horde", where: str = "setup", **overrides: Any) -> GameSetup:
    """A validated setup: the preset's knobs, then the overrides (each checked by ``convert``)."""
    preset = convert("preset", preset, where)
    values = dict(PRESETS[preset])
    values["preset"] = preset
    for name, value in overrides.items():
        if value is None and KNOBS.get(name) is not None and KNOBS[name].kind != "optional_int":
            continue
        values[name] = convert(name, value, where)
    values.pop("preset")
    setup = GameSetup(preset=preset, **{k: v for k, v in values.items()})
    if len(setup.team_decks) < setup.players:
        raise SetupError(f"{where}: {setup.players} players need {setup.players} team decks, "
                         f"got {len(setup.team_decks)}")
    return setup


def setup_from_dict(data: dict[str, Any], where: str = "setup") -> GameSetup:
    """A setup from a dict of knobs (an experiment cell, a result row)."""
    data = dict(data)
    preset = data.pop("preset", "zombie-horde")
    return make_setup(preset, where, **data)


def with_changes(setup: GameSetup, **changes: Any) -> GameSetup:
    return replace(setup, **{k: convert(k, v) for k, v in changes.items()})


FIELD_NAMES = tuple(f.name for f in fields(GameSetup))


# ---------------------------------------------------------------- knobs a setup does not read
DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(GameSetup)}


def unused_knobs(setup: GameSetup, horde_build: str, horde_path: str = "") -> dict[str, str]:
    """The knobs of ``setup`` changed from their defaults that its games would never read, each
    with why (a fixed Horde deck has no recipe; ``reveal_base`` only counts in escalating mode).
    Decision: such a knob is refused (``horde.engine.prepare``), never silently ignored."""
    unused: dict[str, str] = {}
    if horde_build == "fixed":
        for knob in ("token_percent", "strong_mix", "strong_tokens"):
            if getattr(setup, knob) != DEFAULTS[knob]:
                unused[knob] = f"the Horde deck {horde_path} is a fixed list, and this knob shapes only a recipe deck (R1)"
    if setup.reveal != "escalating" and setup.reveal_base != DEFAULTS["reveal_base"]:
        unused["reveal_base"] = "it counts only with reveal = escalating (H5e)"
    return unused
