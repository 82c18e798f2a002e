"""The glossary: generated from the notation page's Words table, defined at first use."""

import pytest

from sitekit import PageError, concepts, glossary
from sitekit.paths import ROOT

TABLE = """# Notation

## Words

| word | meaning | defined in |
| --- | --- | --- |
| token, tokens | One piece of text. | [A](../a.md) |
| MSE | Mean squared error. | [B](../b.md#loss) |

## Next
"""


def test_the_site_glossary_is_generated_from_the_notation_page_and_defined_at_first_use():
    config = concepts.read_config(ROOT / "mkdocs.yml")
    words = glossary.check(ROOT / "docs", config["nav"], ROOT / glossary.GLOSSARY_FILE)
    assert {"token", "causal", "learning rate", "Adam", "full-batch", "MSE", "heads"} <= {
        form for w in words for form in w.forms
    }


def test_the_glossary_is_appended_to_every_page():
    config = concepts.read_config(ROOT / "mkdocs.yml")
    snippets = next(
        e["pymdownx.snippets"] for e in config["markdown_extensions"] if "pymdownx.snippets" in e
    )
    assert glossary.GLOSSARY_FILE in snippets["auto_append"]


def test_words_table_is_read_with_forms_pages_and_capitalised_spellings():
    words = glossary.read_words(TABLE)
    assert [w.forms for w in words] == [("token", "tokens"), ("MSE",)]
    assert [w.page for w in words] == ["a.md", "b.md"]
    assert words[0].spellings == ("token", "tokens", "Token", "Tokens")
    text = glossary.glossary_markdown(words)
    assert "*[Tokens]: One piece of text.\n" in text and "*[MSE]: Mean squared error.\n" in text


def test_meanings_must_be_plain_text():
    with pytest.raises(PageError, match="plain text"):
        glossary.read_words(TABLE.replace("Mean squared error.", "The mean of $e^2$."))


def test_a_row_with_a_cell_too_many_is_named():
    with pytest.raises(PageError, match=r"the Words row 'MSE \| Mean \| squared.*has 4 cells"):
        glossary.read_words(TABLE.replace("Mean squared error.", "Mean | squared error."))


def site(tmp_path, pages):
    docs = tmp_path / "docs"
    (docs / "reference").mkdir(parents=True)
    (docs / "reference" / "notation.md").write_text(TABLE)
    for name, text in pages.items():
        (docs / name).write_text(text)
    nav = [{name: name} for name in pages] + ["reference/notation.md"]
    glossary_file = tmp_path / "glossary.md"
    glossary_file.write_text(glossary.glossary_markdown(glossary.read_words(TABLE)))
    return docs, nav, glossary_file


def test_a_word_defined_in_bold_on_its_first_page_passes(tmp_path):
    docs, nav, file = site(
        tmp_path,
        {
            "a.md": "A **token** is a piece. `tokens = 3` in code does not count.\n",
            "b.md": "The loss is the **MSE**, of the tokens.\n",
        },
    )
    assert len(glossary.check(docs, nav, file)) == 2


def test_a_word_used_before_its_page_fails_naming_both(tmp_path):
    docs, nav, file = site(
        tmp_path, {"z.md": "The MSE.\n", "a.md": "A **token**.\n", "b.md": "**MSE**\n"}
    )
    with pytest.raises(PageError, match="'MSE' is first used on docs/z.md"):
        glossary.check(docs, nav, file)


def test_code_comments_math_and_link_targets_are_not_uses(tmp_path):
    page = (
        "```python\nmse = 1  # MSE\n```\n\n<!-- MSE -->\n$\\text{MSE}$ and [x](MSE.md)\n"
        "    ```python\n    MSE = 2\n    ```\n"
    )
    docs, nav, file = site(tmp_path, {"z.md": page, "a.md": "**token**", "b.md": "**MSE**"})
    assert len(glossary.check(docs, nav, file)) == 2


def test_the_first_page_must_write_the_definition_in_bold(tmp_path):
    docs, nav, file = site(tmp_path, {"a.md": "A token.\n", "b.md": "**MSE**\n"})
    with pytest.raises(PageError, match=r"does not define it.*\*\*token\*\*"):
        glossary.check(docs, nav, file)


def test_a_stale_glossary_file_fails_with_the_command_to_rebuild_it(tmp_path):
    docs, nav, file = site(tmp_path, {"a.md": "**token**\n", "b.md": "**MSE**\n"})
    file.write_text(file.read_text().replace("piece", "bit"))
    with pytest.raises(PageError, match="tools/sitekit/glossary.py"):
        glossary.check(docs, nav, file)


TERMS = {"MSE": "Mean squared error.", "learning rate": "A step size."}


def test_notebook_html_gets_the_same_tooltips_outside_code_and_math():
    page = (
        "<p>The MSE at one learning rate, the MSEs.</p><pre><code>MSE = 1</code></pre>"
        '<span class="katex"><span>MSE</span></span><img alt="MSE"><p>MSE</p>'
        '<span class="arithmatex">\\(\\text{MSE}\\)</span>'
    )
    out = glossary.abbreviate_html(page, TERMS)
    assert out == (
        '<p>The <abbr title="Mean squared error.">MSE</abbr> at one '
        '<abbr title="A step size.">learning rate</abbr>, the MSEs.</p>'
        '<pre><code>MSE = 1</code></pre><span class="katex"><span>MSE</span></span>'
        '<img alt="MSE"><p><abbr title="Mean squared error.">MSE</abbr></p>'
        '<span class="arithmatex">\\(\\text{MSE}\\)</span>'
    )


