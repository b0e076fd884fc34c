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
from functools import cached_property
from typing import Any

from horde.errors import HordeError, did_you_mean, match_name
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
    "reveal": Knob("str", "reveal until a nontoken card, escalating, or until as many nontoken cards as the "
                   "Horde has emblems (H5, H5e, H5n)", choices=("until_nontoken", "escalating", "emblems")),
    "reveal_base": Knob("int", "cards the Horde's first turn reveals in escalating mode (H5e)", low=1, high=100),
    "token_entry": Knob("str", "tokens are cast, or put onto the battlefield (H5t)", choices=("cast", "put")),
    "cast_order": Knob("str", "tokens first, or in revealed order (H5o)", choices=("tokens_first", "revealed")),
    "strong_mix": Knob("str", "Zombie Giant : Zombie Army among the 5 strong tokens per player (R1), e.g. '3:2'"),
    "strong_tokens": Knob("int", "strong tokens per player (R1)", low=0, high=100),
    "creatures_per_player": Knob("optional_int", "nontoken creatures per player in a recipe deck, or 'deck' (R1: the "
                                 "deck's About Creatures, 5-6 for the bundled ones)", low=0, high=200, unset="deck"),
    "spells_per_player": Knob("optional_int", "noncreature spells per player in a recipe deck, or 'deck' (R1: the "
                              "deck's About Spells, 3-4 for the bundled ones)", low=0, high=200, unset="deck"),
    "recipe_cut": Knob("str", "what a recipe deck below R1's 25 cards per player gives up: its base tokens first (R1 "
                       "as written: base tokens fill the rest), or random cards of the whole 25-card recipe (R1)",
                       choices=("base_tokens", "random")),
    "token_percent": Knob("optional_int", "the share of the recipe deck that is tokens, in percent, or 'default' "
                          "(R1 as written, about 60%)", low=0, high=100, unset="default"),
    "commander_casts": Knob("optional_int", "casts of each commander allowed, or 'unlimited' (D: unlimited, or 1)",
                            low=1, high=100, team_side=True, unset="unlimited"),
    "boss": Knob("str", "'random' from the deck's boss list, 'none', or a boss name (B1)"),
    "lieutenants": Knob("bool", "draw lieutenants from the deck's list (L1)"),
    "army_trigger": Knob("str", "Zombie Army trigger once per entering Army, or per Army (R2)",
                         choices=("once", "per_army")),
    "horde_graveyard": Knob("str", "the Horde uses its graveyard's abilities (flashback, unearth, casting from it) "
                            "each turn: always, on a coin flip for each card (H9), or never",
                            choices=("always", "coin", "never")),
    "horde_pays": Knob("str", "whether the Horde pays what a team card asks of it ('unless that player pays {1}': "
                       "Rhystic Study): never (H7 gives it the mana of its own spells only), always, or on a coin "
                       "flip each time (H9)", choices=("never", "always", "coin")),
    "max_turns": Knob("int", "turns before the game is a stall (H14)", low=1, high=1000),
    "mulligan": Knob("str", "London with the first mulligan free, or the old partial Paris (C3)",
                     choices=("london", "partial_paris"), team_side=True),
    "blocking": Knob("str", "any team creature blocks any attacker, or only the attacked player's (H8)",
                     choices=("team", "defender"), team_side=True),
    "horde_deck": Knob("str", "the Horde deck: a bundled name or a path"),
    "team_decks": Knob("decks", "team decks, one per player (first N used): bundled names or paths; or 'draft' "
                       "or 'sealed': decks drafted or sealed from the cube for every game (X1)", team_side=True),
    "policy": Knob("str", "the team policy: a registered name or module:Class", team_side=True),
    "skill": Knob("skill", "the team's skill instead of a policy: novice, club, expert or clairvoyant, a number "
                  "between (0 novice to 3 clairvoyant: 1.25 takes a quarter of the decisions at expert, the rest at "
                  "club), or a calibration file written by horde calibrate", team_side=True),
    "policy_params": Knob("params", "the policy's parameters, e.g. wrath_threshold=12", team_side=True),
    "banlist": Knob("str", "R3 banlist: 'default' (the source's list), 'none', or a path", team_side=True),
    "allow_illegal": Knob("bool", "simulate team decks that break C1 anyway", team_side=True),
    "cards": Knob("paths", "the user's card files or folders (hand-written cards that override the index)"),
    "approximate": Knob("bool", "play a card whose text is not understood whole by its facts and the "
                        "abilities read (named in every output)"),
    # The published automated opponents and the community variants (RULES.md sections F, M, G, V).
    "opponent": Knob("str", "whose procedure the Horde side plays: the Horde (H4), Face the Hydra (F), "
                     "Battle the Horde (M) or Defeat a God (G)", choices=("horde", "hydra", "battle", "god")),
    "hydra_heads": Knob("optional_int", "Hydra Heads on the battlefield at the start (F1; default one more "
                        "than the players)", low=0, high=11),
    "hydra_choices": Knob("str", "who makes the Hydra's choices: the team policy, as the players do in the "
                          "original, or at random (F7)", choices=("team", "random")),
    "god_throngs": Knob("optional_int", "Rollicking Throngs on the battlefield at the start (G1; default one "
                        "more than the players)", low=0, high=6),
    "fixed_life": Knob("optional_int", "a fixed team life whatever the number of players (V1, V9; default "
                      "life_per_player x players)", low=1, high=1000),
    "horde_size": Knob("optional_int", "a fixed Horde deck size whatever the number of players (V1; default "
                       "cards_per_player x players)", low=1, high=1000),
    "burn_bodies": Knob("bool", "at each team combat the team chooses whether its combat damage to the Horde "
                        "mills or exiles cards from the Horde's graveyard (V5)"),
    "team_wins_when": Knob("str", "the team wins when the Horde's library is empty and it has no creature (H12), "
                      "or in the team's upkeep when the Horde's library is empty (V10)",
                      choices=("board", "upkeep")),
    "horde_choices": Knob("str", "the Horde's choices: at random (H9) or the option worst for the team "
                          "(H9s)", choices=("random", "smart")),
    # The variants of RULES.md sections A and Z.
    "schemes": Knob("str", "the Horde's scheme deck (A1): '' for the Horde deck's own Schemes section (none for "
                    "the bundled decks), 'none', a bundled scheme deck's name or a path"),
    "life": Knob("str", "one life total for the team (H1), or one for each player, fallen players fighting on as "
                 "zombies (Z)", choices=("shared", "individual")),
    # Drafted and sealed team decks (RULES.md section X), with team_decks = "draft" or "sealed".
    "cube": Knob("str", "the cube drafted and sealed team decks come from: a bundled cube or a decklist file (X1)",
                 team_side=True),
    "drafter": Knob("str", "the pick and build policy of drafted and sealed decks: a registered name "
                    "(heuristic, random) or module:Class (X1)", team_side=True),
    "draft_seats": Knob("optional_int", "drafters at the table, team players first (X1; default: the players, "
                        "and 8 for one player: seven seeded bots)", low=1, high=8, team_side=True),
    "sealed_pool": Knob("optional_int", "cards in each sealed pool (X1; default Horde Sealed's 90, 75, 60 for 2, 3, 4 "
                        "players, and 90 for one)", low=23, high=1000, team_side=True),
    "horde_attacks": Knob("str", "what each Horde attacker attacks: a random team player or team planeswalker "
                          "(H8, the original article), only the players, or planeswalkers first (H8p)",
                          choices=("random", "players", "planeswalkers")),
}
# The command line's help shows the knobs in these groups, in this order.
KNOB_GROUPS: dict[str, tuple[str, ...]] = {
    "Setup": ("preset",),
    "Players": ("players", "life_per_player", "fixed_life", "life", "grace_turns", "max_turns"),
    "Horde deck": ("horde_deck", "cards_per_player", "horde_size", "reveal", "reveal_base", "token_entry", "cast_order",
                   "strong_mix", "strong_tokens", "token_percent", "creatures_per_player", "spells_per_player",
                   "recipe_cut", "army_trigger", "horde_graveyard", "horde_choices", "horde_pays",
                   "horde_attacks", "schemes", "cards", "approximate"),
    "Boss and lieutenants": ("boss", "lieutenants"),
    "Team": ("team_decks", "skill", "policy", "policy_params", "commander_casts", "mulligan", "blocking", "banlist",
             "allow_illegal", "cube", "drafter", "draft_seats", "sealed_pool"),
    "Opponents and variants": ("opponent", "hydra_heads", "hydra_choices", "god_throngs", "burn_bodies",
                               "team_wins_when"),
}
GROUP_OF: dict[str, str] = {name: group for group, names in KNOB_GROUPS.items() for name in names}
# Knobs added after results were first published: left out of the setup hash at their default,
# so the hash of every setup that does not use them stays as it was.
LATER_KNOBS = {"cards": (), "approximate": False, "horde_graveyard": "always", "opponent": "horde",
               "hydra_heads": None, "hydra_choices": "team", "god_throngs": None, "fixed_life": None, "horde_size": None,
               "burn_bodies": False, "team_wins_when": "board", "horde_choices": "random",
               "schemes": "", "life": "shared",
               "cube": "horde-cube", "drafter": "heuristic", "draft_seats": None, "sealed_pool": None,
               "horde_attacks": "random", "skill": "", "creatures_per_player": None, "spells_per_player": None,
               "recipe_cut": "base_tokens", "horde_pays": "never"}
