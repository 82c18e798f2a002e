"""One headless Chromium per session on the built site, served from 127.0.0.1.

Without Chromium these tests skip and say how to install it; with PAPERLENS_REQUIRE_BROWSER=1
(CI, .ci/run) a missing browser or axe-core fails them instead.
"""

import os
from pathlib import Path

import pytest

from sitekit import browser as sb

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REQUIRED = os.environ.get("PAPERLENS_REQUIRE_BROWSER") == "1"

# Desktop, light palette asked for by the system: the tests switch palettes with the toggle.
CONTEXT = {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"}


def _missing(reason: str):
    if REQUIRED:
        pytest.fail(f"PAPERLENS_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    reason = sb.chromium_missing()
    if reason:
        _missing(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = sb.launch(p)
        yield b
        b.close()


@pytest.fixture(scope="session")
def base_url(browser, site):
    with sb.serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def axe_source():
    if not AXE.is_file():
        _missing(f"no axe-core at {AXE.relative_to(ROOT)}; run `npm ci` (or `make env`)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def visit(browser, base_url, site_page):
    """The page loaded once for all the checks of a module (tests are grouped by page)."""
    v = sb.visit(browser, base_url + site_page, **CONTEXT)
    yield v
    v.close()
