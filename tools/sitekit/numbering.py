"""Page numbers and lists of pages, checked against ``nav``: none goes stale by hand.

A page's number is its place in ``nav``: a section's numbered titles (``2. Matrices``) run
1, 2, 3, ... in reading order, with no unnumbered page among them. What the pages write from
those numbers is checked against them, in every page of ``docs/`` (Markdown and notebooks),
code blocks included:

- a link whose text starts with the number: ``[§5](dot-product.md)``, ``[§7 Saturation](...)``,
  ``[Step 4](step-4-variance-adds.md)``;
- ``§N`` followed by a numbered page's title: ``## §1 Scalars and vectors``, ``from §5 Dot
  product`` (in a code comment, where a link cannot go);
- a table row or a numbered list item that starts with a number and links a numbered page:
  ``| 3 | [Functions](functions.md) |``, ``3. [At initialisation ...](step-3-random-scores.md)``;
- a file named ``step-N-...`` has the number N in ``nav``, and a numbered page that writes its
  own number, in its front matter's title (``Step 4: ...``) or its heading (``# 2. Matrices``),
  writes that one.

Any other ``§N`` with a whole number is an error: the check cannot tell which page it means,
so it must be written as one of the forms above. A paper's sections are not the site's:
``§3.2.1`` (with a dot) is left alone everywhere, and so is every ``§N`` inside a citation
(``[@he2016resnet, §1]``, `sitekit.citations`) and every ``§N`` in ``docs/reproduce/``,
whose pages cite the sections of the papers they reproduce (they link Foundations pages when
they mean them, and those links are checked).

And a section's index page (the first, untitled entry of a ``nav`` section, such as
``foundations/index.md``) links every other page of its section: a page added to ``nav`` and
missing from the index's list fails, naming both. A list of numbered pages (table rows or
numbered items, one after the other) is in ``nav``'s order. A count of a section's numbered
pages written in words ("Eight short pages", "the seven steps": a number, one word at most,
then pages, sections or steps), on the section's index page or on a line that links it, is
the number of them in ``nav``.

Run ``python -m sitekit.numbering`` to check, or ``python -m sitekit.numbering --fix`` to
renumber: it rewrites the numbers of ``nav`` in ``mkdocs.yml`` from the pages' order, and
every checked form above that its target's new number makes stale. Bare ``§N`` and
``step-N`` file names it leaves to you, and says where.
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitekit import PageError, citations
from sitekit.concepts import nav_pages, read_config
from sitekit.frontmatter import get_data
from sitekit.paths import ROOT

PAPER_PAGES = ("reproduce/",)  # pages that cite papers' sections: bare §N is the paper's
_NUMBERED = re.compile(r"^(?P<n>\d+)\.\s+(?P<title>.+)$")
_LINK = re.compile(r"\[(?P<text>[^\]\n]*)\]\((?P<href>[^)\s]+)\)")
_LINK_NUMBER = re.compile(r"^(?P<word>§|[Ss]tep )(?P<n>\d+)(?![\d.])")
_SECTION = re.compile(r"§(?P<n>\d+)(?P<dotted>\.\d)?")
_ROW = re.compile(r"^\|\s*(?P<n>\d+)\s*\|")
_ITEM = re.compile(r"^(?P<indent>\s*)(?P<n>\d+)\.\s+\[")
_STEP_FILE = re.compile(r"(?:^|/)step-(?P<n>\d+)-[^/]*$")
_NAV_LINE = re.compile(r"^(?P<lead>\s*-\s*)(?P<title>[^:\n]+?):\s*(?P<page>\S+)\s*$")


@dataclass(frozen=True)
class Entry:
    """One page of a ``nav`` section."""

    section: str
    page: str  # relative to docs/
    title: str  # as written in nav, without its number
    written: int | None  # the number written in its nav title
    number: int | None  # the number its place gives it (None: an unnumbered page)


@dataclass(frozen=True)
class Problem:
    where: str  # file:line
    message: str
    old: str = ""  # what --fix replaces on that line, and with what
    new: str = ""

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def sections(nav: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """``(section title, [(title, page), ...])`` for each top-level section of ``nav``."""
    out = []
    for item in nav:
        if isinstance(item, dict):
            for name, value in item.items():
                if isinstance(value, list):
                    out.append((str(name), nav_pages(value)))
    return out


def entries(nav: Any) -> list[Entry]:
    """Every page of every section, with the number its place gives it: a section's pages
    from its first numbered title to its last are numbered 1, 2, 3, ... in order."""
    found: list[Entry] = []
    for section, pages in sections(nav):
        written = []
        for title, _ in pages:
            m = _NUMBERED.match(title)
            written.append((int(m["n"]), m["title"]) if m else (None, title))
        numbered = [i for i, (n, _) in enumerate(written) if n is not None]
        run = range(numbered[0], numbered[-1] + 1) if numbered else range(0)
        for i, ((n, title), (_, page)) in enumerate(zip(written, pages, strict=True)):
            number = run.index(i) + 1 if i in run else None
            found.append(Entry(section, page, title, n, number))
    return found


def _targets(entries_: list[Entry]) -> dict[str, Entry]:
    return {e.page: e for e in entries_ if e.number is not None}


def _resolve(href: str, page: str) -> str:
    """A link's target page, relative to docs/, from the page that writes it."""
    path = href.split("#", 1)[0]
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page