# The skill ladder's levels, weakest first (each level's policy: horde.team.skill.LEVELS); the
# skill knob is a level's name or its place on the ladder, 0 to 3.
SKILL_LEVELS = ("novice", "club", "expert", "clairvoyant")


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
    creatures_per_player: int | None = None  # None: the recipe deck's own About Creatures
    spells_per_player: int | None = None  # None: the recipe deck's own About Spells
    recipe_cut: str = "base_tokens"
    commander_casts: int | None = None
    boss: str = "random"
    lieutenants: bool = True
    army_trigger: str = "once"
    horde_graveyard: str = "always"
    horde_pays: str = "never"
    max_turns: int = 60
    mulligan: str = "london"
    blocking: str = "team"
    horde_deck: str = "zombie-horde"
    team_decks: tuple[str, ...] = ("go-wide", "ramp", "control", "aggro")
    policy: str = "baseline"
    policy_params: tuple[tuple[str, object], ...] = ()
    skill: str = ""  # "": the policy knob plays; else a level or a number on the ladder
    banlist: str = "default"
    allow_illegal: bool = False
    cards: tuple[str, ...] = ()
    approximate: bool = False
    opponent: str = "horde"
    hydra_heads: int | None = None
    hydra_choices: str = "team"
    god_throngs: int | None = None
    fixed_life: int | None = None
    horde_size: int | None = None
    burn_bodies: bool = False
    team_wins_when: str = "board"
    horde_choices: str = "random"
    schemes: str = ""
    life: str = "shared"
    cube: str = "horde-cube"
    drafter: str = "heuristic"
    draft_seats: int | None = None
    sealed_pool: int | None = None
    horde_attacks: str = "random"

    @property
    def start_life(self) -> int:
        """The team's starting life: a fixed ``fixed_life``, else ``life_per_player`` x players (H1)."""
        return self.fixed_life if self.fixed_life is not None else self.life_per_player * self.players

    @property
    def deck_size(self) -> int:
        """The Horde deck's size: a fixed ``horde_size``, else ``cards_per_player`` x players (H3)."""
        return self.horde_size if self.horde_size is not None else self.cards_per_player * self.players

    def to_dict(self) -> dict:
        """Every knob as plain values (a new dict each call: the caller may change it)."""
        return {name: list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
                for name, value in self._plain.items()}

    @cached_property
    def _plain(self) -> dict:
        # Made once per setup (a setup never changes): a run of thousands of cells asks for it many
        # times a cell (results rows, the manifest, its hash).
        data = asdict(self)
        data["team_decks"] = list(self.team_decks)
        data["policy_params"] = dict(self.policy_params)
        data["cards"] = list(self.cards)
        return data

    def digest(self) -> str:
        """A short stable hash of every knob (results carry it)."""
        return self._digest

    @cached_property
    def _digest(self) -> str:
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
    # F: Face the Hydra (Theros challenge deck): the team goes first, then the Hydra and the team alternate.
    "face-the-hydra": {"opponent": "hydra", "horde_deck": "face-the-hydra", "boss": "none", "lieutenants": False,
                       "grace_turns": 1},
    # M: Battle the Horde (Born of the Gods challenge deck): three team turns, shared life 20 (2014 rules).
    "battle-the-horde": {"opponent": "battle", "horde_deck": "battle-the-horde", "boss": "none",
                         "lieutenants": False, "grace_turns": 3, "fixed_life": 20},
    # G: Defeat a God (Journey into Nyx challenge deck): shared life 20, the team goes first.
    "defeat-a-god": {"opponent": "god", "horde_deck": "defeat-a-god", "boss": "none", "lieutenants": False,
                     "grace_turns": 1, "fixed_life": 20},
    # V1-V3: Overwhelming Numbers: a 200-card Horde (about 130 tokens), 60 team life, 3 free turns, emblems.
    "overwhelming-numbers": {"reveal": "emblems", "horde_size": 200, "token_percent": 65, "fixed_life": 60,
                             "grace_turns": 3, "boss": "none", "lieutenants": False},
    # V5: Burn the Bodies: the team's combat damage may exile from the Horde's graveyard instead.
    "burn-the-bodies": {"burn_bodies": True},
    # V9, V10: Horde Sealed: 40 team life, the team wins in its upkeep once the Horde's library is empty.
    "horde-sealed": {"fixed_life": 40, "team_wins_when": "upkeep"},
    # A1: the Horde is an archenemy with the bundled scheme deck of the 2010 Archenemy schemes.
    "archenemy-horde": {"schemes": "archenemy-2010"},
    # Z1-Z5: each player has its own life; a player killed by damage fights on as a zombie.
    "fallen-heroes": {"life": "individual"},
}


