"""Tokens from the text that makes them (111.4): a card's create clause or a Horde list's
description read into a token, the common Horde tokens bundled with their printed stats, and a
missing token's message saying how to define it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horde.cards.catalogue import Origin, bundled_catalogue
from horde.cards.decklists import parse_decklist
from horde.cards.decks import parse_horde_deck
from horde.cards.tokens import Token, described_token, matching_token, read_token
from horde.errors import DeckError

SPAWN = "Sacrifice this creature: Add {C}."


@pytest.mark.parametrize(
    "text, expected",
    [
        ('create two 0/1 colorless Eldrazi Spawn creature tokens with "Sacrifice this creature: Add {C}."',
         Token("Eldrazi Spawn", 0, 1, frozenset(), frozenset({"Creature"}), ("Eldrazi", "Spawn"), abilities=(SPAWN,),
               sacrifice_mana=(frozenset("C"),), count=2)),
        ("create three 1/1 colorless Eldrazi Scion creature tokens with \"Sacrifice ~: Add {C}.\"",  # as the compiler reads it
         Token("Eldrazi Scion", 1, 1, frozenset(), frozenset({"Creature"}), ("Eldrazi", "Scion"),
               abilities=(SPAWN,), sacrifice_mana=(frozenset("C"),), count=3)),
        ("Create a 3/3 green Dinosaur creature token with trample",
         Token("Dinosaur", 3, 3, frozenset("G"), frozenset({"Creature"}), ("Dinosaur",), keywords=frozenset({"trample"}))),
        ("create a tapped 2/2 black Zombie creature token",
         Token("Zombie", 2, 2, frozenset("B"), frozenset({"Creature"}), ("Zombie",), tapped=True)),
        ("create a 1/1 colorless Thopter artifact creature token with flying",
         Token("Thopter", 1, 1, frozenset(), frozenset({"Artifact", "Creature"}), ("Thopter",),
               keywords=frozenset({"flying"}))),
        ("create two 1/1 white and blue Bird creature tokens with flying and haste",
         Token("Bird", 1, 1, frozenset("WU"), frozenset({"Creature"}), ("Bird",), keywords=frozenset({"flying", "haste"}),
               count=2)),
        ('create a 0/1 green Plant creature token with "{T}: Add {G}."',
         Token("Plant", 0, 1, frozenset("G"), frozenset({"Creature"}), ("Plant",), mana=(frozenset("G"),),
               abilities=("{T}: Add {G}.",))),
        ("create a 1/1 black Rat creature token with \"This creature can't block.\"",
         Token("Rat", 1, 1, frozenset("B"), frozenset({"Creature"}), ("Rat",), keywords=frozenset({"can't block"}),
               abilities=("This creature can't block.",))),
        ("create a legendary 2/2 white Cat creature token named Voja",
         Token("Voja", 2, 2, frozenset("W"), frozenset({"Creature"}), ("Cat",), legendary=True)),
        # a Horde list's descriptions
        ("2/2 black Zombie", Token("Zombie", 2, 2, frozenset("B"), frozenset({"Creature"}), ("Zombie",))),
        ("1/1 colorless Eldrazi Spawn with 'Sacrifice this creature: Add {C}.'",
         Token("Eldrazi Spawn", 1, 1, frozenset(), frozenset({"Creature"}), ("Eldrazi", "Spawn"), abilities=(SPAWN,),
               sacrifice_mana=(frozenset("C"),))),
        ("5/5 black zombie giant", Token("Zombie Giant", 5, 5, frozenset("B"), frozenset({"Creature"}),
                                         ("Zombie", "Giant"))),
    ],
)
def test_111_4_a_token_is_read_from_the_text_that_makes_it(text, expected):
    assert read_token(text) == expected


@pytest.mark.parametrize(
    "text, reason",
    [
        ("create X 1/1 green Saproling creature tokens", "does not read as a token: expected power/toughness"),
        ("X/X green Ooze", "a token whose power and toughness are X/X is set by the card that makes it"),
        ('4/4 red Dragon with flying and "{R}: This creature gets +1/+0 until end of turn."',
         "the ability '{R}: This creature gets +1/+0 until end of turn.' is beyond what a described token can say"),
        ("1/1 red Elemental with banding", "'banding' is not a keyword the engine knows"),
        ("1/1 white Spirit with 'Flying", "an ability opened with ' is not closed"),
        ("Zombie", "does not read as a token"),
    ],
)
def test_111_4_a_text_that_describes_no_playable_token_says_why(text, reason):
    found = read_token(text)
    assert isinstance(found, str) and reason in found


@pytest.mark.parametrize(
    "name, power, toughness, colours, keywords, text",
    [
        ("Dinosaur", 3, 3, "G", {"trample"}, "Trample."),  # Regisaur Alpha
        ("Sliver", 1, 1, "", set(), ""),  # Sliver Queen
        ("Eldrazi Spawn", 0, 1, "", set(), SPAWN),  # Rise of the Eldrazi
        ("Eldrazi Scion", 1, 1, "", set(), SPAWN),  # Battle for Zendikar
        ("Saproling", 1, 1, "G", set(), ""),
        ("Goblin", 1, 1, "R", set(), ""),
        ("Spirit", 1, 1, "W", {"flying"}, "Flying."),
        ("Soldier", 1, 1, "W", set(), ""),
        ("Elemental", 1, 1, "R", set(), ""),  # Young Pyromancer
        ("Insect", 1, 1, "G", set(), ""),
        ("Rat", 1, 1, "B", {"can't block"}, "This creature can't block."),  # Rat Out
        ("Wolf", 2, 2, "G", set(), ""),
        ("Beast", 3, 3, "G", set(), ""),
        ("Thopter", 1, 1, "", {"flying"}, "Flying."),
        ("Knight", 2, 2, "W", {"vigilance"}, "Vigilance."),
    ],
)
def test_111_4_the_common_horde_tokens_are_bundled_as_printed(name, power, toughness, colours, keywords, text):
    token = bundled_catalogue().get(name)
    assert token.is_token and token.is_creature and not token.hooks
    assert (token.power, token.toughness, token.colours, token.keywords, token.text) == (
        power, toughness, frozenset(colours), frozenset(keywords), text)


def test_111_4_a_description_names_the_bundled_token_it_describes():
    catalogue = bundled_catalogue().copy()
    for text, name in [("2/2 black Zombie", "Zombie"), ("3/3 green Dinosaur with trample", "Dinosaur"),
                       ('0/1 colorless Eldrazi Spawn with "Sacrifice this creature: Add {C}."', "Eldrazi Spawn"),
                       ("1/1 black Rat with 'This creature can't block.'", "Rat"), ("1/1 colorless Sliver tokens", "Sliver")]:
        assert catalogue.get(text) is catalogue.get(name), text
    spawn = read_token("create a 0/1 colorless Eldrazi Spawn creature token with \"Sacrifice ~: Add {C}.\"")
    assert isinstance(spawn, Token) and spawn.sacrifice_mana == (frozenset("C"),)
    assert matching_token(spawn, catalogue.tokens) is catalogue.get("Eldrazi Spawn")


def test_111_4_a_description_of_a_token_not_bundled_defines_it():
    catalogue = bundled_catalogue().copy()
    ooze = catalogue.get("2/2 green Ooze with trample", "horde.txt", 7)
    assert (ooze.name, ooze.power, ooze.toughness, ooze.colours, ooze.keywords, ooze.is_token) == (
        "Ooze", 2, 2, frozenset("G"), frozenset({"trample"}), True)
    assert catalogue.get("Ooze") is ooze and catalogue.origins["Ooze"].kind == "described"
    # a different token of a bundled token's name is its own token, named by its description
    big = catalogue.get("3/3 black Zombie")
    assert big.name == "3/3 black Zombie" and catalogue.get("Zombie").power == 2
    assert matching_token(read_token("3/3 black Zombie"), catalogue.tokens) is None  # type: ignore[arg-type]
    assert described_token("Grave Titan", catalogue.tokens) is None


def test_H5_a_horde_list_of_described_tokens_plays(tmp_path):
    from horde.play import play_game, prepare
    from horde.setup import make_setup

    path = tmp_path / "eldrazi.txt"
    path.write_text("About\nKind horde\nBuild fixed\n\nDeck\n2 Grave Titan\n\nTokens\n"
                    '30 0/1 colorless Eldrazi Spawn with "Sacrifice this creature: Add {C}."\n'
                    "30 2/2 green Ooze with trample\n")
    setup = make_setup("zombie-horde", horde_deck=str(path), players=2, boss="none", lieutenants=False)
    result = play_game(prepare(setup), 3)
    assert result.turns > 0


def test_a_missing_token_says_how_to_define_it(tmp_path):
    """The fault: a token no card file defines got "did you mean 'Gigantosaurus'?"."""
    catalogue = bundled_catalogue()
    text = "About\nKind horde\nBuild fixed\n\nDeck\n10 Grave Titan\n\nTokens\n30 Ooze\n20 Eldrazi Spawns tokens\n"
    problems: list = []
    parse_horde_deck(parse_decklist(text, "horde.txt", "horde"), catalogue, problems)
    messages = [p.one_line() for p in problems]
    assert messages == [
        "horde.txt:9: unknown token 'Ooze': a token is described in the list by its power/toughness, colours, subtypes "
        "and keywords, e.g. '20 2/2 black Ooze' or '20 1/1 white Ooze with flying', or defined in a card file given "
        "with --cards ('Name: Ooze', 'Type: Token Creature — Ooze', 'Colors: B', 'PT: 2/2'; docs/cards.md)",
        "horde.txt:10: unknown token 'Eldrazi Spawns' (close names: 'Eldrazi Spawn'): a token is "
        "described in the list by its power/toughness, colours, subtypes and keywords, e.g. '20 2/2 black Eldrazi "
        "Spawns' or '20 1/1 white Eldrazi Spawns with flying', or defined in a card file given with --cards ('Name: "
        "Eldrazi Spawns', 'Type: Token Creature — Eldrazi Spawns', 'Colors: B', 'PT: 2/2'; docs/cards.md)"]
    assert not any("did you mean" in m for m in messages)


def test_a_description_that_cannot_play_names_the_line(tmp_path):
    catalogue = bundled_catalogue().copy()
    with pytest.raises(DeckError, match=r"^horde.txt:4: 'X/X green Ooze': a token whose power and toughness"):
        catalogue.get("X/X green Ooze", "horde.txt", 4)


def test_111_4_a_create_clause_gives_its_count_and_the_token_to_play():
    """What the compiler asks of a card's create clause: how many, and which token card."""
    from horde.cards.tokens import token_card

    tokens = bundled_catalogue().tokens
    scions = read_token('create three 1/1 colorless Eldrazi Scion creature tokens with "Sacrifice ~: Add {C}."')
    assert isinstance(scions, Token) and scions.count == 3
    assert token_card(scions, tokens) is tokens["Eldrazi Scion"]
    oozes = read_token("create two 2/2 green Ooze creature tokens with trample")
    assert isinstance(oozes, Token)
    ooze = token_card(oozes, tokens, "index:Ooze Maker")
    assert (ooze.name, ooze.source, ooze.is_token, oozes.count) == ("Ooze", "index:Ooze Maker", True, 2)
    zombies = read_token("create a 4/4 black Zombie creature token")
    assert isinstance(zombies, Token) and token_card(zombies, tokens).name == "4/4 black Zombie"


