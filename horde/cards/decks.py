"""Horde and team decks: from decklist text to checked decks of ``CardDef``s.

A Horde deck is either a fixed list (reduced at random to the deck size: H3) or a recipe (R1)
that builds a new deck for every game from the game's own Horde stream. A team deck is a
Commander deck checked against C1 (903.4-903.5). ``check_deck`` lists every problem of a file
instead of stopping at the first, for ``horde decks check``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from horde.cards import name_key
from horde.cards.catalogue import Catalogue, decks_dir, default_catalogue
from horde.cards.decklists import DeckEntry, Decklist, parse_decklist, read_decklist
from horde.cards.tokens import missing_token, reads_as_token_name
from horde.engine.cards import CardDef
from horde.engine.shuffling import shuffle
from horde.errors import DeckError, HordeError, match_name
from horde.files import read_text
from horde.limits import quoted, whole_number
from horde.setup import KNOBS, GameSetup

COMMANDER_DECK_SIZE = 100  # 903.5a


@dataclass
class HordeDeck:
    """A Horde deck file: a fixed list or a recipe pool, and its boss, lieutenant and equipment lists."""

    name: str
    path: str
    build: str  # "fixed", "recipe" or "whole" (the list as it is, whatever the number of players)
    cards: list[CardDef] = field(default_factory=list)  # fixed: every card, tokens included
    creatures: list[CardDef] = field(default_factory=list)  # recipe pool (R1)
    spells: list[CardDef] = field(default_factory=list)
    base_token: CardDef | None = None  # a recipe always has one (the parser checks)
    giant_token: CardDef | None = None
    army_token: CardDef | None = None
    creatures_per_player: tuple[int, int] = (5, 6)
    spells_per_player: tuple[int, int] = (3, 4)
    bosses: list[CardDef] = field(default_factory=list)
    lieutenants: list[CardDef] = field(default_factory=list)
    equipment: list[CardDef] = field(default_factory=list)
    schemes: list[CardDef] = field(default_factory=list)  # A1: its Schemes section

    def tokens(self) -> tuple[CardDef, CardDef, CardDef]:
        """A recipe's (base, giant, army) tokens (R1): a missing strong token is the one before it."""
        base = self.base_token
        if base is None:
            raise HordeError(f"{self.path}: a recipe Horde deck needs a base token")
        giant = self.giant_token or base
        return base, giant, self.army_token or giant


@dataclass
class TeamDeck:
    """A Commander deck: its commander and the other 99 cards (C1)."""

    name: str
    path: str
    commander: CardDef | None
    cards: list[CardDef]
    generic_mana: bool = False  # C4
    style: str = ""
    partner: CardDef | None = None  # a second commander (702.124: partners, or a Background)

    @property
    def commanders(self) -> list[CardDef]:
        """Its commander and its partner, when it has them."""
        return [card for card in (self.commander, self.partner) if card is not None]


BUNDLED_KINDS = {"horde": "bundled Horde deck", "team": "bundled team deck", "schemes": "bundled scheme deck",
                 "cube": "bundled cube"}


def bundled_names(kind: str) -> list[str]:
    """The names of the bundled decks of ``kind`` (``decks/<kind>/*.txt``), sorted."""
    folder = decks_dir() / kind
    return sorted(p.stem for p in folder.glob("*.txt")) if folder.is_dir() else []


def resolve_path(name: str, kind: str | None) -> Path:
    """A deck given by path, or by bundled name whatever its case (``decks/<kind>/<name>.txt``;
    with ``kind`` None, a bundled team deck or else a bundled Horde deck of that name). A name that
    is no bundled deck is a DeckError naming the closest bundled names and every one, never the
    folder they are installed in."""
    path = Path(name)
    if path.suffix or "/" in name or os.path.exists(path):
        return path
    kinds = [kind] if kind is not None else ["team", "horde"]
    for each in kinds:
        if os.path.exists(decks_dir() / each / f"{name}.txt"):
            return decks_dir() / each / f"{name}.txt"
    names = {n: each for each in kinds for n in bundled_names(each)}
    what = BUNDLED_KINDS.get(kind, "bundled deck") if kind is not None else "bundled deck"
    found = match_name(name, names, what, error=DeckError, more=" (or give a file's path)")
    return decks_dir() / names[found] / f"{found}.txt"


