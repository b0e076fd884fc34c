"""Small statistics the command line and the analysis layer share: Wilson intervals for rates.

Pure Python (no pandas), so the command line stays light.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the 97.5% point of the standard normal


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial rate (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_half_width(successes: int, trials: int, z: float = Z95) -> float:
    low, high = wilson(successes, trials, z)
    return (high - low) / 2
