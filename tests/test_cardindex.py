"""The card index: MTGJSON's AtomicCards (a fixture in its real schema) streamed into sqlite,
looked up by name, face name or 'A // B'; multi-faced cards by their front face or refused."""

from __future__ import annotations

import gzip
import json
import lzma
import shutil
import time
import zipfile
from pathlib import Path

import pytest

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
    assert giant.mana_value == 3.0 and "adventure" in giant.note


def test_split_cards_are_refused_by_either_name(index):
    for name in ("Fire // Ice", "Fire", "Ice"):
        card = index.lookup(name)
        assert card.refused.startswith("'Fire // Ice' is a split card")


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
    assert summary["cards"] == 12 and summary["refused_layouts"] == 1
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


def test_a_hundred_card_lookup_is_fast(tmp_path):
    """A 100-card deck is looked up in well under a second (here: a larger index of copies)."""
    data = json.loads(FIXTURE.read_text())
    base = data["data"]["Hollow Dogs"][0]
    for i in range(3000):
        data["data"][f"Hollow Dogs {i}"] = [dict(base, name=f"Hollow Dogs {i}")]
    source = tmp_path / "big.json"
    source.write_text(json.dumps(data))
    import_atomic_cards(source, target=tmp_path / "cards.sqlite")
    index = CardIndex(tmp_path / "cards.sqlite")
    start = time.perf_counter()
    found = [index.lookup(f"Hollow Dogs {i * 29}") for i in range(100)]
    assert time.perf_counter() - start < 0.5 and all(found)
    shutil.rmtree(tmp_path, ignore_errors=True)


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
