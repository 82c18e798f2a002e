"""The print edition's rules for putting a section's pages on one page (sitekit.print_edition),
on small pieces of HTML; tests/site/test_print_edition.py checks the built edition and PDFs."""

import hashlib

import pytest

from sitekit import print_edition as pe


def test_page_keys_and_urls():
    assert pe.page_key("foundations/softmax.md") == "foundations-softmax"
    assert pe.url_of("foundations/softmax.md") == "foundations/softmax/"
    assert pe.url_of("foundations/index.md") == "foundations/"
    assert pe.url_of("reproduce/attention-scaling.py") == "reproduce/attention-scaling/"


def test_ids_and_every_reference_to_them_get_the_page_s_key():
    c = pe._Context("foundations-softmax", "foundations/softmax/", "foundations/print/", {})
    out = pe.rebase(
        '<h2 id="the-formula">F<a class="headerlink" href="#the-formula">¶</a></h2>'
        '<label for="answer-2">A</label><button aria-describedby="gloss-1 gloss-2">t</button>',
        c,
    )
    assert '<h3 id="foundations-softmax--the-formula">' in out
    assert 'href="#foundations-softmax--the-formula"' in out
    assert 'for="foundations-softmax--answer-2"' in out
    assert 'aria-describedby="foundations-softmax--gloss-1 foundations-softmax--gloss-2"' in out
    assert "</h3>" in out and "<h2" not in out


def test_links_inside_the_section_stay_inside_and_others_are_rebased():
    keys = {"foundations/": "foundations-index", "foundations/matrices/": "foundations-matrices"}
    c = pe._Context("foundations-softmax", "foundations/softmax/", "foundations/print/", keys)
    out = pe.rebase(
        '<a href="../matrices/#shape">m</a><a href="../">i</a>'
        '<a href="../../walkthrough/step-1/">w</a><a href="https://x.org/a">x</a>'
        '<a href="../../downloads/paperlens.whl">d</a>',
        c,
    )
    assert 'href="#foundations-matrices--shape"' in out
    assert 'href="#foundations-index"' in out
    assert 'href="../../walkthrough/step-1/"' in out  # from foundations/print/, the same depth
    assert 'href="https://x.org/a"' in out
    assert 'href="../../downloads/paperlens.whl"' in out


def test_images_are_rebased_from_the_section_index_too():
    c = pe._Context("foundations-index", "foundations/", "foundations/print/", {})
    out = pe.rebase(
        '<picture><source srcset="../figures/a.narrow.svg" media="(max-width: 640px)">'
        '<img src="../figures/a.svg" alt="x"></picture>',
        c,
    )
    assert 'srcset="../../figures/a.narrow.svg"' in out
    assert 'src="../../figures/a.svg"' in out


def test_explorables_keep_their_default_frame_and_lose_their_frames_and_script():
    c = pe._Context("k", "walkthrough/s/", "walkthrough/print/", {})
    out = pe.rebase(
        '<figure class="explorable" id="e" data-frames="{&quot;frames&quot;: []}">'
        '<div class="explorable__figure"><img src="../../f.svg"'
        ' alt="d"></div><div class="explorable__control" hidden><input id="e-input"></div>'
        "</figure>"
        '<script src="../../assets/explorables.js"></script>',
        c,
    )
    assert '<figure class="explorable-print" id="k--e">' in out
    assert 'src="../../f.svg"' in out
    assert "data-frames" not in out and "explorables.js" not in out


def test_an_answer_box_becomes_its_question_and_room_to_answer():
    c = pe._Context("k", "foundations/self-test/", "foundations/print/", {})
    out = pe.rebase(
        '<form class="answer-box" data-expected="[8, 64]" hidden="hidden"><label for="a">Your'
        ' answer to question 2 <span class="hint">(a shape)</span></label><input id="a">'
        "</form>",
        c,
    )
    assert "<form" not in out and "[8, 64]" not in out
    assert '<p class="answer-space__label">Your answer to question 2 (a shape):</p>' in out
    assert 'class="answer-space__lines"' in out


def test_closed_blocks_print_their_title_and_open_ones_stay():
    out = pe.collapse(
        '<details class="question"><summary>Q <b>x</b></summary><p>answer</p>'
        '<details class="note"><summary>inner</summary>z</details></details>'
        '<details class="note" open><summary>O</summary>kept</details>'
    )
    assert out == (
        '<div class="admonition question print-collapsed"><p class="admonition-title">Q <b>x</b>'
        '</p></div><details class="note" open><summary>O</summary>kept</details>'
    )


