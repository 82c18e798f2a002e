"""The build's caches: one home for their keys, and the entries they store.

**Keys.** Every cache is keyed by a hash of everything that can change what it stores:
`hash_files` (files by glob, relative to the repository), `hash_paths`, `hash_sitekit` (the
``sitekit`` modules a script imports, found in its source), `versions` of the installed
distributions and `blas_config`, the BLAS kernel NumPy computes with (its rounding differs
between CPUs; one home with the library's experiment cache, `paperlens._cache`).

**Entries.** The caches live under ``.cache/`` (`paths.cache_root`): ``examples/`` (a page's
passing outcome), ``figures/`` (each figure's SVGs, alt text and links), ``frames/`` (each
explorable's frames), ``katex.json`` (rendered formulas), ``notebooks/`` (executed notebook
pages) and ``experiments/`` (experiment runs). Every entry is written by `write` with the
SHA-256 of its content and checked by `read`: a truncated, emptied or overwritten entry is
dropped, reported in one line and computed again, never published and never a traceback.
Writes go through a unique temporary name and an atomic rename, so processes that write the
same entry at once (two frame renderers, two builds) never see a half-written file.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import re
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from paperlens._cache import blas_config, dropped, read, read_pickle, replace_file, write
from sitekit.paths import ROOT

__all__ = [
    "FRONT_MATTER",
    "LIBRARY",
    "blas_config",
    "dropped",
    "hash_files",
    "hash_paths",
    "hash_sitekit",
    "read",
    "read_json",
    "read_pickle",
    "replace_file",
    "sitekit_sources",
    "version",
    "versions",
    "write",
    "write_json",
]

# This package's folder: the sitekit modules a figure imports are read from here.
PACKAGE_DIR = Path(__file__).resolve().parent

# The library as the pages see it, for the keys of what they compute with it (examples,
# figures, executed notebooks): its code and its data. The experiment log (``*.jsonl``) and the
# kernels' verdicts (``kernels.json``) are read by the experiment pages, so a new record (``make
# claims``) must run them again, not serve their pages from before it.
LIBRARY = ("src/paperlens/**/*",)


def read_json(path: Path) -> Any:
    """The JSON value stored at ``path``, or None (missing or damaged)."""
    content = read(path)
    if content is None:
        return None
    try:
        return json.loads(content)
    except ValueError:
        dropped(path, "unreadable")
        path.unlink(missing_ok=True)
        return None


def write_json(path: Path, value: Any) -> None:
    write(path, json.dumps(value, sort_keys=True, ensure_ascii=False).encode())


@functools.cache
def version(distribution: str) -> str:
    """An installed distribution's version (read once per process: metadata is slow)."""
    return metadata.version(distribution)


# What a page's examples run with, besides Python.
DISTRIBUTIONS = ("paperlens", "numpy", "scipy", "ml-dtypes", "matplotlib", "sybil")


@functools.cache
def versions() -> dict[str, str]:
    """The versions of the distributions a page's examples run with, and Python's (read once
    per process: a running server's workers keep the versions they imported)."""
    found = {"python": ".".join(map(str, sys.version_info[:3]))}
    for name in DISTRIBUTIONS:
        try:
            found[name] = version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def _module_file(name: str, package_dir: Path) -> Path | None:
    """The source file of the sitekit module ``name`` (``sitekit`` or ``sitekit.x``), if any."""
    parts = name.split(".")[1:]
    base = package_dir.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if parts and candidate.is_file():
            return candidate
    init = package_dir / "__init__.py"
    return init if not parts and init.is_file() else None


@functools.lru_cache(maxsize=512)
def _sitekit_imports(source: str, filename: str, package: str | None) -> frozenset[str]:
    """The sitekit modules ``source`` imports, anywhere in it: ``import sitekit.x``, ``from
    sitekit import x``, ``from sitekit.x import y`` and, inside the package, relative imports.
    Every one implies ``sitekit`` itself (its ``__init__``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.split(".")[0] == "sitekit")
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level:
            if package is None:
                continue
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            module = ".".join(base + ([module] if module else []))
        if module.split(".")[0] != "sitekit":
            continue
        names.add(module)
        # ``from sitekit import figstyle`` names a module; ``from sitekit.x import f`` does not,
        # and a name that is no module file is simply not found below.
        names.update(f"{module}.{a.name}" for a in node.names)
    closed = set(names)
    for name in names:
        parts = name.split(".")
        closed.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return frozenset(closed)


def sitekit_sources(sources: list[Path], package_dir: Path | None = None) -> list[Path]:
    """Every sitekit module file that the Python files ``sources`` import, directly or through
    other sitekit modules, sorted; read from ``package_dir`` (default ``PACKAGE_DIR``)."""
    package_dir = PACKAGE_DIR if package_dir is None else package_dir
    found: set[Path] = set()
    todo: list[tuple[Path, str | None]] = [(path, None) for path in sources]
    while todo:
        path, package = todo.pop()
        for name in _sitekit_imports(path.read_text(), str(path), package):
            module = _module_file(name, package_dir)
            if module is not None and module not in found:
                found.add(module)
                is_init = module.name == "__init__.py"
                todo.append((module, name if is_init else name.rpartition(".")[0]))
    return sorted(found)


def hash_sitekit(sources: list[Path], package_dir: Path | None = None) -> str:
    """A hash of the sitekit modules ``sources`` import, and of those ``sources`` that are
    sitekit modules themselves."""
    package_dir = PACKAGE_DIR if package_dir is None else package_dir
    own = {path for path in sources if path.is_relative_to(package_dir)}
    return hash_paths(sorted(own.union(sitekit_sources(sources, package_dir))), package_dir)


# A ``DEPENDS_ON`` glob ending in this depends on the files' front matter only (the concept
# declarations the prerequisite map draws), so an edit of a page's prose leaves it alone.
FRONT_MATTER = "#front-matter"


def hash_paths(files: list[Path], root: Path) -> str:
    """A hash of ``files`` (their paths relative to ``root``, and their bytes)."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def hash_files(patterns: list[str] | tuple[str, ...]) -> str:
    """A hash of the files that ``patterns`` (globs relative to the repository) match: their
    paths and bytes, or only their front matter for a pattern ending in `FRONT_MATTER`."""
    digest = hashlib.sha256()
    for pattern in patterns:
        front_only = pattern.endswith(FRONT_MATTER)
        for path in sorted(ROOT.glob(pattern.removesuffix(FRONT_MATTER))):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode())
                content = path.read_bytes()
                if front_only:
                    match = _FRONT.match(content)
                    content = match.group(0) if match else b""
                digest.update(content)
    return digest.hexdigest()


_FRONT = re.compile(rb"^-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


# --- Damaging a cache on purpose (tools/damaged_caches.py and its test) ---------------------------

DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda data: data[: len(data) // 2],
    "emptied": lambda data: b"",
    "garbage": lambda data: bytes(range(256)) * 4,
}
"""The ways an entry is damaged: what a killed write, a full disk or a stray tool leaves."""


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder``, by its path relative to it: to compare two builds."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }
