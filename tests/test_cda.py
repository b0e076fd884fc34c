"""Characteristic-defining abilities (604.3): `*/*` creatures whose power and toughness count
things, every `*/*` creature of the shared precons (and Tarmogoyf, Adeline, Sutured Ghoul) with its
exact power and toughness on small boards, in their card-file lines of the layers contract
(tests/data/oracle/layers.txt); and the order of the layers of power and toughness (613.4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import HORDE, Scripted, put

from horde.cards.catalogue import build_from_lines, load_catalogue, pt_text
from horde.engine import rules
from horde.errors import DeckError
from horde.play import new_game, prepare
from horde.setup import make_setup

CONTRACT = Path(__file__).parent / "data" / "oracle" / "layers.txt"


def contract_blocks(path: Path = CONTRACT) -> dict[str, list[str]]:
    """The blocks of a contract file (tests/data/oracle/README.md), by heading: each its card-file
    lines, facts then ``Lines`` (a face's heading is 'CARD: FACE', its ``Name:`` the face's)."""
    blocks: dict[str, list[str]] = {}
    heading: str | None = None
    field = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip()
        if line.startswith("##"):
            continue
        if line.startswith("# "):
            heading, field = line[2:].strip(), ""
            blocks[heading] = [f"Name: {heading}"]
            continue
        if heading is None or not line:
            field = ""
            continue
        lines = blocks[heading]
        if field == "Lines":
            lines.append(line)
            continue
        key, sep, value = line.partition(":")
        if sep and key in ("Type", "PT", "Cost", "Name", "Text", "Lines", "Loyalty"):
            field = key
            if key == "Name":
                lines[0] = f"Name: {value.strip()}"
            elif key != "Lines":
                lines.append(f"{key}: {value.strip()}")
            continue
        assert field == "Text", f"{path.name}: {line!r}"
        lines[-1] += " " + line  # the text's next line: a card file's Text is one line
    return blocks


BLOCKS = contract_blocks()


def contract_card(heading: str):
    return build_from_lines(BLOCKS[heading], f"{CONTRACT.name}:{heading}")


@pytest.fixture(scope="module")
def cards():
    catalogue = load_catalogue().copy()
    for heading in BLOCKS:
        if ":" not in heading:  # a whole card (faces are joined in tests/test_faces.py)
            catalogue.add(contract_card(heading), "test", 0, replace=True)
    catalogue.add(build_from_lines([
        "Name: Adeline, Resplendent Cathar", "Cost: {1}{W}{W}", "Type: Legendary Creature — Human Knight", "PT: */4",
        "Keywords: vigilance", "Static: pt_equals power=\"count:creature yours\""], "test"), "test", 0)
    catalogue.add(build_from_lines([
        "Name: Psychosis Crawler", "Cost: {5}", "Type: Artifact Creature — Phyrexian Horror", "PT: */*",
        "Static: pt_equals amount=hand:yours"], "test"), "test", 0)
    catalogue.add(build_from_lines([
        "Name: Consuming Aberration", "Cost: {3}{U}{B}", "Type: Creature — Horror", "PT: */*",
        "Static: pt_equals amount=graveyard:opponents"], "test"), "test", 0)
    catalogue.add(build_from_lines([
        "Name: Rubblehulk", "Cost: {4}{R}{G}", "Type: Creature — Elemental", "PT: */*",
        "Static: pt_equals amount=\"count:land yours\""], "test"), "test", 0)
    catalogue.add(build_from_lines([
        "Name: Wooded Path", "Type: Land", "Mana: G"], "test"), "test", 0)  # a nonbasic land
    return catalogue


@pytest.fixture
def game(cards):
    g = new_game(prepare(make_setup("knudson-2011", players=2), cards), 0, Scripted())
    g.horde.library[:] = [cards.get("Zombie")] * 20
    for player in g.players:
        player.hand.clear()
        player.graveyard.clear()
    g.horde.graveyard.clear()
    return g


def pt(game, p) -> tuple[int, int]:
    return rules.power(game, p), rules.toughness(game, p)


def graveyard(game, cards, player, *names):
    zone = game.horde.graveyard if player == HORDE else game.players[player].graveyard
    zone[:] = [cards.get(name) for name in names]


def test_every_block_of_the_layers_contract_loads():
    assert len(BLOCKS) >= 20
    for heading in BLOCKS:
        contract_card(heading)


def test_amount_graveyard_types_tarmogoyf_counts_card_types_in_all_graveyards(game, cards):
    goyf = put(game, cards, "Tarmogoyf", side="team")
    assert pt(game, goyf) == (0, 1)
    graveyard(game, cards, 0, "Grizzly Bears", "Forest", "Grizzly Bears")  # creature, land
    graveyard(game, cards, 1, "Ornithopter")  # artifact (and creature again)
    graveyard(game, cards, HORDE, "Army of the Damned", "Zombie")  # sorcery; a token card is no card
    assert pt(game, goyf) == (4, 5)
    assert pt_text(goyf.card) == "*/1+*"


def test_lhurgoyf_and_mortivore_count_creature_cards_in_all_graveyards(game, cards):
    lhurgoyf = put(game, cards, "Lhurgoyf", side="team")
    mortivore = put(game, cards, "Mortivore")
    graveyard(game, cards, 0, "Grizzly Bears", "Forest")
    graveyard(game, cards, HORDE, "Walking Corpse", "Zombie")
    assert pt(game, lhurgoyf) == (2, 3) and pt(game, mortivore) == (2, 2)
    assert rules.regeneration_ability(mortivore.card) is not None  # {B}: Regenerate


def test_spellheart_chimera_counts_instants_and_sorceries_in_its_controller_s_graveyard(game, cards):
    chimera = put(game, cards, "Spellheart Chimera", side="team")
    graveyard(game, cards, 0, "Lightning Bolt", "Divination", "Grizzly Bears")
    graveyard(game, cards, 1, "Shock")  # a teammate's graveyard is not "your graveyard"
    assert pt(game, chimera) == (2, 3)
    assert rules.keywords(game, chimera) >= {"flying", "trample"}


def test_drove_of_elves_and_master_of_etherium_count_permanents_they_control(game, cards):
    drove = put(game, cards, "Drove of Elves", side="team")
    put(game, cards, "Llanowar Elves", side="team")
    put(game, cards, "Llanowar Elves", side="team", player=1)  # a teammate's is not "you control"
    assert pt(game, drove) == (2, 2)
    master = put(game, cards, "Master of Etherium", side="team")
    thopter = put(game, cards, "Ornithopter", side="team")  # 0/2 artifact creature: +1/+1 from the Master
    put(game, cards, "Sol Ring", side="team")
    assert pt(game, master) == (3, 3) and pt(game, thopter) == (1, 3)


def test_wilderness_elemental_counts_its_opponents_nonbasic_lands(game, cards):
    elemental = put(game, cards, "Wilderness Elemental", side="team")
    put(game, cards, "Swamp")  # basic
    put(game, cards, "Wooded Path")
    put(game, cards, "Wooded Path", side="team")  # its own side's: not an opponent's
    assert pt(game, elemental) == (1, 3)


def test_adeline_psychosis_crawler_aberration_and_rubblehulk(game, cards):
    adeline = put(game, cards, "Adeline, Resplendent Cathar", side="team")
    put(game, cards, "Grizzly Bears", side="team")
    put(game, cards, "Zombie")
    assert pt(game, adeline) == (2, 4)
    crawler = put(game, cards, "Psychosis Crawler", side="team")
    game.players[0].hand[:] = [cards.get("Shock")] * 3
    assert pt(game, crawler) == (3, 3) and pt(game, adeline) == (3, 4)
    aberration = put(game, cards, "Consuming Aberration", side="team")
    graveyard(game, cards, HORDE, "Walking Corpse", "Army of the Damned")
    graveyard(game, cards, 1, "Shock")  # a teammate is no opponent
    assert pt(game, aberration) == (2, 2)
    hulk = put(game, cards, "Rubblehulk", side="team")
    put(game, cards, "Forest", side="team")
    put(game, cards, "Wooded Path", side="team")
    assert pt(game, hulk) == (2, 2)


# ---------------------------------------------------------------- Sutured Ghoul (607.2a)


def test_verb_exile_from_graveyard_with_sutured_ghoul_counts_the_exiled_cards(game, cards):
    graveyard(game, cards, 0, "Grizzly Bears", "Serra Angel", "Lhurgoyf", "Divination")
    ghoul = rules.put_onto_battlefield(game, cards.get("Sutured Ghoul"), 0, 0)
    player = game.players[0]
    assert [c.name for c in player.graveyard] == ["Divination"]  # the creature cards are exiled with it
    assert [c.name for c in player.exile] == ["Grizzly Bears", "Serra Angel", "Lhurgoyf"]
    assert [c.name for c in ghoul.exiled_with] == ["Grizzly Bears", "Serra Angel", "Lhurgoyf"]
    # 2/2 + 4/4 + Lhurgoyf in exile: its CDA counts creature cards in all graveyards (604.3), now 0: 0/1
    assert pt(game, ghoul) == (6, 7)
    graveyard(game, cards, 1, "Grizzly Bears")  # one creature card in a graveyard: the exiled Lhurgoyf is 1/2
    assert pt(game, ghoul) == (7, 8)
    assert "trample" in rules.keywords(game, ghoul)


def test_amount_exiled_power_and_toughness_of_the_cards_the_team_chose(game, cards):
    graveyard(game, cards, 0, "Grizzly Bears", "Serra Angel")
    game.drivers.policy = Scripted(exile_with=lambda d: [d.options[1]])
    ghoul = rules.put_onto_battlefield(game, cards.get("Sutured Ghoul"), 0, 0)
    assert pt(game, ghoul) == (4, 4)
    assert [c.name for c in game.players[0].graveyard] == ["Grizzly Bears"]
    decision = game.drivers.policy.seen[-1]
    assert decision.kind == "exile_with" and decision.subject is ghoul.card


def test_amount_exiled_counts_the_cards_and_H7f_the_horde_exiles_every_one(game, cards):
    graveyard(game, cards, HORDE, "Walking Corpse", "Walking Corpse", "Army of the Damned", "Zombie")
    ghoul = rules.put_onto_battlefield(game, cards.get("Sutured Ghoul"), HORDE, HORDE)
    assert len(ghoul.exiled_with) == 2 and pt(game, ghoul) == (4, 4)
    assert [c.name for c in game.horde.graveyard] == ["Army of the Damned", "Zombie"]
    from horde.engine.filters import Context, compile_amount
    assert compile_amount("exiled")(game, Context(ghoul.card, ghoul, HORDE)) == 2


def test_amount_exiled_toughness_counts_an_exiled_cards_cda_as_it_is_now(game, cards):
    """604.3: Lhurgoyf's */1+* works in exile too: 1 + the creature cards in all graveyards."""
    graveyard(game, cards, 0, "Lhurgoyf", "Serra Angel")
    ghoul = rules.put_onto_battlefield(game, cards.get("Sutured Ghoul"), 0, 0)
    from horde.engine.filters import Context, compile_amount
    toughness = compile_amount("exiled_toughness")
    assert toughness(game, Context(ghoul.card, ghoul, 0)) == 4 + 1
    graveyard(game, cards, HORDE, "Walking Corpse", "Walking Corpse")
    assert toughness(game, Context(ghoul.card, ghoul, 0)) == 4 + 3


