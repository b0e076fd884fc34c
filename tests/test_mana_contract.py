"""The mana family's contract with the Oracle-text grammar (tests/data/oracle/mana.txt): every
block loads through the catalogue loader, every land and mana rock in it makes mana, and its
Text is the Oracle text of the shared AtomicCards file (where ../shared is there)."""

import json
import lzma
from pathlib import Path

import pytest

from horde.cards.catalogue import build_from_lines

CONTRACT = Path(__file__).parent / "data" / "oracle" / "mana.txt"
# the shared card data beside the checkout (../shared), or beside a folder above it
ATOMIC = next((folder / "shared" / "cards" / "AtomicCards-forge-2022.json.xz" for folder in Path(__file__).resolve().parents
               if (folder / "shared" / "cards" / "AtomicCards-forge-2022.json.xz").exists()),
              Path("../shared/cards/AtomicCards-forge-2022.json.xz"))
FACTS = ("Type", "Cost", "PT")


def blocks(path: Path) -> list[dict]:
    """The blocks of a contract file: {'Name', 'Type', 'Cost', 'PT', 'Text', 'Lines'}."""
    found: list[dict] = []
    current: dict | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            current = None
        elif current is None and line.startswith("# "):
            current = {"Name": line[2:].strip(), "Lines": None}
        elif current is not None and current["Lines"] is not None:
            current["Lines"].append(line)
        elif current is not None and line == "Lines:":
            current["Lines"] = []
            found.append(current)
        elif current is not None and not line.startswith("#"):
            key, _, value = line.partition(": ")
            current[key] = value
    return found


BLOCKS = blocks(CONTRACT)


def card_of(block: dict):
    facts = [f"Name: {block['Name']}"] + [f"{key}: {block[key]}" for key in FACTS if key in block]
    return build_from_lines(facts + block["Lines"], f"{CONTRACT.name}:{block['Name']}")


def test_the_contract_holds_every_precon_land_and_rock_it_names():
    names = [block["Name"] for block in BLOCKS]
    assert len(names) == len(set(names)) == 162
    assert {"Command Tower", "Azorius Chancery", "Simic Signet", "Vivid Crag", "Exotic Orchard", "Savage Lands",
            "Rupture Spire", "Caves of Koilos", "Temple of the False God", "Everflowing Chalice"} <= set(names)


@pytest.mark.parametrize("block", BLOCKS, ids=[block["Name"] for block in BLOCKS])
def test_every_block_loads_and_a_land_or_rock_makes_mana(block):
    card = card_of(block)
    if card.is_land or ("Artifact" in card.types and not card.is_creature and not card.hooks.get("Upkeep")):
        search = any(e.verb in ("ramp", "search_land") for e in card.hooks.get("Activated", ()))
        assert card.makes_mana or search, block["Name"]  # a fetch land makes its mana by the land it finds


@pytest.fixture(scope="module")
def atomic():
    if not ATOMIC.exists():
        pytest.skip(f"the shared AtomicCards file is not here ({ATOMIC}): a checkout without ../shared")
    return json.load(lzma.open(ATOMIC))["data"]


def test_every_text_is_the_oracle_text_of_the_shared_file(atomic):
    for block in BLOCKS:
        entry = atomic[block["Name"]][0]
        assert block["Text"] == entry["text"].replace("\n", "\\n"), block["Name"]
        assert block["Type"] == entry["type"], block["Name"]
