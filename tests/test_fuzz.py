"""The fuzz suite: the command line on damaged and hostile input, in-process, case after case.

Each case runs in a sandbox of its own (a fresh temporary folder holding the case's input files,
a victim folder with a secret file, a named pipe and links, a data folder for HORDE_HOME, the
working folder and an output folder) and must end with exit code 0 or 2 (``horde cards compile``
also 1: a text not understood), no traceback, never hanging, within a memory limit, never
echoing the victim's secret, and with no file written, changed or deleted anywhere but the results folder (the data
folder too for ``horde cards import``), in the sandbox or in the repository's decks/ and
experiments/.

The inputs are a seeded mutation corpus over the bundled decklists, card files and experiment
files, MTGJSON's AtomicCards fixture and a results folder; the text and data files the installed
packages carry (files no one on the project wrote); and hypothesis strategies over command
lines and Oracle text. Cases run in-process (click's CliRunner); every 12th case of the file
families runs as a process of its own, through the console script's ``main``.
``HORDE_FUZZ_CASES`` sets how many cases in all (the default: 168 in ``make test``, 336 in ``make
test-full``; ``make fuzz``: 2,400);
``HORDE_FUZZ_SECONDS`` a time limit of one case (``make fuzz``: 120 s), whose log then says which
cases ran past it; the suite sets none (no test compares a time: a case that hangs fails by the
suite's hang guard). A failure names its family and case number
(``HORDE_FUZZ_CASES`` and the case number replay it) and keeps its files.
"""

from __future__ import annotations

import gzip
import json
import lzma
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import horde.cards.cardindex
import horde.cards.catalogue
import horde.cards.decks
import horde.play
from horde.cli.common import OPTION_NAMES, cli
from horde.setup import KNOBS

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
# make test (HORDE_SLOW_SCALE below 1) runs 168 cases, make test-full 336, make fuzz 2,400. A file
# family's case is seeded by its number, so make test's are the first of make test-full's, every time.
DEFAULT_CASES = 336 if float(os.environ.get("HORDE_SLOW_SCALE", "1")) >= 1 else 168
CASES = int(os.environ.get("HORDE_FUZZ_CASES", str(DEFAULT_CASES)))
SECONDS = float(os.environ["HORDE_FUZZ_SECONDS"]) if os.environ.get("HORDE_FUZZ_SECONDS") else None
SECRET = "SECRET-7f3a9c"  # the victim file's content: no output may show it
MEMORY = int(float(os.environ.get("HORDE_FUZZ_GIB", "6")) * 2**30)  # the address space a case may use
# The share of the cases each family gets.
SHARES = {"decklists": 0.17, "card files": 0.17, "experiments": 0.17, "command lines": 0.15, "card index": 0.08,
          "oracle text": 0.09, "results folders": 0.12, "foreign files": 0.05}
FAILURES = TESTS.parent / ".fuzz-failures"  # a failing case's files are kept here
SEPARATE = 12  # every 12th case of the file families runs as a process of its own, not in-process


def cases(family: str) -> int:
    return max(1, round(CASES * SHARES[family]))


# ---------------------------------------------------------------- the sandbox and one case


class Hang(BaseException):
    """A case passed its time limit (a BaseException: nothing in horde catches it)."""


@dataclass
class Sandbox:
    """The folders of one case."""

    root: Path
    inputs: Path = field(init=False)
    victim: Path = field(init=False)
    cwd: Path = field(init=False)
    out: Path = field(init=False)
    home: Path = field(init=False)

    def __post_init__(self) -> None:
        for name in ("inputs", "victim", "cwd", "out", "home"):
            (self.root / name).mkdir()
            setattr(self, name, self.root / name)
        (self.victim / "secret.txt").write_text(f"{SECRET}: do not echo\n{SECRET}\n")
        (self.victim / "dir").mkdir()
        (self.victim / "dir" / "kept.txt").write_text(SECRET)
        (self.inputs / "link-secret.txt").symlink_to(self.victim / "secret.txt")
        (self.inputs / "link-dir").symlink_to(self.victim / "dir", target_is_directory=True)
        os.mkfifo(self.inputs / "pipe.txt")

    def paths(self) -> list[str]:
        """Paths a hostile input may name: the secret, links, a folder, a pipe, devices, nothing."""
        return [str(self.victim / "secret.txt"), str(self.inputs / "link-secret.txt"), str(self.victim / "dir"),
                str(self.inputs / "link-dir"), str(self.inputs / "pipe.txt"), "/dev/zero", "/dev/null",
                "/proc/self/status", str(self.root / "missing" / "none.txt"), "", "a" * 5000, "bad\x00name",
                "~/../../etc/hostname", "-"]


def snapshot(root: Path, skip: tuple[Path, ...]) -> dict[str, tuple]:
    """Every entry under ``root`` but ``skip`` (links not followed): kind, size, time, target."""
    found: dict[str, tuple] = {}
    for directory, folders, files in os.walk(root, followlinks=False):
        here = Path(directory)
        folders[:] = [f for f in folders if here / f not in skip]
        for name in folders + files:
            path = here / name
            info = os.lstat(path)
            target = os.readlink(path) if os.path.islink(path) else ""
            found[str(path)] = (info.st_mode, info.st_size, info.st_mtime_ns, target)
    return found


WATCHED = (ROOT / "decks", ROOT / "experiments")


def clear_caches() -> None:
    """Per-process caches keyed by paths the sandboxes reuse no more: let them go."""
    horde.cards.catalogue._CATALOGUES.clear()
    horde.cards.decks._CACHE.clear()
    horde.play._PREPARED.clear()
    horde.cards.cardindex._OPEN.clear()


