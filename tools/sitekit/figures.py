"""Build-time figures: one script per figure under ``figures/``, rendered to SVG.

A script ``figures/<section>/<page>/<name>.py`` becomes ``figures/<section>/<page>/<name>.svg``
in the site, drawn in the light style and wide layout, and one SVG for each other style and
layout (`variant_path`: ``<name>.dark.svg``, ``<name>.narrow.svg``, ``<name>.narrow.dark.svg``).
Each script has a title docstring, a fixed seed and a ``make_figure(style, layout)`` that
returns the figure and its alt text (the contract in `sitekit.figstyle`); a page embeds it as
``![](../figures/<page>/<name>.svg)``, with the brackets left empty, and the build fills in the
alt text and shows the variant that fits the reader's palette and screen (`embed`). A script may
list extra inputs in a module-level ``DEPENDS_ON`` (globs relative to the repository root).
Rendered SVGs are cached under ``.cache/figures/`` by a hash of everything that can change them,
so an unchanged figure is never rendered twice. Helpers shared by a section's figures live in
``figures/<section>/_name.py``; scripts import them as ``from _name import ...`` and a change to
them re-renders the section's figures. So does a change to any ``sitekit`` module a script or
its helpers import, directly or through another ``sitekit`` module: the key reads those imports
from the source (`sitekit.cache.sitekit_sources`).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import html
import importlib
import logging
import multiprocessing
import posixpath
import re
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sitekit import PageError, cache, figstyle, lifecycle
from sitekit.cache import LIBRARY, PACKAGE_DIR, blas_config, hash_files, hash_sitekit
from sitekit.paths import ROOT, cache_root

log = logging.getLogger("mkdocs.plugins.paperlens")
FIGURES_DIR = ROOT / "figures"
# Inputs shared by every figure: the library (`sitekit.cache.LIBRARY`, its data included), and
# the renderer that runs every script (with the sitekit modules it imports, figstyle among them;
# see `sitekit.cache.sitekit_sources`).
RENDERER = PACKAGE_DIR / "render.py"


def variant_name(style: figstyle.Style, layout: figstyle.Layout) -> str:
    """``light.wide``: how a render's style and layout are named in the cache."""
    return f"{style.name}.{layout.name}"


def variant_path(site_path: str, style: figstyle.Style, layout: figstyle.Layout) -> str:
    """Where one style and layout of the figure at ``site_path`` goes in the site: the light,
    wide one at ``site_path`` itself, the others beside it (``x.narrow.dark.svg``)."""
    stem = site_path.removesuffix(".svg")
    parts = [layout.name] if layout != figstyle.WIDE else []
    parts += [style.name] if style != figstyle.LIGHT else []
    return ".".join([stem, *parts, "svg"])


@dataclass(frozen=True)
class Rendered:
    """A rendered figure: its SVG in the light style and wide layout, the alt text its script
    computed from the data, and the SVG of every style and layout by `variant_name` (empty for
    a figure given by hand, as in tests: then every variant is ``svg``)."""

    svg: bytes
    alt: str
    variants: dict[str, bytes] | None = None
    # Per layout name, the links to lay over the figure (sitekit.render.links).
    links: dict[str, list[dict[str, object]]] | None = None

    def variant(self, style: figstyle.Style, layout: figstyle.Layout) -> bytes:
        if not self.variants:
            return self.svg
        return self.variants[variant_name(style, layout)]

    def files(self, site_path: str) -> dict[str, bytes]:
        """Every variant's SVG, by its path in the site."""
        return {
            variant_path(site_path, style, layout): self.variant(style, layout)
            for style in figstyle.STYLES
            for layout in figstyle.LAYOUTS
        }


@dataclass(frozen=True)
class Figure:
    script: Path  # absolute path of the script
    folder: Path = FIGURES_DIR  # the folder of all figure scripts (the plugin's `figures`)

    @property
    def name(self) -> str:
        """The script's path as the build reports it: relative to the repository, or for a
        figures folder elsewhere (a test's copy) relative to that folder's parent, so that a
        copy of ``figures/`` names, and caches, its scripts as the original does."""
        if self.script.is_relative_to(ROOT):
            return self.script.relative_to(ROOT).as_posix()
        if self.script.is_relative_to(self.folder):
            return self.script.relative_to(self.folder.parent).as_posix()
        return self.script.as_posix()

    @property
    def site_path(self) -> str:
        if not self.script.is_relative_to(self.folder):
            return f"figures/{self.script.stem}.svg"
        return "figures/" + self.script.relative_to(self.folder).with_suffix(".svg").as_posix()

    def helper_paths(self) -> list[Path]:
        """The section's shared helpers, ``figures/<section>/_*.py``."""
        return sorted(self.script.resolve().parent.parent.glob("_*.py"))

    def helpers(self) -> str:
        """The source of the section's shared helpers."""
        return "".join(path.read_text() for path in self.helper_paths())

    def tree(self) -> ast.Module:
        """The script's syntax tree, read without running it."""
        try:
            return ast.parse(self.script.read_text(), filename=str(self.script))
        except SyntaxError as err:
            raise PageError(f"figure script {self.name}, line {err.lineno}: {err.msg}") from None

    def depends_on(self) -> list[str]:
        for node in self.tree().body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "DEPENDS_ON" for t in node.targets
            ):
                try:
                    return [str(v) for v in ast.literal_eval(node.value)]
                except ValueError:
                    raise PageError(
                        f"figure script {self.name}: DEPENDS_ON must be a list of paths written"
                        ' out, such as ["src/paperlens/softmax.py"]'
                    ) from None
        return []


