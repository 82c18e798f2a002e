"""Build-time figures: one script per figure under ``figures/``, rendered to SVG.

A script ``figures/<section>/<page>/<name>.py`` becomes ``figures/<section>/<page>/<name>.svg``
in the site. Each script has a title docstring, a fixed seed and a ``make_figure()`` that
returns a matplotlib figure; it may list extra inputs in a module-level ``DEPENDS_ON`` (globs
relative to the repository root). Rendered SVGs are cached under ``.cache/figures/`` by a hash
of everything that can change them, so an unchanged figure is never rendered twice. Helpers
shared by a section's figures live in ``figures/<section>/_name.py``; scripts import them as
``from _name import ...`` and a change to them re-renders the section's figures.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from sitekit.paths import cache_root

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIGURES_DIR = ROOT / "figures"
CACHE_DIR = cache_root() / "figures"
# Inputs shared by every figure: the library and the figure style.
SHARED_INPUTS = ("src/paperlens/**/*.py", "tools/sitekit/figstyle.py", "tools/sitekit/render.py")


class FigureError(Exception):
    """A figure script failed; the message names the script."""


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


def cache_key(figure: Figure, shared: str) -> str:
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
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def render_all(
    figures: list[Figure] | None = None, *, jobs: int = 2, cache_dir: Path = CACHE_DIR
) -> tuple[dict[str, bytes], int]:
    """Return ``{site_path: svg_bytes}`` for every figure and how many were rendered afresh.

    Stale figures are rendered in fresh Python processes (so edits to ``paperlens`` are always
    seen), split over ``jobs`` processes.
    """
    figures = discover() if figures is None else figures
    shared = hash_files(SHARED_INPUTS)
    keys = {f: cache_key(f, shared) for f in figures}
    stale = [f for f in figures if not (cache_dir / f"{keys[f]}.svg").exists()]
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
    out = {f.site_path: (cache_dir / f"{keys[f]}.svg").read_bytes() for f in figures}
    return out, len(stale)
