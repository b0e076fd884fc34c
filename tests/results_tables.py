"""Builders for constructed results: games-table rows with the columns the analysis reads, and
results folders laid out as ``horde run`` writes them."""

from __future__ import annotations

import json

import pandas as pd


def game(cell=0, game_index=0, winner="team", turns=10, horde_turns=3, revealed=(), players=4, cards=25,
         policy="baseline", streak=0, biggest=0, life=20, life_min=10, seed=1, boss=None, lieutenants=()):
    """One row of a games table, with the columns the analysis reads."""
    return {"experiment": "t", "cell": cell, "players": players, "cards_per_player": cards, "policy": policy,
            "seed": seed, "game": game_index, "winner": winner, "turns": turns, "horde_turns": horde_turns,
            "team_life": life, "team_life_min": life_min, "longest_token_streak": streak,
            "biggest_horde_turn": biggest,
            "revealed": [{"card": card, "horde_turn": turn} for card, turn in revealed],
            "boss_drawn": boss, "lieutenants_drawn": list(lieutenants)}


def table(rows) -> pd.DataFrame:
    return pd.DataFrame(rows)


BOSSES = ("Elspeth Tirel", "Liliana, Death Mage")
LIEUTENANTS = ("Bladewing the Risen", "Boris Devilboon")


def difficulty_games():
    """Two player counts by three deck sizes, ten games each: the team wins games 0 to
    ``10 - cards // 5 + players - 1``. Bosses alternate by game; three players draw one lieutenant
    (alternating), two players none (L1)."""
    rows = []
    for players in (2, 3):
        for cards in (10, 20, 30):
            for i in range(10):
                wins = 10 - cards // 5 + players
                rows.append(game(cell=players * 10 + cards, game_index=i, players=players, cards=cards,
                                 winner="team" if i < wins else "horde", turns=5 + i, horde_turns=2 + i // 2,
                                 revealed=[("Bomb", 1)] if i % 3 == 0 else [("Dud", 2)], boss=BOSSES[i % 2],
                                 lieutenants=[LIEUTENANTS[i % 2]] if players == 3 else []))
    return table(rows)


def write_results(folder, games: pd.DataFrame, parts: bool = False):
    folder.mkdir(parents=True, exist_ok=True)
    if parts:  # a folder of part files
        (folder / "games.parquet").mkdir()
        half = len(games) // 2
        games.iloc[:half].to_parquet(folder / "games.parquet" / "part-0.parquet")
        games.iloc[half:].to_parquet(folder / "games.parquet" / "part-1.parquet")
    else:
        games.to_parquet(folder / "games.parquet")
    pd.DataFrame({"cell": [0, 0], "game": [0, 0], "turn": [1, 2], "team_life": [80, 74], "horde_power": [0, 6],
                  "horde_library": [100, 97]}).to_parquet(folder / "turns.parquet")
    (folder / "experiment.toml").write_text('name = "tiny"\nseed = 1\n\n[run]\ngames = 10\n')
    (folder / "manifest.json").write_text(json.dumps({"experiment": "tiny", "games": len(games)}))
    return folder
