"""Drafted and sealed team decks (RULES.md X1): a cube, booster packs passed around a table, sealed
pools, and the 40-card decks built from them, fresh for every game from the game's own stream.

A cube is a decklist file of the cards the table drafts from (``decks/cube/horde-cube.txt`` is
bundled; a cube of one's own is any decklist of catalogue cards). ``draft`` deals three packs of
15 to every seat and passes them left, right, left (905.1a-b); ``sealed`` deals each player a pool
at random (Horde Sealed: 90, 75 or 60 cards for 2, 3 or 4 players). Each player then builds a deck
of its picks or pool plus basic lands (905.1d). The choices are a drafter's: a class with
``pick`` and ``build`` (``HeuristicDrafter``, documented below, and ``RandomDrafter``; any
``module:Class`` with those methods plugs in, as team policies do). The module only deals and
checks; a drafter only chooses. ``team_decks`` is what the engine calls for each game.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from random import Random
from typing import Any

from horde.cards.catalogue import Catalogue, decks_dir
from horde.cards.decklists import read_decklist
from horde.cards.decks import TeamDeck
from horde.engine.cards import COLOURS, CardDef
from horde.errors import DeckError, HordeError, about_knob
from horde.setup import GameSetup
from horde.team.policies import attribute_by_path, role

PACK_SIZE = 15  # X1, 905.1a: each player opens a pack of 15
ROUNDS = ("left", "right", "left")  # X1, 905.1b: the first and third packs pass left, the second right
DECK_SIZE = 40  # X1, 905.1d: a limited deck (Horde Sealed: at least 40 cards)
SOLO_SEATS = 8  # X1 decision: one player drafts at a table of 8, beside seven seeded bot drafters
SEALED_POOL = {1: 90, 2: 90, 3: 75, 4: 60}  # X1, Horde Sealed: 2, 3, 4 players; decision: 1 player as 2
BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}  # 905.1d
MODES = ("draft", "sealed")
MADE = {"draft": "drafted", "sealed": "sealed"}


class DraftError(HordeError):
    """A cube, drafter or draft that cannot make the decks asked for."""


def mode_of(setup: GameSetup) -> str | None:
    """``draft`` or ``sealed`` when the setup's team decks are drafted or sealed (``team_decks =
    "draft"``), else None (the named decks)."""
    decks = setup.team_decks
    return decks[0] if len(decks) == 1 and decks[0] in MODES else None


def seats_of(setup: GameSetup) -> int:
    """The drafters at the table: ``draft_seats``, else the players (8 for one player: X1)."""
    if setup.draft_seats is not None:
        return setup.draft_seats
    return SOLO_SEATS if setup.players == 1 else setup.players


def pool_size_of(setup: GameSetup) -> int:
    """The cards of each sealed pool: ``sealed_pool``, else Horde Sealed's size for the players."""
    return setup.sealed_pool if setup.sealed_pool is not None else SEALED_POOL[setup.players]


# ---------------------------------------------------------------- the cube


@dataclass(frozen=True, eq=False)
class Cube:
    """The cards a table drafts from, each copy listed (a singleton cube lists each card once)."""

    name: str
    path: str
    cards: tuple[CardDef, ...]
    basics: Mapping[str, CardDef]  # colour letter -> its basic land (905.1d)


def cube_path(name: str) -> Path:
    """A cube by path, or by bundled name (``decks/cube/<name>.txt``)."""
    path = Path(name)
    if path.suffix or "/" in name or path.exists():
        return path
    return decks_dir() / "cube" / f"{name}.txt"


_CUBES: dict[tuple[str, int], Cube] = {}


def load_cube(name: str, catalogue: Catalogue) -> Cube:
    """Read and check a cube once per process and catalogue: every line a card of the catalogue
    that a team player can play, no basic land (they are added when building: 905.1d), no token.
    A bad line is a DeckError naming the file, the line and what was expected."""
    path = cube_path(name)
    key = (str(path), id(catalogue))
    cube = _CUBES.get(key)
    if cube is None:
        cube = _CUBES[key] = _read_cube(path, catalogue)
    return cube


