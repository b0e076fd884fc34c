"""The game at the table (horde.table.game, horde.table.store) without a browser: the engine plays the
Horde, the players' side is what they enter, and the record replays to exactly the same game."""

from __future__ import annotations

import csv
import json
import tomllib
from dataclasses import replace

import pytest
from click.testing import CliRunner

from horde.cli import cli
from horde.cli.tablepage import TableApp, estimate, summary_html
from horde.engine import rules
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
            return {"kind": "exile", "id": creatures[0].id}  # H12: the board too (exile: no regeneration)
        return {"kind": "end_turn"}
    if q.kind == "blocks":
        return {"kind": "blocks", "blocks": [], "fog": False}
    if q.kind == "bite":
        return {"kind": "bite", "fog": False}
    if q.kind in ("numbers", "who"):
        return {"kind": q.answer, "counts": [1 if q.answer == "targets" else 0] * len(q.fields)}
    return {"kind": q.answer, "choice": 0}


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
        try_action(record, {"kind": "targets", "counts": [0, 0]})  # no Horde effect targets now
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
    for n in range(30):  # each action through Season.act, as the page enters it
        season.start(make_setup("zombie-horde", players=2, cards_per_player=6, boss="none"), 100 + n)
        table = season.table(*season.current())
        for _ in range(400):
            if table.over:
                break
            table = season.act(table.record["revision"], answer(table, damage=6 if n % 3 else 3))
        if not table.over:
            table = season.act(table.record["revision"], {"kind": "end_game", "winner": "horde", "reason": "time"})
    assert season.current() is None and len(season.game_files()) == 30
    rows = list(csv.DictReader((season.folder / "games.csv").open()))
    assert len(rows) == 30 and set(rows[0]) >= {"result", "players", "turn", "preset"}
    full = list(csv.DictReader((season.folder / "games-full.csv").open()))
    assert {"horde_cards_left", "team_life", "life_min", "seed"} <= set(full[0])
    games = read_games(str(season.folder / "games.csv"))
    assert len(games) == 30 and games[0].setup == make_setup("zombie-horde", players=2, cards_per_player=6,
                                                               boss="none")
    # calibrate reads the full file too, with every number it holds: how far each game went
    recorded = read_games(str(season.folder / "games-full.csv"))
    assert [g.setup for g in recorded] == [g.setup for g in games]
    for game, row in zip(recorded, full, strict=True):
        o = game.observation
        assert (o.result, o.turn, o.horde_left, o.team_life, o.life_min) == (
            row["result"], int(row["turn"]), int(row["horde_cards_left"]), int(row["team_life"]), int(row["life_min"]))
    # and the games whole (games.jsonl): the same games, and from their events how each went turn by turn
    logged = read_games(str(season.folder / "games.jsonl"))
    assert [g.setup for g in logged] == [g.setup for g in games]
    assert [replace(g.observation, life_track=(), horde_track=()) for g in logged] == [g.observation for g in recorded]
    assert all(len(g.observation.life_track) == len(g.observation.horde_track) >= 1 for g in logged)
    out = tmp_path / "skill.toml"
    done = runner.invoke(cli, ["calibrate", str(season.folder / "games.csv"), "--out", str(out), "--games", "20",
                               "--grid", "0,1", "--workers", "1", "--quiet"])
    assert done.exit_code == 0, done.output
    done = runner.invoke(cli, ["tune", "--players", "2", "--skill", str(out), "--batch", "20", "--max-games", "20",
                               "--workers", "1", "--preset", "zombie-horde", "--boss", "none"])
    assert done.exit_code == 0, done.output
    assert "cards_per_player" in done.output or "cards per player" in done.output
    # what the page shows of the season: calibrate's skill (the command's, on the same games and
    # seeds) and tune's deck size at that skill
    app = TableApp(tmp_path, "our-table-key", estimate=False)
    estimate(app, season, grid=(0.0, 1.0), simulated=20, batch=20, max_games=20)
    found = json.loads((season.folder / "season.json").read_text())
    assert found["games"] == 30 and round(found["skill"], 2) == tomllib.loads(out.read_text())["skill"]
    shown = summary_html(app, season)
    assert f"30 games finished: we won {sum(1 for r in rows if r['result'] == 'won')}" in shown
    assert f"horde calibrate: skill {found['skill']:.2f}" in shown and "horde tune --skill: " in shown
    assert " cards per player for 2 players gives the team a win rate of " in found["tune"]


def test_csv_columns_name_only_what_differs_from_the_preset():
    assert csv_columns(make_setup("face-the-hydra", players=3)) == {"preset": "face-the-hydra"}
    assert csv_columns(make_setup("zombie-horde", players=3, boss="none")) == {"preset": "zombie-horde",
                                                                                "boss": "none"}


