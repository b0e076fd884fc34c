"""Play one seeded game: ``play_game(setup, seed) -> GameResult``.

The game's random streams are derived from its seed alone, one per purpose, so that changing
the team's side (policy, team decks) never shifts the Horde's shuffle or the boss's dice:
``horde`` (the Horde's library and its H9 choices), ``dice`` (B3, L1-L7), ``team1``..``team4``
(each team deck's shuffles) and ``policy`` (the team policy's own choices).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from horde import __version__, boss, rules, turns
from horde.catalogue import Catalogue, default_catalogue
from horde.decks import build_horde_library, load_banlist, load_horde_deck, load_team_deck
from horde.errors import HordeError
from horde.events import log
from horde.policies import TeamView, make_policy
from horde.presets import GameSetup
from horde.state import BossState, Drivers, Game, GameStats, Side, TeamPlayer, Winner


def stream(seed, name: str) -> random.Random:
    """The random stream ``name`` of the game with this seed (an int, or a tuple such as
    (experiment seed, game index)). Seeding by text is stable across runs and machines."""
    key = "/".join(str(part) for part in (seed if isinstance(seed, tuple) else (seed,)))
    return random.Random(f"horde/{key}/{name}")


@dataclass
class GameResult:
    """One game's record: its seed and setup, who won, and what happened."""

    seed: object
    setup: GameSetup
    winner: str  # "team", "horde" or "stall"
    turns: int
    horde_turns: int
    team_life: int
    team_life_min: int
    horde_cards_left: int
    cards_revealed: int
    longest_token_streak: int
    biggest_horde_turn: int
    revealed: tuple
    boss: str | None
    boss_uses: dict
    lieutenant_entries: int
    lieutenant_defeats: int
    version: str = __version__
    turn_rows: list | None = None
    events: list | None = None

    def record(self) -> dict:
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


def new_game(setup: GameSetup, seed, catalogue: Catalogue | None = None, policy=None,
             trace: bool = False) -> Game:
    """Set up a game: decks built and shuffled, boss and lieutenants drawn, hands not yet drawn."""
    catalogue = catalogue or default_catalogue()
    horde_deck = load_horde_deck(setup.horde_deck, catalogue)
    if policy is None:
        policy = make_policy(setup.policy, **dict(setup.policy_params))
    policy.rng = stream(seed, "policy")
    drivers = Drivers(policy, GameStats(team_life_min=setup.life_per_player * setup.players), [] if trace else None)
    game = Game(setup, catalogue.tokens, stream(seed, "horde"), stream(seed, "dice"), drivers)
    drivers.view = TeamView(game)
    banned = load_banlist(setup.banlist)
    for i in range(setup.players):
        deck = load_team_deck(setup.team_decks[i], catalogue, setup.allow_illegal)
        player = TeamPlayer(i, deck.name, deck.commander, stream(seed, f"team{i + 1}"))
        player.library = list(deck.cards)
        player.deck_size = len(deck.cards) + (1 if deck.commander is not None else 0)
        player.generic_mana = deck.generic_mana
        player.banned = banned
        game.players.append(player)
    game.horde.library = build_horde_library(horde_deck, setup, game.horde_rng)
    game.horde.deck_size = len(game.horde.library)
    if setup.boss != "none" and horde_deck.bosses:
        if setup.boss == "random":
            card = horde_deck.bosses[game.dice_rng.randrange(len(horde_deck.bosses))]  # B1
        else:
            named = [c for c in horde_deck.bosses if c.name.lower() == setup.boss.lower()]
            if not named:
                raise HordeError(f"boss '{setup.boss}' is not in the boss list of {horde_deck.path} "
                                 f"({', '.join(c.name for c in horde_deck.bosses)})")
            card = named[0]
        game.boss = BossState(card)
    elif setup.boss not in ("none", "random"):
        raise HordeError(f"boss '{setup.boss}': the Horde deck {horde_deck.path} has no boss list")
    if setup.lieutenants and horde_deck.lieutenants:
        game.lieutenants = boss.draw_lieutenants(game, horde_deck.lieutenants, horde_deck.equipment)
        if game.lieutenants is not None:  # the rules reach the lieutenants' rules through these
            drivers.lieutenant_leaves = boss.lieutenant_leaves  # L6
            drivers.creature_damaged_player = boss.creature_damaged_player  # L7
    return game


def horde_turn_now(setup: GameSetup, turn: int) -> bool:
    """H2: the team takes the first ``grace_turns`` turns, then the Horde and the team alternate,
    the Horde first."""
    return turn > setup.grace_turns and (turn - setup.grace_turns) % 2 == 1


def play(game: Game, record_turns: bool = False) -> None:
    """Play a set-up game to its end (H12, H13) or to the stall guard (H14)."""
    setup = game.setup
    drivers = game.drivers
    turns.opening_hands(game)
    if drivers.check is not None:
        drivers.check(game)
    rows: list[tuple[int, int, int, int]] | None = [] if record_turns else None
    drivers.turn_rows = rows
    stats = drivers.stats
    while not game.over():
        game.turn += 1
        if game.turn > setup.max_turns:
            game.turn = setup.max_turns
            game.winner = Winner.STALL  # H14
            break
        if horde_turn_now(setup, game.turn):
            turns.horde_turn(game)
        else:
            turns.team_turn(game)
        if game.team_life < stats.team_life_min:
            stats.team_life_min = game.team_life
        if rows is not None:
            rows.append((game.turn, game.team_life, rules.horde_power(game), len(game.horde.library)))
        if drivers.check is not None:
            drivers.check(game)
    if drivers.trace is not None:
        log(game, "game_over", Side.TEAM if game.winner == Winner.TEAM else Side.HORDE, winner=game.winner,
            team_life=game.team_life, horde_library=len(game.horde.library))


def result_of(game: Game, seed) -> GameResult:
    stats = game.drivers.stats
    return GameResult(
        seed=seed, setup=game.setup, winner=game.winner, turns=game.turn, horde_turns=game.horde_turns,
        team_life=game.team_life, team_life_min=min(stats.team_life_min, game.team_life),
        horde_cards_left=len(game.horde.library), cards_revealed=stats.cards_revealed,
        longest_token_streak=stats.longest_streak, biggest_horde_turn=stats.biggest_turn,
        revealed=tuple(stats.revealed), boss=game.boss.card.name if game.boss else None,
        boss_uses=dict(stats.boss_uses), lieutenant_entries=stats.lieutenant_entries,
        lieutenant_defeats=stats.lieutenant_defeats, turn_rows=game.drivers.turn_rows, events=game.drivers.trace)


def play_game(setup: GameSetup, seed, *, catalogue: Catalogue | None = None, policy=None,
              trace: bool = False, record_turns: bool = False, check=None) -> GameResult:
    """Play one game of ``setup`` with ``seed``; the same arguments always give the same game.

    ``policy`` (a policy object) overrides ``setup.policy``; ``trace`` keeps every event;
    ``record_turns`` keeps one row per turn; ``check(game)`` is called after every turn (tests).
    """
    game = new_game(setup, seed, catalogue, policy, trace)
    game.drivers.check = check
    play(game, record_turns)
    return result_of(game, seed)
