"""The team's skill: a named ladder of team strength, and a continuous skill between two levels.

A level is a policy with its parameters. The ladder, weakest first (``LEVELS``; the names are the
``skill`` knob's, ``horde.setup.SKILL_LEVELS``):

- ``novice``: ``baseline``, but one decision in four (``NOVICE_RANDOM_SHARE``) taken uniformly at
  random among the legal options (``random``): a table that still misreads the board;
- ``club``: ``baseline`` as it plays: a table that knows its decks;
- ``expert``: the strongest fair policy (one that sees only what a player sees);
- ``clairvoyant``: ``lookahead``, which plays each important decision forward on copies of the
  real game (the Horde's next reveals and dice included): the upper bound, not a table.

The ``skill`` knob is a level's name or its place on the ladder, a number from 0 (novice) to 3
(clairvoyant); a number between two levels, like 1.25, takes each decision at the stronger level
(expert) with probability its fraction (0.25), else at the weaker one (club), drawn from the
policy's own seeded stream, so the Horde's side of every seed is unchanged. Every answer names
the level it is for (``level_of``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from horde.setup import SKILL_LEVELS, GameSetup
from horde.team.policies import Decision, Policy, TeamView, policy_factory

NOVICE_RANDOM_SHARE = 0.25  # the share of a novice's decisions taken at random


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: its name, the policy and parameters it plays, the share of its
    decisions taken at random instead, and what it stands for."""

    name: str
    policy: str
    params: tuple[tuple[str, Any], ...] = ()
    random_share: float = 0.0
    description: str = ""

    def new_policy(self) -> Callable[[], Any]:
        """A function making a fresh policy of this level."""
        plays = policy_factory(self.policy, **dict(self.params))
        if not self.random_share:
            return plays
        at_random = policy_factory("random")
        return lambda: Between(at_random(), plays(), 1 - self.random_share)


LEVELS: tuple[Level, ...] = (
    Level("novice", "baseline", random_share=NOVICE_RANDOM_SHARE,
          description=f"baseline, one decision in {round(1 / NOVICE_RANDOM_SHARE)} taken at random"),
    Level("club", "baseline", description="baseline as it plays"),
    # The strongest fair policy: the search on copies whose unknown future is drawn again.
    Level("expert", "expert", description="expert: baseline with a fair search of its attacks and spell choices"),
    Level("clairvoyant", "lookahead", description="lookahead: plays each important decision forward on copies of "
                                                  "the real game (an upper bound)"),
)
assert tuple(level.name for level in LEVELS) == SKILL_LEVELS


class Between(Policy):
    """Each decision taken by ``stronger`` with probability ``chance``, else by ``weaker``, drawn
    from this policy's own stream; each of the two has a stream of its own drawn from it."""

    name = "skill"
    description = "each decision at the stronger of two levels with a given probability"

    def __init__(self, weaker: Any, stronger: Any, chance: float):
        self.weaker, self.stronger, self.chance = weaker, stronger, chance
        self._rng = random.Random(0)
        if any(callable(getattr(p, "start", None)) for p in (weaker, stronger)):
            self.start = self._start  # a look-ahead policy keeps a copy of each turn's start

    @property
    def rng(self) -> random.Random:
        return self._rng

    @rng.setter
    def rng(self, stream: random.Random) -> None:
        self._rng = stream
        self.weaker.rng = random.Random(stream.getrandbits(64))
        self.stronger.rng = random.Random(stream.getrandbits(64))

    def choose(self, decision: Decision, view: TeamView) -> Any:
        chosen, other = (self.stronger, self.weaker) if self._rng.random() < self.chance else \
            (self.weaker, self.stronger)
        choice = chosen.choose(decision, view)
        note = getattr(other, "note", None)
        if callable(note):  # a searching policy replays the turn's answers, its own or not
            note(decision, choice)
        return choice

    def _start(self, view: TeamView, rest: Callable) -> None:
        for policy in (self.weaker, self.stronger):
            start = getattr(policy, "start", None)
            if callable(start):
                start(view, rest)


def skill_number(skill: str) -> float:
    """A ``skill`` knob's place on the ladder: 0 for novice ... 3 for clairvoyant."""
    return float(SKILL_LEVELS.index(skill)) if skill in SKILL_LEVELS else float(skill)


def new_policy(skill: str) -> Callable[[], Any]:
    """A function making a fresh policy of this skill (a level's name or a number on the ladder)."""
    number = skill_number(skill)
    below = min(int(math.floor(number)), len(LEVELS) - 1)
    fraction = number - below
    weaker = LEVELS[below].new_policy()
    if fraction == 0:
        return weaker
    stronger = LEVELS[below + 1].new_policy()
    return lambda: Between(weaker(), stronger(), fraction)


def policy_for(setup: GameSetup) -> Callable[[], Any]:
    """A function making a fresh team policy of the setup: its skill's, else its policy's."""
    if setup.skill:
        return new_policy(setup.skill)
    return policy_factory(setup.policy, **dict(setup.policy_params))


def level_of(setup: GameSetup) -> str:
    """The level an answer is for, as a person reads it: ``club``, ``skill 1.25 (between club and
    expert)``, or the policy played when it is off the ladder."""
    return level_name(setup.skill, setup.policy, setup.policy_params)


def level_name(skill: str, policy: str, params: tuple[tuple[str, Any], ...] = ()) -> str:
    """``level_of`` from the knobs themselves (a results row's ``skill``, ``policy`` and policy
    parameters)."""
    if not skill:
        level = next((lv for lv in LEVELS if not lv.random_share and lv.policy == policy and lv.params == params),
                     None)
        if level is not None:
            return level.name
        listed = ", ".join(f"{k}={v}" for k, v in params)
        return f"policy {policy}" + (f" ({listed})" if listed else "") + " (off the skill ladder)"
    if skill in SKILL_LEVELS:
        return skill
    number = skill_number(skill)
    below = int(math.floor(number))
    return f"skill {skill} (between {SKILL_LEVELS[below]} and {SKILL_LEVELS[below + 1]})"
