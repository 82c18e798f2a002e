"""The fast edit loop of ``make serve``: rebuild only the pages an edit touches.

``make serve`` runs the engine's dirty builds (``serve --dirty``): after the first, full build,
a rebuild renders only the pages whose source is newer than their HTML. On its own that is
wrong for this site, where a page's HTML also depends on things outside its source: the
library (its examples' outcome, its notebook's run), the figures' alt text, the glossary, the
theme. So each rebuild computes, for every page, a key of everything its HTML depends on, and
removes the HTML of every page whose key changed since the last build; the engine then
rebuilds those too. An edit to anything that every page shares (the configuration, the
theme, the build code, the set of pages) rebuilds them all. ``make site`` is always a full,
clean build and never comes here.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping

from sitekit.figures import hash_files

# Everything every page's HTML depends on besides its own inputs.
SHARED = (
    "mkdocs.yml",
    "overrides/**/*",
    "includes/**/*",
    "tools/mkdocs_hooks.py",
    "tools/sitekit/**/*.py",
    "tools/sitekit/*.js",
    "docs/assets/**/*",
)
DIRTY_WARNING = "A 'dirty' build is being performed"


class _DropDirtyWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return DIRTY_WARNING not in record.getMessage()


def allow_dirty_builds() -> None:
    """The engine warns on every dirty build that navigation may be inaccurate, which
    ``--strict`` turns into an aborted rebuild. Here pages are rebuilt whenever anything they
    show changes (:func:`outdated`), so the warning does not apply; it is dropped."""
    for name in ("properdocs.commands.build", "mkdocs.commands.build"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DropDirtyWarning) for f in logger.filters):
            logger.addFilter(_DropDirtyWarning())


def shared_key(pages: Iterable[str], extra: Iterable[str] = ()) -> str:
    """A key of what every page shares: the files in `SHARED`, the list of pages (the nav
    and the links between pages), and ``extra`` (such as every figure's alt text)."""
    digest = hashlib.sha256(hash_files(SHARED).encode())
    for part in (*sorted(pages), "\0", *extra):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def outdated(
    keys: Mapping[str, str], previous: Mapping[str, str], shared: str, previous_shared: str
) -> list[str]:
    """The pages whose HTML must be rebuilt although their source may be unchanged."""
    if shared != previous_shared:
        return sorted(keys)
    return sorted(page for page, key in keys.items() if previous.get(page) != key)
