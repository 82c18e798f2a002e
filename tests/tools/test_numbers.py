"""Page numbers are typed once, in nav, and written into the links by the build
(sitekit.numbers): a page inserted among numbered ones renumbers every link to the pages after
it, and the build names what it cannot write."""

import pytest

from sitekit import PageError, cards, concepts, numbers
from sitekit.paths import ROOT

NAV = [
    {"Home": "index.md"},
    {
        "Sec": [
            "sec/index.md",
            {"1. Alpha": "sec/a.md"},
            {"2. Beta": "sec/b.md"},
            {"Extra": "sec/extra.md"},
        ]
    },
    {"Walk": [{"1. First": "walk/step-1-first.md"}, {"2. Second": "walk/step-2-second.md"}]},
    {"Reproduce": ["reproduce/p.md"]},
]
PAGES = {
    "index.md": (
        "# Home\n\nSee [§](sec/b.md), [§ the start](sec/a.md#top) and [Step](walk/step-2-second.md)"
        " or [step](walk/step-2-second.md#x).\nThe paper's §3.2.1 is not ours, nor"
        " [@he2016resnet, §1].\n\nCode keeps `[§](sec/b.md)`:\n\n"
        "```python\nx = 1  # a comment\n```\n"
    ),
    "sec/index.md": "# Sec\n\n- [Alpha](a.md)\n- [Beta](b.md)\n- [the extra](extra.md)\n",
    "sec/a.md": "---\ntitle: Alpha\n---\n# 1. Alpha\n",
    "sec/b.md": '---\ntitle: Beta\n---\n# 2. Beta\n\n??? question "Which?"\n    [§](a.md).\n',
    "sec/extra.md": "# Extra\n",
    "walk/step-1-first.md": '---\ntitle: "Step 1: first"\n---\n# Step 1: first\n',
    "walk/step-2-second.md": "# Step 2: second\n",
    "reproduce/p.md": "# P\n\nHe et al., §1: a paper's section.\n",
}


@pytest.fixture
def docs(tmp_path):
    for name, text in PAGES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_site_s_numbers_can_all_be_written_from_nav():
    nav = concepts.read_config(ROOT / "mkdocs.yml")["nav"]
    assert numbers.problems(ROOT / "docs", nav) == []


def test_a_link_gets_its_page_s_number_and_code_is_left_as_written(docs):
    filled = numbers.fill(PAGES["index.md"], "index.md", numbers.numbered(NAV))
    assert (
        "See [§2](sec/b.md), [§1 the start](sec/a.md#top) and [Step 2](walk/step-2-second.md)"
        in filled
    )
    assert "or [step 2](walk/step-2-second.md#x)." in filled
    assert "Code keeps `[§](sec/b.md)`" in filled
    # A link that gives its number is left as written (the Review page's, to a page's title).
    title = "[Step 2: second](walk/step-2-second.md)"
    assert numbers.fill(title, "index.md", numbers.numbered(NAV)) == title
    assert numbers.problems(docs, NAV) == []


def test_a_page_inserted_among_numbered_ones_renumbers_the_links_to_the_pages_after_it(docs):
    (docs / "sec/new.md").write_text("# New\n")
    (docs / "sec/index.md").write_text(PAGES["sec/index.md"] + "- [New](new.md)\n")
    nav = [
        dict(NAV[0]),
        {
            "Sec": [
                *NAV[1]["Sec"][:2],
                {"2. New": "sec/new.md"},
                {"3. Beta": "sec/b.md"},
                NAV[1]["Sec"][3],
            ]
        },
        *NAV[2:],
    ]
    filled = numbers.fill(PAGES["index.md"], "index.md", numbers.numbered(nav))
    assert "See [§3](sec/b.md)" in filled
    # b.md's own heading still says 2: the one place besides nav that a writer renumbers.
    assert numbers.problems(docs, nav) == [
        "docs/sec/b.md: '# 2. Beta': the page is number 3 in nav"
    ]


