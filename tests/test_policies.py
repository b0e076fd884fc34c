"""Team policies: legal choices only, different results, all scripted ones beat random, custom
policies by dotted path, and the decision interface."""

from __future__ import annotations

import functools
import sys
import textwrap

import pytest
from conftest import TEST_DECKS, scaled

from horde.play import play_game, prepare
from horde.setup import make_setup
from horde.team.policies import POLICIES, Decision, PolicyError, check_choice, make_policy, parameters

BUNDLED = ("zombie-horde", "knudson-2011")
SEARCHING = ("lookahead", "expert")  # slow: each important decision played forward on copies
# make test spreads tests over its workers one by one (--dist loadgroup); this file's run on one,
# as the win-rate test reads the legal-choices test's games (winners, below).
pytestmark = pytest.mark.xdist_group("policies")


@functools.cache
def winners(preset: str, name: str, games: int) -> tuple[str | None, ...]:
    """The winners of the first ``games`` games of a policy on a bundled preset (4 players), played
    once per test process: the legal-choices test plays them and the win-rate test reads the first
    of them (their games are the same: seeds ("policies", i))."""
    setup = make_setup(preset, policy=name, players=4)
    policy = make_policy(name)
    return tuple(play_game(setup, ("policies", i), policy=policy).winner for i in range(games))


@pytest.mark.slow
@pytest.mark.parametrize("preset", BUNDLED)
@pytest.mark.parametrize("name", list(POLICIES))
def test_every_policy_makes_only_legal_choices(preset, name):
    """The engine checks every choice (check_choice raises PolicyError); 1,000 games each (24 of
    lookahead and expert, which play each important decision forward on copies of the game:
    their copies make choices too, and the engine checks them as well)."""
    played = winners(preset, name, scaled(24 if name in SEARCHING else 1000))
    assert set(played) <= {"team", "horde", "stall"}


def win_rate(name: str, games: int) -> float:
    """The team's share of wins in a policy's first ``games`` games on zombie-horde."""
    return winners("zombie-horde", name, max(games, scaled(1000)))[:games].count("team") / games


@pytest.mark.slow
def test_policies_differ_and_all_beat_random():
    """On the first 800 games of the legal-choices test's (200 in make test)."""
    games = scaled(800)
    rates = {name: win_rate(name, games) for name in POLICIES if name not in SEARCHING}  # test_lookahead.py, test_expert.py
    assert len({round(r, 4) for r in rates.values()}) > 1, rates
    for name in ("baseline", "aggro", "defensive", "control"):
        assert rates[name] > rates["random"], rates


