"""Tests for horde.cards.decklists: the pasted decklist formats, the error lines, and never crashing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horde.cards.decklists import DeckEntry, Decklist, parse_decklist, read_decklist
from horde.errors import DeckError


def entry(count, name, section, line, set_code=None, number=None, foil=False, tags=()):
    return DeckEntry(count, name, section, line, set_code, number, foil, tuple(tags))


CARD = "expected '<count> <card name>', e.g. '1 Sol Ring', got "
# A line that is not a card line, before anything says the file is a decklist: not quoted.
NOT_A_DECK = "expected '<count> <card name>', e.g. '1 Sol Ring' (this line and the ones before it do not read as a decklist)"
COUNT = ": expected a whole number from 1 to 999"


def error_text(text, path="deck.txt"):
    with pytest.raises(DeckError) as caught:
        parse_decklist(text, path)
    return str(caught.value)


# --- card lines -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, expected",
    [
        ("4 Lightning Bolt", entry(4, "Lightning Bolt", "deck", 1)),
        ("4x Lightning Bolt", entry(4, "Lightning Bolt", "deck", 1)),
        ("4X Lightning Bolt", entry(4, "Lightning Bolt", "deck", 1)),
        ("1 Xenagos, the Reveler", entry(1, "Xenagos, the Reveler", "deck", 1)),
        ("1 Sol Ring (C21) 263", entry(1, "Sol Ring", "deck", 1, "C21", "263")),
        ("1 Sol Ring (c21) 263", entry(1, "Sol Ring", "deck", 1, "C21", "263")),
        ("55 Zombie (TMH2)", entry(55, "Zombie", "deck", 1, "TMH2")),
        ("1 Delver of Secrets (ISD) 51a", entry(1, "Delver of Secrets", "deck", 1, "ISD", "51a")),
        ("1 Sol Ring (PLST) ★12", entry(1, "Sol Ring", "deck", 1, "PLST", "★12")),
        ("1 Sol Ring (C21) 263 *F*", entry(1, "Sol Ring", "deck", 1, "C21", "263", foil=True)),
        ("1 Sol Ring (CMM) 400 *E*", entry(1, "Sol Ring", "deck", 1, "CMM", "400", foil=True)),
        ("1 Sol Ring *F*", entry(1, "Sol Ring", "deck", 1, foil=True)),
        (
            "1 Swords to Plowshares #Removal #!Pinned",
            entry(1, "Swords to Plowshares", "deck", 1, tags=("Removal", "Pinned")),
        ),
        (
            "1 Swords to Plowshares (STA) 10 *F* #Removal #Card Draw",
            entry(1, "Swords to Plowshares", "deck", 1, "STA", "10", True, ("Removal", "Card Draw")),
        ),
        ("1x Swords to Plowshares [Removal]", entry(1, "Swords to Plowshares", "deck", 1, tags=("Removal",))),
        (
            "1x Swords to Plowshares [Removal,Other]",
            entry(1, "Swords to Plowshares", "deck", 1, tags=("Removal", "Other")),
        ),
        (  # Archidekt: a first category marked {noDeck} is not in the deck
            "1x Sol Ring (c21) 263 *F* [Ramp{noDeck}, Rocks]",
            entry(1, "Sol Ring", "maybeboard", 1, "C21", "263", True, ("Ramp", "Rocks")),
        ),
        (
            "1x Sol Ring (c21) 263 *F* [Ramp, Rocks{noDeck}]",
            entry(1, "Sol Ring", "deck", 1, "C21", "263", True, ("Ramp", "Rocks")),
        ),
        (
            "1x Sol Ring [Ramp] (c21) 263 #Staple",
            entry(1, "Sol Ring", "deck", 1, "C21", "263", tags=("Ramp", "Staple")),
        ),
        ("1 Fire // Ice", entry(1, "Fire // Ice", "deck", 1)),
        ("1 Borrowing 100,000 Arrows", entry(1, "Borrowing 100,000 Arrows", "deck", 1)),
        ("1 Atraxa, Praetors' Voice", entry(1, "Atraxa, Praetors' Voice", "deck", 1)),
        (
            "1 Jace, Vryn's Prodigy // Jace, Telepath Unbound",
            entry(1, "Jace, Vryn's Prodigy // Jace, Telepath Unbound", "deck", 1),
        ),
        ("2 Hanged Executioner", entry(2, "Hanged Executioner", "deck", 1)),
        ("1 Ach! Hans, Run!", entry(1, "Ach! Hans, Run!", "deck", 1)),
        ("1 Self-Assembler", entry(1, "Self-Assembler", "deck", 1)),
        (
            "1 B.F.M. (Big Furry Monster) (UGL) 28",
            entry(1, "B.F.M. (Big Furry Monster)", "deck", 1, "UGL", "28"),
        ),
        ("1 Erase (Not the Urza's Legacy One)", entry(1, "Erase (Not the Urza's Legacy One)", "deck", 1)),
        ("007 Relentless Rats", entry(7, "Relentless Rats", "deck", 1)),
        ("999 Relentless Rats", entry(999, "Relentless Rats", "deck", 1)),
        ("   4    Lightning   Bolt   ", entry(4, "Lightning Bolt", "deck", 1)),
        ("4\tLightning\tBolt\t(2XM)\t141", entry(4, "Lightning Bolt", "deck", 1, "2XM", "141")),
        ("SB: 2 Negate", entry(2, "Negate", "sideboard", 1)),
        ("sb:2 Negate", entry(2, "Negate", "sideboard", 1)),
    ],
)
def test_card_line(line, expected):
    assert parse_decklist(line).entries == (expected,)


def test_line_numbers_count_blank_and_comment_lines():
    text = "# my deck\n\n// notes\n; more notes\n4 Lightning Bolt\n\n\n2 Counterspell\n"
    deck = parse_decklist("Deck\n" + text)
    assert deck.entries == (
        entry(4, "Lightning Bolt", "deck", 6),
        entry(2, "Counterspell", "deck", 9),
    )


def test_windows_line_endings_bom_and_old_mac_endings():
    assert parse_decklist("\ufeffDeck\r\n4 Lightning Bolt\r\n1 Sol Ring\r\n").entries == (
        entry(4, "Lightning Bolt", "deck", 2),
        entry(1, "Sol Ring", "deck", 3),
    )
    assert parse_decklist("Deck\r4 Lightning Bolt\r").entries == (entry(4, "Lightning Bolt", "deck", 2),)


# --- Arena / Moxfield / Archidekt with headers --------------------------------------------------

ARENA = """\
About
Name Go Wide
mana: generic
Level = 3
1 Sol Ring

