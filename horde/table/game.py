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
H9; a stand-in it picks is named, not changed: the players carry the effect out), and creatures of
theirs that died (so the Horde's "whenever a creature dies" abilities trigger). Stand-ins enter and
leave without triggering anything and never stay past the step they were made for.
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
from horde.engine.filters import Context, Filter
from horde.engine.state import (
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
INSTANT = ("damage_horde", "destroy", "exile", "bounce", "tap", "damage", "lose_life", "gain_life", "died")
TEAM_TURN = INSTANT + ("attack", "end_turn", "end_game")
ANSWERS = ("answer", "targets", "blocks")
KEYWORDS = ("flying", "reach", "first strike", "deathtouch", "trample", "menace", "lifelink")
# Team decisions the players answer (the others are over the team's unknown cards: the players
# carry them out themselves, and the engine takes the neutral option).
ASKED = {"redirect", "horde_choice", "self_or_others", "burn", "must_block", "abandon_scheme", "keep", "tap", "exile"}


class TableError(HordeError):
    """An action the game can't take: said in words for the players, and nothing changed."""


class ReplayError(HordeError):
    """A record whose actions don't replay on this version of horde."""


@dataclass
class Question:
    """What the page asks the players now. ``kind``: "turn" (the team's turn: what happened on
    its side, then end it), "blocks" (the Horde attacks: the team's blockers), "targets" (how many
    permanents each player has that a Horde effect could target) or "choice" (one of ``options``,
    or several with ``selection``). ``window``: group actions may be entered now too."""

    kind: str
    text: str
    card: str | None = None
    card_text: str = ""
    options: list[str] = field(default_factory=list)
    selection: bool = False
    attackers: list[dict[str, Any]] = field(default_factory=list)
    window: bool = False


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
              types: frozenset[str] = frozenset({"Creature"})) -> CardDef:
    return CardDef(name, ManaCost(), types, power=power, toughness=toughness, keywords=keywords)


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
        self.asked: dict[tuple[int, int], list[Permanent]] = {}  # targets counted in this replay
        self.block_pairs: list[tuple[Permanent, Permanent]] = []
        self.fog = False
        self.attacking: list[Permanent] = []
        self.stand_ins = 0
        self.question: Question | None = None
        self.aborted = ""
        self.notes: list[tuple[int, str]] = []  # (event index, words) the page shows among the events
        self.game = self._replay()

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

    # ------------------------------------------------------------ the team's turn

    def _team_turn(self, game: Game) -> None:
        """The team's turn at the table: untap and upkeep (the Horde's upkeep abilities trigger),
        what the players enter, the end step (H4's counterpart for the team, H1)."""
        turns.run_steps(game, (turns.team_beginning, self._players_act, turns.end_step))

    def _players_act(self, game: Game) -> None:
        question = Question("turn", "Your turn: enter what happens to the Horde, then end the turn", window=True)
        while not game.over():
            action = self._take(TEAM_TURN, question)
            if action["kind"] == "end_turn":
                return
            self.apply(game, action)
            rules.check_state(game)

    # ------------------------------------------------------------ what the engine asks (TeamSide)

    def respond(self, game: Game, window: str) -> None:
        """What the players do once the Horde's attackers are declared (instant speed: the actions
        entered at the blocks question), and once blocks are (a fog: prevent all combat damage)."""
        if window == "blocks":
            if self.fog:
                rules.prevent_combat_damage(game)
            self.fog = False
            return
        while not game.over():
            action = self._peek()
            if action is None or action["kind"] not in INSTANT:
                return
            self.at += 1
            self.apply(game, action)
            rules.check_state(game)

    def blockers(self, game: Game, attackers: list[Permanent]) -> None:
        """H8: the players' blockers, each a stand-in with the power, toughness and keywords they
        give, blocking the attacker they name; the engine checks the blocks (flying, menace, L5)."""
        self.block_pairs = []
        if not attackers:
            return
        question = Question("blocks", "The Horde attacks: block, act at instant speed, or take the damage",
                            attackers=[self._attacker(game, a) for a in attackers], window=True)
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
            words = frozenset(k for k in block.get("keywords", ()) if k in KEYWORDS)
            card = _stand_in(f"player {player + 1}'s {power}/{toughness} blocker", power, toughness, words)
            blocker = rules.put_onto_battlefield(game, card, player, player, triggers=False)
            blocker.sick = False
            self.block_pairs.append((blocker, attacker))

    def targets(self, game: Game, ctx: Context, flt: Filter) -> list[Permanent]:
        """H9: the permanents of each player that a Horde effect could target, as the players count
        them: stand-ins the Horde picks among with its own (never on the battlefield: the players
        carry out what the effect does to the one picked)."""
        key = (id(ctx), id(flt))
        if key in self.asked:
            return self.asked[key]
        card = ctx.card
        what = flt.text.replace("nonzombie", "non-Zombie")
        question = Question("targets", f"{card.name if card else 'The Horde'} targets a {what}: how many "
                            f"could it target on your side (not hexproof, shroud or protected from it)?",
                            card=card.name if card else None, card_text=card.text if card else "")
        action = self._take(("targets",), question)
        counts = list(action.get("counts", ()))
        if len(counts) != len(game.players):
            raise TableError(f"expected a count for each of the {len(game.players)} players")
        stand_ins = []
        for player, count in enumerate(counts):
            n = _count(count, f"player {player + 1}'s count", 0, 200)
            for i in range(n):
                self.stand_ins += 1
                name = f"player {player + 1}'s {what} #{i + 1} of {n}"
                stand_ins.append(Permanent(STAND_IN_IDS + self.stand_ins, _stand_in(name), player, player))
        self.asked[key] = stand_ins
        return stand_ins

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
            "burn": "Burn the bodies? Your combat damage exiles cards from the Horde's graveyard instead of "
                    "milling (V5)",
        }.get(kind, KINDS.get(kind, kind))
        selection = kind in ("abandon_scheme",)
        question = Question("choice", text, card=card.name if card else None, card_text=card.text if card else "",
                            options=[option_words(o) for o in decision.options], selection=selection)
        action = self._take(("answer",), question)
        value = action.get("choice")
        if selection:
            picks = value if isinstance(value, list) else []
            chosen = []
            for pick in picks:
                chosen.append(decision.options[_count(pick, "choice", 0, len(decision.options) - 1)])
            return chosen
        return decision.options[_count(value, "choice", 0, len(decision.options) - 1)]

    def _after_step(self, game: Game) -> None:
        """After every step: the stand-ins leave the battlefield (no trigger: they were never the
        players' real cards)."""
        battlefield = game.battlefield
        for p in list(battlefield.team):
            battlefield.leave(p)

    def _attacker(self, game: Game, a: Permanent) -> dict[str, Any]:
        return {"id": a.id, "card": a.card.name, "power": rules.power(game, a), "toughness": rules.toughness(game, a),
                "keywords": sorted(rules.keywords(game, a)), "text": a.card.text,
                "target": f"player {a.defender + 1}" if a.attacked is None else a.attacked.card.name,
                "shields": a.shields, "lieutenant": a.lieutenant is not None}

    # ------------------------------------------------------------ the players' actions

    def permanent(self, game: Game, pid: Any) -> Permanent:
        for p in game.battlefield.horde:
            if str(p.id) == str(pid):
                return p
        raise TableError(f"no Horde permanent #{pid} is on the battlefield")

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
                dead = rules.put_onto_battlefield(game, _stand_in(f"player {player + 1}'s creature"), player, player,
                                                  triggers=False)
                rules.destroy(game, dead, player)
                game.players[player].graveyard = [c for c in game.players[player].graveyard if c is not dead.card]
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
            words = frozenset(k for k in a.get("keywords", ()) if k in KEYWORDS)
            card = _stand_in(f"player {owner + 1}'s {power}/{toughness} attacker", power, toughness, words)
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
    game can't take it. Answers must answer the question asked; group actions come at a window.
    ``current``: the record's replay, when the caller has it."""
    if current is None:
        current = Table(record)
    question = current.question
    if question is None:
        raise TableError("this game is over: nothing more can be entered (start a new game)")
    kind = action.get("kind")
    if kind in ANSWERS:
        expected = {"choice": "answer", "targets": "targets", "blocks": "blocks"}.get(question.kind)
        if kind != expected:
            raise TableError(f"that answers no question asked now: {question.text}")
    elif kind in TEAM_TURN:
        if not question.window or (question.kind == "blocks" and kind not in INSTANT):
            raise TableError(f"answer the question first: {question.text}")
    else:
        raise TableError(f"unknown action {kind!r}")
    new = dict(record, actions=list(record["actions"]) + [action])
    try:
        table = Table(new)
    except ReplayError as error:
        raise TableError(str(error)) from None
    return new, table
