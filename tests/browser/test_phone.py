"""Figures on a 390 px phone, on every page: drawn at no less than 0.75 of their designed size.

A figure's designed (intrinsic) size is its SVG's width and height (``naturalWidth``, from the
SVG's own ``width``; sitekit.figstyle draws its text at 10 px or more, so on a phone it stays at
least 7.5 px tall). A wide figure squeezed into a phone's 358 px column would be drawn at about
half its size; the page gives phones the figure's narrow layout instead
(sitekit.figures.picture), which must be the one shown. Pages are loaded in phone-sized tabs
of their own (one context for the session, so the theme's assets load once; the next page loads
in the other tab while one is checked), in both palettes.
"""

import pytest

from sitekit import browser as sb
from sitekit.browser import set_palette

PHONE = {"viewport": {"width": 390, "height": 844}, "color_scheme": "light"}
MIN_DRAWN = 0.75

# Every image in the article that the reader sees, loaded, with its drawn and designed width.
SIZES = """async () => {
    const imgs = [...document.querySelectorAll("article img")].filter(i => i.checkVisibility());
    for (const img of imgs) img.loading = "eager";
    await Promise.all(imgs.map(img => img.decode().catch(() => null)));
    return imgs.map(img => ({
        src: (img.currentSrc || img.src).slice(0, 160),
        figure: !!img.closest(".pl-figure"),
        drawn: img.getBoundingClientRect().width,
        designed: img.naturalWidth,
        widthAttr: img.getAttribute("width"),
    }));
}"""


@pytest.fixture(scope="session")
def phone_tabs(browser):
    tabs = sb.Tabs(browser, **PHONE)
    yield tabs
    tabs.close()


@pytest.fixture(scope="module")
def phone(phone_tabs, base_url, site_page, site_pages):
    """The page on a phone, loaded once for both palettes; the next page starts loading."""
    return phone_tabs.visit_in_order(base_url, site_page, site_pages)


@pytest.mark.on_screen
@pytest.mark.parametrize("palette", ["default", "slate"])
def test_figures_are_drawn_at_three_quarters_of_their_size_or_more(phone, palette):
    page = phone.page
    set_palette(page, palette)
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    problems = []
    for img in page.evaluate(SIZES):
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
        if img["figure"] and ".narrow." not in img["src"] and img["designed"] > 390:
            problems.append(f"{name}: the wide layout is shown on a phone")
    assert not problems, "\n".join(problems)
    assert not phone.errors, "\n".join(phone.errors)