Commander (1)
1 Atraxa, Praetors' Voice (ONE) 196

Deck (3)
2 Swamp (ONE) 270
1 Sol Ring (C21) 263

Sideboard:
1 Negate (M20) 69

Companion
1 Lurrus of the Dream-Den (IKO) 226

Tokens
55 Zombie (TMH2)

Maybeboard
1 Doubling Season
"""


def test_arena_export_with_all_sections():
    deck = parse_decklist(ARENA, "go-wide.txt")
    assert deck.path == "go-wide.txt"
    assert deck.about == {"name": "Go Wide", "mana": "generic", "level": "3", "1": "Sol Ring"}
    assert deck.entries == (
        entry(1, "Atraxa, Praetors' Voice", "commander", 8, "ONE", "196"),
        entry(2, "Swamp", "deck", 11, "ONE", "270"),
        entry(1, "Sol Ring", "deck", 12, "C21", "263"),
        entry(1, "Negate", "sideboard", 15, "M20", "69"),
        entry(1, "Lurrus of the Dream-Den", "companion", 18, "IKO", "226"),
        entry(55, "Zombie", "tokens", 21, "TMH2"),
        entry(1, "Doubling Season", "maybeboard", 24),
    )
    assert deck.section("deck") == deck.entries[1:3]
    assert deck.section("commander") == deck.entries[:1]
    assert deck.section("Mainboard") == deck.entries[1:3]
    assert deck.count() == 1 + 3 + 1 + 1 + 55 + 1
    assert deck.count("deck") == 3
    assert deck.count("tokens") == 55
    assert deck.count("sideboard") == 1


@pytest.mark.parametrize(
    "header, section",
    [
        ("Commander", "commander"),
        ("Commanders", "commander"),
        ("COMMANDER:", "commander"),
        ("Commander (1)", "commander"),
        ("Deck", "deck"),
        ("deck (99)", "deck"),
        ("Mainboard", "deck"),
        ("Main:", "deck"),
        ("Sideboard", "sideboard"),
        ("sideboard (15):", "sideboard"),
        ("Tokens", "tokens"),
        ("Token", "tokens"),
        ("Companion", "companion"),
        ("Maybeboard", "maybeboard"),
        ("Considering", "maybeboard"),
        ("  Considering :  ", "maybeboard"),
    ],
)
def test_headers(header, section):
    assert parse_decklist(f"{header}\n1 Sol Ring").entries == (entry(1, "Sol Ring", section, 2),)


def test_lines_before_any_header_are_the_deck():
    deck = parse_decklist("1 Sol Ring\nCommander\n1 Atraxa, Praetors' Voice\n\n1 Island")
    assert deck.entries == (
        entry(1, "Sol Ring", "deck", 1),
        entry(1, "Atraxa, Praetors' Voice", "commander", 3),
        entry(1, "Island", "commander", 5),
    )


def test_about_section_styles_and_comments():
    text = "About\n# a comment\nName Go Wide: The Return\nKey = a = b\nAuthor:Someone\nNotes\n"
    text += "Deck\n1 Sol Ring\n"
    deck = parse_decklist(text)
    assert deck.about == {"name": "Go Wide: The Return", "key": "a = b", "author": "Someone", "notes": ""}
    assert deck.entries == (entry(1, "Sol Ring", "deck", 8),)


def test_sideboard_prefix_inside_a_section():
    deck = parse_decklist("Deck\n4 Lightning Bolt\nSB: 1 Negate\n1 Island")
    assert [e.section for e in deck.entries] == ["deck", "sideboard", "deck"]


# --- the exports of the deck sites, as they write them ----------------------------------------


@pytest.mark.parametrize(
    "line, expected",
    [
        # Archidekt: the commander is a category, with its layout flag
        ("1x Atla Palani, Nest Tender (m20) 191 [Commander{top}]",
         entry(1, "Atla Palani, Nest Tender", "commander", 1, "M20", "191", tags=("Commander",))),
        ("1x Sephiroth, Fabled SOLDIER // Sephiroth, One-Winged Angel (fin) 382 *F* [Commander{top}]",
         entry(1, "Sephiroth, Fabled SOLDIER // Sephiroth, One-Winged Angel", "commander", 1, "FIN", "382", True,
               ("Commander",))),
        ("1x Aerith Gainsborough (fin) 4 [(New) Maybeboard{noDeck}{noPrice},Creature]",
         entry(1, "Aerith Gainsborough", "maybeboard", 1, "FIN", "4", tags=("(New) Maybeboard", "Creature"))),
        ("1x Negate (m20) 69 [Sideboard{noDeck}{noPrice}]",
         entry(1, "Negate", "sideboard", 1, "M20", "69", tags=("Sideboard",))),
        ("1x Sol Ring (c21) 263 [Ramp] ^Have,#37d67a^", entry(1, "Sol Ring", "deck", 1, "C21", "263", tags=("Ramp",))),
        # Moxfield and TappedOut: the commander marker
        ("1 Arahbo, Roar of the World (C17) 27 *CMDR*", entry(1, "Arahbo, Roar of the World", "commander", 1, "C17", "27")),
        ("1x Krenko, Mob Boss *CMDR*", entry(1, "Krenko, Mob Boss", "commander", 1)),
        ("1 Krenko, Mob Boss (DDT) 52 *F* *CMDR*", entry(1, "Krenko, Mob Boss", "commander", 1, "DDT", "52", True)),
        ("1 Arcane Signet #!Commander", entry(1, "Arcane Signet", "deck", 1, tags=("Commander",))),  # a tag only
        # TappedOut's markdown: bullets and prices
        ("* 1 Sol Ring $1.50", entry(1, "Sol Ring", "deck", 1)),
        ("- 2 Forest $0.25", entry(2, "Forest", "deck", 1)),
    ],
)
def test_export_card_lines(line, expected):
    assert parse_decklist(line).entries == (expected,)


def test_moxfield_category_headings_are_groups_of_the_deck():
    text = ("Commander (1)\n1 Atraxa, Praetors' Voice (NCC) 5\n\nCreatures (2)\n1 Llanowar Elves\n1 Elvish Mystic\n\n"
            "Other (1)\n1 Sol Ring (C21) 263\n\nSideboard (1)\n1 Negate")
    assert [(e.name, e.section, e.line) for e in parse_decklist(text).entries] == [
        ("Atraxa, Praetors' Voice", "commander", 2), ("Llanowar Elves", "deck", 5), ("Elvish Mystic", "deck", 6),
        ("Sol Ring", "deck", 9), ("Negate", "sideboard", 12)]


def test_tappedout_markdown_export():
    text = ("**Commanders (1):**\n#!Commander\n* 1 Sigarda, Host of Herons $5.00\n\n**Mainboard (2):**\n#!Mainboard\n"
            "* 1 Sol Ring $1.50\n* 1 Swords to Plowshares $2.10\n")
    assert [(e.count, e.name, e.section) for e in parse_decklist(text).entries] == [
        (1, "Sigarda, Host of Herons", "commander"), (1, "Sol Ring", "deck"), (1, "Swords to Plowshares", "deck")]


DEK = """\
<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="53" Quantity="1" Sideboard="false" Name="Lim-D&#251;l&apos;s Vault" Annotation="0" />
  <Cards CatID="79038" Quantity="12" Sideboard="false" Name="Forest" Annotation="0" />
  <Cards CatID="61202" Quantity="1" Sideboard="true" Name="Reaper King" Annotation="0" />
