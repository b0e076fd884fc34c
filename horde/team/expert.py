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

from horde.engine.decisions import Decision, PolicyError
from horde.engine.fork import redraw
from horde.engine.state import Game
from horde.team import tactics
from horde.team.policies import KEEP, POLICIES, Policy, SearchPolicy, _Replay, encode, position_value
from horde.team.view import TeamView

REVEAL_POWER = 4  # what the Horde's next reveal adds to its attack, as a team reckons it: two Zombie tokens


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
    """Plays as ``baseline``, but searches two kinds of decision on copies of the game in which
    the Horde's library, the team's libraries and every future die and random pick are drawn
    again (the team knows its hands and what is public, not what comes next), ``baseline``
    choosing for the team in the copies:

    - **Attacks**: each of a few candidate attacks (``baseline``'s, ``defensive``'s and
      ``aggro``'s, every creature, none) is played forward in ``samples`` futures to the end of
      the ``horizon``-th Horde turn from now. Whether a creature goes at the Horde's library or
      stays home to block is where a search earns its work.
    - **What to cast**, when a player can pay for two spells or more that can help the team
      now (no removal without a Horde permanent to answer): each (``baseline``'s first) is cast
      and played forward in ``cast_samples`` futures to the end of the ``cast_horizon``-th Horde
      turn. Casting nothing is not a candidate:
      holding every spell back never played better (docs/decisions.md).

    It plays the answer with the best mean position (a win; else team life, one and a half
    points each (for an attack, only the life the Horde could take in its next ``spare_after``
    attacks: what lies above is life to spare, and spending it to mill the Horde costs
    nothing), plus half the team's board, 3 for each nonland card in its hands or on its
    battlefield and 1 for each mana its permanents make, minus the Horde's library and half its
    board) when that beats ``baseline``'s by more than ``margin``; a second future is drawn only
    when another answer did so in the first. A point of life counts more than in
    ``lookahead``'s exact copies: the futures it imagines are not the one to come, and life is
    what a worse one takes. Searching blocks, targets, fogs and counterspells too made no fair
    copy play better, only slower: ``decisions`` adds them.

    Parameters: ``samples`` (futures drawn per attack, default 2), ``candidates`` (the most
    answers played forward at one decision, default 5; 0 plays as baseline), ``horizon`` (Horde
    turns an attack is played forward, default 1), ``cast_samples`` and ``cast_horizon`` (the
    same for what to cast, default 1 and 1), ``margin`` (the points of mean position by which
    another answer must beat baseline's to be played instead, default 1), ``decisions`` (the
    kinds of decision searched, comma-separated, from attackers, cast, blocks, target, fog and
    counter; default attackers,cast), ``life_weight`` (what a point of team life is worth
    against a card of the Horde's library, default 1.5), ``spare_after`` (how many Horde
    attacks' worth of life counts when an attack is searched: the power of the Horde creatures
    that will attack next, plus 4 for what its next reveal adds, times this; default 3, 0 counts
    all life) and those of ``baseline``."""

    name = "expert"
    description = "baseline, but plays its candidate attacks and spells forward on copies with the unknown drawn again"
    samples = 2
    candidates = 5
    horizon = 1
    cast_samples = 1
    cast_horizon = 1
    margin = 1.0
    decisions = "attackers,cast"
    life_weight = 1.5
    spare_after = 3.0
    _SEARCHABLE = frozenset({"attackers", "blocks", "target", "fog", "counter", "cast"})

    def __init__(self, **params: Any):
        super().__init__(**params)
        kinds = frozenset(kind.strip() for kind in self.decisions.split(",") if kind.strip())
        unknown = sorted(kinds - self._SEARCHABLE)
        if unknown:
            raise PolicyError(f"policy 'expert' parameter 'decisions': {', '.join(unknown)} can't be searched "
                              f"(expected some of: {', '.join(sorted(self._SEARCHABLE))}, comma-separated)")
        self._searched = kinds
        self._life_cap: float | None = None  # while an attack is searched: life above it is to spare

    def _value(self, game: Game) -> float:
        return position_value(game, self.life_weight, permanents=True, life_cap=self._life_cap)

    def life_to_keep(self, view: TeamView) -> float | None:
        """The life worth counting when an attack is searched: what the Horde could take in
        ``spare_after`` attacks like its next (the power of the creatures that will attack, plus
        ``REVEAL_POWER`` for its next reveal); None (all of it) when ``spare_after`` is 0. At 40
        life against a lone 2/2 the team has life to spare and attacks with everything; at 40
        against a 10-power board every point counts, and the search weighs keeping blockers home."""
        if self.spare_after <= 0:
            return None
        return self.spare_after * (view.horde_attack_power() + REVEAL_POWER)

    def width(self) -> int:
        return self.candidates if self.samples > 0 and self.horizon > 0 else 0

    def _would_cast(self, decision: Decision, option: Any, view: TeamView) -> bool:
        """Whether a spell can help the team now: not removal with no Horde permanent to answer,
        nor a pump with no creature that can attack, nor a creature whose entering damage would hit the team's own (``horde.team.tactics``:
        the checks ``baseline`` casts by), nor a fog, which in the team's own main phase prevents
        only the damage the team deals. The search still weighs what ``baseline`` holds back
        for other reasons (its mana reserve, its own wrath coming): that is where it wins."""
        card = option[0]
        if card.is_fog:
            return False
        if tactics.role(card) == "pump" and not any(view.can_attack(c) for c in view.team_creatures()):
            return False  # a trick for an attack with no creature to attack (an outside reading: Overrun, alone)
        horde = view.horde_creatures()
        if tactics.role(card) == "removal" and not tactics.answers(card, horde, view, decision.player):
            return False
        return not (tactics.harms_on_entering(card) and not horde)

    def _look_ahead(self, decision: Decision, view: TeamView) -> Any:
        candidates = self._candidates(decision, view)
        samples, horizon = self.samples, self.horizon
        if decision.kind == "cast":  # which spell first, among those that can help the team now
            candidates = [choice for choice in candidates if choice is not None and self._would_cast(decision, choice, view)]
            samples, horizon = self.cast_samples, self.cast_horizon
        if len(candidates) < 2 or samples <= 0 or horizon <= 0:
            return KEEP
        until = view.horde_turns + horizon
        self._life_cap = self.life_to_keep(view) if decision.kind == "attackers" else None
        try:
            return self._best(decision, candidates, samples, horizon, until)
        finally:
            self._life_cap = None

    def _best(self, decision: Decision, candidates: list[Any], samples: int, horizon: int, until: int) -> Any:
        """The candidate with the best mean position over ``samples`` futures, or ``KEEP``."""
        totals = [0.0] * len(candidates)
        for sample in range(samples):
            seed = self.rng.getrandbits(64)  # one future, met by every candidate
            values = []
            for choice in candidates:
                replay = _FairReplay(self._answered + [encode(decision, choice)], self.rollout(), seed)
                values.append(self._play_forward(replay, until, 4 * horizon))
            totals = [total + value for total, value in zip(totals, values, strict=True)]
            if sample == 0 and max(values[1:]) - values[0] <= self.margin:
                return KEEP  # no other answer did clearly better in the first future: baseline's
        best = max(range(len(candidates)), key=totals.__getitem__)
        if totals[best] - totals[0] <= self.margin * samples:
            return KEEP  # baseline's answer, unless another is clearly better
        return candidates[best]

POLICIES["expert"] = ExpertPolicy  # registered beside the others (the composition root, horde.play, imports this module)
POLICIES["random"] = POLICIES.pop("random")  # the floor stays last in every listing
