"""Citations (`sitekit.citations`): the bibliography, the markers, and the loose ends the build
refuses. tests/site/test_citations.py checks the built pages, notebooks and print edition."""

import re
from pathlib import Path

import pytest

from sitekit import PageError, citations
from sitekit.paths import ROOT

DOCS = ROOT / "docs"
ENTRY = """@article{{{key},
  author = {{{authors}}},
  title = {{{title}}},
  journal = {{J}},
  year = {{{year}}},
  {ident}
}}
"""


def bib(tmp_path: Path, *entries: str) -> dict[str, citations.Work]:
    (tmp_path / citations.BIB_FILE).write_text("\n".join(entries), encoding="utf-8")
    return citations.load(tmp_path)


def entry(key="a2020", authors="Ab, Cd", title="T", year="2020", ident="eprint = {2001.00001}"):
    return ENTRY.format(key=key, authors=authors, title=title, year=year, ident=ident)


@pytest.fixture(scope="module")
def works():
    return citations.load(DOCS)


def test_every_entry_of_the_site_links_to_its_paper(works):
    """By its arXiv id or DOI; a work with neither (a 2004 ACL paper, a technical report, a
    blog post) by one https address of its publisher's."""
    assert len(works) >= 10
    for key, work in works.items():
        assert work.authors and work.title and re.fullmatch(r"\d{4}[a-z]?", work.year), key
        urls = [url for _, url in work.links]
        standard = [u for u in urls if re.match(r"https://(arxiv\.org/abs/|doi\.org/10\.)", u)]
        assert standard == urls or (not standard and len(urls) == 1), (key, urls)
        assert all(u.startswith("https://") for u in urls), key


@pytest.mark.parametrize(
    ("ident", "why"),
    [
        ("eprint = {1512.0338x}", "is no arXiv id"),
        ("eprint = {arXiv:1512.03385}", "is no arXiv id"),
        ("doi = {10.1109 CVPR}", "is not a DOI"),
        ("url = {http://example.org/paper}", "is no https address"),
        ("url = {https://example}", "is no https address"),
        ("note = {none}", "needs authors, a title, a year and an arXiv eprint"),
    ],
)
def test_an_entry_without_a_well_formed_identifier_is_refused(tmp_path, ident, why):
    with pytest.raises(PageError, match=why):
        bib(tmp_path, entry(ident=ident))


def test_a_broken_bibliography_names_its_file(tmp_path):
    with pytest.raises(PageError, match=r"docs/references\.bib"):
        bib(tmp_path, "@article{x, title = {unclosed")


def test_each_identifier_becomes_its_link(tmp_path):
    works = bib(
        tmp_path,
        entry("a", ident="eprint = {1706.03762},\n  doi = {10.1145/1273445.1273458}"),
        entry("b", ident="url = {https://aclanthology.org/W04-3250/}"),
    )
    assert works["a"].links == [
        ("arXiv:1706.03762", "https://arxiv.org/abs/1706.03762"),
        ("doi:10.1145/1273445.1273458", "https://doi.org/10.1145/1273445.1273458"),
    ]
    assert works["b"].links == [("aclanthology.org", "https://aclanthology.org/W04-3250/")]


def test_labels_follow_the_number_of_authors_and_shared_years_get_letters(tmp_path):
    works = bib(
        tmp_path,
        entry("one", authors="Keshav, S."),
        entry("two", authors="Kingma, Diederik and Ba, Jimmy"),
        entry("x", authors="He, K. and Zhang, X. and Ren, S.", year="2016"),
        entry("y", authors="He, K. and Zhang, X. and Ren, S.", year="2015"),
        entry("z", authors="He, K. and Zhang, X. and Sun, J.", year="2016"),
        entry("accent", authors="R{\\'e}, Christopher"),
    )
    said = {k: (w.label, w.year) for k, w in works.items()}
    assert said == {
        "one": ("Keshav", "2020"),
        "two": ("Kingma and Ba", "2020"),
        "x": ("He et al.", "2016a"),
        "y": ("He et al.", "2015"),
        "z": ("He et al.", "2016b"),
        "accent": ("Ré", "2020"),
    }


def test_markers_become_links_with_their_locations(works):
    text, keys, errors = citations.expand(
        "A [@he2016resnet, §4.1] and [@kingma2015adam; -@post2018call].", works, where="x"
    )
    assert errors == []
    assert keys == ["he2016resnet", "kingma2015adam", "post2018call"]
    assert text == (
        'A (<a class="citation" href="#ref-he2016resnet">He et al., 2016a, §4.1</a>) and'
        ' (<a class="citation" href="#ref-kingma2015adam">Kingma and Ba, 2015</a>;'
        ' <a class="citation" href="#ref-post2018call">2018</a>).'
    )


