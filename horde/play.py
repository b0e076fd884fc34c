"""Play one seeded game: ``prepare(setup)`` once, then ``play_game(prepared, seed) -> GameResult``.

A setup is prepared once per process (decks, banlist, policy, every check a command makes before
playing); each game starts from it.

The game's random streams are derived from its seed alone, one per purpose, so that changing
the team's side (policy, team decks) never shifts the Horde's shuffle or the boss's dice:
``horde`` (the Horde's library and its H9 choices), ``dice`` (B3, L1-L7), ``team1``..``team4``
(each team deck's shuffles), ``policy`` (the team policy's own choices), ``schemes`` (the
archenemy's scheme deck, A1: a game without schemes never draws from it) and ``draft`` (the
cube's packs and the drafters' choices, for drafted and sealed team decks: X1).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from horde import __version__
from horde.cards import name_key
from horde.cards.catalogue import Catalogue, Origin, decks_dir, setup_catalogue
from horde.cards.decks import (
    HordeDeck,
    TeamDeck,
    banned_cards,
    build_horde_library,
    check_deck_size,
    deck_cards,
    load_banlist,
    load_horde_deck,
    load_team_deck,
    scheme_deck,
)
from horde.engine import boss, opponents, rules, schemes, turns
from horde.engine.cards import CardDef
from horde.engine.decisions import Chooser
from horde.engine.events import log
from horde.engine.shuffling import randbelow
from horde.engine.state import (
    BossState,
    Drivers,
    Game,
    GameAborted,
    GameStats,
    Side,
    TeamPlayer,
    Winner,
    board_units,
    spend,
)
from horde.errors import HordeError, about_knob, did_you_mean
from horde.limits import quoted
from horde.setup import GameSetup, unused_knobs
from horde.team import (
    draft,
    expert,  # noqa: F401 (registers the expert beside the bundled policies)
    skill,
)
from horde.team.policies import TeamView

T = TypeVar("T")
Seed = int | str | tuple[int | str, ...]  # a game's seed: (experiment seed, game index) in a batch


def stream(seed: Seed, name: str) -> random.Random:
    """The random stream ``name`` of the game with this seed (an int, or a tuple such as
    (experiment seed, game index)). Seeding by text is stable across runs and machines."""
    key = "/".join(str(part) for part in (seed if isinstance(seed, tuple) else (seed,)))
    return random.Random(f"horde/{key}/{name}")


@dataclass
class GameResult:
    """One game's record: its seed and setup, who won, and what happened."""

    seed: Seed
    setup: GameSetup
    winner: Winner  # equal to "team", "horde", "stall" or "aborted"
    turns: int
    horde_turns: int
    team_life: int
    team_life_min: int
    horde_cards_left: int
    cards_revealed: int
    longest_token_streak: int
    biggest_horde_turn: int
    revealed: tuple[tuple[str, int], ...]  # (nontoken card, Horde turn) as revealed
    boss: str | None
    boss_uses: dict[str, int]
    lieutenant_entries: int
    lieutenant_defeats: int
    lieutenants_drawn: tuple[str, ...] = ()  # L1: the lieutenants' names in the order drawn (a column, not in record())
    aborted: str = ""  # H15: why the work budget stopped the game (not in record())
    version: str = __version__
    turn_rows: list[tuple[int, int, int, int]] | None = None
    events: list[dict[str, Any]] | None = None

    def record(self) -> dict[str, Any]:
        """A flat dict of the result (what the runner writes, one row per game)."""
        return {
            "seed": str(self.seed), "setup_hash": self.setup.digest(), "version": self.version,
            "winner": self.winner, "turns": self.turns, "horde_turns": self.horde_turns,
            "team_life": self.team_life, "team_life_min": self.team_life_min,
            "horde_cards_left": self.horde_cards_left, "cards_revealed": self.cards_revealed,
            "longest_token_streak": self.longest_token_streak, "biggest_horde_turn": self.biggest_horde_turn,
            "revealed": list(self.revealed), "boss": self.boss, "boss_uses": dict(self.boss_uses),
            "lieutenant_entries": self.lieutenant_entries, "lieutenant_defeats": self.lieutenant_defeats,
        }