# ---------------------------------------------------------------- what only the players know, asked


def fixed_deck(folder, *lines: str, name: str = "table-cards") -> str:
    """A small fixed Horde deck of bundled cards (its file's path)."""
    path = folder / f"{name}.txt"
    path.write_text(f"About\nName {name}\nKind horde\nBuild fixed\n\nDeck\n" + "\n".join(lines) + "\n")
    return str(path)


def small(folder, *lines: str, **knobs) -> dict:
    """A new record of a zombie-horde game against a small fixed deck: one team turn first, no boss."""
    knobs = {"players": 2, "boss": "none", "lieutenants": False, "grace_turns": 1, **knobs}
    seed = knobs.pop("seed", 1)
    return new_record(make_setup("zombie-horde", horde_deck=fixed_deck(folder, *lines), **knobs), seed)


def enter(record: dict, *actions: dict) -> tuple[dict, Table]:
    table = Table(record)
    for action in actions:
        record, table = try_action(record, action, table)
    return record, table


def events(table: Table, kind: str) -> list[dict]:
    return [e for e in table.game.drivers.trace if e["event"] == kind]


def test_H10_the_players_counter_a_horde_spell_when_they_say_they_hold_a_counterspell(tmp_path):
    record = small(tmp_path, "4 Sizzle", horde_size=4)
    _, table = enter(record, {"kind": "end_turn"})
    assert table.question.kind == "turn" and table.game.team_life == 40 - 6  # nothing held: nothing asked
    record, table = enter(record, {"kind": "hold", "counter": True}, {"kind": "end_turn"})
    q = table.question
    assert (q.answer, q.card) == ("counter", "Sizzle") and q.options == [
        "No: it resolves", "Player 1 counters it", "Player 2 counters it", "No, and ask no more this turn"]
    record, table = enter(record, {"kind": "counter", "choice": 2})
    assert table.game.team_life == 40 and [c.name for c in table.game.horde.graveyard] == ["Sizzle"]  # H10
    (counter,) = events(table, "counter")
    assert (counter["player"], counter["countered"]) == (2, "Sizzle")
    record, table = enter(record, {"kind": "end_turn"}, {"kind": "counter", "choice": 3})  # no more this turn
    assert table.game.team_life == 40 - 6 and table.question.kind == "turn"


def test_the_players_prevent_non_combat_damage_they_report(tmp_path):
    record = small(tmp_path, "4 Sizzle", horde_size=4)
    record, table = enter(record, {"kind": "hold", "prevent": True}, {"kind": "end_turn"})
    q = table.question
    assert (q.kind, q.answer, q.fields) == ("numbers", "prevent", [("Damage prevented", 3)])
    assert "player 1" in q.text
    with pytest.raises(TableError, match="at most 3"):
        enter(record, {"kind": "prevent", "counts": [4]})
    record, table = enter(record, {"kind": "prevent", "counts": [3]}, {"kind": "prevent", "counts": [1]})
    assert table.game.team_life == 40 - 2  # 3 and 1 of the 3 and 3 prevented
    assert [(e["player"], e["amount"]) for e in events(table, "prevention")] == [(1, 3), (2, 1)]


def test_F2_the_hydras_bite_waits_for_the_players_a_head_tapped_and_a_fog(tmp_path):
    record = new_record(make_setup("face-the-hydra", players=1), 4)
    record, table = enter(record, {"kind": "end_turn"})
    while table.question.kind != "bite":
        record, table = try_action(record, answer(table))
    heads = [p for p in table.game.battlefield.horde if "Head" in p.card.subtypes and not p.tapped]
    amount = sum(2 if "Elite" in p.card.supertypes else 1 for p in heads)
    assert table.question.amount == amount and table.question.window
    life = table.game.team_life
    _, fogged = enter(record, {"kind": "bite", "fog": True})
    assert fogged.game.team_life == life and events(fogged, "damage_prevented")
    tapped = heads[0]
    record, table = enter(record, {"kind": "tap", "id": tapped.id})
    less = amount - (2 if "Elite" in tapped.card.supertypes else 1)
    assert table.question.kind == "bite" and table.question.amount == less
    _, bitten = enter(record, {"kind": "bite", "fog": False})
    assert bitten.game.team_life == life - less


