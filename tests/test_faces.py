"""Cards of two faces played as printed: split cards (709: either half; with fuse both, 702.102),
aftermath (702.127: the second half from the graveyard, then exiled), adventure (715: the Adventure,
then the creature from exile), modal double-faced cards (712.12: either face, a land face as a land
play). The faces are the layers contract's blocks (tests/data/oracle/layers.txt) joined as a card
file joins them (Layout, Face); exact outcomes on small boards, for the team and for the Horde."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Scripted, put
from test_cda import BLOCKS

from horde.cards.cardindex import import_atomic_cards
from horde.cards.catalogue import build_from_lines, catalogue_for, load_catalogue
from horde.engine import rules, turns
from horde.errors import DeckError
from horde.play import new_game, prepare
from horde.setup import make_setup

FACES_FIXTURE = Path(__file__).parent / "data" / "mtgjson" / "AtomicCards-faces.json"


def joined(name: str, layout: str) -> list[str]:
    """A card of two faces as one card-file block, from the contract's blocks of its faces."""
    faces = [heading for heading in BLOCKS if heading.startswith(name + ": ")]
    assert len(faces) == 2, faces
    if layout in ("split", "aftermath"):
        lines = [f"Name: {name}", f"Layout: {layout}"]
        for heading in faces:
            lines += [f"Face: {heading.split(': ')[1]}"] + [line for line in BLOCKS[heading]
                                                          if not line.startswith("Name: ")]
        return lines
    front, back = faces
    return BLOCKS[front] + [f"Layout: {layout}", f"Face: {back.split(': ')[1]}"] + [
        line for line in BLOCKS[back] if not line.startswith("Name: ")]


CARDS = {"Rough // Tumble": "split", "Wear // Tear": "split", "Spring // Mind": "aftermath",
         "Cut // Ribbons": "aftermath", "Beanstalk Giant // Fertile Footsteps": "adventure",
         "Kazandu Mammoth // Kazandu Valley": "modal_dfc"}
EXTRA = {
    "Heal // Harm": ["Name: Heal // Harm", "Layout: split", "Face: Heal", "Cost: {W}", "Type: Instant",
                     "Cast: gain_life amount=3", "Face: Harm", "Cost: {B}", "Type: Instant",
                     "Cast: lose_life who=each_opponent amount=2"],
    "Bide // Error": ["Name: Bide // Error", "Layout: split", "Face: Bide", "Cost: {W}", "Type: Instant",
                      "Cast: gain_life amount=1", "Face: Error", "Cost: {U}{B}", "Type: Instant",
                      "Cast: counter_spell filter=multicolored"],
    "Rakdos Charm Test": ["Name: Rakdos Charm Test", "Cost: {B}{R}", "Type: Sorcery",
                          "Cast: lose_life who=each_opponent amount=1"],
}


@pytest.fixture(scope="module")
def cards():
    catalogue = load_catalogue().copy()
    for name, layout in CARDS.items():
        card = build_from_lines(joined(name, layout), f"layers.txt:{name}")
        catalogue.add(card, "test", 0)
    for lines in EXTRA.values():
        catalogue.add(build_from_lines(lines, "test"), "test", 0)
    return catalogue


@pytest.fixture
def game(cards):
    g = new_game(prepare(make_setup("knudson-2011", players=2), cards), 0, Scripted())
    g.horde.library[:] = [cards.get("Zombie")] * 20
    for player in g.players:
        player.hand.clear()
        player.graveyard.clear()
        player.library[:] = [cards.get("Forest")] * 10
    g.horde.graveyard.clear()
    return g


def lands(game, cards, *names, player=0):
    for name in names:
        put(game, cards, name, side="team", player=player)


def options(game, player=0):
    return [(card.name, origin) for card, origin in rules.castable(game, player)]


# ---------------------------------------------------------------- split cards (709)