def discover(folder: Path = FIGURES_DIR) -> list[Figure]:
    """Every figure script in ``folder``, sorted; files and folders starting with ``_`` are
    helpers."""
    folder = folder.resolve()
    scripts = [
        p
        for p in folder.rglob("*.py")
        if not any(part.startswith("_") for part in p.relative_to(folder).parts)
    ]
    return [Figure(p, folder) for p in sorted(scripts)]


def library_key() -> str:
    """A hash of the library's files, ``src/paperlens``: its code and its data."""
    return hash_files(LIBRARY)


def shared_key() -> str:
    """The part of every figure's key that no script chooses: the library and the renderer."""
    return hash_files(LIBRARY) + hash_sitekit([RENDERER])


def cache_key(figure: Figure, shared: str, blas: str = "") -> str:
    digest = hashlib.sha256()
    for part in (
        shared,
        figure.name,
        figure.script.read_text(),
        hash_files(figure.depends_on()),
        figure.helpers(),
        # The sitekit modules the script and its helpers import (and those they import).
        hash_sitekit([figure.script, *figure.helper_paths()]),
        # The versions, read from the installed metadata: importing matplotlib costs 0.3 s.
        cache.version("matplotlib"),
        cache.version("numpy"),
        blas,
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


class Renderers(ProcessPoolExecutor):
    """Worker processes that run figure scripts, one task per script (or per explorable's frame),
    taken by whichever worker is free, so that they finish together. Each is spawned when
    first needed, a fresh interpreter that imports the library as it is now, so an edit to
    ``paperlens`` is always seen. They die with the build, and a stop during the renders
    (Ctrl-C, kill) ends them at once."""

    def __init__(self, jobs: int = 2) -> None:
        spawn = multiprocessing.get_context("spawn")
        super().__init__(jobs, mp_context=spawn, initializer=lifecycle.worker_started)

    def run(
        self, tasks: list[tuple[str, str, tuple[Any, ...]]], what: str = ""
    ) -> tuple[list[Any], dict[str, str]]:
        """Run each task ``(script, "module:function", args)`` (named: this process need not
        import what draws); return what each returned, in order (None for one that raised),
        and the traceback of each script that raised. With ``what`` ("figures"), the build's
        output says how many there are to draw, and how far it has got at each quarter."""
        try:
            done = [self.submit(_attempt, target, *args) for _, target, args in tasks]
            if what and done:
                log.info("paperlens: drawing %d %s (not in the cache)", len(done), what)
            quarter = max(1, len(done) // 4)
            for count, _ in enumerate(as_completed(done), 1):
                if what and count % quarter == 0 and count < len(done):
                    log.info("paperlens: %d of %d %s drawn", count, len(done), what)
            results = [future.result() for future in done]
        except BaseException:  # a stop, or a worker that died
            for process in list(self._processes.values()):  # no public kill before 3.14
                process.kill()
            self.shutdown(wait=False, cancel_futures=True)
            raise
        errors: dict[str, str] = {}
        for (name, _, _), (_, error) in zip(tasks, results, strict=True):
            if error:
                errors.setdefault(name, error)
        return [result for result, _ in results], errors


def raise_errors(errors: dict[str, str]) -> None:
    """Raise `PageError` naming every script that failed, with its traceback."""
    if errors:
        lines = [f"figure script {name} failed:\n{error}" for name, error in errors.items()]
        raise PageError("\n".join(lines))


def _attempt(target: str, *args: Any) -> tuple[Any, str | None]:
    """In a worker: ``module:function`` called with ``args``, or the traceback it raised."""
    module, _, name = target.partition(":")
    try:
        return getattr(importlib.import_module(module), name)(*args), None
    except Exception:
        return None, traceback.format_exc()


def render_all(
    figures: list[Figure] | None = None,
    *,
    cache_dir: Path | None = None,
    renderers: Renderers | None = None,
    failed: dict[Figure, str] | None = None,
) -> tuple[dict[str, Rendered], int]:
    """Return ``{site_path: Rendered}`` for every figure and how many were rendered afresh.

    A figure is read from its cache entry (every file verified, `sitekit.cache.read`); a
    missing or damaged one is rendered by ``renderers`` (or by two workers of its own). A
    script that fails raises `PageError`, naming every failed script with its traceback; or,
    given ``failed``, each failed figure's traceback is put in it and the others are returned.
    """
    figures = discover() if figures is None else figures
    cache_dir = cache_root() / "figures" if cache_dir is None else cache_dir
    shared = shared_key()
    blas = blas_config()
    keys, unreadable = {}, {}
    for f in figures:
        try:
            keys[f] = cache_key(f, shared, blas)
        except PageError as err:  # a script Python cannot parse
            unreadable[f.name] = str(err)
    found = {f: _cached(cache_dir / key) for f, key in keys.items()}
    stale = [f for f in keys if found[f] is None]
    cache_dir.mkdir(parents=True, exist_ok=True)
    tasks = [
        (f.name, "sitekit.render:render", (f.script, cache_dir / f"{keys[f]}.svg", True))
        for f in stale
    ]
    with contextlib.nullcontext(renderers) if renderers else Renderers() as pool:
        errors = unreadable | pool.run(tasks, "figures")[1]
    if failed is None:
        raise_errors(errors)
    rendered = {}
    for f in figures:
        error = errors.get(f.name)
        one = None if error else found[f] or _cached(cache_dir / keys[f])
        if one is None:  # failed, or its entry was damaged as it was written (a full disk)
            error = error or f"figure script {f.name}: the renderer left no complete figure"
            if failed is None:
                raise PageError(error)
            failed[f] = error
            continue
        rendered[f.site_path] = one
    return rendered, len(stale)


def _cached(entry: Path) -> Rendered | None:
    """The figure whose files start with ``entry`` (the cache's key), if every one of them is
    there and intact (`sitekit.render` writes them: ``<key>.<style>.<layout>.svg``, ``<key>.alt``
    and ``<key>.<layout>.links.json``)."""
    variants = {
        variant_name(s, lay): cache.read(
            entry.with_name(f"{entry.name}.{variant_name(s, lay)}.svg")
        )
        for s, lay in _VARIANTS
    }
    alt = cache.read(entry.with_name(f"{entry.name}.alt"))
    links = {
        lay.name: cache.read_json(entry.with_name(f"{entry.name}.{lay.name}.links.json"))
        for lay in figstyle.LAYOUTS
    }
    complete = {k: v for k, v in variants.items() if v is not None}
    if alt is None or len(complete) < len(variants) or any(v is None for v in links.values()):
        return None
    light_wide = complete[variant_name(figstyle.LIGHT, figstyle.WIDE)]
    return Rendered(light_wide, alt.decode("utf-8"), complete, links)


_VARIANTS = [(s, lay) for s in figstyle.STYLES for lay in figstyle.LAYOUTS]


IMG = re.compile(r"<img\b[^>]*>")
ATTR = re.compile(r'\s(?P<name>[a-z-]+)="(?P<value>[^"]*)"')


def fill_alt(html_text: str, page_url: str, rendered: dict[str, Rendered], *, where: str) -> str:
    """Give every build figure on a page the alt text its script computed.

    A page embeds a figure as ``![](../figures/...svg)``: alt text typed there would be a
    second copy of what the script computes, free to drift from the data, so it is an error.

    Args:
        html_text: the page's HTML.
        page_url: the page's URL in the site (``foundations/softmax/``), which ``src`` is
            relative to.
        rendered: every figure, by its path in the site.
        where: the page's source, for error messages.

    Raises:
        PageError: a figure with typed alt text, or an image under ``figures/`` that no
            script draws.
    """

    def one(m: re.Match[str]) -> str:
        tag = m.group(0)
        attrs = {a.group("name"): html.unescape(a.group("value")) for a in ATTR.finditer(tag)}
        src = attrs.get("src", "")
        if urlsplit(src).scheme or src.startswith(("/", "data:")):
            return tag
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page_url + "x"), src))
        if not target.startswith("figures/"):
            return tag
        if target not in rendered:
            raise PageError(f"{where}: image {src} is under figures/ but no script draws it")
        if attrs.get("alt"):
            raise PageError(
                f"{where}: figure {target} has alt text typed in the page; leave the brackets "
                "empty, ![](...), and let its script compute it (see sitekit.figstyle)"
            )
        alt = html.escape(rendered[target].alt, quote=True)
        if "alt=" in tag:
            return re.sub(r'\salt="[^"]*"', f' alt="{alt}"', tag, count=1)
        return tag.replace("<img", f'<img alt="{alt}"', 1)

    return IMG.sub(one, html_text)


