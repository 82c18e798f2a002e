"""Recall cards: collected from every page into the Review page and an Anki deck.

A card is a collapsed ``question`` admonition (``??? question "Q"`` with the answer indented
below it). Cards are read from the pages' Markdown in navigation order, so the Review page
and the deck cannot drift from the pages. The sample cards of the Contributing section are
left out: they demonstrate the markup.

The deck is an Anki package (``.apkg``, written with genanki): one subdeck per section of the
site (``paperlens::Foundations``, ...), each note tagged with its section and page, math in
Anki's own MathJax delimiters (``\\( \\)`` and ``\\[ \\]``), links made absolute to the
published site. Each note's identity (Anki's GUID) is derived from its page and its question's
anchor (`Card.anchor`), so importing a newer deck updates the notes a reader imported before,
keeping their review history, instead of adding duplicates. Anki updates a note only when the
incoming one is newer, so every note's modification time is the time of the commit the site is
built from (`sitekit.provenance`): a deck built from a later commit updates, the same deck
imported twice changes nothing, and the package is byte-identical between builds of a commit.
Rewording a question changes its anchor, so it arrives as a new note (the old one stays in the
reader's collection); editing an answer updates the note in place.

The same cards are also written as a CSV (``DECK_CSV``) for flashcard apps other than Anki,
which import CSV but not ``.apkg``; it has no note identity, so Anki users get the package.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import html
import io
import itertools
import posixpath
import re
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import genanki
import markdown as python_markdown

from sitekit import PageError, numbers, page_model
from sitekit.concepts import nav_sections
from sitekit.frontmatter import get_data
from sitekit.page_model import MATH_DISPLAY, MATH_INLINE

REVIEW_PAGE = "review.md"
DECK_FILE = "review/paperlens-recall-cards.apkg"
DECK_CSV = "review/paperlens-recall-cards.csv"
ROOT_DECK = "paperlens"
EXCLUDED = ("contributing/",)


@dataclass(frozen=True)
class Card:
    section: str  # top-level navigation section, e.g. "Foundations"
    page: str  # source path inside docs/
    page_title: str
    question: str
    answer: str  # Markdown, dedented
    anchor: str = ""  # the question's anchor on its page, unique there (`anchors`)

    @property
    def guid(self) -> str:
        """The note's identity in Anki: the page and the question's anchor."""
        return str(genanki.guid_for(ROOT_DECK, self.page, self.anchor))


def cards_in(markdown: str, where: str = "the page") -> list[tuple[str, str]]:
    """``(question, answer)`` for every recall card in a page's Markdown (``where``)."""
    out = []
    for card in page_model.parse(markdown, where).cards:
        answer = "\n".join(card.body).strip()
        if not answer:
            raise PageError(f"{where}: recall card {card.title!r} has no answer")
        out.append((str(card.title), answer))
    return out


_NOT_WORD = re.compile(r"[^\w]+")


def slug(question: str) -> str:
    """A question's anchor: ``card-`` and its words, lower case, joined by hyphens (math and
    markup as the characters they are written with, so ``$d_k$`` gives ``d_k``)."""
    return "card-" + (_NOT_WORD.sub("-", question.lower()).strip("-") or "question")


def anchors(questions: list[str]) -> list[str]:
    """Each question's anchor, unique within the page (a repeated one gets ``-2``, ``-3``)."""
    seen: dict[str, int] = {}
    out = []
    for question in questions:
        base = slug(question)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


_CARD_TAG = re.compile(r'<details class="question"(?=[ >])')


def add_anchors(page_html: str, markdown: str, where: str = "the page") -> str:
    """The page's recall cards with their anchors as ids (``<details class="question"
    id="card-...">``), so that a card in the deck links to its place on the page. Cards are
    matched in order; a page whose HTML has another number of them is left as it is (the
    built-site tests check that every card of the deck finds its anchor)."""
    found = anchors([q for q, _ in cards_in(markdown, where)])
    if not found or len(_CARD_TAG.findall(page_html)) != len(found):
        return page_html
    ids = iter(found)
    return _CARD_TAG.sub(lambda m: f'{m.group(0)} id="{next(ids)}"', page_html)


