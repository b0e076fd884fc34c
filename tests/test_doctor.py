"""``horde doctor``: swaps of a Horde deck's cards, each measured against the deck before it on
the same seeds, kept while they bring the team's win rate toward the target."""

from __future__ import annotations

import random
import tempfile

import pytest
from click.testing import CliRunner
from conftest import TEST_DECKS

from horde import __version__
from horde.cards.decklists import parse_decklist
from horde.cards.decks import build_horde_library, load_horde_deck
from horde.cli import cli
from horde.lab import doctor as doctoring
from horde.setup import make_setup

DECKS = {"HORDE_DECKS": str(TEST_DECKS)}
SETUP = make_setup(horde_deck="mini", team_decks=["white"] * 2, boss="none", players=2, cards_per_player=9)
MINI = (TEST_DECKS / "horde" / "mini.txt").read_text(encoding="utf-8")


def known_play(setup, seed, games):
    """Games whose outcome is a known function of the deck: each copy of a nontoken card is
    revealed with probability 0.3; the team wins with probability 0.6, less 0.4 when Grave Titan
    was revealed and 0.3 when Damnation was."""
    text = open(setup.horde_deck, encoding="utf-8").read()
    counts = doctoring.deck_counts(parse_decklist(text, setup.horde_deck, "horde"), "fixed")
    rng = random.Random(f"{seed}")
    outcomes = []
    for _ in range(games):
        revealed = frozenset(name for name, count in counts.items() if name not in ("Zombie", "Zombie Giant")
                             for _ in range(count) if rng.random() < 0.3)
        p = 0.6 - 0.4 * ("Grave Titan" in revealed) - 0.3 * ("Damnation" in revealed)
        outcomes.append(("team" if rng.random() < max(p, 0.0) else "horde", revealed))
    return outcomes


def test_a_swap_takes_one_copy_out_and_puts_one_in_keeping_the_deck_size():
    decklist = parse_decklist(MINI, "mini.txt", "horde")
    text = doctoring.swapped(MINI, decklist, "fixed", "Grave Titan", "Walking Corpse")
    after = doctoring.deck_counts(parse_decklist(text, "x", "horde"), "fixed")
    assert after["Walking Corpse"] == 5 and "Grave Titan" not in after and sum(after.values()) == 100
    text = doctoring.swapped(MINI, decklist, "fixed", "Bad Moon", "Festering Goblin")
    after = doctoring.deck_counts(parse_decklist(text, "x", "horde"), "fixed")
    assert (after["Bad Moon"], after["Festering Goblin"], sum(after.values())) == (1, 1, 100)


def test_a_swap_in_place_leaves_every_other_card_where_the_seed_puts_it(test_decks, tmp_path):
    # Common random numbers: the same seed shuffles both decks alike, so they differ only where
    # the cut card was, in a fixed deck as in a recipe's draws (a creature for a creature).
    for name, cut, add in (("mini", "Grave Titan", "Walking Corpse"), ("mini-recipe", "Grave Titan", "Walking Corpse")):
        text = (TEST_DECKS / "horde" / f"{name}.txt").read_text(encoding="utf-8")
        build = load_horde_deck(name).build
        changed = tmp_path / f"{name}-swapped.txt"
        changed.write_text(doctoring.swapped(text, parse_decklist(text, name, "horde"), build, cut, add))
        setup = make_setup(horde_deck=name, team_decks=["white"] * 4, boss="none", players=2)
        for seed in range(5):
            before = build_horde_library(load_horde_deck(name), setup, random.Random(seed))
            after = build_horde_library(load_horde_deck(str(changed)), setup, random.Random(seed))
            assert [(b.name, a.name) for b, a in zip(before, after, strict=True) if b.name != a.name] == \
                [(cut, add)] * sum(card.name == cut for card in before)


