"""``horde doctor``: changes to a Horde deck's content, one swap at a time, that bring the team's
win rate to a target, the deck's size fixed.

Each step plays the current deck on the step's seeds and screens its cards: the team's win rate
in the games where the Horde revealed a card, against the rest. The cards that most hurt the team
(when it wins too rarely; most help it, when too often) are the candidates to cut, and the cards
of the pool (``--pool``) or of the deck's own lists that most help it (hurt it) the candidates to
add. The screen is only a guess (a card seen in a game is not what decided it), so every candidate
swap is then measured against the current deck on the same seeds (common random numbers: the same
team decks, shuffles and dice), and the swap whose win rate comes closest to the target is kept
only when it comes closer than the current deck; its paired difference, with Newcombe's interval
for paired rates, is the evidence printed. The doctor stops inside the band (the deck measured
inside it on one step's seeds, and inside its inner half with as many fresh ones added), when no
candidate helps, or after ``max_swaps``; the final deck is measured again on fresh seeds.

In a fixed deck the swaps are among its Deck and Tokens sections; in a recipe deck among its Deck
section, the pool R1 draws the creatures and spells from (the drawn counts stay the recipe's).
"""

from __future__ import annotations

import math
import os
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


@dataclass
class Swap:
    """One swap measured against the deck before it on the same seeds."""

    step: int
    cut: str
    add: str
    games: int
    before: float  # the team win rate of the deck before, on the step's seeds
    after: float  # with the swap, on the same seeds
    low: float  # the paired difference's Newcombe 95% interval
    high: float
    kept: bool = False

    @property
    def difference(self) -> float:
        return self.after - self.before


@dataclass
class Diagnosis:
    """What the doctor did: the deck text it ends with, the win rate before and after (each with
    its Wilson 95% interval), every swap it tried (those kept marked), and whether the final
    deck's rate lies within the band."""

    text: str
    start: tuple[float, float, float, int]  # rate, low, high, games
    end: tuple[float, float, float, int]
    swaps: list[Swap] = field(default_factory=list)
    reached: bool = False

    @property
    def kept(self) -> list[Swap]:
        return [swap for swap in self.swaps if swap.kept]


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
    ``candidates`` swaps on the same seeds and keeps the one closest to the target if it comes
    closer, else measures the next ``candidates`` of the screen's ranking, up to ``patience``
    rounds, before it stops. ``pool`` names cards that may be added besides the deck's own. ``play(setup, seed,
    games)`` returns each game's winner and revealed cards (default: real games on ``workers``
    processes). Returns the Diagnosis; the final deck is measured on ``2 x games`` fresh games."""
    path = resolve_path(deck, "horde")
    text = read_text(path, "decklist")
    prepared = prepare(setup_from_dict(setup.to_dict() | {"horde_deck": str(path)}))
    build = prepared.horde_deck.build
    if build == "whole":
        raise HordeError(f"{path}: a challenge deck is played whole; the doctor changes recipe and fixed decks")
    if play is None:
        play = _play_real(workers)
    folder = Path(tempfile.mkdtemp(prefix="horde-doctor-"))
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
    for step in range(1, max_swaps + 1):
        rate = sum(w == "team" for w, _ in outcomes) / len(outcomes)
        if abs(rate - target) <= band:
            # Inside the band on this step's seeds: measured again on as many fresh ones, and the
            # doctor stops only when both together lie in the inner half of the band, so that the
            # deck stays inside the band on the final fresh games (a rate that only just entered it
            # on one sample is often luck).
            both = outcomes + measure(current, (seed, "doctor", step - 1, "confirm"))
            rate = sum(w == "team" for w, _ in both) / len(both)
            if abs(rate - target) <= band / 2:
                break
        easier = rate < target  # the team wins too rarely: cut what hurts it, add what helps it
        decklist = parse_decklist(current, str(path), "horde")
        counts = deck_counts(decklist, build)
        scores = screen(outcomes, list(dict.fromkeys(list(counts) + list(pool))))
        sign = 1 if easier else -1
        known = [name for name in counts if not math.isnan(scores[name])]
        ranked = sorted(known, key=lambda name: sign * scores[name])
        kinds = {name: _kind(prepared, build, name) for name in list(counts) + list(pool)}
        best = None
        for round_ in range(patience):  # the screen's next candidates while none comes closer
            cuts = ranked[round_ * candidates:(round_ + 1) * candidates]
            adds = [name for name in pool if name not in counts] + [
                name for name in ranked[::-1] if name not in cuts]
            tried: list[tuple[Swap, str, list[Outcome]]] = []
            for cut, add in _pairs(cuts, adds[round_ * candidates:] if not pool else adds, kinds):
                candidate = swapped(current, decklist, build, cut, add)
                try:
                    after = measure(candidate, (seed, "doctor", step - 1))
                except HordeError:
                    continue  # a swap the deck can't take (a recipe left without creatures)
                swap = _paired(step, cut, add, outcomes, after)
                tried.append((swap, candidate, after))
                if progress is not None:
                    progress(f"step {step}: -{cut} +{add}: team {swap.before:.1%} -> {swap.after:.1%} "
                             f"({swap.difference * 100:+.1f} points, paired 95% {swap.low * 100:+.1f} to "
                             f"{swap.high * 100:+.1f}) in {swap.games} games")
            swaps.extend(swap for swap, _, _ in tried)
            best = min(tried, key=lambda t: abs(t[0].after - target), default=None)
            if best is not None and abs(best[0].after - target) < abs(rate - target):
                break
            best = None
        if best is None:
            break  # no candidate brings the rate closer to the target
        best[0].kept = True
        current = best[1]
        outcomes = measure(current, (seed, "doctor", step))
    final = measure(current, (seed, "final")) + measure(current, (seed, "final", 1))
    end = _rate(final)
    return Diagnosis(current, start, end, swaps, abs(end[0] - target) <= band)


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
