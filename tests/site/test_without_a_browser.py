"""Without a browser, `make site` still passes: it leaves the print edition's PDFs out, says so
in one notice, and the section pages say so in place of the link. With
PAPERLENS_REQUIRE_BROWSER=1 (CI and the publishing workflow) a missing browser fails the build.

The browser is hidden by naming one that does not exist in PAPERLENS_CHROMIUM, which, when set,
is the only one `sitekit.browser.find_chromium` tries (tests/tools/test_browser.py checks the
order of the others), and by an empty Playwright browser folder. These builds read the session's
warm caches, so each takes seconds, not a cold build's minutes.
"""

from pathlib import Path

from sitekit import cache, print_edition
from sitekit.paths import page_url

NOTICE = "the print edition's PDFs were left out"
SAID = "The PDF is not part of this build"


HIDDEN = {"PAPERLENS_CHROMIUM": "/nonexistent/chromium", "PAPERLENS_REQUIRE_BROWSER": ""}


def hidden(out: Path) -> dict[str, str]:
    """A browser that does not exist, and an empty Playwright browser folder."""
    return HIDDEN | {"PLAYWRIGHT_BROWSERS_PATH": str(out.with_name("no-browsers"))}


def pdf_name(folder: str) -> str:
    return Path(print_edition.pdf_path(folder)).name


def test_without_a_browser_make_site_passes_without_the_pdfs_and_says_so(site, tmp_path, make_site):
    out = tmp_path / "site"
    returncode, output = make_site(f"SITE_DIR={out}", env=hidden(out))
    assert returncode == 0, output[-6000:]
    notices = [line for line in output.splitlines() if NOTICE in line]
    assert len(notices) == 1, output[-3000:]
    assert "PAPERLENS_CHROMIUM=/nonexistent/chromium" in notices[0]  # what, and how to fix it
    assert notices[0].startswith("INFO"), notices[0]  # a notice, which strict mode lets pass
    pdfs = {print_edition.pdf_path(folder) for folder in print_edition.SECTIONS}
    for folder in print_edition.SECTIONS:
        assert not (out / print_edition.pdf_path(folder)).exists()
        index = (out / page_url(f"{folder}/index.md")).read_text(encoding="utf-8")
        assert SAID in index
        assert pdf_name(folder) not in index  # no dead link
        combined = (out / page_url(print_edition.print_source(folder))).read_text("utf-8")
        assert SAID.lower() in combined.lower() and pdf_name(folder) not in combined
    # Everything else is the session's site (which has PDFs when this machine has a browser).
    first, second = cache.tree(site), cache.tree(out)
    differ = {name for name in first.keys() | second.keys() if first.get(name) != second.get(name)}
    allowed = pdfs | {"search/search_index.json"}
    for folder in print_edition.SECTIONS:
        allowed |= {page_url(f"{folder}/index.md"), page_url(print_edition.print_source(folder))}
    assert differ <= allowed, sorted(differ - allowed)
    assert {p for p in pdfs if (site / p).is_file()} <= differ


def test_with_paperlens_require_browser_a_missing_browser_fails_the_build(
    site, tmp_path, make_site
):
    out = tmp_path / "site"
    env = hidden(out) | {"PAPERLENS_REQUIRE_BROWSER": "1"}
    returncode, output = make_site(f"SITE_DIR={out}", env=env)
    assert returncode != 0
    assert "PAPERLENS_REQUIRE_BROWSER=1, but the print edition needs a browser" in output
    assert "PAPERLENS_CHROMIUM=/nonexistent/chromium is not an executable file" in output
    assert "Traceback" not in output