def convert(name: str, value: Any, where: str = "setup") -> Any:
    """Check and convert one knob value (from the command line or an experiment file)."""
    name = knob_name(name, where)
    knob = KNOBS[name]
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
        if knob.kind == "skill":
            return skill_value(value, where)
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
                pairs: list[list[str]] = []
                for piece in value.split(","):
                    if "=" in piece:
                        pairs.append(piece.split("=", 1))
                    elif pairs and piece.strip():  # a value with commas: decisions=attackers,cast
                        pairs[-1][1] += "," + piece
                    else:  # nothing, or no name: never taken as no parameter
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
        if knob.choices:
            text = _choice(text, knob.choices)
        if name == "strong_mix":
            expected = "GIANTS:ARMIES like '3:2', each from 0 to 100, not both 0"
            parts = text.split(":")
            if len(parts) != 2 or sum(whole_number(p, 0, 100) for p in parts) == 0:
                raise ValueError
            text = ":".join(str(whole_number(p, 0, 100)) for p in parts)
        if name == "preset":
            text = _choice(text, tuple(PRESETS))
        if name in ("policy", "drafter") and ":" not in text:
            # A registered name forgives case (as a preset's does): one spelling, so one setup and one
            # hash for the same games. A module:Class path is Python's, and keeps its case.
            text = text.strip().lower()
        return text
    except ChoiceError as error:
        raise SetupError(f"{where}: knob '{name}' = {quoted(value)}: {error.hint}expected one of "
                         f"{', '.join(error.choices)}") from None
    except (TypeError, ValueError):
        if not expected:
            expected = {"int": "a whole number", "optional_int": "a whole number",
                        "bool": "true or false", "decks": "a list of deck names"}.get(knob.kind, "a text value")
            if knob.low is not None and knob.kind in ("int", "optional_int"):
                expected += f" from {knob.low} to {knob.high}"
            if knob.kind == "optional_int":
                expected += f", or '{knob.unset}'"
        raise SetupError(f"{where}: knob '{name}' = {quoted(value)}: expected {expected}") from None