def test_709_4_a_split_card_outside_the_stack_is_both_halves_combined(game, cards):
    card = cards.get("Rough // Tumble")
    assert (card.mana_value, card.colours, card.types, card.layout) == (8, frozenset("R"), frozenset({"Sorcery"}),
                                                                        "split")
    assert [(face.name, face.face, face.mana_value) for face in card.faces] == [("Rough", "half", 2),
                                                                                ("Tumble", "half", 6)]
    spring = cards.get("Spring // Mind")
    assert spring.types == frozenset({"Sorcery", "Instant"}) and spring.identity == frozenset("GU")
    goyf = build_from_lines(BLOCKS["Tarmogoyf"], "test")
    p = rules.put_onto_battlefield(game, goyf, 0, 0, triggers=False)
    game.players[0].graveyard[:] = [spring]
    assert rules.power(game, p) == 2  # an instant and a sorcery card in the graveyard


def test_709_3_a_team_player_casts_either_half_and_the_card_goes_to_its_graveyard(game, cards):
    game.players[0].hand[:] = [cards.get("Rough // Tumble")]
    lands(game, cards, "Mountain", "Mountain")
    assert options(game) == [("Rough", "hand")]  # Tumble costs 6
    lands(game, cards, "Mountain", "Mountain", "Mountain", "Mountain")
    assert options(game) == [("Rough", "hand"), ("Tumble", "hand")]
    angel = put(game, cards, "Serra Angel")  # 4/4 flying, the Horde's
    corpse = put(game, cards, "Walking Corpse")
    tumble = cards.get("Rough // Tumble").faces[1]
    rules.team_cast(game, 0, tumble, "hand")
    assert not rules.on_battlefield(game, angel) and rules.on_battlefield(game, corpse)
    assert game.players[0].graveyard == [cards.get("Rough // Tumble")] and game.players[0].hand == []


def test_keyword_fuse_casts_both_halves_from_hand_each_with_its_target(game, cards):
    game.players[0].hand[:] = [cards.get("Wear // Tear")]
    lands(game, cards, "Mountain", "Mountain", "Plains")
    assert options(game) == []  # 601.2c: nothing to destroy, no half can be cast
    splitter = put(game, cards, "Bonesplitter")
    assert options(game) == [("Wear", "hand")]
    moon = put(game, cards, "Bad Moon")
    assert options(game) == [("Wear", "hand"), ("Tear", "hand"), ("Wear // Tear", "hand")]
    fused = cards.get("Wear // Tear").faces[2]
    assert fused.face == "fused" and str(fused.cost) == "{1}{R}{W}"
    rules.team_cast(game, 0, fused, "hand")
    assert not rules.on_battlefield(game, splitter) and not rules.on_battlefield(game, moon)
    assert game.players[0].graveyard == [cards.get("Wear // Tear")]
    assert rules.available_mana(game, 0) == 0  # both halves' costs paid


def test_keyword_fuse_only_from_hand(game, cards):
    """702.102a: fuse casts both halves from hand only (a split card in a graveyard has no fused spell)."""
    game.players[0].graveyard[:] = [cards.get("Wear // Tear")]
    lands(game, cards, "Mountain", "Mountain", "Plains")
    assert options(game) == []


def test_split_counterspell_half_answers_a_horde_spell(game, cards):
    """H10: a split card's counterspell half (Trial // Error's Error) counters in the window."""
    game.players[0].hand[:] = [cards.get("Bide // Error")]
    lands(game, cards, "Island", "Swamp")
    game.drivers.policy = Scripted(counter=lambda d: d.options[0])
    life = game.team_life
    rules.horde_cast(game, cards.get("Rakdos Charm Test"))  # multicolored
    assert game.team_life == life and game.players[0].graveyard == [cards.get("Bide // Error")]
    assert cards.get("Rakdos Charm Test") in game.horde.graveyard


def test_H9_the_horde_casts_one_half_and_H9s_the_one_that_hurts(game, cards):
    life = game.team_life
    game.drivers.horde_choice = rules.smart_choice  # H9s
    rules.horde_cast(game, cards.get("Heal // Harm"))
    assert game.team_life == life - 4  # Harm: each opponent (two players) loses 2
    assert game.horde.graveyard == [cards.get("Heal // Harm")]


def test_H7f_the_horde_casts_a_fused_split_card_whole(game, cards):
    bears = put(game, cards, "Bonesplitter", side="team")
    rules.horde_cast(game, cards.get("Wear // Tear"))
    assert not rules.on_battlefield(game, bears) and game.horde.graveyard == [cards.get("Wear // Tear")]


