"""Recall cards: parsed from pages, gathered into the Review page and an Anki CSV deck."""

import csv
import io

import pytest

from sitekit import PageError, cards

PAGE = """# A page

??? question "What is $d_k$?"
    The length of a query or key, a scalar.

    It is often $64$.

Not part of the card.

??? question "Why \\"quote\\"?"
    Because `x.shape[0]` says so.
"""


def test_cards_are_read_with_their_whole_answer():
    found = cards.cards_in(PAGE)
    assert found == [
        ("What is $d_k$?", "The length of a query or key, a scalar.\n\nIt is often $64$."),
        ('Why "quote"?', "Because `x.shape[0]` says so."),
    ]


def test_a_card_without_an_answer_is_an_author_s_mistake_naming_the_page():
    with pytest.raises(PageError, match="docs/x.md: recall card 'Empty\\?' has no answer"):
        cards.cards_in('??? question "Empty?"\n\nText.\n', "docs/x.md")


def deck(found):
    return [cards.Card("Foundations", "foundations/x.md", "X", q, a) for q, a in found]


def test_the_anki_deck_has_anki_headers_and_one_row_per_card():
    data = cards.anki_csv(deck(cards.cards_in(PAGE))).decode()
    header = [line for line in data.splitlines() if line.startswith("#")]
    assert header == [
        "#separator:Comma",
        "#html:true",
        "#columns:Front,Back,Tags",
        "#tags column:3",
    ]
    body = "\n".join(line for line in data.splitlines() if not line.startswith("#"))
    rows = list(csv.reader(io.StringIO(body)))
    assert len(rows) == 2 and all(len(row) == 3 for row in rows)
    front, back, tags = rows[0]
    assert front == r"What is \(d_k\)?"  # Anki's MathJax delimiters
    assert back == r"The length of a query or key, a scalar.<br><br>It is often \(64\)."
    assert tags == "paperlens::foundations paperlens::x"
    assert rows[1][1] == "Because <code>x.shape[0]</code> says so."


def test_the_review_page_keeps_answers_hidden_and_links_each_page():
    text = cards.review_markdown(deck(cards.cards_in(PAGE)))
    assert text.count('??? question "') == 2
    assert "## Foundations" in text and "### [X](foundations/x.md)" in text
    assert "\n    The length of a query" in text


def test_relative_links_in_answers_are_rebased_for_the_review_page():
    found = [("Where?", "See [softmax](softmax.md#formula) and [home](../index.md).")]
    text = cards.review_markdown(deck(found))
    assert "(foundations/softmax.md#formula)" in text and "(index.md)" in text


def test_a_computed_answer_s_code_reaches_anki_as_escaped_preformatted_code():
    answer = "$2 + 2 = 4$.\n\n```python\n>>> answers['1'] = 2 + 2  # $x$\n```"
    data = cards.anki_csv(deck([("What is $2 + 2$?", answer)])).decode()
    body = "\n".join(line for line in data.splitlines() if not line.startswith("#"))
    _, back, _ = next(csv.reader(io.StringIO(body)))
    assert back == (
        r"\(2 + 2 = 4\).<br><br><pre><code>&gt;&gt;&gt; answers[&#x27;1&#x27;] = 2 + 2  # $x$"
        "</code></pre>"
    )


def test_a_question_s_anchor_is_its_words_and_unique_on_its_page():
    assert cards.anchors(["What is $d_k$?", "Why?", "Why?"]) == [
        "card-what-is-d_k",
        "card-why",
        "card-why-2",
    ]


def test_cards_get_their_anchors_as_ids_in_the_page():
    page_html = '<details class="question"><summary>a</summary></details>' * 2
    out = cards.add_anchors(page_html, PAGE)
    assert out.count('id="card-what-is-d_k"') == 1 and 'id="card-why-quote"' in out
    assert (
        cards.add_anchors(page_html[: len(page_html) // 2], PAGE)
        == page_html[: len(page_html) // 2]
    ), "a page whose cards do not match is left alone"


def test_an_anki_field_renders_markdown_keeps_math_for_mathjax_and_makes_links_absolute():
    text = (
        "**Yes**: $a < b$ and\n\n$$\nx^2\n$$\n\nSee [§6](softmax.md#the-formula) or "
        "[there](../index.md).\n\n```python\n>>> 1 < 2\nTrue\n```"
    )
    field = cards.anki_field(text, "foundations/x.md", "https://pl.example/")
    assert "<strong>Yes</strong>" in field
    assert "\\(a &lt; b\\)" in field and "\\[x^2\\]" in field
    assert 'href="https://pl.example/foundations/softmax/#the-formula"' in field
    assert 'href="https://pl.example/"' in field
    assert "<pre><code>&gt;&gt;&gt; 1 &lt; 2\nTrue\n</code></pre>" in field