def knob_name(name: str, where: str = "setup") -> str:
    """The knob ``name`` names, whatever its case (``Grace_Turns``); else a SetupError with the
    closest knobs and every knob."""
    return name if name in KNOBS else match_name(name, KNOBS, "knob", where, SetupError)


class ChoiceError(ValueError):
    """A value that is none of a knob's choices, with the closest ones (``hint``)."""

    def __init__(self, choices: tuple[str, ...], hint: str):
        self.choices, self.hint = choices, hint
        super().__init__(hint)


def _choice(text: str, choices: tuple[str, ...]) -> str:
    """The choice ``text`` names, whatever its case; else a ChoiceError with the closest ones."""
    found = {choice.casefold(): choice for choice in choices}.get(text.casefold())
    if found is None:
        raise ChoiceError(choices, did_you_mean(text, choices))
    return found


def skill_value(value: Any, where: str = "setup") -> str:
    """The ``skill`` knob's value as it is recorded: a level's name (``club``, also for ``1``), a
    number from 0 to 3 between two levels as text (``1.25``), or "" (unset: the policy plays).
    A calibration file (``horde calibrate``'s TOML) gives the skill it found."""
    if value is None or value == "":
        return ""
    if isinstance(value, str) and value.strip().lower() in SKILL_LEVELS:
        return value.strip().lower()
    if isinstance(value, str) and value.strip().lower().endswith(".toml"):
        return _calibrated_skill(value.strip(), where)
    top = len(SKILL_LEVELS) - 1
    try:
        number = finite_number(value, 0, top)
    except (TypeError, ValueError):
        if isinstance(value, str) and _is_file(value.strip()):
            if value.strip().lower().endswith((".csv", ".tsv", ".txt")):
                raise SetupError(f"{where}: knob 'skill' = {quoted(value)}: a games file, not a calibration: run "
                                 f"horde calibrate {quoted(value.strip())} and give the .toml file it writes") from None
            return _calibrated_skill(value.strip(), where)
        hint = did_you_mean(value, SKILL_LEVELS) if isinstance(value, str) else ""
        raise SetupError(f"{where}: knob 'skill' = {quoted(value)}: {hint}expected {', '.join(SKILL_LEVELS)}, a "
                         f"number from 0 to {top} between them, or a calibration file (.toml)") from None
    number = round(number, 3)
    if number == int(number):
        return SKILL_LEVELS[int(number)]
    return f"{number:g}"


