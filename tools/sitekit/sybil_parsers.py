"""How Sybil reads paperlens pages.

Sybil's stock Markdown parser runs only fences whose info string is exactly ``python``; a
fence such as ```` ```python title="shift" ```` (a Material feature readers see) would be
skipped silently. Here the info string's first word is the language and the rest (title,
line numbers, highlighting) is ignored, so every ``python`` fence runs. Other spellings of
Python (``py``, ``pycon``, ``python3``, ``{.python}``) are rejected by ``tests/docs``.
"""

from __future__ import annotations

import re

from sybil.parsers.abstract import AbstractCodeBlockParser
from sybil.parsers.abstract.codeblock import PythonDocTestOrCodeBlockParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, RawFencedCodeBlockLexer
from sybil.typing import Evaluator

# The first word of a fence's info string, then anything (attributes) up to the line end.
INFO = re.compile(r"(?P<language>[^\s{}]+)(?:[ \t][^\n]*)?$\n", re.MULTILINE)


class _FenceParser(AbstractCodeBlockParser):
    def __init__(self, language: str | None = None, evaluator: Evaluator | None = None) -> None:
        super().__init__(
            [
                RawFencedCodeBlockLexer(
                    info_pattern=INFO, mapping={"language": "arguments", "source": "source"}
                ),
                DirectiveInHTMLCommentLexer(
                    directive=r"(invisible-)?code(-block)?", arguments=".+"
                ),
            ],
            language,
            evaluator,
        )


class PythonBlockParser(PythonDocTestOrCodeBlockParser):
    """Runs every ``python`` fence (with or without attributes) and invisible code block;
    a fence whose code starts with ``>>>`` is checked as doctest examples."""

    codeblock_parser_class = _FenceParser