@dataclass(frozen=True)
class DeckSlots:
    """How much of a deck is real: its card slots (a card on two lines is two slots) that are
    ``exact`` (hand-written, compiled whole, a token), ``approximated`` (--approximate: some of
    the card's text read, the rest dropped) or ``blank`` (approximated with nothing read: a card
    that plays by its printed facts alone, such as a spell that does nothing)."""

    deck: str  # the deck's name
    role: str  # "Horde", "player 1", ..., "schemes", "cube"
    exact: int
    approximated: int
    blank: int

    @property
    def slots(self) -> int:
        return self.exact + self.approximated + self.blank

    def describe(self) -> str:
        """``zombie-horde (Horde): 100 card slots, 100 exact, 0 approximated, 0 blank``."""
        return (f"{self.deck} ({self.role}): {self.slots} card slots, {self.exact} exact, {self.approximated} "
                f"approximated, {self.blank} blank")

    def record(self) -> dict[str, Any]:
        """A plain dict (JSON, a results folder's manifest, games.parquet's metadata)."""
        return {"deck": self.deck, "role": self.role, "slots": self.slots, "exact": self.exact,
                "approximated": self.approximated, "blank": self.blank}


@dataclass(frozen=True, eq=False)
class Prepared:
    """A setup resolved once, and every check a command makes before playing it done: its card
    catalogue, Horde deck, team decks (one per player), R3 banlist, the bosses B1 draws from, and a
    function making a fresh team policy. Every game of the setup starts from it (``new_game``)."""

    setup: GameSetup
    catalogue: Catalogue
    horde_deck: HordeDeck
    team_decks: tuple[TeamDeck, ...]
    banned: frozenset[str]
    bosses: tuple[CardDef, ...]  # B1: the named boss, or the deck's boss list for 'random'; () for none
    new_policy: Callable[[], Chooser]
    schemes: tuple[CardDef, ...] = ()  # A1: the Horde's scheme deck; () when it is no archenemy
    drafting: draft.Drafting | None = None  # X1: team decks drafted or sealed from a cube, fresh for every game

    @property
    def cube(self) -> draft.Cube | None:
        """The cube drafted and sealed team decks come from (X1), or None."""
        return self.drafting.cube if self.drafting is not None else None

    def decks_for(self, seed: Seed) -> tuple[TeamDeck, ...]:
        """The team decks of the game with this seed: the setup's, or drafted (sealed) from the
        cube with the game's ``draft`` stream (X1)."""
        if self.drafting is None:
            return self.team_decks
        return self.drafting.team_decks(stream(seed, "draft"))

    def origins(self) -> dict[str, Origin]:
        """Where the behaviour of each card the decks may play comes from (a card file, the card
        index and the compiler, or approximated), by card name in order."""
        cards = deck_cards(self.horde_deck, self.team_decks)
        if self.cube is not None:
            cards += list(self.cube.cards)
        return self.catalogue.origins_of(cards)

    def slots(self) -> tuple[DeckSlots, ...]:
        """Per deck (the Horde's, each team player's, a scheme deck of its own, the cube drafted and
        sealed decks come from), how many of its card slots are exact, approximated and blank: a
        number from a half-modelled deck never passes for the group's."""
        def count(name: str, role: str, cards: list[CardDef]) -> DeckSlots:
            kinds = {"exact": 0, "approximated": 0, "blank": 0}
            origins = self.catalogue.origins
            for card in cards:
                origin = origins.get(card.name)
                kinds[origin.slot if origin is not None else "exact"] += 1
            return DeckSlots(name, role, kinds["exact"], kinds["approximated"], kinds["blank"])

        found = [count(self.horde_deck.name, "Horde", deck_cards(self.horde_deck))]
        if self.schemes and not self.horde_deck.schemes:
            found.append(count(self.setup.schemes, "schemes", list(self.schemes)))
        for i, deck in enumerate(self.team_decks):
            found.append(count(deck.name, f"player {i + 1}", deck.cards + deck.commanders))
        if self.cube is not None:
            found.append(count(self.cube.name, "cube", list(self.cube.cards)))
        return tuple(found)

    @property
    def approximated(self) -> dict[str, tuple[str, ...]]:
        """The cards of the decks that play approximated (--approximate), by name in
        order, with the text each drops; empty for an exact setup."""
        return {name: origin.dropped for name, origin in self.origins().items() if origin.kind == "approximated"}


_PREPARED: dict[tuple[GameSetup, int, str], Prepared] = {}