@dataclass
class Finished:
    """How a ``horde`` process ended (what CliRunner's Result says, for a subprocess)."""

    output: str
    exit_code: int
    exception: BaseException | None = None


def in_subprocess(arguments: list[str], environment: dict, cwd: Path) -> Finished:
    """Run ``horde ARGUMENTS`` as its own process, as a user would (the console script's main)."""
    env = {k: v for k, v in (os.environ | environment).items() if v is not None}
    try:
        done = subprocess.run([sys.executable, "-c", "from horde.cli import main; main()", *arguments], env=env,
                              cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=SECONDS)  # make fuzz only
    except subprocess.TimeoutExpired:
        raise Hang from None
    return Finished(done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace"), done.returncode)


def run_case(box: Sandbox, arguments: list[str], name: str, env: dict | None = None,
             exits: tuple[int, ...] = (0, 2), home_written: bool = False, separate: bool = False) -> None:
    """Run ``horde ARGUMENTS`` in ``box`` and check the contract; a failure keeps the case.
    ``separate`` runs it as a process of its own (a sample of the cases) rather than in-process."""
    allowed = (box.out, box.cwd / "results") + ((box.home,) if home_written else ())
    before = snapshot(box.root, allowed) | {k: v for w in WATCHED for k, v in snapshot(w, ()).items()}
    clear_caches()
    environment = {"HORDE_HOME": str(box.home), "HORDE_CARDS": None, "HORDE_DECKS": None, "COLUMNS": "120"}
    environment.update(env or {})
    previous = signal.signal(signal.SIGALRM, _hang) if SECONDS else None
    if SECONDS:  # make fuzz only
        signal.setitimer(signal.ITIMER_REAL, SECONDS)
    here = os.getcwd()
    os.chdir(box.cwd)
    problem, verdict = "", "ok"
    try:
        if separate:
            result = in_subprocess(arguments, environment, box.cwd)
        else:
            result = CliRunner().invoke(cli, arguments, env=environment, prog_name="horde", catch_exceptions=True)
    except Hang:
        problem, verdict = f"still running after {SECONDS:.0f} s", "timeout"
    finally:
        if SECONDS:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        os.chdir(here)
    if not problem:
        output = result.output
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            import traceback

            lines = "".join(traceback.format_exception(result.exception)).splitlines()
            problem, verdict = "traceback:\n" + "\n".join(line[:200] for line in lines[-24:]), "traceback"
        elif "Traceback" in output:
            problem, verdict = "a traceback in the output", "traceback"
        elif "MemoryError" in output:
            problem, verdict = "ran out of memory (more than HORDE_FUZZ_GIB)", "memory"
        elif result.exit_code not in exits:
            problem, verdict = f"exit code {result.exit_code}, expected one of {exits}", "exit code"
        elif SECRET in output:
            problem, verdict = "the victim's secret is in the output", "secret shown"
        else:
            after = snapshot(box.root, allowed) | {k: v for w in WATCHED for k, v in snapshot(w, ()).items()}
            changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
            if changed:
                problem = f"files written, changed or deleted outside the results folder: {changed[:5]}"
                verdict = "outside write"
        tail = output[-2000:]
    else:
        tail = ""
    if os.environ.get("HORDE_FUZZ_LOG"):
        last = printable((tail.strip().splitlines() or [""])[-1][:150])
        code = "-" if verdict == "timeout" else str(result.exit_code)
        with open(os.environ["HORDE_FUZZ_LOG"], "a") as log:  # one write per line: workers share the file
            log.write(f"{name}\t{verdict}\t{code}\t{printable(' '.join(arguments[:2])[:60])}\t{last}\n")
    if problem:
        kept = FAILURES / re.sub(r"[^\w.-]+", "-", name)
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(box.inputs, kept, symlinks=True, ignore=lambda d, names: [n for n in names if n == "pipe.txt"])
        shown = shlex.join(a if len(a) < 300 else a[:300] + "..." for a in arguments)
        shown_env = {k: (v if v is None or len(v) < 300 else v[:300] + "...") for k, v in (env or {}).items()}
        raise AssertionError(f"fuzz case {name}: {problem}\n  command: horde {shown}\n"
                             f"  env: {shown_env}\n  inputs kept in {kept}\n  output: {tail[-1500:]}")


def printable(text: str) -> str:
    return "".join(c if c.isprintable() else " " for c in text)


def _hang(signum, frame):
    raise Hang


@pytest.fixture(scope="module", autouse=True)
def memory_limit():
    """A case that grows without bound meets a MemoryError (a failure) rather than the machine's end."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limited = MEMORY if hard == resource.RLIM_INFINITY else min(MEMORY, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limited, hard))
    yield
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture
def sandbox():
    """A new sandbox for each case (``make()``), removed after."""
    made: list[Path] = []

    def make() -> Sandbox:
        root = Path(tempfile.mkdtemp(prefix="horde-fuzz-"))
        made.append(root)
        return Sandbox(root)

    old = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # an imported policy module writes no __pycache__
    yield make
    sys.dont_write_bytecode = old
    for root in made:
        for path in root.rglob("*"):  # a folder made read-only by a case
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------- mutations

NUMBERS = ["-1", "0", "1", "7", "99", "999", "1000", "100000", "2147483648", "9223372036854775808",
           "99999999999999999999", "1e20", "1.5", "2.7", "inf", "nan", "-inf", "²", "٣", "0x10", "-0", "+3", "½",
           "9" * 5000, "", " "]
WORDS = ["", " ", "\x00", "\ufeff", "\u2028", "\u200b", "é", "🂡", "x" * 20_000, "\t", "{", "}", "[", "]", "{{",
         "::", ":", "=", "#", "//", ";", "\"", "'", "\\", "$(id)", "%s%n", "../../etc/passwd", "Commander",
         "Deck", "Tokens", "Bosses", "Lieutenants", "About", "Kind team", "Kind horde", "Build recipe",
         "Creatures 99999999999999", "Sideboard", "SB: 1 Island", "with-flyng", "nonzombie", "X", "*",
         "Zombie", "Grave Titan", "tokens", "−3", "Name: Zombie"]


def hostile_value(rng: random.Random, box: Sandbox) -> str:
    return rng.choice([rng.choice(NUMBERS), rng.choice(WORDS), rng.choice(box.paths())])


def mutate_text(text: str, rng: random.Random, box: Sandbox, special: Callable[[str, random.Random], str] | None
                = None) -> str:
    """One to six random changes to a text: lines deleted, duplicated, swapped or inserted, a
    number or a word swapped for a hostile one, characters inserted, the text cut short."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 6)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        action = rng.randrange(9)
        if action == 0:
            del lines[i]
        elif action == 1:
            lines.insert(i, lines[i])
        elif action == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == 3:
            lines.insert(i, rng.choice(WORDS) + " " + rng.choice(WORDS))
        elif action == 4:
            lines[i] = re.sub(r"[0-9]+", lambda m: rng.choice(NUMBERS), lines[i], count=1)
        elif action == 5:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = hostile_value(rng, box)
            lines[i] = " ".join(words)
        elif action == 6:
            at = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:at] + rng.choice(WORDS + ["\x00", "\r", "\x1b[31m", chr(rng.randrange(1, 0x2FFFF))]) \
                + lines[i][at:]
        elif action == 7 and special is not None:
            lines[i] = special(lines[i], rng)
        else:
            lines = lines[: rng.randint(0, len(lines))]
    return "\n".join(lines) + rng.choice(["\n", "", "\r\n"])


