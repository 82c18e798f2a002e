"""Page numbers and lists of pages are checked against nav, and renumbered from it
(sitekit.numbering): a page inserted among numbered ones names every stale place."""

import pytest

from sitekit import PageError, concepts, numbering
from sitekit.paths import ROOT

CONFIG = """site_name: t
nav:
  - Home: index.md
  - Sec:
      - sec/index.md
      - 1. Alpha: sec/a.md
      - 2. New: sec/new.md
      - 2. Beta: sec/b.md
      - Extra: sec/extra.md
  - Walk:
      - 1. First: walk/step-1-first.md
      - 2. Second: walk/step-3-second.md
  - Reproduce:
      - reproduce/p.md
"""
PAGES = {
    "index.md": (
        "# Home\n\nSee [§2](sec/b.md) and [§1 the start](sec/a.md#top), and\n"
        "[Step 2](walk/step-3-second.md). The paper's §3.2.1 is not ours.\n"
    ),
    "sec/index.md": (
        "# Sec\n\n| § | page |\n| --- | --- |\n| 1 | [Alpha](a.md) |\n| 2 | [Beta](b.md) |\n\n"
        "Then [the extra](extra.md).\n"
    ),
    "sec/a.md": "---\ntitle: Alpha\n---\n# Alpha\n",
    "sec/new.md": "---\ntitle: New\n---\n# New\n",
    "sec/b.md": "---\ntitle: Beta, in full\n---\n# 2. Beta, in full\n",
    "sec/extra.md": "# Extra\n\n## §2 Beta\n\n```python\nx = 1  # from §2 Beta, in full\n```\n",
    "walk/step-1-first.md": "# First\n\nAs §1 showed.\n",
    "walk/step-3-second.md": '---\ntitle: "Step 3: second"\n---\n# Step 3: second\n',
    "reproduce/p.md": "# P\n\nHe et al., §1: a paper's section.\n",
}