def _titles(docs: Path, numbered: dict[str, Entry]) -> list[tuple[str, Entry]]:
    """Every name a numbered page goes by (its nav title, its front matter's title), longest
    first, lower case."""
    out = []
    for entry in numbered.values():
        names = {entry.title}
        path = docs / entry.page
        if path.suffix == ".md" and path.is_file():
            _, meta = get_data(path.read_text(encoding="utf-8"))
            names.add(str(meta.get("title", entry.title)))
        out += [(name.lower(), entry) for name in names if name]
    return sorted(out, key=lambda t: -len(t[0]))


def _line_problems(
    page: str, number: int, line: str, numbered: dict[str, Entry], titles: list[tuple[str, Entry]]
) -> Iterator[Problem]:
    where = f"docs/{page}:{number}"
    linked: set[int] = set()  # where a § sits inside a link's text (checked as a link)
    for m in _LINK.finditer(line):
        linked.update(range(m.start("text"), m.end("text")))
        label = _LINK_NUMBER.match(m["text"])
        if label is None:
            continue
        target = numbered.get(_resolve(m["href"], page))
        wrote = int(label["n"])
        if target is None:
            yield Problem(
                where, f"'{m[0]}' gives a number, but {m['href']} is not a numbered page of nav"
            )
        elif target.number != wrote:
            old = m[0]
            new = (
                "["
                + m["text"].replace(str(wrote), str(target.number), 1)
                + old[len(m["text"]) + 1 :]
            )
            yield Problem(
                where,
                f"'{old}': {target.page} is {label['word']}{target.number} in nav",
                old,
                new,
            )
    for pattern in (_ROW, _ITEM):
        row = pattern.match(line)
        link = _LINK.search(line)
        if row is None or link is None:
            continue
        target = numbered.get(_resolve(link["href"], page))
        if target is not None and target.number != int(row["n"]):
            old = line[: row.end()]
            new = old.replace(row["n"], str(target.number), 1)
            yield Problem(
                where,
                f"the row numbered {row['n']} links {target.page}, number {target.number}",
                old,
                new,
            )
    if page.startswith(PAPER_PAGES):
        return
    for m in citations.MARKER.finditer(line):  # a citation's location is the paper's
        linked.update(range(m.start(), m.end()))
    for m in _SECTION.finditer(line):
        if m.start() in linked or m["dotted"]:
            continue
        after = line[m.end() :].lstrip(" ").lower()
        name, titled = next(((n, e) for n, e in titles if after.startswith(n)), ("", None))
        wrote = int(m["n"])
        if titled is None:
            yield Problem(
                where,
                f"'{m[0]}' names no page the check can follow: link it, [{m[0]}](page.md), or"
                f" write the page's title after it, '{m[0]} Title'",
            )
        elif titled.number != wrote:
            text = line[m.start() : len(line) - len(after) + len(name)]
            yield Problem(
                where,
                f"'{text}': {titled.page} is §{titled.number} in nav",
                m[0],
                f"§{titled.number}",
            )


_OWN = re.compile(r"^(?P<lead>#\s+|title:\s*[\"']?)(?P<word>Step |§)?(?P<n>\d+)(?P<sep>[.:])\s")