def test_the_doctor_cuts_what_hurts_the_team_until_the_target_band(test_decks):
    found = doctoring.doctor("mini", SETUP, target=0.5, band=0.03, games=400, play=known_play)
    # The known rate: 0.6 - 0.4 x P(Titan seen) - 0.3 x P(Damnation seen) = 0.6 - 0.12 - 0.09 =
    # 39% as the deck is; without Grave Titan 51%, without Damnation 48%, without both 60%. The
    # screen names both as the cards that hurt the team; on the step's seeds cutting Grave Titan
    # overshoots (45.0% -> 56.8%) and cutting Damnation comes closest (45.0% -> 51.5%).
    assert [(s.step, s.cut, s.add, s.after) for s in found.swaps[:2]] == [
        (1, "Grave Titan", "Maggot Carrier", 0.5675), (1, "Damnation", "Walking Corpse", 0.515)]
    assert [(s.cut, s.add) for s in found.kept] == [("Damnation", "Walking Corpse")]
    (kept,) = found.kept
    assert kept.low <= kept.difference <= kept.high and kept.difference > 0.05
    # Chosen as the best of two, it is measured again on fresh paired games, and that second
    # measure is the gain claimed: +10.75 points there (the truth: +9).
    check = kept.confirmed
    assert (check.games, check.before, check.after) == (400, 0.3975, 0.505)
    assert check.low <= 0.09 <= check.high and found.claimed == pytest.approx(0.1075)
    assert [s.confirmed for s in found.swaps if not s.kept] == [None, None]  # never chosen: never confirmed
    # Step 2 plays new seeds: the deck measures 48.0% there, not the 51.5% it was chosen on.
    assert found.step_rates == {1: (0.45, 400), 2: (0.48, 400)}
    # The final deck against the first on 800 fresh paired games: the gain a group can expect,
    # +7.6 points (+5.3 to +9.9), holding the true +9.
    gain = found.gain
    assert (gain.games, gain.before, gain.after) == (800, 0.4025, 0.47875) and gain.low <= 0.09 <= gain.high
    assert found.start[0] < 0.47 and found.reached and found.end[0] == gain.after
    counts = doctoring.deck_counts(parse_decklist(found.text, "x", "horde"), "fixed")
    assert sum(counts.values()) == 100 and "Damnation" not in counts


def test_a_swap_lucky_on_its_own_games_is_not_kept_when_fresh_games_refute_it(test_decks):
    # No card matters (the team wins 40% whatever the deck), but the swap wins 60 more of the
    # step's own 400 games by luck: its fresh paired games show no gain, and it is not kept.
    def lucky(setup, seed, games):
        outcomes = [("horde" if w == "team" and random.Random(f"{seed}/{i}").random() < 1 / 3 else w, revealed)
                    for i, (w, revealed) in enumerate(known_play(make_setup(**SETUP.to_dict() | {
                        "horde_deck": str(TEST_DECKS / "horde" / "mini.txt")}), seed, games))]
        if open(setup.horde_deck, encoding="utf-8").read() != MINI and "confirm" not in str(seed):
            flipped = [i for i, (w, _) in enumerate(outcomes) if w == "horde"][:60]
            outcomes = [("team", r) if i in flipped else (w, r) for i, (w, r) in enumerate(outcomes)]
        return outcomes
    found = doctoring.doctor("mini", SETUP, target=0.5, band=0.03, games=400, candidates=1, patience=1, play=lucky)
    (swap,) = found.swaps
    assert swap.difference == pytest.approx(0.15) and not found.kept
    assert swap.confirmed is not None and swap.confirmed.difference == 0
    assert found.gain is not None and found.gain.difference == 0 and found.claimed == 0