</Deck>
"""


def test_mtgo_dek_xml():
    deck = parse_decklist(DEK, "deck.dek")
    assert deck.entries == (entry(1, "Lim-Dûl's Vault", "deck", 5), entry(12, "Forest", "deck", 6),
                            entry(1, "Reaper King", "sideboard", 7))
    assert parse_decklist("\ufeff" + DEK.replace("\n", "\r\n")).entries == deck.entries


DEK_ELEMENT = ("expected an element of an MTGO .dek file, like '<Cards CatID=\"1\" Quantity=\"1\" "
               "Sideboard=\"false\" Name=\"Sol Ring\" />'")


@pytest.mark.parametrize(
    "line, expected",
    [
        ('<Cards CatID="1" Quantity="x" Sideboard="false" Name="Sol Ring" />', "bad count 'x'" + COUNT),
        ('<Cards CatID="1" Quantity="0" Sideboard="false" Name="Sol Ring" />', "bad count '0'" + COUNT),
        ('<Cards CatID="1" Sideboard="false" Name="Sol Ring" />', "a <Cards> element without its Quantity: " + DEK_ELEMENT),
        ('<Cards CatID="1" Quantity="1" Sideboard="false" />', "a <Cards> element without its Name: " + DEK_ELEMENT),
        ('<Cards CatID="1" Quantity="1" Sideboard="maybe" Name="Sol Ring" />',
         "Sideboard='maybe': expected \"true\" or \"false\""),
        ('<Card CatID="1" Quantity="1" Sideboard="false" Name="Sol Ring" />', DEK_ELEMENT),
        ('<Cards CatID="1" Quantity="1" Sideboard="false" Name="Sol Ring" /> 1 Island', DEK_ELEMENT),
        ('<Cards CatID="1" Quantity="1" Sideboard="false" Name="Sol Ring"', DEK_ELEMENT),
        ("1 Sol Ring", DEK_ELEMENT),
    ],
)
def test_mtgo_dek_errors_name_the_file_and_line(line, expected):
    lines = DEK.splitlines()
    lines[5] = line
    assert error_text("\n".join(lines), "deck.dek") == "deck.dek:6: " + expected


# --- MTGO .txt -------------------------------------------------------------------------------


def test_mtgo_blank_line_starts_the_sideboard():
    text = "\n4 Lightning Bolt\n20 Mountain\n\n\n3 Smash to Smithereens\n// still sideboard\n\n2 Pyroblast\n"
    assert parse_decklist(text).entries == (
        entry(4, "Lightning Bolt", "deck", 2),
        entry(20, "Mountain", "deck", 3),
        entry(3, "Smash to Smithereens", "sideboard", 6),
        entry(2, "Pyroblast", "sideboard", 9),
    )


def test_mtgo_blank_line_rule_off_when_any_header_appears():
    text = "4 Lightning Bolt\n\n20 Mountain\nSideboard\n3 Smash to Smithereens"
    assert parse_decklist(text).entries == (
        entry(4, "Lightning Bolt", "deck", 1),
        entry(20, "Mountain", "deck", 3),
        entry(3, "Smash to Smithereens", "sideboard", 5),
    )


def test_mtgo_sb_prefix_lines():
    text = "4 Lightning Bolt\n20 Mountain\nSB: 3 Smash to Smithereens"
    assert [(e.name, e.section) for e in parse_decklist(text).entries] == [
        ("Lightning Bolt", "deck"),
        ("Mountain", "deck"),
        ("Smash to Smithereens", "sideboard"),
    ]


def test_empty_text_is_an_empty_deck():
    deck = parse_decklist("")
    assert deck == Decklist("<text>", (), {})
    assert deck.count() == 0
    assert parse_decklist("\n\n# nothing\n").entries == ()


def test_unknown_section_name_is_a_programming_error():
    with pytest.raises(ValueError):
        parse_decklist("1 Sol Ring").section("graveyard")


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Sol Ring", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\nSol Ring", "deck.txt:2: " + CARD + "'Sol Ring'"),
        ("Deck\n1 Island\n  Sol   Ring ", "deck.txt:3: " + CARD + "'Sol Ring'"),
        ("Graveyard:\n1 Sol Ring", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\nGraveyard:\n1 Sol Ring", "deck.txt:2: " + CARD + "'Graveyard:'"),
        ("Deck (ninety)", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\nDeck (ninety)", "deck.txt:2: " + CARD + "'Deck (ninety)'"),
        ("1 Island\n4", "deck.txt:2: " + CARD + "'4'"),
        ("4x ", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\n4x ", "deck.txt:2: " + CARD + "'4x'"),
        ("1 (C21) 263", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\n1 (C21) 263", "deck.txt:2: " + CARD + "'1 (C21) 263'"),
        ("1 *F* #Ramp", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\n1 *F* #Ramp", "deck.txt:2: " + CARD + "'1 *F* #Ramp'"),
        ("1 Sol Ring (C21 263", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\n1 Sol Ring (C21 263", "deck.txt:2: " + CARD + "'1 Sol Ring (C21 263'"),
        ("1 Sol Ring [Ramp", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\n1 Sol Ring [Ramp", "deck.txt:2: " + CARD + "'1 Sol Ring [Ramp'"),
        ("4xLightning Bolt", "deck.txt:1: " + NOT_A_DECK),
        ("1 Island\n4xLightning Bolt", "deck.txt:2: " + CARD + "'4xLightning Bolt'"),
        ("0 Sol Ring", "deck.txt:1: bad count '0'" + COUNT),
        ("00x Sol Ring", "deck.txt:1: bad count '00'" + COUNT),
        ("-1 Sol Ring", "deck.txt:1: bad count '-1'" + COUNT),
        ("1000 Sol Ring", "deck.txt:1: bad count '1000'" + COUNT),
        ("1.5 Sol Ring", "deck.txt:1: bad count '1.5'" + COUNT),
        ("SB: 0 Negate", "deck.txt:1: bad count '0'" + COUNT),
        ("9" * 5000 + " Sol Ring", "deck.txt:1: bad count '" + "9" * 77 + "... (5000 characters)'" + COUNT),
    ],
)
def test_error_messages(text, expected):
    assert error_text(text) == expected


def test_error_is_one_line_with_path_and_line():
    with pytest.raises(DeckError) as caught:
        parse_decklist("Deck\n1 Sol Ring\nSol\x0bRing\u2028here", "decks/wide.txt")
    error = caught.value
    assert (error.path, error.line) == ("decks/wide.txt", 3)
    assert str(error) == "decks/wide.txt:3: " + CARD + "'Sol Ring here'"
    assert len(str(error).splitlines()) == 1


def test_long_lines_are_shortened_in_errors():
    message = error_text("Deck\n" + "x" * 500)
    assert message.endswith("got '" + "x" * 77 + "... (500 characters)'")


def test_a_file_that_is_no_decklist_is_not_quoted():
    """A path given by mistake (or on purpose, in a shared experiment file) to a file that is no
    decklist: the error names the file and line, never its content."""
    message = error_text("root:x:0:0:root:/root:/bin/bash\nsecret\n", "/etc/passwd")
    assert message == "/etc/passwd:1: " + NOT_A_DECK
    assert "root" not in message.removeprefix("/etc/passwd")


def test_a_card_name_longer_than_the_limit_is_refused_and_cut_short():
    message = error_text("Deck\n1 " + "A" * 120_061)
    assert message.startswith("deck.txt:2: a card name of 120,061 characters, 'AAAA") and len(message) < 200


def test_a_decklist_of_more_than_ten_thousand_cards_is_refused():
    assert error_text("999 Island\n" * 11) == ("deck.txt:11: more than 10,000 cards: a decklist holds at most "
                                                  "10,000 (docs/limits.md)")


def test_default_path_in_errors():
    with pytest.raises(DeckError, match=r"^<text>:1: "):
        parse_decklist("Sol Ring")


# --- files -----------------------------------------------------------------------------------


def test_read_decklist_utf8_with_bom(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_bytes("\ufeffDeck\r\n1 Lim-Dûl's Vault\r\n".encode("utf-8"))
    deck = read_decklist(path)
    assert deck.path == str(path)
    assert deck.entries == (entry(1, "Lim-Dûl's Vault", "deck", 2),)
    assert read_decklist(str(path)) == deck


def test_read_decklist_errors_name_the_path(tmp_path):
    missing = tmp_path / "missing.txt"
    with pytest.raises(DeckError) as caught:
        read_decklist(missing)
    assert str(caught.value).startswith(f"{missing}: cannot read decklist: ")

    with pytest.raises(DeckError) as caught:
        read_decklist(tmp_path)
    assert str(caught.value).startswith(f"{tmp_path}: cannot read decklist: ")

    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("1 Lim-Dûl's Vault\n".encode("latin-1"))
    with pytest.raises(DeckError) as caught:
        read_decklist(latin1)
    assert str(caught.value) == f"{latin1}: cannot read decklist: not UTF-8 text (bad byte at offset 7); save it as UTF-8"


def test_read_decklist_parse_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("Deck\n1 Sol Ring\nSol Ring\n", encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        read_decklist(path)
    assert str(caught.value).startswith(f"{path}:3: expected")


# --- never crashes ---------------------------------------------------------------------------


def parses_or_deck_error(text):
    try:
        deck = parse_decklist(text, "fuzz.txt")
    except DeckError as error:
        assert error.path == "fuzz.txt" and isinstance(error.line, int)
        assert len(str(error).splitlines()) == 1
        return
    assert isinstance(deck, Decklist)
    for found in deck.entries:
        assert 1 <= found.count <= 999 and found.name and found.name == found.name.strip()
        assert found.section in ("commander", "deck", "sideboard", "tokens", "companion", "maybeboard")


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_arbitrary_text_never_crashes(text):
    parses_or_deck_error(text)


SEED_LINES = ARENA.splitlines() + [
    "1x Sol Ring (c21) 263 *F* [Ramp{noDeck}, Rocks] #Staple #!Pinned",
    "SB: 2 Negate",
    "1 B.F.M. (Big Furry Monster) (UGL) 28",
    "4X Fire // Ice",
    "",
    "// comment",
]
SPECIALS = "0123456789 xX()[]{}#*:;/=,!-\t\r\n\ufeff\u2028★FE"


@st.composite
def mutated_decklists(draw):
    lines = list(SEED_LINES)
    for _ in range(draw(st.integers(0, 8))):
        where = draw(st.integers(0, max(len(lines) - 1, 0)))
        action = draw(st.sampled_from(["delete", "duplicate", "insert"]))
        if not lines:
            lines.append("")
        elif action == "delete":
            del lines[where]
        elif action == "duplicate":
            lines.insert(where, lines[where])
        else:
            line = lines[where]
            at = draw(st.integers(0, len(line)))
            char = draw(st.sampled_from(SPECIALS) | st.characters())
            lines[where] = line[:at] + char + line[at:]
    return "\n".join(lines)


@settings(max_examples=200, deadline=None)
@given(mutated_decklists())
def test_mutated_decklists_never_crash(text):
    parses_or_deck_error(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DEK.splitlines() + ['<Cards Quantity="2" Name="A &amp; B" Sideboard="TRUE"/>', "",
                                                   "<Deck/>", "<!-- note -->"]), max_size=12),
       st.lists(st.tuples(st.integers(0, 400), st.text(SPECIALS + "<>\"'&;=/?!", max_size=4)), max_size=4))
def test_mutated_dek_files_never_crash(lines, edits):
    text = "\n".join(['<?xml version="1.0" encoding="utf-8"?>'] + lines)
    for at, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at:]
    parses_or_deck_error(text)