NARROW_MEDIA = figstyle.NARROW_MEDIA
_SIZE = re.compile(rb'<svg\b[^>]*?\swidth="(?P<w>[\d.]+)pt"\s+height="(?P<h>[\d.]+)pt"')


def svg_size(svg: bytes) -> tuple[int, int]:
    """The width and height an SVG is designed for, in CSS pixels (matplotlib writes points)."""
    m = _SIZE.search(svg[:2000])
    if m is None:
        raise PageError("an SVG without width and height in points")
    return round(float(m.group("w")) * 4 / 3), round(float(m.group("h")) * 4 / 3)


def overlay(figure: Rendered, page_url: str) -> str:
    """Links laid over a figure's linked boxes, one set per layout (paperlens.css shows the set
    of the layout on screen); each is named by its page's URL as a screen reader reads it."""
    sets = []
    for layout in figstyle.LAYOUTS:
        anchors = []
        for link in (figure.links or {}).get(layout.name, []):
            url = str(link["url"])
            href = posixpath.relpath(url, page_url or ".") + "/"
            style = ";".join(f"{k}:{100 * float(str(link[k])):.3f}%" for k in _BOX)
            name = link.get("name") or url
            anchors.append(
                f'<a class="pl-figure__link" href="{html.escape(href)}" style="{style}"'
                f' aria-label="{html.escape(str(name))}"></a>'
            )
        if anchors:
            sets.append(f'<span class="pl-figure__links pl-figure__links--{layout.name}">')
            sets.append("".join(anchors) + "</span>")
    return "".join(sets)