def collect(docs_dir: Path, nav: Any) -> list[Card]:
    cards, numbered = [], numbers.numbered(nav)
    for section, title, page in nav_sections(nav):
        title = title or section or page
        path = docs_dir / page
        if not page.endswith(".md") or page.startswith(EXCLUDED) or not path.is_file():
            continue
        text, meta = get_data(numbers.fill(path.read_text(encoding="utf-8"), page, numbered))
        page_title = str(meta.get("title", title))
        found = cards_in(text, f"docs/{page}")
        for (question, answer), anchor in zip(found, anchors([q for q, _ in found]), strict=True):
            cards.append(Card(section, page, page_title, question, answer, anchor))
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
        " Answer each one aloud before you open it. Code in a card continues its page's code"
        " (the page's imports and setup, such as the self-test's `answers = {}`): to run it,"
        " follow the heading's link. The same cards are in"
        f" [an Anki deck]({DECK_FILE}) (in Anki, *File → Import*)[^deck], and in"
        f" [a CSV file]({DECK_CSV}) for other flashcard apps.",
        "",
        "[^deck]: Each card of the deck keeps its identity from one version of the site to the"
        " next, so importing a newer deck updates the cards you already have, and keeps their"
        " review history, instead of adding copies. A card whose question is reworded arrives"
        " as a new card.",
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


def _tags(card: Card) -> list[str]:
    return [
        "paperlens::" + re.sub(r"[^A-Za-z0-9]+", "-", t).strip("-").lower()
        for t in (card.section or ROOT_DECK, PurePosixPath(card.page).stem)
    ]


def anki_csv(cards: list[Card]) -> bytes:
    """The cards as a CSV with Anki's header lines, for flashcard apps that import CSV.

    Columns: Front, Back, Tags. Newlines in answers become ``<br>`` (``#html:true``), math is
    written in Anki's ``\\( \\)`` delimiters, and each card is tagged with its section and page.
    """
    buffer = io.StringIO()
    buffer.write("#separator:Comma\n#html:true\n#columns:Front,Back,Tags\n#tags column:3\n")
    writer = csv.writer(buffer, lineterminator="\n")
    for card in cards:
        back = "<br>".join(_anki_html(card.answer).splitlines())
        writer.writerow([_anki_html(card.question), back, " ".join(_tags(card))])
    return buffer.getvalue().encode()


# --- The Anki package ---------------------------------------------------------------------------

_MATH_TOKEN = "PLMATH{}X"
_MATH_TOKENS = re.compile(r"PLMATH(\d+)X")
_MD_LINK = re.compile(r"(?P<pre>\]\()(?P<url>[^)\s]+)(?P<post>\))")


