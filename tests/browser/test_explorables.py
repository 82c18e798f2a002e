"""Explorable figures in Chromium: the control works from the keyboard, is named, passes axe in
both palettes, picks the narrow layout on a phone, leaves the default frame without JavaScript,
and the numbers a frame's alt text gives are the library's, computed again here.

One page per explorable figure (``sitekit.explorables.discover``): each test loads it afresh in a
context of its own, so no test depends on what another did to the page.
"""

import json
import re

import numpy as np
import pytest
from ml_dtypes import bfloat16

import paperlens as pl
from sitekit import explorables, render
from sitekit.browser import set_palette

SCRIPTS = explorables.discover()
DESKTOP = {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"}
PHONE = {"viewport": {"width": 390, "height": 844}, "color_scheme": "light"}


def page_of(figure):
    """The page that shows a figure: figures/<section>/<page>/<name>.svg is on <section>/<page>/."""
    return figure.site_path.removeprefix("figures/").rsplit("/", 1)[0] + "/"


@pytest.fixture(scope="module", params=SCRIPTS, ids=[f.script.stem for f in SCRIPTS])
def figure(request):
    return request.param


def _open(browser, url, options, init=None):
    context = browser.new_context(**options)
    if init:
        context.add_init_script(init)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.errors = errors
    return context, page


@pytest.fixture(scope="module")
def desktop(browser, base_url, axe_source, figure):
    """The figure's page on a desktop, loaded once for the checks below, with axe-core; each
    check first moves the control to the frame it needs."""
    context, page = _open(browser, base_url + page_of(figure), DESKTOP, axe_source)
    yield page, page.locator("figure.explorable").first
    context.close()


@pytest.fixture
def open_page(browser, base_url):
    """``open_page(figure, **context)``: a fresh tab on the figure's page."""
    contexts = []

    def opener(figure, **options):
        context, page = _open(browser, base_url + page_of(figure), options)
        contexts.append(context)
        return page, page.locator("figure.explorable").first

    yield opener
    for context in contexts:
        context.close()


STATE = """f => {
    // The one shown: the page's own figure has one <picture> per palette until the control
    // moves, and the script's single one after.
    const img = [...f.querySelectorAll(".explorable__figure img")].find(i => i.checkVisibility());
    const range = f.querySelector("input[type=range]");
    return {
        alt: img.getAttribute("alt"), src: img.currentSrc, loaded: img.complete,
        width: img.naturalWidth, valuetext: range ? range.getAttribute("aria-valuetext") : null,
        checked: f.querySelector("input:checked")?.value ?? null,
        filter: getComputedStyle(img).filter,
    };
}"""


def data(fig):
    return json.loads(fig.get_attribute("data-frames"))


def state(fig, page):
    fig.scroll_into_view_if_needed()  # the page's figures load lazily, as a reader reaches them
    page.wait_for_function(
        "f => { const i = [...f.querySelectorAll('.explorable__figure img')]"
        ".find(i => i.checkVisibility()); return i && i.complete && i.naturalWidth > 0; }",
        arg=fig.element_handle(),
    )
    return fig.evaluate(STATE)


def control(page, fig):
    """The focused control: the slider, or the checked radio button of the group."""
    found = fig.locator("input[type=range]")
    if found.count() == 0:
        found = fig.locator("input[type=radio]:checked")
    found.focus()
    return found


def press(page, fig, key, times=1):
    control(page, fig)
    for _ in range(times):
        page.keyboard.press(key)


def go_to(page, fig, index):
    """Move the control to frame ``index`` with the arrow keys, as a reader would."""
    frames = data(fig)["frames"]
    now = [f["alt"] for f in frames].index(
        fig.locator(".explorable__figure img >> visible=true").get_attribute("alt")
    )
    if index != now:
        press(page, fig, "ArrowRight" if index > now else "ArrowLeft", abs(index - now))
    return state(fig, page)


def default_index(fig):
    chosen = fig.locator("input[type=range], input[checked]").first.get_attribute("value")
    return int(chosen)


def test_the_control_moves_the_figure_and_its_alt_text_from_the_keyboard(desktop):
    page, fig = desktop
    frames = data(fig)["frames"]
    before = go_to(page, fig, default_index(fig))
    label = fig.locator(".explorable__control label, .explorable__control legend").first
    name = label.inner_text().strip()
    assert fig.locator(".explorable__control").is_visible()
    if fig.locator("input[type=range]").count():
        slider = page.get_by_role("slider", name=name)
        assert slider.count() == 1, f"no slider named {name!r}"
        assert before["valuetext"] in [f["text"] for f in frames]
    else:
        group = page.get_by_role("group", name=name)
        assert group.get_by_role("radio").count() == len(frames)
    press(page, fig, "ArrowRight")
    after = state(fig, page)
    assert after["alt"] != before["alt"], "the alt text did not change"
    assert after["src"] != before["src"], "the image did not change"
    assert after["width"] > 0, "the new frame did not load"
    index = [f["alt"] for f in frames].index(after["alt"])
    wide = frames[index]["src"][data(fig)["styles"][0] + "-wide"]  # light palette, desktop
    assert after["src"].endswith(wide.rsplit("/", 1)[-1])
    if after["valuetext"] is not None:
        assert after["valuetext"] == frames[index]["text"]
        assert fig.locator("output").inner_text() == frames[index]["text"]
    else:
        assert int(after["checked"]) == index
    press(page, fig, "ArrowLeft")
    assert state(fig, page)["alt"] == before["alt"], "moving back did not restore the frame"
    assert not page.errors, "\n".join(page.errors)


def test_a_phone_gets_the_narrow_layout(figure, open_page):
    """On a phone the default frame is shown narrow at once, and so is every frame after."""
    page, fig = open_page(figure, **PHONE)
    narrow = (
        "f => [...f.querySelectorAll('.explorable__figure img')]"
        ".find(i => i.checkVisibility())?.currentSrc.endsWith('-narrow.svg')"
    )
    page.wait_for_function(narrow, arg=fig.element_handle())
    frames = data(fig)["frames"]
    assert state(fig, page)["alt"] == frames[default_index(fig)]["alt"]
    shown = go_to(page, fig, default_index(fig) + 1)
    assert shown["alt"] == frames[default_index(fig) + 1]["alt"]
    page.wait_for_function(narrow, arg=fig.element_handle())
    box = fig.locator(".explorable__figure img >> visible=true").bounding_box()
    assert box["width"] <= PHONE["viewport"]["width"], box
    assert not page.errors, "\n".join(page.errors)


def test_without_javascript_the_default_frame_is_shown(figure, open_page):
    page, fig = open_page(figure, java_script_enabled=False, **DESKTOP)
    frames = data(fig)
    assert not fig.locator(".explorable__control").is_visible()
    img = fig.locator(".explorable__figure img >> visible=true")
    assert img.count() == 1
    assert img.evaluate("i => i.complete && i.naturalWidth > 0")
    default = frames["frames"][default_index(fig)]
    assert img.get_attribute("alt") == default["alt"]
    assert "figures/" in img.get_attribute("src")  # the site's own figure, as any other


# --- The numbers of one frame of each, computed again with paperlens ----------------------------


def fmt(x, spec):
    return format(x + 0.0, spec).replace("-", "−")


def check_widening(module, alt):
    d_k = int(re.search(r"d_k = (\d+)", alt).group(1))
    scores = pl.sample_scores(d_k, module.N, rng=np.random.default_rng([module.SEED, d_k]))
    far = np.mean(np.abs(scores) > module.FAR)
    assert f"standard deviation {np.std(scores):.1f}," in alt
    assert f"{far:.0%} of the scores beyond" in alt
    assert f"at {fmt(scores.min(), '.1f')} and {fmt(scores.max(), '.1f')}." in alt
    return d_k


def check_scaling(module, alt):
    d_k = int(re.search(r"For d_k = (\d+)", alt).group(1))
    raw = pl.sample_scores(d_k, module.N, rng=np.random.default_rng([module.SEED, d_k, 1]))
    draws = [np.random.default_rng([module.SEED, d_k]) for _ in range(2)]  # the same in both
    q, K = module.typical_query(d_k, module.N_K, draws[0], scale=1.0)
    unscaled = pl.softmax(K @ q)
    scale = 1 / np.sqrt(d_k)  # the divided column's typical query, picked at its own scale
    q, K = module.typical_query(d_k, module.N_K, draws[1], scale=scale)
    divided = pl.softmax(K @ q * scale)
    assert f"standard deviation {np.std(raw):.2g} unscaled, " in alt
    assert f"{np.std(raw / np.sqrt(d_k)):.2g} divided" in alt
    assert f"the largest is {unscaled.max():.2f} unscaled, {divided.max():.2f} divided" in alt
    rng = np.random.default_rng([module.SEED, 2])
    rows = [module.random_rows(d, module.N_K, module.N, rng) for d in module.D_KS]
    here = rows[module.D_KS.index(d_k)]
    raw_share = np.mean(pl.softmax(here).max(axis=-1) > 0.99)
    fix_share = np.mean(pl.softmax(here / np.sqrt(d_k)).max(axis=-1) > 0.99)
    assert f"{raw_share:.0%} here unscaled" in alt and f"{fix_share:.0%} here divided" in alt
    return d_k


def check_angle(module, alt):
    angle = int(re.search(r"q·k = \S+ at (\d+)°", alt).group(1))
    q = module.q
    t = np.deg2rad(angle)
    k = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ (q / np.linalg.norm(q))
    # the score attention computes, q Kᵀ for one key, through the library's product x W
    (score,) = pl.linear(q[None, :], k[:, None]).ravel()
    assert np.isclose(score, np.linalg.norm(q) * np.cos(t))
    assert f"q·k = {fmt(score, '+.2f')} at {angle}°." in alt
    return angle


def check_precision(module, alt):
    name = re.search(r"computed in (\w+),", alt).group(1)
    dtype = {"float64": np.float64, "float32": np.float32, "float16": np.float16}.get(
        name, bfloat16
    )
    with np.errstate(over="ignore"):
        fill = np.asarray(-1e9).astype(dtype)
    row = np.array([2.0, 0.5, -1.0, 1.0]).astype(dtype)
    every = np.full(row.shape, fill, dtype=dtype)
    cast = (lambda s: s.astype(np.float32)) if dtype == bfloat16 else (lambda s: s)
    by_paperlens = pl.softmax(cast(every))
    if np.isneginf(fill):
        assert "is stored as −∞" in alt
        assert np.array_equal(by_paperlens, np.zeros(4))
        assert "Every key replaced by −10⁹: NaN from softmax written out and all zeros from" in alt
    else:  # equal scores: exact arithmetic gives uniform weights, and so does the dtype
        assert np.allclose(by_paperlens, 0.25)
        assert "every key replaced by −10⁹, 0.25, 0.25, 0.25 and 0.25" in alt
        assert "Every key replaced by −10⁹: exact from both" in alt
    return name


CHECKS = {
    "widening": check_widening,
    "scaling": check_scaling,
    "angle": check_angle,
    "precision": check_precision,
}


def test_a_frames_numbers_are_the_librarys(figure, desktop):
    """One frame past the default, reached from the keyboard; its alt text checked against
    paperlens, computed here again from the script's constants (seed, sizes)."""
    assert figure.script.stem in CHECKS, f"no check of the numbers of {figure.name}"
    page, fig = desktop
    alt = go_to(page, fig, default_index(fig) + 1)["alt"]
    module = render.load(figure.script)
    value = CHECKS[figure.script.stem](module, alt)
    frames = module.FRAMES
    assert value == frames.values[frames.values.index(frames.default) + 1]


VIOLATIONS = """r => r.violations.map(v => `${v.id} (${v.help}): ` +
    v.nodes.map(n => n.target.join(" ")).join(", "))"""


def test_the_explorable_passes_axe_in_both_palettes(desktop, axe_options, axe_dark_options):
    """Last of the desktop checks: it leaves the page in the dark palette."""
    page, fig = desktop
    go_to(page, fig, default_index(fig) + 1)  # the figure as the script rebuilt it
    selector = "#" + fig.get_attribute("id")
    run = "([sel, options]) => axe.run(sel, options).then(" + VIOLATIONS + ")"
    assert page.evaluate(run, [selector, axe_options]) == []
    set_palette(page, "slate")
    assert page.evaluate(run, [selector, axe_dark_options]) == []
    assert "dark" in data(fig)["styles"]
    shown = state(fig, page)
    assert "-dark-" in shown["src"], "the dark palette shows a light frame"
    assert "invert" not in shown["filter"], "a frame is shown through a colour filter"
