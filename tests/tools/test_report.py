"""The "Report a problem with this page" link (sitekit.report) and the commit it names
(sitekit.provenance)."""

import shutil
import subprocess
import tarfile
from urllib.parse import parse_qs, urlsplit

import pytest

from sitekit import provenance, report
from sitekit.paths import ROOT


def test_the_issue_is_filled_in_with_the_page_its_source_its_check_line_and_the_commit():
    url = report.issue_url(
        "https://github.com/o/r/",
        address="https://x.org/foundations/softmax/",
        source="docs/foundations/softmax.md",
        check="6 examples on this page ran and passed when it was built, with NumPy 2.4.6.",
        commit="0" * 40,
    )
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "github.com", "/o/r/issues/new")
    query = parse_qs(parts.query)
    assert query["title"] == ["Problem on docs/foundations/softmax.md"]
    body = query["body"][0].splitlines()
    assert body[:4] == [
        "Page: https://x.org/foundations/softmax/",
        "Source: docs/foundations/softmax.md",
        "Check line: 6 examples on this page ran and passed when it was built, with NumPy 2.4.6.",
        "Built from commit: " + "0" * 40,
    ]


def test_the_check_line_is_the_footer_text_and_a_page_without_one_says_so():
    footer = '\n<p class="page-checked" data-examples="2">2 examples &amp; <b>more</b>.</p>\n'
    assert report.check_line(footer) == "2 examples & more."
    assert report.check_line("").startswith("(none")


def test_no_repository_no_link_and_the_link_is_escaped_for_html():
    assert report.link(None, address="a", source="s", check="c", commit="x") == ""
    paragraph = report.link("https://g/o/r", address="a", source="s", check="c", commit="x")
    assert 'href="https://g/o/r/issues/new?title=Problem+on+s&amp;body=' in paragraph


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)


@pytest.fixture(scope="module")
def head():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the sources are not a git checkout")
    return git("rev-parse", "HEAD").stdout.strip()


def test_a_checkout_gives_its_head_commit_and_says_when_it_has_changes(head, tmp_path):
    found = provenance.commit()
    assert (found.sha, found.source) == (head, "git")
    changed = bool(git("status", "--porcelain", "--untracked-files=no").stdout)
    assert found.label == (f"{head}, with uncommitted changes" if changed else head)
    clone = tmp_path / "clone"  # found by a review: a build of edited sources named the commit
    git("clone", "--quiet", str(ROOT), str(clone))
    assert provenance.commit(root=clone).label == head
    (clone / "README.md").write_text("edited\n")
    assert provenance.commit(root=clone).label == f"{head}, with uncommitted changes"


def test_a_git_archive_tarball_carries_the_commit_and_a_plain_copy_says_unknown(head, tmp_path):
    tarball = tmp_path / "src.tar"
    git("archive", "--format=tar", "-o", str(tarball), "HEAD", "--", "tools/sitekit/commit.txt")
    with tarfile.open(tarball) as tar:
        tar.extractall(tmp_path / "archive", filter="data")
    written = tmp_path / "archive" / "tools" / "sitekit" / "commit.txt"
    found = provenance.commit(root=tmp_path / "archive", archive_file=written)
    assert (found.sha, found.source) == (head, "archive")
    assert found.time == int(git("show", "-s", "--format=%ct", "HEAD").stdout)

    # Copied without git (the file as committed, unsubstituted): "unknown", and the time the
    # reproducible build is stamped with.
    plain = tmp_path / "plain" / "commit.txt"
    plain.parent.mkdir()
    shutil.copy(provenance.ARCHIVE_FILE, plain)
    found = provenance.commit(root=tmp_path / "plain", archive_file=plain)
    assert found.sha is None and found.source == "unknown"
    assert found.label.startswith("unknown")
