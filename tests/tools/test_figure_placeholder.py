"""A figure script that fails (it raises, or its drawing fails a check): `make site` fails,
`make serve` shows the error in its place (tests/browser/test_serve.py, in a browser)."""

import xml.etree.ElementTree as ET

import pytest

from sitekit import PageError, figure_placeholder, figures
from sitekit.paths import ROOT
from sitekit.plugin import PaperlensPlugin

ERROR = 'Traceback (most recent call last):\n  File "x.py"\nZeroDivisionError: division by zero'
# What sitekit.render reports for a drawing that fails the contrast check.
CHECK_FAILED = """figure script figures/a/bad.py failed:
Traceback (most recent call last):
  File "tools/sitekit/render.py", line 161, in main
    render(Path(script), Path(out))
  File "tools/sitekit/render.py", line 135, in render
    raise ValueError(
ValueError: light wide: text that readers cannot read:
  'faint' in #dddddd on #ffffff: contrast 1.36, less than 4.5 (light style)
  'fainter' in #eeeeee on #ffffff: contrast 1.16, less than 4.5 (light style)
"""


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


@pytest.fixture
def two_figures(monkeypatch):
    good = figures.Figure(ROOT / "figures/a/good.py")
    bad = figures.Figure(ROOT / "figures/a/bad.py")

    def render_all(chosen=None):
        chosen = [good, bad] if chosen is None else chosen
        if bad in chosen:
            raise PageError(f"figure script {bad.name} failed:\n{ERROR}")
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


def test_a_figure_embedded_before_its_script_exists_is_a_placeholder_naming_the_script(
    tmp_path, capsys
):
    """A page written before its figure (issue 25's walk-through): under ``make serve`` the
    page is served with a box naming the script to write; figures drawn and images outside
    ``figures/`` are left alone."""
    from mkdocs.structure.files import File, Files

    docs = tmp_path / "docs"
    (docs / "s").mkdir(parents=True)
    page = (
        "# P\n\n![](../figures/s/p/new.svg)\n\n![](../figures/s/p/drawn.svg)\n\n"
        "![a photo](../assets/photo.svg)\n\nWrite `![](../figures/s/p/shown.svg)`, as in:\n\n"
        "1. A list\n\n    ```markdown\n    ![](../figures/s/p/shown.svg)\n    ```\n"
    )
    (docs / "s" / "p.md").write_text(page)
    (docs / "index.md").write_text("# Home\n")
    files = Files(
        [File(p, str(docs), str(tmp_path / "site"), True) for p in ("s/p.md", "index.md")]
    )
    drawn = {"figures/s/p/drawn.svg": figures.Rendered(b"<svg/>", "drawn")}
    found = plugin("serve")._missing_figures(files, drawn)
    assert list(found) == ["figures/s/p/new.svg"]
    svg = ET.fromstring(found["figures/s/p/new.svg"].svg)
    text = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "No figure script figures/s/p/new.py yet." in text
    assert "docs/s/p.md embeds figures/s/p/new.svg" in text
    assert figures.svg_size(found["figures/s/p/new.svg"].svg)[0] == figure_placeholder.WIDTH
    assert "figures/s/p/new.py does not exist" in capsys.readouterr().err  # the terminal too
