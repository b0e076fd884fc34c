"""Stops of ``horde run`` on two local workers, again and again: SIGTERM at random moments (to the
command, or now and then to its whole process group as a service manager sends it) and a disk
that fills up at a random byte. Every stop must end the command with its one line (``interrupted:
...`` and exit 143, or ``error: ... the disk is full ...`` and exit 2), no traceback and no worker
left behind; and running the command again must end with the very files of a run never stopped.

The suite runs a handful of stops (``tests/test_stops.py``); ``make stress`` runs hundreds while
other processes keep every core busy, and prints the figures: how each stop ended, and how long
each took from the signal to the command's exit (a measurement, never a verdict: a stop still
running after ``--hang`` seconds is counted as a hang).

The full disk is real where the machine allows it: a small tmpfs mounted in a mount namespace of
this process's own (``unshare``; root, or unprivileged user namespaces), grown after the stop so
the run can go on. Elsewhere (``--disk inject``) the disk is made to fill in the command's own
process: ``horde.files`` writes through files that raise ENOSPC once a number of bytes is written,
as a full disk does, halfway through a write.

    python tests/stress_stops.py --stops 300 --load 2 --log .stress-log.tsv
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent
EXPERIMENT = ('name = "stops"\nseed = 5\n[setup]\nhorde_deck = "mini-recipe"\nboss = "none"\n'
              'team_decks = ["white", "white", "white", "white"]\n[sweep]\nplayers = [2, 3]\n'
              '[run]\ngames = {games}\nturns = true\n')
BUDGET = "HORDE_STRESS_DISK_BYTES"  # --disk inject: the bytes the command may write
COUNT = "HORDE_STRESS_DISK_COUNT"  # --disk inject: a file where the command notes the bytes it wrote
# The command as the console script runs it; with --disk inject, its writes are limited first.
LAUNCH = ("import sys; sys.path.insert(0, {tests!r}); import stress_stops; stress_stops.limit_disk(); "
          "from horde.cli import main; main()")
INTERRUPTED = re.compile(r"interrupted(: \d+ of (at most )?\d+ games are kept in .+)?; to continue, run: horde run .+"
                         r"|interrupted")
DISK_FULL = re.compile(r"error: .*(the disk is full|No space left on device).*")


# ---------------------------------------------------------------- a disk that fills up (--disk inject)


class _Filling:
    """A file being written on a disk with ``left[0]`` bytes free: a write past them writes what
    fits and raises ENOSPC, as a full disk does."""

    def __init__(self, handle, left: list[int], written: list[int]):
        self._handle = handle
        self._left = left
        self._written = written

    def write(self, data) -> int:
        size = len(memoryview(data).cast("B"))
        if size > self._left[0]:
            fits = max(0, self._left[0])
            self._handle.write(memoryview(data).cast("B")[:fits])
            self._left[0] = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._left[0] -= size
        self._written[0] += size
        return self._handle.write(data)

    def __getattr__(self, name):
        return getattr(self._handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self._handle.close()


def limit_disk() -> None:
    """In the command's process: with ``HORDE_STRESS_DISK_BYTES`` set, every file ``horde.files``
    writes draws on that many bytes in all; ``HORDE_STRESS_DISK_COUNT`` names a file that gets
    the bytes written when the command ends."""
    budget, count = os.environ.get(BUDGET), os.environ.get(COUNT)
    if budget is None and count is None:
        return
    import atexit
    import types

    import horde.files

    left, written = [int(budget) if budget is not None else 1 << 62], [0]
    real = horde.files.os

    def fdopen(fd, mode="r", *args, **kwargs):
        handle = real.fdopen(fd, mode, *args, **kwargs)
        return _Filling(handle, left, written) if "w" in mode else handle

    horde.files.os = types.SimpleNamespace(**{name: getattr(real, name) for name in dir(real)
                                              if not name.startswith("__")} | {"fdopen": fdopen})
    if count is not None:
        atexit.register(lambda: Path(count).write_text(str(written[0])))


# ---------------------------------------------------------------- a real full disk (--disk tmpfs)


def can_mount() -> bool:
    """Whether a tmpfs can be mounted in a mount namespace of our own here."""
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                            "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\" && rmdir \"$d\""],
                           capture_output=True)
    return probe.returncode == 0


def mount(folder: Path, size: int) -> None:
    """A tmpfs of ``size`` bytes at ``folder`` (in this namespace), or the one there resized."""
    folder.mkdir(parents=True, exist_ok=True)
    pages = max(1, size // 4096)
    if os.path.ismount(folder):
        subprocess.run(["mount", "-o", f"remount,size={pages * 4096}", str(folder)], check=True)
    else:
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={pages * 4096}", "tmpfs", str(folder)], check=True)


# ---------------------------------------------------------------- one stop


@dataclass
class Stop:
    """How one stop went: what stopped the run, how the command ended, and what was wrong."""

    number: int
    kind: str  # sigterm, sigterm-group, disk
    moment: float  # seconds after the start (a signal), or the bytes the disk had room for
    ended: str = ""  # interrupted, failed, complete, not started
    code: int = 0
    seconds: float = 0.0  # from the signal to the command's exit (a signal); the whole run (a full disk)
    problem: str = ""

    def row(self) -> str:
        return (f"{self.number}\t{self.kind}\t{self.moment:.3f}\t{self.ended}\t{self.code}\t{self.seconds:.3f}\t"
                f"{self.problem.replace(chr(9), ' ').replace(chr(10), ' | ')[:400]}")


class Bench:
    """The experiment, the command that runs it, and the files of a run never stopped."""

    def __init__(self, root: Path, games: int, disk: str, hang: float | None):
        self.root = root
        self.disk = disk
        self.hang = hang
        self.experiment = root / "stops.toml"
        self.experiment.write_text(EXPERIMENT.format(games=games))
        self.env = dict(os.environ, HORDE_DECKS=str(TESTS / "data" / "decks"), HORDE_HOME=str(root / "home"))
        self.env.pop(BUDGET, None)
        started = time.monotonic()
        subprocess.run(self.command(root, 1)[:3] + ["--version"], env=self.env, capture_output=True, check=True)
        self.startup = time.monotonic() - started  # before it, a signal finds no handler: nothing is started
        started = time.monotonic()
        count = root / "count"
        self.reference = self.files(self.finish(root / "reference", count=count))
        self.span = time.monotonic() - started  # how long a whole run takes here (the signals' range)
        self.written = int(count.read_text())  # the bytes a whole run writes

    def command(self, out: Path, chunk: int) -> list[str]:
        return [sys.executable, "-c", LAUNCH.format(tests=str(TESTS)), "run", str(self.experiment), "--out", str(out),
                "--workers", "2", "--quiet", "--chunk-size", str(chunk)]

    def start(self, out: Path, chunk: int, env: dict | None = None) -> subprocess.Popen:
        return subprocess.Popen(self.command(out, chunk), env=env or self.env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

    def finish(self, out: Path, count: Path | None = None) -> Path:
        """Run (or continue) to the end in ``out``; its results folder."""
        env = dict(self.env, **({COUNT: str(count)} if count else {}))
        done = subprocess.run(self.command(out, 7), env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the run in {out} did not end: exit {done.returncode}: {done.stderr[-2000:]}")
        folder, = [p for p in out.iterdir() if p.is_dir()]
        return folder

    @staticmethod
    def files(folder: Path) -> dict[str, str]:
        return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
                for name in ("games.parquet", "turns.parquet")}

    def ended(self, process: subprocess.Popen, stop: Stop, since: float) -> str | None:
        """Wait for the command to end (with --hang, at most that long); its stderr, or None for a hang."""
        try:
            _, stderr = process.communicate(timeout=self.hang)
        except subprocess.TimeoutExpired:
            stop.seconds = time.monotonic() - since
            stop.problem = f"still running {stop.seconds:.0f} s after the stop: {threads(process.pid)}"
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return None
        stop.seconds = time.monotonic() - since
        stop.code = process.returncode
        return stderr

    def one(self, number: int, rng: random.Random, kind: str | None = None) -> Stop:
        """Stop a run once (``kind``, else one drawn), judge how it ended, and continue it."""
        out = self.root / f"stop-{number}"
        chunk = rng.choice([3, 7, 20, 60])  # 60: a cell's whole result in one message
        kind = kind or rng.choice(["sigterm"] * 4 + ["sigterm-group"] + ["disk"] * 3)
        if kind == "disk":
            # a tmpfs holds less than its size in files (a page at least each): both mostly fill up
            stop = Stop(number, kind, rng.randrange(0, int(self.written * (0.6 if self.disk == "tmpfs" else 1.05)) + 1))
            env = self.env
            if self.disk == "tmpfs":
                mount(out, int(stop.moment) + 4096)
            else:
                env = dict(self.env, **{BUDGET: str(int(stop.moment))})
            since = time.monotonic()
            stderr = self.ended(self.start(out, chunk, env), stop, since)
        else:
            stop = Stop(number, kind, rng.uniform(self.startup / 2, self.span * 0.8))  # mostly before the end
            process = self.start(out, chunk)
            time.sleep(stop.moment)
            since = time.monotonic()
            try:
                if kind == "sigterm":
                    process.send_signal(signal.SIGTERM)
                else:
                    os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            stderr = self.ended(process, stop, since)
        if stderr is not None:
            self.judge(stop, stderr, out)
        gone = left_behind(out)
        if gone and not stop.problem:
            stop.problem = gone
        if not stop.problem:
            if self.disk == "tmpfs" and kind == "disk":
                mount(out, 256 * 2**20)  # space freed: the run can go on
            try:
                resumed = self.files(self.finish(out))
            except (RuntimeError, ValueError) as error:
                stop.problem = f"could not be continued: {error}"
            else:
                if resumed != self.reference:
                    stop.problem = "continued, it ends with other files than a run never stopped"
        if not stop.problem:
            if self.disk == "tmpfs" and kind == "disk":
                subprocess.run(["umount", str(out)], check=False)
            shutil.rmtree(out, ignore_errors=True)
        return stop

    def judge(self, stop: Stop, stderr: str, out: Path) -> None:
        """What the command's exit code and stderr say, and whether that is a proper end."""
        lines = stderr.splitlines()
        folder = next((p for p in out.iterdir() if p.is_dir()), None) if out.exists() else None
        manifest = json.loads((folder / "manifest.json").read_text()) if folder and (folder / "manifest.json").exists() \
            else None
        if "Traceback" in stderr or "Exception ignored" in stderr:
            stop.problem = "a traceback: " + stderr[-1500:]
        elif stop.code == 0:
            stop.ended = "complete"
            if stderr.strip():
                stop.problem = f"exit 0 with {stderr!r}"
        elif stop.code == -signal.SIGTERM and not stderr and folder is None:
            stop.ended = "not started"  # the signal came before horde's handler was set: nothing was written
        elif stop.kind.startswith("sigterm") and stop.code == 143 and len(lines) == 1 and INTERRUPTED.fullmatch(lines[0]):
            stop.ended = "interrupted"
            if manifest is not None and manifest["status"] not in ("interrupted", "running", "complete"):
                stop.problem = f"the manifest says {manifest['status']!r}"
        elif stop.kind == "disk" and stop.code == 2 and len(lines) == 1 and DISK_FULL.fullmatch(lines[0]):
            stop.ended = "failed"
        else:
            stop.problem = f"exit {stop.code} with {stderr[-1500:]!r}"


