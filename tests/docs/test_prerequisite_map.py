"""The prerequisite map's prose says what its figure draws: both come from the pages' front
matter (``feeds``), and this test holds the prose to it.

The figure (``figures/foundations/prerequisite-map/map.py``) draws a line from a page to each
skill the page declares it feeds. The page's example of a skill with several lines links the
pages it names, and those links must be exactly the Foundations pages that feed that skill.
"""

import re

from sitekit.concepts import load_from_config
from sitekit.paths import ROOT

PAGE = ROOT / "docs" / "foundations" / "prerequisite-map.md"
TARGET = "foundations/target-equations.md"
EXAMPLE = re.compile(r"re-implementing attention draws on (?P<names>.*?) at once", re.S)
LINK = re.compile(r"\]\((?P<href>[\w-]+\.md)\)")


def feeders() -> dict[str, set[str]]:
    """Each skill and the Foundations pages (left column of the map) that feed it."""
    out: dict[str, set[str]] = {}
    for decl in load_from_config():
        if decl.page.startswith("foundations/") and decl.page != TARGET:
            for skill in decl.feeds:
                out.setdefault(skill, set()).add(decl.page.removeprefix("foundations/"))
    return out


def test_the_example_names_exactly_the_pages_that_feed_the_skill():
    m = EXAMPLE.search(PAGE.read_text())
    assert m, "the page's example sentence has changed: update this test with it"
    named = {link.group("href") for link in LINK.finditer(m.group("names"))}
    assert named == feeders()["re-implement attention"]


def test_most_skills_have_several_lines():
    """'Most skills have several lines', counting the target equations' lines too."""
    lines = feeders()
    for decl in load_from_config():
        if decl.page == TARGET:
            for skill in decl.feeds:
                lines.setdefault(skill, set()).add(TARGET)
    several = [skill for skill, pages in lines.items() if len(pages) > 1]
    assert len(several) > len(lines) / 2
