"""``horde doctor``: changes to a Horde deck's content, one swap at a time, that bring the team's
win rate to a target, the deck's size fixed, each claimed gain measured on games that did not
choose it.

Each step plays the current deck on the step's own seeds and screens its cards: the team's win
rate in the games where the Horde revealed a card, against the rest. The cards that most hurt the
team (when it wins too rarely; most help it, when too often) are the candidates to cut, and the
cards of the pool (``--pool``) or of the deck's own lists that most help it (hurt it) the
candidates to add. The screen is only a guess (a card seen in a game is not what decided it), so
every candidate swap is then measured against the current deck on the same seeds (common random
numbers: the same team decks, shuffles and dice), and the swap whose win rate comes closest to the
target is chosen. Chosen as the best of several, its first measure is optimistic (the winner's
luck), so it is measured again against the current deck on fresh paired seeds (``confirmed``):
it is kept only if it comes closer to the target there too, and the gain the doctor claims for
it is that second measure, with Newcombe's interval for paired rates. Each step plays new seeds,
so a step's "before" is the current deck on its own games, not the last step's "after"; the
output says so.

The doctor stops inside the band (the deck measured inside it on one step's seeds, and inside
its inner half with as many fresh ones added), when no candidate helps, or after ``max_swaps``.
Then the final deck is measured against the deck it started from on fresh paired seeds: the
gain a group can expect, printed beside the sum of the steps' claims. The candidate decks are
written to a temporary folder, removed when the doctor ends.

In a fixed deck the swaps are among its Deck and Tokens sections; in a recipe deck among its Deck
section, the pool R1 draws the creatures and spells from (the drawn counts stay the recipe's).
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from horde.cards.decklists import Decklist, parse_decklist
from horde.cards.decks import resolve_path
from horde.errors import HordeError
from horde.files import read_text, write_file
from horde.lab.analysis import paired_difference_interval
from horde.lab.stats import wilson
from horde.play import prepare
from horde.setup import GameSetup, setup_from_dict

Outcome = tuple[str, frozenset[str]]  # a game's winner and the nontoken cards the Horde revealed


@dataclass(frozen=True)
class Paired:
    """Two decks measured on the same seeds: the games, each deck's team win rate, and the
    paired difference's Newcombe 95% interval."""

    games: int
    before: float
    after: float
    low: float
    high: float

    @property
    def difference(self) -> float:
        return self.after - self.before


@dataclass
class Swap:
    """One swap measured against the deck before it on the same seeds (the step's), and, for the
    swap chosen in its round, again on fresh paired seeds (``confirmed``)."""

    step: int
    cut: str
    add: str
    games: int
    before: float  # the team win rate of the deck before, on the step's seeds
    after: float  # with the swap, on the same seeds
    low: float  # the paired difference's Newcombe 95% interval
    high: float
    kept: bool = False
    confirmed: Paired | None = None  # the chosen swap on fresh paired seeds: the gain claimed

    @property
    def difference(self) -> float:
        return self.after - self.before


@dataclass
class Diagnosis:
    """What the doctor did: the deck text it ends with, the win rate before and after (each with
    its Wilson 95% interval), every swap it tried (those kept marked), whether the final deck's
    rate lies within the band, and the final deck against the first on fresh paired seeds
    (``gain``), beside the sum of the kept swaps' confirmed gains (``claimed``)."""

    text: str
    start: tuple[float, float, float, int]  # rate, low, high, games
    end: tuple[float, float, float, int]
    swaps: list[Swap] = field(default_factory=list)
    reached: bool = False
    gain: Paired | None = None
    step_rates: dict[int, tuple[float, int]] = field(default_factory=dict)  # step -> the deck's rate on its games

    @property
    def kept(self) -> list[Swap]:
        return [swap for swap in self.swaps if swap.kept]

    @property
    def claimed(self) -> float:
        """The sum of the kept swaps' gains, each as confirmed on fresh games."""
        return sum(swap.confirmed.difference for swap in self.kept if swap.confirmed is not None)


def _sections(decklist: Decklist, build: str) -> tuple[str, ...]:
    return ("deck",) if build == "recipe" else ("deck", "tokens")


def deck_counts(decklist: Decklist, build: str) -> dict[str, int]:
    """The cards the doctor may swap, with their counts: the Deck section (and Tokens in a fixed deck)."""
    counts: dict[str, int] = {}
    for entry in decklist.entries:
        if entry.section in _sections(decklist, build):
            counts[entry.name] = counts.get(entry.name, 0) + entry.count
    return counts


def swapped(text: str, decklist: Decklist, build: str, cut: str, add: str) -> str:
    """The deck file's text with the last copy of ``cut`` replaced by one of ``add`` in its place
    (a line of its own where ``cut``'s was, or right after it): every other card keeps its place
    in the list, so a shuffle or a recipe's draw takes the same places for the same seed and the
    two decks differ only where ``cut`` was (common random numbers)."""
    entries = [e for e in decklist.entries if e.section in _sections(decklist, build)]
    lines = text.splitlines()
    taken = [e for e in entries if e.name == cut][-1]
    if taken.count > 1:
        lines[taken.line - 1] = f"{taken.count - 1} {cut}"
        lines.insert(taken.line, f"1 {add}")
    else:
        lines[taken.line - 1] = f"1 {add}"
    return "\n".join(lines) + "\n"


