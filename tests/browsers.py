"""The headless browser the page tests drive (Debian's Chromium): found on PATH, or the test is
skipped (failed when HORDE_REQUIRE_BROWSER is set). Kept apart from the tests that use it, so a
test importing it loads nothing else."""

from __future__ import annotations

import os
import shutil

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser(what: str = "the report page") -> str:
    """The headless browser's path; skips (or fails, when HORDE_REQUIRE_BROWSER is set) without one."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    reason = (f"browser check of {what} skipped: Chromium is not installed "
              "(on Debian: apt-get install chromium)")
    if os.environ.get("HORDE_REQUIRE_BROWSER"):
        pytest.fail(reason.replace("skipped", "required (HORDE_REQUIRE_BROWSER is set)"))
    pytest.skip(reason)
