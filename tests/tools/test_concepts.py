"""Concepts in order: a page may only use what an earlier page introduced."""

import pytest

from sitekit import concepts
from sitekit.paths import ROOT


def decl(page, introduces=(), uses=()):
    return concepts.Declaration(page, page, list(introduces), list(uses))


def test_concepts_in_order_pass():
    introduced = concepts.check_order(
        [decl("a.md", ["vector"]), decl("b.md", ["matrix"], ["vector"])]
    )
    assert introduced == {"vector": "a.md", "matrix": "b.md"}


def test_using_a_concept_before_its_page_fails_naming_both():
    with pytest.raises(concepts.ConceptError, match="a.md uses 'matrix'"):
        concepts.check_order([decl("a.md", ["vector"], ["matrix"]), decl("b.md", ["matrix"])])


def test_introducing_a_concept_twice_fails():
    with pytest.raises(concepts.ConceptError, match="already introduced by a.md"):
        concepts.check_order([decl("a.md", ["vector"]), decl("b.md", ["vector"])])


def test_front_matter_must_be_lists_of_names(tmp_path):
    (tmp_path / "p.md").write_text("---\nintroduces: vector\n---\n# P\n")
    with pytest.raises(concepts.ConceptError, match="must be a list"):
        concepts.read_declaration(tmp_path, "p.md", "P")


def test_nav_is_flattened_in_reading_order():
    nav = [{"Home": "index.md"}, {"S": ["s/index.md", {"One": "s/one.md"}]}, {"X": "https://x"}]
    expected = [("Home", "index.md"), ("", "s/index.md"), ("One", "s/one.md")]
    assert concepts.nav_pages(nav) == expected


def test_the_site_declarations_are_in_order():
    declarations = concepts.load_from_config(ROOT / "mkdocs.yml")
    assert declarations
    concepts.check_order(declarations)
