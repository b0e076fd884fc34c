"""The mana family's contract with the grammar (tests/data/oracle/mana.txt; the grammar's side is
tests/test_oracle_contract.py): every block loads through the catalogue loader, every land and
mana rock in it makes mana, and its Text is the Oracle text of the shared AtomicCards file (where
../shared is there)."""

import json
import lzma
from pathlib import Path

import pytest
from test_oracle_contract import fact_lines, read_blocks

from horde.cards.catalogue import build_from_lines

CONTRACT = Path(__file__).parent / "data" / "oracle" / "mana.txt"
# the shared card data beside the checkout (../shared), or beside a folder above it
ATOMIC = next((folder / "shared" / "cards" / "AtomicCards-forge-2022.json.xz" for folder in Path(__file__).resolve().parents
               if (folder / "shared" / "cards" / "AtomicCards-forge-2022.json.xz").exists()),
              Path("../shared/cards/AtomicCards-forge-2022.json.xz"))
BLOCKS = read_blocks(CONTRACT)


def card_of(block: dict):
    return build_from_lines(fact_lines(block) + block["Lines"], f"{CONTRACT.name}:{block['Name']}")


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
        assert block["Text"] == entry["text"], block["Name"]
        assert block["Type"] == entry["type"], block["Name"]
