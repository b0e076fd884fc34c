"""Errors for people: every bad input becomes one line naming the file, line and what was expected;
a run that cannot go on, or is stopped, says so in one line too and how to continue. A message is
kept to one line of at most ``MESSAGE_MAX`` characters whatever it quotes."""

import codecs
import difflib
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from horde.limits import QUOTE_MAX, quoted

T = TypeVar("T")

MESSAGE_MAX = 20 * QUOTE_MAX  # characters of one error line, its file and line included
PATH_SHOWN = 5 * QUOTE_MAX  # characters of a path an error line shows (the message after it is never cut)


_UNDECODED = re.compile("[\udc80-\udcff]")  # how Python holds a byte of a name that is not UTF-8


def escaped(text: str) -> str:
    """``text`` with each byte of a file name that is not UTF-8 (``os.fsdecode``'s surrogate
    escapes) shown as ``\\xNN``, as the name would be typed in a shell's ``$'...'``."""
    return _UNDECODED.sub(lambda m: f"\\x{ord(m[0]) - 0xDC00:02x}", text)


def _escape_unencodable(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler ``horde.escaped``: what an output stream can't encode shown as
    ``escaped`` shows it (``\\xNN`` for the byte of a name that is not UTF-8), or as ``\\uNNNN``."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    unencodable = error.object[error.start:error.end]
    return "".join(escaped(c) if _UNDECODED.match(c) else f"\\u{ord(c):04x}" for c in unencodable), error.end


codecs.register_error("horde.escaped", _escape_unencodable)


class HordeError(Exception):
    """A problem in the user's input, reported as one line; the CLI exits with code 2."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        # The setup knob and value it is about, when preparing a setup found it (horde.play.prepare).
        self.knob: str | None = None
        self.value: object = None
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The error as one line: ``FILE:LINE: message``; control characters (line breaks
        included) become spaces and a very long line is cut short."""
        where = ""
        if self.path is not None:
            path = self.path
            if len(path) > PATH_SHOWN:  # a path of thousands of characters: its start and its end
                path = f"{path[:PATH_SHOWN // 2]}...{path[-PATH_SHOWN // 2:]}"
            where = f"{path}:{self.line}: " if self.line is not None else f"{path}: "
        text = "".join(c if c.isprintable() else " " for c in escaped(where + self.message))
        return text if len(text) <= MESSAGE_MAX else text[:MESSAGE_MAX - 3] + "..."


def about_knob(knob: str, value: object, load: Callable[[], T]) -> T:
    """``load()``, with a HordeError it raises marked as about ``knob`` = ``value`` (the command
    line then names the option)."""
    try:
        return load()
    except HordeError as error:
        error.knob, error.value = knob, value
        raise


def did_you_mean(given: str, names: Iterable[str]) -> str:
    """``did you mean 'x' or 'y'? `` naming the names closest to ``given`` (whatever the case), or ''."""
    folded = {name.casefold(): name for name in names}
    close = difflib.get_close_matches(given.casefold(), list(folded), n=3, cutoff=0.6)
    return f"did you mean {' or '.join(quoted(folded[c]) for c in close)}? " if close else ""


def match_name(given: str, names: Iterable[str], what: str, where: str = "",
               error: type[HordeError] = HordeError, separator: str = ", ", path: str | None = None,
               line: int | None = None, more: str = "") -> str:
    """The one of ``names`` that ``given`` names, whatever its case. Else ``error`` (one line:
    ``where``, or ``path`` and ``line``) says which ``what`` is unknown, the closest names ("did you
    mean") and every name; ``separator`` joins the list ('; ' for names that hold commas, like
    bosses') and ``more`` follows it (``or module:Class``)."""
    listed = list(names)
    found = {name.casefold(): name for name in listed}.get(given.casefold())
    if found is not None:
        return found
    plural = what[:-1] + "ies" if what.endswith("y") else what + "es" if what.endswith("s") else what + "s"
    raise error(f"{where + ': ' if where else ''}unknown {what} {quoted(given)}: {did_you_mean(given, listed)}"
                f"the {plural} are {separator.join(listed) or 'none'}{more}", path, line)


class DeckError(HordeError):
    """A decklist or card catalogue that cannot be read as written."""


class RunError(HordeError):
    """An experiment run that could not go on (a worker died, the Dask scheduler went away); its
    manifest says ``failed`` and its finished chunks are kept. One line, exit code 2, like bad input."""


class RunInterrupted(KeyboardInterrupt):
    """An experiment run stopped by Ctrl-C (or SIGTERM, from the command line) after its manifest
    recorded ``interrupted`` and what was finished. A KeyboardInterrupt, so it stops a caller too."""

    def __init__(self, folder: object, games_done: int, games_total: int, exact: bool):
        self.folder = folder
        self.games_done = games_done
        self.games_total = games_total  # every cell's games; the most they may play if ``not exact``
        self.exact = exact
        super().__init__(self.done())

    def done(self) -> str:
        """What is kept, e.g. ``1200 of 6000 games``."""
        total = f"{self.games_total}" if self.exact else f"at most {self.games_total}"
        return f"{self.games_done} of {total} games"
