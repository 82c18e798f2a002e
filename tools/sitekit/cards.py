"""Recall cards: collected from every page into the Review page and an Anki deck.

A card is a collapsed ``question`` admonition (``??? question "Q"`` with the answer indented
below it). Cards are read from the pages' Markdown in navigation order, so the Review page
and the deck cannot drift from the pages. The sample cards of the Contributing section are
left out: they demonstrate the markup.
"""

from __future__ import annotations

import csv
import html
import io
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from sitekit import page_model
from sitekit.concepts import nav_pages
from sitekit.frontmatter import get_data
from sitekit.page_model import MATH_DISPLAY, MATH_INLINE

REVIEW_PAGE = "review.md"
DECK_FILE = "review/paperlens-recall-cards.csv"
EXCLUDED = ("contributing/",)


@dataclass(frozen=True)
class Card:
    section: str  # top-level navigation section, e.g. "Foundations"
    page: str  # source path inside docs/
    page_title: str
    question: str
    answer: str  # Markdown, dedented


def cards_in(markdown: str) -> list[tuple[str, str]]:
    """``(question, answer)`` for every recall card in a page's Markdown."""
    out = []
    for card in page_model.parse(markdown).cards:
        answer = "\n".join(card.body).strip()
        if not answer:
            raise ValueError(f"recall card {card.title!r} has no answer")
        out.append((str(card.title), answer))
    return out


def _sections(nav: Any) -> list[tuple[str, str, str]]:
    """``(section, title, path)`` for each page, section being its top-level nav entry."""
    out = []
    for entry in nav:
        if isinstance(entry, dict):
            for section, value in entry.items():
                for title, path in nav_pages(value):
                    out.append((section, title or section, path))
        elif isinstance(entry, str):
            out.append(("", entry, entry))
    return out


def collect(docs_dir: Path, nav: Any) -> list[Card]:
    cards = []
    for section, title, page in _sections(nav):
        path = docs_dir / page
        if not page.endswith(".md") or page.startswith(EXCLUDED) or not path.is_file():
            continue
        text, meta = get_data(path.read_text(encoding="utf-8"))
        page_title = str(meta.get("title", title))
        for question, answer in cards_in(text):
            cards.append(Card(section, page, page_title, question, answer))
    return cards


_LINK = re.compile(r"\]\((?![a-z]+:|#|/)([^)\s]+)\)")


def _rebase_links(markdown: str, page: str) -> str:
    """Rewrite a card's relative links, written from its page, to work from the docs root."""
    folder = PurePosixPath(page).parent

    def rebase(m: re.Match[str]) -> str:
        return f"]({posixpath.normpath(folder / m.group(1))})"

    return _LINK.sub(rebase, markdown)


def review_markdown(cards: list[Card]) -> str:
    """The Review page: every card, grouped by section and page, answers hidden."""
    out = [
        "---",
        "title: Review",
        "description: Every recall card and self-test question of paperlens in one place,"
        " grouped by section, with answers hidden until you click.",
        "---",
        "",
        "# Review: every recall card",
        "",
        f"All {len(cards)} recall cards and self-test questions of the site, in reading order."
        " Answer each one aloud before you open it. The same cards are in"
        f" [an Anki deck]({DECK_FILE}) (a CSV file: in Anki, *File → Import*).",
        "",
    ]
    section = page = None
    for card in cards:
        if card.section != section:
            section = card.section
            out += [f"## {section}", ""]
        if card.page != page:
            page = card.page
            out += [f"### [{card.page_title}]({card.page})", ""]
        question = card.question.replace('"', "&quot;")
        out.append(f'??? question "{question}"')
        answer = _rebase_links(card.answer, card.page)
        out += [f"    {line}" if line else "" for line in answer.splitlines()]
        out.append("")
    return "\n".join(out)


_CODE = re.compile(r"`([^`]+)`")
_FENCED = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _anki_html(text: str) -> str:
    """Anki shows HTML and typesets ``\\(...\\)`` and ``\\[...\\]`` with its own MathJax.

    A fenced code block (a self-test card's computation) becomes ``<pre><code>``, escaped and
    left out of the math conversion.
    """
    parts = _FENCED.split(text)  # prose, code, prose, ...
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<pre><code>{html.escape(part.rstrip())}</code></pre>")
        else:
            part = _CODE.sub(r"<code>\1</code>", part)
            out.append(MATH_INLINE.sub(r"\\(\1\\)", MATH_DISPLAY.sub(r"\\[\1\\]", part)))
    return "".join(out)


def anki_csv(cards: list[Card]) -> bytes:
    """A deck Anki imports (File → Import): a CSV with Anki's header lines.

    Columns: Front, Back, Tags. Newlines in answers become ``<br>`` (``#html:true``), math is
    written in Anki's ``\\( \\)`` delimiters, and each card is tagged with its section and page.
    """
    buffer = io.StringIO()
    buffer.write("#separator:Comma\n#html:true\n#columns:Front,Back,Tags\n#tags column:3\n")
    writer = csv.writer(buffer, lineterminator="\n")
    for card in cards:
        tags = " ".join(
            "paperlens::" + re.sub(r"[^A-Za-z0-9]+", "-", t).strip("-").lower()
            for t in (card.section, PurePosixPath(card.page).stem)
        )
        back = "<br>".join(_anki_html(card.answer).splitlines())
        writer.writerow([_anki_html(card.question), back, tags])
    return buffer.getvalue().encode()