@pytest.fixture
def site(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(CONFIG)
    for name, text in PAGES.items():
        (tmp_path / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / name).write_text(text)
    return tmp_path / "docs", config


def found(docs, config) -> list[str]:
    nav = concepts.read_config(config)["nav"]
    return [str(p) for p in numbering.problems(docs, nav, config)]


def test_the_site_numbers_and_page_lists_agree_with_nav():
    config = concepts.read_config(ROOT / "mkdocs.yml")
    assert numbering.problems(ROOT / "docs", config["nav"], ROOT / "mkdocs.yml") == []


def test_a_page_inserted_among_numbered_pages_names_every_stale_place(site):
    docs, config = site
    assert found(docs, config) == [
        "mkdocs.yml:8: '2. Beta' is page 3 of the numbered pages of Sec in nav: write '3. Beta'",
        "mkdocs.yml:12: walk/step-3-second.md is named step 3 but is number 2 in nav: rename the"
        " file (and its figures' folder), or move it",
        "docs/sec/b.md:4: '# 2. Beta, in full': the page is number 3 in nav",
        "docs/walk/step-3-second.md:2: 'title: \"Step 3: second\"': the page is number 2 in nav",
        "docs/walk/step-3-second.md:4: '# Step 3: second': the page is number 2 in nav",
        "docs/index.md:3: '[§2](sec/b.md)': sec/b.md is §3 in nav",
        "docs/sec/extra.md:3: '§2 Beta': sec/b.md is §3 in nav",
        "docs/sec/extra.md:6: '§2 Beta, in full': sec/b.md is §3 in nav",
        "docs/sec/index.md:6: the row numbered 2 links sec/b.md, number 3",
        "docs/walk/step-1-first.md:3: '§1' names no page the check can follow: link it,"
        " [§1](page.md), or write the page's title after it, '§1 Title'",
        "docs/sec/index.md: the index of Sec does not link 'New' (sec/new.md): add it to the"
        " list of the section's pages",
    ]


def test_fix_renumbers_nav_and_every_reference_and_leaves_the_rest_to_the_writer(site):
    docs, config = site
    nav = concepts.read_config(config)["nav"]
    left = numbering.fix(docs, nav, config)
    assert "- 3. Beta: sec/b.md" in config.read_text()
    assert "See [§3](sec/b.md) and [§1 the start](sec/a.md#top)" in (docs / "index.md").read_text()
    assert "## §3 Beta\n" in (docs / "sec/extra.md").read_text()
    assert "# from §3 Beta, in full" in (docs / "sec/extra.md").read_text()
    assert "| 3 | [Beta](b.md) |" in (docs / "sec/index.md").read_text()
    assert "# 3. Beta, in full\n" in (docs / "sec/b.md").read_text()
    assert (
        'title: "Step 2: second"\n---\n# Step 2: second\n'
        in (docs / "walk/step-3-second.md").read_text()
    )
    # What it cannot know: the file to rename, the page a bare §1 means, where to list New.
    assert [p.where for p in left] == [
        "mkdocs.yml:12",
        "docs/walk/step-1-first.md:3",
        "docs/sec/index.md",
    ]
    assert [
        p.where for p in numbering.problems(docs, concepts.read_config(config)["nav"], config)
    ] == [p.where for p in left]


def test_an_unnumbered_page_among_numbered_ones_gets_its_number(site):
    docs, config = site
    config.write_text(CONFIG.replace("- 2. New: sec/new.md", "- New: sec/new.md"))
    problems = found(docs, config)
    assert problems[0] == (
        "mkdocs.yml:7: 'New' is page 2 of the numbered pages of Sec in nav: write '2. New'"
    )
    numbering.fix(docs, concepts.read_config(config)["nav"], config)
    assert "- 2. New: sec/new.md\n      - 3. Beta: sec/b.md" in config.read_text()


def test_the_build_stops_naming_them_and_the_fix(site):
    docs, config = site
    with pytest.raises(PageError, match="sitekit.numbering --fix") as err:
        numbering.check(docs, concepts.read_config(config)["nav"], config)
    assert "mkdocs.yml:8: '2. Beta'" in str(err.value)


def test_a_count_of_a_sections_pages_follows_nav_and_a_list_keeps_its_order(site):
    """Found by issue 25's walk-through: a ninth Foundations page left "Eight short pages" on
    the index, in the home page's table and on the self-test, and --fix numbered the new row
    without moving it."""
    docs, config = site
    config.write_text(CONFIG.replace("- 2. Beta: sec/b.md", "- 3. Beta: sec/b.md"))
    (docs / "sec/index.md").write_text(
        "---\ndescription: Two short pages.\n---\n# Sec\n\n| 1 | [Alpha](a.md) |\n"
        "| 3 | [Beta](b.md) |\n| 2 | [New](new.md) |\n\nThen [the extra](extra.md), in two steps.\n"
    )
    (docs / "index.md").write_text(
        "# Home\n\n[Sec](sec/index.md): two short pages.\n\nThe paper's two sections.\n"
        "The two Sec sections, and [§3](sec/b.md).\n"
    )
    (docs / "sec/b.md").write_text("---\ntitle: Beta, in full\n---\n# 3. Beta, in full\n")
    mine = [p for p in found(docs, config) if "numbered pages in" in p or "nav's order" in p]
    assert mine == [
        "docs/sec/index.md:8: the row linking sec/new.md (number 2) comes after the one linking"
        " sec/b.md (number 3): put the rows in nav's order",
        "docs/index.md:3: 'two short pages': Sec has 3 numbered pages in nav",
        "docs/index.md:6: 'two Sec sections': Sec has 3 numbered pages in nav",
        "docs/sec/index.md:2: 'Two short pages': Sec has 3 numbered pages in nav",
        "docs/sec/index.md:10: 'two steps': Sec has 3 numbered pages in nav",
    ]
    left = numbering.fix(docs, concepts.read_config(config)["nav"], config)
    assert "description: Three short pages." in (docs / "sec/index.md").read_text()
    assert (
        "[Sec](sec/index.md): three short pages.\n\nThe paper's two sections."
        in (docs / "index.md").read_text()
    )
    assert "The three Sec sections" in (docs / "index.md").read_text()
    assert "docs/sec/index.md:8" in [p.where for p in left]  # the order is the writer's
    assert not [p for p in left if "numbered pages in" in str(p)]


def test_a_section_inside_a_citation_is_the_paper_s():
    """``[@he2016resnet, §1]`` cites the paper's §1, not the site's (sitekit.citations)."""
    line = "He et al.'s argument [@he2016resnet, §1 and §3.1] holds; see §1 too"
    found = list(numbering._line_problems("foundations/functions.md", 7, line, {}, []))
    assert [p.message for p in found] == [
        "'§1' names no page the check can follow: link it, [§1](page.md), or write the"
        " page's title after it, '§1 Title'"
    ]


def test_a_section_index_in_nav_but_not_in_docs_is_named_not_a_crash(tmp_path):
    docs = tmp_path / "docs"
    (docs / "s").mkdir(parents=True)
    (docs / "s" / "a.md").write_text("# A\n")
    nav = [{"S": ["s/index.md", {"A": "s/a.md"}]}]
    config = tmp_path / "mkdocs.yml"
    config.write_text("nav:\n  - S:\n      - s/index.md\n      - A: s/a.md\n")
    found = [str(p) for p in numbering.problems(docs, nav, config)]
    assert found == ["docs/s/index.md: S's index page is in nav but not in docs/"]