def test_a_sutured_ghoul_with_nothing_to_exile_is_0_0_and_dies(game, cards):
    ghoul = rules.put_onto_battlefield(game, cards.get("Sutured Ghoul"), 0, 0)
    rules.check_state(game)
    assert not rules.on_battlefield(game, ghoul) and cards.get("Sutured Ghoul") in game.players[0].graveyard


def test_sutured_ghoul_plays_in_a_game_of_the_horde(cards):
    """The Horde casts it (H7) with creature cards milled into its graveyard (H11)."""
    game = new_game(prepare(make_setup("knudson-2011", players=1), cards), 3, Scripted())
    ghoul_card = cards.get("Sutured Ghoul")
    game.horde.graveyard[:] = [cards.get("Grave Titan"), cards.get("Walking Corpse")]
    rules.horde_cast(game, ghoul_card)
    ghoul = next(p for p in game.battlefield.horde if p.card is ghoul_card)
    assert pt(game, ghoul) == (8, 8) and game.horde.graveyard == []


# ---------------------------------------------------------------- the layers of power and toughness (613.4)


def test_613_4_power_and_toughness_apply_the_cda_then_changes_then_counters(game, cards):
    """7a: the CDA gives the base; 7c: anthems and until-end-of-turn changes add; 7d: counters add.
    Sums commute: the order within 7c (timestamps) can't change the result. No verb sets (7b) or
    switches (7e) power and toughness."""
    mortivore = put(game, cards, "Mortivore", side="team")
    graveyard(game, cards, 0, "Grizzly Bears", "Serra Angel", "Walking Corpse")
    assert pt(game, mortivore) == (3, 3)  # 7a
    rules.add_counters(game, mortivore, 2, "plus")  # 7d
    rules.pump(game, mortivore, 2, 0, frozenset())  # 7c, until end of turn
    glorious = build_from_lines(["Name: Glorious Banner", "Cost: {2}", "Type: Enchantment",
                                 'Static: anthem filter="creature yours" power=1 toughness=1'], "test")
    rules.put_onto_battlefield(game, glorious, 0, 0, triggers=False)  # 7c
    assert pt(game, mortivore) == (3 + 2 + 2 + 1, 3 + 2 + 0 + 1)
    graveyard(game, cards, 0)  # the CDA counts again as the graveyards change
    assert pt(game, mortivore) == (5, 3)


