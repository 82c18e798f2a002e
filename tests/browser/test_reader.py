"""The reader features, used as a reader uses them, in Chromium: glossary definitions by mouse,
keyboard and touch (WCAG 2.1, 1.4.13 and 2.1.1), with and without JavaScript; Material's instant
navigation through several pages, with the site's own scripts working on each; link previews
and footnote tooltips; the "Report a problem" link.

One browser context per way of reading (desktop with a mouse, a phone with touch, no
JavaScript), each shared by the tests that read that way.
"""

import re
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from playwright.sync_api import expect

from sitekit.browser import set_palette

# As the other browser tests: a desktop, light palette asked for by the system.
CONTEXT = {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"}

# A page with a glossary word defined on an earlier page, and the word's definition.
WORD_PAGE = "walkthrough/step-3-random-scores/"
WORD = "heads"
MEANING = re.compile("attention computation")


def published_address(site):
    """The address the site was built for (site_url), from its home page's canonical link."""
    found = re.search(r'<link rel="canonical" href="([^"]+)"', (site / "index.html").read_text())
    assert found, "the home page has no canonical link: is site_url set?"
    return found.group(1)


def serve_as_published(context, site, base):
    """Answer every request for the published address from the built site, and refuse any
    other: the browser sees the site at its own address. Material's instant navigation follows
    the sitemap's addresses, which name the published host and no port, so a site served on
    127.0.0.1 with a port would be navigated the ordinary way."""
    origin = urlsplit(base)
    root = site.resolve()

    def answer(route):
        url = urlsplit(route.request.url)
        if (url.scheme, url.netloc) != (origin.scheme, origin.netloc):
            route.abort()
            return
        target = (root / unquote(url.path.removeprefix(origin.path))).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or not target.is_relative_to(root):
            route.fulfill(status=404, path=str(root / "404.html"))
            return
        route.fulfill(path=str(target))

    context.route("**/*", answer)


def new_page(browser, **options):
    context = browser.new_context(**{**CONTEXT, **options})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    return context, page


@pytest.fixture(scope="module")
def published(site):
    return published_address(site)


@pytest.fixture(scope="module")
def desktop(browser, site, published):
    """A desktop with a mouse, on the site at its published address (instant navigation)."""
    context, page = new_page(browser)
    serve_as_published(context, site, published)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=published.rstrip("/"))
    yield page
    context.close()


@pytest.fixture(scope="module")
def phone(browser):
    context, page = new_page(
        browser,
        viewport={"width": 390, "height": 844},
        device_scale_factor=3,
        is_mobile=True,
        has_touch=True,
    )
    yield page
    context.close()


@pytest.fixture(scope="module")
def no_script(browser):
    context, page = new_page(browser, java_script_enabled=False)
    yield page
    context.close()


def word(page):
    """The word's button and its definition."""
    term = page.locator("article .gloss__term", has_text=re.compile(rf"^{WORD}$")).first
    tip = page.locator("#" + term.get_attribute("aria-describedby"))
    return term, tip


# --- Definitions: mouse, keyboard, touch, no JavaScript -------------------------------------------


def test_a_definition_is_described_for_screen_readers(desktop, published):
    desktop.goto(published + WORD_PAGE)
    term, tip = word(desktop)
    expect(term).to_have_role("button")
    expect(tip).to_have_attribute("role", "tooltip")
    expect(term).to_have_accessible_description(MEANING)
    expect(term).to_have_accessible_name(WORD)
    expect(tip).to_be_hidden()


def test_hover_opens_it_the_pointer_can_move_onto_it_and_escape_closes_it(desktop, published):
    desktop.goto(published + WORD_PAGE)
    term, tip = word(desktop)
    term.scroll_into_view_if_needed()
    term.hover()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(MEANING)
    box = tip.bounding_box()
    desktop.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
    expect(tip).to_be_visible()  # 1.4.13 hoverable: it stays while the pointer is on it
    desktop.keyboard.press("Escape")
    expect(tip).to_be_hidden()  # 1.4.13 dismissible, without moving the pointer
    desktop.mouse.move(2, 2, steps=2)
    term.hover()
    expect(tip).to_be_visible()
    desktop.mouse.move(2, 2, steps=2)
    expect(tip).to_be_hidden()


def test_keyboard_focus_opens_it_escape_closes_it_and_focus_stays(desktop, published):
    desktop.goto(published + WORD_PAGE)
    desktop.mouse.move(0, 0)
    term, tip = word(desktop)
    # Reach the word with Tab from the control just before it (a probe put there).
    term.evaluate(
        """t => { const b = document.createElement("button"); b.id = "probe";
                  b.textContent = "probe"; t.closest(".gloss").before(b); b.focus(); }"""
    )
    desktop.keyboard.press("Tab")
    expect(term).to_be_focused()
    expect(tip).to_be_visible()
    desktop.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    expect(term).to_be_focused()
    desktop.keyboard.press("Shift+Tab")
    desktop.keyboard.press("Tab")
    expect(tip).to_be_visible()
    desktop.keyboard.press("Tab")
    expect(tip).to_be_hidden()


