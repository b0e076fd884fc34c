"""The input contract (docs/limits.md): files read through one door (regular files only, at most a
kind's size, UTF-8), every number checked against its limit, policy parameters of their declared
type, decks of the kind they say, and errors that stay one line and never echo a file that is no
decklist. Each test names the item of issue 17 it is the regression test of."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS, one_line_error

from horde.cards.catalogue import load_catalogue
from horde.cli import cli
from horde.errors import DeckError, HordeError
from horde.lab.experiments import load_experiment
from horde.limits import SEED_MAX, quoted, whole_number
from horde.play import prepare
from horde.setup import SetupError, make_setup

SMALL = ["--horde", "mini", "--team", "white", "--team", "white", "--players", "2", "--boss", "none"]
EXPERIMENT = ('name = "small"\nseed = 3\n[setup]\nhorde_deck = "mini-recipe"\nteam_decks = ["white", "white"]\n'
              'players = 2\nboss = "none"\n[run]\ngames = 2\n')


@pytest.fixture
def runner(decks):
    return CliRunner()


def run(runner, *arguments):
    return runner.invoke(cli, [str(a) for a in arguments])


# ---------------------------------------------------------------- 1, 2: experiment files


@pytest.mark.parametrize("encoding, expected", [
    ("utf-16", "it is UTF-16 text (as Windows Notepad saves it); save it as UTF-8"),
    ("latin-1", "not UTF-8 text (bad byte at offset"),
])
def test_item1_an_experiment_file_that_is_not_utf8_is_one_line(runner, tmp_path, encoding, expected):
    path = tmp_path / "x.toml"
    path.write_bytes(EXPERIMENT.replace('"small"', '"small"\ndescription = "Café"').encode(encoding))
    one_line_error(run(runner, "run", path, "--out", tmp_path / "out"), "cannot read experiment file", expected)
    assert not (tmp_path / "out").exists()


def test_item1_a_binary_experiment_file_is_one_line(runner, tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    one_line_error(run(runner, "run", path), "holds binary data (a NUL byte at offset 8)")


def test_item1_a_utf8_byte_order_mark_is_accepted_in_experiment_files_as_in_decklists(decks, tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b"\xef\xbb\xbf" + EXPERIMENT.encode())
    assert load_experiment(path).name == "small"


@pytest.mark.parametrize("depth", [9, 1000, 100_000])
def test_item2_arrays_nested_deep_are_refused_before_the_parser(runner, tmp_path, depth):
    path = tmp_path / "x.toml"
    path.write_text(EXPERIMENT + "[sweep]\nplayers = " + "[" * depth + "2" + "]" * depth + "\n")
    one_line_error(run(runner, "run", path), f"arrays and tables are nested {depth} deep", "at most 8")


def test_item2_brackets_inside_strings_and_comments_do_not_count(decks, tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(EXPERIMENT.replace('"small"', '"small"\ndescription = "[[[[[[[[[[ {{{{{{{{{{"  # ]]]]]]]]]]'
                                       + "\n# [[[[[[[[[[[[[[[[[[[["))
    assert load_experiment(path).description == "[[[[[[[[[[ {{{{{{{{{{"


# ---------------------------------------------------------------- 3, 9, 10: numbers of card files


CARD = "Name: Odd Card\nCost: {2}{B}\nType: Creature — Zombie\nPT: 2/2\n"


def card_error(tmp_path, text: str) -> str:
    path = tmp_path / "odd.txt"
    path.write_text(text)
    with pytest.raises(DeckError) as caught:
        load_catalogue([TEST_DECKS / "cards" / "test.txt", path])
    return caught.value.one_line()


@pytest.mark.parametrize("lines, expected", [
    ("HordeX: many", "card 'Odd Card': HordeX: expected a whole number from 0 to 100, got 'many'"),
    ("HordeX: 2.5", "HordeX: expected a whole number from 0 to 100, got '2.5'"),
    ("HordeX: ²", "HordeX: expected a whole number from 0 to 100, got '²'"),
    ("Enters: create_tokens token=Zombie count=1000000",
     "argument count: expected a whole number from 0 to 100, got '1000000'"),
    ("Enters: damage_each_opponent amount=٣", "argument amount: expected a whole number from 0 to 1000, got '٣'"),
    ("Colors: bleu", "Colors: unknown colour 'bleu': expected colour letters (WUBRG) or names"),
    ("Static: anthem filter=\"creature with-flyng\" power=1", "unknown filter term 'with-flyng'"),
    ("Enters: return_from_graveyard filter=creture", "unknown filter term 'creture'"),
])
def test_item3_every_number_and_field_of_a_card_file_is_checked(tmp_path, lines, expected):
    assert expected in card_error(tmp_path, CARD + lines + "\n")


@pytest.mark.parametrize("text, expected", [
    (CARD.replace("{2}{B}", "{²}{B}"), "mana symbol '{²}' is beyond the vocabulary"),
    (CARD.replace("{2}{B}", "{101}"), "mana: expected a whole number from 0 to 100, got '101'"),
    (CARD.replace("2/2", "2147483648/1"), "PT: expected a whole number from -1000 to 1000, got '2147483648'"),
    (CARD.replace("2/2", "-1/1"), None),
    ("Name: Odd Walker\nType: Legendary Planeswalker — Odd\nLoyalty: ²\n",
     "Loyalty: expected a whole number from 0 to 1000, got '²'"),
    ("Name: Odd Walker\nType: Legendary Planeswalker — Odd\nLoyalty: 3\nMinus: -X: draw count=1\n",
     "a loyalty change of X is beyond the vocabulary"),
    ("Name: Odd Walker\nType: Legendary Planeswalker — Odd\nLoyalty: 3\nMinus: −2: draw count=1\n", None),
])
def test_item3_item9_numbers_of_faces_and_costs(tmp_path, text, expected):
    if expected is None:
        path = tmp_path / "odd.txt"
        path.write_text(text)
        load_catalogue([TEST_DECKS / "cards" / "test.txt", path])
    else:
        assert expected in card_error(tmp_path, text)


SORCERY = "Name: Odd Spell\nCost: {1}{B}\nType: Sorcery\n"


@pytest.mark.parametrize("text, expected", [
    # every number inside an amount expression or a condition, within its argument's bounds
    (SORCERY + 'Cast: create_tokens token=Zombie count="99999999*X"\n',
     "argument count: expected a whole number from 0 to 100, got '99999999'"),
    (SORCERY + 'Cast: create_tokens token=Zombie count="count:zombie yours+500"\n',
     "argument count: expected a whole number from 0 to 100, got '500'"),
    (SORCERY + "Cast: poison count=2.5\n", "argument count: expected a whole number from 0 to 100, got '2.5'"),
    (SORCERY + 'Cast: draw count=1 if="hand:yours <= 99999"\n',
     "argument if: expected a whole number from 0 to 100, got '99999'"),
    (SORCERY + 'Cast: draw count=1 unless="hand:yours <= ²"\n', "argument unless: expected a whole number"),
    (SORCERY + 'Cast: destroy_all filter="creature mv<=99999999999999999999"\n',
     "filter term 'mv<=99999999999999999999': expected a whole number from 0 to 1000"),
    (SORCERY + 'Cast: destroy_all filter="creature power>=٣"\n', "unknown filter term 'power>=٣'"),
    # the fields of the wider vocabulary: one line each
    (SORCERY.replace("Sorcery", "Sorcery\nKicker: {²}") + "Cast: draw count=1\n", "mana symbol '{²}'"),
    (SORCERY.replace("Sorcery", "Sorcery\nMultikicker: {1000}") + "Cast: draw count=kicked\n",
     "mana: expected a whole number from 0 to 100, got '1000'"),
    (SORCERY.replace("Sorcery", "Sorcery\nChoose: " + "x" * 500) + "Mode: draw count=1\nMode: draw count=2\n",
     "bad 'Choose: xxx"),
    (CARD + 'CastFromGraveyard: extra="unclosed\n', "cannot read 'CastFromGraveyard: extra=\"unclosed'"),
    (CARD + "CastFromGraveyard: extra=99999\n", "argument extra: expected a whole number from 0 to 100, got '99999'"),
    (CARD + "Unearth: {101}\n", "mana: expected a whole number from 0 to 100, got '101'"),
    ("Name: Odd Aura\nCost: {B}\nType: Enchantment — Aura\nEnchant: creature with-flyng\n"
     "Enchanted: anthem power=1\n", "argument Enchant: unknown filter term 'with-flyng'"),
])
def test_item3_the_wider_vocabulary_s_numbers_and_fields_are_checked(tmp_path, text, expected):
    error = card_error(tmp_path, text)
    assert expected in error and len(error) < 400 and "\n" not in error


def test_item3_basic_is_a_card_term_every_filter_knows(tmp_path):
    path = tmp_path / "odd.txt"
    path.write_text(SORCERY + 'Cast: return_from_graveyard filter="basic land" to=hand\n')
    load_catalogue([TEST_DECKS / "cards" / "test.txt", path])


def test_item3_colors_are_read_as_words_or_letters_never_letter_by_letter(tmp_path):
    path = tmp_path / "odd.txt"
    path.write_text(CARD + "Colors: blue\n\n" + CARD.replace("Odd Card", "Odd Two") + "Colors: W, u\nIdentity: green\n")
    catalogue = load_catalogue([TEST_DECKS / "cards" / "test.txt", path])
    # CR 903.4: the identity keeps the cost's {B} whatever the Colors line says
    assert catalogue.get("Odd Card").colours == {"U"} and catalogue.get("Odd Card").identity == {"U", "B"}
    assert catalogue.get("Odd Two").colours == {"W", "U"} and catalogue.get("Odd Two").identity == {"W", "U", "G", "B"}


def test_item10_a_recipe_count_past_the_limit_is_refused(runner, tmp_path):
    deck = (TEST_DECKS / "horde" / "mini-recipe.txt").read_text().replace("Build recipe",
                                                                           "Build recipe\nCreatures 99999999999999")
    (tmp_path / "big.txt").write_text(deck)
    one_line_error(run(runner, "simulate", "--games", "1", "--horde", tmp_path / "big.txt", "--players", "1",
                       "--team", "white", "--boss", "none"), "About 'creatures'", "each from 0 to 200")


# ---------------------------------------------------------------- 4, 5: seeds and policy parameters


def test_item4_a_seed_past_int64_is_refused_at_load(runner, tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(EXPERIMENT.replace("seed = 3", f"seed = {SEED_MAX + 1}"))
    one_line_error(run(runner, "run", path), "seed = 9223372036854775808", "from 0 to 9223372036854775807")
    path.write_text(EXPERIMENT.replace("seed = 3", f"seed = {SEED_MAX}"))
    assert load_experiment(path).seed == SEED_MAX


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e300", "2.7", "[1, 2]", "{a = 1}", "true", '"12"'])
def test_item5_a_policy_parameter_of_the_wrong_type_is_refused(runner, tmp_path, value):
    path = tmp_path / "x.toml"
    path.write_text(EXPERIMENT.replace("[run]", f'policy = {{name = "control", wrath_threshold = {value}}}\n[run]'))
    one_line_error(run(runner, "run", path), "wrath_threshold")


@pytest.mark.parametrize("value", ["inf", "nan", "2.7", "1e20", "many"])
def test_item5_policy_params_on_the_command_line(runner, value):
    one_line_error(run(runner, "play", "--policy", "control", "--policy-param", f"wrath_threshold={value}", *SMALL),
                   "wrath_threshold")


def test_item5_a_whole_number_parameter_is_played_as_recorded(decks):
    setup = make_setup(horde_deck="mini", team_decks=["white"] * 2, players=2, boss="none", policy="control",
                       policy_params="wrath_threshold=8")
    assert dict(setup.policy_params) == {"wrath_threshold": 8}
    assert prepare(setup).new_policy().wrath_threshold == 8


def test_item5_a_parameter_value_may_hold_commas():
    # the pieces after a key=value that hold no '=' belong to its value: expert's decisions
    setup = make_setup(policy="expert", policy_params="decisions=attackers,cast,blocks,margin=2")
    assert dict(setup.policy_params) == {"decisions": "attackers,cast,blocks", "margin": 2}
    with pytest.raises(SetupError, match="expected key=value pairs like wrath_threshold=12"):
        make_setup(policy="control", policy_params="attackers,wrath_threshold=8")


# ---------------------------------------------------------------- 8: files that are not files


@pytest.fixture(params=["device", "fifo", "folder"])
def not_a_file(request, tmp_path) -> Path:
    if request.param == "device":
        return Path("/dev/zero")
    if request.param == "folder":
        return tmp_path
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX devices and FIFOs")
def test_item8_a_device_fifo_or_folder_is_refused_at_once(runner, tmp_path, not_a_file):
    """Refused unread: a FIFO with no writer is never waited on (a test that hangs fails by the
    suite's guard), and /dev/zero is never read (its bytes would be a size or binary-data error)."""
    one_line_error(run(runner, "play", *SMALL[2:], "--horde", not_a_file), "cannot read decklist", "not a regular file")
    one_line_error(run(runner, "play", *SMALL, "--banlist", not_a_file), "cannot read banlist", "not a regular file")
    one_line_error(run(runner, "run", not_a_file), "cannot read experiment file", "not a regular file")
    if not not_a_file.is_dir():  # a folder of card files is fine
        one_line_error(run(runner, "decks", "check", "--cards", not_a_file, "white"), "cannot read card file",
                       "not a regular file")


def test_item8_a_file_past_its_kind_s_size_is_refused_unread(runner, tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:
        handle.truncate(2 * 1024 * 1024)  # sparse: 2 MiB of nothing
    one_line_error(run(runner, "play", *SMALL[2:], "--horde", big), "it is 2,097,152 bytes, more than the 1,048,576 a "
                   "decklist may hold (docs/limits.md)")


# ---------------------------------------------------------------- 11, 12: decks and banlists


def test_item11_a_team_deck_without_its_commander_is_not_taken_for_a_horde_deck(runner, tmp_path):
    text = (TEST_DECKS / "team" / "white.txt").read_text()
    lost = re.sub(r"Commander\n[^\n]*\n", "", text)
    path = tmp_path / "team.txt"
    path.write_text(lost)
    for kind in ((), ("--kind", "team")):  # its basic lands say it is a team deck
        checked = run(runner, "decks", "check", *kind, path)
        assert checked.exit_code == 2 and "expected exactly one card in a 'Commander' section, found 0" in checked.output
    plain = tmp_path / "plain.txt"
    plain.write_text("1 Serra Angel\n1 Wrath of God\n")  # nothing says what it is
    line = one_line_error(run(runner, "decks", "check", plain))
    assert "can't tell whether this is a Horde deck or a team deck: add 'Kind horde' or 'Kind team'" in line


def test_item11_a_team_deck_given_as_the_horde_is_refused(runner):
    one_line_error(run(runner, "play", "--horde", TEST_DECKS / "team" / "white.txt", "--players", "1", "--team", "white",
                       "--boss", "none"), "expected a Horde deck, got a team deck (it has a Commander section)")
    one_line_error(run(runner, "play", "--horde", "mini", "--players", "1", "--team", TEST_DECKS / "horde" / "mini.txt",
                       "--boss", "none"), "expected a team deck, got a Horde deck")


def test_item12_R3_banlist_names_match_in_any_case(decks, tmp_path, runner):
    banlist = tmp_path / "banlist.txt"
    banlist.write_text("1 serra angel\n1 WRATH OF GOD\n")
    setup = make_setup(horde_deck="mini", team_decks=["white"] * 2, players=2, boss="none", banlist=str(banlist))
    assert prepare(setup).banned == {"Serra Angel", "Wrath of God"}
    result = run(runner, "decks", "check", "--banlist", banlist, "white")
    assert "warning: 'Serra Angel' is on the banlist" in result.output


# ---------------------------------------------------------------- 16: messages and knobs


def test_item16_an_unknown_card_of_any_length_is_quoted_short(runner, tmp_path):
    deck = tmp_path / "team.txt"
    deck.write_text((TEST_DECKS / "team" / "white.txt").read_text() + "1 " + "Serra Angel" * 11_000 + "\n")
    line = one_line_error(run(runner, "decks", "check", deck))
    assert "a card name of 121,000 characters" in line and len(line) < 400


def test_item16_a_file_that_is_no_decklist_is_never_echoed(runner, tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("root:x:0:0:hunter2:/root:/bin/bash\n")
    path = tmp_path / "x.toml"
    for knob in ("horde_deck", "banlist"):
        path.write_text(EXPERIMENT.replace("[run]", f'{knob} = "{secret}"\n[run]').replace(
            'horde_deck = "mini-recipe"\n', "" if knob == "horde_deck" else 'horde_deck = "mini-recipe"\n'))
        line = one_line_error(run(runner, "run", path), f"{secret}:1: expected '<count> <card name>'")
        assert "hunter2" not in line and "root:x" not in line
    cards = tmp_path / "cards.txt"
    cards.write_text("root:x:0:0:hunter2:/root:/bin/bash\n")
    with pytest.raises(DeckError) as caught:
        load_catalogue([cards])
    assert "hunter2" not in caught.value.one_line()


def test_item16_a_policy_module_without_the_class_is_not_imported(runner, tmp_path, monkeypatch):
    marker = tmp_path / "imported"
    (tmp_path / "group_policy.py").write_text(f"open({str(marker)!r}, 'w').close()\n\nclass Other:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    one_line_error(run(runner, "play", *SMALL, "--policy", "group_policy:NeverChump"),
                   "module 'group_policy'", "defines no class 'NeverChump' (it was not imported)")
    assert not marker.exists()
    one_line_error(run(runner, "play", *SMALL, "--policy", "group_policy:Other"),
                   "has no policy class 'Other' with a choose(decision, view) method")
    assert marker.exists()  # a module that defines the class is imported, which runs its code
    one_line_error(run(runner, "play", *SMALL, "--policy", "no_such_group:Policy"), "no module 'no_such_group'")
    one_line_error(run(runner, "play", *SMALL, "--policy", "os; rm -rf:x"), "expected module:Class")


def test_item16_commander_casts_none_is_refused_not_read_as_unlimited(runner, decks):
    one_line_error(run(runner, "play", *SMALL, "--commander-casts", "none"),
                   "knob 'commander_casts' = 'none'", "or 'unlimited' ('none' could mean either: say which)")
    assert make_setup(commander_casts="unlimited").commander_casts is None
    assert make_setup(commander_casts=2).commander_casts == 2


def test_item16_a_knob_the_setup_does_not_use_is_refused(runner, decks):
    one_line_error(run(runner, "play", *SMALL, "--token-percent", "40"),
                   "knob 'token_percent' = 40 is not used by this setup", "is a fixed list")
    one_line_error(run(runner, "play", *SMALL, "--reveal-base", "5"), "knob 'reveal_base' = 5", "reveal = escalating")
    assert run(runner, "play", *SMALL, "--reveal", "escalating", "--reveal-base", "5").exit_code == 0
    recipe = ["--horde", "mini-recipe", *SMALL[2:]]
    assert run(runner, "play", *recipe, "--token-percent", "40").exit_code == 0


@pytest.mark.parametrize("preset, knob, value, why", [
    ("battle-the-horde", "life_per_player", 1000, "fixed_life = 20 sets the team's life"),
    ("battle-the-horde", "cards_per_player", 1, "the Horde deck is played whole"),
    ("face-the-hydra", "strong_tokens", 3, "is a fixed list"),
    ("overwhelming-numbers", "cards_per_player", 10, "horde_size = 200 sets the Horde deck's size"),
    ("zombie-horde", "hydra_heads", 3, "it counts only against the Hydra (F1)"),
    ("knudson-2011", "god_throngs", 2, "it counts only against Xenagos (G1)"),
])
def test_item16_the_opponents_knobs_that_another_overrides_are_refused(preset, knob, value, why):
    """A knob a preset's own knob overrides (a fixed shared life, a fixed deck size, a challenge
    deck played whole) or that only another opponent reads did nothing: refused, not recorded."""
    with pytest.raises(HordeError) as caught:
        prepare(make_setup(preset, **{knob: value}))
    line = caught.value.one_line()
    assert f"knob '{knob}' = {value} is not used by this setup: " in line and why in line, line
    assert caught.value.knob == knob
    prepare(make_setup(preset))  # the preset as it is uses every knob it sets


# ---------------------------------------------------------------- found by the fuzz suite


@pytest.mark.parametrize("text, fragment", [
    ("MIT License\n\nCopyright (c) 2024\n", "do not read as a card file"),
    ("1 Grave Titan\n4 Zombie\n", "do not read as a card file"),
    ("Name: Odd Card\nCost: {2}{B}\nType: Creature — Zombie\nPT: 2/2\n\nHordeX: 3\n", "no 'Name:' line"),
])
def test_a_card_file_that_names_no_card_is_refused_not_skipped(runner, tmp_path, text, fragment):
    """A licence or a decklist given as --cards used to be skipped without a word (its problem
    named no card, so no deck was refused): a file of other text now refuses the command."""
    path = tmp_path / "mine.txt"
    path.write_text(text)
    result = run(runner, "cards", "show", "Zombie", "--cards", path)
    if "Name:" in fragment:  # a field after a blank line starts a card with no name
        one_line_error(result, f"{path}:6: card block has no 'Name:' line")
    else:
        one_line_error(result, f"{path}:1: expected 'Field: value' lines of a card file", fragment)


@pytest.mark.parametrize("command", [["summary"], ["report"], ["compare", "x"]])
def test_a_results_folder_name_holding_a_nul_is_one_line(runner, command):
    """click's Path type stat()ed the name before horde saw it: a NUL in it was a ValueError."""
    one_line_error(run(runner, *command[:1], "bad\x00name", *command[1:]), "no such results folder")


# ---------------------------------------------------------------- the number checker


@pytest.mark.parametrize("value, expected", [
    (7, 7), ("7", 7), (" +7 ", 7), (7.0, 7), ("-0", 0),
    (True, None), (7.5, None), (float("inf"), None), (float("nan"), None), ("7.0", None), ("²", None),
    ("٣", None), ("1e3", None), ("1" * 31, None), (None, None), ([7], None), (11, None),
])
def test_whole_number_takes_only_plain_whole_numbers_within_bounds(value, expected):
    if expected is None:
        with pytest.raises(ValueError, match="expected a whole number from 0 to 10"):
            whole_number(value, 0, 10)
    else:
        assert whole_number(value, 0, 10) == expected


def test_quoted_values_are_cut_short_on_one_line():
    assert quoted("a\nb") == "'a b'" and quoted(12) == "12" and quoted([1]) == "[1]"
    assert quoted("x" * 1000) == "'" + "x" * 77 + "... (1000 characters)'"
    error = HordeError("x" * 5000 + "\n" + "y", "path", 3)
    assert len(error.one_line()) == 1600 and "\n" not in error.one_line()


@pytest.mark.parametrize("command", [["decks", "check"], ["run"], ["summary"], ["cards", "coverage"]])
def test_item16_a_path_thousands_of_characters_long_is_one_line_that_says_why(runner, command):
    """A name past the system's limit is no traceback (pathlib's exists() raises for it), and the
    error shows the path's start and end, then why: the path never crowds the reason out."""
    name = "a" * 5000 + ".txt"
    result = run(runner, *command, name)
    assert result.exit_code == 2 and "Traceback" not in result.output
    line = one_line_error(result)
    assert "a" * 200 + "..." + "a" * 196 + ".txt: " in line and len(line) < 600


def test_docs_limits_md_names_every_limit():
    """docs/limits.md states the input contract: every number of horde.limits and every file size."""
    from horde import limits
    from horde.cards.cardindex import FACES_MAX, INDEX_CARDS_MAX
    from horde.files import SIZES

    text = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text()
    text = " ".join(text.split())
    numbers = {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}
    numbers |= {"INDEX_CARDS_MAX": INDEX_CARDS_MAX, "FACES_MAX": FACES_MAX}
    for name, value in numbers.items():
        shown = f"{value:,}" if name != "SEED_MAX" else "9,223,372,036,854,775,807"
        if name == "INT64_MAX":
            continue
        assert re.search(rf"(?<![0-9])(?<![0-9],){re.escape(shown)}(?![0-9]|,[0-9])", text), \
            f"docs/limits.md does not name {name} ({shown})"
    rows = {"resolved experiment": "experiment.toml", "manifest": "manifest.json", "policy module": "module's source",
            "AtomicCards file": "AtomicCards"}
    for kind, size in SIZES.items():
        unit = f"{size // 2 ** 30} GiB" if size >= 2 ** 30 else f"{size // 2 ** 20} MiB"
        assert re.search(rf"\| [^|]*{re.escape(rows.get(kind, kind))}[^|]*\| {unit} \|", text), (kind, unit)