def test_counts_of_the_team_cards_are_asked_mortivore_keeps_the_number_the_players_give(tmp_path):
    record = small(tmp_path, "3 Mortivore", horde_size=3)
    record, table = enter(record, {"kind": "end_turn"})
    q = table.question
    assert (q.kind, q.answer, q.card) == ("numbers", "count", "Mortivore")
    assert "how many creature cards are in each of your graveyards?" in q.text and q.fields == [("Player 1", 999), ("Player 2", 999)]
    record, table = enter(record, {"kind": "count", "counts": [2, 1]})
    (mortivore,) = [a for a in table.question.attackers]
    assert (mortivore["power"], mortivore["toughness"]) == (3, 3)  # no creature card in the Horde's graveyard: 0 + 2 + 1
    record, table = enter(record, {"kind": "blocks", "blocks": []})
    assert table.game.team_life == 40 - 3
    key = "graveyard|creature|1,2"
    assert table.standing == {key: [2, 1]} and "Mortivore" in table.count_label(key)
    record, table = enter(record, {"kind": "counts", "values": {key: [4, 2]}})
    (p,) = table.game.battlefield.horde
    assert rules.power(table.game, p) == 6  # the number the players keep; asked no more
    with pytest.raises(TableError, match="no count"):
        enter(record, {"kind": "counts", "values": {"hand||1,2": [1, 1]}})


def test_each_player_sacrifices_who_has_one_and_the_horde_sees_them_die(tmp_path):
    record = small(tmp_path, "1 Blood Artist", "1 Fleshbag Marauder", horde_size=2, seed=2)
    record, table = enter(record, {"kind": "end_turn"})
    assert [e["cards"] for e in events(table, "reveal")] == [["Blood Artist"]]
    while table.question.kind != "turn":
        record, table = try_action(record, answer(table))
    record, table = enter(record, {"kind": "end_turn"})
    while table.question.answer != "sacrifice":
        record, table = try_action(record, answer(table))
    q = table.question
    assert (q.kind, q.card, q.fields) == ("who", "Fleshbag Marauder", [("Player 1", 1), ("Player 2", 1)])
    before = len(table.game.drivers.trace)
    record, table = enter(record, {"kind": "sacrifice", "counts": [1, 0]})
    later = table.game.drivers.trace[before:]
    died = [e["card"] for e in later if e["event"] == "leaves" and e["to"] == "graveyard"]
    assert died[0] == "player 1's creature" and len(died) == 2  # player 1's, then the Horde's own
    # Blood Artist: one life for each creature that died (the Horde's target player loses it, H9)
    assert sum(1 for e in later if e["event"] == "life_lost") == 2


def test_H8_the_horde_attacks_a_planeswalker_the_players_entered(tmp_path):
    record = small(tmp_path, "2 Walking Corpse", horde_size=2, players=1, seed=1)
    record, table = enter(record, {"kind": "planeswalker", "name": "Chandra", "loyalty": 4}, {"kind": "end_turn"})
    (walker,) = table.game.battlefield.planeswalkers
    assert walker.card.name == "Chandra (player 1's)" and walker.loyalty == 4
    (corpse,) = table.question.attackers  # H8: a random one of player 1 and Chandra: here Chandra
    assert corpse["target"] == "Chandra (player 1's), loyalty 4" and corpse["power"] == 2
    record, table = enter(record, {"kind": "blocks", "blocks": []})
    (walker,) = table.game.battlefield.planeswalkers
    assert walker.loyalty == 2 and table.game.team_life == 20  # 120.3c: the damage removes loyalty
    record, table = enter(record, {"kind": "loyalty", "id": walker.id, "loyalty": 0})
    assert not table.game.battlefield.planeswalkers  # 704.5i
    assert any(e["event"] == "planeswalker_dies" for e in table.game.drivers.trace)


def test_H9s_a_smart_horde_asks_whose_is_the_most_valuable_and_a_random_one_how_many(tmp_path):
    knobs = {"horde_size": 2, "seed": 1}
    record = small(tmp_path, "2 Cruel Revival", horde_choices="smart", **knobs)
    record, table = enter(record, {"kind": "end_turn"})
    q = table.question
    assert (q.kind, q.answer, q.card) == ("choice", "pick", "Cruel Revival")
    assert "most valuable" in q.text and q.options == ["player 1", "player 2", "none of us has one it could target"]
    _, table = enter(record, {"kind": "pick", "choice": 1})
    (target,) = events(table, "target")
    assert target["target"] == "player 2's most valuable non-Zombie creature"
    record = small(tmp_path, "2 Cruel Revival", **knobs)
    record, table = enter(record, {"kind": "end_turn"})
    assert (table.question.kind, table.question.answer) == ("numbers", "targets")
    _, table = enter(record, {"kind": "targets", "counts": [0, 1]})
    (target,) = events(table, "target")
    assert target["target"] == "player 2's non-Zombie creature #1 of 1"  # the only one: H9 among one