def test_a_tap_opens_it_inside_the_screen_and_a_second_tap_or_one_elsewhere_closes_it(
    phone, base_url
):
    phone.goto(base_url + WORD_PAGE)
    term, tip = word(phone)
    term.scroll_into_view_if_needed()
    term.tap()
    expect(tip).to_be_visible()
    box = tip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    phone.locator("article h1").tap()
    expect(tip).to_be_hidden()
    term.tap()
    expect(tip).to_be_visible()
    term.tap()
    expect(tip).to_be_hidden()
    assert not phone.errors, phone.errors


def test_without_javascript_hover_and_focus_open_it(no_script, base_url):
    no_script.goto(base_url + WORD_PAGE)
    term, tip = word(no_script)
    expect(tip).to_be_hidden()
    term.scroll_into_view_if_needed()
    term.hover()
    expect(tip).to_be_visible()
    no_script.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    term.focus()
    expect(tip).to_be_visible()


def run_axe(page, source, options):
    page.evaluate(source)
    found = page.evaluate(
        "o => axe.run(document, o).then(r => r.violations.map("
        "v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))",
        options,
    )
    return found


def test_axe_finds_nothing_with_a_definition_open_in_either_palette(
    desktop, published, axe_source, axe_options, axe_dark_options
):
    desktop.goto(published + WORD_PAGE)
    term, tip = word(desktop)
    term.hover()
    expect(tip).to_be_visible()
    assert run_axe(desktop, axe_source, axe_options) == []
    set_palette(desktop, "slate")
    term.hover()
    expect(tip).to_be_visible()
    assert run_axe(desktop, axe_source, axe_dark_options) == []
    set_palette(desktop, "default")


# --- Instant navigation: the site's scripts on every page navigated to ------------------------


def nav_to(page, href_end, title):
    """Follow the sidebar's link to the page whose URL ends with ``href_end``, and check that the
    document was not reloaded (instant navigation)."""
    page.locator(f".md-sidebar--primary a[href$='{href_end}']").first.click()
    page.wait_for_url(re.compile(re.escape(href_end) + "$"))
    expect(page.locator("article h1").first).to_contain_text(title)
    assert page.evaluate("window.__sameDocument === true"), "a full reload, not instant"


def test_instant_navigation_keeps_the_site_s_scripts_working(desktop, published):
    page = desktop
    page.goto(published)
    page.evaluate("window.__sameDocument = true")
    del page.errors[:]

    # The self-test: its answer boxes and checklist, set up on a page swapped in.
    nav_to(page, "foundations/self-test/", "Self-test")
    form = page.locator("form.answer-box").first
    expect(form).to_be_visible()
    form.locator("input[type=text]").fill("(8, 64)")
    form.get_by_role("button", name="Check").click()
    expect(form.locator(".answer-box__message")).to_have_text("Right.")
    expect(page.locator(".checklist__status").first).to_be_visible()

    # An explorable figure: its control shows a frame computed for the value chosen.
    nav_to(page, "walkthrough/step-3-random-scores/", "Step 3")
    slider = page.locator(".explorable__control input[type=range]").first
    expect(slider).to_be_visible()
    slider.focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("figure.explorable img").first).to_have_attribute(
        "src", re.compile(r"frames/.*/5-light-wide\.svg$")
    )

    # A copy button copies its block's code.
    block = page.locator("article div.highlight").first
    block.hover()
    block.get_by_title("Copy to clipboard").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == block.locator("code").inner_text().strip()

    # A glossary word on this swapped-in page.
    term, tip = word(page)
    term.hover()
    expect(tip).to_be_visible()
    page.mouse.move(2, 2)

    # Back: the previous page, restored without a reload, its script still working.
    page.go_back()
    page.wait_for_url(re.compile("self-test/$"))
    expect(page.locator("form.answer-box").first).to_be_visible()
    assert page.evaluate("window.__sameDocument === true")
    assert not page.errors, page.errors


def test_a_link_shows_a_preview_of_its_target_on_hover(desktop, published):
    desktop.goto(published + WORD_PAGE)
    link = desktop.locator("article a[href*='foundations/variance/']").first
    link.scroll_into_view_if_needed()
    link.hover()
    preview = desktop.locator(".md-tooltip2").filter(has_text=re.compile("variance", re.I))
    expect(preview.first).to_be_visible(timeout=10_000)
    desktop.mouse.move(2, 2)


def test_a_footnote_shows_as_a_tooltip(desktop, published):
    desktop.goto(published + "review/")
    ref = desktop.locator("article .footnote-ref").first
    ref.hover()
    tooltip = desktop.locator(".md-tooltip2").filter(has_text="keeps its identity")
    expect(tooltip.first).to_be_visible()
    desktop.mouse.move(2, 2)


# --- Report a problem --------------------------------------------------------------------------


def test_the_report_link_works_without_javascript_and_requests_nothing_before_a_click(
    no_script, base_url
):
    requests = []
    no_script.on("request", lambda r: requests.append(r.url))
    no_script.goto(base_url + WORD_PAGE)
    link = no_script.get_by_role("link", name="Report a problem with this page")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    parts = urlsplit(href)
    assert parts.path.endswith("/issues/new")
    body = parse_qs(parts.query)["body"][0]
    assert "Source: docs/walkthrough/step-3-random-scores.md" in body
    assert not [u for u in requests if urlsplit(u).netloc == parts.netloc]
