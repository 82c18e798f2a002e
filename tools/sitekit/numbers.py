"""Section and step numbers: typed once, in ``nav``, and written into the pages by the build.

A section's pages titled ``N. Title`` in ``nav`` are numbered. Their numbers run 1, 2, 3, ...
in order, and a file named ``step-N-...`` is number N. A page refers to a numbered page by a
link that leaves the number out, and the build writes it in (`fill`):

- ``[§](dot-product.md)`` reads "§5", and ``[§ Norm and angle](dot-product.md#norm)`` reads
  "§5 Norm and angle";
- ``[Step](step-4-variance-adds.md)`` reads "Step 4", and ``[step](...)`` "step 4".

So no page types another page's number, and none goes stale. The build fails on what could
(`problems`): a link that types the number (``[§5](...)``), one whose page is not numbered,
and a ``§N`` outside a link, which would name a page with no link to follow. A paper's
sections are not the site's: ``§3.2.1``, every ``§`` in a citation (``[@he2016resnet, §1]``)
or a link to another site, and a typed ``§N`` in ``docs/reproduce/``, whose pages cite the
papers they reproduce, are left alone. A page that writes its own number, in its ``title``
(``Step 4: ...``) or its heading (``# 2. Matrices``), writes the one ``nav`` gives it, and a
section's index page links every page of its section.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sitekit import PageError, citations
from sitekit.concepts import nav_sections
from sitekit.frontmatter import get_data

REPRODUCE = "reproduce/"  # pages that cite papers' sections: a bare §N is the paper's
_NUMBERED = re.compile(r"^(?P<n>\d+)\.\s+(?P<title>.+)$")
_STEP_FILE = re.compile(r"(?:^|/)step-(?P<n>\d+)-[^/]*$")
# A link's text may wrap onto the next line, not across a blank one.
_TEXT = r"(?:[^\]\n]|\n(?![ \t]*\n))*"
# A link whose text asks for its page's number, or gives it: "§", "§ Title", "§5 Title", "Step",
# "Step 4", "Step 4: Title" (not "§3.2.1", a paper's, nor "Step by step"), to a page of the site.
_TITLE = r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?"  # a link's title: [§](page.md "Title")
_LINK = re.compile(
    r"\[(?:(?P<word>§)(?P<n>\s?\d+)?(?!\.?\d)(?P<rest>(?:[\s:.,;]" + _TEXT + r")?)"
    r"|(?P<step>[Ss]tep)(?:(?P<sn> \d+)(?P<srest>[\s:.,;(]" + _TEXT + r")?"
    r"|(?P<srest0>[:.,;]" + _TEXT + r")?))\]"
    r"\((?![A-Za-z][\w+.-]*:|//)(?P<href>[^)\s#]*)(?P<end>[^)\s]*" + _TITLE + r"\))"
)
# The same text with a reference, [§][key] or [Step 4][key], and the references' targets.
_REFERENCE = re.compile(
    r"\[(?P<text>(?:§|[Ss]tep(?: \d+)?(?![^\s:.,;\]]))" + _TEXT + r")\]\[(?P<key>[^\]\n]*)\]"
)
_ANY_REFERENCE = re.compile(r"\[(?P<text>" + _TEXT + r")\]\[(?P<key>[^\]\n]*)\]")
_DEFINITION = re.compile(r"^[ \t]{0,3}\[(?P<key>[^\]\n]+)\]:[ \t]*<?(?P<href>[^>\s]+)", re.M)
_SCHEME = re.compile(r"^(?:[A-Za-z][\w+.-]*:|//)")  # another site's address
_ANY_LINK = re.compile(r"\]\((?![A-Za-z][\w+.-]*:|//)(?P<href>[^)\s#]+)[^)\s]*" + _TITLE + r"\)")
_URL = re.compile(  # a link to another site, text and all; a link's target; an address
    r"\[" + _TEXT + r"\]\((?:[A-Za-z][\w+.-]*:|//)[^)\n]*\)|\]\([^)\s]*" + _TITLE + r"\)"
    r"|<[A-Za-z][\w+.-]*:[^>\s]*>|\bhttps?://\S+"
)
_BARE = re.compile(r"§ ?\d+(?!\.?\d)")  # §5 or § 5, not the paper's §3.2.1
_FENCED = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
_SPAN = re.compile(r"`(?:[^`\n]|\n(?![ \t]*\n))+`")  # inline code, which may wrap
_OWN = re.compile(r"^(?:# +|title: *[\"']?)(?:Step )?(?P<n>\d+)[.:] ")


def numbered(nav: Any) -> dict[str, int]:
    """Each numbered page of ``nav`` (relative to docs/), with its number."""
    return {
        page: int(m["n"]) for _, title, page in nav_sections(nav) if (m := _NUMBERED.match(title))
    }


def _target(href: str, page: str) -> str:
    """A link's target page, relative to docs/, from the page that writes it."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), href)) if href else page


def _split(text: str, code: re.Pattern[str], outside: Any, inside: Any) -> str:
    out, last = [], 0
    for m in code.finditer(text):
        out += [outside(text[last : m.start()]), inside(m[0])]
        last = m.end()
    return "".join([*out, outside(text[last:])])


def fill(markdown: str, page: str, numbers: dict[str, int]) -> str:
    """``markdown`` of ``page``, each number-less ``[§](...)`` or ``[Step](...)`` link to a
    numbered page given that page's number; code blocks and code spans are left alone."""

    def number(m: re.Match[str]) -> str:
        n = numbers.get(_target(m["href"], page))
        if n is None or m["n"] or m["sn"]:
            return m[0]  # what `problems` names
        text = f"§{n}{m['rest']}" if m["word"] else f"{m['step']} {n}{m['srest0'] or ''}"
        return f"[{text}]({m['href']}{m['end']}"

    def prose(text: str) -> str:
        return _split(text, _SPAN, lambda t: _LINK.sub(number, t), str)

    return _split(markdown, _FENCED, prose, str)