# ---------------------------------------------------------------- aftermath (702.127)


def test_keyword_aftermath_the_second_half_only_from_the_graveyard_then_exiled(game, cards):
    spring = cards.get("Spring // Mind")
    player = game.players[0]
    player.hand[:] = [spring]
    lands(game, cards, "Forest", "Forest", "Forest", "Island", "Island", "Island")
    assert options(game) == [("Spring", "hand")]  # Mind is never cast from hand
    rules.team_cast(game, 0, spring.faces[0], "hand")
    assert player.graveyard == [spring] and any(p.card.name == "Forest" and p.tapped for p in game.battlefield.team
                                                if p.controller == 0 and not p.sick)
    lands(game, cards, "Island", "Island", "Island")  # Spring took three: six for Mind
    assert options(game) == [("Mind", "aftermath")]
    hand = len(player.hand)
    rules.team_cast(game, 0, spring.faces[1], "aftermath")
    assert len(player.hand) == hand + 2 and player.graveyard == [] and player.exile == [spring]


def test_H7f_aftermath_the_horde_casts_the_second_half_from_its_graveyard(game, cards):
    cut = cards.get("Cut // Ribbons")
    bears = put(game, cards, "Grizzly Bears", side="team")
    rules.horde_cast(game, cut)
    assert not rules.on_battlefield(game, bears) and game.horde.graveyard == [cut]
    life = game.team_life
    rules.horde_graveyard(game)
    assert game.team_life == life - 2 * 3  # Ribbons, X = its horde_x (H7) 3: each of two opponents loses 3
    assert game.horde.graveyard == [] and game.horde.exile == [cut]


# ---------------------------------------------------------------- adventure (715)


def test_715_an_adventure_then_its_creature_from_exile(game, cards):
    giant = cards.get("Beanstalk Giant")
    player = game.players[0]
    player.hand[:] = [giant]
    lands(game, cards, "Forest", "Forest", "Forest")
    assert options(game) == [("Fertile Footsteps", "hand")]
    rules.team_cast(game, 0, giant.faces[0], "hand")
    assert player.exile == [giant] and player.adventures == [giant] and player.graveyard == []
    assert sum(1 for p in game.battlefield.team if p.card.name == "Forest") == 4  # untapped, from the library
    lands(game, cards, "Forest", "Forest", "Forest", "Forest", "Forest", "Forest")  # 7 of 10 untapped
    assert options(game) == [("Beanstalk Giant", "adventure")]
    rules.team_cast(game, 0, giant, "adventure")
    on = next(p for p in game.battlefield.team if p.card is giant)
    assert (rules.power(game, on), rules.toughness(game, on)) == (10, 10)  # the lands it controls
    assert player.exile == [] and player.adventures == []


def test_715_4_an_adventure_countered_goes_to_the_graveyard(game, cards):
    """An adventure that does not resolve is not exiled (715.4): the Horde's, countered (H10)."""
    giant = cards.get("Beanstalk Giant")
    game.players[0].hand[:] = [build_from_lines(["Name: Test Counter", "Cost: {U}", "Type: Instant",
                                                 "Cast: counter_spell"], "test")]
    lands(game, cards, "Island")
    game.drivers.policy = Scripted(counter=lambda d: d.options[0])
    rules.horde_cast(game, giant)
    assert game.horde.graveyard == [giant] and game.horde.exile == []
    assert not any(p.card is giant for p in game.battlefield.horde)


def test_H7f_the_horde_casts_the_adventure_then_the_creature_at_once(game, cards):
    giant = cards.get("Beanstalk Giant")
    put(game, cards, "Forest")  # a land of the Horde's: the Giant is 1/1, not 0/0
    rules.horde_cast(game, giant)
    assert any(p.card is giant for p in game.battlefield.horde) and game.horde.exile == []
    assert game.drivers.stats.cast_this_turn == 2


# ---------------------------------------------------------------- modal double-faced cards (712)