def test_what_the_build_cannot_write_or_would_go_stale_is_named(docs):
    nav = [
        dict(NAV[0]),
        {
            "Sec": [
                NAV[1]["Sec"][0],
                {"1. Alpha": "sec/a.md"},
                {"3. Beta": "sec/b.md"},
                NAV[1]["Sec"][3],
            ]
        },
        {"Walk": [{"1. Second": "walk/step-2-second.md"}]},
        NAV[3],
    ]
    (docs / "sec/extra.md").write_text(
        "# Extra\n\nSee [§2](b.md), [§](extra.md) and §1.\n\n```python\nx = 1  # as in §1\n```\n"
    )
    (docs / "sec/index.md").write_text("# Sec\n\n- [Alpha](a.md)\n- [Beta](b.md)\n")
    with pytest.raises(PageError) as err:
        numbers.check(docs, nav)
    assert str(err.value).splitlines()[1:6] == [
        "  mkdocs.yml: nav: '3. Beta' is page 2 of Sec's numbered pages",
        "  docs/sec/b.md: '# 2. Beta': the page is number 3 in nav",
        "  mkdocs.yml: nav: walk/step-2-second.md is named step 2, but is page 1",
        "  docs/walk/step-2-second.md: '# Step 2: second': the page is number 1 in nav",
        "  docs/sec/index.md: the index of Sec does not link sec/extra.md",
    ]
    problems = numbers.problems(docs, nav)
    assert (
        "docs/sec/extra.md:3: '[§2](b.md)': leave the number out, the build writes it from nav"
        in problems
    )
    assert (
        "docs/sec/extra.md:3: '[§](extra.md)' asks for a number, but sec/extra.md is not"
        " numbered in nav" in problems
    )
    assert "docs/sec/extra.md:3: '§1' is typed: link the page, [§](page.md), or name it" in problems
    assert "docs/sec/extra.md:6: '§1' is typed: link the page, [§](page.md), or name it" in problems
    assert not [p for p in problems if "reproduce/" in p or "docs/index.md" in p]


def test_a_recall_card_s_link_gets_its_number_on_the_review_page(docs):
    (docs / "sec/b.md").write_text(
        '---\ntitle: Beta\n---\n# 2. Beta\n\n## Recall\n\n??? question "Which page?"\n'
        "    The one before, [§](a.md).\n"
    )
    found = cards.collect(docs, NAV)
    assert [c.answer for c in found] == ["The one before, [§1](a.md)."]


def test_what_is_not_a_request_for_a_number_is_left_alone(docs):
    """Found by a review: a paper's section linked, a prose link, a link with a title."""
    text = (
        "[§3.2.1](https://arxiv.org/abs/1706.03762), [§4](https://arxiv.org/abs/1512.03385),"
        " [Step by step](b.md), [§](b.md 'Beta') and <https://example.org/§4>.\n"
    )
    (docs / "sec/extra.md").write_text(f"# Extra\n\n{text}")
    (docs / "reproduce/p.md").write_text(f"# P\n\n{text.split(' [Step')[0]}\n")
    filled = numbers.fill(text, "sec/extra.md", numbers.numbered(NAV))
    assert filled == text.replace("[§](b.md 'Beta')", "[§2](b.md 'Beta')")
    assert numbers.problems(docs, NAV) == []


def test_a_page_s_own_number_is_checked_in_its_title_and_its_heading_not_in_code(docs):
    """Found by a review: a right title hid a wrong heading, and a code comment before the
    heading was read as one."""
    (docs / "walk/step-2-second.md").write_text(
        '---\ntitle: "Step 2: second"\n---\n```python\n# 1. set up\n```\n\n# Step 3: second\n'
    )
    (docs / "sec/index.md").write_text(
        '# Sec\n\n[Alpha](a.md "A"), [Beta](b.md), `[the extra](extra.md)`\n'
    )
    assert numbers.problems(docs, NAV) == [
        "docs/walk/step-2-second.md: '# Step 3: second': the page is number 2 in nav",
        "docs/sec/index.md: the index of Sec does not link sec/extra.md",
    ]


