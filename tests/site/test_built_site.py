"""Checks of the built site: pages, links, images, math, figures and self-containment."""

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from sitekit import (
    cards,
    citations,
    concepts,
    figstyle,
    figures,
    notebook_figures,
    notebooks,
    print_edition,
    proof,
)
from sitekit.paths import ROOT, page_url

DOCS = ROOT / "docs"
GENERATED = {"404.html"}  # pages the theme adds that have no source
# Pages the build generates: the Review page, the References page and each section's print
# edition.
GENERATED_SOURCES = [
    cards.REVIEW_PAGE,
    citations.PAGE,
    *map(print_edition.print_source, print_edition.SECTIONS),
]


def nav():
    return concepts.read_config()["nav"]


def sources():
    md = [p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")]
    nb = [
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.py")
        if notebooks.is_notebook(p.relative_to(DOCS).as_posix())
    ]
    return sorted(md + nb)


def test_every_nav_entry_produced_a_page(site):
    entries = concepts.nav_pages(nav())
    assert entries
    for _, src in entries:
        assert (site / page_url(src)).is_file(), f"nav entry {src} produced no page"


def test_every_page_carries_the_plugins_proof_of_its_checks(site, pages):
    """What `make site` checks after the build (sitekit.proof), counted again here: one proof
    per page, naming each source once, with as many examples as the page's footer counts."""
    assert proof.check(site, DOCS) == []
    found = {name: proof.read(site / name) for name in pages}
    assert all(len(proofs) == 1 for proofs in found.values()), found
    named = [proofs[0]["source"] for proofs in found.values() if "source" in proofs[0]]
    assert sorted(named) == sorted(f"docs/{src}" for src in [*sources(), *GENERATED_SOURCES])
    for name, proofs in found.items():
        footer = pages[name].footer_examples
        assert int(proofs[0].get("examples", 0)) == (footer or 0), name


def test_page_count_matches_the_sources(site, pages):
    built = {p for p in pages if p not in GENERATED}
    expected = {page_url(src) for src in [*sources(), *GENERATED_SOURCES]}
    assert built == expected


def test_every_figure_script_produced_its_svgs(site):
    """One SVG per style and layout of each script (and the notebook pages' own figures)."""
    scripts = figures.discover()
    svgs = sorted(
        p.relative_to(site).as_posix()
        for p in (site / "figures").rglob("*.svg")
        if not p.is_relative_to(site / notebook_figures.FOLDER)
    )
    expected = [
        figures.variant_path(f.site_path, s, lay)
        for f in scripts
        for s in figstyle.STYLES
        for lay in figstyle.LAYOUTS
    ]
    assert svgs == sorted(expected)
    assert list((site / notebook_figures.FOLDER).glob("*.svg")), "no notebook figures"
    for path in svgs:
        svg = (site / path).read_bytes()
        assert b"<svg" in svg and len(svg) > 1000, f"{path} is empty"


def resolve(page_path: str, href: str, site: Path) -> tuple[Path, str]:
    parts = urlsplit(href)
    base = site if parts.path.startswith("/") else (site / page_path).parent
    path = unquote(parts.path).lstrip("/")
    target = (base / path).resolve() if parts.path else site / page_path
    if target.is_dir():
        target = target / "index.html"
    return target, parts.fragment


def internal(url: str) -> bool:
    """A URL the browser resolves on the site itself (or inline ``data:``, no request)."""
    return url.startswith("data:") or (not urlsplit(url).scheme and not url.startswith("//"))


def test_every_internal_link_and_anchor_resolves(site, pages):
    broken = []
    for path, page in pages.items():
        for href in page.links:
            if not internal(href) or href.startswith(("mailto:", "javascript:")):
                continue
            target, fragment = resolve(path, href, site)
            if not target.exists():
                broken.append(f"{path}: {href} (no file)")
            elif fragment and target.suffix == ".html":
                rel = target.relative_to(site.resolve()).as_posix()
                if rel in pages and unquote(fragment) not in pages[rel].ids:
                    broken.append(f"{path}: {href} (no anchor #{fragment})")
    assert not broken, "\n".join(broken)


VAGUE_ALT = re.compile(r"^(figure|image|img|picture|plot|chart|graph)?\s*\d*$", re.I)


def test_every_image_resolves_and_says_what_it_shows(site, pages):
    problems = []
    for path, page in pages.items():
        for img in page.images:
            src, alt = img.get("src", ""), img.get("alt", "").strip()
            if src.startswith("data:"):
                pass
            elif not internal(src) or not resolve(path, src, site)[0].is_file():
                problems.append(f"{path}: image {src} does not resolve")
            if len(alt.split()) < 4 or VAGUE_ALT.match(alt):
                problems.append(f"{path}: image {src[:60]} has no descriptive alt ({alt!r})")
    assert not problems, "\n".join(problems)


RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\\frac|\\sqrt|\\sum|\\operatorname|\\mathbf")


def test_no_raw_tex_is_left_in_page_text(pages):
    leftovers = {path: RAW_TEX.findall(page.text) for path, page in pages.items()}
    leftovers = {path: found for path, found in leftovers.items() if found}
    assert not leftovers, leftovers


def test_math_is_typeset_at_build_time_and_no_math_javascript_ships(pages):
    sample = pages["contributing/sample-page/index.html"]
    assert {"katex", "katex-display"} <= set(sample.classes)
    for path, page in pages.items():
        for _tag, url in page.resources:
            assert not re.search(r"mathjax|katex[^/]*\.js|auto-render", url, re.I), (path, url)


def test_no_resource_is_fetched_from_another_origin(site, pages):
    external = [
        f"{path}: {tag} {url}"
        for path, page in pages.items()
        for tag, url in page.resources
        if not internal(url)
    ]
    for css in site.rglob("*.css"):
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.read_text(errors="replace")):
            if not internal(url) and not url.startswith("data:"):
                external.append(f"{css.relative_to(site)}: url({url})")
    for js in site.rglob("*.js"):
        text = js.read_text(errors="replace")
        for url in re.findall(r"""import\(\s*["'](https?://[^"']+)""", text):
            external.append(f"{js.relative_to(site)}: import({url})")
    assert not external, "\n".join(external)


def test_no_page_shows_a_kernel_s_warnings(pages):
    """What the notebooks' kernels write to standard error about fonts never reaches a page."""
    noisy = [path for path, page in pages.items() if "findfont:" in page.path.read_text("utf-8")]
    assert not noisy, noisy


def test_no_page_links_to_a_generator_or_cdn(pages):
    """Links to the papers of the bibliography aside (a technical report's home is OpenAI's
    CDN)."""
    papers = {url for work in citations.load(DOCS).values() for _, url in work.links}
    for path, page in pages.items():
        for href in set(page.links) - papers:
            host = urlsplit(href).netloc
            assert not re.search(r"cdn|jsdelivr|unpkg|googleapis|mkdocs\.org|squidfunk", host), (
                path,
                href,
            )


@pytest.mark.parametrize("src", [s for s in sources() if notebooks.is_notebook(s)])
def test_notebook_pages_offer_their_ipynb(site, pages, src):
    page = pages[page_url(src)]
    downloads = [h for h in page.links if h.endswith(".ipynb")]
    assert downloads, f"{src}: no download link"
    target, _ = resolve(page_url(src), downloads[0], site)
    assert target.is_file() and target.read_text().lstrip().startswith("{")
