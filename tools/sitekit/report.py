""" "Report a problem with this page": a link at the foot of every page that opens a new issue
in the project's repository, already filled in.

The issue's body names what a maintainer needs to find the claim: the page's address, its
source file, the page's check line (what its examples did when it was built, from
`sitekit.example_report.footer`) and the commit the site was built from
(`sitekit.provenance`). The repository is ``repo_url`` in ``mkdocs.yml``, the one place that
names it (the publishing workflow sets it, as it sets ``site_url``; README, "Publishing").

It is a plain link: it works without JavaScript, and nothing is requested until a reader
follows it.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

REPORT_CLASS = "page-report"
_TAG = re.compile(r"<[^>]+>")


def check_line(footer_html: str) -> str:
    """The text of the page's check line (its footer paragraph), or a sentence saying there is
    none."""
    text = " ".join(html.unescape(_TAG.sub("", footer_html)).split())
    return text or "(none: this page has no examples or code cells of its own)"


def issue_url(repo_url: str, *, address: str, source: str, check: str, commit: str) -> str:
    """A new issue in the repository at ``repo_url`` (a GitHub or GitLab address: both take
    ``title`` and ``body`` on ``/issues/new``), filled in for the page."""
    body = "\n".join(
        [
            f"Page: {address}",
            f"Source: {source}",
            f"Check line: {check}",
            f"Built from commit: {commit}",
            "",
            "The claim I doubt (quote it):",
            "",
            "",
            "Why I doubt it (what you ran or read, and what you got):",
            "",
        ]
    )
    query = urlencode({"title": f"Problem on {source}", "body": body})
    return f"{repo_url.rstrip('/')}/issues/new?{query}"


def link(repo_url: str | None, *, address: str, source: str, check: str, commit: str) -> str:
    """The paragraph with the link, or nothing when no repository is configured."""
    if not repo_url:
        return ""
    url = issue_url(repo_url, address=address, source=source, check=check, commit=commit)
    return (
        f'\n<p class="{REPORT_CLASS}"><a href="{html.escape(url)}" rel="nofollow">'
        "Report a problem with this page</a>: a claim that looks wrong, a snippet that does not"
        " run for you, a figure that says something else.</p>\n"
    )
