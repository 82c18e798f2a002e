"""Every page that teaches ends with recall cards: a page whose front matter ``introduces`` a
concept has at least one recall card (a ``??? question`` admonition, `sitekit.cards`), so
that the Review page and the deck ask about everything the site teaches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sitekit import PageError, page_model
from sitekit.concepts import load


def check(docs: Path, nav: Any) -> None:
    """Raise PageError naming every page of ``nav`` that introduces a concept without a
    recall card."""
    missing = []
    for declaration in load(docs, nav):
        path = docs / declaration.page
        if not declaration.introduces or path.suffix != ".md" or not path.is_file():
            continue
        if not page_model.parse(path.read_text(encoding="utf-8"), f"docs/{declaration.page}").cards:
            concepts = ", ".join(declaration.introduces)
            missing.append(
                f"docs/{declaration.page} introduces {concepts} but has no recall card: end it"
                ' with a "## Recall" section of at least one card, ??? question "..."'
            )
    if missing:
        raise PageError("recall cards:\n  " + "\n  ".join(missing))