# ---------------------------------------------------------------- the card file


@pytest.mark.parametrize("pt_line, static, message", [
    ("*/*", None, "has a * in its PT but no 'Static: pt_equals"),
    ("*/4", "pt_equals amount=X", "pt_equals gives its toughness, but its PT '*/4' prints that side as a number"),
    ("*/*", 'pt_equals power="count:creature yours"', "its toughness is printed with a * but pt_equals gives no "
                                                        "toughness"),
    ("*/*", "pt_equals amount=X power=X", "takes amount= (both sides) or power= and toughness=, not both"),
    ("*^2/1", None, "bad PT '*^2/1'"),
])
def test_a_card_file_cda_covers_exactly_its_star_sides(pt_line, static, message):
    lines = ["Name: Star", "Cost: {1}", "Type: Creature — Beast", f"PT: {pt_line}"] + ([f"Static: {static}"] if static else [])
    with pytest.raises(DeckError, match=re.escape(message)):
        build_from_lines(lines, "test")


def test_filter_card_is_any_card(game, cards):
    from horde.engine.filters import Context, compile_amount
    graveyard(game, cards, 0, "Grizzly Bears", "Forest", "Shock")
    graveyard(game, cards, HORDE, "Zombie", "Army of the Damned")  # a token card never counts
    assert compile_amount("graveyard:card")(game, Context(None, None, 0)) == 4
    assert compile_amount("graveyard:card yours")(game, Context(None, None, 0)) == 3