def prepare(setup: GameSetup, catalogue: Catalogue | None = None) -> Prepared:
    """Resolve ``setup`` once per process (the same setup, catalogue and decks folder give the
    same ``Prepared``): load its decks, banlist and policy, and check that its games can be set
    up (a fixed Horde deck large enough, a named boss in the deck's list). Raises HordeError (a
    DeckError, PolicyError, ...); one about a knob's value names it in ``error.knob`` and
    ``error.value``. ``clear_prepared`` forgets every prepared setup."""
    if catalogue is None:  # the setup's card files, the card index, --approximate
        catalogue = about_knob("cards", setup.cards, lambda: setup_catalogue(setup))
    key = (setup, id(catalogue), str(decks_dir()))
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = _prepare(setup, catalogue)
    return prepared


def clear_prepared() -> None:
    """Forget every prepared setup (after deck or card files changed on disk)."""
    _PREPARED.clear()


def _prepare(setup: GameSetup, catalogue: Catalogue) -> Prepared:
    horde_deck = about_knob("horde_deck", setup.horde_deck, lambda: load_horde_deck(setup.horde_deck, catalogue))
    team_decks: list[TeamDeck] = []
    drafting = draft.prepare_draft(setup, catalogue)  # X1: the decks are drafted for every game
    cube = drafting.cube if drafting is not None else None
    if drafting is None:
        for name in setup.team_decks[:setup.players]:
            team_decks.append(about_knob("team_decks", name,
                                     partial(load_team_deck, name, catalogue, setup.allow_illegal)))
    banlist = about_knob("banlist", setup.banlist, lambda: load_banlist(setup.banlist))
    # R3, names matched in any case: the cards of the team's decks, or of the cube they are drafted from
    banned = frozenset(c.name for c in cube.cards if name_key(c.name) in banlist) if cube is not None else \
        banned_cards(banlist, team_decks)
    new_policy = about_knob("skill" if setup.skill else "policy", setup.skill or setup.policy,
                            lambda: skill.policy_for(setup))
    for knob, why in unused_knobs(setup, horde_deck.build, horde_deck.path).items():
        error = HordeError(f"knob '{knob}' = {getattr(setup, knob)!r} is not used by this setup: {why}; leave it "
                           "out")
        error.knob, error.value = knob, getattr(setup, knob)
        raise error
    check_deck_size(horde_deck, setup)  # H3
    bosses: tuple[CardDef, ...] = ()
    if setup.boss != "none" and horde_deck.bosses:
        if setup.boss == "random":
            bosses = tuple(horde_deck.bosses)
        else:
            # B1: a boss named whatever its case; the list joined by ';', as boss names hold commas
            names = [c.name for c in horde_deck.bosses]
            named = {n.casefold(): n for n in names}.get(setup.boss.casefold())
            if named is None:
                raise HordeError(f"boss {quoted(setup.boss)} is not in the boss list of the Horde deck "
                                 f"{setup.horde_deck}: {did_you_mean(setup.boss, names)}its bosses are "
                                 f"{'; '.join(names)}; or random, or none")
            bosses = tuple(c for c in horde_deck.bosses if c.name == named)[:1]
    elif setup.boss not in ("none", "random"):
        raise HordeError(f"boss {quoted(setup.boss)}: the Horde deck {setup.horde_deck} has no boss list")
    scheme_cards = about_knob("schemes", setup.schemes, lambda: scheme_deck(setup, horde_deck, catalogue))  # A1
    return Prepared(setup, catalogue, horde_deck, tuple(team_decks), banned, bosses, new_policy, tuple(scheme_cards),
                    drafting)