def test_111_4_a_described_token_never_takes_a_card_s_name():
    catalogue = bundled_catalogue().copy()
    titan = catalogue.get("Grave Titan")
    token = catalogue.get("6/6 black Grave Titan")  # a token whose subtypes spell a card's name
    assert token.is_token and token.name == "6/6 black Grave Titan" and catalogue.get("Grave Titan") is titan

PIECES = ["create ", "two ", "a ", "tapped ", "legendary ", "1/1 ", "0/1 ", "X/X ", "99/99 ", "white ", "colorless ",
          "and ", ", ", "Eldrazi ", "Spawn ", "zombie ", "artifact ", "creature ", "tokens ", "named Voja ", "with ",
          "flying", " and ", '"', "'", "\u201c", "\u201d", "Sacrifice this creature: Add {C}.", "{T}: Add {G}.", "."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=16), st.text(max_size=6))
def test_any_text_reads_as_a_token_or_a_reason(pieces, noise):
    text = "".join(pieces) + noise
    found = read_token(text)
    assert isinstance(found, Token | str)
    catalogue = bundled_catalogue().copy()
    try:
        card = catalogue.get(text, "horde.txt", 1)
    except DeckError as error:
        assert error.line == 1 and len(error.one_line().splitlines()) == 1
    else:
        assert card.name


