"""Copy-friendly code (sitekit.copy_code), on blocks found by a parser (sitekit.html_elements)."""

from sitekit.copy_code import add_copy_text
from sitekit.html_elements import elements, has_class, outermost

DOCTEST = "<pre><span></span><code>&gt;&gt;&gt; x = 2\n&gt;&gt;&gt; x + 1\n3\n</code></pre>"


def test_a_doctest_block_copies_as_its_code_alone():
    page = f'<p>a</p><div class="language-python highlight">{DOCTEST}</div><p>b</p>'
    out = add_copy_text(page)
    assert out == page.replace('highlight">', 'highlight" data-copy="x = 2\nx + 1">', 1)


def test_a_block_that_nests_a_div_is_taken_whole():
    """``(.*?)</div>`` stopped at the nested ``</div>`` and never saw the code."""
    page = (
        '<div class="highlight"><span class="filename">shift</span>'
        f'<div class="title">t</div>{DOCTEST}</div><div class="highlight">{DOCTEST}</div>'
    )
    out = add_copy_text(page)
    assert out.count('data-copy="x = 2\nx + 1"') == 2
    assert out.replace(' data-copy="x = 2\nx + 1"', "") == page


def test_other_blocks_are_left_byte_for_byte():
    page = (
        '<div class="highlight"><pre><code>x = 1</code></pre></div>'
        f'<div class="highlight" data-copy="given">{DOCTEST}</div><div>{DOCTEST}</div>'
    )
    assert add_copy_text(page) == page


def test_elements_pair_nested_tags_and_report_offsets():
    page = '<div class="a"><div>x</div><img src="i.svg"><br/></div><div class="a">y</div>'
    found = elements(page, has_class("a"))
    assert [page[e.start : e.end] for e in found] == [
        '<div class="a"><div>x</div><img src="i.svg"><br/></div>',
        '<div class="a">y</div>',
    ]
    assert found[1].inner(page) == "y" and found[1].start_tag(page) == '<div class="a">'
    images = elements(page, lambda tag, attrs: tag == "img")
    assert [page[e.start : e.end] for e in images] == ['<img src="i.svg">']
    everything = elements(page, lambda tag, attrs: tag == "div")
    assert len(everything) == 3 and len(outermost(everything)) == 2