def test_712_a_modal_double_faced_card_is_played_as_its_land_face(game, cards):
    mammoth = cards.get("Kazandu Mammoth")
    valley = mammoth.faces[0]
    player = game.players[0]
    player.hand[:] = [mammoth]
    game.drivers.policy = Scripted(land=lambda d: valley, cast=None)
    turns.main_phase(game, second=False)
    on = next(p for p in game.battlefield.team if p.card is valley)
    assert on.tapped and player.hand == [] and player.land_played and valley.mana == (frozenset("G"),)
    assert valley.makes_mana and not mammoth.makes_mana  # a face's Mana line is the face's
    rules.bounce(game, on, 0)
    assert player.hand == [mammoth]  # the whole card, front face up (712.8)


def test_712_its_creature_face_is_cast_and_its_landfall_counts_the_land_face(game, cards):
    mammoth = cards.get("Kazandu Mammoth")
    lands(game, cards, "Forest", "Forest", "Forest")
    game.players[0].hand[:] = [mammoth, mammoth]
    assert options(game) == [("Kazandu Mammoth", "hand")]
    rules.team_cast(game, 0, mammoth, "hand")
    on = next(p for p in game.battlefield.team if p.card is mammoth)
    rules.put_onto_battlefield(game, mammoth.faces[0], 0, 0)  # the other copy's land face
    assert (rules.power(game, on), rules.toughness(game, on)) == (5, 5)


# ---------------------------------------------------------------- the card file and the index


@pytest.mark.parametrize("lines, message", [
    (["Name: A // B", "Layout: split", "Face: A", "Cost: {R}", "Type: Instant", "Cast: draw count=1"],
     "a card of layout split has 2 'Face:' sections, not 1"),
    (["Name: A // B", "Layout: sideways", "Face: A", "Type: Instant"], "'Layout: sideways' is not a layout"),
    (["Name: A // B", "Layout: split", "Cost: {R}", "Face: A", "Type: Instant", "Face: B", "Type: Instant"],
     "a split card's facts are its halves' (709.4): field 'Cost'"),
    (["Name: A", "Cost: {R}", "Type: Creature — Giant", "PT: 2/2", "Layout: adventure", "Face: B",
      "Type: Creature — Giant", "PT: 1/1"], "an adventure card is a creature whose Face is an instant or sorcery"),
    (["Name: A // B", "Layout: split", "Face: A", "Type: Instant", "Keywords: aftermath", "Face: B", "Type: Instant"],
     "only a split card's second half has aftermath"),
])
def test_a_card_file_of_two_faces_is_checked(lines, message):
    with pytest.raises(DeckError, match=message.replace("(", "\\(").replace(")", "\\)")):
        build_from_lines(lines, "test")


@pytest.fixture
def faces_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_atomic_cards(FACES_FIXTURE)
    return tmp_path / "home"


def test_index_cards_of_two_faces_compile_each_face(faces_home):
    catalogue = catalogue_for()
    rough = catalogue.get("Tumble")  # a half names its card
    assert rough.name == "Rough // Tumble" and catalogue.origins[rough.name].kind == "compiled"
    assert [(f.name, f.face, sorted(f.verbs)) for f in rough.faces] == [("Rough", "half", ["damage_all"]),
                                                                        ("Tumble", "half", ["damage_all"])]
    wear = catalogue.get("Wear // Tear")
    assert [f.face for f in wear.faces] == ["half", "half", "fused"] and wear.identity == frozenset("RW")
    spring = catalogue.get("spring // mind")
    assert [(f.name, f.face) for f in spring.faces] == [("Spring", "half"), ("Mind", "aftermath")]
    assert catalogue.origins[spring.name].kind == "compiled"


def test_index_modal_double_faced_card_compiles_both_faces(faces_home):
    catalogue = catalogue_for()
    mammoth = catalogue.get("Kazandu Mammoth")
    assert catalogue.origins[mammoth.name].kind == "compiled"
    valley = mammoth.faces[0]
    assert (valley.name, valley.face, valley.is_land, "enters tapped" in valley.keywords) == (
        "Kazandu Valley", "back", True, True)
    assert mammoth.land_faces == (valley,) and mammoth.hand_spells == (mammoth,)
    assert valley.mana == (frozenset("G"),) and not mammoth.makes_mana


