"""What a reader sees, in a real browser, on every page of the built site.

Each test is parametrized by the page (``site_page``, from the built site's HTML files; see
tests/conftest.py), and pytest groups them by page, so a page is loaded once (``visit``) for all
its checks, while the next page loads in a second tab (conftest.py, sitekit.browser.Tabs). The
checks run in the order of this file; each one that changes the page (opens cards, switches
the palette, types a search) first puts the page in the state it needs, and the order saves
work: axe-core's full run happens as the page loads, and the palette switches to dark once.
The last checks narrow the same page to a phone's width, rather than load it again in a tab of
a phone's size.
"""

import functools
import io
import json
import re
from pathlib import PurePosixPath
from urllib.parse import urlsplit

import numpy as np
import pytest
from bs4 import BeautifulSoup
from PIL import Image
from playwright.sync_api import expect

from sitekit.browser import NOT_FOUND_PAGE, open_cards, set_palette


@functools.cache
def article(site, site_page) -> tuple[tuple[tuple[bool, str], ...], bool]:
    """What the checks need of the page as built, parsed once (three checks ask, and the
    largest pages take a third of a second to parse): ``open`` and ``class`` of each
    <details> in its article, in document order, and whether the article has an image."""
    path = site_page if site_page.endswith(".html") else site_page + "index.html"
    soup = BeautifulSoup((site / path).read_text(encoding="utf-8"), "html.parser")
    details = tuple(
        (d.has_attr("open"), " ".join(d.get("class", []))) for d in soup.select("article details")
    )
    return details, bool(soup.select("article img"))


def skip_without_images(site, site_page) -> None:
    """A check of how images are shown has nothing to look at on a page without any."""
    if not article(site, site_page)[1]:
        pytest.skip(f"{site_page or 'home'}: no image in the article, so none to check")


# --- Loading ------------------------------------------------------------------------------------


def test_loads_without_errors(visit):
    assert not visit.errors, "console errors:\n" + "\n".join(visit.errors)
    assert not visit.failed, "failed requests:\n" + "\n".join(visit.failed)


def test_no_request_leaves_the_site(visit):
    assert not visit.offsite, "requests for other hosts (aborted):\n" + "\n".join(visit.offsite)


# --- Content ------------------------------------------------------------------------------------

# Alt text that names the kind of thing rather than what it shows.
GENERIC_ALT = {"image", "img", "figure", "fig", "picture", "graph", "chart", "plot", "diagram"}


def test_images_load_and_have_descriptive_alt(visit):
    images = visit.page.evaluate(
        """async () => {
            const imgs = [...document.images];
            for (const img of imgs) img.loading = "eager";
            await Promise.all(imgs.map(img => img.decode().catch(() => null)));
            return imgs.map(img => ({
                src: img.getAttribute("src").slice(0, 120),
                alt: img.getAttribute("alt"),
                width: img.naturalWidth,
            }));
        }"""
    )
    problems = []
    for img in images:
        if img["width"] == 0:
            problems.append(f"{img['src']}: not loaded (naturalWidth 0)")
        alt = (img["alt"] or "").strip()
        name = PurePosixPath(urlsplit(img["src"]).path).name
        words = re.findall(r"\w+", alt.lower())
        if (
            len(words) < 3
            or alt.lower() in (name.lower(), PurePosixPath(name).stem.lower())
            or set(words) <= GENERIC_ALT
            or alt.lower().startswith("no description")  # nbconvert's default
        ):
            problems.append(f"{img['src']}: alt text {img['alt']!r} does not describe it")
    assert not problems, "\n".join(problems)


# Raw TeX a reader must never see: delimiters and control words.
RAW_TEX = re.compile(r"\\[()\[\]]|\$\$|\\[A-Za-z]{2,}")


def test_math_is_rendered(visit):
    """Outside code, no TeX is left as text; every formula is KaTeX, laid out, with its fonts.

    The build renders math to HTML, so a formula that failed shows as its TeX source: the
    delimiters or control words that RAW_TEX finds. Every .katex element must have its HTML
    rendering, take up room on the page when it is shown, and keep its TeX for screen readers.
    """
    found = visit.page.evaluate(
        """async () => {
            await document.fonts.ready;
            const skip = "pre, code, kbd, samp, script, style, textarea, .katex, .md-search";
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const text = [];
            for (let n = walker.nextNode(); n; n = walker.nextNode())
                if (!n.parentElement.closest(skip)) text.push(n.data);
            const katex = [...document.querySelectorAll(".katex")];
            return {
                text: text.join(" "),
                katex: katex.length,
                annotated: document.querySelectorAll(".katex annotation").length,
                unrendered: document.querySelectorAll(".arithmatex").length,
                empty: katex.filter(k => !k.querySelector(".katex-html")).length,
                flat: katex.filter(k => k.checkVisibility() &&
                                        k.getBoundingClientRect().width === 0).length,
                fontsLoaded: katex.length === 0 || document.fonts.check("1em KaTeX_Main"),
            };
        }"""
    )
    raw = sorted({m.group(0) for m in RAW_TEX.finditer(found["text"])})
    assert not raw, f"raw TeX visible in the page: {raw}"
    assert found["unrendered"] == 0, f"{found['unrendered']} arithmatex elements left unrendered"
    assert found["empty"] == 0, f"{found['empty']} .katex elements without rendered HTML"
    assert found["flat"] == 0, f"{found['flat']} shown .katex elements take up no room"
    assert found["annotated"] == found["katex"], "every formula keeps its TeX for screen readers"
    assert found["fontsLoaded"], "KaTeX fonts did not load"


