"""A game at a real table: the engine plays the Horde's side with its own rules, people play the
team's side and tell the engine what happens on it.

A table game is event-sourced. Its record is the setup, the seed and the list of ``actions`` the
players entered (what they did, and their answers to what the engine asked); its state is a fresh
game of the engine (``horde.play.new_game``) with that list replayed (``Table``). The engine runs
its own turn functions (``horde.engine.opponents.play_turn``): the Horde's turns as in a
simulation; the team's turn as its untap, upkeep and end step, with what the players entered in
between. Wherever the engine needs what only the players know, the replay meets the next action in
the list; past the end of the list it stops with ``Waiting`` and the question the page shows. So a
replay is deterministic (the same reveals and rolls: the game's streams come from its seed alone),
a reloaded page, a restarted server or an undo (one action fewer) give exactly the same game, and an
action is checked by replaying the list with it before it is kept.

What the engine knows of the team: its life (and poison), the players' count, and what the players
enter. Their cards are not known: each library and hand holds unknown cards (so a Horde effect that
makes them draw or discard only tells them to), and the team's permanents appear only as generic
stand-ins that the players describe when a rule needs them (``horde.engine.state.TeamSide``): the
creatures they block with or attack with (power, toughness, a few keywords), how many permanents
each player has that a Horde effect could target (the Horde then picks among those and its own,
H9; a stand-in it picks is named, not changed: the players carry the effect out; a smart Horde
asks whose is the most valuable, H9s), the permanents they sacrifice to a Horde effect (who has
one), creatures of theirs that died (so the Horde's "whenever a creature dies" abilities trigger),
and their planeswalkers (which stay, with their loyalty, for the Horde to attack: H8). The team's
part of a count a Horde card reads (Mortivore's creature cards in all graveyards) is asked too:
when an effect resolves, each time; for a characteristic (a power and toughness), once, then the
number the players keep up to date on the page. Stand-ins enter and leave without triggering
anything; all but planeswalkers leave after the step they were made for. The players may say they
hold a counterspell (then each Horde spell asks whether they counter it, H10) or a way to prevent
damage (then each non-combat damage the Horde would deal them asks how much they prevent); the
Hydra's bite waits for them (instants, a fog: F2).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from horde import __version__
from horde.engine import opponents, rules, turns
from horde.engine.cards import CardDef, ManaCost
from horde.engine.decisions import KINDS, Decision
from horde.engine.events import log
from horde.engine.filters import COLOUR_TERMS, SUBTYPE_TERMS, TYPE_TERMS, Condition, Context, Filter, evaluate
from horde.engine.opponents import hydra
from horde.engine.state import (
    HORDE_CONTROLLER,
    Game,
    GameAborted,
    Permanent,
    Side,
    Winner,
    board_units,
    spend,
)
from horde.errors import HordeError
from horde.play import Prepared, new_game, prepare, result_of
from horde.setup import GameSetup, setup_from_dict

UNKNOWN = CardDef("a card", ManaCost(), frozenset())  # a card in a team player's library or hand
TEAM_LIBRARY = 250  # unknown cards in each team player's library: its draws are its players' own
STAND_IN_IDS = 1_000_000  # stand-ins that are never on the battlefield (targets) count up from here

# What the players enter on their side: in their turn, and at the Horde's windows (``INSTANT``).
INSTANT = ("damage_horde", "destroy", "exile", "bounce", "tap", "damage", "lose_life", "gain_life", "died",
           "loyalty", "counts", "hold")
TEAM_TURN = INSTANT + ("attack", "planeswalker", "end_turn", "end_game")
# The answers to the engine's questions (each question names the one it takes: ``Question.answer``).
ANSWERS = ("answer", "targets", "blocks", "bite", "count", "sacrifice", "counter", "prevent", "pick")
KEYWORDS = ("flying", "reach", "first strike", "deathtouch", "trample", "menace", "lifelink")
# Subtypes only the challenge decks' own cards have (F: the Hydra's Heads, G: Xenagos's Revelers): a
# count or a target of them is never the team's.
THEIRS_ONLY = frozenset({"head", "reveler"})
# Team decisions the players answer (the others are over the team's unknown cards: the players
# carry them out themselves, and the engine takes the neutral option).
ASKED = {"redirect", "horde_choice", "self_or_others", "burn", "must_block", "abandon_scheme", "keep", "tap", "exile",
         "exile_graveyard"}


class TableError(HordeError):
    """An action the game can't take: said in words for the players, and nothing changed."""


class ReplayError(HordeError):
    """A record whose actions don't replay on this version of horde."""


