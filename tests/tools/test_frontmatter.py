"""sitekit.frontmatter reads every page's front matter as the engine does."""

from pathlib import Path

import pytest
from properdocs.utils.meta import get_data as engine_get_data

from sitekit.frontmatter import get_data

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


@pytest.mark.parametrize("page", PAGES)
def test_front_matter_reads_as_the_engine_reads_it(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert text.startswith("---\n"), f"docs/{page} has no YAML front matter"
    assert get_data(text) == engine_get_data(text)


@pytest.mark.parametrize(
    "text",
    ["no front matter\n", "---\n- a list\n---\nbody\n", "---\n: bad: yaml\n---\nbody\n"],
)
def test_what_is_not_a_yaml_mapping_is_no_front_matter(text):
    assert get_data(text) == (text, {})