def test_a_number_typed_in_any_link_form_is_named_and_a_missing_file_is_left_to_the_engine(docs):
    """Found by a second review: [§ 2], [Step 2: Title], a § inside a link's text and a
    reference link went unnamed, and a nav entry for a missing file crashed the check."""
    (docs / "sec/extra.md").write_text(
        "# Extra\n\n[§ 2](b.md), [Step 2: second](../walk/step-2-second.md), [as in §2](b.md)"
        " and [§][beta].\n\n[beta]: b.md\n"
    )
    nav = [*NAV[:3], {"Reproduce": ["reproduce/p.md", {"1. Gamma": "reproduce/gamma.md"}]}]
    assert numbers.problems(docs, nav) == [
        "docs/sec/extra.md:3: '[§][beta]': a reference link gets no number: write [§](page.md)",
        "docs/sec/extra.md:3: '[§ 2](b.md)': leave the number out, the build writes it from nav",
        "docs/sec/extra.md:3: '[Step 2: second](../walk/step-2-second.md)': leave the number"
        " out, the build writes it from nav",
        "docs/sec/extra.md:3: '§2' is typed: link the page, [§](page.md), or name it",
    ]


def test_a_link_or_code_span_wrapped_onto_the_next_line_and_reference_links(docs):
    """Found by a third review: wrapped link text was neither filled nor named, wrapped inline
    code was filled, and a reference link to a paper failed the build."""
    text = (
        "See [§ Norm and\nangle](b.md#n), not ``x [§](b.md)\ny``; [Step 2: the\nsecond](b.md).\n\n"
        "The paper's [§3.2.1][vas] and [§4][vas], at https://e.org/§4.\n\n"
        "[vas]: https://arxiv.org/abs/1706.03762\n"
    )
    numbers_ = numbers.numbered(NAV)
    assert numbers.fill(text, "sec/extra.md", numbers_).startswith(
        "See [§2 Norm and\nangle](b.md#n), not ``x [§](b.md)\ny``;"
    )
    (docs / "sec/extra.md").write_text(f"# Extra\n\n{text}")
    (docs / "sec/index.md").write_text(
        "# Sec\n\n[A][a], [B][b], [E][e]\n\n[a]: a.md\n[b]: b.md\n[e]: extra.md\n"
    )
    assert numbers.problems(docs, NAV) == [
        "docs/sec/extra.md:5: '[Step 2: the\nsecond](b.md)': leave the number out, the build"
        " writes it from nav"
    ]


def test_a_step_link_with_words_after_its_number_and_a_notebook_s_link_are_named(docs):
    """Found by a fourth review: [Step 2 shows] went unnamed, a notebook's [§2] was told to
    drop the number and then failed again, a reference link to a paper with a § in its text
    failed, and a § with a space went unnamed."""
    (docs / "sec/extra.md").write_text(
        "# Extra\n\n[Step 2 shows](../walk/step-2-second.md); [the paper's §3][arx];"
        " as § 2 showed.\n\n[arx]: https://arxiv.org/abs/1706.03762\n"
    )
    (docs / "reproduce/nb.py").write_text("# %% [markdown]\n# As [§2](../sec/b.md) shows.\n")
    assert numbers.problems(docs, NAV) == [
        "docs/reproduce/nb.py:2: '[§2](../sec/b.md)': a notebook page's links get no number:"
        " name the page",
        "docs/sec/extra.md:3: '[Step 2 shows](../walk/step-2-second.md)': leave the number out,"
        " the build writes it from nav",
        "docs/sec/extra.md:3: '§ 2' is typed: link the page, [§](page.md), or name it",
    ]


def test_a_page_nav_does_not_number_that_numbers_itself_is_named(docs):
    """Found by a fifth review: a page added to nav without its number, whose heading gave
    one, left two pages showing the same number."""
    (docs / "sec/extra.md").write_text("# 2. Extra\n")
    assert numbers.problems(docs, NAV) == [
        "docs/sec/extra.md: '# 2. Extra': nav does not number the page"
    ]