def _blank(code: str) -> str:
    return re.sub(r"[^\n]", " ", code)


def _read(text: str) -> tuple[str, str]:
    """``text`` with its code spans blanked, and with its code blocks blanked too (each line
    where it was)."""
    code = _split(text, _FENCED, lambda t: _split(t, _SPAN, str, _blank), str)
    return code, _split(code, _FENCED, str, _blank)


def _page_problems(text: str, page: str, numbers: dict[str, int]) -> Iterator[str]:
    """A page's numbers that the build cannot write, or that could go stale. Code spans are
    examples; code blocks are read for a bare ``§N`` only, which a comment could hold."""
    code, prose = _read(text)

    def where(at: int) -> str:
        return f"docs/{page}:{text.count(chr(10), 0, at) + 1}"

    references = {m["key"].lower(): m["href"] for m in _DEFINITION.finditer(prose)}
    for m in _REFERENCE.finditer(prose):
        target = references.get((m["key"] or m["text"]).lower(), "")
        if not _SCHEME.match(target):  # another site's section is the paper's
            word = "Step" if m["text"].lower().startswith("step") else "§"
            yield f"{where(m.start())}: '{m[0]}': a reference link gets no number:" + (
                f" write [{word}](page.md)"
            )
    for m in _LINK.finditer(prose):
        target, at = _target(m["href"], page), f"{where(m.start())}: '{m[0]}'"
        if target not in numbers:
            yield f"{at} asks for a number, but {target} is not numbered in nav"
        elif page.endswith(".py"):
            yield f"{at}: a notebook page's links get no number: name the page"
        elif m["n"] or m["sn"]:
            yield f"{at}: leave the number out, the build writes it from nav"
    if page.startswith(REPRODUCE):
        return
    covered = [  # a paper's section in a citation; an address; a § link, checked above
        m.span()
        for pattern in (citations.MARKER, _URL, _LINK, _REFERENCE)
        for m in pattern.finditer(code)
    ]
    covered += [  # a reference link to another site, text and all
        m.span()
        for m in _ANY_REFERENCE.finditer(code)
        if _SCHEME.match(references.get((m["key"] or m["text"]).lower(), ""))
    ]
    for m in _BARE.finditer(code):
        if not any(a <= m.start() < b for a, b in covered):
            yield f"{where(m.start())}: '{m[0]}' is typed: link the page, [§](page.md), or name it"


def _own_numbers(path: Path) -> Iterator[tuple[str, int]]:
    """The numbers a page gives itself: in its front matter's title, and in its first heading
    outside code."""
    if not path.is_file():
        return  # a nav entry for a missing file: the engine names it
    body, meta = get_data(path.read_text(encoding="utf-8"))
    if m := _OWN.match(f"title: {meta.get('title', '')}"):
        yield f"title: {meta['title']}", int(m["n"])
    heading = next((line for line in _read(body)[1].split("\n") if line.startswith("# ")), "")
    if m := _OWN.match(heading):
        yield heading, int(m["n"])


def problems(docs: Path, nav: Any) -> list[str]:
    """Every number the build cannot write from ``nav``, or that disagrees with it."""
    numbers = numbered(nav)
    out, places, sections = [], dict[str, int](), dict[str, list[tuple[str, str]]]()
    for section, title, page in nav_sections(nav):
        sections.setdefault(section, []).append((title, page))
        if page not in numbers:
            own = _own_numbers(docs / page) if page.endswith(".md") else iter(())
            out += [f"docs/{page}: '{line}': nav does not number the page" for line, _ in own]
            continue
        place = places[section] = places.get(section, 0) + 1
        if numbers[page] != place:
            out.append(f"mkdocs.yml: nav: '{title}' is page {place} of {section}'s numbered pages")
        if (step := _STEP_FILE.search(page)) and int(step["n"]) != place:
            out.append(f"mkdocs.yml: nav: {page} is named step {step['n']}, but is page {place}")
        own = _own_numbers(docs / page) if (docs / page).suffix == ".md" else iter(())
        for line, n in own:
            if n != numbers[page]:
                out.append(f"docs/{page}: '{line}': the page is number {numbers[page]} in nav")
    for section, pages in sections.items():  # an index page links its section's pages
        (title, index), *rest = pages
        if title or not index.endswith("/index.md") or not (docs / index).is_file():
            continue
        text = _read((docs / index).read_text(encoding="utf-8"))[1]
        hrefs = [m["href"] for pattern in (_ANY_LINK, _DEFINITION) for m in pattern.finditer(text)]
        linked = {_target(href.split("#")[0], index) for href in hrefs}
        for _, page in rest:
            if page not in linked and page.startswith(posixpath.dirname(index) + "/"):
                out.append(f"docs/{index}: the index of {section} does not link {page}")
    for path in sorted(docs.rglob("*")):
        if path.suffix in (".md", ".py") and "assets" not in path.parts:
            page = path.relative_to(docs).as_posix()
            out += _page_problems(path.read_text(encoding="utf-8"), page, numbers)
    return out


def check(docs: Path, nav: Any) -> dict[str, int]:
    """Each numbered page with its number; raise PageError naming every problem."""
    found = problems(docs, nav)
    if found:
        raise PageError("page numbers:\n  " + "\n  ".join(found))
    return numbered(nav)