def _read_cube(path: Path, catalogue: Catalogue) -> Cube:
    where = str(path)
    if not path.is_file():
        raise DeckError("no such cube file: expected a decklist of the cards to draft, or a bundled cube "
                        f"name ({', '.join(sorted(p.stem for p in (decks_dir() / 'cube').glob('*.txt')))})", where)
    decklist = read_decklist(path, "horde")  # blank lines only group cards, as in a Horde deck
    cards: list[CardDef] = []
    for entry in decklist.entries:
        if entry.section != "deck":
            raise DeckError(f"a cube is one list of cards: expected card lines, found a '{entry.section}' section",
                            where, entry.line)
        card = catalogue.get(entry.name, where, entry.line)
        if card.is_token:
            raise DeckError(f"'{card.name}' is a token: expected a card a player can draft", where, entry.line)
        if "Basic" in card.supertypes:
            raise DeckError(f"'{card.name}' is a basic land: expected the cards to draft (basic lands are added "
                            "when each player builds its deck, 905.1d)", where, entry.line)
        cards.extend([card] * entry.count)
    if not cards:
        raise DeckError("the cube lists no cards: expected one card per line, like '1 Grizzly Bears'", where)
    basics = {colour: catalogue.get(land, where) for colour, land in BASICS.items()}
    return Cube(decklist.about.get("name", path.stem), where, tuple(cards), basics)


# ---------------------------------------------------------------- drafters (the choices)


_RATINGS: dict[CardDef, float] = {}
KEYWORD_VALUE = {
    "flying": 1.0, "double strike": 1.5, "first strike": 0.5, "deathtouch": 1.0, "lifelink": 0.5,
    "trample": 0.5, "haste": 0.5, "vigilance": 0.25, "menace": 0.5, "unblockable": 1.0, "intimidate": 0.75,
    "fear": 0.75, "reach": 0.25, "indestructible": 1.5, "hexproof": 0.5, "shroud": 0.25, "flanking": 0.25,
    "swampwalk": 0.25, "islandwalk": 0.25, "forestwalk": 0.25, "undying": 1.0,
    "defender": -1.5, "can't block": -0.5, "can't attack": -1.5, "enters tapped": -0.25,
}
ROLE_VALUE = {"wrath": 3.0, "removal": 3.0, "fog": 1.5, "counter": 1.2, "pump": 1.0, "ramp": 1.2,
              "permanent": 1.6, "spell": 1.4}


def rating(card: CardDef) -> float:
    """Power for cost, the heuristic drafter's first look at a card (computed once per card). A
    creature: its power plus half its toughness, plus its keywords' worth (``KEYWORD_VALUE``), 0.75
    per effect of its abilities, 1 per anthem, 0.5 for a mana ability, less 1 without power; twice
    that over its mana value plus 1.5 (a 2/2 for 2 rates 1.71, a 5/5 for 6 2.0). Any other card by
    what it does for the team (``ROLE_VALUE``: removal and wraths 3, a fog 1.5, a pump 1, ...),
    5% less for each mana of its mana value beyond 3 and more below."""
    found = _RATINGS.get(card)
    if found is None:
        kind = role(card)
        mana_value = card.mana_value
        if card.is_creature and kind in ("creature", "ramp"):
            power, toughness = card.power or 0, card.toughness or 0
            worth = power + toughness / 2 - (1.0 if power <= 0 else 0.0)
            worth += sum(KEYWORD_VALUE.get(k, 0.0) for k in card.keywords)
            worth += 0.75 * sum(len(effects) for hook, effects in card.hooks.items() if hook != "Static")
            worth += 1.0 * len(card.anthems) + (0.5 if card.mana else 0.0)
            found = 2 * max(worth, 0.1) / (mana_value + 1.5)
        else:
            found = ROLE_VALUE.get(kind, 1.4) * (1.15 - 0.05 * min(mana_value, 6))
        _RATINGS[card] = found
    return found


class Drafter:
    """The interface of a drafter: ``pick`` a card of a pack, ``build`` a deck from a pool.
    ``self.rng`` is the table's own stream, set before the draft. Parameters are public class
    attributes, as for team policies."""

    name = "drafter"
    description = ""

    def __init__(self) -> None:
        self.rng = Random(0)

    def pick(self, pack: Sequence[CardDef], picks: Sequence[CardDef]) -> int:
        """The index in ``pack`` of the card to take, seeing only the pack and its own picks (905.1c)."""
        raise NotImplementedError

    def build(self, pool: Sequence[CardDef], basics: Mapping[str, CardDef]) -> list[CardDef]:
        """A deck of at least 40 cards: cards of ``pool`` plus any number of ``basics`` (905.1d)."""
        raise NotImplementedError


