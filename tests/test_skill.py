"""The skill ladder (``horde.team.skill``): the named levels and their policies, the skill knob's
values, the policy between two levels taking each decision at the stronger one with the stated
probability from its own stream, and the level recorded with every result."""

from __future__ import annotations

import random

import pytest

from horde.errors import HordeError
from horde.lab.experiments import parse_experiment
from horde.lab.runner.store import knob_columns
from horde.play import play_game, prepare
from horde.setup import SKILL_LEVELS, SetupError, convert, make_setup
from horde.team import skill
from horde.team.expert import ExpertPolicy
from horde.team.policies import BaselinePolicy, LookaheadPolicy, RandomPolicy

MINI = {"horde_deck": "mini", "team_decks": ["white"] * 4, "boss": "none", "players": 2, "cards_per_player": 9}


def test_the_ladder_names_each_level_its_policy_weakest_first():
    assert tuple(level.name for level in skill.LEVELS) == SKILL_LEVELS == ("novice", "club", "expert", "clairvoyant")
    assert [(level.policy, level.random_share) for level in skill.LEVELS] == [
        ("baseline", 0.25), ("baseline", 0.0), ("expert", 0.0), ("lookahead", 0.0)]
    novice = skill.new_policy("novice")()
    assert isinstance(novice, skill.Between) and novice.chance == 0.75
    assert isinstance(novice.weaker, RandomPolicy) and isinstance(novice.stronger, BaselinePolicy)
    assert type(skill.new_policy("club")()) is BaselinePolicy
    assert type(skill.new_policy("expert")()) is ExpertPolicy
    assert type(skill.new_policy("clairvoyant")()) is LookaheadPolicy


def test_the_skill_knob_reads_levels_numbers_between_them_and_calibration_files(tmp_path):
    assert [convert("skill", v) for v in ("club", "Novice", "1", 2, 0.0, "1.25", 2.5, "")] == [
        "club", "novice", "club", "expert", "novice", "1.25", "2.5", ""]
    for bad in ("3.5", "-1", "wizard", True, "nan"):
        with pytest.raises(SetupError, match="knob 'skill' = .*: expected novice, club, expert, clairvoyant, a "
                                             "number from 0 to 3 between them"):
            convert("skill", bad)
    calibrated = tmp_path / "our-table.toml"
    calibrated.write_text("skill = 0.62\nskill_low = 0.1\n", encoding="utf-8")
    assert convert("skill", str(calibrated)) == "0.62"
    calibrated.write_text("level = 2\n", encoding="utf-8")
    with pytest.raises(SetupError, match="our-table.toml: not a calibration file: expected skill = NUMBER"):
        convert("skill", str(calibrated))
    with pytest.raises(SetupError, match="knob 'skill' = 'novice' chooses the team's play, and so does policy "
                                         "'control': give one of them"):
        make_setup(skill="novice", policy="control")


def test_a_skill_between_two_levels_takes_the_stronger_one_with_its_fraction():
    class Says:
        def __init__(self, word):
            self.word = word

        def choose(self, decision, view):
            return self.word

    between = skill.Between(Says("weaker"), Says("stronger"), 0.3)
    between.rng = random.Random(7)
    answers = [between.choose(None, None) for _ in range(10_000)]
    expected = random.Random(7)
    expected.getrandbits(64), expected.getrandbits(64)  # the two levels' own streams come first
    assert answers == ["stronger" if expected.random() < 0.3 else "weaker" for _ in range(10_000)]
    assert answers.count("stronger") == 3_019
    built = skill.new_policy("1.25")()
    assert (type(built.weaker), type(built.stronger), built.chance) == (BaselinePolicy, ExpertPolicy, 0.25)
    assert callable(getattr(built, "start", None))  # a searching level keeps each turn's start
    assert not hasattr(skill.new_policy("0.5")(), "start")


def test_levels_are_named_in_every_answer():
    assert skill.level_of(make_setup()) == "club"
    assert skill.level_of(make_setup(skill="0.5")) == "skill 0.5 (between novice and club)"
    assert skill.level_of(make_setup(policy="expert")) == "expert"
    assert skill.level_of(make_setup(policy="defensive")) == "policy defensive (off the skill ladder)"
    assert skill.level_of(make_setup(policy="control")) == "policy control (off the skill ladder)"
    assert skill.level_of(make_setup(policy_params="safety=3")) == "policy baseline (safety=3) (off the skill ladder)"


def test_skill_games_are_seeded_and_recorded_and_a_novice_is_weaker(test_decks):
    novice = make_setup(**MINI, skill="novice")
    first, again = play_game(novice, (3, 1)), play_game(novice, (3, 1))
    assert (first.winner, first.turns, first.revealed) == (again.winner, again.turns, again.revealed)
    assert knob_columns(novice)["skill"] == "novice" and novice.digest() != make_setup(**MINI).digest()
    assert make_setup(**MINI, skill="").digest() == make_setup(**MINI).digest()  # unset: hashes as before
    wins = {}
    for level in ("novice", "club"):
        prepared = prepare(make_setup(**MINI, skill=level))
        wins[level] = sum(play_game(prepared, (3, i)).winner == "team" for i in range(300))
    assert wins["novice"] < wins["club"] - 20  # one decision in four at random costs a real table's wins


def test_an_experiment_sweeps_skill_levels_and_reads_a_calibration_file(decks, tmp_path):
    calibrated = tmp_path / "our-table.toml"
    calibrated.write_text("skill = 0.62\n", encoding="utf-8")
    data = {"name": "levels", "seed": 3, "setup": {"horde_deck": "mini", "team_decks": ["white"] * 4, "boss": "none"},
            "sweep": {"skill": ["novice", "club", str(calibrated), 1.5]}, "run": {"games": 10}}
    experiment = parse_experiment(data, "levels.toml")
    assert [cell.setup.skill for cell in experiment.cells] == ["novice", "club", "0.62", "1.5"]
    with pytest.raises(HordeError, match="knob 'skill' = 'wizard'"):
        parse_experiment(data | {"sweep": {"skill": ["wizard"]}}, "levels.toml")