@dataclass
class Question:
    """What the page asks the players now. ``kind``: "turn" (the team's turn: what happened on
    its side, then end it), "blocks" (the Horde attacks: the team's blockers), "bite" (the Hydra's
    Heads are about to bite, ``amount`` to each player), "numbers" (a number for each of
    ``fields``, each a label and the most it may be: how many permanents a Horde effect could
    target, a count of the team's cards, damage prevented), "who" (a tick for each of ``fields``:
    who sacrifices) or "choice" (one of ``options``, or several with ``selection``). ``answer``:
    the action that answers it. ``window``: group actions may be entered now too."""

    kind: str
    text: str
    answer: str = "answer"
    card: str | None = None
    card_text: str = ""
    options: list[str] = field(default_factory=list)
    selection: bool = False
    fields: list[tuple[str, int]] = field(default_factory=list)
    attackers: list[dict[str, Any]] = field(default_factory=list)
    amount: int = 0
    window: bool = False
    default: int = 0  # the option ticked at first (a choice that may be declined: declining)


class Waiting(Exception):
    """The replay reached the end of the actions where the engine needs the players."""

    def __init__(self, question: Question):
        super().__init__(question.text)
        self.question = question


def new_record(setup: GameSetup, seed: int, group: str = "", season: str = "") -> dict[str, Any]:
    """A new table game's record (``prepare`` checks the setup first: a HordeError for a bad one)."""
    prepare(setup)
    return {"version": __version__, "setup": setup.to_dict(), "seed": seed, "actions": [], "revision": 0,
            "status": "playing", "created": time.strftime("%Y-%m-%d %H:%M:%S"), "finished": None,
            "group": group, "season": season}


def setup_of(record: dict[str, Any]) -> GameSetup:
    return setup_from_dict(dict(record["setup"]), where="table game")


def _stand_in(name: str, power: int = 0, toughness: int = 0, keywords: frozenset[str] = frozenset(),
              types: frozenset[str] = frozenset({"Creature"}), subtypes: frozenset[str] = frozenset(),
              loyalty: int | None = None) -> CardDef:
    return CardDef(name, ManaCost(), types, subtypes=subtypes, power=power, toughness=toughness, keywords=keywords,
                   loyalty=loyalty)


def words(text: str) -> str:
    """A filter as the players read it: "creature nonzombie opponents" -> "non-Zombie creature"."""
    front: list[str] = []
    back: list[str] = []
    for word in text.replace("|", " or ").split():
        low = word.lower()
        if low in ("yours", "opponents", "theirs", "other", "any", "player", "opponent", "card"):
            continue
        negated = low.startswith("non") and low[3:] in SUBTYPE_TERMS | set(TYPE_TERMS) | set(COLOUR_TERMS)
        stem = low[3:] if negated else low
        shown = stem.capitalize() if stem in SUBTYPE_TERMS else stem
        shown = f"non-{shown}" if negated else shown
        (back if stem in TYPE_TERMS or stem in ("permanent", "or") else front).append(shown)
    return " ".join(front + back)


def count_words(kind: str, text: str, players: list[int], asking: bool = False) -> str:
    """What a count of the team's cards counts, in words: "creature cards in each of your
    graveyards"; ``asking``: as a question, "how many creature cards are in each of your graveyards?"."""
    what = words(text)
    one = f"player {players[0] + 1}" if len(players) == 1 else ""
    if kind == "count":
        things = f"{what or 'permanent'}s"
        if asking:
            return f"how many {things} does {one or 'each of you'} control?"
        return f"{things} {one or 'each of you'} control{'s' if one else ''}"
    zone = "graveyard" if kind == "graveyard" else "hand"
    where = f"{one}'s {zone}" if one else f"each of your {zone}s"
    things = f"{what + ' ' if what else ''}cards"
    return f"how many {things} are in {where}?" if asking else f"{things} in {where}"