def _range(text: str, key: str, path: str) -> tuple[int, int]:
    """A recipe's count per player (R1): ``5`` or ``5-6``, each at most the most Horde cards a
    player may have (the knob ``cards_per_player``)."""
    most = KNOBS["cards_per_player"].high or 0
    parts = text.replace(" ", "").split("-")
    try:
        if len(parts) not in (1, 2):
            raise ValueError
        low, high = (whole_number(part, 0, most) for part in (parts[0], parts[-1]))
    except ValueError:
        raise DeckError(f"About '{key}': expected a count or a range like 5-6, each from 0 to {most}, got "
                        f"{quoted(text)}", path) from None
    if low > high:
        raise DeckError(f"About '{key}': range {quoted(text)} runs backwards", path)
    return low, high


def parse_horde_deck(decklist: Decklist, catalogue: Catalogue,
                     problems: list[HordeError] | None = None) -> HordeDeck:
    """Check a Horde decklist; with ``problems`` given, collect every problem instead of raising."""
    path = decklist.path

    def fail(error: DeckError) -> None:
        if problems is None:
            raise error
        problems.append(error)

    about = decklist.about
    build = about.get("build", "fixed").lower()
    if build not in ("fixed", "recipe", "whole"):
        fail(DeckError(f"About 'build': expected fixed, recipe or whole, got {quoted(build)}", path))
        build = "fixed"
    deck = HordeDeck(name=about.get("name", Path(path).stem), path=path, build=build)
    for entry in decklist.entries:
        section = entry.section
        if section in IGNORED["horde"]:
            continue
        try:
            card = horde_card(catalogue, entry, path)
        except DeckError as error:
            fail(error)
            continue
        if section == "bosses":
            if "Planeswalker" not in card.types:
                fail(DeckError(f"boss '{card.name}' is not a planeswalker (B1)", path, entry.line))
            deck.bosses.append(card)
        elif section == "lieutenants":
            if not card.is_creature:
                fail(DeckError(f"lieutenant '{card.name}' is not a creature (L1)", path, entry.line))
            deck.lieutenants.append(card)
        elif section == "schemes":
            if "Scheme" not in card.types:
                fail(DeckError(f"'{card.name}' is not a scheme (A1)", path, entry.line))
            deck.schemes.extend([card] * entry.count)
        elif "Scheme" in card.types:
            fail(DeckError(f"'{card.name}' is a scheme: schemes go in a Schemes section (A1)", path, entry.line))
        elif section == "equipment":
            if card.equip is None:
                fail(DeckError(f"'{card.name}' is not equipment (L3)", path, entry.line))
            deck.equipment.append(card)
        elif "Planeswalker" in card.types:
            fail(DeckError(f"'{card.name}' is a planeswalker: the engine plays planeswalkers only as bosses (B1), "
                           "in a Bosses section", path, entry.line))
        elif build in ("fixed", "whole"):
            deck.cards.extend([card] * entry.count)
        elif card.is_token:
            if "Army" in card.subtypes:
                deck.army_token = card
            elif "Giant" in card.subtypes:
                deck.giant_token = card
            else:
                deck.base_token = card
        elif card.is_creature:
            deck.creatures.append(card)
        else:
            deck.spells.append(card)
    if build == "recipe":
        try:
            deck.creatures_per_player = _range(about.get("creatures", "5-6"), "creatures", path)
            deck.spells_per_player = _range(about.get("spells", "3-4"), "spells", path)
        except DeckError as error:
            fail(error)
        if deck.base_token is None:
            fail(DeckError("a recipe deck needs its base token in the Tokens section, e.g. '1 Zombie' (R1)", path))
        if not deck.creatures:
            fail(DeckError("a recipe deck needs creatures in its Deck section (R1)", path))
    elif not deck.cards:
        fail(DeckError("a fixed Horde deck lists no cards", path))
    return deck


