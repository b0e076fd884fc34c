"""Build the native-core spike's extension (``horde_native``) next to this file, with pybind11
from the package registry and the system's C++ compiler. Not part of the product: ``make spike``
runs it; ``make test`` and ``make demo`` never do."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pybind11

HERE = Path(__file__).resolve().parent


def build() -> Path:
    target = HERE / f"horde_native{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [
        "c++", "-O2", "-std=c++20", "-shared", "-fPIC", "-Wall", "-Wextra",
        f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}",
        str(HERE / "horde_native.cpp"), "-o", str(target),
    ]
    print(" ".join(command), file=sys.stderr)
    subprocess.run(command, check=True)
    return target


if __name__ == "__main__":
    print(build())
