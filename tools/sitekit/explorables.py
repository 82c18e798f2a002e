"""Explorable figures: every frame rendered at build time, and a control on the page to pick one.

An explorable is a figure script with frames (the contract in `sitekit.figstyle`: ``FRAMES`` and
``make_frame(value, style, layout)``). A page embeds it like any figure, ``![](../figures/...)``
in a paragraph of its own; `sitekit.figures` renders its default frame as that figure, which is
what the page shows without JavaScript. Here every frame is rendered in every style and layout
(`sitekit.render_frames`, in the build's workers, cached by content under ``.cache/frames/`` with
the figure's own key) into ``frames/<section>/<page>/<name>/<i>-<style>-<layout>.svg``; and `embed`
wraps the figure's paragraph in a ``<figure class="explorable">`` with the control (hidden until
the script runs) and the frames' URLs, texts and alt texts as JSON (its ``data-frames``).
``assets/explorables.js`` turns the control on and swaps the image: no framework, nothing
fetched but the frames.
"""

from __future__ import annotations

import ast
import contextlib
import html
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from sitekit import PageError, cache, figstyle, figures
from sitekit.cache import PACKAGE_DIR, blas_config, hash_sitekit
from sitekit.paths import cache_root

RENDERER = PACKAGE_DIR / "render_frames.py"
SCRIPT = "assets/explorables.js"
# Below this width the page shows a figure's narrow layout (the one home: `figstyle`).
NARROW_MEDIA = figstyle.NARROW_MEDIA


@dataclass(frozen=True)
class Frame:
    text: str  # the value as the control announces it
    alt: str
    files: dict[str, str]  # "<style>-<layout>": path in the site


@dataclass(frozen=True)
class Explorable:
    figure: figures.Figure
    label: str
    control: str  # "range" or "buttons"
    default: int  # the index of the frame shown without JavaScript
    styles: list[str]
    layouts: list[str]
    frames: list[Frame]
    svgs: dict[str, bytes]  # every frame's SVG, by its path in the site
    sizes: dict[str, tuple[int, int]]  # each layout's (width, height) in CSS px


def is_explorable(figure: figures.Figure) -> bool:
    """Whether a figure script defines ``make_frame`` (read from its source, not imported); one
    that Python cannot parse is not (rendering its figure reports the error)."""
    try:
        body = figure.tree().body
    except PageError:
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == "make_frame" for n in body)


def discover(folder: Path = figures.FIGURES_DIR) -> list[figures.Figure]:
    """Every explorable figure script in ``folder``."""
    return [f for f in figures.discover(folder) if is_explorable(f)]


def frames_folder(figure: figures.Figure) -> str:
    """``frames/<section>/<page>/<name>``: where a figure's frames are in the site."""
    return "frames/" + figure.site_path.removeprefix("figures/").removesuffix(".svg")


PT = re.compile(rb'<svg[^>]*?\swidth="(?P<w>[\d.]+)pt"\s+height="(?P<h>[\d.]+)pt"')


def svg_size(svg: bytes) -> tuple[int, int]:
    """An SVG's intrinsic size in CSS px (matplotlib writes it in pt: 1 pt = 4/3 px)."""
    m = PT.search(svg[:2000])
    if m is None:
        raise PageError("a frame's SVG has no width and height in pt")
    return round(float(m.group("w")) * 4 / 3), round(float(m.group("h")) * 4 / 3)


def load(figure: figures.Figure, folder: Path) -> Explorable | None:
    """The explorable from its cache entry, the folder ``folder`` (every file read and verified,
    `sitekit.cache.read`: each damaged one is reported and dropped), or None when a file is
    missing or damaged."""
    meta = cache.read_json(folder / "frames.json")
    if not isinstance(meta, dict):
        return None
    site = frames_folder(figure)
    svgs: dict[str, bytes | None] = {}
    frames = []
    for i, text in enumerate(meta["texts"]):
        files = {}
        for style in meta["styles"]:
            for layout in meta["layouts"]:
                name = f"{i}-{style}-{layout}.svg"
                files[f"{style}-{layout}"] = f"{site}/{name}"
                svgs[f"{site}/{name}"] = cache.read(folder / name)
        alt = cache.read(folder / f"{i}.alt")
        frames.append(Frame(text, alt.decode("utf-8") if alt is not None else "", files))
        svgs[f"{i}.alt"] = alt
    if any(content is None for content in svgs.values()):
        return None
    found = {path: svg for path, svg in svgs.items() if svg is not None and path.endswith(".svg")}
    sizes = {
        layout: svg_size(found[frames[0].files[f"{meta['styles'][0]}-{layout}"]])
        for layout in meta["layouts"]
    }
    return Explorable(
        figure,
        meta["label"],
        meta["control"],
        meta["default"],
        meta["styles"],
        meta["layouts"],
        frames,
        found,
        sizes,
    )


