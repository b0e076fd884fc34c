"""One door for every file horde reads or writes.

Reading: ``read_text`` and ``read_bytes`` open only regular files (never a folder, a named pipe
or a device, and never blocking on one), up to the most bytes a kind of file may hold
(``SIZES``), and ``read_text`` reads UTF-8 (a byte-order mark is fine) and says in one line what
else a file is (UTF-16 as Windows Notepad saves it, Latin-1, binary). ``check_regular`` makes
the same check of a file another library reads (Parquet).

Writing: ``write_file`` writes a file whole or not at all and never through a link: a temporary
file next to its target, created with ``O_EXCL | O_NOFOLLOW``, flushed to disk, then renamed over
the target; a target that is a link, a folder or a device is refused. ``check_tree`` refuses a
folder that is a link or holds links or special files; ``make_folder`` makes a real folder. A
problem is one ``HordeError`` line naming the file; a write that fails says why (a full disk,
a read-only folder) and leaves no temporary file behind.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from horde.errors import HordeError, escaped

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

# The most bytes each kind of file may hold (docs/limits.md).
SIZES: dict[str, int] = {
    "decklist": 1 * MiB,
    "banlist": 1 * MiB,
    "card file": 4 * MiB,
    "experiment file": 1 * MiB,
    "house-rules file": 1 * MiB,
    "policy module": 1 * MiB,
    "games file": 1 * MiB,
    "table's games log": 256 * MiB,  # every event of every game of a season (horde table's games.jsonl)
    "calibration file": 1 * MiB,
    "resolved experiment": 16 * MiB,
    "manifest": 64 * MiB,
    "AtomicCards file": 2 * GiB,
}
TEMPORARY = ".tmp"  # the suffix of a file being written (its target's name + ".tmp")


def shown(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> str:
    """A file name as a message or a text file shows it: a byte that is not UTF-8 (a name made
    on another system) as ``\\xNN``; the name itself, as the system holds it, is what is opened."""
    return escaped(os.fsdecode(path))


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _reason(error: OSError | ValueError) -> str:
    if isinstance(error, ValueError):  # os functions refuse a name with a NUL character in it
        return f"not a usable file name ({error})"
    if error.errno == errno.ENOSPC:
        return "the disk is full (No space left on device)"
    if error.errno == errno.EDQUOT:
        return "the disk quota is used up (Disk quota exceeded)"
    return error.strerror or str(error)


def check_regular(path: str | os.PathLike[str], kind: str, error: type[HordeError] = HordeError) -> int:
    """Check that ``path`` names a regular file (links followed) without opening it; returns its
    size. Raises ``error`` naming the file."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
    except (OSError, ValueError) as problem:
        raise error(f"cannot read {kind}: {_reason(problem)}", name) from None
    if not stat.S_ISREG(info.st_mode):
        raise error(f"cannot read {kind}: it is {_kind_of(info.st_mode)}, not a regular file", name)
    return info.st_size


def read_bytes(path: str | os.PathLike[str], kind: str, error: type[HordeError] = HordeError) -> bytes:
    """The bytes of the regular file ``path``, at most ``SIZES[kind]`` of them; ``error`` (a
    HordeError class) names the file and what is wrong. A named pipe or a device is refused
    without waiting on it."""
    name = os.fspath(path)
    limit = SIZES[kind]
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as problem:
        raise error(f"cannot read {kind}: {_reason(problem)}", name) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"cannot read {kind}: it is {_kind_of(info.st_mode)}, not a regular file", name)
        if info.st_size > limit:
            raise error(f"cannot read {kind}: it is {info.st_size:,} bytes, more than the {limit:,} a {kind} may "
                        "hold (docs/limits.md)", name)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 * MiB, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise error(f"cannot read {kind}: it holds more than {limit:,} bytes, the most a {kind} may hold "
                        "(docs/limits.md)", name)
        return b"".join(chunks)
    except OSError as problem:
        raise error(f"cannot read {kind}: {_reason(problem)}", name) from None
    finally:
        os.close(fd)