def _absolute(url: str, page: str, site_url: str) -> str:
    """A link written on ``page`` (relative, to a page's Markdown source) as the published
    address: Anki shows the card far from the site."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", url) or url.startswith("#"):
        return url if not url.startswith("#") else f"{_page_address(page, site_url)}{url}"
    path, _, fragment = url.partition("#")
    target = posixpath.normpath(PurePosixPath(page).parent.joinpath(path).as_posix())
    address = _page_address(target, site_url)
    return address + (f"#{fragment}" if fragment else "")


def _page_address(page: str, site_url: str) -> str:
    """The published address of a page source (``foundations/softmax.md``), as MkDocs'
    directory URLs write it."""
    stem = PurePosixPath(page).with_suffix("") if page.endswith((".md", ".py")) else None
    if stem is None:
        return site_url.rstrip("/") + "/" + page
    path = "" if stem.name == "index" else stem.as_posix() + "/"
    if stem.name == "index" and stem.parent.as_posix() != ".":
        path = stem.parent.as_posix() + "/"
    return site_url.rstrip("/") + "/" + path


def anki_field(text: str, page: str, site_url: str) -> str:
    """A card's Markdown as the HTML of an Anki field: Markdown rendered (code, emphasis,
    links made absolute), math left to Anki's MathJax in its own delimiters."""
    parts = _FENCED.split(text)  # prose, code, prose, ...
    math: list[str] = []

    def keep(m: re.Match[str], display: bool) -> str:
        tex = html.escape(m.group(1).strip() if display else m.group(1), quote=False)
        math.append(f"\\[{tex}\\]" if display else f"\\({tex}\\)")
        return _MATH_TOKEN.format(len(math) - 1)

    for i in range(0, len(parts), 2):
        prose = MATH_DISPLAY.sub(lambda m: keep(m, True), parts[i])
        prose = MATH_INLINE.sub(lambda m: keep(m, False), prose)
        parts[i] = _MD_LINK.sub(
            lambda m: m.group("pre") + _absolute(m.group("url"), page, site_url) + m.group("post"),
            prose,
        )
    for i in range(1, len(parts), 2):
        parts[i] = f"```\n{parts[i]}```\n"
    rendered = python_markdown.markdown(
        "\n".join(parts) if len(parts) > 1 else parts[0],
        extensions=["fenced_code", "sane_lists"],
        output_format="html",
    )
    return _MATH_TOKENS.sub(lambda m: math[int(m.group(1))], rendered).strip()


def _id(name: str) -> int:
    """A stable id for an Anki deck or note type, from its name (Anki ids are positive 63-bit
    integers; the name's hash keeps them stable across builds)."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:15], 16)


MODEL = genanki.Model(
    _id("paperlens recall card"),
    "paperlens recall card",
    fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "Page"}],
    templates=[
        {
            "name": "Recall",
            "qfmt": "{{Question}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}<p class="page">{{Page}}</p>',
        }
    ],
    css=(
        ".card { font-family: sans-serif; font-size: 20px; text-align: left; }\n"
        "pre { white-space: pre-wrap; font-size: 16px; }\n"
        ".page { font-size: 14px; opacity: 0.7; }\n"
    ),
    sort_field_index=0,
)


def deck_name(section: str) -> str:
    return f"{ROOT_DECK}::{section}" if section else ROOT_DECK


def anki_package(cards: list[Card], *, site_url: str, timestamp: int) -> bytes:
    """The cards as an Anki package (``.apkg``), one subdeck per section.

    ``timestamp`` (Unix seconds) is every note's modification time: the commit's time, so that
    a later build's deck updates the notes (Anki keeps a note unless the incoming one is
    newer), and the package is byte-identical for the same cards and time.
    """
    decks: dict[str, genanki.Deck] = {}
    for card in cards:
        name = deck_name(card.section)
        if name not in decks:
            decks[name] = genanki.Deck(_id(name), name)
        address = _page_address(card.page, site_url) + f"#{card.anchor}"
        page_link = f'<a href="{html.escape(address)}">{html.escape(card.page_title)}</a>'
        decks[name].add_note(
            genanki.Note(
                model=MODEL,
                fields=[
                    anki_field(card.question, card.page, site_url),
                    anki_field(card.answer, card.page, site_url),
                    page_link,
                ],
                guid=card.guid,
                tags=_tags(card),
            )
        )
    package = genanki.Package(list(decks.values()))
    with tempfile.TemporaryDirectory(prefix="paperlens-deck-") as tmp:
        db = Path(tmp) / "collection.anki2"
        with contextlib.closing(sqlite3.connect(db)) as connection:
            # genanki numbers notes and cards from the timestamp, in milliseconds, as Anki does.
            package.write_to_db(connection.cursor(), timestamp, itertools.count(timestamp * 1000))
            connection.commit()
        collection = db.read_bytes()
    out = io.BytesIO()
    # Fixed entry dates, so that the package's bytes depend on its content alone.
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in (("collection.anki2", collection), ("media", b"{}")):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return out.getvalue()