def render_all(
    scripts: list[figures.Figure] | None = None,
    *,
    cache_dir: Path | None = None,
    renderers: figures.Renderers | None = None,
    failed: dict[figures.Figure, str] | None = None,
) -> tuple[dict[str, Explorable], int]:
    """Every explorable, by its figure's path in the site, and how many frames were rendered.

    A script's frames share one cache entry, keyed as `sitekit.figures` keys the figure (its
    source, helpers, inputs, the sitekit modules it imports, the library, versions and BLAS)
    and by the frame renderer; a stale script's frames are rendered by ``renderers`` (or two
    workers of its own), each frame a task. A failing script raises `PageError`, or with
    ``failed`` has its traceback put there, as `figures.render_all` does.
    """
    scripts = discover() if scripts is None else scripts
    cache_dir = cache_root() / "frames" if cache_dir is None else cache_dir
    shared = figures.shared_key() + hash_sitekit([RENDERER])
    blas = blas_config()
    folders = {f: cache_dir / figures.cache_key(f, shared, blas) for f in scripts}
    found = {f: load(f, folders[f]) for f in scripts}
    stale = [f for f in scripts if found[f] is None]
    with contextlib.nullcontext(renderers) if renderers else figures.Renderers() as pool:
        target = "sitekit.render_frames:"
        manifests = [(f.name, target + "write_manifest", (f.script, folders[f])) for f in stale]
        counts, errors = pool.run(manifests)
        tasks = [
            (f.name, target + "render_one", (f.script, folders[f], i))
            for f, count in zip(stale, counts, strict=True)
            for i in range(count or 0)
        ]
        errors |= pool.run(tasks, "frames of explorable figures")[1]
    if failed is None:
        figures.raise_errors(errors)
    loaded: dict[str, Explorable] = {}
    for f in scripts:
        error = errors.get(f.name)
        one = None if error else found[f] or load(f, folders[f])
        if one is None:  # failed, or an entry was damaged as it was written (a full disk)
            error = error or f"{f.name}: the frame renderers left no complete frames"
            if failed is None:
                raise PageError(error)
            failed[f] = error
            continue
        loaded[f.site_path] = one
    rendered = sum(len(loaded[f.site_path].frames) for f in stale if f.site_path in loaded)
    return loaded, rendered


IMG = re.compile(r"<img\b[^>]*>")
SRC = re.compile(r'\ssrc="(?P<src>[^"]*)"')


def _target(src: str, page_url: str) -> str | None:
    src = html.unescape(src)
    if urlsplit(src).scheme or src.startswith(("/", "data:")):
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(page_url + "x"), src))


def _relative(path: str, page_url: str) -> str:
    return posixpath.relpath(path, posixpath.dirname(page_url + "x") or ".")


def _slug(explorable: Explorable) -> str:
    """The figure's id on the page: ``explorable-walkthrough-step-3-random-scores-widening``."""
    path = frames_folder(explorable.figure).removeprefix("frames/")
    return "explorable-" + re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")


def _control(explorable: Explorable) -> str:
    ident = _slug(explorable)
    label = html.escape(explorable.label)
    frames = explorable.frames
    if explorable.control == "range":
        text = html.escape(frames[explorable.default].text)
        return (
            f'<div class="explorable__control" hidden><label for="{ident}-input">{label}</label>'
            f'<input type="range" id="{ident}-input" min="0" max="{len(frames) - 1}" step="1"'
            f' value="{explorable.default}" aria-valuetext="{text}">'
            f'<output for="{ident}-input" aria-hidden="true">{text}</output></div>'
        )
    buttons = "".join(
        f'<label class="explorable__button"><input type="radio" name="{ident}" value="{i}"'
        f"{' checked' if i == explorable.default else ''}>{html.escape(frame.text)}</label>"
        for i, frame in enumerate(frames)
    )
    return (
        f'<fieldset class="explorable__control" hidden><legend>{label}</legend>{buttons}</fieldset>'
    )


def _data(explorable: Explorable, page_url: str) -> str:
    data = {
        "styles": explorable.styles,
        "layouts": explorable.layouts,
        "narrow": NARROW_MEDIA,
        "sizes": explorable.sizes,
        "frames": [
            {
                "text": f.text,
                "alt": f.alt,
                "src": {k: _relative(v, page_url) for k, v in f.files.items()},
            }
            for f in explorable.frames
        ],
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("</", "<\\/")


def embed(html_text: str, page_url: str, explorables: dict[str, Explorable], *, where: str) -> str:
    """Wrap the paragraph of every explorable figure on a page with its control and frames.

    Raises:
        PageError: an explorable figure that is not in a paragraph of its own.
    """
    out: list[str] = []
    done = 0
    for m in IMG.finditer(html_text):
        src = SRC.search(m.group(0))
        target = _target(src.group("src"), page_url) if src else None
        if target not in explorables:
            continue
        start = html_text.rfind("<p>", done, m.start())
        end = html_text.find("</p>", m.end())
        inner = html_text[start + 3 : end] if start >= 0 and end >= 0 else ""
        if not inner or re.sub(r"<img\b[^>]*>|</?picture\b[^>]*>|<source\b[^>]*>|\s", "", inner):
            raise PageError(
                f"{where}: the explorable figure {target} must be in a paragraph of its own"
            )
        explorable = explorables[target]
        out.append(html_text[done:start])
        out.append(
            # The frames' data in an attribute, not a <script type="application/json">: Material's
            # instant navigation re-inserts every script of a page it swaps in as JavaScript.
            f'<figure class="explorable" id="{_slug(explorable)}"'
            f' data-frames="{html.escape(_data(explorable, page_url), quote=True)}">'
            f'<div class="explorable__figure">{inner}</div>{_control(explorable)}</figure>'
        )
        done = end + len("</p>")
    if not out:
        return html_text
    script = html.escape(_relative(SCRIPT, page_url))
    return "".join(out) + html_text[done:] + f'<script src="{script}" defer></script>'
