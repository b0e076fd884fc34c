"""The card index: MTGJSON's AtomicCards (a fixture in its real schema) streamed into sqlite,
looked up by name, face name or 'A // B'; multi-faced cards by their front face or refused."""

from __future__ import annotations

import gzip
import json
import lzma
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

import horde.cards.cardindex
from horde.cards.cardindex import CardIndex, import_atomic_cards, open_index
from horde.errors import HordeError

FIXTURE = Path(__file__).parent / "data" / "mtgjson" / "AtomicCards.json"


@pytest.fixture
def index(tmp_path) -> CardIndex:
    import_atomic_cards(FIXTURE, target=tmp_path / "cards.sqlite")
    return CardIndex(tmp_path / "cards.sqlite")


def test_fixture_uses_mtgjson_field_names():
    data = json.loads(FIXTURE.read_text())["data"]
    assert len(data) == 12
    for faces in data.values():
        for face in faces:
            assert {"name", "manaValue", "colors", "colorIdentity", "type", "supertypes", "types", "subtypes",
                    "layout", "identifiers", "legalities"} <= set(face)


def test_facts_of_a_creature_a_planeswalker_and_a_star_creature(index):
    ghoul = index.lookup("highborn ghoul")
    assert (ghoul.name, ghoul.mana_cost, ghoul.mana_value, ghoul.power, ghoul.toughness) == \
        ("Highborn Ghoul", "{B}{B}", 2.0, "2", "1")
    assert ghoul.subtypes == ("Zombie",) and ghoul.keywords == ("Intimidate",) and ghoul.layout == "normal"
    liliana = index.lookup("Liliana Vess")
    assert liliana.loyalty == "5" and liliana.supertypes == ("Legendary",) and liliana.types == ("Planeswalker",)
    maro = index.lookup("MARO")
    assert (maro.power, maro.toughness) == ("*", "*")
    assert index.lookup("Leonin Scimitar").keywords == ("Equip",)
    assert index.lookup("No Such Card") is None


def test_double_faced_cards_by_their_front_face(index):
    delver = index.lookup("Delver of Secrets")
    assert delver == index.lookup("delver of secrets // insectile aberration")
    assert (delver.name, delver.power, delver.toughness, delver.type) == ("Delver of Secrets", "1", "1",
                                                                          "Creature — Human Wizard")
    assert "front face of a transform card" in delver.note and not delver.refused
    back = index.lookup("Insectile Aberration")
    assert "back face" in back.refused and "'Delver of Secrets'" in back.refused
    giant = index.lookup("Bonecrusher Giant")
    assert giant.mana_value == 3.0 and giant.note == "" and not giant.refused  # every face plays
    assert [(face["faceName"], face["type"], face["manaCost"]) for face in giant.faces] == [
        ("Bonecrusher Giant", "Creature — Giant", "{2}{R}"), ("Stomp", "Instant — Adventure", "{1}{R}")]
    assert "back face" in index.lookup("Stomp").refused  # a deck names an adventure card by its creature
    assert delver.faces == ()  # a transform card: its front face alone


def test_split_cards_are_found_by_either_name_with_both_halves(index):
    for name in ("Fire // Ice", "Fire", "Ice", "fire // ice"):
        card = index.lookup(name)
        assert (card.name, card.layout, card.refused) == ("Fire // Ice", "split", "")
        assert [face["faceName"] for face in card.faces] == ["Fire", "Ice"]
        assert card.faces[1]["text"] == "Tap target permanent.\nDraw a card."


@pytest.mark.parametrize("kind", ["gz", "xz", "zip"])
def test_compressed_files(tmp_path, kind):
    raw = FIXTURE.read_bytes()
    source = tmp_path / f"AtomicCards.json.{kind}"
    if kind == "gz":
        source.write_bytes(gzip.compress(raw))
    elif kind == "xz":
        source.write_bytes(lzma.compress(raw))
    else:
        with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("AtomicCards.json", raw)
    summary = import_atomic_cards(source, target=tmp_path / "cards.sqlite")
    assert summary["cards"] == 12 and summary["refused_layouts"] == 0  # no meld card: every face plays
    assert CardIndex(tmp_path / "cards.sqlite").lookup("Doom Blade").mana_cost == "{1}{B}"