def test_111_4_an_index_card_creates_the_token_its_text_describes(tmp_path, monkeypatch):
    """A real MTGJSON entry whose token nobody bundled compiles exactly, its token is added to the
    catalogue the card is compiled for, and in a game it creates exactly that token."""
    from horde.cards.cardindex import import_atomic_cards
    from horde.engine import rules
    from horde.engine.state import HORDE_CONTROLLER
    from horde.play import new_game, prepare
    from horde.setup import make_setup

    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_atomic_cards(Path(__file__).parent / "data" / "mtgjson" / "AtomicCards-tokens.json")
    path = tmp_path / "queens.txt"
    path.write_text("About\nKind horde\nBuild fixed\n\nDeck\n4 Hornet Queen\n4 Penumbra Spider\n\nTokens\n"
                    "30 1/1 green Insect with flying and deathtouch\n30 Zombie\n")
    prepared = prepare(make_setup("zombie-horde", horde_deck=str(path), players=1, boss="none", lieutenants=False))
    catalogue = prepared.catalogue
    insect = "1/1 green Insect with deathtouch and flying"
    assert catalogue.origins["Hornet Queen"].kind == "compiled"
    assert catalogue.origins[insect] == Origin("created", "Hornet Queen")
    assert catalogue.origins["2/4 black Spider with reach"] == Origin("created", "Penumbra Spider")
    assert catalogue.get("1/1 green Insect with flying and deathtouch") is catalogue.tokens[insect]  # the list's line
    game = new_game(prepared, 1)
    game.horde.library.clear()
    queen = rules.put_onto_battlefield(game, catalogue.get("Hornet Queen"), HORDE_CONTROLLER, HORDE_CONTROLLER)
    made = [p for p in game.battlefield.horde if p is not queen]
    assert [(p.card.name, p.card.is_token, rules.power(game, p), rules.toughness(game, p), p.card.colours,
             p.card.types, p.card.subtypes, rules.has_keyword(game, p, "flying"), rules.has_keyword(game, p, "deathtouch"))
            for p in made] == [(insect, True, 1, 1, frozenset("G"), frozenset({"Creature"}), frozenset({"Insect"}), True,
                                True)] * 4
    spider = rules.put_onto_battlefield(game, catalogue.get("Penumbra Spider"), HORDE_CONTROLLER, HORDE_CONTROLLER)
    rules.destroy(game, spider)
    [token] = [p for p in game.battlefield.horde if p.card.name == "2/4 black Spider with reach"]
    assert (rules.power(game, token), rules.toughness(game, token), token.card.colours,
            rules.has_keyword(game, token, "reach")) == (2, 4, frozenset("B"), True)


