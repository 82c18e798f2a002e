"""Explorable figures: every frame rendered and cached like a figure, alt text per frame that no
layout or style changes, and the markup a page gets."""

import html as html_module
import json
import re
import shutil
import textwrap
from html import unescape

import matplotlib
import pytest

from sitekit import PageError, explorables, figstyle, figures, render_frames

matplotlib.use("svg")


GOOD = '''
"""Softmax weights of five scores times a temperature."""
import numpy as np
from sitekit.figstyle import Frames, new_figure

import paperlens as pl

SEED = 0
FRAMES = Frames(label="Temperature", values=(1, 2, 4), default=2,
                texts=("T = 1", "T = 2", "T = 4"))


def make_frame(value, style, layout):
    weights = pl.softmax(np.arange(5.0) / value)
    fig, ax = new_figure(layout=layout)
    ax.bar(np.arange(weights.size), weights)
    largest = f"the largest {weights.max():.3f}"
    return pl.show(fig, f"Five softmax weights at temperature {value}, {largest}.")


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
'''


def write(tmp_path, source, name="temperature.py"):
    folder = tmp_path / "section" / "page"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return figures.Figure(path)


def test_every_frame_of_every_explorable_says_something_of_its_own(site):
    """Read from the session's build, which drew every frame in every style and layout and
    refused a frame whose alt text changed with them, or a default frame that make_figure does
    not draw (tests below show it refusing both): each frame's alt text differs from the
    others', and the figure the page shows without JavaScript is one of the frames."""
    scripts = explorables.discover()
    assert {f.script.stem for f in scripts} >= {"widening", "scaling", "angle", "precision"}
    for figure in scripts:
        folder = explorables.frames_folder(figure).removeprefix("frames/")
        page = folder.rsplit("/", 1)[0]
        ident = "explorable-" + re.sub(r"[^a-z0-9]+", "-", folder.lower()).strip("-")
        html = (site / page / "index.html").read_text(encoding="utf-8")
        assert html.count(f'id="{ident}"') == 1, f"{figure.name}: not on {page}/"
        block = html.split(f'id="{ident}"')[1].split("</figure>")[0]
        data = json.loads(html_module.unescape(block.split(' data-frames="')[1].split('"')[0]))
        alts = [frame["alt"] for frame in data["frames"]]
        assert len(set(alts)) == len(alts), f"{figure.name}: two frames with the same alt text"
        shown = re.search(r'<img alt="([^"]*)"', block).group(1)
        assert html_module.unescape(shown) in alts, figure.name


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """The explorable GOOD rendered once for the module: (figure, cache, what render_all gave,
    how many frames it rendered)."""
    tmp_path = tmp_path_factory.mktemp("explorable")
    fig = write(tmp_path, GOOD)
    cache = tmp_path / "cache"
    found, rendered = explorables.render_all([fig], cache_dir=cache)
    return fig, cache, found, rendered


def test_frames_render_once_then_come_from_the_cache(first):
    fig, cache, found, rendered = first
    assert rendered == 3
    (explorable,) = found.values()
    assert [f.text for f in explorable.frames] == ["T = 1", "T = 2", "T = 4"]
    assert explorable.default == 1 and explorable.control == "range"
    assert explorable.frames[0].alt.startswith("Five softmax weights at temperature 1,")
    layouts = [layout.name for layout in render_frames.LAYOUTS]
    styles = [style.name for style in render_frames.STYLES]
    assert len(explorable.svgs) == 3 * len(layouts) * len(styles)
    assert all(svg.startswith(b"<?xml") for svg in explorable.svgs.values())
    assert set(explorable.sizes) == set(layouts)
    assert explorable.sizes["wide"][0] > explorable.sizes["narrow"][0]
    again, rendered = explorables.render_all([fig], cache_dir=cache)
    assert rendered == 0 and again[fig.site_path].svgs == explorable.svgs


def test_an_edited_script_renders_its_frames_again(tmp_path):
    fig = write(tmp_path, GOOD)
    cache = tmp_path / "cache"
    assert explorables.render_all([fig], cache_dir=cache)[1] == 3
    fig.script.write_text(fig.script.read_text().replace("np.arange(5.0)", "np.arange(6.0)"))
    assert explorables.render_all([fig], cache_dir=cache)[1] == 3


def test_alt_text_that_depends_on_the_layout_is_refused(tmp_path):
    fig = write(
        tmp_path, GOOD.replace("temperature {value},", "temperature {value} {layout.name},")
    )
    with pytest.raises(PageError, match="must not depend on the style or layout"):
        explorables.render_all([fig], cache_dir=tmp_path / "cache")


def test_make_figure_must_draw_the_default_frame(tmp_path):
    fig = write(tmp_path, GOOD.replace("make_frame(FRAMES.default,", "make_frame(4,"))
    with pytest.raises(PageError, match="must draw the default frame"):
        explorables.render_all([fig], cache_dir=tmp_path / "cache")


def test_a_script_with_make_frame_but_no_frames_is_refused(tmp_path):
    fig = write(tmp_path, GOOD.replace("FRAMES = Frames(", "OTHER = Frames("))
    with pytest.raises(PageError, match=r"needs FRAMES = figstyle\.Frames"):
        explorables.render_all([fig], cache_dir=tmp_path / "cache")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"values": (1, 2), "default": 3}, "not one of"),
        ({"values": (1, 1), "default": 1}, "distinct"),
        ({"values": (1, 2), "default": 1, "texts": ("a",)}, "1 texts for 2 values"),
        ({"values": (1, 2), "default": 1, "control": "knob"}, "control must be"),
    ],
)
def test_frames_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        figstyle.Frames(label="x", **kwargs)