class HeuristicDrafter(Drafter):
    """Picks by power for cost (``rating``); after ``commit_after`` picks it commits to the two
    colours its picks rate highest and takes their cards (and colourless ones) first, an off-colour
    card's worth cut to ``off_colour``; it passes over a card whose mana value its picks already
    fill (``curve``) unless nothing else is close; ties go to the card first in the pack (the
shuffle's order), and ``noise`` (off by default) adds up to that much at random to each score.
    Builds the two colours whose best ``spells`` cards rate highest, at most ``top_end`` cards of
    mana value 6 or more, and fills the deck to 40 with basic lands in proportion to the pips."""

    name = "heuristic"
    description = "power for cost, two colours after a few picks, a curve; 23 spells and 17 basic lands"
    commit_after = 5
    off_colour = 0.3
    curve_penalty = 0.5
    noise = 0.0
    spells = 23
    top_end = 4
    # how many picks of each mana value (0-1, 2, 3, 4, 5, 6+) fill a deck's curve
    curve = (4, 7, 6, 5, 3, 3)

    def __init__(self) -> None:
        super().__init__()
        self._seen = 0  # picks already counted below (a drafter is made for one draft)
        self._weight = [0.0] * 5  # the ratings of the picks of each colour, in WUBRG order
        self._filled = [0] * 6  # picks in each curve slot
        self._penalty: tuple[float, ...] = (0.0,) * 6  # curve_penalty in each slot the picks fill
        self._outside = 0  # the colours other than the two its picks rate highest, as a mask (below)
        self._table = _scores(1.0, 0, self._penalty)  # before commit_after picks: power for cost alone

    def _count(self, picks: Sequence[CardDef]) -> None:
        weight, filled = self._weight, self._filled
        for card in picks[self._seen:]:
            worth, mask, slot = _FACTS.get(card) or _facts(card)
            if mask:
                for i in _INDICES[mask]:
                    weight[i] += worth
                if mask & self._outside or not self._outside:  # only then can the best two change
                    first = max(range(5), key=weight.__getitem__)
                    second = max((i for i in range(5) if i != first), key=weight.__getitem__)
                    # ties: the first in WUBRG order; a colour no pick has is not one of them
                    self._outside = 31 & ~sum(1 << i for i in (first, second) if weight[i] > 0)
            filled[slot] += 1
            if filled[slot] == self.curve[slot]:
                self._penalty = tuple(self.curve_penalty if have >= want else 0.0
                                      for have, want in zip(filled, self.curve, strict=True))
        self._seen = len(picks)
        if self._seen >= self.commit_after:
            self._table = _scores(self.off_colour, self._outside, self._penalty)

    def pick(self, pack: Sequence[CardDef], picks: Sequence[CardDef]) -> int:
        if len(picks) != self._seen:
            if len(picks) < self._seen:  # a new draft with the same drafter
                self.__init__()  # type: ignore[misc]
            self._count(picks)
        table = self._table
        if self.noise:
            rng, noise = self.rng, self.noise
            scores = [table[card] + noise * rng.random() for card in pack]
            return scores.index(max(scores))
        return pack.index(max(pack, key=table.__getitem__))  # ties: the first in the pack (the shuffle's order)

    def build(self, pool: Sequence[CardDef], basics: Mapping[str, CardDef]) -> list[CardDef]:
        ranked = sorted((c for c in pool if not c.is_land), key=lambda c: (-rating(c), c.name))
        chosen: list[CardDef] = []
        best_total = -1.0
        for pair in combinations(COLOURS, 2):
            allowed = frozenset(pair)
            spells = self._spells([c for c in ranked if c.colours <= allowed])
            total = sum(rating(c) for c in spells)
            if total > best_total:
                chosen, best_total = spells, total
        lands = DECK_SIZE - len(chosen)
        return chosen + basic_lands(chosen, lands, basics)

    def _spells(self, castable: list[CardDef]) -> list[CardDef]:
        spells: list[CardDef] = []
        top = 0
        for card in castable:
            if card.mana_value >= 6:
                if top >= self.top_end:
                    continue
                top += 1
            spells.append(card)
            if len(spells) == self.spells:
                break
        return spells