def test_111_4_the_command_line_names_a_token_a_card_creates(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from horde.cards.cardindex import import_atomic_cards
    from horde.cli import cli

    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    import_atomic_cards(Path(__file__).parent / "data" / "mtgjson" / "AtomicCards-tokens.json")
    compiled = CliRunner().invoke(cli, ["cards", "compile", "--name", "Penumbra Spider",
                                        "Reach\nWhen Penumbra Spider dies, create a 2/4 black Spider creature token with reach."])
    assert compiled.exit_code == 0 and compiled.output.splitlines() == [
        "Keywords: reach", 'Dies: create_tokens token="2/4 black Spider with reach" count=1',
        "(a new token: '2/4 black Spider with reach': Token Creature — Spider 2/4 B, reach)"]
    path = tmp_path / "kobolds.txt"
    path.write_text("About\nKind horde\nBuild fixed\n\nDeck\n4 Kher Keep\n\nTokens\n30 Kobolds of Kher Keep\n")
    coverage = CliRunner().invoke(cli, ["cards", "coverage", str(path)])
    assert coverage.exit_code == 0, coverage.output
    assert coverage.output.splitlines()[1].split() == ["30", "Kobolds", "of", "Kher", "Keep", "created", "a", "token",
                                                       "the", "text", "of", "'Kher", "Keep'", "creates"]
    shown = CliRunner().invoke(cli, ["cards", "show", "Kobolds of Kher Keep"])
    assert shown.output.splitlines()[-1] == "Facts and behaviour: the text of 'Kher Keep' that creates it (111.4)"