def _is_file(text: str) -> bool:
    import os

    try:
        return os.path.isfile(text)
    except (OSError, ValueError):  # a name too long, or with a NUL character in it
        return False


def _calibrated_skill(path: str, where: str) -> str:
    """The skill a calibration file (``horde calibrate``) found."""
    import tomllib

    from horde.files import read_text

    text = read_text(path, "calibration file", SetupError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SetupError(f"not a calibration file ({error})", path) from None
    if "skill" not in data:
        raise SetupError("not a calibration file: expected skill = NUMBER (written by horde calibrate)", path)
    return skill_value(data["skill"], path)


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
    for given, value in overrides.items():
        name = knob_name(given, where)
        if value is None and KNOBS[name].kind != "optional_int":
            continue
        values[name] = convert(name, value, where)
    values.pop("preset")
    setup = GameSetup(preset=preset, **{k: v for k, v in values.items()})
    if setup.skill and (setup.policy != DEFAULTS["policy"] or setup.policy_params):
        raise SetupError(f"{where}: knob 'skill' = {setup.skill!r} chooses the team's play, and so does policy "
                         f"{setup.policy!r}: give one of them")
    drafted = len(setup.team_decks) == 1 and setup.team_decks[0] in ("draft", "sealed")  # X1
    if drafted and setup.draft_seats is not None and setup.draft_seats < setup.players:
        raise SetupError(f"{where}: knob 'draft_seats' = {setup.draft_seats}: expected at least the "
                         f"{setup.players} players")
    if not drafted and len(setup.team_decks) < setup.players:
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
    Decision: such a knob is refused (``horde.play.prepare``), never silently ignored."""
    unused: dict[str, str] = {}
    if horde_build in ("fixed", "whole"):
        for knob in ("token_percent", "strong_mix", "strong_tokens", "creatures_per_player", "spells_per_player",
                     "recipe_cut"):
            if getattr(setup, knob) != DEFAULTS[knob]:
                unused[knob] = f"the Horde deck {horde_path} is a fixed list, and this knob shapes only a recipe deck (R1)"
    for knob in ("creatures_per_player", "spells_per_player", "recipe_cut"):
        if setup.token_percent is not None and getattr(setup, knob) != DEFAULTS[knob] and knob not in unused:
            unused[knob] = "token_percent sets the recipe's shares of creatures, spells and tokens"
    if setup.reveal != "escalating" and setup.reveal_base != DEFAULTS["reveal_base"]:
        unused["reveal_base"] = "it counts only with reveal = escalating (H5e)"
    # The opponents' and variants' knobs (F, G, V): one that overrides another leaves it unread.
    sized = "the Horde deck is played whole (F, M, G)" if horde_build == "whole" else \
        f"horde_size = {setup.horde_size} sets the Horde deck's size (V1)" if setup.horde_size is not None else ""
    for knob, why in (("life_per_player", f"fixed_life = {setup.fixed_life} sets the team's life (V1, V9)"
                       if setup.fixed_life is not None else ""),
                      ("cards_per_player", sized),
                      ("horde_size", "the Horde deck is played whole (F, M, G)" if horde_build == "whole" else ""),
                      ("hydra_heads", "" if setup.opponent == "hydra" else "it counts only against the Hydra (F1)"),
                      ("hydra_choices", "" if setup.opponent == "hydra" else "it counts only against the Hydra (F7)"),
                      ("god_throngs", "" if setup.opponent == "god" else "it counts only against Xenagos (G1)")):
        if why and getattr(setup, knob) != DEFAULTS[knob]:
            unused[knob] = why
    return unused