def horde_card(catalogue: Catalogue, entry: DeckEntry, path: str) -> CardDef:
    """The card a Horde list's line names: a card, a token by name, or a token by description
    ('20 2/2 black Zombie'). A name that is no card and reads as a token's (in the Tokens
    section, 'Ooze tokens', or creature types such as 'Ooze' or 'Zombie Giant') is a DeckError
    saying how to define the token, not a guess at a card of a similar name; any other unknown
    name ('All Is Dust') keeps the catalogue's message (import the card index)."""
    try:
        return catalogue.get(entry.name, path, entry.line)
    except DeckError as error:
        certain = entry.section == "tokens" or bool(TOKEN_LINE.search(entry.name))
        if error.message.startswith("unknown card") and (certain or reads_as_token_name(entry.name)):
            name = TOKEN_LINE.sub("", entry.name).strip() or entry.name
            known = list(catalogue.cards) + list(catalogue.tokens)
            raise DeckError(missing_token(name, catalogue.tokens, [] if certain else known), path, entry.line) from None
        raise


def parse_team_deck(decklist: Decklist, catalogue: Catalogue, problems: list[HordeError] | None = None,
                    allow_illegal: bool = False) -> TeamDeck:
    """Check a Commander decklist against C1: 100 cards with the commander (or two partners),
    singleton but basic lands, every card inside the commander's colour identity. A list with no
    Commander section whose sideboard holds one card, or two, is an MTGO export: that sideboard is
    its commander."""
    path = decklist.path

    def fail(error: DeckError, rule_break: bool = False) -> None:
        if rule_break and allow_illegal:
            return
        if problems is None:
            raise error
        problems.append(error)

    commander_lines = mtgo_commanders(decklist)
    named = 0  # commanders the list names, those it failed to find included
    commanders = []
    cards = []
    seen: dict[str, int] = {}
    for entry in decklist.entries:
        in_command = entry.section == "commander" or entry.line in commander_lines
        if not in_command and entry.section != "deck":
            continue
        named += entry.count if in_command else 0
        try:
            card = catalogue.get(entry.name, path, entry.line)
        except DeckError as error:
            fail(error)
            continue
        if card.is_token:
            fail(DeckError(f"'{card.name}' is a token, not a card of a Commander deck", path, entry.line))
            continue
        if in_command:
            commanders.extend([(card, entry.line)] * entry.count)
        else:
            cards.extend([card] * entry.count)
        if "Basic" not in card.supertypes:
            if seen.get(card.name) or entry.count > 1:
                fail(DeckError(f"'{card.name}' appears more than once: a Commander deck holds one copy of each "
                               f"card but basic lands (C1, 903.5b)", path, entry.line), True)
            seen[card.name] = entry.line
    commander = partner = None
    if len(commanders) not in (1, 2):
        if named not in (1, 2) or len(commanders) == named:  # a commander named but refused is reported above
            fail(DeckError(f"expected exactly one card in a 'Commander' section, found {named} (two: partners, "
                           "702.124; C1, 903.3)", path))
    else:
        commander, line = commanders[0]
        if len(commanders) == 2:
            partner, partner_line = commanders[1]
            problem = pair_problem(commander, partner)
            if problem is not None:
                fail(DeckError(problem, path, partner_line), True)
            if "Background" in commander.subtypes:  # the creature that chose it plays as the commander
                commander, partner, line, partner_line = partner, commander, partner_line, line
            elif "Background" not in partner.subtypes and (problem := commander_problem(partner)) is not None:
                fail(DeckError(problem, path, partner_line), True)
        problem = commander_problem(commander)
        if problem is not None:
            fail(DeckError(problem, path, line), True)
        identity = commander.identity | (partner.identity if partner is not None else frozenset())  # 903.4
        for entry in decklist.entries:
            if entry.section == "deck" and entry.line not in commander_lines and entry.name in catalogue:
                card = catalogue.get(entry.name)
                outside = card.identity - identity
                if outside:
                    fail(DeckError(f"'{card.name}' has colour identity {''.join(sorted(card.identity))} outside "
                                   f"the commander's {''.join(sorted(identity)) or 'colourless'} "
                                   f"(C1, 903.4)", path, entry.line), True)
    total = sum(e.count for e in decklist.entries if e.section in ("commander", "deck") or e.line in commander_lines)
    if total != COMMANDER_DECK_SIZE:
        fail(DeckError(f"deck has {total} cards with its commander: expected exactly {COMMANDER_DECK_SIZE} "
                       f"(C1, 903.5a)", path), True)
    about = decklist.about
    return TeamDeck(name=about.get("name", Path(path).stem), path=path, commander=commander, cards=cards,
                    generic_mana=about.get("mana", "").lower() == "generic", style=about.get("style", ""),
                    partner=partner)