def write_mutated(path: Path, text: str, rng: random.Random, box: Sandbox) -> Path:
    """Write the text as a file of some encoding, or (rarely) put something else at the path."""
    roll = rng.random()
    if roll < 0.04:
        return Path(rng.choice([str(box.inputs / "pipe.txt"), "/dev/zero", str(box.victim / "dir"),
                                str(box.inputs / "link-secret.txt")]))
    if roll < 0.07:
        with open(path, "wb") as handle:  # a sparse file past every text file's size
            handle.truncate(5 * 1024 * 1024)
        return path
    if roll < 0.10:
        path.write_bytes("\n".join(["1 Island"] * 150_000).encode())
        return path
    encoding = rng.choice(["utf-8"] * 12 + ["utf-8-sig", "utf-16", "latin-1", "cp1252", "utf-32"])
    data = text.encode(encoding, errors="replace")
    if rng.random() < 0.05:
        data = bytes(b ^ rng.randrange(256) if rng.random() < 0.02 else b for b in data)
    path.write_bytes(data)
    return path


def corpus(*patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in ROOT.glob(pattern))


# ---------------------------------------------------------------- decklists


DECKS = corpus("decks/horde/*.txt", "decks/team/*.txt", "tests/data/decks/horde/*.txt", "tests/data/decks/team/*.txt")


@pytest.mark.parametrize("first", range(0, cases("decklists"), 24))
def test_fuzz_decklists(sandbox, first):
    for i in range(first, min(first + 24, cases("decklists"))):
        rng = random.Random(f"decklists/{i}")
        box = sandbox()
        seed = rng.choice(DECKS + [ROOT / "decks" / "banlist.txt"])
        name = rng.choice(["deck.txt"] * 5 + ["deck-\udcff.txt"])  # a name that is not UTF-8 (issue 29)
        path = write_mutated(box.inputs / name, mutate_text(seed.read_text(), rng, box), rng, box)
        horde_deck = "horde" in seed.parts
        common = ["--quiet", "--workers", "1", "--games", "2"]
        arguments = rng.choice([
            ["decks", "check", str(path)] + rng.choice([[], ["--kind", "team"], ["--kind", "horde"]]),
            ["simulate", *common, "--horde", str(path), "--players", rng.choice(["1", "2", "4"])]
            if horde_deck else ["simulate", *common, "--team", str(path), "--team", str(path), "--players", "2"],
            ["play", "--banlist", str(path), "--players", "2"],
            ["cards", "coverage", str(path)],
        ])
        run_case(box, arguments, f"decklists-{i}", separate=i % SEPARATE == 0)


# ---------------------------------------------------------------- card files


def card_blocks() -> list[str]:
    blocks = []
    for path in corpus("decks/cards/*.txt", "tests/data/decks/cards/*.txt"):
        blocks += [b.strip() for b in path.read_text().split("\n\n") if "Name:" in b]
    return blocks


BLOCKS = card_blocks()
CARD_FIELDS = ["PT: ", "Loyalty: ", "HordeX: ", "Cost: ", "Colors: ", "Identity: ", "Mana: ", "Equip: ",
               "Keywords: ", "Type: ", "Name: ", "Enters: create_tokens token=Zombie count=",
               "Upkeep: create_tokens token=Zombie count=", "EachUpkeep: create_tokens token=Zombie count=",
               "Dies: create_tokens token=Zombie count=", "Enters: draw count=", "Static: anthem filter=",
               "Enters: damage_each_opponent amount=", "Minus: ", "Plus: ", "Activated: {T} -> pump power="]