def _own_number(docs: Path, entry: Entry) -> Iterator[Problem]:
    """A numbered page that writes its own number, in its title (``title: "Step 4: ..."``) or
    its heading (``# 2. Matrices: ...``), writes the one ``nav`` gives it."""
    path = docs / entry.page
    if path.suffix != ".md" or not path.is_file():
        return
    heading_seen = False
    for number, line in _lines(path):
        if line.startswith("# "):
            if heading_seen:
                continue  # the page's title is its first heading; later ones are code comments
            heading_seen = True
        elif not line.startswith("title:"):
            continue
        m = _OWN.match(line)
        if m is not None and int(m["n"]) != entry.number:
            old = line[: m.end("sep")]
            new = f"{m['lead']}{m['word'] or ''}{entry.number}{m['sep']}"
            yield Problem(
                f"docs/{entry.page}:{number}",
                f"'{line.strip()[:60]}': the page is number {entry.number} in nav",
                old,
                new,
            )


def _index_problems(docs: Path, nav: Any) -> Iterator[Problem]:
    """A section's index page links every other page of the section."""
    for section, pages in sections(nav):
        if not pages or pages[0][0] or not pages[0][1].endswith("/index.md"):
            continue
        index = pages[0][1]
        if not (docs / index).is_file():
            yield Problem(f"docs/{index}", f"{section}'s index page is in nav but not in docs/")
            continue
        text = (docs / index).read_text(encoding="utf-8")
        linked = {_resolve(m["href"], index) for m in _LINK.finditer(text)}
        for title, page in pages[1:]:
            if page not in linked and page.startswith(posixpath.dirname(index) + "/"):
                name = _NUMBERED.sub(r"\g<title>", title)
                yield Problem(
                    f"docs/{index}",
                    f"the index of {section} does not link '{name}' ({page}): add it to the"
                    " list of the section's pages",
                )


def _order_problems(
    page: str, lines: list[tuple[int, str]], numbered: dict[str, Entry]
) -> Iterator[Problem]:
    """Numbered rows or items one after the other, linking numbered pages, in nav's order."""
    last: Entry | None = None
    for number, line in lines:
        link = _LINK.search(line)
        row = _ROW.match(line) or _ITEM.match(line)
        target = numbered.get(_resolve(link["href"], page)) if row and link else None
        if target is None or target.number is None:
            last = None if not row else last
            continue
        if last is not None and last.number is not None and last.section == target.section:
            if target.number < last.number:
                yield Problem(
                    f"docs/{page}:{number}",
                    f"the row linking {target.page} (number {target.number}) comes after the"
                    f" one linking {last.page} (number {last.number}): put the rows in nav's"
                    " order",
                )
        last = target


_COUNTS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    " fifteen sixteen seventeen eighteen nineteen twenty"
).split()
_COUNT = re.compile(
    r"\b(?P<n>"
    + "|".join(_COUNTS)
    + r"|\d+)(?:\s+(?P<between>[A-Za-z]+))?\s+(?:pages|sections|steps)\b",
    re.I,
)


def _count_problems(
    pages: dict[str, list[tuple[int, str]]], nav: Any, found: list[Entry]
) -> Iterator[Problem]:
    """A count of a section's numbered pages, on its index page, on a line linking it, or
    naming the section ("the eight Foundations sections")."""
    counts = {}
    for section, listed in sections(nav):
        total = max((e.number or 0 for e in found if e.section == section), default=0)
        if total and listed and not listed[0][0] and listed[0][1].endswith("/index.md"):
            counts[listed[0][1]] = (section, total)
    by_name = {section.lower(): index for index, (section, _) in counts.items()}
    for page, lines in pages.items():
        for number, line in lines:
            about = [page] if page in counts else []
            about += [_resolve(m["href"], page) for m in _LINK.finditer(line)]
            index = next((i for i in about if i in counts), None)
            for m in _COUNT.finditer(line):
                named = by_name.get((m["between"] or "").lower())  # "eight Foundations sections"
                key = named if named is not None else index
                if key is None:
                    continue
                section, total = counts[key]
                wrote = m["n"]
                n = int(wrote) if wrote.isdigit() else _COUNTS.index(wrote.lower())
                if n == total:
                    continue
                right = str(total) if wrote.isdigit() or total >= len(_COUNTS) else _COUNTS[total]
                right = right.capitalize() if wrote[0].isupper() else right
                yield Problem(
                    f"docs/{page}:{number}",
                    f"'{m[0]}': {section} has {total} numbered pages in nav",
                    m[0],
                    right + m[0][len(wrote) :],
                )


def pages_to_scan(docs: Path) -> list[Path]:
    return sorted(
        p for p in docs.rglob("*") if p.suffix in (".md", ".py") and "assets" not in p.parts
    )


