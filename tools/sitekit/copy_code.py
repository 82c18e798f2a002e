"""Copy-friendly code: a block of ``>>>`` examples copies as the code alone.

Material's copy button copies the ``data-copy`` attribute of the nearest enclosing element when
there is one. Each highlighted block whose text starts with ``>>>`` gets ``data-copy`` set to
its runnable code: prompts stripped, expected output left out. The blocks are found by a parser
(`sitekit.html_elements`), so a block whose content nests elements of its own kind is taken
whole.
"""

from __future__ import annotations

import html
import re

from sitekit.html_elements import elements, has_class, outermost, replace
from sitekit.page_model import doctest_to_code

_TAG = re.compile(r"<[^>]+>")


def add_copy_text(page_html: str) -> str:
    edits = []
    for block in outermost(elements(page_html, has_class("highlight"))):
        if "data-copy" in block.attrs:
            continue
        body = block.inner(page_html)
        start = body.find("<code")
        text = html.unescape(_TAG.sub("", body[start:] if start >= 0 else body))
        if not text.lstrip().startswith(">>>"):
            continue
        runnable = html.escape(doctest_to_code(text), quote=True)
        tag = block.start_tag(page_html)
        tag = tag[: -len("/>")] if tag.endswith("/>") else tag[:-1]
        edits.append((block.start, block.inner_start, f'{tag} data-copy="{runnable}">'))
    return replace(page_html, edits)