def threads(pid: int) -> str:
    """What a hung command's threads wait on (from /proc), to say where it hangs."""
    try:
        tasks = sorted(os.listdir(f"/proc/{pid}/task"))
        return "; ".join(Path(f"/proc/{pid}/task/{t}/wchan").read_text() or "?" for t in tasks)
    except OSError:
        return "?"


def left_behind(out: Path) -> str:
    """The workers still alive once the command has ended (a worker is a fork of the command, so
    its command line names ``out``): the command ends its workers before it exits."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if state != "Z" and str(out).encode() + b"\0" in command:
            alive.append(entry)
    return f"processes left behind: {alive}" if alive else ""


# ---------------------------------------------------------------- many stops


def busy(cores: int) -> list[subprocess.Popen]:
    """``cores`` processes that keep a core busy each (a loaded machine), each ending once this
    process is gone (killed, it can't stop them: they would keep the machine busy for ever)."""
    spin = "import os, sys\nwhile os.getppid() == int(sys.argv[1]):\n    for _ in range(10 ** 6): pass"
    return [subprocess.Popen([sys.executable, "-c", spin, str(os.getpid())]) for _ in range(cores)]


def stress(stops: int, seed: int = 1, games: int = 60, disk: str = "auto", hang: float | None = None,
           load: int = 0, log: Path | None = None, root: Path | None = None,
           kinds: list[str] | None = None) -> list[Stop]:
    """``stops`` stops of a run (their kinds in turn from ``kinds``, else drawn); each stop's
    outcome (``problem`` empty when it met the contract). ``hang`` None waits for every stop."""
    if disk == "auto":
        disk = "tmpfs" if os.environ.get("HORDE_STRESS_NAMESPACE") else "inject"
    loaders = busy(load)
    made = root is None
    root = root or Path(tempfile.mkdtemp(prefix="horde-stops-"))
    try:
        bench = Bench(root, games, disk, hang)
        rng = random.Random(seed)
        found = []
        for number in range(stops):
            stop = bench.one(number, rng, kinds[number % len(kinds)] if kinds else None)
            found.append(stop)
            if log is not None:
                with open(log, "a") as handle:
                    handle.write(stop.row() + "\n")
        return found
    finally:
        for process in loaders:
            process.kill()
            process.wait()
        if made and not any(stop.problem for stop in locals().get("found", [])):
            shutil.rmtree(root, ignore_errors=True)


def summary(stops: list[Stop], disk: str) -> str:
    """The figures of a stress run."""
    ends: dict[str, int] = {}
    for stop in stops:
        ends[stop.ended or "problem"] = ends.get(stop.ended or "problem", 0) + 1
    signalled = sorted(s.seconds for s in stops if s.kind.startswith("sigterm") and s.ended == "interrupted")
    lines = [f"{len(stops)} stops ({sum(s.kind == 'sigterm' for s in stops)} SIGTERM to the command, "
             f"{sum(s.kind == 'sigterm-group' for s in stops)} to its process group, "
             f"{sum(s.kind == 'disk' for s in stops)} full disks: {disk}): "
             + ", ".join(f"{name} {n}" for name, n in sorted(ends.items()))]
    if signalled:
        lines.append(f"signal to exit: median {statistics.median(signalled):.2f} s, "
                     f"90th percentile {signalled[int(0.9 * (len(signalled) - 1))]:.2f} s, max {signalled[-1]:.2f} s")
    problems = [s for s in stops if s.problem]
    lines.append(f"problems: {len(problems)}")
    lines += [f"  stop {s.number} ({s.kind} at {s.moment:.3f}): {s.problem[:300]}" for s in problems[:20]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stops", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=60, help="games of each of the experiment's two cells")
    parser.add_argument("--disk", choices=["auto", "tmpfs", "inject"], default="auto",
                        help="a real tmpfs that fills up (auto: where a mount namespace can be had) or an injected ENOSPC")
    parser.add_argument("--hang", type=float, default=60.0, help="seconds after which a stop that has not ended is a hang")
    parser.add_argument("--load", type=int, default=0, help="processes that keep a core busy each meanwhile")
    parser.add_argument("--log", type=Path, default=None, help="a TSV line per stop")
    arguments = parser.parse_args()
    if arguments.disk != "inject" and not os.environ.get("HORDE_STRESS_NAMESPACE") and can_mount():
        # again, in a mount namespace of its own: its tmpfs mounts go when it ends, however it ends
        os.execvpe("unshare", ["unshare", "--user", "--map-root-user", "--mount", sys.executable, *sys.argv],
                   dict(os.environ, HORDE_STRESS_NAMESPACE="1"))
    if arguments.disk == "tmpfs" and not os.environ.get("HORDE_STRESS_NAMESPACE"):
        parser.error("--disk tmpfs: no mount namespace can be had here (unshare); use --disk inject")
    disk = "tmpfs" if os.environ.get("HORDE_STRESS_NAMESPACE") and arguments.disk != "inject" else "inject"
    if arguments.log:
        arguments.log.write_text("stop\tkind\tmoment\tended\texit\tseconds\tproblem\n")
    stops = stress(arguments.stops, arguments.seed, arguments.games, disk, arguments.hang, arguments.load, arguments.log)
    print(summary(stops, "a tmpfs that fills up" if disk == "tmpfs" else "ENOSPC injected at the writer"))
    return 1 if any(stop.problem for stop in stops) else 0


if __name__ == "__main__":
    sys.exit(main())
