"""The game at the table (horde.table.game, horde.table.store) without a browser: the engine plays the
Horde, the players' side is what they enter, and the record replays to exactly the same game."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from horde.cli import cli
from horde.lab.calibrate import read_games
from horde.setup import make_setup
from horde.table.game import Table, TableError, new_record, try_action
from horde.table.store import Season, StaleError, csv_columns


def answer(table: Table, damage: int = 6) -> dict:
    """What a simple group enters at each question: mills the Horde in its turn, never blocks,
    counts no target, takes the first option."""
    q = table.question
    if q.kind == "turn":
        library = len(table.game.horde.library)
        done = [a for a in table.record["actions"][-3:] if a["kind"] == "damage_horde"]
        if library and not done and table.game.drivers.opponent_damaged is None:
            return {"kind": "damage_horde", "amount": min(damage, library)}
        creatures = [p for p in table.game.battlefield.horde if p.card.is_creature]
        if not library and creatures and len(done) < 2:
            return {"kind": "destroy", "id": creatures[0].id}  # H12: the board too
        return {"kind": "end_turn"}
    if q.kind == "blocks":
        return {"kind": "blocks", "blocks": [], "fog": False}
    if q.kind == "targets":
        return {"kind": "targets", "counts": [1] * len(table.game.players)}
    return {"kind": "answer", "choice": 0}


def play_out(record: dict, steps: int = 400, damage: int = 6) -> tuple[dict, Table]:
    table = Table(record)
    for _ in range(steps):
        if table.question is None:
            break
        record, table = try_action(record, answer(table, damage))
    return record, table


def test_H4_a_table_game_replays_exactly_and_ends_by_the_rules():
    record = new_record(make_setup("zombie-horde", players=3, cards_per_player=8), 7)
    record, table = play_out(record)
    assert table.over and str(table.game.winner) in ("team", "horde")
    again = Table(record)
    assert again.game.drivers.trace == table.game.drivers.trace  # same seed and actions: the same game
    result = table.result()
    assert result["turns"] == table.game.turn and result["horde_cards_left"] == len(table.game.horde.library)


def test_H5_a_game_stopped_in_the_horde_turn_resumes_with_the_same_reveal_and_rolls():
    record = new_record(make_setup("zombie-horde", players=3, cards_per_player=10, boss="random"), 11)
    table = Table(record)
    while table.question.kind != "blocks":
        record, table = try_action(record, answer(table))
    saved = json.loads(json.dumps(record))  # as the file keeps it
    resumed = Table(saved)
    assert resumed.question == table.question and resumed.game.drivers.trace == table.game.drivers.trace
    a, _ = play_out(record, steps=30)
    b, _ = play_out(saved, steps=30)
    assert Table(a).game.drivers.trace == Table(b).game.drivers.trace


def test_H11_damage_beyond_the_library_negative_life_and_a_finished_game_are_refused():
    record = new_record(make_setup("zombie-horde", players=2, cards_per_player=8), 3)
    table = Table(record)
    library = len(table.game.horde.library)
    with pytest.raises(TableError, match=f"at most {library}"):
        try_action(record, {"kind": "damage_horde", "amount": library + 1})
    with pytest.raises(TableError, match="negative"):
        try_action(record, {"kind": "lose_life", "amount": -3})
    with pytest.raises(TableError, match="answers no question"):
        try_action(record, {"kind": "targets", "counts": [0, 0]})
    record, table = play_out(record)
    with pytest.raises(TableError, match="over"):
        try_action(record, {"kind": "end_turn"})


def test_H8_blockers_fight_by_the_rules_and_a_flying_attacker_needs_reach():
    record = new_record(make_setup("zombie-horde", players=2, cards_per_player=10, boss="none",
                                   lieutenants=False), 5)
    table = Table(record)
    while table.question.kind != "blocks":
        record, table = try_action(record, answer(table))
    attacker = table.question.attackers[0]
    block = {"attacker": attacker["id"], "player": 1, "power": attacker["toughness"], "toughness": 50}
    record2, after = try_action(record, {"kind": "blocks", "blocks": [block], "fog": False})
    later = [e["event"] for e in after.game.drivers.trace[len(table.game.drivers.trace):]]
    assert "block" in later and "damage" in later
    survived = any(p.id == attacker["id"] for p in after.game.battlefield.horde)
    assert survived == ("regenerate" in later or "shield_removed" in later)  # lethal damage, unless a rule saves it
    assert not after.game.battlefield.team  # the stand-in left after the combat
    flyer = next((a for a in table.question.attackers if "flying" in a["keywords"]), None)
    if flyer is not None:
        with pytest.raises(TableError, match="can't block"):
            try_action(record, {"kind": "blocks", "blocks": [dict(block, attacker=flyer["id"])]})


def test_stale_and_repeated_actions_change_nothing(tmp_path):
    season = Season(tmp_path, "our table", "season 1")
    season.start(make_setup("zombie-horde", players=2, cards_per_player=8), 3)
    table = season.act(0, {"kind": "damage_horde", "amount": 2})
    with pytest.raises(StaleError, match="out of date"):
        season.act(0, {"kind": "damage_horde", "amount": 2})  # the same tap sent twice
    path, record = season.current()
    assert record["revision"] == 1 and len(record["actions"]) == 1
    assert len(table.game.horde.library) == len(Table(record).game.horde.library)
    season.act(1, None)  # undo
    assert season.current()[1]["actions"] == []


def test_thirty_games_feed_calibrate_unchanged_and_tune_takes_its_output(tmp_path):
    runner = CliRunner()
    season = Season(tmp_path, "club", "autumn")
    for n in range(30):
        season.start(make_setup("zombie-horde", players=2, cards_per_player=6, boss="none"), 100 + n)
        path, record = season.current()
        record, table = play_out(record, damage=6 if n % 3 else 3)
        if not table.over:
            record, table = try_action(record, {"kind": "end_game", "winner": "horde", "reason": "time"})
        season._write(path, dict(record, status="over"))
        season._finish()
    rows = list(csv.DictReader((season.folder / "games.csv").open()))
    assert len(rows) == 30 and set(rows[0]) >= {"result", "players", "turn", "preset"}
    full = list(csv.DictReader((season.folder / "games-full.csv").open()))
    assert {"horde_cards_left", "team_life", "seed"} <= set(full[0])
    games = read_games(str(season.folder / "games.csv"))
    assert len(games) == 30 and games[0].setup == make_setup("zombie-horde", players=2, cards_per_player=6,
                                                               boss="none")
    out = tmp_path / "skill.toml"
    done = runner.invoke(cli, ["calibrate", str(season.folder / "games.csv"), "--out", str(out), "--games", "20",
                               "--grid", "0,1", "--workers", "1", "--quiet"])
    assert done.exit_code == 0, done.output
    done = runner.invoke(cli, ["tune", "--players", "2", "--skill", str(out), "--batch", "20", "--max-games", "20",
                               "--workers", "1", "--preset", "zombie-horde", "--boss", "none"])
    assert done.exit_code == 0, done.output
    assert "cards_per_player" in done.output or "cards per player" in done.output


def test_csv_columns_name_only_what_differs_from_the_preset():
    assert csv_columns(make_setup("face-the-hydra", players=3)) == {"preset": "face-the-hydra"}
    assert csv_columns(make_setup("zombie-horde", players=3, boss="none")) == {"preset": "zombie-horde",
                                                                                "boss": "none"}
