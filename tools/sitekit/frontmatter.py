"""A page's YAML front matter (the ``---`` block at its top), read without the engine.

The build's own modules read pages outside the engine's page events (the concept order from
``nav``, the recall cards, the page notebooks), so they cannot use the page's ``meta``. This is
the YAML part of what MkDocs 1.6 (and ProperDocs) do in ``mkdocs.utils.meta.get_data``, kept
here so that the build code does not import the engine's internals; every page of this site
starts with YAML front matter (tests/tools/test_frontmatter.py checks that, and that both read
every page alike). Same name and result as the engine's, so a module switches by its import.
"""

from __future__ import annotations

import copy
import functools
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
    meta = _load(match.group(1))
    if meta is None:
        return text, {}
    return text[match.end() :].lstrip("\n"), copy.deepcopy(meta)


@functools.lru_cache(maxsize=256)
def _load(block: str) -> dict[str, Any] | None:
    """The front matter as a mapping, or None; parsed once per text (the build reads every
    page's front matter in several places, and YAML is slow)."""
    try:
        meta = yaml.safe_load(block)
    except yaml.YAMLError:
        return None
    return meta if isinstance(meta, dict) else None
