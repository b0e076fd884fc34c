"""The trace: one event per thing that happens, kept only when a trace was asked for.

Callers test ``game.drivers.trace is not None`` before building an event, so a game without a trace
builds none.
"""

from __future__ import annotations

from typing import Any

from horde.state import Game, Side


def log(game: Game, event: str, side: Side, **fields: Any) -> None:
    """Record one event of the trace (only called when ``game.drivers.trace`` is not None)."""
    trace = game.drivers.trace
    if trace is not None:
        trace.append({"turn": game.turn, "side": side, "event": event, **fields})