# --- Accessibility ------------------------------------------------------------------------------
# The axe-core options, and the rules switched off with their reasons: tests/browser/conftest.py.


def axe_report(violations):
    return [
        f"{v['id']} ({v['help']}), {len(v['nodes'])} element(s):\n  "
        + "\n  ".join(n["target"] + "  " + n["failureSummary"] for n in v["nodes"][:5])
        for v in violations
    ]


# The violations of an axe-core result, as plain data.
VIOLATIONS = """r => r.error ? r : {violations: r.violations.map(v => ({
    id: v.id, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), failureSummary: n.failureSummary})),
}))}"""


def test_axe_wcag21_aa(visit, axe_source):
    """Zero axe-core violations of WCAG 2.1 A and AA, light palette, the page as loaded.

    axe ran when the page loaded (conftest.py: AXE_ON_LOAD), before any check changed it; on a
    print edition's page, over its own parts (its sections are the pages, checked on their own).
    """
    result = visit.page.evaluate("() => window.__paperlensAxe")
    assert result is not None, "axe-core did not run on load (conftest.py: AXE_ON_LOAD)"
    assert "error" not in result, f"axe-core failed: {result['error']}"
    violations = axe_report(result["violations"])
    assert not violations, "\n".join(violations)


# --- Interaction --------------------------------------------------------------------------------


# The first card of each page is opened with a real mouse click (Playwright: scroll, wait for it
# to be stable, press); the others get a click event on their summary from the page's script,
# the same toggle without the mouse (the review page has 75 cards; a real click costs ~0.1 s).
REAL_CLICKS = 1


def test_recall_cards_open_on_click(visit, site, site_page):
    """Cards (``???`` admonitions) start closed with the answer hidden; a click shows it."""
    page = visit.page
    built = article(site, site_page)[0]
    cards = page.locator("article details")
    assert cards.count() == len(built), "the page's <details> differ from the built HTML"
    for i, (open_in_html, classes) in enumerate(built):
        if "question" in classes.split():
            assert not open_in_html, f"recall card {i + 1} is open in the HTML (use ??? not ???+)"
    if any(cards.evaluate_all("ds => ds.map(d => d.open)")):
        page.reload()  # reopened by an earlier check: start again from the page as built
        visit.settle()
    state = cards.evaluate_all(
        """ds => ds.map(d => {
            const answer = d.querySelector(":scope > :not(summary)");
            return {open: d.open, answer: !!answer,
                    visible: !!answer && answer.checkVisibility(),
                    title: d.querySelector(":scope > summary")?.innerText ?? ""};
        })"""
    )
    closed = [i for i, (open_in_html, _) in enumerate(built) if not open_in_html]
    problems = []
    for i, (open_in_html, _) in enumerate(built):
        card = state[i]
        if card["open"] != open_in_html:
            problems.append(f"card {i + 1} {card['title']!r}: changed state on load")
        elif not card["answer"]:
            problems.append(f"card {i + 1} {card['title']!r}: has no answer")
        elif not open_in_html and card["visible"]:
            problems.append(f"card {i + 1} {card['title']!r}: answer visible before the click")
    assert not problems, "\n".join(problems)
    for i in closed[:REAL_CLICKS]:
        cards.nth(i).locator(":scope > summary").click()
        expect(cards.nth(i).locator(":scope > :not(summary)").first).to_be_visible(timeout=2000)
    shown = cards.evaluate_all(
        """(ds, rest) => rest.map(i => {
            const d = ds[i];
            d.querySelector(":scope > summary").click();
            return d.open && d.querySelector(":scope > :not(summary)").checkVisibility();
        })""",
        closed[REAL_CLICKS:],
    )
    hidden = [i + 1 for i, ok in zip(closed[REAL_CLICKS:], shown, strict=True) if not ok]
    assert not hidden, f"cards whose answer stayed hidden after a click: {hidden}"
    assert not visit.errors, "\n".join(visit.errors)