def new_game(prepared: Prepared, seed: Seed, policy: Chooser | None = None, trace: bool = False) -> Game:
    """Set up a game of a prepared setup: decks built and shuffled, boss and lieutenants drawn,
    hands not yet drawn. ``policy`` overrides the setup's (a fresh one is made for every game)."""
    setup = prepared.setup
    if policy is None:
        policy = prepared.new_policy()
    policy.rng = stream(seed, "policy")
    drivers = Drivers(policy, GameStats(team_life_min=setup.start_life), [] if trace else None)
    game = Game(setup, prepared.catalogue.tokens, stream(seed, "horde"), stream(seed, "dice"), drivers)
    drivers.view = TeamView(game)
    for i, deck in enumerate(prepared.decks_for(seed)):
        player = TeamPlayer(i, deck.name, deck.commander, stream(seed, f"team{i + 1}"))
        player.library = list(deck.cards)
        if deck.partner is not None:  # 702.124: two commanders start in the command zone
            player.command.append(deck.partner)
            player.identity = player.identity | deck.partner.identity  # 903.4
        player.deck_size = len(deck.cards) + len(deck.commanders)
        player.generic_mana = deck.generic_mana
        player.banned = prepared.banned
        game.players.append(player)
    horde_deck = prepared.horde_deck
    game.horde.library = build_horde_library(horde_deck, setup, game.horde_rng)
    game.horde.deck_size = len(game.horde.library)
    if setup.life == "individual":
        rules.zombies.start_lives(game)  # Z: a life total for each player
    if prepared.schemes:
        schemes.setup(game, list(prepared.schemes), stream(seed, "schemes"))  # A1, 904.4: its own stream
    if setup.horde_choices == "smart":
        drivers.horde_choice = rules.smart_choice  # H9s
    opponents.procedure(setup).setup(game)  # F1, G1: what starts on the battlefield
    bosses = prepared.bosses
    if bosses:
        # B1: a random one of the list, or the one named
        game.boss = BossState(bosses[randbelow(game.dice_rng, len(bosses))] if setup.boss == "random" else bosses[0])
    if setup.lieutenants and horde_deck.lieutenants:
        game.lieutenants = boss.draw_lieutenants(game, horde_deck.lieutenants, horde_deck.equipment)
        if game.lieutenants is not None:  # the rules reach the lieutenants' rules through these
            drivers.lieutenant_leaves = boss.lieutenant_leaves  # L6
            drivers.creature_damaged_player = boss.creature_damaged_player  # L7
    return game


horde_turn_now = opponents.horde_turn_now  # H2


def play(game: Game, record_turns: bool = False) -> str:
    """Play a set-up game to its end (H12, H13), to the stall guard (H14) or to the work budget
    (H15); returns why the budget stopped it ("" when it did not)."""
    rows: list[tuple[int, int, int, int]] | None = [] if record_turns else None
    game.drivers.turn_rows = rows
    try:
        _play(game, rows)
    except (GameAborted, RecursionError) as stop:
        # H15: the game ran away (its cards create, trigger or ask without end): it is aborted,
        # counted apart from wins, losses and stalls.
        game.winner = Winner.ABORTED
        if game.drivers.trace is not None:
            log(game, "game_over", Side.HORDE, winner=game.winner, team_life=game.team_life,
                horde_library=len(game.horde.library))
        return stop.reason if isinstance(stop, GameAborted) else "triggered abilities nested too deep"
    return ""


def _play(game: Game, rows: list[tuple[int, int, int, int]] | None) -> None:
    setup = game.setup
    drivers = game.drivers
    turns.opening_hands(game)
    if drivers.check is not None:
        drivers.check(game)
    stats = drivers.stats
    procedure = opponents.procedure(setup)
    start = getattr(drivers.policy, "start", None)  # a look-ahead policy keeps a copy of each turn's start
    turn = partial(opponents.play_turn, procedure=procedure)
    while not game.over():
        if start is not None:
            start(drivers.view, turn)
        spend(game, 1 + board_units(game))  # H15: a turn looks at every permanent
        if not turn(game):
            break  # H14
        if game.team_life < stats.team_life_min:
            stats.team_life_min = game.team_life
        if rows is not None:
            rows.append((game.turn, game.team_life, rules.horde_power(game), len(game.horde.library)))
        if drivers.check is not None:
            drivers.check(game)
    if drivers.trace is not None:
        log(game, "game_over", Side.TEAM if game.winner == Winner.TEAM else Side.HORDE, winner=game.winner,
            team_life=game.team_life, horde_library=len(game.horde.library))


def result_of(game: Game, seed: Seed, aborted: str = "") -> GameResult:
    """The record of a game played to its end (``aborted``: why H15 stopped it)."""
    stats = game.drivers.stats
    if game.winner is None:
        raise ValueError("the game is not over")
    return GameResult(
        seed=seed, setup=game.setup, winner=game.winner, turns=game.turn, horde_turns=game.horde_turns,
        team_life=game.team_life, team_life_min=min(stats.team_life_min, game.team_life),
        horde_cards_left=len(game.horde.library), cards_revealed=stats.cards_revealed,
        longest_token_streak=stats.longest_streak, biggest_horde_turn=stats.biggest_turn,
        revealed=tuple(stats.revealed), boss=game.boss.card.name if game.boss else None,
        boss_uses=dict(stats.boss_uses), lieutenant_entries=stats.lieutenant_entries,
        lieutenant_defeats=stats.lieutenant_defeats,
        lieutenants_drawn=tuple(lt.card.name for lt in game.lieutenants.drawn) if game.lieutenants else (),
        aborted=aborted, turn_rows=game.drivers.turn_rows, events=game.drivers.trace)