def test_the_defining_page_has_no_tooltip_for_its_own_word():
    words = glossary.read_words(TABLE)
    page = '<p>A <abbr title="x">token</abbr>, the <abbr title="y">MSE</abbr>.</p>'
    assert glossary.without_own_tooltips(page, words, "a.md") == (
        '<p>A token, the <abbr title="y">MSE</abbr>.</p>'
    )
    assert glossary.without_own_tooltips(page, words, "c.md") == page


def test_an_everyday_use_marked_by_the_writer_is_not_a_use(tmp_path):
    everyday = 'Front matter aside, a <span class="everyday">token</span> of thanks.\n'
    docs, nav, file = site(tmp_path, {"z.md": everyday, "a.md": "**token**", "b.md": "**MSE**"})
    assert len(glossary.check(docs, nav, file)) == 2


def test_a_use_before_the_defining_page_names_the_line_and_offers_the_mark(tmp_path):
    page = (
        "---\ntitle: Z\n---\n\n# Z\n\n```python\ntoken = 1\n```\n\n<!-- a\ncomment -->\n"
        "$$\nx\n$$\n\nHe gave a token of thanks.\n"
    )
    docs, nav, file = site(tmp_path, {"z.md": page, "a.md": "**token**", "b.md": "**MSE**"})
    with pytest.raises(PageError) as failed:
        glossary.check(docs, nav, file)
    message = str(failed.value)
    assert page.splitlines()[16] == "He gave a token of thanks."
    assert "'token' is first used on docs/z.md, line 17 ('He gave a token of thanks.')" in message
    assert "defines it on docs/a.md ('One piece of text.')" in message
    assert 'mark it, <span class="everyday">token</span>, or reword the sentence' in message
    assert "define it here instead, in bold (**token**)" in message


def test_a_link_to_the_defining_page_is_no_use_but_the_same_word_unlinked_is(tmp_path):
    # A section's index lists its pages by title before they define their word.
    docs, nav, file = site(tmp_path, {"z.md": "", "a.md": "A **token**.\n", "b.md": "**MSE**\n"})
    (docs / "sub").mkdir()
    index = "| 1 | [Tokens](../a.md#top) |\n| 2 | [MSE](../b.md) |\n"
    (docs / "sub" / "index.md").write_text(index)
    nav.insert(0, {"Index": "sub/index.md"})
    assert len(glossary.check(docs, nav, file)) == 2
    (docs / "sub" / "index.md").write_text(index + "\nA [token](../b.md) and then\nan MSE.\n")
    with pytest.raises(PageError) as failed:
        glossary.check(docs, nav, file)
    message = str(failed.value)
    assert "'token' is first used on docs/sub/index.md, line 4 ('A [token](../b.md)" in message
    assert "'MSE' is first used on docs/sub/index.md, line 5 ('an MSE.')" in message


def test_a_marked_everyday_use_shows_no_tooltip_on_pages_and_notebooks():
    import markdown

    source = 'A <span class="everyday">token</span> of thanks, and a token.\n\n'
    source += glossary.glossary_markdown(glossary.read_words(TABLE))
    page = markdown.markdown(source, extensions=["abbr"])
    assert page.count("<abbr") == 2  # Markdown's abbreviations reach into the mark
    out = glossary.without_everyday_tooltips(page)
    assert out == (
        '<p>A <span class="everyday">token</span> of thanks, and a '
        '<abbr title="One piece of text.">token</abbr>.</p>'
    )
    notebook = glossary.abbreviate_html(
        '<p>A <span class="everyday">MSE</span>, the MSE.</p>', TERMS
    )
    assert glossary.without_everyday_tooltips(notebook) == (
        '<p>A <span class="everyday">MSE</span>, the <abbr title="Mean squared error.">'
        "MSE</abbr>.</p>"
    )


def test_each_word_becomes_a_button_described_by_its_definition():
    page = '<p>A <abbr title="One piece &amp; more.">token</abbr>, <abbr title="x">MSE</abbr>.</p>'
    out = glossary.definitions_html(page)
    assert out == (
        '<p>A <span class="gloss"><button type="button" class="gloss__term"'
        ' aria-describedby="gloss-1">token</button><span class="gloss__tip" role="tooltip"'
        ' id="gloss-1" data-search-exclude>One piece &amp; more.</span></span>, <span'
        ' class="gloss"><button type="button" class="gloss__term" aria-describedby="gloss-2">'
        'MSE</button><span class="gloss__tip" role="tooltip" id="gloss-2"'
        " data-search-exclude>x</span></span>.</p>"
    )


def test_a_word_inside_a_control_keeps_its_abbr_so_no_control_nests_in_another():
    page = (
        '<a href="x">the <abbr title="d">MSE</abbr></a>'
        '<details><summary>Why <abbr title="d">MSE</abbr>?</summary>'
        '<p><abbr title="d">MSE</abbr></p></details>'
    )
    out = glossary.definitions_html(page)
    assert out.count("<abbr") == 2 and out.count('class="gloss__term"') == 1
    assert '<p><span class="gloss">' in out