def mtgo_commanders(decklist: Decklist) -> frozenset[int]:
    """The lines of a team decklist's commanders as MTGO exports them: with no Commander section,
    a sideboard of one card (or two: partners) is the commander. Empty for any other list."""
    if decklist.section("commander"):
        return frozenset()
    sideboard = decklist.section("sideboard")
    if not sideboard or sum(entry.count for entry in sideboard) > 2 or any(entry.count > 1 for entry in sideboard):
        return frozenset()
    return frozenset(entry.line for entry in sideboard)


# ---------------------------------------------------------------- commanders (903.3, 702.124)

_CAN_BE_YOUR_COMMANDER = re.compile(r"\bcan be your commander\b", re.IGNORECASE)
_PARTNER = re.compile(r"\bPartner\b(?!\s+with\b)")  # the keyword, capitalised as printed
_PARTNER_WITH = re.compile(r"\bPartner with ([^(.]+?)\s*(?:\(|\.|$)")
_FRIENDS_FOREVER = re.compile(r"\bFriends forever\b")
_CHOOSE_A_BACKGROUND = re.compile(r"\bChoose a Background\b")


def commander_problem(card: CardDef) -> str | None:
    """Why ``card`` can't be a commander, or None when it can (903.3): a legendary creature, or a
    card whose text says it "can be your commander" (a planeswalker such as Daretti, Scrap Savant)."""
    if "Legendary" in card.supertypes and card.is_creature:
        return None
    if _CAN_BE_YOUR_COMMANDER.search(card.text):
        return None
    return (f"commander '{card.name}' is not a legendary creature (903.3), and its text does not say it can be your "
            "commander")


def pair_problem(first: CardDef, second: CardDef) -> str | None:
    """Why two cards can't be commanders together, or None when they can (702.124): both have
    partner; each has "Partner with" the other; both have "Friends forever"; or one can "Choose
    a Background" and the other is a Background."""
    if _PARTNER.search(first.text) and _PARTNER.search(second.text):
        return None
    named_first, named_second = _PARTNER_WITH.search(first.text), _PARTNER_WITH.search(second.text)
    if (named_first and named_second and named_first[1] == second.name and named_second[1] == first.name):
        return None
    if _FRIENDS_FOREVER.search(first.text) and _FRIENDS_FOREVER.search(second.text):
        return None
    for chooser, background in ((first, second), (second, first)):
        if _CHOOSE_A_BACKGROUND.search(chooser.text) and "Background" in background.subtypes:
            return None
    return (f"commanders '{first.name}' and '{second.name}' can't be played together: two commanders both have "
            "partner, name each other with 'Partner with', both have 'Friends forever', or are a commander that "
            "can 'Choose a Background' and a Background (702.124)")