def test_progress_hears_every_byte_of_the_file(tmp_path):
    seen: list[tuple[int, int]] = []
    import_atomic_cards(FIXTURE, target=tmp_path / "cards.sqlite", progress=lambda read, total: seen.append((read, total)))
    size = FIXTURE.stat().st_size
    assert seen[-1] == (2 * size, 2 * size)  # read twice: its depth, then its cards
    assert [read for read, _ in seen] == sorted(read for read, _ in seen)


def test_a_failed_import_leaves_the_old_index(tmp_path):
    target = tmp_path / "cards.sqlite"
    import_atomic_cards(FIXTURE, target=target)
    before = target.read_bytes()
    broken = tmp_path / "AtomicCards.json"
    broken.write_text(FIXTURE.read_text()[:5000])
    with pytest.raises(HordeError, match="cannot read the file as MTGJSON's AtomicCards JSON"):
        import_atomic_cards(broken, target=target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["AtomicCards.json", "cards.sqlite"]


def test_a_file_without_cards_is_refused(tmp_path):
    empty = tmp_path / "x.json"
    empty.write_text('{"meta": {}, "data": {}}')
    with pytest.raises(HordeError, match="no cards found"):
        import_atomic_cards(empty, target=tmp_path / "cards.sqlite")
    with pytest.raises(HordeError, match="no such file"):
        import_atomic_cards(tmp_path / "missing.json", target=tmp_path / "cards.sqlite")


def test_index_lives_in_horde_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_atomic_cards(FIXTURE)
    index = open_index()
    assert index.path == tmp_path / "home" / "cards.sqlite" and len(index) == 12
    assert index.close_matches("Doom Blad") == ["Doom Blade"]


def lookup_steps(tmp_path: Path, copies: int) -> int:
    """The sqlite steps (virtual machine instructions) that looking up 100 cards takes in an index
    of the fixture and ``copies`` more cards."""
    data = json.loads(FIXTURE.read_text())
    base = data["data"]["Hollow Dogs"][0]
    for i in range(copies):
        data["data"][f"Hollow Dogs {i}"] = [dict(base, name=f"Hollow Dogs {i}")]
    source = tmp_path / f"big-{copies}.json"
    source.write_text(json.dumps(data))
    import_atomic_cards(source, target=tmp_path / f"cards-{copies}.sqlite")
    index = CardIndex(tmp_path / f"cards-{copies}.sqlite")
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0  # go on

    index._connection().set_progress_handler(step, 1)
    found = [index.lookup(f"Hollow Dogs {i * 29 % copies}") for i in range(100)]
    assert all(found)
    return steps[0]


def test_a_hundred_card_lookup_takes_the_same_steps_in_a_big_index(tmp_path):
    """A 100-card deck is looked up by the index's key, never by reading the whole table: the
    lookups take the same sqlite steps among 3,000 cards as among 10."""
    assert lookup_steps(tmp_path, 3000) == lookup_steps(tmp_path, 10)


@pytest.mark.parametrize("kind", ["json", "gz"])
def test_json_nested_past_its_depth_is_refused_in_bounded_memory(tmp_path, kind):
    """200,000 brackets took ijson's fast parser tens of gigabytes (it keeps the path to each
    value): the depth is read first, and a file past 64 deep is one line."""
    import resource

    raw = b"[" * 200_000 + FIXTURE.read_bytes()
    source = tmp_path / f"AtomicCards.{kind}"
    source.write_bytes(gzip.compress(raw) if kind == "gz" else raw)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (min(4 * 2**30, hard) if hard != resource.RLIM_INFINITY else 4 * 2**30,
                                            hard))
    try:
        with pytest.raises(HordeError) as caught:
            import_atomic_cards(source, target=tmp_path / "cards.sqlite")
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    assert caught.value.one_line() == (f"{source}: cannot read the file as MTGJSON's AtomicCards JSON: its maps and "
                                       "arrays nest more than 64 deep (docs/limits.md)")
    assert not (tmp_path / "cards.sqlite").exists()