def test_the_doctor_leaves_no_candidate_deck_behind(test_decks, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    doctoring.doctor("mini", SETUP, target=0.5, band=0.03, games=100, play=known_play, max_swaps=2)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(KeyboardInterrupt):
        doctoring.doctor("mini", SETUP, games=100, play=lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
    assert list(tmp_path.iterdir()) == []


def test_a_difference_in_points_is_never_minus_zero():
    assert [doctoring._points(x) for x in (-0.0, -0.0004, 0.0004, -0.025, 0.1075)] == [
        "+0.0", "+0.0", "+0.0", "-2.5", "+10.8"]


def test_doctor_command_prints_the_evidence_and_writes_the_deck(tmp_path, monkeypatch):
    monkeypatch.setattr(doctoring, "_play_real", lambda workers: known_play)
    out = tmp_path / "mini-doctored.txt"
    result = CliRunner().invoke(cli, ["doctor", "mini", "--players", "2", "--cards-per-player", "9", "--boss", "none",
                                      "--team", "white", "--team", "white", "--games", "400", "--band", "0.03", "--out",
                                      str(out), "--quiet", "--no-config"], env=DECKS)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("mini: preset zombie-horde, 2 players, Horde deck mini, policy baseline, cards per player 9, boss "
                        "none, team decks white, white, team level club; seed 1, horde " + __version__)
    assert lines[1] == "mini at 2 players: team 45.0% (40.2% - 49.9%, 400 games) for a target of 50%"  # not its path
    assert lines[2] == ("  swap 1: -Damnation +Walking Corpse: chosen on the step's 400 games (45.0% -> 51.5%); "
                        "confirmed on 400 fresh paired games: 39.8% -> 50.5% (+10.7 points, paired 95% +7.2 to +14.3)")
    assert lines[3] == ("1 swap(s) kept, 2 tried and left; the steps claim +10.7 points together (each as confirmed on "
                        "its fresh games)")
    assert lines[4] == ("the new deck against the old on 800 fresh paired games: team 40.2% -> 47.9%, +7.6 points "
                        "(paired 95% +5.3 to +9.9); the steps claimed +10.7")
    assert "5 Walking Corpse" in result.output and lines[-1] == f"new deck: {out}"
    assert "Damnation" not in out.read_text(encoding="utf-8")


def test_doctor_command_plays_the_house_rules(tmp_path, monkeypatch):
    seen = []

    def play(setup, seed, games):
        seen.append((setup.grace_turns, setup.boss, setup.players))
        return known_play(setup, seed, games)
    monkeypatch.setattr(doctoring, "_play_real", lambda workers: play)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "horde.toml").write_text('[setup]\ngrace_turns = 6\nboss = "none"\nteam_decks = ["white", "white"]\n'
                                         'cards_per_player = 9\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["doctor", "mini", "--players", "2", "--games", "100", "--max-swaps", "1",
                                      "--quiet"], env=DECKS)
    assert result.exit_code == 0, result.output
    assert set(seen) == {(6, "none", 2)} and "grace turns 6" in result.stdout.splitlines()[0]
    assert "house rules from horde.toml: grace_turns = 6" in result.stderr
    other = tmp_path / "other.toml"
    other.write_text('[setup]\ngrace_turns = 3\nboss = "none"\nteam_decks = ["white", "white"]\n', encoding="utf-8")
    seen.clear()
    result = CliRunner().invoke(cli, ["doctor", "mini", "--players", "2", "--games", "100", "--max-swaps", "1",
                                      "--cards-per-player", "9", "--quiet", "--config", str(other)], env=DECKS)
    assert result.exit_code == 0, result.output
    assert set(seen) == {(3, "none", 2)}  # --config's house rules, not ./horde.toml's


def test_the_doctor_on_real_games_of_a_small_deck(test_decks):
    found = doctoring.doctor("mini", SETUP, target=0.7, band=0.03, games=100, candidates=2, max_swaps=2, workers=1)
    counts = doctoring.deck_counts(parse_decklist(found.text, "x", "horde"), "fixed")
    assert sum(counts.values()) == 100  # content changes alone: the deck's size is kept
    for swap in found.kept:  # each kept swap came closer to the target on its paired games
        assert abs(swap.after - 0.7) < abs(swap.before - 0.7) and swap.games == 100
    assert found.end[3] == 200 and found.kept