def decode(data: bytes, name: str, kind: str, error: type[HordeError] = HordeError) -> str:
    """UTF-8 text (a byte-order mark is dropped); raises ``error`` saying what else it is."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error(f"cannot read {kind}: it is UTF-16 text (as Windows Notepad saves it); save it as UTF-8", name)
    nul = data.find(b"\0")
    if nul >= 0:
        raise error(f"cannot read {kind}: it holds binary data (a NUL byte at offset {nul}); expected UTF-8 text",
                    name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise error(f"cannot read {kind}: not UTF-8 text (bad byte at offset {problem.start}); save it as UTF-8",
                    name) from None


def read_text(path: str | os.PathLike[str], kind: str, error: type[HordeError] = HordeError) -> str:
    """The UTF-8 text of the regular file ``path`` (``read_bytes``, then ``decode``)."""
    return decode(read_bytes(path, kind, error), os.fspath(path), kind, error)


# ---------------------------------------------------------------- writing


class WriteError(HordeError):
    """A file that could not be written; ``errno`` says why (``errno.ENOSPC``: the disk is full)."""

    def __init__(self, message: str, path: str | None = None, number: int | None = None):
        super().__init__(message, path)
        self.errno = number


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as problem:
        raise WriteError(f"cannot write: {_reason(problem)}", str(path), getattr(problem, "errno", None)) from None


def write_file(path: str | os.PathLike[str], content: bytes | str | Callable[[BinaryIO], object],
               flush: bool = True) -> None:
    """Write ``path`` whole or not at all: ``content`` (bytes, text as UTF-8, or a function that
    writes to a binary file) goes to a temporary file next to it (its name + ``.tmp``), created
    with ``O_EXCL | O_NOFOLLOW`` so no link is followed, flushed to disk (unless not ``flush``: a
    file its reader checks whole, as a run checks its part files) and renamed over ``path``.
    A ``path`` that is a link, a folder or a device is refused. Raises WriteError (one line: a full
    disk, a read-only folder) after removing the temporary file."""
    target = Path(path)
    info = _lstat(target)
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise WriteError(f"cannot write: it is {_kind_of(info.st_mode)}; horde writes only regular files, never "
                         "through a link (move it away)", str(target))
    temporary = target.with_name(target.name + TEMPORARY)
    leftover = _lstat(temporary)
    if leftover is not None:
        if stat.S_ISDIR(leftover.st_mode):
            raise WriteError(f"cannot write: {temporary.name} is a folder (move it away)", str(target))
        os.unlink(temporary)  # a temporary file of a write that was stopped (a link is removed, never followed)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(temporary, flags, 0o666)
    except (OSError, ValueError) as problem:
        raise WriteError(f"cannot write: {_reason(problem)}", str(target), getattr(problem, "errno", None)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(content, bytes):
                handle.write(content)
            elif isinstance(content, str):
                handle.write(content.encode("utf-8"))
            else:
                content(handle)
            handle.flush()
            if flush:
                os.fsync(handle.fileno())  # a full disk shows here, not after the rename
        os.replace(temporary, target)
    except BaseException as problem:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(problem, OSError):
            raise WriteError(f"cannot write: {_reason(problem)}", str(target), problem.errno) from None
        number = _os_error(problem)
        if number is not None:  # e.g. pyarrow's error for a failed write
            raise WriteError(f"cannot write: {_reason(OSError(number, os.strerror(number)))}", str(target),
                             number) from None
        raise


def _os_error(problem: BaseException) -> int | None:
    """The errno of a library's error wrapping an OSError (pyarrow raises its own), if any."""
    cause = problem.__cause__ or problem.__context__
    if isinstance(cause, OSError) and cause.errno is not None:
        return cause.errno
    text = str(problem)
    for number in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EIO):
        if os.strerror(number) in text:
            return number
    return None


def make_folder(path: str | os.PathLike[str], follow: bool = False) -> Path:
    """Make the folder ``path`` (and its parents) unless it is there; it must be a real folder,
    not a link to one (with ``follow``, a link to a folder will do: a folder the user names).
    Raises WriteError naming it."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise WriteError("cannot make the folder: a file of that name is in the way", str(folder)) from None
    except (OSError, ValueError) as problem:
        raise WriteError(f"cannot make the folder: {_reason(problem)}", str(folder),
                         getattr(problem, "errno", None)) from None
    if follow and os.path.isdir(folder):
        return folder
    info = _lstat(folder)
    if info is None or not stat.S_ISDIR(info.st_mode):
        kind = _kind_of(info.st_mode) if info is not None else "gone"
        raise WriteError(f"cannot write into it: it is {kind}, not a folder; horde never writes through a link",
                         str(folder))
    return folder


def check_tree(folder: str | os.PathLike[str], what: str = "folder") -> None:
    """Refuse a folder that is a link, or that holds a link or anything but regular files and
    folders (a named pipe, a device): horde never reads or writes through them. A missing folder
    is fine."""
    root = Path(folder)
    info = _lstat(root)
    if info is None:
        return
    if not stat.S_ISDIR(info.st_mode):
        raise HordeError(f"the {what} is {_kind_of(info.st_mode)}, not a folder; horde writes only into a real "
                         "folder (move it away or use --out)", str(root))
    for directory, folders, files in os.walk(root, followlinks=False, onerror=_raise):
        for name in folders + files:
            entry = Path(directory) / name
            mode = _lstat(entry)
            if mode is None:
                continue
            if not (stat.S_ISREG(mode.st_mode) or stat.S_ISDIR(mode.st_mode)):
                raise HordeError(f"the {what} holds {entry.relative_to(root)}, which is {_kind_of(mode.st_mode)}; "
                                 "horde never follows links or special files out of a results folder: remove "
                                 "it (or move the folder away)", str(root))


def _raise(error: OSError) -> None:
    raise HordeError(f"cannot read the folder: {_reason(error)}", error.filename)
