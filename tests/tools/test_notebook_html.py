"""The notebook pages' HTML post-processing (sitekit.notebooks.clean_html)."""

from sitekit.notebooks import clean_html


def test_display_math_leaves_its_paragraph():
    html = "<p>Before:</p>\n<p>$$a = b,\nc$$</p>\n<p>text $x$ then $$y$$ and after</p>"
    assert clean_html(html) == (
        "<p>Before:</p>\n$$a = b,\nc$$\n<p>text $x$ then</p>\n$$y$$\n<p>and after</p>"
    )


def test_paragraphs_without_display_math_are_untouched():
    html = "<p>cost is $5 and $x$ is inline</p>"
    assert clean_html(html) == html