@pytest.mark.parametrize("name, pt_text, text, lines", [
    ("Adeline, Resplendent Cathar", "*/4", "Adeline, Resplendent Cathar's power is equal to the number of creatures "
     "you control.", ['Static: pt_equals power="count:creature yours"']),
    ("Tarmogoyf", "*/1+*", "Tarmogoyf's power is equal to the number of card types among cards in all graveyards and "
     "its toughness is equal to that number plus 1.", ["Static: pt_equals amount=graveyard_types:card"]),
    ("Test Goyf", "*/*", "Test Goyf's power is equal to the number of cards in all graveyards.", None),  # a */*: no
])
def test_the_grammar_reads_a_star_side_alone(name, pt_text, text, lines):
    """The grammar's characteristics family: a * power alone (Adeline's */4), a printed 1+*; a
    power alone on a */* creature leaves its * toughness without a value, and the loader refuses it."""
    from horde.cards.oracle import Facts, compile_text

    compiled = compile_text(text, Facts(name, frozenset({"Creature"}), pt_star=True), {})
    if lines is not None:
        assert compiled.lines == lines and compiled.unread == []
        build_from_lines([f"Name: {name}", "Type: Creature — Human", f"PT: {pt_text}"] + lines, "test")
    else:
        with pytest.raises(DeckError, match="its toughness is printed with a \\* but pt_equals gives no toughness"):
            build_from_lines([f"Name: {name}", "Type: Creature — Lhurgoyf", f"PT: {pt_text}"] + compiled.lines, "test")