class _Scores(dict):
    """A pick's score of every card for one state of a heuristic drafter (its colours and the curve
    slots it has filled), each computed when first asked: ``rating``, times ``off`` for a card
    of a colour outside the drafter's, less the penalty of its curve slot."""

    def __init__(self, off: float, outside: int, penalty: tuple[float, ...]) -> None:
        super().__init__()
        self.off, self.outside, self.penalty = off, outside, penalty

    def __missing__(self, card: CardDef) -> float:
        worth, mask, slot = _facts(card)
        score = self[card] = (worth * self.off if mask & self.outside else worth) - self.penalty[slot]
        return score


_INDICES = [tuple(i for i in range(5) if mask >> i & 1) for mask in range(32)]  # a colour mask's colours
_SCORE_TABLES: dict[tuple[float, int, tuple[float, ...]], _Scores] = {}


def _scores(off: float, outside: int, penalty: tuple[float, ...]) -> _Scores:
    """The score table of a drafter state, kept per process: drafters in the same state share it."""
    key = (off, outside, penalty)
    table = _SCORE_TABLES.get(key)
    if table is None:
        table = _SCORE_TABLES[key] = _Scores(off, outside, penalty)
    return table


def _slot(card: CardDef) -> int:
    """The curve slot of a card: mana value 0-1, 2, 3, 4, 5, 6 or more."""
    return min(max(card.mana_value - 1, 0), 5)


_FACTS: dict[CardDef, tuple[float, int, int]] = {}


def _facts(card: CardDef) -> tuple[float, int, int]:
    """What a pick looks at, once per card: its rating, its colours as a mask (W 1, U 2, B 4, R 8,
    G 16) and its curve slot."""
    found = _FACTS.get(card)
    if found is None:
        mask = sum(1 << i for i, colour in enumerate(COLOURS) if colour in card.colours)
        found = _FACTS[card] = (rating(card), mask, _slot(card))
    return found


class RandomDrafter(Drafter):
    """Picks at random; builds its deck of 23 random cards of two random colours (and colourless
    ones) and 17 basic lands: the floor a drafter should beat."""

    name = "random"
    description = "random picks, two random colours, 23 spells and 17 basic lands"

    def pick(self, pack: Sequence[CardDef], picks: Sequence[CardDef]) -> int:
        return self.rng.randrange(len(pack))

    def build(self, pool: Sequence[CardDef], basics: Mapping[str, CardDef]) -> list[CardDef]:
        allowed = set(self.rng.sample(COLOURS, 2))
        castable = [c for c in pool if not c.is_land and c.colours <= allowed]
        spells = self.rng.sample(castable, min(23, len(castable)))
        return spells + basic_lands(spells, DECK_SIZE - len(spells), basics)


def basic_lands(spells: Sequence[CardDef], count: int, basics: Mapping[str, CardDef]) -> list[CardDef]:
    """``count`` basic lands split as the spells' coloured pips are (largest remainders; all of the
    first colour for colourless spells): 905.1d's "any number of basic lands"."""
    pips = dict.fromkeys(COLOURS, 0)
    for card in spells:
        for pip in card.cost.pips:
            if pip in pips:
                pips[pip] += 1
    total = sum(pips.values())
    if count <= 0:
        return []
    if not total:
        return [basics["W"]] * count
    shares = {c: count * n / total for c, n in pips.items() if n}
    counts = {c: int(s) for c, s in shares.items()}
    for c in sorted(shares, key=lambda c: (-(shares[c] - counts[c]), COLOURS.index(c)))[:count - sum(counts.values())]:
        counts[c] += 1
    return [basics[c] for c in COLOURS for _ in range(counts.get(c, 0))]


DRAFTERS: dict[str, type] = {cls.name: cls for cls in (HeuristicDrafter, RandomDrafter)}