def deck_kind(decklist: Decklist, catalogue: Catalogue | None = None) -> str:
    """``horde``, ``team``, or ``""`` when the deck does not say. The About section's ``Kind``
    decides; else a Horde deck's signs (a ``Build`` line, a Bosses, Lieutenants or Equipment
    section) make it a Horde deck, and a Commander section a team deck; else tokens (a Tokens
    section, a line naming 'tokens', a token card of ``catalogue``) make it a Horde deck and basic
    lands a team deck. A list with none of these can't be told apart: a team deck that lost its
    Commander section is not taken for a Horde deck."""
    kind = decklist.about.get("kind", "").lower()
    if kind in ("horde", "team"):
        return kind
    if "build" in decklist.about or any(decklist.section(s) for s in ("bosses", "lieutenants", "equipment")):
        return "horde"
    if decklist.section("commander"):
        return "team"
    if decklist.section("tokens") or any(TOKEN_LINE.search(e.name) for e in decklist.entries):
        return "horde"
    if catalogue is not None:
        cards = [catalogue.get(e.name) for e in decklist.entries if e.name in catalogue]
        if any(card.is_token for card in cards):
            return "horde"
        if any("Basic" in card.supertypes for card in cards):
            return "team"
    return ""


TOKEN_LINE = re.compile(r"\s*\btokens?$", re.IGNORECASE)


KIND_HINT = ("add 'Kind horde' or 'Kind team' to its About section (a team deck names its commander in a "
             "Commander section)")


def read_deck(path: str | os.PathLike[str], kind: str | None = None, catalogue: Catalogue | None = None) -> Decklist:
    """Read a deck file as its kind reads it (``kind``, else what the deck says: ``deck_kind``):
    a Horde deck's blank lines only separate groups of cards (as Horde helper apps write them); a
    team deck keeps MTGO's sideboard rule. A deck whose kind is given and that says it is the
    other kind is a DeckError: a team deck is never played as the Horde, nor the reverse."""
    name = os.fspath(path)
    text = read_text(name, "decklist", DeckError)
    decklist = parse_decklist(text, name)
    found = deck_kind(decklist, catalogue)
    if kind is not None and found and found != kind:
        why = "its About section says 'Kind team'" if decklist.about.get("kind", "").lower() == "team" else \
            "it has a Commander section" if found == "team" else "it says it is a Horde deck (its About section, or " \
            "its Bosses, Lieutenants or Equipment section)"
        raise DeckError(f"expected a {'Horde' if kind == 'horde' else 'team'} deck, got a "
                        f"{'team' if found == 'team' else 'Horde'} deck ({why})", name)
    if (kind or found) == "horde" and any(e.section == "sideboard" for e in decklist.entries):
        decklist = parse_decklist(text, name, "horde")
    return decklist


# Sections a deck of each kind does not play.
IGNORED = {"horde": ("sideboard", "maybeboard", "companion", "commander"),
           "team": ("sideboard", "maybeboard", "companion", "tokens", "bosses", "lieutenants", "equipment", "schemes")}


def ignored_sections(decklist: Decklist, kind: str) -> list[tuple[str, int, int]]:
    """The sections of a deck that its kind ignores: (section, cards, first line) for each."""
    found: dict[str, list[int]] = {}
    commanders = mtgo_commanders(decklist) if kind == "team" else frozenset()
    for entry in decklist.entries:
        if entry.section in IGNORED[kind] and entry.line not in commanders:
            lines = found.setdefault(entry.section, [0, entry.line])
            lines[0] += entry.count
    return [(section, cards, line) for section, (cards, line) in found.items()]


_CACHE: dict = {}


def load_horde_deck(name: str, catalogue: Catalogue | None = None) -> HordeDeck:
    catalogue = catalogue or default_catalogue()
    path = resolve_path(name, "horde")
    key = ("horde", str(path), id(catalogue))
    if key not in _CACHE:
        _CACHE[key] = parse_horde_deck(read_deck(path, "horde"), catalogue)
    return _CACHE[key]


def load_team_deck(name: str, catalogue: Catalogue | None = None, allow_illegal: bool = False) -> TeamDeck:
    catalogue = catalogue or default_catalogue()
    path = resolve_path(name, "team")
    key = ("team", str(path), id(catalogue), allow_illegal)
    if key not in _CACHE:
        _CACHE[key] = parse_team_deck(read_deck(path, "team"), catalogue, allow_illegal=allow_illegal)
    return _CACHE[key]


