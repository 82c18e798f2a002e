"""A figure script that fails (it raises, or its drawing fails a check): `make site` fails,
`make serve` shows the error in its place (tests/browser/test_serve.py, in a browser)."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from sitekit import figure_placeholder, figures
from sitekit.paths import ROOT
from sitekit.plugin import PaperlensPlugin

ERROR = 'Traceback (most recent call last):\n  File "x.py"\nZeroDivisionError: division by zero'
# What a worker reports for a drawing that fails the contrast check (`figures.Renderers`).
CHECK_FAILED = """Traceback (most recent call last):
  File "tools/sitekit/figures.py", line 235, in _attempt
    return getattr(importlib.import_module(module), name)(*args), None
  File "tools/sitekit/render.py", line 135, in render
    raise ValueError(
ValueError: light wide: text that readers cannot read:
  'faint' in #dddddd on #ffffff: contrast 1.36, less than 4.5 (light style)
  'fainter' in #eeeeee on #ffffff: contrast 1.16, less than 4.5 (light style)
"""


def test_the_placeholder_names_the_script_and_its_error():
    figure = figures.Figure(ROOT / "figures/foundations/softmax/broken.py")
    rendered = figure_placeholder.placeholder(figure, ERROR)
    svg = ET.fromstring(rendered.svg)
    assert svg.get("width") and svg.get("height")  # an intrinsic size, like every figure
    text = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "figures/foundations/softmax/broken.py" in text
    assert "ZeroDivisionError: division by zero" in text
    assert "ZeroDivisionError: division by zero" in rendered.alt


def test_the_placeholder_has_a_size_in_points_so_the_page_can_embed_it():
    """The page sizes every figure from its SVG, which matplotlib writes in points: a
    placeholder without them stopped the very rebuild it was meant to rescue (issue 25)."""
    figure = figures.Figure(ROOT / "figures/foundations/softmax/broken.py")
    rendered = figure_placeholder.placeholder(figure, ERROR)
    assert figures.svg_size(rendered.svg)[0] == figure_placeholder.WIDTH
    page = '<p><img alt="" src="../../figures/foundations/softmax/broken.svg" /></p>'
    html = figures.embed(page, "foundations/softmax/", {figure.site_path: rendered}, where="x")
    assert html.count("<picture") == 2  # light and dark, each with its wide and narrow source
    assert "ZeroDivisionError" in html


def test_a_failed_check_shows_every_line_of_its_message_and_no_frames():
    rendered = figure_placeholder.placeholder(
        figures.Figure(ROOT / "figures/a/bad.py"), CHECK_FAILED
    )
    svg = ET.fromstring(rendered.svg)
    lines = [t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert lines[1] == "ValueError: light wide: text that readers cannot read:"
    assert any("'faint' in #dddddd" in line for line in lines)
    assert any("'fainter' in #eeeeee" in line for line in lines)
    assert not any("render.py" in line for line in lines)  # the frames are in the terminal
    assert "contrast 1.16, less than 4.5" in rendered.alt


GOOD = """
import paperlens as pl
from sitekit.figstyle import new_figure


def make_figure(style, layout):
    fig, ax = new_figure(layout=layout)
    ax.plot([0, 1])
    return pl.show(fig, "A straight line rising from zero to one.")
"""
BAD = "def make_figure(style, layout):\n    return 1 / 0\n"


def plugin(command: str, figures_folder: Path | None = None) -> PaperlensPlugin:
    """The plugin as the engine makes it for ``command``, with its default options (and the
    figure scripts of ``figures_folder``, when given)."""
    made = PaperlensPlugin()
    options = {"figures": str(figures_folder)} if figures_folder else {}
    errors, _ = made.load_config(options, str(ROOT / "mkdocs.yml"))
    assert not errors
    made.on_startup(command=command, dirty=False)
    return made


@pytest.fixture
def two_figures(tmp_path, monkeypatch):
    """A folder of two figure scripts, one that draws and one that raises, and an empty cache."""
    monkeypatch.setenv("PAPERLENS_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "figures"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "good.py").write_text(GOOD)
    (folder / "a" / "bad.py").write_text(BAD)
    return folder


def test_under_serve_the_other_figures_are_drawn_and_the_failing_one_shows_its_error(
    two_figures, capsys
):
    with figures.Renderers() as renderers:
        drawn, count = plugin("serve", two_figures)._render_figures(renderers)
    assert count == 2
    assert drawn["figures/a/good.svg"].alt == "A straight line rising from zero to one."
    assert "ZeroDivisionError" in drawn["figures/a/bad.svg"].alt
    assert "figures/a/bad.py" in capsys.readouterr().err  # and in the terminal


def test_a_build_fails_on_it(two_figures):
    with pytest.raises(PluginError, match="figures/a/bad.py failed"), figures.Renderers() as r:
        plugin("build", two_figures)._render_figures(r)
