"""The notebook pages' HTML post-processing (sitekit.notebook_html)."""

from sitekit.notebook_html import clean_html, page_links


def test_a_notebook_page_links_to_pages_by_their_url():
    html = '<a href="checking-claims.md#the-test">x</a> <a href="https://a.org/b.md">y</a>'
    out = page_links(html, "reproduce/attention-scaling.py", "reproduce/attention-scaling/")
    assert out == '<a href="../checking-claims/#the-test">x</a> <a href="https://a.org/b.md">y</a>'


def test_display_math_leaves_its_paragraph():
    html = "<p>Before:</p>\n<p>$$a = b,\nc$$</p>\n<p>text $x$ then $$y$$ and after</p>"
    assert clean_html(html) == (
        "<p>Before:</p>\n$$a = b,\nc$$\n<p>text $x$ then</p>\n$$y$$\n<p>and after</p>"
    )


def test_paragraphs_without_display_math_are_untouched():
    html = "<p>cost is $5 and $x$ is inline</p>"
    assert clean_html(html) == html