def _count(value: Any, what: str, low: int = 0, high: int = 10_000) -> int:
    """A whole number the players entered, within bounds, else a TableError saying what was expected."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TableError(f"{what}: expected a whole number")
    text = str(value).strip()
    if not text.lstrip("-").isdigit():
        raise TableError(f"{what}: expected a whole number, got {text!r}")
    n = int(text)
    if n < low:
        raise TableError(f"{what}: {n} is negative: enter {low} or more" if n < 0 else
                         f"{what}: expected at least {low}, got {n}")
    if n > high:
        raise TableError(f"{what}: expected at most {high}, got {n}")
    return n


def option_words(option: Any) -> str:
    """One option of a decision in words."""
    if option is None:
        return "none"
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, Permanent):
        return f"{option.card.name} (#{option.id})"
    if isinstance(option, int):
        return f"player {option + 1}"
    if option == "horde":
        return "the Horde"
    if isinstance(option, CardDef):
        return option.name
    if isinstance(option, tuple) and option and hasattr(option[0], "describe"):
        return " ; ".join(e.describe() for e in option)
    if isinstance(option, tuple | list):
        return ", ".join(option_words(o) for o in option)
    return str(option)


class Table:
    """A table game replayed from its record: ``game`` (the engine's state), ``question`` (what the
    players are asked now; None when the game is over), ``prepared``, ``record``. Raises
    TableError when the last action can't be taken (the message says why), ReplayError when an
    earlier one no longer replays."""

    def __init__(self, record: dict[str, Any]):
        self.record = record
        self.setup = setup_of(record)
        self.prepared: Prepared = prepare(self.setup)
        self.actions: list[dict[str, Any]] = list(record["actions"])
        self.at = 0  # the next action to replay
        # What this replay asked, kept for the effect that asked (the effect's objects are kept
        # with the answer, so no other object takes their id while the answer is kept).
        self.asked: dict[tuple[int, int], tuple[Any, Any, list[Permanent]]] = {}
        self.counted: dict[tuple[int, str], tuple[Any, list[int]]] = {}
        self.standing: dict[str, list[int]] = {}  # a characteristic's count -> each player's part, as last given
        self.standing_cards: dict[str, str] = {}  # such a count -> the card that reads it
        self.bounding = False  # the team's counts taken as 0 (``decided``)
        self.hold = {"counter": False, "prevent": False}  # what the players said they hold
        self.quiet_turn = -1  # the turn in which the players asked to hear no more of counterspells
        self.block_pairs: list[tuple[Permanent, Permanent]] = []
        self.fog = False
        self.attacking: list[Permanent] = []
        self.stand_ins = 0
        self.made: list[CardDef] = []  # every stand-in's card (taken out of the team's zones after each step)
        self.question: Question | None = None
        self.aborted = ""
        self.notes: list[tuple[int, str]] = []  # (event index, words) the page shows among the events
        self.replaying = True
        self.game = self._replay()
        self.replaying = False

    # ------------------------------------------------------------ the replay

    def _replay(self) -> Game:
        game = new_game(self.prepared, self.record["seed"], policy=_Players(self), trace=True)
        for player in game.players:
            player.library = [UNKNOWN] * TEAM_LIBRARY
            player.hand = []
            player.deck_size = TEAM_LIBRARY
        game.drivers.team_side = self
        game.drivers.check = self._after_step
        procedure = opponents.procedure(self.setup)
        stats = game.drivers.stats
        try:
            while not game.over():
                spend(game, 1 + board_units(game))  # H15
                if not opponents.play_turn(game, procedure, team_turn=self._team_turn):
                    break  # H14
                stats.team_life_min = min(stats.team_life_min, game.team_life)
        except Waiting as waiting:
            self.question = waiting.question
            if self.at < len(self.actions):
                raise ReplayError(f"action {self.at + 1} of {len(self.actions)} ({self.actions[self.at]['kind']}) "
                                  f"was entered where the game asks: {waiting.question.text}") from None
            return game
        except GameAborted as stop:
            game.winner = Winner.ABORTED
            self.aborted = stop.reason
        if self.at < len(self.actions):
            raise TableError("the game is over: nothing more can be entered")
        log(game, "game_over", Side.TEAM if game.winner == Winner.TEAM else Side.HORDE, winner=game.winner,
            team_life=game.team_life, horde_library=len(game.horde.library))
        return game

    def _peek(self) -> dict[str, Any] | None:
        return self.actions[self.at] if self.at < len(self.actions) else None

    def _take(self, kinds: tuple[str, ...], question: Question) -> dict[str, Any]:
        """The next action, which must be one of ``kinds``; at the end of the list, Waiting."""
        action = self._peek()
        if action is None:
            raise Waiting(question)
        if action["kind"] not in kinds:
            if self.at == len(self.actions) - 1:
                raise TableError(f"not now: {question.text}")
            raise ReplayError(f"action {self.at + 1} ({action['kind']}) does not answer: {question.text}")
        self.at += 1
        return action

    @property
    def last(self) -> bool:
        """Whether the action being replayed is the one just entered (its errors are the players')."""
        return self.at == len(self.actions)

    def _players(self, game: Game) -> list[int]:
        return [pl.index for pl in game.players if not pl.removed]  # Z4: a removed player is gone

    def _numbers(self, question: Question) -> list[int]:
        """The answer to a "numbers" or "who" question: a number for each field, within its bounds."""
        action = self._take((question.answer,), question)
        counts = list(action.get("counts", ()))
        if len(counts) != len(question.fields):
            raise TableError(f"expected {len(question.fields)} numbers: "
                             + ", ".join(label for label, _ in question.fields))
        return [_count(n, label, 0, most) for n, (label, most) in zip(counts, question.fields, strict=True)]

    def _choice(self, question: Question) -> int:
        action = self._take((question.answer,), question)
        return _count(action.get("choice"), "choice", 0, len(question.options) - 1)

    @staticmethod
    def _card(ctx: Any) -> CardDef | None:
        card = getattr(ctx, "card", None)
        return card if isinstance(card, CardDef) else None

    def _ask(self, kind: str, text: str, card: CardDef | None, **more: Any) -> Question:
        return Question(kind, f"{card.name}: {text}" if card is not None else text[0].upper() + text[1:],
                        card=card.name if card else None, card_text=card.text if card else "", **more)

    # ------------------------------------------------------------ the team's turn

    def _team_turn(self, game: Game) -> None:
        """The team's turn at the table: untap and upkeep (the Horde's upkeep abilities trigger),
        what the players enter, the end step (H4's counterpart for the team, H1)."""
        turns.run_steps(game, (turns.team_beginning, self._players_act, turns.end_step))

    def _players_act(self, game: Game) -> None:
        question = Question("turn", "Your turn: enter what happens to the Horde, then end the turn", answer="",
                            window=True)
        while not game.over():
            action = self._take(TEAM_TURN, question)
            if action["kind"] == "end_turn":
                return
            self.apply(game, action)
            rules.check_state(game)

    # ------------------------------------------------------------ what the engine asks (TeamSide)

    def respond(self, game: Game, window: str) -> None:
        """What the players do in a window of the Horde's turn: at instant speed once its attackers
        are declared (the actions entered at the blocks question) and before the Hydra's Heads bite
        (then the bite's question: a fog?); once blocks are, the fog they said (all combat damage
        prevented)."""
        if window == "fog":
            if self.fog:
                rules.prevent_combat_damage(game)
            self.fog = False
            return
        while not game.over():
            action = self._peek()
            if action is None or action["kind"] not in INSTANT:
                break
            self.at += 1
            self.apply(game, action)
            rules.check_state(game)
        if window == "bite" and not game.over():
            biting = [p for p in hydra.heads(game) if not p.tapped]
            amount = sum(2 if "Elite" in p.card.supertypes else 1 for p in biting)
            if amount:
                question = Question("bite", f"The Hydra's {len(biting)} untapped Heads bite: {amount} damage to each "
                                    "of you (F2). Act first at instant speed (tap or destroy a Head), or take it",
                                    answer="bite", amount=amount, window=True)
                self.fog = bool(self._take(("bite",), question).get("fog"))

    def blockers(self, game: Game, attackers: list[Permanent]) -> None:
        """H8: the players' blockers, each a stand-in with the power, toughness and keywords they
        give, blocking the attacker they name; the engine checks the blocks (flying, menace, L5)."""
        self.block_pairs = []
        if not attackers:
            return
        question = Question("blocks", "The Horde attacks: block, act at instant speed, or take the damage",
                            answer="blocks", attackers=[self._attacker(game, a) for a in attackers], window=True)
        action = self._take(("blocks",), question)
        by_id = {a.id: a for a in attackers}
        self.fog = bool(action.get("fog"))
        for n, block in enumerate(action.get("blocks", ()), 1):
            attacker = by_id.get(block.get("attacker"))
            if attacker is None:
                raise TableError(f"blocker {n}: no attacking Horde creature #{block.get('attacker')}")
            player = _count(block.get("player", 1), f"blocker {n}: player", 1, len(game.players)) - 1
            power = _count(block.get("power", 0), f"blocker {n}: power", 0, 999)
            toughness = _count(block.get("toughness", 1), f"blocker {n}: toughness", 1, 999)
            words_ = frozenset(k for k in block.get("keywords", ()) if k in KEYWORDS)
            card = self._made(_stand_in(f"player {player + 1}'s {power}/{toughness} blocker", power, toughness, words_))
            blocker = rules.put_onto_battlefield(game, card, player, player, triggers=False)
            blocker.sick = False
            self.block_pairs.append((blocker, attacker))

    def targets(self, game: Game, ctx: Context, flt: Filter, harm: bool, known: list[Any]) -> list[Permanent]:
        """H9: the permanents of each player that a Horde effect could target, as the players count
        them: stand-ins the Horde picks among with its own (never on the battlefield: the players
        carry out what the effect does to the one picked). A smart Horde (H9s) aims a harmful effect
        at the team's most valuable: the players say whose it is; a helpful one at its own."""
        key = (id(ctx), id(flt))
        if key in self.asked:
            return self.asked[key][2]
        if _theirs_only(flt.text):
            return []
        card = self._card(ctx)
        what = words(flt.text) or "permanent"
        players = self._players(game)
        seen = (" (not the planeswalkers entered on this page: the Horde sees those)"
                if any(not w.is_horde for w in game.battlefield.planeswalkers) else "")
        stand_ins: list[Permanent] = []
        if game.drivers.horde_choice is rules.smart_choice:  # H9s
            if harm or not any(isinstance(o, Permanent) and o.controller == HORDE_CONTROLLER for o in known):
                which = "most" if harm else "least"
                options = [f"player {i + 1}" for i in players] + ["none of us has one it could target"]
                question = self._ask("choice", f"it targets a {what}: the smart Horde takes your {which} valuable one "
                                     "it could target (nontoken before token, then power plus toughness, then mana "
                                     f"value; not hexproof, shroud or protected from it){seen}: whose is it?", card,
                                     answer="pick", options=options)
                k = self._choice(question)
                if k < len(players):
                    stand_ins.append(self._target(players[k], f"player {players[k] + 1}'s {which} valuable {what}"))
        else:
            question = self._ask("numbers", f"it targets a {what}: how many could it target on your side (not "
                                 f"hexproof, shroud or protected from it){seen}?", card, answer="targets",
                                 fields=[(f"Player {i + 1}", 200) for i in players])
            for player, n in zip(players, self._numbers(question), strict=True):
                for i in range(n):
                    stand_ins.append(self._target(player, f"player {player + 1}'s {what} #{i + 1} of {n}"))
        self.asked[key] = (ctx, flt, stand_ins)
        return stand_ins

    def _target(self, player: int, name: str) -> Permanent:
        self.stand_ins += 1
        return Permanent(STAND_IN_IDS + self.stand_ins, _stand_in(name), player, player)

    def counts(self, game: Game, ctx: Any, kind: str, text: str, players: list[int]) -> list[int]:
        """The team's part of a count a Horde card reads, a number for each player: asked each time
        an effect resolves; for a characteristic (``ctx`` a permanent: Mortivore's power and
        toughness), asked once and then the number the players keep up to date on the page."""
        if self.bounding or kind == "count" and _theirs_only(text):
            return [0] * len(players)
        key = f"{kind}|{text}|{','.join(str(p + 1) for p in players)}"
        card = self._card(ctx)
        if isinstance(ctx, Permanent):
            known = self.standing.get(key)
            if known is not None:
                return known
            if not self.replaying:
                return [0] * len(players)  # the page's view of a count not asked yet
            values = self._ask_counts(card, kind, text, players, " (the page keeps this number: change it there "
                                      "when it changes)")
            self.standing[key] = values
            self.standing_cards[key] = card.name if card else ""
            return values
        if ctx is not None:
            cached = self.counted.get((id(ctx), key))
            if cached is not None:
                return cached[1]
        if not self.replaying:
            return [0] * len(players)
        values = self._ask_counts(card, kind, text, players, "")
        if ctx is not None:
            self.counted[(id(ctx), key)] = (ctx, values)
        return values

    def _ask_counts(self, card: CardDef | None, kind: str, text: str, players: list[int], note: str) -> list[int]:
        question = self._ask("numbers", f"it counts your cards: {count_words(kind, text, players, True)}{note}", card,
                             answer="count",
                             fields=[(f"Player {i + 1}", 999) for i in players])
        return self._numbers(question)

    def decided(self, game: Game, ctx: Any, condition: Condition) -> bool | None:
        """A condition of a Horde effect settled by the Horde's part of its count (the team's can
        only add to it): Call to the Grave's "if no creatures are on the battlefield" asks nobody
        while the Horde has one."""
        self.bounding = True
        try:
            assert condition.amount is not None
            low = evaluate(game, ctx, condition.amount)
        finally:
            self.bounding = False
        return condition.at_least(low)

    def sacrifice(self, game: Game, ctx: Any, flt: Filter, players: list[int], n: int | None,
                  may: bool = False) -> list[int]:
        """How many permanents matching ``flt`` each of ``players`` sacrifices (``n`` each, None:
        all but those the card keeps; ``may``: a player chooses whether), as the players say: each
        is a stand-in put onto the battlefield and sacrificed, so the Horde's abilities see it die."""
        named = players
        players = [p for p in players if not game.players[p].removed]
        if not players or n == 0:
            return [0] * len(named)
        card = self._card(ctx)
        what = words(flt.text) or "permanent"
        who = "each of you" if len(players) > 1 else f"player {players[0] + 1}"
        labels = [f"Player {i + 1}" for i in players]
        if may:
            question = self._ask("who", f"{who} may sacrifice a {what} (the card says what happens to one who "
                                 "doesn't): who does?", card, answer="sacrifice", fields=[(k, 1) for k in labels])
        elif n == 1:
            question = self._ask("who", f"{who} sacrifices a {what}: who has one?", card, answer="sacrifice",
                                 fields=[(k, 1) for k in labels])
        elif n is None:
            each = "does each of you" if len(players) > 1 else "do they"
            question = self._ask("numbers", f"{who} sacrifices {what}s, keeping what the card says: how many {each} "
                                 "sacrifice?", card, answer="sacrifice", fields=[(k, 200) for k in labels])
        else:
            each = "does each of you" if len(players) > 1 else "do they"
            question = self._ask("numbers", f"{who} sacrifices {n} {what}s: how many {each} have to sacrifice (at "
                                 f"most {n})?", card, answer="sacrifice", fields=[(k, n) for k in labels])
        counts = self._numbers(question)
        types = frozenset(TYPE_TERMS[w] for w in flt.text.lower().split() if w in TYPE_TERMS)
        subtypes = frozenset(w.capitalize() for w in flt.text.lower().split() if w in SUBTYPE_TERMS)
        for player, k in zip(players, counts, strict=True):
            self._note(game, f"Player {player + 1} sacrifices {k} {what}{'s' if k > 1 else ''}" if k else
                       f"Player {player + 1} sacrifices no {what}")
            for _ in range(k):
                stand_in = self._made(_stand_in(f"player {player + 1}'s {what}", types=types or frozenset({"Creature"})
                                                if "permanent" not in flt.text.lower().split() else types,
                                                subtypes=subtypes))
                p = rules.put_onto_battlefield(game, stand_in, player, player, triggers=False)
                rules.sacrifice(game, p, HORDE_CONTROLLER if ctx is None else ctx.controller)  # L6: the effect forced it
        self._forget(game)
        sacrificed = dict(zip(players, counts, strict=True))
        return [sacrificed.get(p, 0) for p in named]

    def counter(self, game: Game, card: CardDef) -> int | None:
        """H10: when the players said they hold a counterspell, each Horde spell asks whether one
        of them counters it (or to ask no more this turn)."""
        if not self.hold["counter"] or self.quiet_turn == game.turn:
            return None
        players = self._players(game)
        options = (["No: it resolves"] + [("We counter it" if len(players) == 1 else f"Player {i + 1} counters it")
                                         for i in players] + ["No, and ask no more this turn"])
        token = " (a token card)" if card.is_token else ""
        question = Question("choice", f"The Horde casts {card.name}{token}: do you counter it (H10)?",
                            answer="counter", card=card.name, card_text=card.text, options=options)
        k = self._choice(question)
        if k == len(options) - 1:
            self.quiet_turn = game.turn
        return players[k - 1] if 0 < k < len(options) - 1 else None

    def prevent(self, game: Game, source: Permanent | None, player: int, n: int) -> int:
        """When the players said they can prevent damage: how much of the ``n`` damage the Horde
        would deal ``player`` outside combat they prevent."""
        if not self.hold["prevent"]:
            return 0
        name = source.card.name if source is not None else "A Horde spell"
        question = Question("numbers", f"{name} would deal {n} damage to player {player + 1} (not combat damage): "
                            "how much of it do you prevent?", answer="prevent",
                            card=source.card.name if source is not None else None,
                            card_text=source.card.text if source is not None else "",
                            fields=[("Damage prevented", n)])
        return self._numbers(question)[0]

    def choose(self, decision: Decision) -> Any:
        """A team decision: the blocks and attacks the players entered; a choice the players make
        (``ASKED``); else the neutral option (over the team's unknown cards: the players carry it
        out)."""
        kind = decision.kind
        if kind == "attackers":
            return list(self.attacking)
        if kind == "blocks":
            pairs = []
            for blocker, attacker in self.block_pairs:
                pair = next((p for p in decision.options if p[0] is blocker and p[1] is attacker), None)
                if pair is None:
                    raise TableError(f"{blocker.card.name} can't block {attacker.card.name}" + _why(attacker))
                pairs.append(pair)
            if decision.is_legal is not None and not decision.is_legal(pairs):
                raise TableError("those blocks break a rule: a creature with menace needs two or more blockers, "
                                 "and a protected lieutenant can be blocked only when every other attacker is (L5)")
            return pairs
        if kind not in ASKED:
            if kind in ("abandon_scheme", "attackers"):
                return []
            if None in decision.options:
                return None
            return list(decision.options[:decision.count]) if kind in ("bottom", "exile_cards") else decision.options[0]
        subject = decision.subject
        card = None
        if isinstance(subject, tuple) and len(subject) == 2 and isinstance(subject[1], CardDef):
            card = subject[1]
        elif isinstance(subject, CardDef):
            card = subject
        elif isinstance(subject, Permanent):
            card = subject.card
        text = {
            "redirect": f"{subject} damage to the opponent: which of its creatures is dealt it instead? (F6, G3)",
            "horde_choice": f"The Hydra's choice ({subject[0] if isinstance(subject, tuple) else ''}): you make it "
                            "(F7)",
            "self_or_others": "Self or others? (A1)",
            "exile_graveyard": f"Any player may exile {subject} cards from their graveyard: does one of you? (If "
                               "none of you does, the Horde decides by a coin, H9)",
            "burn": "Burn the bodies? Your combat damage exiles cards from the Horde's graveyard instead of "
                    "milling (V5)",
        }.get(kind, KINDS.get(kind, kind))
        selection = kind in ("abandon_scheme",)
        question = Question("choice", text, card=card.name if card else None, card_text=card.text if card else "",
                            options=[option_words(o) for o in decision.options], selection=selection,
                            default=decision.options.index(None) if None in decision.options else 0)
        action = self._take(("answer",), question)
        value = action.get("choice")
        if selection:
            picks = value if isinstance(value, list) else []
            chosen = []
            for pick in picks:
                chosen.append(decision.options[_count(pick, "choice", 0, len(decision.options) - 1)])
            return chosen
        return decision.options[_count(value, "choice", 0, len(decision.options) - 1)]

    def _made(self, card: CardDef) -> CardDef:
        self.made.append(card)
        return card

    def _after_step(self, game: Game) -> None:
        """After every step: the stand-ins leave the battlefield (no trigger: they were never the
        players' real cards), but for the players' planeswalkers, and their cards leave the team's
        zones (the players' own zones are theirs: no Horde card may take a stand-in back)."""
        battlefield = game.battlefield
        for p in list(battlefield.team):
            if not p.card.is_planeswalker:
                battlefield.leave(p)
        self._forget(game)

    def _forget(self, game: Game) -> None:
        """The stand-ins' cards leave the team's zones (the players' own zones are theirs)."""
        if self.made:
            made = {id(card) for card in self.made}
            for player in game.players:
                for zone in (player.graveyard, player.hand, player.exile):
                    if any(id(c) in made for c in zone):
                        zone[:] = [c for c in zone if id(c) not in made]

    def _attacker(self, game: Game, a: Permanent) -> dict[str, Any]:
        target = f"player {a.defender + 1}" if a.attacked is None else \
            f"{a.attacked.card.name}, loyalty {a.attacked.loyalty}"
        return {"id": a.id, "card": a.card.name, "power": rules.power(game, a), "toughness": rules.toughness(game, a),
                "keywords": sorted(rules.keywords(game, a)), "text": a.card.text, "target": target,
                "shields": a.shields, "lieutenant": a.lieutenant is not None}

    # ------------------------------------------------------------ the players' actions

    def permanent(self, game: Game, pid: Any) -> Permanent:
        for p in game.battlefield.horde:
            if str(p.id) == str(pid):
                return p
        raise TableError(f"no Horde permanent #{pid} is on the battlefield")

    def walker(self, game: Game, pid: Any) -> Permanent:
        for p in game.battlefield.planeswalkers:
            if not p.is_horde and str(p.id) == str(pid):
                return p
        raise TableError(f"no planeswalker of yours #{pid} is on the battlefield")

    def apply(self, game: Game, action: dict[str, Any]) -> None:
        """Carry out one thing the players entered, with the engine's own rules."""
        kind = action["kind"]
        player = _count(action.get("player", 1), "player", 1, len(game.players)) - 1
        if kind == "damage_horde":
            n = _count(action.get("amount"), "damage to the Horde", 1)
            if game.drivers.opponent_damaged is None and n > len(game.horde.library) and self.last:
                raise TableError(f"the Horde's library has {len(game.horde.library)} cards: damage beyond that is "
                                 f"lost (H11); enter at most {len(game.horde.library)}")
            rules.damage_horde(game, n)  # H11 (F6, G3: a creature the players choose is dealt it)
        elif kind in ("destroy", "exile", "bounce", "tap", "damage"):
            p = self.permanent(game, action.get("id"))
            if kind == "destroy":
                if not rules.destroy(game, p, player):
                    self._note(game, f"{p.card.name} is not destroyed (indestructible, a shield counter or "
                                     "regeneration)")
            elif kind == "exile":
                rules.exile(game, p, player)
            elif kind == "bounce":
                rules.bounce(game, p, player)
            elif kind == "tap":
                p.tapped = True
                self._note(game, f"{p.card.name} is tapped")
            else:
                n = _count(action.get("amount"), f"damage to {p.card.name}", 1)
                rules.damage_permanent(game, None, player, p, n)
        elif kind == "lose_life":
            rules.lose_life(game, _count(action.get("amount"), "life lost", 1), player, player)
        elif kind == "gain_life":
            rules.gain_life(game, _count(action.get("amount"), "life gained", 1), player)
        elif kind == "died":
            n = _count(action.get("count"), "creatures that died", 1, 200)
            for _ in range(n):
                card = self._made(_stand_in(f"player {player + 1}'s creature"))
                dead = rules.put_onto_battlefield(game, card, player, player, triggers=False)
                rules.destroy(game, dead, player)
                self._forget(game)
        elif kind == "planeswalker":
            loyalty = _count(action.get("loyalty"), "loyalty", 1, 99)
            name = " ".join(str(action.get("name", "")).split())[:40] or "a planeswalker"
            card = _stand_in(f"{name} (player {player + 1}'s)", types=frozenset({"Planeswalker"}), loyalty=loyalty)
            rules.put_onto_battlefield(game, self._made(card), player, player, triggers=False)  # 306.5b
        elif kind == "loyalty":
            p = self.walker(game, action.get("id"))
            p.loyalty = _count(action.get("loyalty"), f"{p.card.name}'s loyalty", 0, 99)
            game.battlefield.unsettle()  # 704.5i: none left, it goes
            self._note(game, f"{p.card.name} has {p.loyalty} loyalty")
        elif kind == "counts":
            values = action.get("values")
            if not isinstance(values, dict) or not values:
                raise TableError("counts: expected the numbers of the counts asked before")
            for key, numbers in values.items():
                if key not in self.standing:
                    raise TableError(f"no count {key!r} was asked in this game")
                old = self.standing[key]
                if not isinstance(numbers, list) or len(numbers) != len(old):
                    raise TableError(f"{self.count_label(key)}: expected {len(old)} numbers")
                self.standing[key] = [_count(v, self.count_label(key), 0, 999) for v in numbers]
            game.battlefield.unsettle()  # a power and toughness may have changed
        elif kind == "hold":
            self.hold = {"counter": bool(action.get("counter")), "prevent": bool(action.get("prevent"))}
        elif kind == "attack":
            self._attack(game, player, action)
        elif kind == "end_game":
            winner = action.get("winner")
            if winner not in ("team", "horde"):
                raise TableError("end the game: expected the team or the Horde as the winner")
            reason = str(action.get("reason", "")).strip()[:200] or "the players say so"
            if winner == "team":
                log(game, "team_wins", Side.TEAM, reason=f"{reason} (entered by the players)")
            else:
                self._note(game, f"The team loses: {reason} (entered by the players)")
            game.winner = Winner.TEAM if winner == "team" else Winner.HORDE
        else:
            raise TableError(f"unknown action {kind!r}")

    def count_label(self, key: str) -> str:
        """A characteristic's count in words, with the card that reads it."""
        kind, text, players = key.split("|")
        return (f"{count_words(kind, text, [int(p) - 1 for p in players.split(',')])} "
                f"({self.standing_cards.get(key, '')})")

    def _attack(self, game: Game, player: int, action: dict[str, Any]) -> None:
        """The team attacks the Horde with stand-ins of the power, toughness and keywords the players
        give; the Horde's untapped creatures block at random (H8, H9); unblocked damage mills (H11)."""
        attackers = action.get("attackers") or []
        if not attackers:
            raise TableError("attack: give at least one attacker")
        self.attacking = []
        for n, a in enumerate(attackers, 1):
            owner = _count(a.get("player", player + 1), f"attacker {n}: player", 1, len(game.players)) - 1
            power = _count(a.get("power", 0), f"attacker {n}: power", 0, 999)
            toughness = _count(a.get("toughness", 1), f"attacker {n}: toughness", 1, 999)
            words_ = frozenset(k for k in a.get("keywords", ()) if k in KEYWORDS)
            card = self._made(_stand_in(f"player {owner + 1}'s {power}/{toughness} attacker", power, toughness, words_))
            p = rules.put_onto_battlefield(game, card, owner, owner, triggers=False)
            p.sick = False
            self.attacking.append(p)
        turns.team_combat(game)
        self.attacking = []
        self._after_step(game)

    def _note(self, game: Game, words: str) -> None:
        self.notes.append((len(game.drivers.trace or ()), words))

    # ------------------------------------------------------------ what the page reads

    @property
    def over(self) -> bool:
        return self.game.over()

    def result(self) -> dict[str, Any]:
        """A finished game's record (``horde.play.GameResult.record``) and the columns kept beside it."""
        game = self.game
        result = result_of(game, self.record["seed"], self.aborted)
        row = result.record()
        row.update(players=self.setup.players, lieutenants_drawn=list(result.lieutenants_drawn))
        return row


def _theirs_only(text: str) -> bool:
    """Whether every alternative of a filter names a subtype only the challenge decks have."""
    return all(not THEIRS_ONLY.isdisjoint(part.lower().split()) for part in text.split("|"))


def _why(attacker: Permanent) -> str:
    keywords = [k for k in ("flying", "fear", "intimidate", "unblockable", "menace") if k in attacker.card.keywords]
    if keywords:
        return f" ({', '.join(keywords)})"
    if attacker.lieutenant is not None:
        return " (L5: a protected lieutenant)"
    return ""


class _Players:
    """The team's policy at the table: the people, through the replay (``Table.choose``)."""

    def __init__(self, table: Table):
        self.table = table
        self.rng: Any = None

    def choose(self, decision: Decision, view: Any) -> Any:
        return self.table.choose(decision)


def replay(record: dict[str, Any]) -> Table:
    return Table(record)


def try_action(record: dict[str, Any], action: dict[str, Any],
               current: Table | None = None) -> tuple[dict[str, Any], Table]:
    """The record with ``action`` added, and its replay; a TableError (nothing changed) when the
    game can't take it. Answers must answer the question asked; group actions come at a window,
    the team's turn's own (an attack, a planeswalker, the turn's end) in the team's turn.
    ``current``: the record's replay, when the caller has it."""
    if current is None:
        current = Table(record)
    question = current.question
    if question is None:
        raise TableError("this game is over: nothing more can be entered (start a new game)")
    kind = action.get("kind")
    if kind in ANSWERS:
        if kind != question.answer:
            raise TableError(f"that answers no question asked now: {question.text}")
    elif kind in TEAM_TURN:
        if not question.window or (question.kind != "turn" and kind not in INSTANT):
            raise TableError(f"answer the question first: {question.text}")
    else:
        raise TableError(f"unknown action {kind!r}")
    new = dict(record, actions=list(record["actions"]) + [action])
    try:
        table = Table(new)
    except ReplayError as error:
        raise TableError(str(error)) from None
    return new, table