def test_index_modal_double_faced_card_names_the_face_its_sentence_is_of(faces_home):
    with pytest.raises(DeckError, match=r"not understood: .*until your next turn \[Emeria's Call\]"):
        catalogue_for().get("Emeria's Call")
    catalogue = catalogue_for(approximate=True)
    call = catalogue.get("Emeria's Call")
    # the land face plays exactly: "you may pay 3 life; if you don't, it enters tapped" (614.12)
    assert not [s for s in catalogue.origins[call.name].dropped if s.endswith("[Emeria, Shattered Skyclave]")]
    skyclave = call.faces[0]
    assert skyclave.enters_pay_life == 3
    assert (skyclave.name, skyclave.is_land, skyclave.mana) == ("Emeria, Shattered Skyclave", True, (frozenset("W"),))
    assert call.identity == frozenset("W")


def test_the_import_compiles_every_face_and_a_deck_load_reads_them(tmp_path, monkeypatch):
    """The texts compiled at import hold each face's lines; a load reads them, compiling nothing,
    and a record without every face (an index of another version) is compiled again, whole."""
    from horde.cards import catalogue as catalogue_module
    from horde.cards.cardindex import open_index
    from horde.cards.catalogue import import_cards

    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_cards(FACES_FIXTURE)
    record = open_index().compiled("Wear // Tear")
    assert [face["lines"] for face in record["faces"]] == [["Keywords: fuse", "Cast: destroy target=artifact"],
                                                           ["Keywords: fuse", "Cast: destroy target=enchantment"]]

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(catalogue_module, "compile_card", no_compiling)
    wear = catalogue_for().get("Wear // Tear")
    assert [(f.name, f.face, sorted(f.verbs)) for f in wear.faces] == [
        ("Wear", "half", ["destroy"]), ("Tear", "half", ["destroy"]), ("Wear // Tear", "fused", ["destroy"])]
    # one record for the whole card, as a version without faces wrote it: every face compiled again
    one = catalogue_module.cached_compiled({k: record["faces"][0][k] for k in record["faces"][0]}, {}, ())
    monkeypatch.undo()
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    indexed = open_index().lookup("Wear // Tear")
    card, origin, _ = catalogue_module.compile_indexed(indexed, {}, False, "test", (), one)
    assert origin.kind == "compiled" and [f.name for f in card.faces] == ["Wear", "Tear", "Wear // Tear"]


def test_an_index_of_two_faced_cards_plays_in_horde_games(faces_home, tmp_path):
    """The faces fixture's cards in a Horde deck (--approximate for the Mammoth's landfall): the
    Horde reveals and casts them, a face each time, and every card ends in a zone as its whole."""
    from horde.play import play_game

    path = tmp_path / "faces.txt"
    path.write_text("About\nKind horde\nBuild fixed\n\nDeck\n3 Rough // Tumble\n3 Wear // Tear\n3 Spring // Mind\n"
                    "3 Kazandu Mammoth\n\nTokens\n28 Zombie\n")
    setup = make_setup("zombie-horde", horde_deck=str(path), players=2, cards_per_player=20, boss="none",
                       lieutenants=False, approximate=True)
    revealed = set()
    for seed in range(6):
        result = play_game(prepare(setup), seed)
        assert result.winner in ("team", "horde", "stall")
        revealed |= {name for name, _ in result.revealed}
    assert revealed >= {"Rough // Tumble", "Wear // Tear", "Spring // Mind", "Kazandu Mammoth"}


def test_305_7_a_face_made_a_forest_is_one_face_and_the_card_keeps_its_faces(game, cards):
    """An Aura that makes a permanent a basic land (Song of the Dryads, ``becomes``): the permanent
    is that land alone, with only the basic type's mana, and the card's faces still name their card."""
    from horde.engine.effects_staples import becomes

    mammoth = cards.get("Kazandu Mammoth")
    valley = mammoth.faces[0]
    forest = becomes(game, mammoth, frozenset({"Land"}), frozenset({"Forest"}), None, False)
    assert (forest.faces, forest.layout, forest.power_amount, forest.mana) == ((), "", None, (frozenset("G"),))
    assert valley.whole is mammoth and mammoth.land_faces == (valley,)
    island = becomes(game, valley, frozenset({"Land"}), frozenset({"Island"}), None, False)
    assert [a.units for a in island.mana_abilities] == [(frozenset("U"),)] and valley.whole is mammoth