def test_a_condition_the_horde_settles_alone_asks_nobody():
    from horde.engine.filters import compile_condition

    assert compile_condition("count:creature").at_least(2) is True  # 'if a creature is on the battlefield'
    assert compile_condition("count:creature", negate=True).at_least(1) is False
    assert compile_condition("count:creature").at_least(0) is None  # the team's may make it true: asked
    assert compile_condition("hand:theirs <= 1").at_least(2) is False
    assert compile_condition("hand:theirs <= 1").at_least(1) is None
    assert compile_condition("graveyard:creature = 2").at_least(3) is None


def test_a_player_who_may_sacrifice_says_so_and_the_others_suffer(tmp_path):
    record = small(tmp_path, "2 Distract the Hydra", horde_size=2)
    record, table = enter(record, {"kind": "end_turn"})
    q = table.question
    assert (q.kind, q.answer, q.card) == ("who", "sacrifice", "Distract the Hydra") and "may sacrifice" in q.text
    _, table = enter(record, {"kind": "sacrifice", "counts": [1, 0]})
    assert table.game.team_life == 40 - 3  # player 2 sacrificed none: it loses 3 life


def test_any_player_may_exile_cards_from_their_graveyard_every_player_is_asked(tmp_path):
    record = small(tmp_path, "2 Carrion Wurm", horde_size=2)
    record, table = enter(record, {"kind": "end_turn"})
    q = table.question
    assert q.options == ["player 1", "player 2", "none"] and q.default == 2  # declining is the first answer
    _, spared = enter(record, {"kind": "answer", "choice": 0}, {"kind": "blocks", "blocks": []})
    assert spared.game.team_life == 40  # a player exiled three cards: the Wurm assigns no combat damage
    _, hit = enter(record, {"kind": "answer", "choice": 2}, {"kind": "blocks", "blocks": []})
    assert hit.game.team_life == 40 - 6  # nobody did, and the Horde has no three cards to exile (H9's coin)


# ---------------------------------------------------------------- horde table: the command and its page


def request(app, method: str, path: str, form: dict | None = None, key: str = "") -> tuple[int, str]:
    """One request to the page's app (ASGI, no server): its status and body."""
    import asyncio
    from urllib.parse import urlencode

    body = urlencode(form or {}).encode()
    query = urlencode({"key": key}).encode() if key else b""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query, "root_path": "", "server": ("t", 80),
             "headers": [(b"content-type", b"application/x-www-form-urlencoded"),
                         (b"content-length", str(len(body)).encode())]}
    sent: list[dict] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()


def test_horde_table_listens_here_unless_shared_with_a_link_a_qr_code_and_the_house_rules(tmp_path, monkeypatch):
    import uvicorn

    served: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(app=app, **options))
    runner = CliRunner()
    key = "our-table-key"
    done = runner.invoke(cli, ["table", "--folder", str(tmp_path / "t"), "--key", key, "--no-config", "--no-estimate"])
    assert done.exit_code == 0, done.output
    assert f"open http://127.0.0.1:8765/?key={key}" in done.output and "this machine only" in done.output
    assert served["host"] == "127.0.0.1" and "\u2580" not in done.output  # no QR code: nothing is shared
    house = tmp_path / "house.toml"
    house.write_text('[setup]\nplayers = 2\ncards_per_player = 5\nboss = "none"\n')
    done = runner.invoke(cli, ["table", "--folder", str(tmp_path / "t"), "--key", key, "--share", "--port", "9000",
                               "--config", str(house), "--no-estimate"])
    assert done.exit_code == 0, done.output
    assert served["host"] == "0.0.0.0" and served["port"] == 9000  # the table's local network
    assert f":9000/?key={key}" in done.output and "\u2580" in done.output  # the link, and its QR code
    app = served["app"]
    assert request(app, "POST", "/s/club/one/new", {"preset": "zombie-horde", "players": "3"})[0] == 403  # no key
    status, page = request(app, "GET", "/s/club/one", key=key)
    assert status == 200 and "House rules from" in page and "cards_per_player = 5" in page
    assert '<option value="2" selected>' in page  # the house's players, ticked
    status, _ = request(app, "POST", "/s/club/one/new", {"preset": "zombie-horde", "players": "3", "seed": "4",
                                                         "knobs": "grace_turns = 2", "key": key})
    assert status == 303
    setup = Season(tmp_path / "t", "club", "one").current()[1]["setup"]
    assert (setup["players"], setup["cards_per_player"], setup["boss"], setup["grace_turns"]) == (3, 5, "none", 2)
    assert Season(tmp_path / "t", "club", "two").current() is None  # another season keeps its own games
