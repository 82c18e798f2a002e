"""Where a build comes from: the commit of the sources, read once per build.

The commit goes into every page's "Report a problem" link (`sitekit.report`), so a reader's
report names the exact sources they read, and its time is the modification time of every note
of the Anki deck (`sitekit.cards`), so a deck built from a later commit updates the notes a
reader imported before (Anki updates a note only when the incoming one is newer).

Read from git (``git rev-parse HEAD``) when the sources are a git checkout; a checkout whose
tracked files have changes not yet committed says so ("<sha>, with uncommitted changes"). A
tarball made by ``git archive`` (which is also what a forge's "download the source" gives) has
no ``.git``: ``commit.txt`` beside this module is marked ``export-subst`` in ``.gitattributes``, so
``git archive`` writes the commit and its time into it. A copy of the files without either (a
plain ``cp``, a tarball made by hand) is built as "unknown commit": the report link says so,
and the deck's notes take ``SOURCE_DATE_EPOCH`` as their time.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sitekit.paths import ROOT

# Written by `git archive` (export-subst): "$Format:%H %ct$" becomes "<sha> <unix time>".
ARCHIVE_FILE = Path(__file__).with_name("commit.txt")
_SUBSTITUTED = re.compile(r"^(?P<sha>[0-9a-f]{40}) (?P<time>\d+)$")


@dataclass(frozen=True)
class Commit:
    sha: str | None  # None: the sources are neither a git checkout nor a `git archive` tarball
    time: int  # the commit's time (Unix seconds), else SOURCE_DATE_EPOCH
    source: str  # "git", "archive" or "unknown"
    changed: bool = False  # a checkout with changes to tracked files, not yet committed

    @property
    def label(self) -> str:
        if self.sha is None:
            return "unknown (built from sources without git history)"
        return f"{self.sha}, with uncommitted changes" if self.changed else self.sha


def _source_date_epoch() -> int:
    return int(os.environ.get("SOURCE_DATE_EPOCH", "0") or 0)


def _git(*args: str, root: Path) -> str | None:
    try:
        result = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def commit(root: Path = ROOT, archive_file: Path = ARCHIVE_FILE) -> Commit:
    """The commit the sources at ``root`` were checked out (or archived) from."""
    if (root / ".git").exists():
        found = _git("show", "-s", "--format=%H %ct", "HEAD", root=root)
        m = _SUBSTITUTED.match(found or "")
        if m:
            changed = bool(_git("status", "--porcelain", "--untracked-files=no", root=root))
            return Commit(m.group("sha"), int(m.group("time")), "git", changed)
    if archive_file.is_file():
        m = _SUBSTITUTED.match(archive_file.read_text(encoding="utf-8").strip())
        if m:
            return Commit(m.group("sha"), int(m.group("time")), "archive")
    return Commit(None, _source_date_epoch(), "unknown")
