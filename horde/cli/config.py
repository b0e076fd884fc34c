"""House rules: the knobs a playgroup always plays with, kept in a file instead of retyped.

``horde play``, ``simulate``, ``tune``, ``compare`` and ``run`` read ``--config FILE``, else
``horde.toml`` in the working folder when there is one (the folder a group keeps its decks and
results in, as ruff and pytest find their settings), else nothing; ``--no-config`` reads none. The
file is an experiment file's ``[setup]`` table alone:

    [setup]
    preset = "knudson-2011"
    grace_turns = 2
    policy = {name = "control", wrath_threshold = 12}

The options of the command line win over the file and the file over the preset; an experiment's
own ``[setup]`` and ``[sweep]`` win over it. Its knobs are part of every game's setup, so every
result records them (and its setup hash changes with them). A bad key or value is one line naming
the file and line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import click

from horde.errors import HordeError, match_name
from horde.files import read_text
from horde.lab.experiments import knobs_of, plain_knob, read_toml
from horde.setup import KNOBS

DEFAULT_FILE = "horde.toml"


class ConfigError(HordeError):
    """A house-rules file that can't be read as written."""


@dataclass(frozen=True)
class HouseRules:
    """The knobs of a house-rules file (as an experiment's [setup] holds them) and where they came from."""

    path: str | None = None
    setup: dict = field(default_factory=dict)

    def knobs(self) -> dict:
        """The knobs as ``make_setup`` takes them (a policy table split into name and parameters)."""
        return knobs_of(self.setup)


def find_config(given: str | None, skip: bool = False) -> str | None:
    """The house-rules file to read: ``given``, else ``horde.toml`` in the working folder if it is
    there; none with ``skip``."""
    if skip:
        return None
    if given is not None:
        return given
    # Whatever it is: a folder, a named pipe, a link to nothing or to a device is read, and refused in one line.
    return DEFAULT_FILE if os.path.lexists(DEFAULT_FILE) else None


def _line_of(text: str, key: str, table: str | None) -> int | None:
    """The line of ``key`` in ``text`` (inside ``[table]`` when given), for an error line."""
    inside = table is None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = table is not None and stripped.strip("[] ") == table
            if table is None and stripped.strip("[] ") == key:
                return number
            continue
        if inside and re.match(rf"[\"']?{re.escape(key)}[\"']?\s*=", stripped):
            return number
    return None


def load_config(path: str | None) -> HouseRules:
    """Read and check a house-rules file (``None``: no house rules)."""
    if path is None:
        return HouseRules()
    if os.path.islink(path) and not os.path.exists(path):
        raise ConfigError(f"cannot read house-rules file: it is a symbolic link to {os.readlink(path)!r}, which is "
                          "not there", path)
    text = read_text(Path(path), "house-rules file", ConfigError)
    data = read_toml(text, path, ConfigError)
    for key in data:
        if key != "setup":
            raise ConfigError(f"unknown key '{key}': a house-rules file holds one table, [setup], with the knobs "
                              "of an experiment's [setup]", path, _line_of(text, key, None))
    table = data.get("setup", {})
    if not isinstance(table, dict):
        raise ConfigError("setup: expected a table [setup] of knobs", path, _line_of(text, "setup", None))
    setup = {}
    for key, value in table.items():
        line = _line_of(text, key, "setup")
        name = match_name(key, KNOBS, "knob", "[setup]", ConfigError, path=path, line=line)  # forgives case
        try:
            setup[name] = plain_knob(name, value, f"[setup] {name}")
        except HordeError as error:
            raise ConfigError(error.message, path, line) from None
    if "cards" in setup:  # card files are named relative to the house-rules file
        base = Path(path).resolve().parent
        setup["cards"] = [os.path.normpath(base / p) for p in setup["cards"]]
    return HouseRules(str(path), setup)


def config_options(function):
    """``--config FILE`` and ``--no-config``: the house rules a command reads (``house``)."""
    function = click.option("--no-config", "no_config", is_flag=True,
                            help=f"read no house-rules file, not even ./{DEFAULT_FILE}")(function)
    return click.option("--config", "config", default=None, metavar="FILE",
                        help=f"a house-rules file: an experiment's [setup] table of knobs, under the command "
                             f"line's options (default: ./{DEFAULT_FILE} when there is one)")(function)


def house_rules(options: dict) -> HouseRules:
    """The house rules a command's ``--config`` and ``--no-config`` (popped from ``options``) name;
    one line on stderr says which file and knobs they set."""
    given, skip = options.pop("config", None), options.pop("no_config", False)
    try:
        house = load_config(find_config(given, skip))
    except ConfigError as error:
        if given is None:  # found in the working folder: say how to do without it
            error = ConfigError(f"{error.message} (--no-config reads no house-rules file)", error.path, error.line)
        raise error from None
    if house.path is not None:
        knobs = ", ".join(f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in house.setup.items())
        click.echo(f"house rules from {house.path}: {knobs or 'no knob'}", err=True)
    return house