@pytest.fixture(scope="module")
def rendered(first):
    """The explorable as the site has it: the figure under figures/section/page/."""
    fig, _, found, _ = first
    return {"figures/section/page/temperature.svg": found[fig.site_path]}


def test_a_page_gets_the_control_and_the_frames(rendered):
    src = "../../figures/section/page/temperature.svg"
    html = f'<h2>x</h2><p><img alt="Five weights." src="{src}" /></p>'
    out = explorables.embed(html, "section/page/", rendered, where="docs/section/page.md")
    assert out.startswith('<h2>x</h2><figure class="explorable')
    assert '<div class="explorable__figure"><img alt="Five weights."' in out  # the default frame
    assert '<div class="explorable__control" hidden><label for=' in out
    assert 'min="0" max="2" step="1" value="1" aria-valuetext="T = 2"' in out
    assert out.endswith('<script src="../../assets/explorables.js" defer></script>')
    data = json.loads(unescape(out.split(' data-frames="')[1].split('"')[0]))
    assert [f["text"] for f in data["frames"]] == ["T = 1", "T = 2", "T = 4"]
    first = data["frames"][0]["src"]["light-narrow"]  # relative to the page
    assert first.startswith("../../frames/") and first.endswith("/temperature/0-light-narrow.svg")


def test_buttons_are_a_named_radio_group(rendered):
    (explorable,) = rendered.values()
    buttons = {
        "figures/section/page/temperature.svg": explorable.__class__(
            **{**explorable.__dict__, "control": "buttons"}
        )
    }
    html = '<p><img alt="w" src="../../figures/section/page/temperature.svg" /></p>'
    out = explorables.embed(html, "section/page/", buttons, where="docs/section/page.md")
    assert '<fieldset class="explorable__control" hidden><legend>Temperature</legend>' in out
    assert out.count('type="radio"') == 3 and out.count(" checked") == 1


def test_an_explorable_must_be_in_a_paragraph_of_its_own(rendered):
    html = '<p>See <img alt="w" src="../../figures/section/page/temperature.svg" /> here.</p>'
    with pytest.raises(PageError, match="in a paragraph of its own"):
        explorables.embed(html, "section/page/", rendered, where="docs/section/page.md")


def test_pages_without_explorables_are_left_alone(rendered):
    html = '<p><img alt="w" src="../../figures/section/page/other.svg" /></p>'
    assert explorables.embed(html, "section/page/", rendered, where="docs/x.md") == html


def test_two_workers_writing_one_explorable_both_succeed(first, tmp_path):
    """Every task of an explorable writes its frames.json, and here each frame is drawn twice,
    by both workers at once: each write goes through a temporary file of its own (a shared one
    made a cold build fail by chance)."""
    fig, _, found, _ = first
    folder = tmp_path / "cache" / "entry"
    target = "sitekit.render_frames:"
    with figures.Renderers(jobs=2) as renderers:
        manifest = (fig.name, target + "write_manifest", (fig.script, folder))
        counts, errors = renderers.run([manifest, manifest])
        frames = [
            (fig.name, target + "render_one", (fig.script, folder, i))
            for i in range(counts[0])
            for _ in range(2)
        ]
        assert errors == {} and renderers.run(frames)[1] == {}
    explorable = explorables.load(fig, folder)
    assert explorable is not None and len(explorable.frames) == 3
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []  # no temps
    assert found[fig.site_path].svgs == explorable.svgs  # as one renderer alone draws them


def test_a_damaged_frame_is_rendered_again(first, tmp_path, capfd):
    fig, cache, found, _ = first
    shutil.copytree(cache, tmp_path / "cache")
    (folder,) = (tmp_path / "cache").iterdir()
    frame = folder / "1-dark-narrow.svg"
    frame.write_bytes(frame.read_bytes()[:100])
    again, rendered = explorables.render_all([fig], cache_dir=tmp_path / "cache")
    assert rendered == 3 and again[fig.site_path].svgs == found[fig.site_path].svgs
    assert f"cache entry {frame} was damaged" in capfd.readouterr().err


@pytest.mark.parametrize(
    ("module", "reader", "message"),
    [
        (figures, "_cached", "the renderer left no complete figure"),
        (explorables, "load", "the frame renderers left no complete frames"),
    ],
)
def test_a_render_whose_entry_cannot_be_read_back_fails_the_build_and_is_shown_under_serve(
    tmp_path, monkeypatch, module, reader, message
):
    """The workers drew the figure (or the frames), but its cache entry cannot be read back
    (damaged as it was written): `make site` fails naming the script; under `make serve` it is
    a failed figure, shown by its placeholder as a failing script is, and the rebuild goes on.
    GOOD draws as a plain figure too (its make_figure)."""
    fig = write(tmp_path, GOOD)
    monkeypatch.setattr(module, reader, lambda *args: None)
    with figures.Renderers() as renderers:
        failed: dict[figures.Figure, str] = {}
        shown, _ = module.render_all(
            [fig], cache_dir=tmp_path / "cache", renderers=renderers, failed=failed
        )
        assert shown == {} and list(failed) == [fig] and failed[fig].endswith(message)
        with pytest.raises(PageError, match=message):
            module.render_all([fig], cache_dir=tmp_path / "cache", renderers=renderers)
