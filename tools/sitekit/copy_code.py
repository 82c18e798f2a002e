"""Copy-friendly code: a block of ``>>>`` examples copies as the code alone.

Material's copy button copies the ``data-copy`` attribute of the nearest enclosing element when
there is one. Each highlighted block whose text starts with ``>>>`` gets ``data-copy`` set to
its runnable code: prompts stripped, expected output left out.
"""

from __future__ import annotations

import html
import re

from sitekit.page_model import doctest_to_code

_BLOCK = re.compile(
    r'<div class="(?P<cls>[^"]*\bhighlight\b[^"]*)"(?P<rest>[^>]*)>(?P<body>.*?)</div>', re.S
)
_TAG = re.compile(r"<[^>]+>")


def add_copy_text(page_html: str) -> str:
    def rewrite(m: re.Match[str]) -> str:
        if "data-copy=" in m.group("rest"):
            return m.group(0)
        code = m.group("body")
        start = code.find("<code")
        text = html.unescape(_TAG.sub("", code[start:] if start >= 0 else code))
        if not text.lstrip().startswith(">>>"):
            return m.group(0)
        runnable = html.escape(doctest_to_code(text), quote=True)
        return (
            f'<div class="{m.group("cls")}"{m.group("rest")} data-copy="{runnable}">'
            f"{m.group('body')}</div>"
        )

    return _BLOCK.sub(rewrite, page_html)
