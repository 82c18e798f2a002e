"""Build-time figures: rendered in a fresh process, cached by content, byte-identical."""

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from sitekit import PageError, cache, explorables, figstyle, figures

GOOD = '''
"""A line."""
import numpy as np
from sitekit.figstyle import new_figure

import paperlens as pl

SEED = 0


def make_figure(style, layout):
    weights = pl.softmax(np.arange(5.0))
    fig, ax = new_figure(layout=layout)
    ax.plot(weights)
    return pl.show(fig, f"Five softmax weights rising to {weights.max():.3f}.")
'''


def write(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return figures.Figure(path)


@pytest.fixture(scope="module")
def rendered_once(tmp_path_factory):
    """``GOOD`` as ``figures/line.py``, rendered once into a cache for the module: each render
    is a fresh process that imports Matplotlib (seconds), so the tests that need a first render
    start from a copy of this one (`copy_of`). The script is named relative to its ``figures``
    folder, so a copy has the same cache key as the original."""
    root = tmp_path_factory.mktemp("rendered")
    (root / "figures").mkdir()
    fig = write(root / "figures", "line.py", GOOD)
    fig = figures.Figure(fig.script, root / "figures")
    svgs, count = figures.render_all([fig], cache_dir=root / "cache")
    return root, svgs, count


def copy_of(rendered_once, tmp_path):
    """A copy of the module's first render in ``tmp_path``: the figure and its cache folder."""
    root, _, _ = rendered_once
    for part in ("figures", "cache"):
        shutil.copytree(root / part, tmp_path / part)
    folder = tmp_path / "figures"
    return figures.Figure(folder / "line.py", folder), tmp_path / "cache"


def test_a_script_renders_to_svg_and_is_then_cached(rendered_once, tmp_path):
    _, svgs, rendered = rendered_once
    assert rendered == 1
    (figure,) = svgs.values()
    assert figure.svg.startswith(b"<?xml") and b"<svg" in figure.svg
    assert figure.alt == "Five softmax weights rising to 0.636."
    fig, cache = copy_of(rendered_once, tmp_path)
    again, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 0 and again == svgs


@pytest.mark.parametrize("part", [".alt", ".dark.narrow.svg", ".wide.links.json"])
def test_a_damaged_figure_is_rendered_again_never_published(rendered_once, tmp_path, capfd, part):
    fig, cache = copy_of(rendered_once, tmp_path)
    (entry,) = cache.glob(f"*{part}")
    entry.write_bytes(entry.read_bytes()[:40])  # truncated, as a full disk leaves it
    again, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 1 and again == rendered_once[1]
    assert capfd.readouterr().err.count("was damaged: dropped") == 1


def test_two_renders_are_byte_identical(rendered_once, tmp_path):
    fig, _ = copy_of(rendered_once, tmp_path)
    second, rendered = figures.render_all([fig], cache_dir=tmp_path / "empty")
    assert rendered == 1 and second == rendered_once[1]
    assert b"<dc:date>" not in next(iter(second.values())).svg


def test_editing_a_script_renders_it_again(rendered_once, tmp_path):
    fig, cache = copy_of(rendered_once, tmp_path)
    fig.script.write_text(fig.script.read_text().replace("arange(5.0)", "arange(6.0)"))
    _, rendered = figures.render_all([fig], cache_dir=cache)
    assert rendered == 1


def test_a_failing_script_fails_with_its_name(tmp_path):
    bad = write(tmp_path, "broken.py", GOOD.replace("ax.plot(", "ax.plot(undefined_name, "))
    with pytest.raises(PageError) as err:
        figures.render_all([bad], cache_dir=tmp_path / "cache")
    assert "broken.py" in str(err.value)
    assert "undefined_name" in str(err.value)


def test_a_script_without_make_figure_is_refused(tmp_path):
    bad = write(tmp_path, "empty.py", '"""Nothing."""\n')
    with pytest.raises(PageError, match="make_figure"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


def test_every_figure_script_follows_the_conventions():
    scripts = figures.discover()
    assert scripts, "no figure scripts found"
    for fig in scripts:
        source = fig.script.read_text()
        assert source.lstrip().startswith('"""'), f"{fig.name}: needs a title docstring"
        assert "def make_figure(style, layout)" in source, f"{fig.name}: needs make_figure()"
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


def test_the_alt_text_follows_the_data(tmp_path):
    fig = write(tmp_path, "line.py", GOOD)
    (before,) = figures.render_all([fig], cache_dir=tmp_path / "cache")[0].values()
    fig.script.write_text(fig.script.read_text().replace("arange(5.0)", "arange(5.0) * 2"))
    (after,) = figures.render_all([fig], cache_dir=tmp_path / "cache")[0].values()
    assert before.alt != after.alt and after.alt == "Five softmax weights rising to 0.865."


def test_a_script_returning_a_bare_figure_is_refused(tmp_path):
    bare = GOOD.replace(
        'return pl.show(fig, f"Five softmax weights rising to {weights.max():.3f}.")', "return fig"
    )
    bad = write(tmp_path, "bare.py", bare)
    with pytest.raises(PageError, match="alt text computed from its data"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


RENDERED = {"figures/a/b/c.svg": figures.Rendered(b"<svg/>", 'Bars "high" & low.')}


def test_the_build_fills_in_the_computed_alt_text():
    html = '<p><img alt="" src="../../figures/a/b/c.svg" /></p>'
    out = figures.fill_alt(html, "a/page/", RENDERED, where="docs/a/page.md")
    assert (
        out == '<p><img alt="Bars &quot;high&quot; &amp; low." src="../../figures/a/b/c.svg" /></p>'
    )


def test_alt_text_typed_in_a_page_is_refused_with_the_page_and_figure():
    html = '<img alt="typed by hand" src="../figures/a/b/c.svg" />'
    with pytest.raises(PageError, match=r"docs/a\.md: figure figures/a/b/c\.svg"):
        figures.fill_alt(html, "a/", RENDERED, where="docs/a.md")


def test_an_image_under_figures_without_a_script_is_refused():
    html = '<img alt="" src="../figures/a/b/missing.svg" />'
    with pytest.raises(PageError, match="no script draws it"):
        figures.fill_alt(html, "a/", RENDERED, where="docs/a.md")


def test_other_images_are_left_alone():
    html = (
        '<img alt="logo" src="../assets/logo.svg" /><img alt="x" src="data:image/png;base64,AA" />'
    )
    assert figures.fill_alt(html, "a/", RENDERED, where="docs/a.md") == html


def test_alt_text_that_depends_on_the_layout_is_refused(tmp_path):
    source = GOOD.replace('rising to {weights.max():.3f}."', 'drawn {layout.name}."')
    bad = write(tmp_path, "layout.py", source)
    with pytest.raises(PageError, match="must not depend on the style or the layout"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


def test_alt_text_that_depends_on_the_style_is_refused(tmp_path):
    source = GOOD.replace('rising to {weights.max():.3f}."', 'in {style.name}."')
    bad = write(tmp_path, "style.py", source)
    with pytest.raises(PageError, match="must not depend on the style or the layout"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


def test_every_style_and_layout_is_rendered_from_one_script(tmp_path):
    fig = write(tmp_path, "line.py", GOOD)
    (figure,) = figures.render_all([fig], cache_dir=tmp_path / "cache")[0].values()
    files = figure.files("figures/a/line.svg")
    assert sorted(files) == [
        "figures/a/line.dark.svg",
        "figures/a/line.narrow.dark.svg",
        "figures/a/line.narrow.svg",
        "figures/a/line.svg",
    ]
    assert files["figures/a/line.svg"] == figure.svg
    assert len(set(files.values())) == 4  # four different drawings
    light, dark = files["figures/a/line.svg"], files["figures/a/line.dark.svg"]
    assert figstyle.LIGHT.background.encode() in light and figstyle.DARK.background.encode() in dark
    wide, narrow = (
        figures.svg_size(files[p]) for p in ("figures/a/line.svg", "figures/a/line.narrow.svg")
    )
    assert wide[0] == round(figstyle.WIDE.width * 96) and narrow[0] == round(
        figstyle.NARROW.width * 96
    )


def test_text_too_small_to_read_on_a_phone_is_refused(tmp_path):
    source = GOOD.replace(
        "ax.plot(weights)", "ax.plot(weights)\n    ax.set_title('tiny', fontsize=6)"
    )
    bad = write(tmp_path, "tiny.py", source)
    with pytest.raises(PageError, match="'tiny' is 6 pt, less than 7.5 pt"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


def test_text_typed_in_a_light_colour_is_refused_in_the_dark_style(tmp_path):
    source = GOOD.replace(
        "ax.plot(weights)", "ax.plot(weights)\n    ax.set_title('ink', color='#111111')"
    )
    bad = write(tmp_path, "ink.py", source)
    with pytest.raises(PageError, match=r"'ink' in #111111 on #1e2029: .*dark style"):
        figures.render_all([bad], cache_dir=tmp_path / "cache")


@pytest.mark.parametrize("style", figstyle.STYLES, ids=lambda s: s.name)
def test_each_style_keeps_its_contrast(style):
    """Text colours 4.5:1 on the background; data colours 3:1 in the dark style (WCAG 1.4.11;
    the light style keeps the Okabe–Ito colours, whose orange and sky are lighter)."""
    for role in ("foreground", "muted", "edge"):
        assert figstyle.contrast(getattr(style, role), style.background) >= 4.5, role
    if style is figstyle.DARK:
        for role in ("blue", "vermilion", "green", "orange", "purple", "sky", "yellow"):
            assert figstyle.contrast(getattr(style, role), style.background) >= 3.0, role
    for colour in style.cycle:
        assert figstyle.contrast(style.text(colour), style.background) >= 4.5
    # A colormap's ends stand out from the background, its centre (diverging) or low end
    # (sequential) is close to it, in both styles: large values are strong, never pale.
    for cmap in (style.diverging, style.sequential):
        assert figstyle.contrast(cmap(1.0), style.background) >= 3.0
    assert figstyle.contrast(style.diverging(0.0), style.background) >= 3.0
    assert figstyle.contrast(style.diverging(0.5), style.background) < 1.3
    assert figstyle.contrast(style.sequential(0.0), style.background) < 1.3
    for x in (0.0, 0.3, 0.6, 1.0):
        cell = style.diverging(x)
        assert figstyle.contrast(style.ink_on(cell), cell) >= 4.5


def test_a_figure_is_shown_as_one_picture_per_style_with_its_layouts():
    rendered = figures.Rendered(
        b'<svg width="504pt" height="216pt">',
        "Bars.",
        {
            "light.wide": b'<svg width="504pt" height="216pt">',
            "light.narrow": b'<svg width="280.8pt" height="288pt">',
            "dark.wide": b'<svg width="504pt" height="216pt">',
            "dark.narrow": b'<svg width="280.8pt" height="288pt">',
        },
    )
    html = '<p><img alt="" src="../figures/a/b.svg" /></p>'
    out = figures.embed(html, "a/", {"figures/a/b.svg": rendered}, where="docs/a.md")
    assert out.count("<picture") == 2 and out.count('alt="Bars."') == 2
    assert (
        'class="pl-figure pl-figure--light"' in out and 'class="pl-figure pl-figure--dark"' in out
    )
    assert f'<source media="{figures.NARROW_MEDIA}" srcset="../figures/a/b.narrow.svg"' in out
    assert 'srcset="../figures/a/b.narrow.dark.svg" width="374" height="384"' in out
    assert 'src="../figures/a/b.dark.svg" width="672" height="288" loading="lazy"' in out
    assert "filter" not in out


def test_linked_boxes_get_links_laid_over_them():
    box = {"url": "foundations/softmax/", "name": "Softmax", "left": 0.1, "top": 0.2,
           "width": 0.3, "height": 0.05}  # fmt: skip
    rendered = figures.Rendered(
        b'<svg width="504pt" height="216pt">', "A map.", None, {"wide": [box], "narrow": [box]}
    )
    out = figures.picture("../figures/m.svg", "A map.", rendered, "foundations/map/")
    assert out.count('href="../softmax/"') == 4  # two layouts, two styles
    assert 'aria-label="Softmax"' in out
    assert "left:10.000%;top:20.000%;width:30.000%;height:5.000%" in out


def test_the_prerequisite_map_links_every_box_to_its_page():
    from sitekit import render

    script = figures.FIGURES_DIR / "foundations" / "prerequisite-map" / "map.py"
    module = render.load(script)
    for layout in figstyle.LAYOUTS:
        fig = render.draw(module, figstyle.LIGHT, layout).fig
        fig.canvas.draw()
        links = render.links(fig)
        urls = {link["url"] for link in links}
        assert "foundations/softmax/" in urls and "foundations/target-equations/" in urls
        for link in links:
            assert 0 <= link["left"] and link["left"] + link["width"] <= 1.001, link
            assert 0 <= link["top"] and link["top"] + link["height"] <= 1.001, link
            assert (figures.ROOT / "docs" / (link["url"].rstrip("/") + ".md")).is_file(), link


def test_the_key_covers_the_sitekit_modules_a_script_imports():
    """Read from the script's imports, directly and through other sitekit modules."""
    script = figures.FIGURES_DIR / "foundations" / "prerequisite-map" / "map.py"
    fig = figures.Figure(script)
    names = {p.name for p in cache.sitekit_sources([fig.script, *fig.helper_paths()])}
    # map.py imports sitekit.concepts, which imports sitekit.frontmatter
    assert {"__init__.py", "concepts.py", "figstyle.py", "frontmatter.py"} <= names
    assert "cards.py" not in names


def test_editing_a_sitekit_module_a_script_imports_renders_it_again(tmp_path, monkeypatch):
    """On a copy of the package, so the checkout's sitekit is never touched."""
    package = tmp_path / "sitekit"
    shutil.copytree(figures.PACKAGE_DIR, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr("sitekit.cache.PACKAGE_DIR", package)
    monkeypatch.setattr(figures, "RENDERER", package / "render.py")
    fig = write(
        tmp_path,
        "line.py",
        GOOD.replace("import paperlens as pl", "import paperlens as pl\nimport sitekit.concepts"),
    )
    cache = tmp_path / "cache"
    assert figures.render_all([fig], cache_dir=cache)[1] == 1
    (package / "cards.py").write_text((package / "cards.py").read_text() + "\n# edited\n")
    assert figures.render_all([fig], cache_dir=cache)[1] == 0  # not imported: still cached
    edited = package / "frontmatter.py"  # imported through sitekit.concepts
    edited.write_text(edited.read_text() + "\n# edited\n")
    assert figures.render_all([fig], cache_dir=cache)[1] == 1


def test_the_narrow_breakpoint_has_one_home():
    """Figures, explorables and notebook figures take it from figstyle; the stylesheet that
    shows each layout's links says the same (between 601 and 640 px an explorable once changed
    layout when its script ran)."""
    from sitekit import explorables, notebook_figures

    assert figures.NARROW_MEDIA == explorables.NARROW_MEDIA == figstyle.NARROW_MEDIA
    assert "max-width: 6" not in Path(notebook_figures.__file__).read_text()
    css = (figures.ROOT / "docs" / "assets" / "paperlens.css").read_text()
    queries = set(re.findall(r"@media\s*(\([^)]*width[^)]*\))", css))
    assert queries == {figstyle.NARROW_MEDIA}


def test_a_script_python_cannot_parse_is_named_with_its_line(tmp_path):
    script = tmp_path / "figures" / "a" / "b" / "c.py"
    script.parent.mkdir(parents=True)
    script.write_text("def make_figure(style, layout)\n    pass\n")
    figure = figures.Figure(script, tmp_path / "figures")
    with pytest.raises(PageError, match=r"figure script .*c\.py, line 1: expected ':'"):
        figures.render_all([figure], cache_dir=tmp_path / "cache")
    assert not explorables.is_explorable(figure)  # its figure's render says why


def test_renderers_return_results_in_order_errors_by_script_and_say_how_far_they_got(caplog):
    tasks = [(f"s{i}.py", "math:sqrt", (float(i),)) for i in range(8)]
    tasks[5] = ("bad.py", "math:sqrt", (-1.0,))
    with caplog.at_level("INFO", logger="mkdocs.plugins.paperlens"), figures.Renderers() as pool:
        results, errors = pool.run(tasks, "things")
    assert results == [i**0.5 for i in range(5)] + [None, 6**0.5, 7**0.5]
    assert list(errors) == ["bad.py"] and "ValueError: math domain error" in errors["bad.py"]
    said = [r.getMessage() for r in caplog.records]
    assert said[0] == "paperlens: drawing 8 things (not in the cache)"
    assert said[1:] == [f"paperlens: {n} of 8 things drawn" for n in (2, 4, 6)]