def deck_cards(horde: HordeDeck | None, teams: Iterable[TeamDeck] = ()) -> list[CardDef]:
    """Every card a Horde deck and team decks may play (pool, tokens, bosses, lieutenants, equipment)."""
    cards: list[CardDef] = []
    if horde is not None:
        cards += horde.cards + horde.creatures + horde.spells + horde.bosses + horde.lieutenants + horde.equipment
        cards += horde.schemes
        cards += [t for t in (horde.base_token, horde.giant_token, horde.army_token) if t is not None]
    for team in teams:
        cards += team.cards + team.commanders
    return cards


def load_banlist(name: str) -> frozenset[str]:
    """R3: the banlist's card names as keys (``name_key``: a banlist names a card as a deck does,
    in any case, æ or ae): 'default' is the source's list (decks/banlist.txt), 'none' is empty."""
    if name == "none":
        return frozenset()
    path = decks_dir() / "banlist.txt" if name == "default" else Path(name)
    key = ("banlist", str(path))
    if key not in _CACHE:
        text = read_text(path, "banlist", DeckError)
        _CACHE[key] = frozenset(name_key(e.name) for e in parse_decklist(text, str(path)).entries)
    return _CACHE[key]


def banned_cards(banlist: frozenset[str], decks: Iterable[TeamDeck]) -> frozenset[str]:
    """R3: the names of the team decks' cards that the banlist (names as keys: ``name_key``) bans."""
    return frozenset(card.name for deck in decks for card in deck.cards + deck.commanders
                     if name_key(card.name) in banlist)


@dataclass
class DeckCheck:
    """What ``inspect_deck`` found in a deck file: its kind, its problems, the sections it ignores
    (section, cards, first line), warnings, and where each card's behaviour comes from."""

    path: str
    kind: str = ""
    problems: list[HordeError] = field(default_factory=list)
    ignored: list[tuple[str, int, int]] = field(default_factory=list)
    warnings: list[DeckError] = field(default_factory=list)
    cards: list[CardDef] = field(default_factory=list)  # the deck's CardDefs, in deck order, once each
    horde: HordeDeck | None = None  # a Horde deck as read (its build and cards say the players it serves)


def inspect_deck(path: str, catalogue: Catalogue | None = None, banlist: str = "default",
                 kind: str | None = None) -> DeckCheck:
    """Check a Horde or team deck file (``kind``, else what the deck says it is: ``deck_kind``):
    every problem, the sections it ignores, and for a team deck a warning for each card of the
    banlist (R3: a player who draws one throws it out of the game). A deck that does not say its kind is a
    problem (``KIND_HINT``)."""
    catalogue = catalogue or default_catalogue()
    check = DeckCheck(str(path))
    try:
        decklist = read_deck(path, kind, catalogue)
    except DeckError as error:
        check.problems.append(error)
        return check
    check.kind = kind or deck_kind(decklist, catalogue)
    if not check.kind:
        check.problems.append(DeckError("can't tell whether this is a Horde deck or a team deck: " + KIND_HINT
                                        + ", or check it with --kind", str(path)))
        return check
    check.ignored = ignored_sections(decklist, check.kind)
    if check.kind == "horde":
        check.horde = parse_horde_deck(decklist, catalogue, check.problems)
        cards = deck_cards(check.horde)
    else:
        cards = deck_cards(None, [parse_team_deck(decklist, catalogue, check.problems)])
        try:
            banned = load_banlist(banlist)
        except HordeError as error:
            check.problems.append(error)
            banned = frozenset()
        for entry in decklist.entries:
            if (entry.section in ("commander", "deck") or entry.line in mtgo_commanders(decklist)) \
                    and name_key(entry.name) in banned:
                check.warnings.append(DeckError(f"warning: '{entry.name}' is on the banlist: a player who draws "
                                                "it removes it from the game and draws another (R3)", str(path), entry.line))
    once: dict[str, CardDef] = {}
    for card in cards:
        once.setdefault(card.name, card)
    check.cards = list(once.values())
    return check