_BOX = ("left", "top", "width", "height")


def picture(src: str, alt: str, figure: Rendered, page_url: str = "") -> str:
    """The markup of one figure: a ``<picture>`` for each style, each choosing its layout by
    the screen's width; the page's palette shows one of them (docs/assets/paperlens.css).

    ``src`` is the light, wide SVG's URL as the page wrote it; the others are beside it. Each
    ``<img>`` and ``<source>`` keeps the SVG's intrinsic size, and all carry the same alt text;
    the hidden one is never loaded (``loading="lazy"`` and ``display: none``).
    """
    out = []
    for style in figstyle.STYLES:
        wide, narrow = (variant_path(src, style, lay) for lay in (figstyle.WIDE, figstyle.NARROW))
        try:
            ww, wh = svg_size(figure.variant(style, figstyle.WIDE))
            nw, nh = svg_size(figure.variant(style, figstyle.NARROW))
        except PageError as err:
            raise PageError(f"figure {src}: {err}") from None
        pic = (
            f'<picture class="pl-figure pl-figure--{style.name}">'
            f'<source media="{NARROW_MEDIA}" srcset="{html.escape(narrow)}"'
            f' width="{nw}" height="{nh}" />'
            f'<img alt="{html.escape(alt, quote=True)}" src="{html.escape(wide)}"'
            f' width="{ww}" height="{wh}" loading="lazy" decoding="async" /></picture>'
        )
        links = overlay(figure, page_url)
        if links:
            pic = (
                f'<span class="pl-figure pl-figure--{style.name} pl-figure--linked">'
                f"{pic.replace(f'pl-figure pl-figure--{style.name}', 'pl-figure__picture')}"
                f"{links}</span>"
            )
        out.append(pic)
    return "".join(out)


def embed(html_text: str, page_url: str, rendered: dict[str, Rendered], *, where: str) -> str:
    """`fill_alt`, then every build figure shown through `picture`."""
    html_text = fill_alt(html_text, page_url, rendered, where=where)

    def one(m: re.Match[str]) -> str:
        tag = m.group(0)
        attrs = {a.group("name"): html.unescape(a.group("value")) for a in ATTR.finditer(tag)}
        src = attrs.get("src", "")
        target = _target(src, page_url)
        if target is None or target not in rendered:
            return tag
        return picture(src, attrs.get("alt", ""), rendered[target], page_url)

    return IMG.sub(one, html_text)


def _target(src: str, page_url: str) -> str | None:
    """The path in the site of an image the page at ``page_url`` embeds as ``src``, when it is
    under ``figures/``."""
    if urlsplit(src).scheme or src.startswith(("/", "data:")):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page_url + "x"), src))
    return target if target.startswith("figures/") else None