# Dark-palette legibility of figures, measured on a screenshot of each figure <img>. Luminance is
# WCAG's relative luminance per pixel; the figure's background is its most common luminance (a
# figure is mostly background: 65-95 % of the pixels here); its "ink" is the pixels that contrast
# with the background at least 4.5:1, WCAG's ratio for text. A figure is legible when at least
# 0.5 % of its pixels are ink (the sparsest figure now has 1.3 %; black on black has none). In
# the dark palette every figure, the build's and the notebooks', must be its dark variant
# (sitekit.figstyle.DARK) and sit on a dark background (luminance at most 0.05; the page's is
# 0.015), so it joins the page instead of glaring white, and none may be shown through a CSS
# filter (an inverted light figure reverses the lightness of its colormaps).
INK_CONTRAST = 4.5
MIN_INK = 0.005
DARK_BACKGROUND = 0.05


def luminance(png: bytes) -> np.ndarray:
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float64) / 255
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def legibility(png: bytes) -> tuple[float, float]:
    """(background luminance, fraction of ink pixels) of a screenshot."""
    y = luminance(png)
    values, counts = np.unique(np.round(y, 3), return_counts=True)
    background = float(values[counts.argmax()])
    contrast = (np.maximum(y, background) + 0.05) / (np.minimum(y, background) + 0.05)
    return background, float((contrast >= INK_CONTRAST).mean())


# Every image in the article that the reader sees, loaded, with the CSS filter on it or on any
# of its ancestors ("none" when there is none).
SHOWN_IMAGES = """async () => {
    const imgs = [...document.querySelectorAll("article img")].filter(i => i.checkVisibility());
    for (const img of imgs) img.loading = "eager";
    await Promise.all(imgs.map(img => img.decode().catch(() => null)));
    return imgs.map(img => {
        const filters = [];
        for (let e = img; e; e = e.parentElement) {
            const f = getComputedStyle(e).filter;
            if (f && f !== "none") filters.push(f);
        }
        return {src: (img.currentSrc || img.src).slice(0, 200),
                figure: !!img.closest(".pl-figure"),
                dark: !!img.closest(".pl-figure--dark"),
                filter: filters.join(" ") || "none"};
    });
}"""


@pytest.mark.on_screen
def test_dark_palette_shows_dark_figures_without_filters(visit, site, site_page):
    skip_without_images(site, site_page)
    page = visit.page
    set_palette(page, "default")
    open_cards(page)
    set_palette(page, "slate")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    shown = page.evaluate(SHOWN_IMAGES)
    images = page.locator("article img").filter(visible=True)
    assert images.count() == len(shown)
    problems = []
    for i, info in enumerate(shown):
        name = info["src"] if not info["src"].startswith("data:") else f"image {i + 1} (inline)"
        if info["filter"] != "none":
            problems.append(f"{name}: shown through a CSS filter ({info['filter']})")
        if info["figure"] and not info["dark"]:
            problems.append(f"{name}: the light variant is shown in the dark palette")
        background, ink = legibility(images.nth(i).screenshot(scale="css"))
        if ink < MIN_INK:
            problems.append(f"{name}: dark palette, {ink:.2%} ink pixels (need {MIN_INK:.1%})")
        if info["figure"] and background > DARK_BACKGROUND:
            problems.append(f"{name}: background luminance {background:.3f} in dark palette")
    assert not problems, "\n".join(problems)
    assert not visit.errors, "\n".join(visit.errors)


@pytest.mark.on_screen
def test_axe_colours_in_dark_palette(visit, axe_source, axe_dark_options):
    """The colour rule of WCAG 2.1 AA again, dark palette, with every card open."""
    set_palette(visit.page, "slate")
    open_cards(visit.page)
    result = visit.page.evaluate(
        f"options => axe.run(document, options).then({VIOLATIONS})", axe_dark_options
    )
    violations = axe_report(result["violations"])
    assert not violations, "\n".join(violations)


# --- Search -------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def search_words(site):
    """For each page, a word from its body that as few other pages as possible contain.

    Words are cut as the search index cuts them (its ``separator``), and only plain words (six
    letters or more, maybe followed by punctuation) are candidates, so ``getattr(model`` is not.
    """
    index = json.loads((site / "search" / "search_index.json").read_text())
    separator = re.compile(index["config"]["separator"])
    texts: dict[str, str] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0]
        text = re.sub(r"<[^>]+>", " ", doc["title"] + " " + doc["text"]).lower()
        texts[page] = texts.get(page, "") + " " + text
    words = {}
    for page, text in texts.items():
        tokens = (re.fullmatch(r"([a-z]{6,})[.,;:!?]?", t) for t in separator.split(text))
        candidates = dict.fromkeys(m.group(1) for m in tokens if m)  # in order, once each
        if candidates:
            words[page] = min(candidates, key=lambda w: sum(w in t for t in texts.values()))
    return words