def check_deck(path: str, catalogue: Catalogue | None = None) -> list[HordeError]:
    """Every problem of a Horde or team deck file (an empty list: the deck is good)."""
    return inspect_deck(path, catalogue).problems


# ---------------------------------------------------------------- building the Horde library


def players_supported(deck: HordeDeck, cards_per_player: int) -> list[int]:
    """H3: the numbers of players (1 to 4) a Horde deck can be played with at ``cards_per_player``:
    any for a recipe (R1) or a deck played whole, else those whose deck size its list holds."""
    players = range(1, (KNOBS["players"].high or 4) + 1)
    if deck.build != "fixed":
        return list(players)
    return [p for p in players if len(deck.cards) >= cards_per_player * p]


def check_deck_size(deck: HordeDeck, setup: GameSetup) -> None:
    """H3: a fixed Horde deck must hold at least the setup's deck size; raises HordeError."""
    size = setup.deck_size
    if deck.build == "fixed" and len(deck.cards) < size:  # a whole deck is played whole, whatever the players
        raise HordeError(f"{deck.path}: the fixed Horde deck has {len(deck.cards)} cards; "
                         f"{setup.players} players x {setup.cards_per_player} cards need {size} (H3)")


def build_horde_library(deck: HordeDeck, setup: GameSetup, rng: Random) -> list[CardDef]:
    """The Horde's library for one game, top card last (H3, R1), from the Horde stream ``rng``."""
    size = setup.deck_size  # H3
    check_deck_size(deck, setup)
    if deck.build == "whole":
        cards = list(deck.cards)  # F, M, G: a challenge deck is its whole list, whatever the players
        shuffle(rng, cards)
    elif deck.build == "fixed":
        cards = list(deck.cards)
        shuffle(rng, cards)
        cards = cards[:size]  # H3: a random deck-size part of the list
    else:
        cards = recipe(deck, setup, rng)
        shuffle(rng, cards)
    return cards


RECIPE_CARDS_PER_PLAYER = 25  # R1's deck: the recipe's counts are written for 25 cards per player (H3)


def recipe(deck: HordeDeck, setup: GameSetup, rng: Random) -> list[CardDef]:
    """R1: per player 5-6 creatures and 3-4 spells drawn from the lists (``creatures_per_player``
    and ``spells_per_player`` when set, else the deck's About counts) and the strong tokens
    (Giant : Army by ``strong_mix``); base tokens fill the rest up to ``cards_per_player`` (10
    per player at the default 25). Decision: when the drawn cards and strong tokens alone pass the deck
    size, there are no base tokens and random drawn cards are taken away (H3's "random 25").
    Decision: with ``recipe_cut = "random"`` a deck below 25 cards per player is the whole 25-card
    recipe cut at random to its size, so it keeps R1's mix instead of losing its base tokens first."""
    players = setup.players
    if setup.token_percent is not None:
        return _recipe_by_share(deck, setup, rng)
    counts = (deck.creatures_per_player if setup.creatures_per_player is None else
              (setup.creatures_per_player, setup.creatures_per_player))
    creatures = sum(rng.randint(*counts) for _ in range(players))
    counts = deck.spells_per_player if setup.spells_per_player is None else (setup.spells_per_player,) * 2
    spells = sum(rng.randint(*counts) for _ in range(players))
    picked = _draw_from(deck.creatures, creatures, rng) + _draw_from(deck.spells, spells, rng)
    giants, armies = setup.strong_split
    base, giant, army = deck.tokens()
    strong = [giant] * (giants * players) + [army] * (armies * players)
    size = setup.deck_size
    cards = picked + strong
    if setup.recipe_cut == "random" and size < RECIPE_CARDS_PER_PLAYER * players:  # R1, H3: a random part
        whole = RECIPE_CARDS_PER_PLAYER * players
        cards += [base] * max(0, whole - len(cards))
    shuffle(rng, cards)
    cards = cards[:size]
    return cards + [base] * (size - len(cards))  # R1: base tokens fill the rest