def drafter_class(spec: str) -> type:
    """A registered drafter by name, or a class by ``package.module:ClassName`` with ``pick`` and
    ``build`` methods; anything else is a DraftError."""
    if spec in DRAFTERS:
        return DRAFTERS[spec]
    if ":" in spec:
        module_name, _, class_name = spec.partition(":")
        cls = attribute_by_path(spec, "drafter", DraftError)
        if not inspect.isclass(cls) or not all(callable(getattr(cls, m, None)) for m in ("pick", "build")):
            raise DraftError(f"drafter '{spec}': module '{module_name}' has no class '{class_name}' with "
                             "pick(pack, picks) and build(pool, basics) methods")
        return cls
    raise DraftError(f"unknown drafter '{spec}': expected one of {', '.join(DRAFTERS)} or module:Class")


# ---------------------------------------------------------------- the table (the rules)


@dataclass
class Seat:
    """One drafter at the table: its picks in order (round, pick number from 1, card) or its sealed
    pool, and the deck it built (None for a bot's seat)."""

    index: int
    player: bool  # a team player (a bot only drafts)
    picks: list[tuple[int, int, CardDef]] = field(default_factory=list)
    pool: list[CardDef] = field(default_factory=list)
    deck: list[CardDef] | None = None


@dataclass
class Table:
    """A draft or a sealed deal: the seats, team players first, and the mode."""

    mode: str
    cube: Cube
    seats: list[Seat]


def draft(cube: Cube, seats: int, players: int, make_drafter: Callable[[], Any], rng: Random) -> Table:
    """X1: a booster draft of ``seats`` drafters (team players in the first ``players`` seats):
    the cube shuffled from ``rng``, three rounds of one pack of 15 each; every drafter takes one
    card of the pack it holds, then passes the rest, to the next seat (left) in the first and
    third rounds and to the previous one (right) in the second (905.1a-b), until the packs are
    empty. Each team player then builds its deck (905.1d)."""
    _check_size(cube, seats * len(ROUNDS) * PACK_SIZE, f"a draft of {seats} drafters",
                f"{len(ROUNDS)} packs of {PACK_SIZE} each")
    cards = list(cube.cards)
    rng.shuffle(cards)
    drafters = [_drafter(make_drafter, rng) for _ in range(seats)]
    table = Table("draft", cube, [Seat(i, i < players) for i in range(seats)])
    pools: list[list[CardDef]] = [[] for _ in range(seats)]
    for number, direction in enumerate(ROUNDS):
        start = number * seats * PACK_SIZE
        packs = [cards[start + s * PACK_SIZE:start + (s + 1) * PACK_SIZE] for s in range(seats)]
        step = 1 if direction == "left" else -1
        for _ in range(PACK_SIZE):
            for s, drafter, pool in zip(range(seats), drafters, pools, strict=True):
                pack = packs[s]
                index = drafter.pick(tuple(pack), tuple(pool))  # 905.1c: it sees the pack and its picks
                if type(index) is not int or not 0 <= index < len(pack):
                    raise DraftError(f"drafter {type(drafter).__name__}: pick {index!r} is not the index of a "
                                     f"card of the pack (0 to {len(pack) - 1})")
                pool.append(pack.pop(index))
            packs = packs[-step:] + packs[:-step]  # 905.1b: seat s passes to seat s + step (left: s + 1)
        for s in range(players):
            table.seats[s].picks += [(number + 1, pick + 1, card)
                                     for pick, card in enumerate(pools[s][number * PACK_SIZE:])]
    for seat in table.seats:
        seat.pool = pools[seat.index]
        if seat.player:
            seat.deck = build(drafters[seat.index], seat.pool, cube)
    return table


def sealed(cube: Cube, players: int, pool_size: int, make_drafter: Callable[[], Any], rng: Random) -> Table:
    """X1, Horde Sealed: each player is dealt ``pool_size`` cards at random from the cube (the cube
    shuffled from ``rng``, dealt in turn) and builds its deck of at least 40 from them (905.1d)."""
    _check_size(cube, players * pool_size, f"sealed pools for {players} players", f"{pool_size} cards each")
    cards = list(cube.cards)
    rng.shuffle(cards)
    table = Table("sealed", cube, [])
    for i in range(players):
        drafter = _drafter(make_drafter, rng)
        seat = Seat(i, True, pool=cards[i * pool_size:(i + 1) * pool_size])
        seat.deck = build(drafter, seat.pool, cube)
        table.seats.append(seat)
    return table


