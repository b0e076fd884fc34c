"""The fair expert: a policy that searches its important decisions on copies of the game in which
everything the team can't know is drawn again.

``lookahead`` (``horde.team.policies``) plays candidate answers forward on exact copies of the
game, so it meets the Horde's real next reveals and dice: the upper bound of what a table with
the same decks reaches, not a table. ``expert`` plays candidates forward on copies made fair
(``horde.engine.fork.redraw``): at the moment of the decision each copy gets new random streams
and its face-down zones shuffled again (the Horde's library, each team player's library, the
scheme deck), so its reveals, draws, dice and random picks are one future the team could
imagine from what it knows: its hands and everything public. ``samples`` such futures are drawn
at each decision from the policy's own stream, every candidate meets the same ones (so they
are compared on the same draws), and the candidate with the best mean position is played.

A copy can't start in the middle of a turn, so it starts from the exact copy of the turn's start
(``SearchPolicy.start``) and replays this turn's answers so far with the game's own streams, which
only repeats what the team has already seen happen; its future is drawn again when the replay
reaches the decision, before the candidate is answered.
"""

from __future__ import annotations

import random
from typing import Any

from horde.engine.decisions import Decision
from horde.engine.fork import redraw
from horde.team.policies import POLICIES, Policy, SearchPolicy, _Replay, encode
from horde.team.view import TeamView


class _FairReplay(_Replay):
    """Replays a copy's recorded answers; on reaching the last one (the decision searched) it
    first draws the copy's future again from ``seed``."""

    def __init__(self, answers: list[tuple[str, Any]], rollout: Policy, seed: int):
        super().__init__(answers, rollout)
        self.seed = seed

    def choose(self, decision: Decision, view: TeamView) -> Any:
        if self.done == len(self.answers) - 1 and self.game is not None:
            redraw(self.game, random.Random(self.seed))  # from here on, only what the team knows
        return super().choose(decision, view)


class ExpertPolicy(SearchPolicy):
    """Plays as ``baseline``, but at its important decisions (blocks, targets, fogs, attackers,
    counterspells) it plays each of a few candidate answers forward on ``samples`` copies of the
    game in which the Horde's library, the team's libraries and every future die and random pick
    are drawn again (the team knows its hands and what is public, not what comes next), with
    ``baseline`` choosing for the team in the copies, to the end of the ``horizon``-th Horde turn
    from now, and plays the answer with the best mean position (a win, else team life plus half
    the team's board and its cards in hand, minus the Horde's library and half its board).

    Parameters: ``samples`` (futures drawn per decision, default 2), ``candidates`` (the most
    answers played forward at one decision, default 3; 0 plays as baseline), ``horizon`` (Horde
    turns played forward, default 1), ``margin`` (the points of mean position by which another
    answer must beat baseline's to be played instead, default 3.5) and those of ``baseline``."""

    name = "expert"
    description = "baseline, but plays each important decision's candidates forward on copies with the unknown drawn again"
    samples = 2
    candidates = 3
    horizon = 1
    margin = 3.5

    def width(self) -> int:
        return self.candidates if self.samples > 0 and self.horizon > 0 else 0

    def _look_ahead(self, decision: Decision, view: TeamView) -> Any:
        candidates = self._candidates(decision, view)
        if len(candidates) < 2:
            return None
        until = view.horde_turns + self.horizon
        totals = [0.0] * len(candidates)
        for sample in range(self.samples):
            seed = self.rng.getrandbits(64)  # one future, met by every candidate
            values = []
            for choice in candidates:
                replay = _FairReplay(self._answered + [encode(decision, choice)], self.rollout(), seed)
                values.append(self._play_forward(replay, until, 4 * self.horizon))
            totals = [total + value for total, value in zip(totals, values, strict=True)]
            if sample == 0 and min(values) == max(values):
                return None  # the first future drawn does not tell the answers apart: baseline's
        best = max(range(len(candidates)), key=totals.__getitem__)
        if totals[best] - totals[0] <= self.margin * self.samples:
            return None  # baseline's answer, unless another is clearly better
        return candidates[best]

POLICIES["expert"] = ExpertPolicy  # registered beside the others (the composition root, horde.play, imports this module)
POLICIES["random"] = POLICIES.pop("random")  # the floor stays last in every listing