def _recipe_by_share(deck: HordeDeck, setup: GameSetup, rng: Random) -> list[CardDef]:
    """The recipe with ``token_percent`` of the deck as tokens (a tuning knob beyond R1): the
    tokens split base : strong as R1's 10 : 5 and the strong ones by ``strong_mix``; the other
    cards are creatures and spells in R1's proportion (5.5 : 3.5), drawn from the lists."""
    size = setup.deck_size
    tokens = round(size * (setup.token_percent or 0) / 100)
    nontoken = size - tokens
    creatures = round(nontoken * 11 / 18) if deck.spells else nontoken
    picked = _draw_from(deck.creatures, creatures, rng) + _draw_from(deck.spells, nontoken - creatures, rng)
    strong = round(tokens * setup.strong_tokens / 15)
    giant_share, army_share = (int(x) for x in setup.strong_mix.split(":"))
    giants = round(strong * giant_share / (giant_share + army_share))
    base, giant, army = deck.tokens()
    cards = picked + [giant] * giants + [army] * (strong - giants)
    return cards + [base] * (size - len(cards))


def _draw_from(pool: list[CardDef], n: int, rng: Random) -> list[CardDef]:
    """n cards drawn at random from a list, without replacement while the list lasts."""
    if not pool:
        return []
    out = []
    while n > 0:
        take = min(n, len(pool))
        out += rng.sample(pool, take)
        n -= take
    return out


# ---------------------------------------------------------------- scheme decks (RULES.md A1)
SCHEME_DECK_SIZE = 20  # 904.3: at least twenty schemes
SCHEME_COPIES = 2  # 904.3: no more than two of any name


def check_scheme_deck(cards: list[CardDef], path: str) -> None:
    """904.3: at least twenty schemes, no more than two with the same English name; every card a scheme."""
    for card in cards:
        if "Scheme" not in card.types:
            raise DeckError(f"'{card.name}' is not a scheme: a scheme deck holds only schemes (A1)", path)
    if len(cards) < SCHEME_DECK_SIZE:
        raise DeckError(f"a scheme deck needs at least {SCHEME_DECK_SIZE} schemes (904.3), got {len(cards)}", path)
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.name] = counts.get(card.name, 0) + 1
    over = [name for name, n in counts.items() if n > SCHEME_COPIES]
    if over:
        raise DeckError(f"a scheme deck holds at most {SCHEME_COPIES} of a name (904.3): {over[0]} "
                        f"x{counts[over[0]]}", path)


def load_scheme_deck(name: str, catalogue: Catalogue | None = None) -> list[CardDef]:
    """A scheme deck by bundled name (``decks/schemes/NAME.txt``) or path: its cards (every section
    but an About one), checked against 904.3."""
    catalogue = catalogue or default_catalogue()
    path = resolve_path(name, "schemes")
    key = ("schemes", str(path), id(catalogue))
    if key not in _CACHE:
        decklist = read_decklist(path, "horde")
        cards: list[CardDef] = []
        for entry in decklist.entries:
            cards.extend([catalogue.get(entry.name, str(path), entry.line)] * entry.count)
        check_scheme_deck(cards, str(path))
        _CACHE[key] = cards
    return _CACHE[key]


def scheme_deck(setup: GameSetup, horde: HordeDeck, catalogue: Catalogue | None = None) -> list[CardDef]:
    """The setup's scheme deck (A1): the ``schemes`` knob's deck, or the Horde deck's own Schemes
    section when the knob is '' (none when it has none), or none for 'none'."""
    if setup.schemes == "none":
        return []
    if setup.schemes:
        return load_scheme_deck(setup.schemes, catalogue)
    if horde.schemes:
        check_scheme_deck(horde.schemes, horde.path)
    return list(horde.schemes)
