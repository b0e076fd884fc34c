"""Any card by name: decks made of index cards play and report where each card comes from; an
unreadable card refuses its deck with the sentence quoted, or plays approximated (--approximate)
and says so in the output, the manifest, the results and the report; the user's card files
override the index and a broken one refuses only the decks that use it."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from horde.cards.cardindex import import_atomic_cards
from horde.cards.catalogue import bundled_catalogue, catalogue_for
from horde.cli import cli
from horde.errors import DeckError
from horde.play import prepare
from horde.setup import make_setup

FIXTURE = Path(__file__).parent / "data" / "mtgjson" / "AtomicCards.json"
# Real entries of the kinds a group's decks bring: planeswalkers, Auras, Equipment, lands, an
# adventure card, a */* creature (MTGJSON's shapes and Oracle texts).
MORE = Path(__file__).parent / "data" / "mtgjson" / "AtomicCards-more.json"
HORDE_DECK = """About
Kind horde
Build fixed

Deck
4 Lord of the Undead
4 Hollow Dogs
4 Highborn Ghoul
4 Doom Blade
{extra}
Tokens
24 Zombie
"""
GRAVECRAWLER_DROPPED = "You may cast Gravecrawler from your graveyard as long as you control a Zombie"
SMALL = ["--players", "2", "--cards-per-player", "10", "--boss", "none", "--no-lieutenants", "--seed", "3"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A data folder holding the card index of both fixtures."""
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    both = json.loads(FIXTURE.read_text())
    both["data"].update(json.loads(MORE.read_text())["data"])
    (tmp_path / "AtomicCards.json").write_text(json.dumps(both, ensure_ascii=False))
    import_atomic_cards(tmp_path / "AtomicCards.json")
    return tmp_path / "home"


def deck(tmp_path, extra="", name="index-zombies.txt") -> str:
    path = tmp_path / name
    path.write_text(HORDE_DECK.format(extra=extra))
    return str(path)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_a_deck_of_index_cards_loads_plays_and_reports_sources(home, tmp_path):
    path = deck(tmp_path)
    catalogue = catalogue_for()
    assert not {"Lord of the Undead", "Hollow Dogs", "Highborn Ghoul", "Doom Blade"} & set(bundled_catalogue().cards)
    result = run("simulate", "--horde", path, "--games", "5", "--workers", "1", "--quiet", *SMALL)
    assert result.exit_code == 0, result.output
    assert "games        5" in result.output and "APPROXIMATED" not in result.output
    coverage = run("cards", "coverage", path)
    assert coverage.exit_code == 0
    rows = {line.split()[1] + " " + line.split()[2]: line for line in coverage.output.splitlines()[:5]}
    assert "compiled" in rows["Lord of"] and "compiled" in rows["Doom Blade"]
    assert coverage.output.splitlines()[-2:] == ["40 cards: 16 compiled, 24 hand-written",
                                                 "card slots: 40 exact, 0 approximated, 0 blank, 0 refused"]
    assert catalogue.origins["Hollow Dogs"].kind == "compiled"
    show = run("cards", "show", "Hollow Dogs")
    assert "Attacks: pump on=self power=2  <-  'Whenever ~ attacks, it gets +2/+0 until end of turn'" in show.output


def test_an_unreadable_card_refuses_its_deck_with_the_sentence_quoted(home, tmp_path):
    path = deck(tmp_path, "4 Gravecrawler\n")
    result = CliRunner().invoke(cli, ["simulate", "--horde", path, "--games", "5", "--workers", "1", *SMALL])
    assert result.exit_code == 2
    line = result.output.strip()
    assert line.count("\n") == 0 and f"{path}:10:" in line
    assert ("card 'Gravecrawler' (compiler) is refused: not understood: 'You may cast ~ from your graveyard as "
            "long as you control a Zombie'") in line
    coverage = run("cards", "coverage", path)
    assert "Gravecrawler" in coverage.output and "refused" in coverage.output
    assert run("decks", "check", path).exit_code == 2


