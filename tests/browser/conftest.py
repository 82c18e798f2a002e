"""One headless Chromium per session on the built site, served from 127.0.0.1.

Without Chromium these tests skip and say how to install it; with PAPERLENS_REQUIRE_BROWSER=1
(CI, .ci/run) a missing browser or axe-core fails them instead.
"""

import json
import os

import pytest

from sitekit import browser as sb
from sitekit.paths import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REQUIRED = os.environ.get("PAPERLENS_REQUIRE_BROWSER") == "1"

# Desktop, light palette asked for by the system: the tests switch palettes with the toggle.
CONTEXT = {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"}

# axe-core, the accessibility checks (test_pages.py: test_axe_*).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Also checked: WCAG 2.2's target size (2.5.8), which Lighthouse's accessibility score includes.
AXE_EXTRA_RULES = ["target-size"]
# Rules switched off, each with its reason. None: the theme's findings are fixed in
# docs/assets/paperlens.css, overrides/ and sitekit.theme instead.
AXE_DISABLED: dict[str, str] = {}
# In the dark palette only the rule whose outcome depends on the palette's colours runs again;
# the others look at the document's structure, which the palette does not change, and
# link-in-text-block passes by the underline on links (paperlens.css), in either palette.
AXE_COLOUR_RULES = ["color-contrast"]
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": WCAG_TAGS},
    "rules": {rule: {"enabled": True} for rule in AXE_EXTRA_RULES}
    | {rule: {"enabled": False} for rule in AXE_DISABLED},
    "resultTypes": ["violations"],
}
AXE_DARK_OPTIONS = {
    "runOnly": {"type": "rule", "values": [r for r in AXE_COLOUR_RULES if r not in AXE_DISABLED]},
    "resultTypes": ["violations"],
}
# Run on every page as it loads, in the light palette, before any check changes the page and
# while the tests look at the previous page in the other tab (sitekit.browser.Tabs). On a print
# edition's page, only its own parts (the contents, the header and footer): each of its sections
# is a page of the site, checked in full on its own (the three print pages are the largest, and
# axe-core's run on their sections took three quarters of their CPU time in the browser).
AXE_ON_LOAD = """
window.__paperlensAxe = new Promise(resolve => {
  const plain = r => ({violations: r.violations.map(v => ({
    id: v.id, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), failureSummary: n.failureSummary})),
  }))});
  const own = () => document.querySelector(".print-edition")
    ? {exclude: [[".print-edition__page"]]} : document;
  const run = () => axe.run(own(), %s)
    .then(r => resolve(plain(r)), e => resolve({error: String(e)}));
  window.addEventListener("load", () => setTimeout(run, 0), {once: true});
});
"""


@pytest.fixture(scope="session")
def axe_options():
    return AXE_OPTIONS


@pytest.fixture(scope="session")
def axe_dark_options():
    return AXE_DARK_OPTIONS


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


@pytest.fixture(scope="session")
def tabs(browser):
    """Two tabs for the session: pages load one after the other, the next one in advance."""
    init = None
    if AXE.is_file():
        init = AXE.read_text(encoding="utf-8") + AXE_ON_LOAD % json.dumps(AXE_OPTIONS)
    t = sb.Tabs(browser, init_script=init, **CONTEXT)
    yield t
    t.close()


@pytest.fixture(scope="module")
def visit(tabs, base_url, site_page, site_pages):
    """The page loaded once for all the checks of a module (tests are grouped by page); the
    next page of the list starts loading in the other tab."""
    return tabs.visit_in_order(base_url, site_page, site_pages)


@pytest.fixture
def fresh_tab(browser):
    """A tab in a context of its own (empty local storage), closed after the test: for checks
    that change what the browser keeps, such as the self-test's checklist."""
    context = browser.new_context(**CONTEXT)
    tab = sb.Tab(context)
    yield tab
    context.close()
