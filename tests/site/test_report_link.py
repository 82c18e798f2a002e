"""Every page's "Report a problem with this page" link (sitekit.report), as built: a new issue in
the repository that repo_url names, filled in with the page's address, its source, its check
line and the commit the site was built from."""

import re
import shutil
import subprocess
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from sitekit import concepts, print_edition, proof
from sitekit.paths import ROOT

LINK = re.compile(r'<p class="page-report"><a href="([^"]+)"')
CHECK = re.compile(r'<p class="page-checked"[^>]*>(.*?)</p>', re.S)
CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)"')
PRINT_PAGES = {f"{folder}/print/index.html" for folder in print_edition.SECTIONS}


@pytest.fixture(scope="module")
def commit():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()

    head = git("rev-parse", "HEAD")
    return f"{head}, with uncommitted changes" if git("status", "--porcelain", "-uno") else head


def test_every_page_links_a_filled_in_issue_in_the_configured_repository(site, pages, commit):
    repo = concepts.read_config()
    assert "repo_url" in repo, "mkdocs.yml names the repository in repo_url"
    checked = 0
    for name in pages:
        if name == "404.html" or name in PRINT_PAGES:
            continue
        text = (site / name).read_text(encoding="utf-8")
        links = LINK.findall(text)
        assert len(links) == 1, f"{name}: {len(links)} report links"
        url = urlsplit(unescape(links[0]))
        assert url.path.endswith("/issues/new"), name
        fields = dict(
            line.split(": ", 1)
            for line in parse_qs(url.query)["body"][0].splitlines()
            if ": " in line
        )
        (facts,) = proof.read(site / name)
        assert fields["Source"] == facts["source"], name
        assert fields["Page"] == CANONICAL.search(text).group(1), name
        check = CHECK.search(text)
        if check:
            assert fields["Check line"] == " ".join(
                unescape(re.sub(r"<[^>]+>", "", check.group(1))).split()
            )
        else:
            assert fields["Check line"].startswith("(none")
        if commit is not None:  # the session's build is of this checkout
            assert fields["Built from commit"] == commit, name
        else:
            assert fields["Built from commit"].startswith("unknown"), name
        checked += 1
    assert checked >= 30