@pytest.mark.searchable
def test_search_finds_the_page(visit, site_page, search_words, base_url):
    assert site_page != NOT_FOUND_PAGE
    assert site_page in search_words, "no word of the page's body is in the search index"
    word = search_words[site_page]
    page = visit.page
    box = page.locator("input.md-search__input")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box.fill(word[:-1])  # the input event; the theme searches on key events, so type the last
    box.press(word[-1])  # letter as a reader would
    target = urlsplit(base_url + site_page).path
    try:
        page.wait_for_function(
            """target => [...document.querySelectorAll("a.md-search-result__link")]
                .some(a => new URL(a.href).pathname === target)""",
            arg=target,
            timeout=5000,
        )
    except Exception:
        found = page.locator("a.md-search-result__link").evaluate_all(
            "as => as.map(a => new URL(a.href).pathname)"
        )
        pytest.fail(f"searching {word!r} did not list {target}; results: {found[:10]}")
    box.press("Escape")
    assert not visit.errors, "\n".join(visit.errors)


# --- On a phone ---------------------------------------------------------------------------------
# Figures on a 390 px phone: drawn at no less than 0.75 of their designed size. A figure's
# designed (intrinsic) size is its SVG's width and height (``naturalWidth``, from the SVG's own
# ``width``; sitekit.figstyle draws its text at 10 px or more, so on a phone it stays at least
# 7.5 px tall). A wide figure squeezed into a phone's 358 px column would be drawn at about half
# its size; the page gives phones the figure's narrow layout instead (sitekit.figures.picture),
# which must be the one shown. The page already loaded for the checks above is narrowed to a
# phone's viewport (its media queries and <picture> sources are evaluated again, as when a
# reader turns a phone), checked in both palettes, then widened back for the next page it loads.

PHONE = {"width": 390, "height": 844}
MIN_DRAWN = 0.75

# Every image in the article that the reader sees, loaded, with its drawn and designed width.
# After a resize, a <picture> that picks another source loads it while the old one stays on
# screen (and img.decode() answers for the old one): wait, up to 10 s, until no figure shows a
# wide render on the phone, then measure (a page whose narrow source is missing fails then).
SIZES = """async (phone) => {
    const imgs = [...document.querySelectorAll("article img")].filter(i => i.checkVisibility());
    for (const img of imgs) img.loading = "eager";
    const decoded = () => Promise.all(imgs.map(img => img.decode().catch(() => null)));
    const wide = () => imgs.some(img => img.closest(".pl-figure")
        && !img.currentSrc.includes(".narrow.") && img.naturalWidth > phone);
    const deadline = performance.now() + 10000;
    await decoded();
    while (wide() && performance.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 100));
        await decoded();
    }
    return imgs.map(img => ({
        src: (img.currentSrc || img.src).slice(0, 160),
        figure: !!img.closest(".pl-figure"),
        drawn: img.getBoundingClientRect().width,
        designed: img.naturalWidth,
        widthAttr: img.getAttribute("width"),
    }));
}"""


@pytest.fixture(scope="module")
def on_a_phone(visit, site, site_page):
    """The visited page at a phone's width for its checks in both palettes (narrowed once: a
    resize lays the whole page out again), back at its own width afterwards."""
    skip_without_images(site, site_page)
    page = visit.page
    desktop = page.viewport_size
    page.set_viewport_size(PHONE)
    try:
        yield page
    finally:
        page.set_viewport_size(desktop)


@pytest.mark.on_screen
# Dark first: the checks before these leave the page in the dark palette, and a switch of
# palette costs as much as a resize (every colour and image of the page is restyled).
@pytest.mark.parametrize("palette", ["slate", "default"])
def test_figures_on_a_phone_are_drawn_at_three_quarters_of_their_size_or_more(
    visit, on_a_phone, palette
):
    page = on_a_phone
    set_palette(page, palette)
    open_cards(page)
    problems = []
    for img in page.evaluate(SIZES, PHONE["width"]):
        name = img["src"] if not img["src"].startswith("data:") else "an inline image"
        if not img["designed"]:
            problems.append(f"{name}: not loaded")
            continue
        ratio = img["drawn"] / img["designed"]
        if ratio < MIN_DRAWN:
            problems.append(
                f"{name}: drawn {img['drawn']:.0f} px wide of its {img['designed']} px, "
                f"{ratio:.2f} of its size (need {MIN_DRAWN})"
            )
        if img["figure"] and not img["widthAttr"]:
            problems.append(f"{name}: no width on the <img>, so the page reflows as it loads")
        if img["figure"] and ".narrow." not in img["src"] and img["designed"] > PHONE["width"]:
            problems.append(f"{name}: the wide layout is shown on a phone")
    assert not problems, "\n".join(problems)
    assert not visit.errors, "\n".join(visit.errors)