def _check_size(cube: Cube, need: int, what: str, how: str) -> None:
    if len(cube.cards) < need:
        raise DraftError(f"the cube has {len(cube.cards)} cards: {what} need {need} ({how}, X1)", cube.path)


def check_cube(setup: GameSetup, cube: Cube) -> None:
    """Raise the DraftError a game of ``setup`` would: a cube too small for its packs or pools."""
    if mode_of(setup) == "sealed":
        _check_size(cube, setup.players * pool_size_of(setup), f"sealed pools for {setup.players} players",
                    f"{pool_size_of(setup)} cards each")
    else:
        seats = seats_of(setup)
        _check_size(cube, seats * len(ROUNDS) * PACK_SIZE, f"a draft of {seats} drafters",
                    f"{len(ROUNDS)} packs of {PACK_SIZE} each")


def _drafter(make_drafter: Callable[[], Any], rng: Random) -> Any:
    drafter = make_drafter()
    drafter.rng = rng
    return drafter


def build(drafter: Any, pool: list[CardDef], cube: Cube) -> list[CardDef]:
    """The drafter's deck, checked (905.1d): at least 40 cards, each a card of its pool (no more
    copies than the pool holds) or a basic land."""
    deck = list(drafter.build(tuple(pool), cube.basics))
    name = type(drafter).__name__
    if len(deck) < DECK_SIZE:
        raise DraftError(f"drafter {name} built a deck of {len(deck)} cards: expected at least {DECK_SIZE} (905.1d)")
    left: dict[int, int] = {}
    for card in pool:
        left[id(card)] = left.get(id(card), 0) + 1
    basics = {id(card) for card in cube.basics.values()}
    for card in deck:
        if id(card) in basics:
            continue
        if not left.get(id(card)):
            raise DraftError(f"drafter {name} built a deck with '{getattr(card, 'name', card)}', which is not "
                             "(or no more) in its pool (905.1d)")
        left[id(card)] -= 1
    return deck


def table_for(setup: GameSetup, cube: Cube, make_drafter: Callable[[], Any], rng: Random) -> Table:
    """The draft or sealed deal of a drafted setup (``mode_of``) with the table's stream ``rng``."""
    if mode_of(setup) == "sealed":
        return sealed(cube, setup.players, pool_size_of(setup), make_drafter, rng)
    return draft(cube, seats_of(setup), setup.players, make_drafter, rng)


def team_decks(table: Table) -> tuple[TeamDeck, ...]:
    """The team players' decks of a table, as team decks without a commander."""
    decks = []
    for seat in table.seats:
        if seat.deck is not None:
            colours = "".join(c for c in COLOURS if any(c in card.colours for card in seat.deck)) or "colourless"
            decks.append(TeamDeck(name=f"{table.mode}-{seat.index + 1}", path=table.cube.path, commander=None,
                                  cards=list(seat.deck), style=f"{MADE[table.mode]} {colours}"))
    return tuple(decks)


@dataclass(frozen=True)
class Drafting:
    """How a setup's team decks come for every game (X1): drafted or sealed from its cube by its
    drafters. ``team_decks(rng)`` deals them with a game's ``draft`` stream."""

    setup: GameSetup
    cube: Cube
    new_drafter: Callable[[], Any]

    def table(self, rng: Random) -> Table:
        """The draft or sealed deal of one game."""
        return table_for(self.setup, self.cube, self.new_drafter, rng)

    def team_decks(self, rng: Random) -> tuple[TeamDeck, ...]:
        """The team players' decks of one game."""
        return team_decks(self.table(rng))


def prepare_draft(setup: GameSetup, catalogue: Catalogue) -> Drafting | None:
    """The one call that prepares a setup's draft: None when its team decks are named decks; else
    its cube read and checked for the packs or pools of its players (X1) and its drafter class. A
    HordeError names the knob it is about (``cube`` or ``drafter``)."""
    if mode_of(setup) is None:
        return None
    cube = about_knob("cube", setup.cube, lambda: load_cube(setup.cube, catalogue))
    drafter = about_knob("drafter", setup.drafter, lambda: drafter_class(setup.drafter))
    check_cube(setup, cube)  # X1: enough cards for the packs or pools
    return Drafting(setup, cube, drafter)
