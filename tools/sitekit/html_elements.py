"""Where elements start and end in a page's HTML, so the build can edit them in place.

A regular expression alone cannot match an element whose content nests elements of its own
kind: a ``<div>`` found with ``(.*?)</div>`` stops at the first nested ``</div>``. `elements`
finds each wanted element's start tag, then pairs it with its end tag by counting the tags of
its name opened and closed after it (comments skipped), so nested ones are paired correctly;
the caller edits the text between the offsets it returns and leaves every other byte as it was.
It reads HTML as the build and Python-Markdown write it: every element of that name closed, and
no ``<`` in text or attribute values unescaped.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

_ATTR = re.compile(r"""([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")


@dataclass(frozen=True)
class Element:
    tag: str
    attrs: dict[str, str]
    start: int  # offset of its start tag's "<"
    inner_start: int  # just after its start tag
    inner_end: int  # at its end tag's "<"
    end: int  # just after its end tag

    def start_tag(self, page: str) -> str:
        return page[self.start : self.inner_start]

    def inner(self, page: str) -> str:
        return page[self.inner_start : self.inner_end]


@functools.cache
def _tags(tag: str) -> re.Pattern[str]:
    """Comments, and the start and end tags named ``tag``."""
    return re.compile(rf"<!--.*?-->|<(/?){re.escape(tag)}\b([^>]*)>", re.S | re.I)


def attributes(text: str) -> dict[str, str]:
    """The attributes of a start tag's text after its name."""
    out = {}
    for m in _ATTR.finditer(text.rstrip("/")):
        value = next((g for g in m.groups()[1:] if g is not None), "")
        out[m.group(1).lower()] = html.unescape(value)
    return out


def elements(page: str, tag: str, cls: str | None = None) -> list[Element]:
    """The elements named ``tag`` (with ``cls`` among their classes, when given) in ``page``,
    outermost first, none inside another of them; an element never closed is left out."""
    pattern = _tags(tag)
    found: list[Element] = []
    opened: list[tuple[int, int, dict[str, str], bool]] = []  # start, inner start, attrs, wanted
    for m in pattern.finditer(page):
        if m.group(0).startswith("<!--"):
            continue
        if not m.group(1):  # a start tag
            if m.group(2).rstrip().endswith("/"):
                continue  # <tag ... />: no content
            attrs = attributes(m.group(2))
            wanted = cls is None or cls in attrs.get("class", "").split()
            inside = any(w for *_, w in opened)
            opened.append((m.start(), m.end(), attrs, wanted and not inside))
            continue
        if not opened:
            continue
        start, inner_start, attrs, wanted = opened.pop()
        if wanted:
            found.append(Element(tag, attrs, start, inner_start, m.start(), m.end()))
    return sorted(found, key=lambda e: e.start)


def replace(page: str, edits: list[tuple[int, int, str]]) -> str:
    """``page`` with each ``(start, end, text)`` put in place of ``page[start:end]`` (the spans
    must not overlap)."""
    out, done = [], 0
    for start, end, text in sorted(edits):
        out += [page[done:start], text]
        done = end
    return "".join(out) + page[done:]
