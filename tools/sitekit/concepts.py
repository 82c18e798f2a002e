"""Concepts in order: every page declares what it introduces and what it uses.

Front matter of a page::

    introduces: [dot product]
    uses: [vector, matrix, transpose]
    feeds: [derive the 1/sqrt(d_k) scale]   # optional: reproduction skills this page enables

The build fails if a page uses a concept no earlier page (in navigation order) introduced, if
a concept is introduced twice, or if a declaration is not a list of strings. The prerequisite
map figure is drawn from the same declarations, so it cannot drift from the pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sitekit.frontmatter import get_data
from sitekit.paths import ROOT

KEYS = ("introduces", "uses", "feeds")


class ConceptError(Exception):
    """A page's declarations break the reading order."""


@dataclass
class Declaration:
    page: str  # path relative to docs/
    title: str
    introduces: list[str] = field(default_factory=list)
    uses: list[str] = field(default_factory=list)
    feeds: list[str] = field(default_factory=list)


def nav_pages(nav: Any) -> list[tuple[str, str]]:
    """Flatten MkDocs' ``nav`` setting into ``(title, path)`` pairs in reading order."""
    out: list[tuple[str, str]] = []

    def walk(item: Any, title: str = "") -> None:
        if isinstance(item, str):
            if "://" not in item:
                out.append((title, item))
        elif isinstance(item, list):
            for entry in item:
                walk(entry)
        elif isinstance(item, dict):
            for key, value in item.items():
                walk(value, key)

    walk(nav)
    return out


def read_declaration(docs_dir: Path, page: str, title: str) -> Declaration:
    path = docs_dir / page
    meta: dict[str, Any] = {}
    # Generated pages (the Review page) and notebooks declare nothing.
    if path.suffix == ".md" and path.is_file():
        _, meta = get_data(path.read_text(encoding="utf-8"))
    decl = Declaration(page=page, title=str(meta.get("title", title)))
    for key in KEYS:
        value = meta.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise ConceptError(f"{page}: front matter '{key}' must be a list of names")
        setattr(decl, key, [v.strip() for v in value])
    return decl


def load(docs_dir: Path, nav: Any) -> list[Declaration]:
    return [read_declaration(docs_dir, page, title) for title, page in nav_pages(nav)]


def check_order(declarations: list[Declaration]) -> dict[str, str]:
    """Return ``{concept: introducing page}``; raise ConceptError on the first violations."""
    introduced: dict[str, str] = {}
    problems: list[str] = []
    for decl in declarations:
        for concept in decl.uses:
            if concept in decl.introduces:
                problems.append(f"{decl.page}: '{concept}' is both introduced and used")
            elif concept not in introduced:
                problems.append(
                    f"{decl.page} uses '{concept}', which no earlier page introduces"
                    " (check the spelling, or the order of the nav)"
                )
        for concept in decl.introduces:
            if concept in introduced:
                problems.append(
                    f"{decl.page} introduces '{concept}', already introduced by"
                    f" {introduced[concept]}"
                )
            else:
                introduced[concept] = decl.page
    if problems:
        raise ConceptError("concepts out of order:\n  " + "\n  ".join(problems))
    return introduced


def read_config(config_file: Path = ROOT / "mkdocs.yml") -> dict[str, Any]:
    """``mkdocs.yml`` as plain data (its ``!ENV`` and ``!!python`` tags read as None)."""

    class _Loader(yaml.SafeLoader):  # type: ignore[misc]  # yaml: no stubs
        pass

    _Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config: dict[str, Any] = yaml.load(config_file.read_text(), Loader=_Loader)  # noqa: S506
    return config


def load_from_config(config_file: Path = ROOT / "mkdocs.yml") -> list[Declaration]:
    """Declarations in nav order, read straight from ``mkdocs.yml`` (used by figure scripts)."""
    config = read_config(config_file)
    docs_dir = config_file.parent / config.get("docs_dir", "docs")
    return load(docs_dir, config["nav"])