# ---------------------------------------------------------------- issue 29: hostile AtomicCards files


def atomic_with(card: dict) -> dict:
    """The fixture with one more card."""
    data = json.loads(FIXTURE.read_text())
    data["data"][card["name"]] = [dict({"type": "Creature", "layout": "normal"}, **card)]
    return data


def stopped_at(source: Path, target: Path) -> str:
    """The one line of an import of ``source`` that fails, checking that it left nothing behind."""
    with pytest.raises(HordeError) as caught:
        import_atomic_cards(source, target=target)
    assert not list(target.parent.glob(".cards-*")), "a temporary index was left"
    return caught.value.one_line()


@pytest.mark.parametrize("kind", ["xz", "gz"])
def test_issue29_item2_a_small_file_whose_card_text_is_640_mib_stops_at_that_card_at_once(tmp_path, kind):
    """98 KB of xz holding one card whose text is 640 MiB kept the import busy for minutes (the
    parser reads a value split over its reads from its start again at each read): the import
    now stops at that card, naming it, as soon as the text passes 65,536 bytes; the old index
    stays."""
    compress = lzma.compress if kind == "xz" else gzip.compress
    head = json.dumps(json.loads(FIXTURE.read_text()))[:-2] + ', "Huge": [{"name": "Huge", "type": "Creature", "text": "'
    # concatenated streams are one stream to both formats' readers: 640 copies of 1 MiB of text
    raw = compress(head.encode()) + compress(b"a" * 2**20) * 640 + compress(b'"}]}}')
    source = tmp_path / f"AtomicCards.json.{kind}"
    source.write_bytes(raw)
    assert len(raw) < 700_000
    target = tmp_path / "cards.sqlite"
    import_atomic_cards(FIXTURE, target=target)
    before = target.read_bytes()
    opened = []

    def open_source(*args, **kwargs):
        opened.append(real(*args, **kwargs))
        return opened[-1]

    real = horde.cards.cardindex._open_source
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(horde.cards.cardindex, "_open_source", open_source)
        line = stopped_at(source, target)
    # It stops once the text passes 65,536 bytes: it never reads (nor parses) the 640 MiB after them.
    assert max(checked.given for checked, _ in opened) < 4 * 2**20
    assert line == (f"{source}: import stopped: data['Huge']: a value of more than 65,536 bytes; a card's text may "
                    "hold at most 5,000 characters (docs/limits.md)")
    assert target.read_bytes() == before


@pytest.mark.parametrize("text", ['a\\"' * 40_000, "\\" * 70_000, "x" * 65_537],
                         ids=["escaped-quotes", "escaped-backslashes", "plain"])
def test_issue29_item2_a_text_past_the_limit_stops_even_made_of_escapes(tmp_path, text):
    source = tmp_path / "AtomicCards.json"
    source.write_text(json.dumps(atomic_with({"name": "Escapes", "text": text})))
    assert stopped_at(source, tmp_path / "cards.sqlite").endswith(
        "import stopped: data['Escapes']: a value of more than 65,536 bytes; a card's text may hold at most 5,000 "
        "characters (docs/limits.md)")


def test_issue29_item2_a_card_text_over_5000_characters_stops_the_import_at_that_card(tmp_path):
    """The limits of a card (docs/limits.md) hold for the card index as for a card file: 5,000
    characters of text, 200 of a name; 5,000 characters as the file's longest escapes (12
    bytes each) are fine."""
    source = tmp_path / "AtomicCards.json"
    source.write_text(json.dumps(atomic_with({"name": "Wordy", "text": "a" * 5001})))
    assert stopped_at(source, tmp_path / "cards.sqlite") == (
        f"{source}: import stopped: data['Wordy']: its text is 5,001 characters, more than the 5,000 a card's text "
        "may have (docs/limits.md)")
    source.write_text(json.dumps(atomic_with({"name": "N" * 201})))
    assert "import stopped: data['NNNNN" in stopped_at(source, tmp_path / "cards.sqlite")
    assert "its name is 201 characters, more than the 200 a card's name may have" in stopped_at(
        source, tmp_path / "cards.sqlite")
    source.write_text(json.dumps(atomic_with({"name": "Smiles", "text": "\U0001F600" * 5000})))  # ASCII escapes
    assert source.read_text().count("\\ud83d\\ude00") == 5000  # 60,000 bytes of text in the file
    import_atomic_cards(source, target=tmp_path / "cards.sqlite")
    assert CardIndex(tmp_path / "cards.sqlite").lookup("Smiles").text == "\U0001F600" * 5000


def test_issue29_item2_a_card_of_more_than_4_mib_of_json_stops_the_import(tmp_path):
    """A card's fields not read (its printings, rulings, translations) are bounded too: a card
    holding millions of short texts would be millions of objects in memory."""
    source = tmp_path / "AtomicCards.json"
    source.write_text(json.dumps(atomic_with({"name": "Wide", "printings": ["M10"] * 800_000})))
    assert stopped_at(source, tmp_path / "cards.sqlite") == (
        f"{source}: import stopped: data['Wide']: more than 4,194,304 bytes of JSON, the most one card may take "
        "(docs/limits.md)")


def test_issue29_item2_the_streaming_check_finds_every_value_too_long_whatever_the_reads(monkeypatch):
    """The check of value lengths, with a limit of a few bytes, against a plain reading of the
    JSON escapes on random bytes cut into random reads (an escape split between two reads)."""
    import io
    import random

    import horde.cards.cardindex as cardindex

    def too_long(data: bytes, most: int) -> bool:
        run = longest = i = 0
        while i < len(data):
            step = 2 if data[i:i + 1] == b"\\" else 1  # an escape: two bytes of text
            run = 0 if data[i:i + 1] == b'"' else run + step
            longest = max(longest, run)
            i += step
        return longest > most

    rng = random.Random(29)
    for _ in range(5000):
        data = bytes(rng.choice(b'ab"\\') for _ in range(rng.randint(0, 40)))
        if (len(data) - len(data.rstrip(b"\\"))) % 2:
            data += b"a"  # JSON never ends inside an escape
        most = rng.randint(1, 8)
        monkeypatch.setattr(cardindex, "ATOMIC_VALUE_MAX", most)
        stream = cardindex._Checked(io.BytesIO(data))
        try:
            while stream.read(rng.randint(1, 7)):
                pass
            found = False
        except cardindex.TooLong:
            found = True
        assert found == too_long(data, most), (data, most)


