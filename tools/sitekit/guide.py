"""Lists the contributing guide shows, generated from the pages while the site is built, so
that they cannot go stale: a line ``<!-- generated: NAME -->`` in a page is replaced by the
list NAME, computed from ``nav`` and the pages' front matter.

- ``concepts``: every page that introduces concepts, in reading order, and what it introduces
  (the names a new page's ``uses`` may take), with what counts as a use of each wherever a page
  writes it (a formula such as $QK^T/\\sqrt{d_k}$ uses the attention equation);
- ``skills``: the reproduction skills the Foundations pages ``feeds``;
- ``words``: the words of the glossary, each with the page that defines it;
- and what the plugin passes as ``extra``: ``cite-this-site``, the site's own BibTeX entry
  (`sitekit.citations.site_bibtex`).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from sitekit import PageError, concepts, glossary
from sitekit.paths import ROOT

DIRECTIVE = re.compile(r"^<!-- generated: (?P<name>[a-z-]+) -->$", re.M)


def _link(title: str, target: str, page: str) -> str:
    return f"[{title}]({posixpath.relpath(target, posixpath.dirname(page) or '.')})"


def _concepts(declarations: list[concepts.Declaration], page: str) -> str:
    """The table of concepts; its last column says what, written on a page, counts as a use
    of one (`concepts.SIGNS`), declared or not."""
    rows = [
        "| page | introduces | a use, on a page that declares its concepts |",
        "| --- | --- | --- |",
    ]
    for d in declarations:
        if d.introduces:
            signs = [f"{concepts.SIGNS[c].said} ({c})" for c in d.introduces if c in concepts.SIGNS]
            rows.append(
                f"| {_link(d.title, d.page, page)} | {', '.join(d.introduces)} | "
                f"{'; '.join(signs)} |"
            )
    return "\n".join(rows)


def _skills(declarations: list[concepts.Declaration]) -> str:
    skills = dict.fromkeys(skill for d in declarations for skill in d.feeds)
    return ", ".join(f'"{skill}"' for skill in skills) + "."


def _words(words: list[glossary.Word], titles: dict[str, str], page: str) -> str:
    return "\n".join(
        f"- **{', '.join(w.forms)}**: {_link(titles.get(w.page, w.page), w.page, page)}"
        for w in words
    )


def generated(
    docs: Path, nav: Any, page: str, extra: dict[str, str] | None = None
) -> dict[str, str]:
    """Every list, as Markdown for ``page`` (its links relative to it), and ``extra``."""
    declarations = concepts.load(docs, nav)
    titles = {d.page: d.title for d in declarations}
    words = glossary.read_words((docs / glossary.NOTATION_PAGE).read_text(encoding="utf-8"))
    return {
        "concepts": _concepts(declarations, page),
        "skills": _skills(declarations),
        "words": _words(words, titles, page),
        **(extra or {}),
    }


def uses_lists(markdown: str) -> bool:
    return DIRECTIVE.search(markdown) is not None


def expand(
    markdown: str, page: str, docs: Path, nav: Any, extra: dict[str, str] | None = None
) -> str:
    """``markdown`` with each ``<!-- generated: NAME -->`` line replaced by its list."""
    if not uses_lists(markdown):
        return markdown
    lists = generated(docs, nav, page, extra)

    def one(m: re.Match[str]) -> str:
        if m["name"] not in lists:
            raise PageError(
                f"docs/{page}: no generated list '{m['name']}' (sitekit.guide makes"
                f" {', '.join(sorted(lists))})"
            )
        return lists[m["name"]]

    return DIRECTIVE.sub(one, markdown)


def main() -> None:
    """Print the lists, for a contributor reading the guide's Markdown source, where they are
    markers: ``.venv/bin/python -m sitekit.guide``."""
    nav = concepts.read_config()["nav"]
    for name, text in generated(ROOT / "docs", nav, "contributing/index.md").items():
        print(f"## {name}\n\n{text}\n")


if __name__ == "__main__":
    main()
