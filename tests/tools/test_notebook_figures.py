"""Notebook figures in the site's styles and layouts (sitekit.notebook_figures)."""

import base64

import matplotlib
import pytest

matplotlib.use("svg")

from matplotlib.figure import Figure  # noqa: E402

import paperlens as pl  # noqa: E402
from sitekit import figstyle, figures  # noqa: E402
from sitekit import notebook_figures as nf  # noqa: E402


@pytest.fixture
def two_panels():
    """A figure as a notebook draws it: matplotlib's Figure, two panels in a row, 8 inches."""
    figstyle.apply(figstyle.LIGHT)
    fig = Figure(figsize=(8, 3.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    left.plot([1, 2, 3], [1, 4, 9], color="#D55E00", label="unscaled")
    left.axhline(0.5, color="grey", ls=":")
    right.scatter([1, 2], [3, 4], color="#0072B2", alpha=0.5, label="scaled")
    left.set_ylabel("weight")
    left.legend()
    yield fig
    figstyle.apply(figstyle.LIGHT)


def test_a_figure_is_drawn_in_every_style_and_layout(two_panels):
    svgs = nf.variants(two_panels)
    assert set(svgs) == {(s.name, lay.name) for s in figstyle.STYLES for lay in figstyle.LAYOUTS}
    sizes = {key: figures.svg_size(svg) for key, svg in svgs.items()}
    # As wide as the build's figures: 7 inches (672 px), 3.9 on a phone with the panels stacked.
    assert sizes[("light", "wide")][0] == 672 and sizes[("light", "narrow")][0] == 374
    assert sizes[("light", "narrow")][1] > sizes[("light", "wide")][1]  # stacked: taller
    assert sizes[("dark", "wide")] == sizes[("light", "wide")]
    light, dark = svgs[("light", "wide")].decode(), svgs[("dark", "wide")].decode()
    assert "#d55e00" in light and "#d55e00" not in dark
    assert figstyle.DARK.vermilion.lower() in dark and figstyle.DARK.blue.lower() in dark
    assert figstyle.DARK.background in dark and figstyle.LIGHT.foreground not in dark


def test_the_dark_style_keeps_alpha_and_maps_every_light_role(two_panels):
    nf.recolour(two_panels)
    left, right = two_panels.axes
    assert matplotlib.colors.to_hex(left.lines[0].get_color()) == figstyle.DARK.vermilion.lower()
    assert matplotlib.colors.to_hex(left.lines[1].get_color()) == figstyle.DARK.muted
    assert right.collections[0].get_facecolor()[0][3] == pytest.approx(0.5)
    label = left.yaxis.label.get_color()
    assert figstyle.contrast(label, figstyle.DARK.background) >= figstyle.TEXT_CONTRAST


def test_the_page_gets_one_picture_per_style_and_files_for_the_svgs(two_panels):
    shown = pl.show(two_panels, "Two panels of made-up numbers.")
    html = nf.html_of(shown)
    assert html.count("<picture") == 2 and html.count('alt="Two panels of made-up numbers."') == 2
    assert html.count("data:image/svg+xml;base64,") == 4
    store: dict[str, bytes] = {}
    page = nf.extract(html, "reproduce/attention-scaling/", store)
    assert "data:" not in page and len(store) == 4
    for path, svg in store.items():
        assert path.startswith("figures/notebooks/") and f'"../../{path}"' in page
        assert svg.startswith(b"<?xml")
    encoded = base64.b64encode(next(iter(store.values()))).decode()
    assert encoded not in page


def test_without_sitekit_a_notebook_shows_one_plain_svg(two_panels):
    """What a downloaded notebook gets: paperlens alone, matplotlib's own look."""
    html = pl.show(two_panels, "Two panels of made-up numbers.")._repr_html_()
    assert html.startswith('<img src="data:image/svg+xml;base64,') and "<picture" not in html
