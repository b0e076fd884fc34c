"""The card catalogue: reads card files, checks every verb, argument and hook, builds ``CardDef``s.

A card file (``decks/cards/*.txt``) holds cards as blocks of ``Field: value`` lines separated by
blank lines; ``docs/cards.md`` describes the format. Behaviour lines name a hook of
``horde.cards.HOOKS`` and a verb of ``horde.effects.VERBS`` with ``key=value`` arguments. Every
problem is a ``DeckError`` naming the file and line; a card the vocabulary cannot express is
refused here, never played as something else.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from horde.cards import COLOURS, HOOKS, KEYWORDS, CardDef, Effect, ManaCost
from horde.effects import VERBS
from horde.errors import DeckError
from horde.filters import compile_amount, compile_filter

FIELDS = {"Name", "Cost", "Type", "PT", "Loyalty", "Keywords", "Colors", "Identity", "Mana", "Equip",
          "Flashback", "HordeX", "Text"}
SUPERTYPES = {"Legendary", "Basic", "Snow", "World", "Token"}
CARD_TYPES = {"Artifact", "Enchantment", "Planeswalker", "Land", "Creature", "Instant", "Sorcery", "Kindred",
              "Tribal"}
LOYALTY_HOOKS = ("Plus", "Minus", "Ultimate")
_COST_RE = re.compile(r"\{([^}]+)\}")
_LOYALTY_RE = re.compile(r"([+-−]?\d+|[+-−]X)\s*:\s*(.*)")


BUNDLED_DECKS = Path(__file__).resolve().parent.parent / "decks"


def decks_dir() -> Path:
    """Where the bundled data lives: ``$HORDE_DECKS`` or the ``decks/`` folder of the project."""
    env = os.environ.get("HORDE_DECKS")
    return Path(env) if env else BUNDLED_DECKS


def parse_cost(text: str, path: str, line: int) -> ManaCost:
    """Parse ``{2}{B}{B}``, ``{X}{R}`` or ``{0}``; hybrid and Phyrexian symbols are refused."""
    text = text.strip()
    if not text:
        return ManaCost()
    symbols = _COST_RE.findall(text)
    if "".join(f"{{{s}}}" for s in symbols) != text.replace(" ", ""):
        raise DeckError(f"bad mana cost '{text}': expected symbols like {{2}}{{B}}{{B}}", path, line)
    generic, pips, x = 0, [], False
    for s in symbols:
        s = s.upper()
        if s.isdigit():
            generic += int(s)
        elif s == "X":
            x = True
        elif s in COLOURS or s == "C":
            pips.append(s)
        else:
            raise DeckError(f"mana symbol '{{{s}}}' is beyond the vocabulary: expected a number, X, W, U, B, R, G "
                            f"or C", path, line)
    return ManaCost(generic, tuple(pips), x)


@dataclass
class _Block:
    path: str
    line: int
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)
    hooks: list[tuple[str, str, int]] = field(default_factory=list)


class Catalogue:
    """Every card and token the engine models, by name (lookups ignore case)."""

    def __init__(self) -> None:
        self.cards: dict[str, CardDef] = {}
        self.tokens: dict[str, CardDef] = {}
        self._lower: dict[str, str] = {}

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._lower

    def __len__(self) -> int:
        return len(self.cards) + len(self.tokens)

    def get(self, name: str, path: str | None = None, line: int | None = None) -> CardDef:
        """The card of that name; an unknown name is a DeckError naming the closest known names."""
        key = self._lower.get(name.lower())
        if key is not None:
            return self.cards.get(key) or self.tokens[key]
        close = difflib.get_close_matches(name, list(self.cards) + list(self.tokens), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise DeckError(f"unknown card '{name}': not in the card catalogue{hint}", path, line)

    def token(self, name: str, path: str | None = None, line: int | None = None) -> CardDef:
        card = self.get(name, path, line)
        if not card.is_token:
            raise DeckError(f"'{name}' is not a token", path, line)
        return card

    def add(self, card: CardDef, path: str, line: int) -> None:
        if card.name.lower() in self._lower:
            raise DeckError(f"card '{card.name}' is defined twice", path, line)
        (self.tokens if card.is_token else self.cards)[card.name] = card
        self._lower[card.name.lower()] = card.name


def read_blocks(text: str, path: str) -> list[_Block]:
    """Split a card file into blocks of fields and behaviour lines."""
    blocks: list[_Block] = []
    current: _Block | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                current = None
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep:
            raise DeckError(f"expected 'Field: value', got '{line[:60]}'", path, number)
        if key == "Name" and current is not None and "Name" in current.fields:
            current = None
        if current is None:
            current = _Block(path, number)
            blocks.append(current)
        value = value.strip()
        if key in FIELDS:
            if key in current.fields and key != "Text":
                raise DeckError(f"field '{key}' given twice", path, number)
            current.fields[key] = (value, number)
        elif key in HOOKS:
            current.hooks.append((key, value, number))
        else:
            raise DeckError(f"unknown field or hook '{key}': expected one of "
                            f"{', '.join(sorted(FIELDS | set(HOOKS)))}", path, number)
    return blocks


def parse_effect(hook: str, text: str, path: str, line: int, card_name: str) -> list[Effect]:
    """Parse ``verb key=value ...`` (several joined by ' ; '), checking the verb and every argument."""
    effects = []
    cost = None
    if hook in LOYALTY_HOOKS:
        m = _LOYALTY_RE.fullmatch(text)
        if not m:
            raise DeckError(f"card '{card_name}': expected '{hook}: +N: verb ...' with the loyalty change",
                            path, line)
        cost = int(m.group(1).replace("−", "-"))
        text = m.group(2)
    costs: tuple[str | ManaCost, ...] = ()
    if hook == "Activated":
        head, sep, text = text.partition("->")
        if not sep:
            raise DeckError(f"card '{card_name}': expected 'Activated: COSTS -> verb ...'", path, line)
        costs = _activation_costs(head, card_name, path, line)
        text = text.strip()
    for part in text.split(" ; "):
        try:
            words = shlex.split(part)
        except ValueError as error:
            raise DeckError(f"card '{card_name}': cannot read '{part}': {error}", path, line) from None
        if not words:
            raise DeckError(f"card '{card_name}': hook '{hook}' names no verb", path, line)
        name, rest = words[0], words[1:]
        verb = VERBS.get(name)
        if verb is None:
            close = difflib.get_close_matches(name, list(VERBS), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise DeckError(f"card '{card_name}': unknown verb '{name}'{hint}", path, line)
        static_hook = hook in ("Static", "Equipped")
        if verb.static != static_hook:
            kind = "a continuous (Static or Equipped)" if verb.static else "a one-shot"
            raise DeckError(f"card '{card_name}': '{name}' is {kind} verb and can't attach to '{hook}'", path, line)
        args: dict = {}
        when = None
        for word in rest:
            key, sep, value = word.partition("=")
            if not sep:
                raise DeckError(f"card '{card_name}': expected key=value, got '{word}'", path, line)
            if key == "when" and hook in ("CreatureDies", "ControllerDamaged"):
                when = _convert(card_name, "when", "filter", value, (), path, line)
                continue
            spec = verb.args.get(key)
            if spec is None:
                raise DeckError(f"card '{card_name}': verb '{name}' takes no argument '{key}' (it takes: "
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
        effects.append(Effect(name, args, verb.run, cost, line, target, costs, when))
    return effects


ACTIVATION_COSTS = ("tap", "sacrifice another creature", "sacrifice another zombie", "exile this")


def _activation_costs(text: str, card_name: str, path: str, line: int) -> tuple[str | ManaCost, ...]:
    """Activation costs: "tap", a ManaCost (the Horde pays any mana: H7), 'sacrifice another creature'."""
    costs: list[str | ManaCost] = []
    for part in (p.strip() for p in text.split(",")):
        if part.upper() == "{T}":
            costs.append("tap")
        elif part.lower() in ACTIVATION_COSTS:
            costs.append(part.lower())
        elif part and re.fullmatch(r"(\{[^}]+\})+", part):
            costs.append(parse_cost(part, path, line))  # the Horde pays any mana (H7); the team pays it
        else:
            raise DeckError(f"card '{card_name}': activation cost '{part}' is beyond the vocabulary "
                            f"(expected {{T}}, mana, or {', '.join(ACTIVATION_COSTS[1:])})", path, line)
    return tuple(costs)


def _convert(card_name: str, key: str, kind: str, value: str, choices: tuple[str, ...], path: str,
             line: int) -> Any:
    try:
        if kind == "int":
            return int(value)
        if kind == "amount":
            return compile_amount(int(value) if value.lstrip("-").isdigit() else value)
        if kind == "bool":
            if value.lower() in ("true", "yes", "1"):
                return True
            if value.lower() in ("false", "no", "0"):
                return False
            raise ValueError(f"expected true or false, got '{value}'")
        if kind == "filter":
            return compile_filter(value)
        if kind == "choice":
            if value not in choices:
                raise ValueError(f"expected one of {', '.join(choices)}, got '{value}'")
            return value
        if kind == "keywords":
            words = frozenset(w.strip().lower() for w in value.split(",") if w.strip())
            unknown = words - KEYWORDS
            if unknown:
                raise ValueError(f"unknown keyword '{sorted(unknown)[0]}'")
            return words
        return value  # "str" and "token" (tokens are checked once all files are read)
    except ValueError as error:
        raise DeckError(f"card '{card_name}': argument {key}: {error}", path, line) from None


def build_card(block: _Block) -> CardDef:
    """Turn one block into a checked CardDef."""
    f = block.fields
    path = block.path
    if "Name" not in f:
        raise DeckError("card block has no 'Name:' line", path, block.line)
    name, line = f["Name"]
    if not name:
        raise DeckError("empty card name", path, line)
    type_text, type_line = f.get("Type", ("", block.line))
    if not type_text:
        raise DeckError(f"card '{name}' has no 'Type:' line", path, block.line)
    left, _, right = type_text.replace(" - ", " — ").partition("—")
    words = left.split()
    supertypes = frozenset(w for w in words if w in SUPERTYPES)
    types = frozenset("Kindred" if w == "Tribal" else w for w in words if w in CARD_TYPES)
    unknown = [w for w in words if w not in SUPERTYPES and w not in CARD_TYPES]
    if unknown or not types:
        raise DeckError(f"card '{name}': bad type line '{type_text}': expected supertypes and types such as "
                        f"'Legendary Creature — Zombie'", path, type_line)
    subtypes = frozenset(right.split())
    cost = parse_cost(f.get("Cost", ("", 0))[0], path, f.get("Cost", ("", block.line))[1])
    power = toughness = None
    pt_amount = None
    if "Creature" in types:
        if "PT" not in f:
            raise DeckError(f"creature '{name}' has no 'PT:' line", path, block.line)
        text, pt_line = f["PT"]
        m = re.fullmatch(r"(\*|-?\d+)\s*/\s*(\*|-?\d+)", text)
        if not m:
            raise DeckError(f"card '{name}': bad PT '{text}': expected like 2/2 or */*", path, pt_line)
        power = 0 if m.group(1) == "*" else int(m.group(1))
        toughness = 0 if m.group(2) == "*" else int(m.group(2))
    loyalty = None
    if "Loyalty" in f:
        text, loyalty_line = f["Loyalty"]
        if not text.isdigit():
            raise DeckError(f"card '{name}': bad loyalty '{text}': expected a whole number", path, loyalty_line)
        loyalty = int(text)
    keywords: frozenset[str] = frozenset()
    if "Keywords" in f:
        text, kw_line = f["Keywords"]
        keywords = frozenset(k.strip().lower() for k in text.split(",") if k.strip())
        unknown_kw = sorted(keywords - KEYWORDS)
        if unknown_kw:
            raise DeckError(f"card '{name}': unknown keyword '{unknown_kw[0]}' (known: {', '.join(sorted(KEYWORDS))})",
                            path, kw_line)
    mana: tuple = ()
    if "Mana" in f:
        text, mana_line = f["Mana"]
        units = []
        for word in text.split():
            colours = frozenset("*" if word.lower() == "any" else c for c in word.upper().split("/"))
            if not colours <= set(COLOURS) | {"C", "*"}:
                raise DeckError(f"card '{name}': bad mana '{word}': expected W, U, B, R, G, C, any, or W/U",
                                path, mana_line)
            units.append(colours)
        mana = tuple(units)
    colours = frozenset(p for p in cost.pips if p in COLOURS)
    if "Colors" in f:
        colours = frozenset(c for c in f["Colors"][0].upper() if c in COLOURS)
    identity = colours | frozenset(c for unit in mana for c in unit if c in COLOURS)
    if "Identity" in f:
        identity = identity | frozenset(c for c in f["Identity"][0].upper() if c in COLOURS)
    equip = parse_cost(f["Equip"][0], path, f["Equip"][1]) if "Equip" in f else None
    flashback = parse_cost(f["Flashback"][0], path, f["Flashback"][1]) if "Flashback" in f else None
    horde_x = int(f["HordeX"][0]) if "HordeX" in f else 3
    hooks: dict[str, list[Effect]] = {}
    for hook, text, hook_line in block.hooks:
        hooks.setdefault(hook, []).extend(parse_effect(hook, text, path, hook_line, name))
    for hook, effects in hooks.items():
        targeted = [e for e in effects if e.target is not None]
        if hook not in LOYALTY_HOOKS + ("Mode", "Activated") and len(targeted) > 1:
            raise DeckError(f"card '{name}': two targeted effects on '{hook}' are beyond the vocabulary", path,
                            targeted[1].line)
        if hook == "Equipped" and "Equipment" not in subtypes:
            raise DeckError(f"card '{name}': only Equipment has 'Equipped' effects", path, effects[0].line)
        if hook in ("Cast", "Mode") and not ({"Instant", "Sorcery"} & types):
            raise DeckError(f"card '{name}': only instants and sorceries have 'Cast' effects (use Enters)",
                            path, effects[0].line)
    if "Mode" in hooks and ("Cast" in hooks or len({e.line for e in hooks["Mode"]}) < 2):
        raise DeckError(f"card '{name}': a modal spell has two or more 'Mode:' lines and no 'Cast:' line",
                        path, block.line)
    if "Equipment" in subtypes and equip is None:
        raise DeckError(f"equipment '{name}' has no 'Equip:' cost", path, block.line)
    if "Planeswalker" in types and loyalty is None:
        raise DeckError(f"planeswalker '{name}' has no 'Loyalty:' line", path, block.line)
    statics = hooks.get("Static", [])
    anthems = tuple(e for e in statics if e.verb == "anthem")
    static_flags = frozenset(e.verb for e in statics if e.verb not in ("anthem", "pt_equals"))
    pt = [e for e in statics if e.verb == "pt_equals"]
    pt_amount = pt[0].args["amount"] if pt else None
    if "Creature" in types and pt_amount is None and "*" in f["PT"][0]:
        raise DeckError(f"creature '{name}' has */* but no 'Static: pt_equals amount=...'", path, f["PT"][1])
    cast = hooks.get("Cast", [])
    counters = next((e for e in cast if e.verb == "counter_spell"), None)
    return CardDef(
        name=name, cost=cost, types=types, subtypes=subtypes, supertypes=supertypes, power=power,
        toughness=toughness, loyalty=loyalty, keywords=keywords, colours=colours, identity=identity,
        hooks={k: tuple(v) for k, v in hooks.items()}, mana=mana, equip=equip, flashback=flashback,
        horde_x=horde_x, text=f.get("Text", ("", 0))[0], source=f"{path}:{block.line}", anthems=anthems,
        equipped=tuple(e for e in hooks.get("Equipped", []) if e.verb == "anthem"), static_flags=static_flags,
        pt_amount=pt_amount, counters=counters, is_fog=any(e.verb == "fog" for e in cast))


def load_catalogue(paths: Iterable[str | os.PathLike[str]] | None = None) -> Catalogue:
    """Read every card file (default: ``decks/cards/*.txt``) into one checked Catalogue."""
    if paths is None:
        paths = sorted((decks_dir() / "cards").glob("*.txt"))
    catalogue = Catalogue()
    token_uses: list[tuple[str, str, str, int]] = []
    for path in paths:
        path = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise DeckError(f"cannot read card file: {error}", path) from None
        for block in read_blocks(text, path):
            card = build_card(block)
            catalogue.add(card, path, block.line)
            for effects in card.hooks.values():
                for effect in effects:
                    if "token" in effect.args:
                        token_uses.append((card.name, effect.args["token"], path, effect.line))
    for card_name, token, path, line in token_uses:
        if token not in catalogue.tokens:
            raise DeckError(f"card '{card_name}': unknown token '{token}' (tokens: "
                            f"{', '.join(sorted(catalogue.tokens))})", path, line)
    return catalogue


_DEFAULT: dict[str, Catalogue] = {}


def default_catalogue() -> Catalogue:
    """The catalogue of the decks folder (``decks_dir``), read once per process."""
    key = str(decks_dir())
    if key not in _DEFAULT:
        _DEFAULT[key] = load_catalogue()
    return _DEFAULT[key]