def test_a_location_wrapped_onto_the_next_line_is_one_location(works):
    """Prose wraps where it likes: "[@key," at the end of a line, "§4.1]" on the next."""
    text, keys, _ = citations.expand("A [@he2016resnet,\n§4.1] b.", works, where="x")
    assert keys == ["he2016resnet"] and "[@" not in text
    assert '">He et al., 2016a, §4.1</a>) b.' in text
    text, keys, errors = citations.expand("[@he2016resnet,\n\n§4.1]", works, where="x")
    assert keys == [] and text.startswith("[@")  # a paragraph break ends it, and fails
    assert errors == ["x:1: a citation the build cannot read: '[@he2016resnet,\\n\\n§4.1'"]


def test_in_a_notebook_a_citation_links_to_the_paper(works):
    """Jupyter front ends drop the ids an in-page link needs; the paper's address works."""
    text, _, _ = citations.expand("[@post2018call]", works, where="x", to_paper=True)
    assert text == ('(<a class="citation" href="https://arxiv.org/abs/1804.08771">Post, 2018</a>)')


def test_code_keeps_its_brackets(works):
    source = (
        "Cite `[@he2016resnet]` like this.\n\n```python\nx = [@he2016resnet]\n```\n\n"
        "    ~~~\n    [@he2016resnet]\n    ~~~\n"
        "<pre>[@he2016resnet]</pre><code>[@he2016resnet]</code>"
    )
    text, keys, errors = citations.expand(source, works, where="x")
    assert (text, keys, errors) == (source, [], [])


def test_an_unknown_key_is_reported_with_its_page_and_line_and_marked_in_place(works):
    source = "line one\nline two [@he2016resnet]\nline three [@nobody2020]\n"
    text, keys, errors = citations.expand(source, works, where="docs/p.md")
    assert keys == ["he2016resnet"]
    assert errors == ["docs/p.md:3: [@nobody2020] names no entry of docs/references.bib"]
    assert '<mark class="citation-unknown">@nobody2020?</mark>' in text


def test_the_reference_list_is_sorted_by_author_and_ends_a_page(works):
    page = citations.with_references(
        "# T\n\nText.\n", ["vaswani2017attention", "britz2017massive"], works
    )
    assert page.index("## References") > page.index("Text.")
    assert page.index('id="ref-britz2017massive"') < page.index('id="ref-vaswani2017attention"')
    assert citations.with_references("# T\n", [], works) == "# T\n"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("As He et al. show", ["He et al."]),
        ("As He\net al. show", ["He et al."]),
        ("Attention Is All\n  You Need", ["Attention Is All You Need"]),
        ("Kingma and Ba's optimiser", ["Kingma and Ba"]),
        ("Milakov & Gimelshein", ["Milakov and Gimelshein"]),
        ("Post (2018) measured", ["Post"]),
        ("Post hoc tests, and a post", []),
        ("as in FlashAttention", ["FlashAttention"]),
        ("the paper Attention Is All You Need", ["Attention Is All You Need"]),
    ],
)
def test_a_work_named_in_prose_must_be_cited(works, text, named):
    assert citations.uncited_names(text, [], works) == named


def test_citing_any_work_of_a_shared_label_covers_the_label(works):
    assert citations.uncited_names("He et al. argue", ["he2016identity"], works) == []
    assert citations.uncited_names("He et al. argue", ["kingma2015adam"], works) == ["He et al."]


def test_page_text_leaves_out_code():
    assert citations.page_text("<p>He &amp; she</p><pre>He et al.</pre><code>x</code>").split() == [
        "He",
        "&",
        "she",
    ]


def test_an_entry_no_page_cites_is_found(tmp_path):
    works = bib(tmp_path, entry("used"), entry("unused"))
    (tmp_path / "p.md").write_text("See [@used].\n\n```\n[@unused]\n```\n")
    assert citations.uncited_entries(tmp_path, works) == ["unused"]


def test_the_site_s_own_entry_comes_from_citation_cff():
    block = citations.site_bibtex(
        ROOT / citations.CFF_FILE, site_url="https://x.org/", version="9.9", year=2031
    )
    assert block.startswith("```bibtex\n@misc{paperlens,\n") and block.endswith("}\n```")
    assert "author = {{The paperlens contributors}}" in block
    assert "url = {https://x.org/}" in block and "Version 9.9" in block and "2031" in block
    # It is BibTeX a reader's tools read: pybtex parses it, with the title's capitals protected.
    from pybtex.database import parse_string

    entry = parse_string(block.removeprefix("```bibtex\n").removesuffix("```"), "bibtex")
    fields = entry.entries["paperlens"].fields
    assert fields["title"] == "{paperlens: learn to read and reproduce ML papers}"
    assert fields["year"] == "2031"