def damaged(kind: str, tmp_path: Path) -> Path:
    raw = FIXTURE.read_bytes()
    if kind.startswith("zip"):
        path = tmp_path / "AtomicCards.json.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("AtomicCards.json", raw)
        data = bytearray(path.read_bytes())
        if kind == "zip-cut":
            data = data[:len(data) // 2]
        else:  # the compressed card data overwritten
            data[200:260] = b"\0" * 60
        path.write_bytes(bytes(data))
        return path
    path = tmp_path / f"AtomicCards.json.{kind.split('-')[0]}"
    packed = gzip.compress(raw) if kind.startswith("gz") else lzma.compress(raw)
    if kind.endswith("cut"):
        packed = packed[:len(packed) // 2]
    else:
        packed = packed[:300] + bytes(b ^ 0x55 for b in packed[300:400]) + packed[400:]
    path.write_bytes(packed)
    return path


@pytest.mark.parametrize(("kind", "reason"), [
    ("zip-cut", "cannot read the zip archive: File is not a zip file"),
    ("zip-damaged", "cannot read the zip archive: it is damaged or cut short (Error -3 while decompressing data: "),
    ("gz-cut", "cannot read the gzip file: it is damaged or cut short (Compressed file ended before the "
               "end-of-stream marker was reached)"),
    ("gz-damaged", "cannot read the gzip file: it is damaged or cut short ("),
    ("xz-cut", "cannot read the xz file: it is damaged or cut short (Compressed file ended before the "
               "end-of-stream marker was reached)"),
    ("xz-damaged", "cannot read the xz file: it is damaged or cut short (Corrupt input data)"),
])
def test_issue29_item3_a_damaged_or_truncated_archive_is_one_line(tmp_path, kind, reason):
    source = damaged(kind, tmp_path)
    line = stopped_at(source, tmp_path / "cards.sqlite")
    assert line.startswith(f"{source}: {reason}") and "\n" not in line


def test_issue29_item3_a_zip_is_read_from_its_atomiccards_member_or_refused_naming_its_members(tmp_path):
    raw = FIXTURE.read_bytes()
    source = tmp_path / "mtgjson.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("readme.json", b"{}")  # a .json member first: not the cards
        archive.writestr("mtgjson/AtomicCards.json", raw)
    assert import_atomic_cards(source, target=tmp_path / "cards.sqlite")["cards"] == 12
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("readme.json", b"{}")
        archive.writestr("AllPrintings.json", raw)
    assert stopped_at(source, tmp_path / "cards.sqlite") == (
        f"{source}: the zip archive holds no member named AtomicCards.json; it holds 'readme.json', "
        "'AllPrintings.json'")
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("a/AtomicCards.json", raw)
        archive.writestr("b/atomiccards.json", raw)
    assert stopped_at(source, tmp_path / "cards.sqlite") == (
        f"{source}: the zip archive holds 2 members named AtomicCards.json; it holds 'a/AtomicCards.json', "
        "'b/atomiccards.json'")


def big_atomic(path: Path, copies: int) -> Path:
    """AtomicCards with ``copies`` copies of every card of the fixture: an import of a second or two."""
    data = json.loads(FIXTURE.read_text())
    data["data"] = {f"{name} {i}": faces for i in range(copies) for name, faces in data["data"].items()}
    path.write_text(json.dumps(data))
    return path


def start_import(source: Path, home: Path) -> subprocess.Popen:
    """``horde cards import SOURCE`` as a process of its own, once its temporary index exists."""
    process = subprocess.Popen([sys.executable, "-m", "horde.cli", "cards", "import", str(source), "--quiet"],
                               env=dict(os.environ, HORDE_HOME=str(home)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    while not list(home.glob(".cards-*.sqlite")):
        assert process.poll() is None, "the import ended before it could be stopped"
        time.sleep(0.005)
    return process


def test_issue29_item4_a_killed_import_leaves_a_temporary_file_the_next_import_removes(tmp_path):
    source = big_atomic(tmp_path / "AtomicCards.json", 2000)
    home = tmp_path / "home"
    home.mkdir()
    process = start_import(source, home)
    process.kill()
    process.communicate()
    left = list(home.glob(".cards-*.sqlite"))
    assert len(left) == 1
    import_atomic_cards(FIXTURE, target=home / "cards.sqlite")
    assert sorted(p.name for p in home.iterdir()) == ["cards.sqlite"]


def test_issue29_item4_sigterm_removes_the_temporary_file_and_exits_143(tmp_path):
    source = big_atomic(tmp_path / "AtomicCards.json", 2000)
    home = tmp_path / "home"
    home.mkdir()
    process = start_import(source, home)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate()
    assert process.returncode == 143, stderr
    assert stderr == f"interrupted: the card index is as it was ({home / 'cards.sqlite'})\n"
    assert list(home.iterdir()) == []


def test_issue29_item4_the_temporary_file_of_an_import_running_now_is_left_alone(tmp_path):
    """Each import holds a lock (flock) on its temporary file while it runs: another import
    started meanwhile removes only those no one holds."""
    import fcntl

    running = tmp_path / ".cards-running.sqlite"
    stale = tmp_path / ".cards-stale.sqlite"
    running.write_bytes(b"")
    stale.write_bytes(b"")
    (tmp_path / ".cards-link.sqlite").symlink_to(running)
    with open(running, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        import_atomic_cards(FIXTURE, target=tmp_path / "cards.sqlite")
        assert running.exists() and not stale.exists() and (tmp_path / ".cards-link.sqlite").is_symlink()