def test_custom_policy_by_dotted_path(tmp_path, monkeypatch):
    module = tmp_path / "my_group_policies.py"
    module.write_text(textwrap.dedent('''
        from horde.team.policies import BaselinePolicy


        class NeverBlocks(BaselinePolicy):
            """Plays like the baseline but never blocks."""

            description = "baseline without blocks"

            def choose(self, decision, view):
                if decision.kind == "blocks":
                    return []
                return super().choose(decision, view)
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", policy="my_group_policies:NeverBlocks")
    result = play_game(setup, 1)
    assert result.winner in ("team", "horde", "stall")
    sys.modules.pop("my_group_policies", None)


def test_custom_policy_from_scratch_needs_only_choose(monkeypatch):
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))

    class FirstOption:
        def choose(self, decision, view):
            if decision.kind in ("attackers", "blocks", "paris_exile"):
                return []
            if decision.kind == "bottom":
                return list(decision.options)[:decision.count]
            return decision.options[0]

    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none")
    assert play_game(setup, 2, policy=FirstOption()).winner in ("team", "horde", "stall")


def test_policy_streams_do_not_shift_the_horde(monkeypatch):
    """A policy's own random choices never change the Horde's shuffle (paired comparisons)."""
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    from horde.play import new_game, prepare

    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none")
    libraries = [[c.name for c in new_game(prepare(setup), 9, policy=make_policy(name)).horde.library]
                 for name in ("random", "baseline")]
    assert libraries[0] == libraries[1]


def test_illegal_choice_is_refused():
    decision = Decision("land", 0, ["Forest", None])
    check_choice(decision, None)
    with pytest.raises(PolicyError, match="not one of the options"):
        check_choice(decision, "Island")
    blocks = Decision("blocks", -1, [("b1", "a1"), ("b1", "a2")])
    with pytest.raises(PolicyError, match="blocks twice"):
        check_choice(blocks, [("b1", "a1"), ("b1", "a2")])
    bottom = Decision("bottom", 0, ["x", "y", "z"], count=2)
    with pytest.raises(PolicyError, match="exactly 2"):
        check_choice(bottom, ["x"])


def test_parameters_and_bad_parameters():
    assert parameters(POLICIES["control"])["wrath_threshold"] == 12
    assert make_policy("control", wrath_threshold=15).wrath_threshold == 15
    with pytest.raises(PolicyError, match="takes no parameter 'courage'"):
        make_policy("aggro", courage=1)
    with pytest.raises(PolicyError, match="unknown policy"):
        make_policy("reckless")
    with pytest.raises(PolicyError, match="no module 'no_such_module_here' on the Python path"):
        make_policy("no_such_module_here:Policy")


def test_readme_custom_policy_example_plays(tmp_path, monkeypatch):
    """The README's custom policy, copied from the README, plays a game by dotted path."""
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    code = readme.split("# my_group.py\n", 1)[1].split("```", 1)[0]
    (tmp_path / "my_group.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("HORDE_DECKS", str(TEST_DECKS))
    setup = make_setup(horde_deck="mini", team_decks=["white"] * 4, boss="none", policy="my_group:NeverChump")
    assert play_game(setup, 4).winner in ("team", "horde", "stall")
    sys.modules.pop("my_group", None)


# ---------------------------------------------------------------- the decision core (horde.team.tactics)


def _position(hand=(), battlefield=(), graveyard=(), horde=(), horde_turns=None):
    """A one-player position of the puzzles' builder, and its team's view."""
    from horde.lab.puzzles import Puzzle, setup_position
    from horde.team.view import TeamView

    puzzle = Puzzle(name="core", theme="core", why="", step="main", ask="cast", answers=("none",), players=1,
                    team_life=20, team=({"hand": tuple(hand), "battlefield": tuple(battlefield),
                                         "graveyard": tuple(graveyard)},),
                    horde=tuple(horde), horde_turns=horde_turns)
    game = setup_position(puzzle, make_policy("baseline"))
    return game, TeamView(game)


def test_L4_H7_removal_knows_what_it_takes_away():
    from horde.team import tactics

    game, view = _position(horde=("Drudge Skeletons", "Walking Corpse (shields 1)", "Rotting Regisaur"))
    skeletons, corpse, regisaur = game.battlefield.horde
    card = prepare(game.setup).catalogue.get
    murder, disfigure, bolt = card("Murder"), card("Disfigure"), card("Lightning Bolt")
    assert not tactics.removes(murder, skeletons, view)  # H7: the Horde pays {B} and regenerates
    assert not tactics.removes(murder, corpse, view)  # L4: the shield goes instead
    assert tactics.removes(murder, regisaur, view)
    assert tactics.removes(disfigure, skeletons, view)  # -2/-2 takes its toughness: no regeneration
    assert not tactics.removes(bolt, regisaur, view)  # 3 damage to a 7/6
    assert tactics.removes(bolt, skeletons, view) is False  # lethal damage, then regeneration (H7)


def test_H2_H8_the_reserve_is_an_answer_the_player_can_pay():
    from horde.team import tactics

    threat = ("Rotting Regisaur", "Rotting Regisaur", "Rotting Regisaur")  # 21 power at 20 life: a fog matters
    _, view = _position(battlefield=("Forest", "Forest", "Forest"), graveyard=("Moment's Peace",), horde=threat)
    assert tactics.answer_reserve(view, 0) == 3  # flashback {2}{G}
    _, view = _position(battlefield=("Forest", "Forest"), graveyard=("Moment's Peace",), horde=threat)
    assert tactics.answer_reserve(view, 0) == 0  # three mana it does not have
    _, view = _position(hand=("Counterspell", "Fog"), battlefield=("Forest", "Forest"), horde=threat)
    assert tactics.answer_reserve(view, 0) == 1  # Fog; Counterspell's {U}{U} can't be paid with Forests
    _, view = _position(hand=("Fog",), battlefield=("Forest",))
    assert tactics.answer_reserve(view, 0) == 0  # no attack coming that the fog would matter against
    _, view = _position(hand=("Fog",), battlefield=("Forest",), horde_turns=0)
    assert tactics.answer_reserve(view, 0) == 0  # H2: nothing to answer before the Horde's first turn


def test_H9_a_horde_permanent_that_wins_the_game_outranks_an_equipment():
    from horde.team import tactics

    game, view = _position(horde=("Walking Corpse", "Gorgon Flail (on Walking Corpse)", "Grave Pact",
                                  "Endless Ranks of the Dead"))
    corpse, flail, pact, ranks = game.battlefield.horde
    assert tactics.permanent_threat(flail, view) == 3  # +1/+1 and deathtouch on the Corpse
    assert tactics.permanent_threat(pact, view) == 20  # each other player sacrifices, every time
    assert tactics.permanent_threat(ranks, view) == 8  # Zombies every upkeep
    assert tactics.permanent_threat(corpse, view) == 3  # its power with the Flail