def card_mutation(line: str, rng: random.Random) -> str:
    return rng.choice(CARD_FIELDS) + rng.choice(NUMBERS + WORDS + ["blue", "bleu", "WUBRG", "creature with-flyng",
                                                                   "-X: draw", "{²}", "{9999}", "2147483648/1"])


@pytest.mark.parametrize("first", range(0, cases("card files"), 24))
def test_fuzz_card_files(sandbox, first):
    for i in range(first, min(first + 24, cases("card files"))):
        rng = random.Random(f"card files/{i}")
        box = sandbox()
        chosen = rng.sample(BLOCKS, rng.randint(1, 12))
        text = mutate_text("\n\n".join(chosen), rng, box, card_mutation)
        name = rng.choice(["cards.txt"] * 5 + ["cards-\udcff.txt"])  # a name that is not UTF-8 (issue 29)
        path = write_mutated(box.inputs / name, text, rng, box)
        names = re.findall(r"Name: (.*)", text) or ["Zombie"]
        via_env = rng.random() < 0.3
        cards = [] if via_env else ["--cards", str(path)]
        env = {"HORDE_CARDS": os.pathsep.join([str(path)] + rng.sample([p for p in box.paths() if "\x00" not in p],
                                                                        rng.randint(0, 1)))} if via_env else None
        arguments = rng.choice([
            ["cards", "show", rng.choice(names)[:300], *cards],
            ["decks", "check", *cards, rng.choice(["go-wide", "zombie-horde", "knudson-2011"])],
            ["simulate", "--quiet", "--workers", "1", "--games", "2", "--players", rng.choice(["2", "4"]), *cards,
             "--max-turns", rng.choice(["60", "1000"]), "--life-per-player", rng.choice(["20", "1000"])],
        ])
        run_case(box, arguments, f"card-files-{i}", env=env, separate=i % SEPARATE == 0)


# ---------------------------------------------------------------- experiment files


EXPERIMENTS = corpus("experiments/*.toml")
TOML_VALUES = ["0", "-1", "9223372036854775808", "1e400", "inf", "nan", "-inf", "2.7", "true", '""', '"auto"',
               '"unlimited"', '"none"', '"default"', "[]", "[1, 2, 3]", '["a", "b"]', "{}", '{name = "control"}',
               '{name = "control", wrath_threshold = inf}', '{name = "control", wrath_threshold = [1]}',
               '"' + "x" * 5000 + '"', "[" * 50 + "1" + "]" * 50, '"\\u0000"', "1979-05-27T07:32:00Z",
               '"module:Class"', '"os:system"', '"antigravity:Fly"', '"horde.team.policies:BaselinePolicy"',
               '"tcp://127.0.0.1:1"', "0.0000001", "1000001", "200", "100000000", "100000001"]