def problems(docs: Path, nav: Any, config_file: Path) -> list[Problem]:
    """Every number or list of pages that disagrees with ``nav``."""
    found = entries(nav)
    numbered = _targets(found)
    nav_lines = _nav_lines(config_file)
    out = []
    for entry in found:
        where = f"{config_file.name}:{nav_lines.get(entry.page, 0)}"
        right = f"{entry.number}. {entry.title}" if entry.number else entry.title
        if entry.written != entry.number:
            wrote = f"{entry.written}. {entry.title}" if entry.written else entry.title
            out.append(
                Problem(
                    where,
                    f"'{wrote}' is page {entry.number} of the numbered pages of {entry.section}"
                    f" in nav: write '{right}'",
                    f"- {wrote}:",
                    f"- {right}:",
                )
            )
        step = _STEP_FILE.search(entry.page)
        if step and int(step["n"]) != entry.number:
            out.append(
                Problem(
                    where,
                    f"{entry.page} is named step {step['n']} but is number {entry.number} in nav:"
                    " rename the file (and its figures' folder), or move it",
                )
            )
    for entry in numbered.values():
        out += _own_number(docs, entry)
    titles = _titles(docs, numbered)
    pages = {p.relative_to(docs).as_posix(): list(_lines(p)) for p in pages_to_scan(docs)}
    for page, lines in pages.items():
        for number, line in lines:
            out += _line_problems(page, number, line, numbered, titles)
        out += _order_problems(page, lines, numbered)
    out += _index_problems(docs, nav)
    out += _count_problems(pages, nav, found)
    return out


_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"`[^`\n]*`")


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """A page's lines, numbered from 1; in Markdown, inline code is blanked (what it shows is
    an example, not a reference), while code blocks are read as they are (a comment there
    may name a page, `§5 Dot product`)."""
    fence = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if path.suffix == ".md":
            m = _FENCE.match(line)
            if m and (not fence or m[1].startswith(fence)):
                fence = "" if fence else m[1]
            elif not fence:
                line = _CODE_SPAN.sub(lambda c: " " * len(c[0]), line)
        yield number, line


def _nav_lines(config_file: Path) -> dict[str, int]:
    """The line of ``mkdocs.yml`` that lists each page in ``nav``."""
    lines: dict[str, int] = {}
    for number, line in enumerate(config_file.read_text(encoding="utf-8").splitlines(), 1):
        m = _NAV_LINE.match(line)
        if m and m["page"].endswith((".md", ".py")):
            lines.setdefault(m["page"], number)
    return lines


def check(docs: Path, nav: Any, config_file: Path) -> None:
    """Raise PageError naming every file and line whose number or list is stale."""
    found = problems(docs, nav, config_file)
    if found:
        fixable = any(p.old for p in found)
        hint = "\n  `.venv/bin/python -m sitekit.numbering --fix` renumbers" if fixable else ""
        raise PageError(
            "page numbers out of date with nav:\n  " + "\n  ".join(map(str, found)) + hint
        )


def fix(docs: Path, nav: Any, config_file: Path) -> list[Problem]:
    """Rewrite every stale number that `problems` can rewrite; return those it cannot."""
    left = []
    edits: dict[Path, dict[int, list[Problem]]] = {}
    for problem in problems(docs, nav, config_file):
        file, _, line = problem.where.rpartition(":")
        if not problem.old or not line.isdigit():
            left.append(problem)
            continue
        path = config_file if file == config_file.name else docs.parent / file
        edits.setdefault(path, {}).setdefault(int(line), []).append(problem)
    for path, by_line in edits.items():
        lines = path.read_text(encoding="utf-8").split("\n")
        for number, fixes in by_line.items():
            for problem in fixes:
                lines[number - 1] = lines[number - 1].replace(problem.old, problem.new, 1)
        path.write_text("\n".join(lines), encoding="utf-8")
    return left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sitekit.numbering", description=__doc__)
    parser.add_argument("--fix", action="store_true", help="renumber from nav's order")
    parser.add_argument("--config", type=Path, default=ROOT / "mkdocs.yml")
    args = parser.parse_args(argv)
    config = read_config(args.config)
    docs = args.config.parent / config.get("docs_dir", "docs")
    if args.fix:
        left = fix(docs, config["nav"], args.config)  # numbers come from nav's order
        if left:
            print("left for you to fix:\n  " + "\n  ".join(map(str, left)), file=sys.stderr)
            return 1
        print("page numbers agree with nav")
        return 0
    try:
        check(docs, config["nav"], args.config)
    except PageError as err:
        print(err, file=sys.stderr)
        return 1
    print("page numbers agree with nav")
    return 0


if __name__ == "__main__":
    sys.exit(main())
