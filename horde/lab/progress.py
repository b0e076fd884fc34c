"""Progress of many games, told where it is read: a live bar on a terminal or in a notebook
(``tqdm.auto``: a widget in Jupyter), and in a log (no terminal: output piped or redirected) one
plain line each time another tenth of the games is done, so a log holds a few lines, never every
frame of a bar."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

STEPS = 10  # a log line at each tenth of the games


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where ``tqdm.auto`` draws a widget)."""
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None) if shell is not None else None
    return get is not None and type(get()).__name__ == "ZMQInteractiveShell"


class LogProgress:
    """A progress bar for a log: ``update`` and ``close`` as tqdm's, one line per tenth done
    (``name: 40% (1,680 of 4,200 games, 12 s)``) and one at the end."""

    disable = False  # as tqdm says it is shown

    def __init__(self, total: int, initial: int = 0, desc: str = "", unit: str = "game", stream: TextIO | None = None):
        self.total, self.n, self.desc, self.unit = total, initial, desc or "progress", unit
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.perf_counter()
        self.told = self._step()
        self.closed = False

    def _step(self) -> int:
        return self.n * STEPS // self.total if self.total else STEPS

    def update(self, n: int = 1) -> None:
        self.n += n
        step = self._step()
        if step > self.told and self.n < self.total:
            self.told = step
            self._line()

    def _line(self) -> None:
        share = self.n / self.total if self.total else 1.0
        seconds = time.perf_counter() - self.started
        print(f"{self.desc}: {share:.0%} ({self.n:,} of {self.total:,} {self.unit}s, {seconds:.0f} s)",
              file=self.stream, flush=True)

    def refresh(self) -> None:
        """Nothing: a log gets its lines from ``update`` (a bar's redraw would print a line twice)."""

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.n:
                self._line()

    def __enter__(self) -> LogProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NoProgress:
    """No progress shown (``progress=False``)."""

    disable = True  # as tqdm says it is not shown

    def __init__(self, total: int = 0, initial: int = 0):
        self.total, self.n = total, initial

    def update(self, n: int = 1) -> None:
        self.n += n

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: int, show: bool = True, initial: int = 0, desc: str = "", unit: str = "game",
                 **options: Any) -> Any:
    """A progress bar over ``total`` games: none unless ``show``; tqdm.auto's on a terminal or in a
    notebook; else (a log) ``LogProgress``'s lines."""
    if not show:
        return NoProgress(total, initial)
    if sys.stderr.isatty() or in_notebook():
        from tqdm.auto import tqdm

        return tqdm(total=total, initial=initial, desc=desc or None, unit=unit, **options)
    return LogProgress(total, initial, desc, unit)