def toml_mutation(line: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4 and "=" in line:
        key = line.split("=", 1)[0]
        return f"{key}= {rng.choice(TOML_VALUES)}"
    if roll < 0.6:
        knob = rng.choice(list(KNOBS) + ["seed", "name", "games", "precision", "max_games", "check_every", "turns",
                                         "unknown"])
        return f"{knob} = {rng.choice(TOML_VALUES)}"
    if roll < 0.75:
        return rng.choice(["[setup]", "[sweep]", "[run]", "[[run]]", "[setup.x]", "[sweep.policy]", "[x]"])
    knob = rng.choice(["horde_deck", "banlist", "cards", "team_decks"])
    path = json.dumps(rng.choice(PATHS))
    return f"{knob} = [{path}]" if knob in ("cards", "team_decks") else f"{knob} = {path}"


PATHS: list[str] = []  # filled per case with the sandbox's paths


@pytest.mark.parametrize("first", range(0, cases("experiments"), 24))
def test_fuzz_experiments(sandbox, first):
    small = ('name = "small"\nseed = 3\n[setup]\nplayers = 2\ncards_per_player = 10\n[sweep]\n'
             'policy = ["baseline", {name = "control", wrath_threshold = 8}]\n[run]\ngames = 2\n')
    for i in range(first, min(first + 24, cases("experiments"))):
        rng = random.Random(f"experiments/{i}")
        box = sandbox()
        PATHS[:] = box.paths()
        seed = rng.choice([p.read_text() for p in EXPERIMENTS] + [small] * 3)
        name = rng.choice(["x.toml"] * 4 + ["x-\udcff.toml"])  # a name that is not UTF-8 (issue 29)
        path = write_mutated(box.inputs / name, mutate_text(seed, rng, box, toml_mutation), rng, box)
        out = box.out / rng.choice(["", "", "", "out-\udcff"])
        arguments = ["run", str(path), "--out", str(out), "--workers", "1", "--quiet", "--max-games",
                     rng.choice(["1", "2"])] + rng.choice([[], ["--games", "1"], ["--chunk-size", "1"]])
        run_case(box, arguments, f"experiments-{i}", separate=i % SEPARATE == 0)


# ---------------------------------------------------------------- command lines (hypothesis)


def knob_flags() -> list[str]:
    return [OPTION_NAMES.get(name, "--" + name.replace("_", "-")) for name in KNOBS]


VALUES = st.one_of(st.sampled_from(NUMBERS + WORDS[:40] + ["2", "3", "4", "20", "baseline", "control", "random",
                                                           "zombie-horde", "knudson-2011", "escalating", "put",
                                                           "revealed", "per_army", "defender", "partial_paris",
                                                           "3:2", "0:0", "1:999", "wrath_threshold=inf",
                                                           "unlimited", "none", "default", "go-wide", "mini"]),
                   st.text(max_size=12))


@st.composite
def command_lines(draw) -> tuple[list[str], str]:
    """A command and options with values good, bad and hostile; "@PATH" stands for a sandbox path."""
    command = draw(st.sampled_from(["play", "simulate", "decks", "cards show", "cards coverage", "policies",
                                    "run", "summary", "report", "compare", "tune", "cards verbs"]))
    words = command.split()
    flags = knob_flags()
    for _ in range(draw(st.integers(0, 5))):
        if command in ("play", "simulate", "compare", "tune"):
            flag = draw(st.sampled_from(flags + ["--seed", "--json", "--workers"]))
        elif command == "run":
            flag = draw(st.sampled_from(["--chunk-size", "--games", "--max-games", "--scheduler", "--out"]))
        elif command == "report":
            flag = draw(st.sampled_from(["--out", "--images", "--card-turn", "--target", "--band", "--min-games",
                                         "--compare"]))
        elif command == "summary":
            flag = draw(st.sampled_from(["--by", "--per-cell", "--markdown"]))
        else:
            flag = draw(st.sampled_from(["--cards", "--kind", "--banlist", "--approximate"]))
        words.append(flag)
        if flag in ("--out", "--images"):  # where a command writes: in the results folder, or refused
            words.append(draw(st.sampled_from(["@OUT", "@OUTFILE", "@PIPE", "/dev/null", "@LINK", "", "bad\x00"])))
        elif flag not in ("--json", "--per-cell", "--markdown", "--approximate", "--lieutenants"):
            words.append(draw(st.one_of(VALUES, st.sampled_from(["@PATH", "@RESULTS", "@EXPERIMENT"]))))
    if command in ("decks", "cards coverage", "summary", "report"):
        words.insert(2 if command == "cards coverage" else 1, draw(st.sampled_from(["@RESULTS", "@PATH", "go-wide"])))
        if command == "decks":
            words.insert(1, "check")
    if command == "cards show":
        words.insert(2, draw(st.one_of(VALUES, st.sampled_from(["Grave Titan", "Zombie", "2/2 Zombie tokens"]))))
    if command == "run":
        words.insert(1, draw(st.sampled_from(["@EXPERIMENT", "@PATH", "reference"])))
        words += ["--workers", "1", "--max-games", "2", "--quiet"]
    if command == "compare":
        words += draw(st.sampled_from([["@RESULTS", "@RESULTS"], ["--a", "--policy control", "--b", "--policy random"],
                                       ["--a", "--players 9", "--b", "--nope"]]))
    if command in ("play", "simulate", "compare", "tune"):
        words += ["--workers", "1"] if command != "play" else []
        words += ["--games", "2", "--quiet"] if command in ("simulate", "compare") else []
    if command == "tune":
        words += ["--knob", draw(st.sampled_from(["cards-per-player", "grace-turns", "x"])), "--batch", "4",
                  "--max-games", "8", "--players", "2", "--quiet"]
    return words, command


@pytest.fixture(scope="module")
def results_folder(tmp_path_factory) -> tuple[Path, Path]:
    """A small experiment and the results folder of one run of it (made once)."""
    root = tmp_path_factory.mktemp("fuzz-results")
    experiment = root / "small.toml"
    experiment.write_text('name = "small"\nseed = 3\n[setup]\nplayers = 2\ncards_per_player = 10\n'
                          '[sweep]\npolicy = ["baseline", "random"]\n[run]\ngames = 4\n')
    result = CliRunner().invoke(cli, ["run", str(experiment), "--out", str(root / "out"), "--workers", "1",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    folder, = (root / "out").iterdir()
    return experiment, folder


@settings(max_examples=cases("command lines"), deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(line=command_lines(), pick=st.randoms(use_true_random=False))
def test_fuzz_command_lines(sandbox, results_folder, line, pick):
    words, command = line
    box = sandbox()
    experiment, folder = results_folder
    shutil.copy(experiment, box.inputs / "small.toml")
    shutil.copytree(folder, box.out / folder.name)
    (box.out / "existing.txt").write_text("a file in the way")
    substitutes = {"@PATH": lambda: pick.choice(box.paths()), "@RESULTS": lambda: str(box.out / folder.name),
                   "@EXPERIMENT": lambda: str(box.inputs / "small.toml"), "@OUT": lambda: str(box.out / "x"),
                   "@OUTFILE": lambda: str(box.out / "existing.txt"), "@PIPE": lambda: str(box.inputs / "pipe.txt"),
                   "@LINK": lambda: str(box.inputs / "link-secret.txt")}
    arguments = [substitutes[w]() if w in substitutes else w for w in words]
    if command in ("report", "run"):  # they write their page or results into the results folder, nowhere else
        arguments += ["--out", str(box.out)] if command == "run" else []
    run_case(box, arguments, f"command-lines-{abs(hash(tuple(words))) % 10**8}")


# ---------------------------------------------------------------- the card index (cards import)


ATOMIC = json.loads((TESTS / "data" / "mtgjson" / "AtomicCards.json").read_text())
JSON_VALUES = [None, True, 0, -1, 1e308, 2 ** 70, "", "x" * 10_000, [], {}, ["W"], [1, 2], {"a": 1}, [[[]]], "²"]


def mutate_atomic(rng: random.Random) -> object:
    data = json.loads(json.dumps(ATOMIC))
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        cards = data.get("data") if isinstance(data, dict) else None
        if roll < 0.1:
            data = rng.choice([[], "AtomicCards", 42, {"meta": {}}, {"data": []}, {"data": "x"}, {"data": {"x": 5}}])
        elif isinstance(cards, dict) and cards:
            key = rng.choice(list(cards))
            faces = cards[key]
            if roll < 0.3:
                cards[key] = rng.choice(JSON_VALUES)
            elif roll < 0.4:
                cards["x" * rng.choice([1, 300])] = faces
            elif isinstance(faces, list) and faces and isinstance(faces[0], dict):
                face = faces[0]
                name = rng.choice(["name", "faceName", "manaCost", "type", "types", "subtypes", "supertypes", "power",
                                   "toughness", "loyalty", "text", "layout", "side", "colors", "colorIdentity",
                                   "keywords", "manaValue", "faceManaValue"])
                if roll < 0.8:
                    face[name] = rng.choice(JSON_VALUES + ["{²}", "99999999999", "Creature", "* ", "-X", "transform",
                                                          "split", "Draw " + "9" * 5000 + " cards."])
                else:
                    face.pop(name, None)
            if roll > 0.95:
                cards.update({f"Card {n}": faces for n in range(rng.randint(1, 50))})
    return data


def write_atomic(box: Sandbox, rng: random.Random) -> Path:
    roll = rng.random()
    if roll < 0.05:
        return Path(rng.choice(box.paths()))
    text = json.dumps(mutate_atomic(rng)) if roll < 0.8 else mutate_text(json.dumps(ATOMIC, indent=1), rng, box)
    raw = text.encode("utf-8", errors="replace")
    if rng.random() < 0.05:
        raw = b"[" * 200_000 + raw
    kind = rng.choice(["json"] * 4 + ["json.gz", "json.xz", "zip", "zip-empty", "gz-broken"] + HOSTILE_ARCHIVES)
    if kind in HOSTILE_ARCHIVES:
        return hostile_archive(box, rng, kind, raw)
    path = box.inputs / f"AtomicCards.{kind.split('-')[0]}"
    if kind == "json.gz":
        path.write_bytes(gzip.compress(raw))
    elif kind == "json.xz":
        path.write_bytes(lzma.compress(raw))
    elif kind.startswith("zip"):
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("AtomicCards.json" if kind == "zip" else "readme.txt", raw)
    elif kind == "gz-broken":
        path = box.inputs / "AtomicCards.json.gz"
        path.write_bytes(gzip.compress(raw)[: rng.randint(0, 40)])
    else:
        path.write_bytes(raw)
    return path


# Issue 29's files: small files huge inside, damaged or cut archives, zips without AtomicCards.json.
HOSTILE_ARCHIVES = ["huge", "huge", "wide", "zip-cut", "zip-damaged", "zip-members", "xz-cut", "xz-damaged"]


def hostile_archive(box: Sandbox, rng: random.Random, kind: str, raw: bytes) -> Path:
    """An AtomicCards file of one of the kinds of ``HOSTILE_ARCHIVES``, its name sometimes not UTF-8."""
    name = rng.choice(["AtomicCards", "AtomicCards-\udcff", "Atomic\udce9Cards"])
    if kind == "huge":  # a card whose text (or name, or a field not read) decompresses to 64-640 MiB
        compress = rng.choice([gzip.compress, lzma.compress])
        field = rng.choice(["text", "name", "rulings", "faceName"])
        head = json.dumps(ATOMIC)[:-2] + f', "Huge": [{{"name": "Huge", "layout": "normal", "{field}": "'
        unit = rng.choice([b"a", b'\\"', b"\\\\", b"\\u00e9", b" "])
        block = unit * (2**20 // len(unit))  # 1 MiB
        path = box.inputs / f"{name}.json.{'gz' if compress is gzip.compress else 'xz'}"
        path.write_bytes(compress(head.encode()) + compress(block) * rng.choice([64, 640]) + compress(b'"}]}}'))
        return path
    if kind == "wide":  # a card of millions of short texts
        data = json.loads(json.dumps(ATOMIC))
        data["data"]["Wide"] = [{"name": "Wide", "layout": "normal", "printings": ["M10"] * rng.choice([10, 900_000])}]
        path = box.inputs / f"{name}.json"
        path.write_text(json.dumps(data))
        return path
    if kind.startswith("zip"):
        path = box.inputs / f"{name}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            if kind == "zip-members":
                for member in rng.sample(["readme.json", "AllPrintings.json", "a/AtomicCards.json",
                                          "b/atomiccards.JSON", "AtomicCards.json.xz", "../AtomicCards.json"], 2):
                    archive.writestr(member, raw)
            else:
                archive.writestr(rng.choice(["AtomicCards.json", "mtgjson/AtomicCards.json"]), raw)
        packed = bytearray(path.read_bytes())
    else:
        path = box.inputs / f"{name}.json.xz"
        packed = bytearray(lzma.compress(raw))
    if kind.endswith("cut"):
        packed = packed[:rng.randrange(len(packed))]
    elif kind.endswith("damaged"):
        for _ in range(rng.randint(1, 20)):
            packed[rng.randrange(len(packed))] = rng.randrange(256)
    path.write_bytes(bytes(packed))
    return path


@pytest.mark.parametrize("first", range(0, cases("card index"), 24))
def test_fuzz_card_index(sandbox, first):
    for i in range(first, min(first + 24, cases("card index"))):
        rng = random.Random(f"card index/{i}")
        box = sandbox()
        path = write_atomic(box, rng)
        odd_home = rng.random() < 0.15
        if not odd_home and rng.random() < 0.2:  # what imports killed outright left: removed; a link never followed
            (box.home / ".cards-stopped.sqlite").write_bytes(rng.randbytes(rng.randint(0, 5000)))
            (box.home / ".cards-link.sqlite").symlink_to(box.victim / "secret.txt")
        env = {"HORDE_HOME": rng.choice([str(box.victim / "secret.txt"), "/dev/null", str(box.inputs / "pipe.txt"),
                                         str(box.home / "deep" / "er"), str(box.inputs / "link-secret.txt"),
                                         ""])} if odd_home else None
        run_case(box, ["cards", "import", str(path), "--quiet"], f"card-index-{i}", env=env,
                 home_written=not odd_home or env["HORDE_HOME"].startswith(str(box.home)))
        if not odd_home:  # the index as imported, used
            deck = box.inputs / "deck.txt"
            deck.write_text("About\nKind horde\nBuild fixed\n\nDeck\n" + "".join(
                f"4 {name}\n" for name in rng.sample(list(ATOMIC["data"]), 4)) + "\nTokens\n20 Zombie\n")
            run_case(box, rng.choice([["cards", "show", rng.choice(list(ATOMIC["data"]))],
                                      ["cards", "coverage", str(deck)],
                                      ["simulate", "--quiet", "--workers", "1", "--games", "2", "--players", "2",
                                       "--horde", str(deck), "--boss", "none", "--no-lieutenants",
                                       "--cards-per-player", "10"]]),
                     f"card-index-{i}-use")


# ---------------------------------------------------------------- Oracle text (cards compile)


def oracle_texts() -> list[str]:
    return [m for path in corpus("decks/cards/*.txt") for m in re.findall(r"^Text: (.*)$", path.read_text(), re.M)]


TEXTS = oracle_texts()


@st.composite
def absurd_texts(draw) -> str:
    base = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(0, 4))):
        action = draw(st.integers(0, 4))
        if action == 0:
            base = base * draw(st.integers(2, 80))
        elif action == 1:
            base = re.sub(r"[0-9]+", draw(st.sampled_from(NUMBERS)), base)
        elif action == 2:
            at = draw(st.integers(0, len(base)))
            base = base[:at] + draw(st.text(max_size=20)) + base[at:]
        elif action == 3:
            base = base.replace(" ", draw(st.sampled_from([" and ", ", then ", " ", "  ", "\n", ". "])))
        else:
            base = draw(st.sampled_from(TEXTS)) + " " + base
    return base


@settings(max_examples=cases("oracle text"), deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(text=st.one_of(absurd_texts(), st.text(max_size=300)),
       kind=st.sampled_from(["Creature", "Sorcery", "Instant", "Legendary Planeswalker — X", "Artifact — Equipment",
                             "", "—", "Legendary", "Creature — Zombie Zombie"]),
       name=st.sampled_from(["this card", "~", "Grave Titan", "", "x" * 300]))
def test_fuzz_oracle_text(sandbox, text, kind, name):
    box = sandbox()
    run_case(box, ["cards", "compile", text.replace("\x00", ""), "--type", kind, "--name", name],
             f"oracle-{abs(hash((text, kind, name))) % 10**8}", exits=(0, 1, 2))


# ---------------------------------------------------------------- files no one on the project wrote


def foreign_files() -> list[Path]:
    """The text and data files the installed packages carry (licences, metadata, requirements,
    TOML, JSON, Markdown, CSV): inputs no one on this project wrote or shaped."""
    import sysconfig

    root = Path(sysconfig.get_paths()["purelib"])
    found = [p for ext in ("txt", "toml", "json", "md", "cfg", "ini", "csv", "rst")
             for p in root.glob(f"**/*.{ext}") if regular(p) and p.stat().st_size < 4 * 2**20]
    return sorted(found)


@pytest.mark.parametrize("first", range(0, cases("foreign files"), 24))
def test_fuzz_foreign_files(sandbox, results_folder, first):
    """Files written elsewhere, given as a decklist, a banlist, a card file, an experiment file or
    MTGJSON's AtomicCards: each a one-line refusal or a game, never a traceback."""
    files = foreign_files()
    assert len(files) > 50  # a Python installation carries hundreds
    for i in range(first, min(first + 24, cases("foreign files"))):
        rng = random.Random(f"foreign files/{i}")
        box = sandbox()
        chosen = rng.choice(files)
        path = box.inputs / chosen.name
        shutil.copy(chosen, path)
        common = ["--quiet", "--workers", "1", "--games", "2", "--players", "2"]
        arguments, home = rng.choice([
            (["decks", "check", str(path)], False), (["simulate", *common, "--horde", str(path)], False),
            (["simulate", *common, "--team", str(path), "--team", "go-wide"], False),
            (["play", "--banlist", str(path), "--players", "2"], False),
            (["cards", "show", "Zombie", "--cards", str(path)], False),
            (["cards", "coverage", str(path)], False),
            (["run", str(path), "--out", str(box.out), "--workers", "1", "--quiet", "--max-games", "2"], False),
            (["cards", "import", str(path), "--quiet"], True),
        ])
        run_case(box, arguments, f"foreign-files-{i}", home_written=home, separate=i % SEPARATE == 0)


# ---------------------------------------------------------------- results folders


def regular(path: Path) -> bool:
    """A regular file, not a link or a pipe the harness itself must never open."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def damage_folder(folder: Path, rng: random.Random, box: Sandbox) -> None:
    files = sorted(p for p in folder.rglob("*") if regular(p))
    for _ in range(rng.randint(1, 3)):
        target = rng.choice(files) if files else folder / "games.parquet"
        roll = rng.random()
        if roll < 0.15:
            if not target.is_dir() or target.is_symlink():
                target.unlink(missing_ok=True)
        elif roll < 0.35 and regular(target):
            data = bytearray(target.read_bytes())
            for _ in range(rng.randint(1, 20)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
            target.write_bytes(bytes(data[: rng.randint(0, len(data))] if rng.random() < 0.3 else data))
        elif roll < 0.5:
            if (folder / "manifest.json").is_symlink() or not regular(folder / "manifest.json"):
                (folder / "manifest.json").unlink(missing_ok=True)
            (folder / "manifest.json").write_text(rng.choice([
                "[]", "{}", '{"runs": {}}', '{"runs": [1, 2]}', '{"key": 1, "status": "complete", "cells": 5}',
                "[" * 100_000, '{"status": "running", "runs": [{"status": "running", "games_before": "x"}]}',
                mutate_text((folder / "manifest.json").read_text(errors="replace") if regular(folder / "manifest.json")
                            else "{}",
                            rng, box)]))
        elif roll < 0.6:
            if (folder / "experiment.toml").is_symlink() or not regular(folder / "experiment.toml"):
                (folder / "experiment.toml").unlink(missing_ok=True)
            (folder / "experiment.toml").write_bytes(rng.choice([b"\xff\xfe n\x00a", b"[[[[", "é".encode("latin-1"),
                                                                 b"name = 1\n" * 3]))
        elif roll < 0.75:
            link = rng.choice([folder / "experiment.toml.tmp", folder / "parts" / "cell-0000", folder / "report.html",
                               folder / "games.parquet", folder / "manifest.json.tmp"])
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.exists() or link.is_symlink():
                shutil.rmtree(link, ignore_errors=True) if link.is_dir() and not link.is_symlink() else link.unlink()
            link.symlink_to(rng.choice([box.victim / "secret.txt", box.victim / "dir"]))
        elif roll < 0.85:
            pipe = folder / rng.choice(["manifest.json", "turns.parquet", "parts/cell-0001/games-x.tmp"])
            pipe.parent.mkdir(parents=True, exist_ok=True)
            if pipe.exists() or pipe.is_symlink():
                pipe.unlink()
            os.mkfifo(pipe)
        else:
            if (folder / "parts" / "cell-0000").is_symlink():
                continue
            (folder / "parts" / "cell-0000").mkdir(parents=True, exist_ok=True)
            (folder / "parts" / "cell-0000" / rng.choice(["games-000000000-000000002.parquet", "junk.tmp",
                                                           "games-000000000-999999999.parquet"])).write_bytes(
                rng.randbytes(rng.randint(0, 300)))


@pytest.mark.parametrize("first", range(0, cases("results folders"), 24))
def test_fuzz_results_folders(sandbox, results_folder, first):
    experiment, folder = results_folder
    for i in range(first, min(first + 24, cases("results folders"))):
        rng = random.Random(f"results folders/{i}")
        box = sandbox()
        shutil.copy(experiment, box.inputs / "small.toml")
        out = box.out / rng.choice(["", "", "", "out-\udcff"])  # a name that is not UTF-8 (issue 29)
        copy = out / folder.name
        shutil.copytree(folder, copy)
        if rng.random() < 0.15:  # a run not finished: in progress, stopped or killed (issue 29)
            manifest = json.loads((copy / "manifest.json").read_text())
            manifest["status"] = manifest["runs"][-1]["status"] = rng.choice(["running", "interrupted", "failed"])
            (copy / "manifest.json").write_text(json.dumps(manifest))
            (copy / "games.parquet").unlink()
        damage_folder(copy, rng, box)
        arguments = rng.choice([
            ["summary", str(copy)], ["summary", str(copy), "--by", "boss_drawn"],
            ["report", str(copy)], ["report", str(copy), "--images", str(box.out / "images")],
            ["report", str(copy), "--out", str(box.out / "page-\udcff.html")],
            ["compare", str(copy), str(folder)],
            ["run", str(box.inputs / "small.toml"), "--out", str(out), "--workers", "1", "--quiet"],
        ])
        run_case(box, arguments, f"results-folders-{i}", separate=i % SEPARATE == 0)


def test_the_suite_runs_as_many_cases_as_asked():
    """make test runs at least 150 cases, make test-full at least 300, make fuzz at least 2,000
    (HORDE_FUZZ_CASES)."""
    total = sum(cases(family) for family in SHARES)
    assert abs(total - CASES) <= len(SHARES)
    if "HORDE_FUZZ_CASES" not in os.environ:
        assert total >= (300 if DEFAULT_CASES == 336 else 150)


def summary(log: Path) -> str:
    """The figures of a fuzz run from its HORDE_FUZZ_LOG: cases, exit codes, and each kind of failure."""
    rows = [line.split("\t") for line in log.read_text().splitlines() if line.count("\t") >= 4]
    verdicts = {kind: sum(row[1] == kind for row in rows) for kind in
                ("ok", "traceback", "timeout", "outside write", "secret shown", "memory", "exit code")}
    codes = {code: sum(row[2] == code for row in rows) for code in sorted({row[2] for row in rows})}
    return (f"{len(rows)} fuzz cases: exit codes {', '.join(f'{c}: {n}' for c, n in codes.items())}; "
            + ", ".join(f"{kind} {n}" for kind, n in verdicts.items()))


if __name__ == "__main__":  # make fuzz: python tests/test_fuzz.py LOG prints the run's figures
    print(summary(Path(sys.argv[1])))