def test_a_block_without_a_class_is_a_note_whatever_its_content_s_classes():
    # A notebook's plain <details>: the class of a formula inside it is not the block's kind.
    out = pe.collapse('<details><summary>How</summary>at <span class="katex">x</span></details>')
    assert (
        out
        == '<div class="admonition note print-collapsed"><p class="admonition-title">How</p></div>'
    )


def test_the_pdf_dates_are_set_in_place():
    pdf = b"%PDF\n/CreationDate (D:20261201160014+00'00')\n/ModDate (D:20261201160014+00'00')>>"
    fixed = pe.fix_dates(pdf, 1767225600)
    assert len(fixed) == len(pdf)
    assert fixed.count(b"(D:20260101000000+00'00')") == 2
    with pytest.raises(ValueError, match="two PDF dates"):
        pe.fix_dates(b"%PDF no dates", 0)


def test_a_damaged_cache_entry_is_dropped(tmp_path):
    entry = tmp_path / "print" / "k.pdf"
    pe._cache_write(entry, b"%PDF-1.7 ok")
    assert pe._cache_read(entry) == b"%PDF-1.7 ok"
    assert (tmp_path / "print" / "k.pdf.sha256").read_text() == hashlib.sha256(
        b"%PDF-1.7 ok"
    ).hexdigest()
    entry.write_bytes(b"%PDF-1.7 truncat")
    assert pe._cache_read(entry) is None
    assert not entry.exists()


def test_the_cache_key_follows_every_file_the_page_loads(tmp_path):
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "foundations" / "print").mkdir(parents=True)
    page = site / "foundations" / "print" / "index.html"
    page.write_text('<link rel="stylesheet" href="../../assets/a.css"><img src="../../f.svg">')
    (site / "assets" / "a.css").write_text("@font-face { src: url(fonts/k.woff2) }")
    (site / "assets" / "fonts").mkdir()
    (site / "assets" / "fonts" / "k.woff2").write_bytes(b"font")
    (site / "f.svg").write_text("<svg/>")
    loaded = [p.relative_to(site).as_posix() for p in pe._files_loaded(site, page)]
    assert loaded == ["assets/a.css", "assets/fonts/k.woff2", "f.svg"]
    key = pe.pdf_key(site, page, "Chromium 1", "https://x/", "0")
    (site / "assets" / "fonts" / "k.woff2").write_bytes(b"other font")
    assert pe.pdf_key(site, page, "Chromium 1", "https://x/", "0") != key


def test_a_choice_prints_its_options_to_tick():
    c = pe._Context("k", "foundations/self-test/", "foundations/print/", {})
    out = pe.rebase(
        '<form class="answer-box" data-kind="choice" hidden="hidden"><fieldset>'
        "<legend>Your answer to question 11</legend>"
        '<label class="answer-box__option"><input type="radio" value="grows"> grows</label>'
        '<label class="answer-box__option"><input type="radio" value="shrinks"> shrinks</label>'
        "</fieldset></form>",
        c,
    )
    assert '<p class="answer-space__label">Your answer to question 11:</p>' in out
    assert '<ul class="answer-space__choices"><li>☐ grows</li><li>☐ shrinks</li></ul>' in out


def test_table_header_ids_are_renumbered_by_rank_in_place():
    pdf = b"/ID (node00000366) /Headers [(node00000369) (node00000366)] /ID (node00000369)"
    fixed = pe.fix_node_ids(pdf)
    assert (
        fixed == b"/ID (node00000000) /Headers [(node00000001) (node00000000)] /ID (node00000001)"
    )
    assert pe.fix_node_ids(pdf.replace(b"366", b"368").replace(b"369", b"371")) == fixed


def test_a_rebuild_rebases_only_the_pages_it_read_again(monkeypatch):
    """Under `make serve` a rebuild reads the pages an edit touched; the others' rebased HTML
    is kept, and the combined page is the one a full build makes."""

    class Page:
        def __init__(self, src: str, title: str) -> None:
            self.file, self.title = type("F", (), {"src_uri": src})(), title

    edition = pe.Edition()
    edition.order = {"foundations": [Page("foundations/a.md", "A"), Page("foundations/b.md", "B")]}
    edition.keep("foundations/a.md", '<h1 id="a">A</h1><a href="../b/">B</a>')
    edition.keep("foundations/b.md", '<h1 id="b">B</h1>')
    first = edition.combine("foundations")
    calls = []
    rebase = pe.rebase
    monkeypatch.setattr(pe, "rebase", lambda html, ctx: calls.append(ctx) or rebase(html, ctx))
    edition.keep("foundations/b.md", '<h1 id="b">B, edited</h1>')
    again = edition.combine("foundations")
    assert [c.key for c in calls] == [pe.page_key("foundations/b.md")]
    fresh = pe.Edition(pages=edition.pages, order=edition.order)
    assert again == fresh.combine("foundations") != first
