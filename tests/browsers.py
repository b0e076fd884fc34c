"""The headless browser the page tests drive (Debian's Chromium, through Playwright for the table's
page): found on PATH, or the test is skipped with the reason (failed when HORDE_REQUIRE_BROWSER is
set, as CI sets it). Playwright drives the Chromium found here, so no browser of Playwright's own is
downloaded. Kept apart from the tests that use it, so a test importing it loads nothing else."""

from __future__ import annotations

import os
import shutil
from types import ModuleType

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser(what: str = "the report page") -> str:
    """The headless browser's path; skips (or fails, when HORDE_REQUIRE_BROWSER is set) without one."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    _missing(f"browser check of {what} skipped: Chromium is not installed (on Debian: apt-get install chromium)")
    raise AssertionError("unreachable")


def playwright(what: str) -> ModuleType:
    """Playwright's synchronous API (``playwright.sync_api``); skips the whole module that asks (or
    fails it, when HORDE_REQUIRE_BROWSER is set) when the package is not installed."""
    try:
        from playwright import sync_api
    except ImportError:
        _missing(f"browser check of {what} skipped: Playwright is not installed (the test tools install it: "
                 "pip install -e '.[test]', as make does)", module=True)
        raise
    return sync_api


def _missing(reason: str, module: bool = False) -> None:
    if os.environ.get("HORDE_REQUIRE_BROWSER"):
        pytest.fail(reason.replace("skipped", "required (HORDE_REQUIRE_BROWSER is set)"), pytrace=False)
    pytest.skip(reason, allow_module_level=module)
