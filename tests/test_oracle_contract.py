"""The contract between the effect vocabulary and the grammar: every block of every
``tests/data/oracle/*.txt`` file is a real card's Oracle text and the card-file lines the
compiler must make of it (the format: ``tests/data/oracle/README.md``). A block the grammar
does not produce yet is listed by name in the file's ``.pending`` companion: such a block must
still differ (strict), so a block that starts to pass is taken off the list, never forgotten."""

from __future__ import annotations

from pathlib import Path

import pytest

from horde.cards.catalogue import build_from_lines, bundled_catalogue
from horde.cards.oracle import Facts, compile_text
from horde.engine.cards import mana_symbol

FOLDER = Path(__file__).parent / "data" / "oracle"
SUPERTYPES = {"Legendary", "Basic", "Snow", "World"}


def read_blocks(path: Path) -> list[dict]:
    """The blocks of a contract file: '# Name' opens one ('##' a comment); 'Field: value' lines; 'Text:' may run
    on over more lines (the text's line breaks); 'Lines:' is followed by the card-file lines up to
    a blank line."""
    blocks: list[dict] = []
    block: dict | None = None
    field = ""
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.rstrip()
        if line.startswith("##"):  # a comment
            continue
        if line.startswith("# "):
            block = {"Name": line[2:].strip(), "line": number, "Lines": [], "file": path.name}
            blocks.append(block)
            field = ""
            continue
        if block is None:
            continue
        if not line:
            field = ""
            continue
        if field == "Lines":
            block["Lines"].append(line)
            continue
        key, sep, value = line.partition(":")
        if sep and key in ("Type", "PT", "Cost", "Name", "Text", "Lines", "Loyalty"):
            field = key
            if key != "Lines":
                block[key] = value.strip()
            continue
        if field == "Text":  # the text's next line (an ability of its own)
            block["Text"] += "\n" + line
            continue
        raise AssertionError(f"{path.name}:{number}: expected 'Field: value' or a line of Text or Lines, got {line!r}")
    return blocks


def facts(block: dict) -> Facts:
    left, _, right = block["Type"].replace(" - ", " \u2014 ").partition("\u2014")
    words = left.split()
    cost = block.get("Cost", "")
    colours = frozenset(c for symbol in cost.strip("{}").split("}{") if symbol
                        for c in (mana_symbol(symbol) or "").split("/") if c in "WUBRG")
    return Facts(block["Name"], frozenset(w for w in words if w not in SUPERTYPES), frozenset(right.split()),
                 frozenset(w for w in words if w in SUPERTYPES), colours,
                 pt_star=block.get("PT", "").startswith("*"), x_cost="{X}" in cost)


def fact_lines(block: dict) -> list[str]:
    lines = [f"Name: {block['Name']}", f"Type: {block['Type']}"]
    if block.get("Cost"):
        lines.append(f"Cost: {block['Cost']}")
    if block.get("PT"):
        lines.append(f"PT: {block['PT']}")
    if block.get("Loyalty") or "Planeswalker" in block["Type"]:
        lines.append(f"Loyalty: {block.get('Loyalty', '3')}")
    return lines


def pending(path: Path) -> set[str]:
    companion = path.with_suffix(".pending")
    if not companion.exists():
        return set()
    return {line.strip() for line in companion.read_text().splitlines() if line.strip() and not line.startswith("#")}


def cases():
    for path in sorted(FOLDER.glob("*.txt")):
        waiting = pending(path)
        for block in read_blocks(path):
            mark = [pytest.mark.xfail(strict=True, reason=f"pending in {path.stem}.pending")] \
                if block["Name"] in waiting else []
            yield pytest.param(block, id=f"{path.stem}:{block['Name']}", marks=mark)


@pytest.mark.parametrize("block", list(cases()))
def test_the_grammar_compiles_the_contract(block):
    compiled = compile_text(block["Text"], facts(block), bundled_catalogue().tokens)
    assert compiled.unread == [], compiled.why
    assert compiled.lines == block["Lines"]


@pytest.mark.parametrize("block", [b for path in sorted(FOLDER.glob("*.txt")) if path.stem == "core"
                                   for b in read_blocks(path)], ids=lambda b: b["Name"])
def test_the_core_contract_loads(block):
    """The grammar's own contract (core.txt) goes through the card loader as it is."""
    compiled = compile_text(block["Text"], facts(block), bundled_catalogue().tokens)
    build_from_lines(fact_lines(block) + block["Lines"], f"contract:{block['Name']}")
    assert compiled.tokens == {} or all(t.is_token for t in compiled.tokens.values())


def test_every_pending_name_is_a_block_of_its_file():
    for path in sorted(FOLDER.glob("*.txt")):
        names = {b["Name"] for b in read_blocks(path)}
        assert pending(path) <= names, f"{path.stem}.pending names no block: {sorted(pending(path) - names)}"