def screen(outcomes: Sequence[Outcome], names: Sequence[str]) -> dict[str, float]:
    """Each card's team win rate in the games where it was revealed minus in the others (NaN
    when it was revealed in none, or in all)."""
    scores = {}
    for name in names:
        seen = [w == "team" for w, revealed in outcomes if name in revealed]
        unseen = [w == "team" for w, revealed in outcomes if name not in revealed]
        scores[name] = (sum(seen) / len(seen) - sum(unseen) / len(unseen)) if seen and unseen else math.nan
    return scores


def doctor(deck: str, setup: GameSetup, target: float = 0.5, band: float = 0.05, pool: Sequence[str] = (),
           games: int = 300, candidates: int = 3, max_swaps: int = 20, patience: int = 2, seed: int = 1,
           play: Callable[[GameSetup, object, int], list[Outcome]] | None = None,
           workers: int | None = None, progress: Callable[[str], object] | None = None) -> Diagnosis:
    """Swap cards of the Horde deck ``deck`` (a bundled name or a path) one at a time until the
    team win rate of ``setup`` with it lies within ``band`` of ``target``: each step screens the
    current deck on ``games`` games with the seeds ``((seed, "doctor", step), i)``, measures up to
    ``candidates`` swaps on the same seeds, and confirms the one closest to the target against the
    current deck on ``games`` fresh paired games (``(seed, "doctor", step, "confirm")``): it is kept
    if it comes closer to the target there too; else the next ``candidates`` of the screen's
    ranking are measured, up to ``patience`` rounds, before the doctor stops. ``pool`` names cards
    that may be added besides the deck's own. ``play(setup, seed, games)`` returns each game's
    winner and revealed cards (default: real games on ``workers`` processes). Returns the
    Diagnosis; the final deck and the first are measured on ``2 x games`` fresh paired games
    (``(seed, "final")``, ``(seed, "final", 1)``)."""
    path = resolve_path(deck, "horde")
    text = read_text(path, "decklist")
    prepared = prepare(setup_from_dict(setup.to_dict() | {"horde_deck": str(path)}))
    build = prepared.horde_deck.build
    if build == "whole":
        raise HordeError(f"{path}: a challenge deck is played whole; the doctor changes recipe and fixed decks")
    if play is None:
        play = _play_real(workers)
    folder = Path(tempfile.mkdtemp(prefix="horde-doctor-"))
    try:
        return _doctor(text, str(path), build, prepared, setup, target, band, pool, games, candidates, max_swaps,
                       patience, seed, play, progress, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # the candidate decks are the doctor's own: none is left behind


def _doctor(text: str, path: str, build: str, prepared, setup: GameSetup, target: float, band: float,
            pool: Sequence[str], games: int, candidates: int, max_swaps: int, patience: int, seed: int,
            play: Callable[[GameSetup, object, int], list[Outcome]], progress, folder: Path) -> Diagnosis:
    number = 0

    def measure(deck_text: str, step_seed) -> list[Outcome]:
        nonlocal number
        number += 1
        candidate = folder / f"deck-{number}.txt"
        write_file(candidate, deck_text)
        at = setup_from_dict(setup.to_dict() | {"horde_deck": str(candidate)})
        prepare(at)  # a swap that breaks the deck fails here, before a game
        return play(at, step_seed, games)

    current = text
    swaps: list[Swap] = []
    outcomes = measure(current, (seed, "doctor", 0))
    start = _rate(outcomes)
    step_rates: dict[int, tuple[float, int]] = {}
    for step in range(1, max_swaps + 1):
        rate = sum(w == "team" for w, _ in outcomes) / len(outcomes)
        step_rates[step] = (rate, len(outcomes))
        if abs(rate - target) <= band:
            # Inside the band on this step's seeds: measured again on as many fresh ones, and the
            # doctor stops only when both together lie in the inner half of the band, so that the
            # deck stays inside the band on the final fresh games (a rate that only just entered it
            # on one sample is often luck).
            both = outcomes + measure(current, (seed, "doctor", step - 1, "confirm-band"))
            rate = sum(w == "team" for w, _ in both) / len(both)
            if abs(rate - target) <= band / 2:
                break
        easier = rate < target  # the team wins too rarely: cut what hurts it, add what helps it
        decklist = parse_decklist(current, path, "horde")
        counts = deck_counts(decklist, build)
        scores = screen(outcomes, list(dict.fromkeys(list(counts) + list(pool))))
        sign = 1 if easier else -1
        known = [name for name in counts if not math.isnan(scores[name])]
        ranked = sorted(known, key=lambda name: sign * scores[name])
        kinds = {name: _kind(prepared, build, name) for name in list(counts) + list(pool)}
        kept = None
        fresh: list[Outcome] | None = None  # the current deck on the step's confirming seeds
        for round_ in range(patience):  # the screen's next candidates while none is confirmed
            cuts = ranked[round_ * candidates:(round_ + 1) * candidates]
            adds = [name for name in pool if name not in counts] + [
                name for name in ranked[::-1] if name not in cuts]
            tried: list[tuple[Swap, str]] = []
            for cut, add in _pairs(cuts, adds[round_ * candidates:] if not pool else adds, kinds):
                candidate = swapped(current, decklist, build, cut, add)
                try:
                    after = measure(candidate, (seed, "doctor", step - 1))
                except HordeError:
                    continue  # a swap the deck can't take (a recipe left without creatures)
                swap = _paired(step, cut, add, outcomes, after)
                tried.append((swap, candidate))
                if progress is not None:
                    progress(f"step {step}: -{cut} +{add}: team {swap.before:.1%} -> {swap.after:.1%} "
                             f"({_points(swap.difference)} points, paired 95% {_points(swap.low)} to "
                             f"{_points(swap.high)}) in the step's {swap.games} games")
            swaps.extend(swap for swap, _ in tried)
            best = min(tried, key=lambda t: abs(t[0].after - target), default=None)
            if best is None or abs(best[0].after - target) >= abs(rate - target):
                continue  # none comes closer on the step's games: the screen's next candidates
            # Chosen as the best of its round, its first measure is optimistic: measured again on
            # fresh seeds, paired with the current deck on the same ones.
            confirm_seed = (seed, "doctor", step, "confirm")
            if fresh is None:
                fresh = measure(current, confirm_seed)
            check = _paired(step, best[0].cut, best[0].add, fresh, measure(best[1], confirm_seed))
            best[0].confirmed = Paired(check.games, check.before, check.after, check.low, check.high)
            if progress is not None:
                progress(f"step {step}: -{best[0].cut} +{best[0].add} on {check.games} fresh paired games: team "
                         f"{check.before:.1%} -> {check.after:.1%} ({_points(check.difference)} points, paired 95% "
                         f"{_points(check.low)} to {_points(check.high)})")
            if abs(check.after - target) < abs(check.before - target):
                kept = best
                break
        if kept is None:
            break  # no candidate brings the rate closer to the target, confirmed on fresh games
        kept[0].kept = True
        current = kept[1]
        outcomes = measure(current, (seed, "doctor", step))  # the next step's own games: new seeds
    first = measure(text, (seed, "final")) + measure(text, (seed, "final", 1))
    final = first if current == text else measure(current, (seed, "final")) + measure(current, (seed, "final", 1))
    gain = _paired(0, "", "", first, final)
    end = _rate(final)
    return Diagnosis(current, start, end, swaps, abs(end[0] - target) <= band,
                     Paired(gain.games, gain.before, gain.after, gain.low, gain.high), step_rates)


def _points(share: float) -> str:
    """A difference of rates in points, signed, with no negative zero: ``+2.5``, ``-1.0``, ``+0.0``."""
    value = round(share * 100, 1) + 0.0
    return f"{value:+.1f}"


def _kind(prepared, build: str, name: str) -> bool | None:
    """A recipe draws its creatures and its spells from two lists (R1): a swap keeps a card's
    list, so that the recipe draws as many of each; a fixed deck's cards are all one list (None)."""
    if build != "recipe":
        return None
    return prepared.catalogue.get(name).is_creature


def _pairs(cuts: Sequence[str], adds: Sequence[str], kinds: dict) -> list[tuple[str, str]]:
    """Each cut with the first add of its kind not yet paired."""
    pairs, used = [], set()
    for cut in cuts:
        add = next((a for a in adds if a not in used and a != cut and kinds.get(a) == kinds.get(cut)), None)
        if add is not None:
            used.add(add)
            pairs.append((cut, add))
    return pairs


def _rate(outcomes: Sequence[Outcome]) -> tuple[float, float, float, int]:
    wins = sum(w == "team" for w, _ in outcomes)
    low, high = wilson(wins, len(outcomes))
    return wins / len(outcomes), low, high, len(outcomes)


def _paired(step: int, cut: str, add: str, before: Sequence[Outcome], after: Sequence[Outcome]) -> Swap:
    both = only_before = only_after = neither = 0
    for (a, _), (b, _) in zip(after, before, strict=True):
        won_after, won_before = a == "team", b == "team"
        both += won_after and won_before
        only_after += won_after and not won_before
        only_before += won_before and not won_after
        neither += not (won_after or won_before)
    low, high = paired_difference_interval(both, only_after, only_before, neither)
    n = len(before)
    return Swap(step, cut, add, n, (both + only_before) / n, (both + only_after) / n, low, high)


def _play_real(workers: int | None) -> Callable[[GameSetup, object, int], list[Outcome]]:
    def play(at: GameSetup, step_seed, games: int) -> list[Outcome]:
        from horde.lab.runner import play_many

        count = max(1, min(workers or os.cpu_count() or 1, games))
        chunk = max(1, math.ceil(games / count))
        return [(r.winner, frozenset(name for name, _ in r.revealed))
                for r in play_many(at, step_seed, games, workers=count, chunk_size=chunk, progress=False)]
    return play
