"""A figure script that raises: `make site` fails, `make serve` shows the error in its place."""

import xml.etree.ElementTree as ET

import pytest

from sitekit import figure_placeholder, figures
from sitekit.paths import ROOT
from sitekit.plugin import PaperlensPlugin

ERROR = 'Traceback (most recent call last):\n  File "x.py"\nZeroDivisionError: division by zero'


def plugin(command: str) -> PaperlensPlugin:
    """The plugin as the engine makes it for ``command``, with its default options."""
    made = PaperlensPlugin()
    errors, _ = made.load_config({}, str(ROOT / "mkdocs.yml"))
    assert not errors
    made.on_startup(command=command, dirty=False)
    return made


def test_the_placeholder_names_the_script_and_its_error():
    figure = figures.Figure(ROOT / "figures/foundations/softmax/broken.py")
    rendered = figure_placeholder.placeholder(figure, ERROR)
    svg = ET.fromstring(rendered.svg)
    assert svg.get("width") and svg.get("height")  # an intrinsic size, like every figure
    text = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "figures/foundations/softmax/broken.py" in text
    assert "ZeroDivisionError: division by zero" in text
    assert "ZeroDivisionError: division by zero" in rendered.alt


@pytest.fixture
def two_figures(monkeypatch):
    good = figures.Figure(ROOT / "figures/a/good.py")
    bad = figures.Figure(ROOT / "figures/a/bad.py")

    def render_all(chosen=None):
        chosen = [good, bad] if chosen is None else chosen
        if bad in chosen:
            raise figures.FigureError(f"figure script {bad.name} failed:\n{ERROR}")
        return {f.site_path: figures.Rendered(b"<svg/>", "fine") for f in chosen}, len(chosen)

    monkeypatch.setattr(figures, "render_all", render_all)
    monkeypatch.setattr(figures, "discover", lambda folder=None: [good, bad])
    return good, bad


def test_under_serve_the_other_figures_are_drawn_and_the_failing_one_shows_its_error(
    two_figures, capsys
):
    good, bad = two_figures
    drawn, _ = plugin("serve")._render_figures()
    assert drawn[good.site_path].alt == "fine"
    assert "ZeroDivisionError" in drawn[bad.site_path].alt
    assert "figures/a/bad.py" in capsys.readouterr().err  # and in the terminal


def test_a_build_fails_on_it(two_figures):
    with pytest.raises(Exception, match="figures/a/bad.py failed"):
        plugin("build")._render_figures()