def test_approximate_plays_it_and_says_so_everywhere(home, tmp_path):
    path = deck(tmp_path, "4 Gravecrawler\n")
    result = run("simulate", "--horde", path, "--games", "5", "--workers", "1", "--quiet", "--approximate", *SMALL)
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if "Gravecrawler" in line] == [
        "  Gravecrawler: dropped 'You may cast Gravecrawler from your graveyard as long as you control a Zombie'"]
    assert ("  Gravecrawler: dropped 'You may cast Gravecrawler from your graveyard as long as you control a Zombie'"
            in result.output)
    assert "these results are not exact" in result.output
    card = catalogue_for((), True).get("Gravecrawler")
    assert card.keywords == frozenset({"can't block"}) and not card.hooks
    experiment = tmp_path / "approx.toml"
    experiment.write_text(f'name = "approx"\nseed = 1\n[setup]\nhorde_deck = "{path}"\nplayers = 2\n'
                          'cards_per_player = 10\nboss = "none"\nlieutenants = false\n[sweep]\n'
                          'approximate = [false, true]\n[run]\ngames = 4\n')
    out = tmp_path / "results"
    assert run("run", str(experiment), "--out", out, "--workers", "1", "--quiet").exit_code == 2  # exact cell refuses
    experiment.write_text(experiment.read_text().replace("[sweep]\napproximate = [false, true]", "approximate = true"))
    result = run("run", str(experiment), "--out", out, "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert "APPROXIMATED in cell 0 (base setup); these results are not exact:\n  Gravecrawler: dropped" in result.output
    folder = next(out.glob("approx-*"))
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["approximated"][0]["cards"] == {
        "Gravecrawler": ["You may cast Gravecrawler from your graveyard as long as you control a Zombie"]}
    games = pq.read_table(folder / "games.parquet").to_pandas()
    assert list(games["approximated"].map(list)) == [["Gravecrawler"]] * 4 and games["approximate"].all()
    summary = run("summary", str(folder))
    assert summary.output.startswith("APPROXIMATED: these results are not exact; played approximated: "
                                     "Gravecrawler\n")
    assert run("report", str(folder)).exit_code == 0
    page = (folder / "report.html").read_text()
    assert "Warning: approximated cards" in page and "NOT exact" in page and "Gravecrawler" in page
    assert run("report", str(folder), "--compare", str(folder), "--out", tmp_path / "compared.html").exit_code == 0
    assert "Warning: approximated cards in the compared results (approx)" in (tmp_path / "compared.html").read_text()
    compared = run("compare", str(folder), str(folder))
    assert compared.exit_code == 0, compared.output
    assert compared.output.startswith("APPROXIMATED: these results are not exact; played approximated: "
                                      "Gravecrawler\n")
    arms = run("compare", "--games", "3", "--workers", "1", "--quiet", "--a", "--approximate", "--b",
               "--approximate --policy control", "--horde", path, "--players", "2", "--cards-per-player", "10",
               "--boss", "none", "--no-lieutenants")
    assert arms.exit_code == 0, arms.output
    assert f"  Gravecrawler: dropped {GRAVECRAWLER_DROPPED!r}" in arms.output.splitlines()


def test_a_prepared_setup_names_where_its_cards_come_from_and_which_are_approximated(home, tmp_path):
    path = deck(tmp_path, "4 Gravecrawler\n")
    setup = make_setup("zombie-horde", horde_deck=path, players=2, cards_per_player=10, boss="none",
                       lieutenants=False, approximate=True)
    prepared = prepare(setup)
    assert prepared.approximated == {"Gravecrawler": (GRAVECRAWLER_DROPPED,)}
    kinds = {name: origin.kind for name, origin in prepared.origins().items()}
    assert {name: kind for name, kind in kinds.items() if kind != "hand-written"} == {
        "Doom Blade": "compiled", "Gravecrawler": "approximated", "Highborn Ghoul": "compiled",
        "Hollow Dogs": "compiled", "Lord of the Undead": "compiled"}
    assert kinds["Zombie"] == "hand-written"  # the token, from the bundled card files
    assert prepare(make_setup("zombie-horde", players=2)).approximated == {}


def test_play_tune_and_decks_check_name_the_approximated_cards(home, tmp_path):
    path = deck(tmp_path, "4 Gravecrawler\n")
    dropped = f"  Gravecrawler: dropped {GRAVECRAWLER_DROPPED!r}"
    played = run("play", "--horde", path, "--json", "--approximate", *SMALL)
    assert played.exit_code == 0, played.output
    events = [json.loads(line) for line in played.stdout.splitlines()]  # stdout: the game's events alone
    assert events[-1]["event"] == "game_over"
    assert dropped in played.stderr.splitlines()
    tuned = run("tune", "--knob", "grace-turns", "--low", "0", "--high", "1", "--batch", "4", "--max-games", "4",
                "--workers", "1", "--quiet", "--horde", path, "--approximate", "--players", "2",
                "--cards-per-player", "10", "--boss", "none", "--no-lieutenants")
    assert tuned.exit_code == 0, tuned.output
    assert dropped in tuned.stdout.splitlines()
    tuned_json = run("tune", "--knob", "grace-turns", "--low", "0", "--high", "1", "--batch", "4", "--max-games",
                     "4", "--workers", "1", "--quiet", "--json", "--horde", path, "--approximate", "--players", "2",
                     "--cards-per-player", "10", "--boss", "none", "--no-lieutenants")
    assert json.loads(tuned_json.stdout)["approximated"] == {"Gravecrawler": [GRAVECRAWLER_DROPPED]}
    checked = run("decks", "check", path, "--approximate")
    assert checked.exit_code == 0, checked.output
    assert f"{path}: approximated: 'Gravecrawler' plays approximated (its facts and the abilities read)" in checked.stdout.splitlines()


def test_exact_results_have_no_approximated_column(tmp_path):
    experiment = tmp_path / "exact.toml"
    experiment.write_text('name = "exact"\nseed = 1\n[setup]\nplayers = 2\n[run]\ngames = 2\n')
    assert run("run", str(experiment), "--out", tmp_path, "--workers", "1", "--quiet").exit_code == 0
    folder = next(tmp_path.glob("exact-*"))
    columns = pq.read_schema(folder / "games.parquet").names
    assert "approximated" not in columns and {"cards", "approximate"} <= set(columns)
    assert "approximated" not in json.loads((folder / "manifest.json").read_text())


USER_CARDS = """# My cards
Name: Gravecrawler
Cost: {B}
Type: Creature — Zombie Elemental
PT: 2/1
Keywords: can't block
Text: Gravecrawler can't block. You may cast Gravecrawler from your graveyard as long as you control a Zombie.

Name: Broken Thing
Cost: {1}{B}
Type: Creature — Zombie
PT: 2/2
Enters: explode everything
"""


def test_user_card_files_override_the_index_and_a_broken_card_refuses_only_its_decks(home, tmp_path, monkeypatch):
    cards = tmp_path / "mine.txt"
    cards.write_text(USER_CARDS)
    path = deck(tmp_path, "4 Gravecrawler\n")
    result = run("simulate", "--horde", path, "--games", "3", "--workers", "1", "--quiet", "--cards", cards, *SMALL)
    assert result.exit_code == 0, result.output
    coverage = run("cards", "coverage", path, "--cards", cards)
    assert f"hand-written  {cards}:2" in coverage.output
    broken = deck(tmp_path, "4 Broken Thing\n", "broken.txt")
    result = CliRunner().invoke(cli, ["decks", "check", broken, "--cards", str(cards)])
    assert result.exit_code == 2
    assert f"card 'Broken Thing' is refused: {cards}:13: card 'Broken Thing': unknown verb 'explode'" in result.output
    # Through HORDE_CARDS, and from an experiment's [setup] relative to its file.
    monkeypatch.setenv("HORDE_CARDS", str(cards))
    assert run("decks", "check", path).exit_code == 0
    monkeypatch.delenv("HORDE_CARDS")
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "e.toml").write_text(f'name = "mine"\nseed = 1\n[setup]\ncards = ["../mine.txt"]\n'
                                             f'horde_deck = "{path}"\nplayers = 2\ncards_per_player = 10\n'
                                             'boss = "none"\nlieutenants = false\n[run]\ngames = 2\n')
    result = run("run", tmp_path / "exp" / "e.toml", "--out", tmp_path / "res", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    games = pq.read_table(next((tmp_path / "res").glob("mine-*")) / "games.parquet").to_pandas()
    assert set(games["cards"]) == {str(cards)}


def test_bundled_commands_work_beside_a_broken_user_card(tmp_path):
    cards = tmp_path / "mine.txt"
    cards.write_text(USER_CARDS)
    result = run("simulate", "--games", "2", "--workers", "1", "--quiet", "--players", "2", "--cards", cards)
    assert result.exit_code == 0, result.output
    assert run("cards", "show", "Grave Titan", "--cards", cards).exit_code == 0


def test_cards_compile_prints_lines_or_the_sentence_it_cannot_read():
    ok = run("cards", "compile", "When this creature enters, each opponent discards a card.")
    assert ok.exit_code == 0 and ok.output == "Enters: discard who=each_opponent count=1\n"
    bad = CliRunner().invoke(cli, ["cards", "compile", "Flying. Whenever a land you control enters, surveil 1."])
    assert bad.exit_code == 2 and bad.output == "not understood: 'Whenever a land you control enters, surveil 1'\n"


def test_cards_recall_prints_the_figure():
    result = run("cards", "recall")
    assert result.exit_code == 0 and result.output.startswith("compiler recall: ")
    assert "; 0 differ" in result.output


def approximated(name):
    catalogue = catalogue_for((), True)
    card = catalogue.get(name)
    return card, catalogue.origins[card.name]


def test_approximation_keeps_every_ability_it_reads_and_lists_each_one_dropped(home):
    """Per ability, not per card: an Aura keeps its Enchant, Equipment its Equip, a land its mana,
    a planeswalker the loyalty abilities read (B3's places counted among all of them)."""
    rancor, origin = approximated("Rancor")
    assert origin.kind == "approximated" and rancor.enchant is not None
    assert [e.describe() for e in rancor.hooks["Enchanted"]] == ["anthem power=2 keywords=trample toughness=0"]
    assert origin.dropped == ("When Rancor is put into a graveyard from the battlefield, return Rancor to its "
                              "owner's hand",)
    clamp, origin = approximated("Skullclamp")  # exact now: 'whenever equipped creature dies' is AttachedDies
    assert str(clamp.equip) == "{1}" and origin.kind == "compiled" and "AttachedDies" in clamp.hooks
    vault, origin = approximated("Mutavault")
    assert vault.mana == (frozenset({"C"}),) and origin.dropped == (
        "{1}: Until end of turn, Mutavault becomes a 2/2 creature with all creature types. It's still a land",)
    jace, origin = approximated("Jace, Memory Adept")
    assert sorted(jace.hooks) == ["Plus"] and len(jace.abilities("Plus")) == 2
    assert origin.dropped == ("-7: Any number of target players each draw twenty cards",)
    with pytest.raises(DeckError, match="not understood: '-7: Any number"):
        catalogue_for().get("Jace, Memory Adept")


def test_keywords_come_from_the_cards_own_text_never_from_the_keywords_list(home):
    """MTGJSON's keywords list names keywords a card only grants (Archetype of Imagination: flying)."""
    archetype, origin = approximated("Archetype of Imagination")
    assert archetype.keywords == frozenset() and origin.kind == "approximated"
    assert [e.describe() for e in archetype.hooks["Static"]] == ["anthem filter=creature yours keywords=flying power=0 toughness=0"]
    vault, _ = approximated("Mutavault")
    assert vault.keywords == frozenset()  # 'Changeling' is in its keywords list, not its text


def test_a_star_creature_plays_by_its_characteristic_defining_ability(home):
    nightmare = catalogue_for().get("Nightmare")
    assert catalogue_for().origins["Nightmare"].kind == "compiled" and nightmare.keywords == frozenset({"flying"})
    assert [e.describe() for e in nightmare.hooks["Static"]] == ["pt_equals amount=count:swamp yours"]


def test_a_two_faced_card_plays_every_face_read_and_names_a_face_s_sentences(home):
    """An adventure card plays its creature and its Adventure (715); a sentence not read names the
    face it is of; a transform card plays its front face and is never exact (its back is not played)."""
    giant = catalogue_for().get("Beanstalk Giant")  # both faces read: exact
    assert catalogue_for().origins["Beanstalk Giant"].kind == "compiled" and giant.pt_amount is not None
    assert [(face.name, face.face, face.verbs) for face in giant.faces] == [
        ("Fertile Footsteps", "adventure", frozenset({"ramp"}))]
    with pytest.raises(DeckError, match="'Bonecrusher Giant' \\(compiler\\) is refused: not understood: .*"
                                        "\"Damage can't be prevented this turn \\[Stomp\\]\""):
        catalogue_for().get("Bonecrusher Giant")
    crusher, origin = approximated("Bonecrusher Giant")
    assert origin.kind == "approximated" and origin.blank and crusher.faces[0].name == "Stomp"
    assert origin.dropped[1] == "Damage can't be prevented this turn. Stomp deals 2 damage to any target [Stomp]"
    delver, origin = approximated("Delver of Secrets")
    assert origin.dropped[-1] == "(the front face of a transform card; its other face 'Insectile Aberration' is not " \
                                 "played)" and delver.faces == ()
    coverage = run("cards", "coverage", "--approximate", _one_card_deck(home.parent, "Delver of Secrets"))
    assert "Insectile Aberration" in coverage.output


def _one_card_deck(folder, name):
    path = folder / "one.txt"
    path.write_text(f"About\nKind horde\nBuild fixed\n\nDeck\n1 {name}\n\nTokens\n9 Zombie\n")
    return str(path)


def test_cards_claimed_exact_that_did_the_wrong_thing(home):
    """Mystic Snake's enters trigger has no spell to counter (H10): refused, not a creature that
    does nothing; Obzedat's Aid returns only a permanent card; Reclamation Sage may destroy."""
    with pytest.raises(DeckError, match="not understood: 'When ~ enters, counter target spell'"):
        catalogue_for().get("Mystic Snake")
    aid = catalogue_for().get("Obzedat's Aid")
    assert [e.describe() for e in aid.hooks["Cast"]] == ["return_from_graveyard filter=permanent to=battlefield "
                                                         "count=1"]
    sage = catalogue_for().get("Reclamation Sage")
    assert [e.optional for e in sage.hooks["Enters"]] == [True]


def test_cards_survey_reports_the_whole_index_by_type_and_refusal_class(home):
    result = run("cards", "survey", "--sample", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert out[0].startswith("22 cards (the card index ")
    assert out[2].split() == ["all", "22", "12", "(54.5%)", "10", "(45.5%)", "0", "(0.0%)"]  # Fire // Ice plays
    assert [line.split()[:2] for line in out if line.startswith("planeswalker")] == [["planeswalker", "2"]]
    assert "  other face not played                1 (10.0%)" in out  # Delver of Secrets: a transform card
    assert "  counterspell outside a cast          1 (10.0%)" in out
    assert "cards not exact by exactly one ability: 6 of 10 (60.0%)" in out
    assert out.index("precision audit sample: 3 exact cards, seed 1 (docs/audit/README.md)") > 0
    assert result.output == run("cards", "survey", "--sample", "3", "--seed", "1").output  # deterministic


def test_cards_survey_of_the_bundled_texts_and_without_an_index(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "nothing"))
    result = run("cards", "survey", "--bundled")
    assert result.exit_code == 0 and "612 cards (the bundled cards' own texts)" in result.output
    refused = CliRunner().invoke(cli, ["cards", "survey"])
    assert refused.exit_code == 2 and "no card index" in refused.output and "Traceback" not in refused.output


@pytest.fixture
def compiled_home(tmp_path, monkeypatch):
    """A data folder whose card index was imported with every text compiled (horde cards import)."""
    from horde.cards.catalogue import import_cards

    monkeypatch.setenv("HORDE_HOME", str(tmp_path / "home"))
    both = json.loads(FIXTURE.read_text())
    both["data"].update(json.loads(MORE.read_text())["data"])
    (tmp_path / "AtomicCards.json").write_text(json.dumps(both, ensure_ascii=False))
    summary = import_cards(tmp_path / "AtomicCards.json")
    assert summary["grammar"] and summary["compiled_with"]
    return tmp_path / "home"


def test_the_import_keeps_every_cards_compiled_text_and_a_deck_load_reads_it(compiled_home, monkeypatch):
    """A deck load pays nothing for parsing: the index holds each card's lines from the import,
    and the catalogue reads them instead of compiling (the compiler is not called at all)."""
    from horde.cards import catalogue as catalogue_module
    from horde.cards.cardindex import open_index
    from horde.cards.oracle import grammar_version

    index = open_index()
    assert index.meta["grammar"] == grammar_version()
    assert index.compiled("Hollow Dogs")["lines"] == ["Attacks: pump on=self power=2"]
    assert index.compiled("Gravecrawler")["unread"] == [
        "You may cast ~ from your graveyard as long as you control a Zombie"]

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(catalogue_module, "compile_card", no_compiling)
    catalogue = catalogue_for((), True)
    dogs = catalogue.get("Hollow Dogs")
    assert [e.describe() for e in dogs.hooks["Attacks"]] == ["pump on=self power=2 toughness=0"]
    assert catalogue.origins["Hollow Dogs"].kind == "compiled"
    crawler = catalogue.get("Gravecrawler")
    assert catalogue.origins[crawler.name].dropped == (GRAVECRAWLER_DROPPED,)


def test_texts_compiled_by_another_grammar_or_with_other_tokens_are_compiled_again(compiled_home, monkeypatch, tmp_path):
    from horde.cards import catalogue as catalogue_module
    from horde.cards.cardindex import open_index

    calls = []
    real = catalogue_module.compile_card
    monkeypatch.setattr(catalogue_module, "compile_card", lambda *a, **k: calls.append(a[0].name) or real(*a, **k))
    index = open_index()
    version = index.meta["grammar"]
    index.meta["grammar"] = "an older grammar"
    try:
        assert catalogue_for().get("Hollow Dogs").hooks["Attacks"][0].verb == "pump"
    finally:
        index.meta["grammar"] = version
    assert calls == ["Hollow Dogs"]
    # the user's own token named like one a text creates: the name is taken, the text compiled again
    cards = tmp_path / "mine.txt"
    cards.write_text("Name: Zombie\nType: Token Creature — Zombie\nPT: 5/5\nColors: B\n")
    calls.clear()
    catalogue_for((cards,)).get("Highborn Ghoul")
    assert calls == ["Highborn Ghoul"]


def test_cards_survey_reads_the_texts_compiled_at_import(compiled_home):
    result = run("cards", "survey")
    assert result.exit_code == 0 and "compiled now" not in result.output
    assert result.output.splitlines()[2].split() == ["all", "22", "12", "(54.5%)", "10", "(45.5%)", "0", "(0.0%)"]


def test_the_import_compiles_the_same_texts_whatever_the_number_of_processes(tmp_path, monkeypatch):
    import sqlite3

    from horde.cards import catalogue as catalogue_module
    from horde.cards.catalogue import import_cards

    monkeypatch.setattr(catalogue_module, "PARALLEL_MIN", 1)
    both = json.loads(FIXTURE.read_text())
    both["data"].update(json.loads(MORE.read_text())["data"])
    (tmp_path / "AtomicCards.json").write_text(json.dumps(both, ensure_ascii=False))
    tables = []
    for workers in (1, 2):
        out = tmp_path / f"cards-{workers}.sqlite"
        import_cards(tmp_path / "AtomicCards.json", out, workers=workers)
        tables.append(dict(sqlite3.connect(out).execute("SELECT name, data FROM compiled")))
    assert tables[0] == tables[1] and len(tables[0]) == 22  # every card, the split card's two faces too
