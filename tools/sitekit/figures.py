"""Build-time figures: one script per figure under ``figures/``, rendered to SVG.

A script ``figures/<section>/<page>/<name>.py`` becomes ``figures/<section>/<page>/<name>.svg``
in the site. Each script has a title docstring, a fixed seed and a ``make_figure(style,
layout)`` that returns the figure and its alt text (the contract in `sitekit.figstyle`); a page
embeds it as ``![](../figures/<page>/<name>.svg)``, with the brackets left empty, and the build
fills in the alt text. A script may list extra inputs in a module-level ``DEPENDS_ON`` (globs
relative to the repository root). Rendered SVGs are cached under ``.cache/figures/`` by a hash
of everything that can change them, so an unchanged figure is never rendered twice. Helpers
shared by a section's figures live in ``figures/<section>/_name.py``; scripts import them as
``from _name import ...`` and a change to them re-renders the section's figures.
"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import os
import posixpath
import re
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

from sitekit.paths import blas_config, cache_root

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIGURES_DIR = ROOT / "figures"
CACHE_DIR = cache_root() / "figures"
# Inputs shared by every figure: the library and the figure style.
SHARED_INPUTS = ("src/paperlens/**/*.py", "tools/sitekit/figstyle.py", "tools/sitekit/render.py")


class FigureError(Exception):
    """A figure script failed; the message names the script."""


@dataclass(frozen=True)
class Rendered:
    """A rendered figure: its SVG, and the alt text its script computed from the data."""

    svg: bytes
    alt: str


@dataclass(frozen=True)
class Figure:
    script: Path  # absolute path of the script

    @property
    def name(self) -> str:
        """The script's path as the build reports it (relative to the repository)."""
        if self.script.is_relative_to(ROOT):
            return self.script.relative_to(ROOT).as_posix()
        return self.script.as_posix()

    @property
    def site_path(self) -> str:
        if not self.script.is_relative_to(FIGURES_DIR):
            return f"figures/{self.script.stem}.svg"
        return "figures/" + self.script.relative_to(FIGURES_DIR).with_suffix(".svg").as_posix()

    def helpers(self) -> str:
        """The source of the section's shared helpers, ``figures/<section>/_*.py``."""
        folder = self.script.resolve().parent.parent
        return "".join(path.read_text() for path in sorted(folder.glob("_*.py")))

    def depends_on(self) -> list[str]:
        tree = ast.parse(self.script.read_text(), filename=str(self.script))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "DEPENDS_ON" for t in node.targets
            ):
                value = ast.literal_eval(node.value)
                return [str(v) for v in value]
        return []


def discover() -> list[Figure]:
    """Every figure script, sorted; files and folders starting with ``_`` are helpers."""
    scripts = [
        p
        for p in FIGURES_DIR.rglob("*.py")
        if not any(part.startswith("_") for part in p.relative_to(FIGURES_DIR).parts)
    ]
    return [Figure(p) for p in sorted(scripts)]


def hash_files(patterns: list[str] | tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for pattern in patterns:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(figure: Figure, shared: str, blas: str = "") -> str:
    digest = hashlib.sha256()
    for part in (
        shared,
        figure.name,
        figure.script.read_text(),
        hash_files(figure.depends_on()),
        figure.helpers(),
        # The versions, read from the installed metadata: importing matplotlib costs 0.3 s.
        metadata.version("matplotlib"),
        metadata.version("numpy"),
        blas,
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def render_all(
    figures: list[Figure] | None = None, *, jobs: int = 2, cache_dir: Path = CACHE_DIR
) -> tuple[dict[str, Rendered], int]:
    """Return ``{site_path: Rendered}`` for every figure and how many were rendered afresh.

    Stale figures are rendered in fresh Python processes (so edits to ``paperlens`` are always
    seen), split over ``jobs`` processes.
    """
    figures = discover() if figures is None else figures
    shared = hash_files(SHARED_INPUTS)
    blas = blas_config()
    keys = {f: cache_key(f, shared, blas) for f in figures}
    stale = [
        f
        for f in figures
        if not all((cache_dir / f"{keys[f]}{suffix}").exists() for suffix in (".svg", ".alt"))
    ]
    if stale:
        cache_dir.mkdir(parents=True, exist_ok=True)
        batches = [stale[i::jobs] for i in range(min(jobs, len(stale)))]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), str(ROOT / "src")]))
        procs = []
        for batch in batches:
            args = [sys.executable, "-m", "sitekit.render"]
            for f in batch:
                args += [str(f.script), str(cache_dir / f"{keys[f]}.svg")]
            procs.append(
                subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
            )
        failures = []
        for proc in procs:
            out, _ = proc.communicate()
            if proc.returncode != 0:
                try:
                    failures.append(json.loads(out.strip().splitlines()[-1]))
                except (ValueError, IndexError):
                    failures.append({"script": "?", "error": out or "renderer crashed"})
        if failures:
            lines = [f"figure script {f['script']} failed:\n{f['error']}" for f in failures]
            raise FigureError("\n".join(lines))
    out = {
        f.site_path: Rendered(
            (cache_dir / f"{keys[f]}.svg").read_bytes(),
            (cache_dir / f"{keys[f]}.alt").read_text(encoding="utf-8"),
        )
        for f in figures
    }
    return out, len(stale)


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
        FigureError: a figure with typed alt text, or an image under ``figures/`` that no
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
            raise FigureError(f"{where}: image {src} is under figures/ but no script draws it")
        if attrs.get("alt"):
            raise FigureError(
                f"{where}: figure {target} has alt text typed in the page; leave the brackets "
                "empty, ![](...), and let its script compute it (see sitekit.figstyle)"
            )
        alt = html.escape(rendered[target].alt, quote=True)
        if "alt=" in tag:
            return re.sub(r'\salt="[^"]*"', f' alt="{alt}"', tag, count=1)
        return tag.replace("<img", f'<img alt="{alt}"', 1)

    return IMG.sub(one, html_text)
