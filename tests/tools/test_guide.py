"""The contributing guide's lists are generated from the pages (sitekit.guide), and every
page that teaches has a recall card (sitekit.recall)."""

import pytest

from sitekit import PageError, concepts, guide, recall
from sitekit.paths import ROOT

CONFIG = concepts.read_config(ROOT / "mkdocs.yml")
GUIDE = "contributing/index.md"


def test_the_guide_lists_every_concept_introduced_with_its_page_in_reading_order():
    text = (ROOT / "docs" / GUIDE).read_text(encoding="utf-8")
    expanded = guide.expand(text, GUIDE, ROOT / "docs", CONFIG["nav"])
    assert "<!-- generated:" not in expanded
    declarations = [d for d in concepts.load(ROOT / "docs", CONFIG["nav"]) if d.introduces]
    rows = [line for line in expanded.splitlines() if line.startswith("| [")]
    rows = [row.split(" | ") for row in rows if row.count("|") == 4]  # the concepts table's
    assert [row[:2] for row in rows] == [
        [f"| [{d.title}](../{d.page})", ", ".join(d.introduces)] for d in declarations
    ]
    # What counts as a use of a concept, on the row of the page that introduces it.
    said = {d.page: row[2] for d, row in zip(declarations, rows, strict=True)}
    attention = concepts.SIGNS["scaled dot-product attention"].said
    assert (
        said["foundations/target-equations.md"] == f"{attention} (scaled dot-product attention) |"
    )
    assert said["foundations/matrices.md"] == " |"
    assert '"re-implement attention"' in expanded  # a skill some page feeds
    assert "- **head, heads**: [Where Q, K and V come from](../walkthrough/" in expanded


def test_an_unknown_list_stops_the_build_naming_the_page(tmp_path):
    with pytest.raises(PageError, match="docs/x.md: no generated list 'pages'"):
        guide.expand("<!-- generated: pages -->\n", "x.md", ROOT / "docs", CONFIG["nav"])


def test_a_page_that_introduces_a_concept_needs_a_recall_card(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    front = "---\ntitle: {0}\nintroduces: [{0}]\n---\n# {0}\n"
    (docs / "a.md").write_text(front.format("alpha") + '\n## Recall\n\n??? question "Q?"\n    A.\n')
    (docs / "b.md").write_text(front.format("beta") + "\nNo card.\n")
    (docs / "c.md").write_text("---\ntitle: c\n---\n# An index introduces nothing\n")
    nav = [{"A": "a.md"}, {"B": "b.md"}, {"C": "c.md"}]
    with pytest.raises(PageError) as err:
        recall.check(docs, nav)
    assert str(err.value) == (
        "recall cards:\n  docs/b.md introduces beta but has no recall card: end it with a"
        ' "## Recall" section of at least one card, ??? question "..."'
    )
    recall.check(docs, nav[:1] + nav[2:])


def test_every_page_of_the_site_that_teaches_has_a_recall_card():
    recall.check(ROOT / "docs", CONFIG["nav"])
