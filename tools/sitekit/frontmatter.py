"""A page's YAML front matter (the ``---`` block at its top), read without the engine.

The build's own modules read pages outside the engine's page events (the concept order from
``nav``, the recall cards, the page notebooks), so they cannot use the page's ``meta``. This is
the YAML part of what MkDocs 1.6 (and ProperDocs) do in ``mkdocs.utils.meta.get_data``, kept
here so that the build code does not import the engine's internals; every page of this site
starts with YAML front matter (tests/tools/test_frontmatter.py checks that, and that both read
every page alike). Same name and result as the engine's, so a module switches by its import.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_YAML = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


def get_data(text: str) -> tuple[str, dict[str, Any]]:
    """``(body, meta)``: the page without its front matter, and the front matter (``{}`` when
    there is none, or when it is not a YAML mapping, as the engine does)."""
    match = _YAML.match(text)
    if not match:
        return text, {}
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return text, {}
    if not isinstance(meta, dict):
        return text, {}
    return text[match.end() :].lstrip("\n"), meta