class ShowHands:
    """Passes every team decision to the policy and records it in the trace (event ``decision``),
    with each team player's hand and mana as the decision is taken: what a reader of the game
    needs to judge each choice. It changes nothing of the game: the policy decides as it would."""

    def __init__(self, policy: Chooser, trace: list[dict[str, Any]]):
        self.policy = policy
        self.trace = trace
        start = getattr(policy, "start", None)
        if callable(start):
            self.start = start  # a searching policy keeps a copy of each turn's start
        note = getattr(policy, "note", None)
        if callable(note):
            self.note = note

    @property
    def rng(self) -> random.Random:
        return self.policy.rng

    @rng.setter
    def rng(self, stream: random.Random) -> None:
        self.policy.rng = stream

    def choose(self, decision: Any, view: TeamView) -> Any:
        choice = self.policy.choose(decision, view)
        hands = []
        for i in range(view.players):
            cards = ", ".join(card.name for card in view.hand(i)) or "no card"
            hands.append(f"player {i + 1} ({view.available_mana(i)} of {view.mana(i)} mana open): {cards}")
        self.trace.append({"turn": view.turn, "side": Side.TEAM, "event": "decision", "kind": decision.kind,
                           "player": decision.player + 1 if decision.player >= 0 else None,
                           "answer": answer_words(decision.kind, choice), "hands": hands})
        return choice


def answer_words(kind: str, choice: Any) -> str:
    """A team decision's answer as a reader says it: card and permanent names, 'nothing' for none."""
    if choice is None or choice == []:
        return "nothing"
    if isinstance(choice, bool):
        return "yes" if choice else "no"
    if isinstance(choice, int):
        if kind == "kick":
            return "not kicked" if choice == 0 else f"kicked {choice} time{'s' if choice > 1 else ''}"
        return f"player {choice + 1}"
    if isinstance(choice, str):
        return "the Horde" if choice == "horde" else choice
    if isinstance(choice, CardDef):
        return choice.name
    if hasattr(choice, "card") and hasattr(choice, "controller"):
        return str(choice.card.name)  # a permanent
    if isinstance(choice, list):
        return "; ".join(answer_words(kind, item) for item in choice)
    if isinstance(choice, tuple):
        if kind == "blocks":
            return f"{answer_words(kind, choice[0])} blocks {answer_words(kind, choice[1])}"
        if kind == "equip":
            return f"{answer_words(kind, choice[0])} onto {answer_words(kind, choice[1])}"
        if kind in ("mode", "regenerate"):
            return " ; ".join(e.describe() for e in choice)
        named = [answer_words(kind, item) for item in choice if isinstance(item, CardDef) or hasattr(item, "card")]
        return " ".join(named) or str(choice)
    return str(choice)


def play_game(setup: GameSetup | Prepared, seed: Seed, *, catalogue: Catalogue | None = None,
              policy: Chooser | None = None, trace: bool = False, record_turns: bool = False,
              check: Callable[[Game], None] | None = None, hands: bool = False) -> GameResult:
    """Play one game of ``setup`` with ``seed``; the same arguments always give the same game.

    ``setup`` is a GameSetup (prepared once per process, with ``catalogue`` or the default one)
    or a Prepared; ``policy`` (a policy object) overrides ``setup.policy``; ``trace`` keeps every
    event; ``record_turns`` keeps one row per turn; ``check(game)`` is called after every step
    (tests); ``hands`` (with ``trace``) records every team decision with the hands (``ShowHands``).
    """
    prepared = setup if isinstance(setup, Prepared) else prepare(setup, catalogue)
    game = new_game(prepared, seed, policy, trace)
    if hands and game.drivers.trace is not None:
        game.drivers.policy = ShowHands(game.drivers.policy, game.drivers.trace)
    game.drivers.check = check
    aborted = play(game, record_turns)
    return result_of(game, seed, aborted)
