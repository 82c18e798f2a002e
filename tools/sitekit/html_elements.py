"""Where elements start and end in a page's HTML, found by a parser, so the build can edit
them in place.

A regular expression cannot match an element whose content nests elements of its own kind: a
``<div>`` found with ``(.*?)</div>`` stops at the first nested ``</div>``. `elements` reads the
HTML with the standard library's parser and returns each wanted element's offsets, start tag,
attributes and content, nested ones paired correctly; the caller edits the text between those
offsets and leaves every other byte as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

# Elements that have no end tag.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip


@dataclass(frozen=True)
class Element:
    tag: str
    attrs: dict[str, str]
    start: int  # offset of its start tag's "<"
    inner_start: int  # just after its start tag
    inner_end: int  # at its end tag's "<" (inner_start for a void element)
    end: int  # just after its end tag

    def start_tag(self, html: str) -> str:
        return html[self.start : self.inner_start]

    def inner(self, html: str) -> str:
        return html[self.inner_start : self.inner_end]


class _Finder(HTMLParser):
    def __init__(self, html: str, wanted: Callable[[str, dict[str, str]], bool]) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.wanted = wanted
        self.lines = [0] + [i + 1 for i, c in enumerate(html) if c == "\n"]
        self.open: list[tuple[str, dict[str, str], int, int, bool]] = []
        self.found: list[Element] = []

    def _at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._at()
        text = self.get_starttag_text() or ""
        a = {k: v or "" for k, v in attrs}
        wanted = self.wanted(tag, a)
        if tag in VOID:
            if wanted:
                end = start + len(text)
                self.found.append(Element(tag, a, start, end, end, end))
            return
        self.open.append((tag, a, start, start + len(text), wanted))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._at()
        a = {k: v or "" for k, v in attrs}
        if self.wanted(tag, a):
            end = start + len(self.get_starttag_text() or "")
            self.found.append(Element(tag, a, start, end, end, end))

    def handle_endtag(self, tag: str) -> None:
        at = self._at()
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] != tag:
                continue
            name, a, start, inner_start, wanted = self.open[i]
            del self.open[i:]  # elements left open inside it end with it
            if wanted:
                end = self.html.index(">", at) + 1
                self.found.append(Element(name, a, start, inner_start, at, end))
            return


def elements(html: str, wanted: Callable[[str, dict[str, str]], bool]) -> list[Element]:
    """The elements of ``html`` for which ``wanted(tag, attributes)`` holds, in document order
    (an element inside another comes after it); an element never closed is left out."""
    finder = _Finder(html, wanted)
    finder.feed(html)
    finder.close()
    return sorted(finder.found, key=lambda e: e.start)


def outermost(found: list[Element]) -> list[Element]:
    """``found`` without the elements that lie inside another of them."""
    out: list[Element] = []
    for element in found:
        if not out or element.start >= out[-1].end:
            out.append(element)
    return out


def has_class(name: str) -> Callable[[str, dict[str, str]], bool]:
    """A `wanted` test: any element whose ``class`` attribute holds ``name``."""
    return lambda tag, attrs: name in attrs.get("class", "").split()


def replace(html: str, edits: list[tuple[int, int, str]]) -> str:
    """``html`` with each ``(start, end, text)`` put in place of ``html[start:end]`` (the
    spans must not overlap)."""
    out, done = [], 0
    for start, end, text in sorted(edits):
        out += [html[done:start], text]
        done = end
    return "".join(out) + html[done:]
