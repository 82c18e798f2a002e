"""Build-time figures: rendered in a fresh process, cached by content, byte-identical."""

import textwrap

import pytest

from sitekit import figures

GOOD = '''
"""A line."""
import numpy as np
from sitekit.figstyle import new_figure

import paperlens as pl

SEED = 0


def make_figure():
    fig, ax = new_figure()
    ax.plot(pl.softmax(np.arange(5.0)))
    return fig
'''


def write(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return figures.Figure(path)


def test_a_script_renders_to_svg_and_is_then_cached(tmp_path):
    fig = write(tmp_path, "line.py", GOOD)
    cache = tmp_path / "cache"
    svgs, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 1
    (svg,) = svgs.values()
    assert svg.startswith(b"<?xml") and b"<svg" in svg
    again, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 0 and again == svgs


def test_two_renders_are_byte_identical(tmp_path):
    fig = write(tmp_path, "line.py", GOOD)
    first, _ = figures.render_all([fig], cache_dir=tmp_path / "a")
    second, _ = figures.render_all([fig], cache_dir=tmp_path / "b")
    assert first == second
    assert b"<dc:date>" not in next(iter(first.values()))


def test_editing_a_script_renders_it_again(tmp_path):
    fig = write(tmp_path, "line.py", GOOD)
    cache = tmp_path / "cache"
    figures.render_all([fig], cache_dir=cache)
    fig.script.write_text(fig.script.read_text().replace("arange(5.0)", "arange(6.0)"))
    _, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 1


def test_a_failing_script_fails_with_its_name(tmp_path):
    bad = write(tmp_path, "broken.py", GOOD.replace("ax.plot(", "ax.plot(undefined_name, "))
    with pytest.raises(figures.FigureError) as err:
        figures.render_all([bad], cache_dir=tmp_path / "cache")
    assert "broken.py" in str(err.value)
    assert "undefined_name" in str(err.value)


def test_a_script_without_make_figure_is_refused(tmp_path):
    bad = write(tmp_path, "empty.py", '"""Nothing."""\n')
    with pytest.raises(figures.FigureError, match="make_figure"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


def test_every_figure_script_follows_the_conventions():
    scripts = figures.discover()
    assert scripts, "no figure scripts found"
    for fig in scripts:
        source = fig.script.read_text()
        assert source.lstrip().startswith('"""'), f"{fig.name}: needs a title docstring"
        assert "def make_figure(" in source, f"{fig.name}: needs make_figure()"
        assert "SEED" in source, f"{fig.name}: needs a fixed SEED"
        # The math comes from paperlens (and NumPy for coordinates), never another library.
        for forbidden in ("import scipy", "from scipy", "import torch"):
            assert forbidden not in source, f"{fig.name}: uses {forbidden}"


def test_a_section_helper_is_importable_and_part_of_the_cache_key(tmp_path):
    page = tmp_path / "section" / "page"
    page.mkdir(parents=True)
    helper = tmp_path / "section" / "_shared.py"
    helper.write_text("N = 5.0\n")
    fig = write(
        page,
        "line.py",
        GOOD.replace("np.arange(5.0)", "np.arange(N)").replace(
            "import paperlens as pl", "import paperlens as pl\nfrom _shared import N"
        ),
    )
    cache = tmp_path / "cache"
    _, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 1
    helper.write_text("N = 7.0\n")
    _, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 1  # the helper changed, so the figure is drawn again
