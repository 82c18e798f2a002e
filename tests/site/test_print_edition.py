"""The print edition of the built site (sitekit.print_edition): each section's printable page,
and its PDF read back as a reader's tools read it (poppler's pdftotext and pdftoppm, pypdf).

A site built without a browser has no PDFs (its section pages say so): the checks of the PDFs
skip, saying so. Without poppler, the checks that need it skip, saying so, unless
PAPERLENS_REQUIRE_POPPLER=1 (CI sets it): then they fail.
"""

import html
import os
import re
import shutil
import subprocess
from datetime import UTC, datetime
from functools import cache
from html.parser import HTMLParser

import pytest

from sitekit import concepts, paths, print_edition
from sitekit.paths import page_url

FOLDERS = list(print_edition.SECTIONS)


def section_sources(folder):
    """The section's pages, in reading order, from mkdocs.yml's nav."""
    for entry in concepts.read_config()["nav"]:
        if not isinstance(entry, dict):
            continue
        (value,) = entry.values()
        found = [src for _, src in concepts.nav_pages(value)]
        if found and found[0] == f"{folder}/index.md":
            return found
    raise AssertionError(f"no section of the nav starts with {folder}/index.md")


def print_html(site, folder):
    return (site / page_url(print_edition.print_source(folder))).read_text(encoding="utf-8")


def article(text):
    """The page's content: the theme's chrome left out."""
    start = text.index('<article class="md-content__inner md-typeset">')
    return text[start : text.index("</article>", start)]


def page_articles(site, folder):
    return [
        article((site / page_url(src)).read_text(encoding="utf-8"))
        for src in section_sources(folder)
    ]


def needs(tool):
    if shutil.which(tool) is None:
        reason = f"needs {tool} (Debian's poppler-utils; README, Requirements)"
        if os.environ.get("PAPERLENS_REQUIRE_POPPLER") == "1":
            pytest.fail(f"PAPERLENS_REQUIRE_POPPLER=1 but the PDF check {reason}", pytrace=False)
        pytest.skip(reason)


def the_pdf(site, folder):
    """The section's PDF; skips, saying so, when the build had no browser to print it."""
    pdf = site / print_edition.pdf_path(folder)
    if not pdf.is_file():
        index = (site / page_url(f"{folder}/index.md")).read_text(encoding="utf-8")
        assert "The PDF is not part of this build" in index, f"{pdf} is missing, unexplained"
        pytest.skip("this build has no PDFs: no browser to print them (README, Requirements)")
    return pdf


@cache
def pdf_text(site, folder):
    pdf = the_pdf(site, folder)
    needs("pdftotext")
    result = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return " ".join(result.stdout.split())


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_section_index_links_its_print_page_and_its_pdf(site, pages, folder):
    """Or, in a build with no browser, says that its PDF is not part of the build
    (tests/site/test_without_a_browser.py builds one)."""
    index = pages[f"{folder}/index.html"]
    assert "print/" in index.links
    pdf = print_edition.pdf_path(folder).removeprefix(f"{folder}/")
    printed = (site / print_edition.pdf_path(folder)).is_file()
    assert (pdf in index.links) == printed
    assert ("The PDF is not part of this build" in index.text) == (not printed)


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_print_page_holds_the_section_s_pages_in_reading_order(site, folder):
    text = print_html(site, folder)
    found = re.findall(
        r'<section class="print-edition__page" id="[^"]+" data-source="([^"]+)"', text
    )
    assert found == [f"docs/{src}" for src in section_sources(folder)]
    assert "print-edition__missing" not in text


@pytest.mark.parametrize("folder", FOLDERS)
def test_interactive_parts_degrade_on_paper(site, folder):
    text = article(print_html(site, folder))
    sources = "".join(page_articles(site, folder))
    # Explorables keep their default frame, without their control's script and frames.
    assert text.count('<figure class="explorable-print"') == sources.count(
        '<figure class="explorable"'
    )
    assert "data-frames" not in text and "explorables.js" not in text
    # Answer boxes become their question and room to answer.
    forms = re.findall(r'<form class="answer-box".*?</form>', sources, re.S)
    questions = [re.search(r"<(legend|label)\b[^>]*>(.*?)</\1>", f, re.S).group(2) for f in forms]
    spaces = re.findall(r'<p class="answer-space__label">(.*?):</p>', text)
    assert spaces == [" ".join(re.sub(r"<[^>]+>", "", q).split()) for q in questions]
    choices = [f for f in forms if "<legend" in f]
    assert text.count('<ul class="answer-space__choices">') == len(choices)
    assert "<form" not in text
    # Closed blocks print their title only; open ones stay open.
    closed = len(re.findall(r"<details(?![^>]*\bopen\b)[^>]*>", sources))
    assert text.count("print-collapsed") == closed
    assert not re.search(r"<details(?![^>]*\bopen\b)[^>]*>", text)


def heading(page_article):
    """A page's title as text, up to its first formula (the PDF spells formulas its own way)."""
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", page_article, re.S)
    assert h1, "a page without a title"
    before_math = h1.group(1).split('<span class="katex')[0]
    text = html.unescape(re.sub(r"<[^>]+>", "", before_math)).replace("¶", "")
    return " ".join(text.split())


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_pdf_has_every_page_s_title_in_reading_order(site, folder):
    text = pdf_text(site, folder)
    at = 0
    for src, page_article in zip(section_sources(folder), page_articles(site, folder), strict=True):
        title = heading(page_article)
        assert len(title) >= 4, f"{src}: title {title!r}"
        found = text.find(title, at)
        assert found >= 0, f"{src}: {title!r} is not in the PDF after the previous page's title"
        at = found + len(title)


# Raw TeX a reader must never see: delimiters and control words.
RAW_TEX = re.compile(r"\\[()\[\]]|\$\$|\\(?:frac|sqrt|sum|mathbf|mathcal|operatorname|left|top)")


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_formula_reaches_the_pdf_as_raw_tex(site, folder):
    text = pdf_text(site, folder)
    assert not RAW_TEX.findall(text), RAW_TEX.findall(text)[:10]
    assert "√" in text or "∑" in text or "softmax" in text  # formulas are there, as math


class _Images(HTMLParser):
    """The alt text of every <img> not inside the dark style of a figure."""

    VOID = {"img", "source", "br", "hr", "input", "meta", "link", "wbr", "col", "area"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, dark) of the open elements
        self.alts = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        dark = "pl-figure--dark" in (a.get("class") or "").split()
        if tag == "img" and not any(d for _, d in self.stack) and not dark:
            self.alts.append(a.get("alt") or "")
        if tag not in self.VOID:
            self.stack.append((tag, dark))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break


def figure_alts(site, folder):
    """The alt text of every figure the print page shows in the light palette, in order."""
    parser = _Images()
    parser.feed(article(print_html(site, folder)))
    return parser.alts


def pdf_figures(pdf):
    """The alt text of every Figure of the PDF's structure (Chromium's tagged PDF), in order."""
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(pdf)
    found = []

    def walk(node):
        node = node.get_object()
        if isinstance(node, list):
            for child in node:
                walk(child)
            return
        if not isinstance(node, dict):
            return
        if node.get("/S") == "/Figure" and "/Alt" in node:
            found.append(str(node["/Alt"]))
        if "/K" in node:
            walk(node["/K"])

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    return found, reader


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_figure_is_in_the_pdf_with_its_alt_text(site, folder):
    expected = figure_alts(site, folder)
    assert expected, f"{folder}: no figure in the print edition"
    found, reader = pdf_figures(the_pdf(site, folder))
    assert found == expected

    # And the PDF's outline lists every page of the section.
    def titles(outline):
        for item in outline:
            yield from titles(item) if isinstance(item, list) else [str(item.title)]

    assert len(list(titles(reader.outline))) >= len(section_sources(folder))


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_pdf_page_renders_with_ink_on_it(site, folder, tmp_path):
    pdf = the_pdf(site, folder)
    needs("pdftoppm")
    from PIL import Image

    subprocess.run(
        ["pdftoppm", "-r", "24", "-gray", "-png", str(pdf), str(tmp_path / "p")], check=True
    )
    rendered = sorted(tmp_path.glob("p-*.png"))
    assert len(rendered) > len(section_sources(folder))  # more sheets than pages
    for png in rendered:
        # Ink above the footer (the page number is on every sheet): some pixels well darker
        # than the paper (text at 24 dpi is grey, not black).
        image = Image.open(png).convert("L")
        body = image.crop((0, 0, image.width, int(image.height * 0.93)))
        histogram = body.histogram()
        assert sum(histogram[:160]) > 20, f"{png.name}: a blank page"


def test_the_pdf_is_dated_by_source_date_epoch(site):
    pypdf = pytest.importorskip("pypdf")
    epoch = int(paths.build_env()["SOURCE_DATE_EPOCH"])
    stamp = datetime.fromtimestamp(epoch, UTC).strftime("D:%Y%m%d%H%M%S")
    for folder in FOLDERS:
        info = pypdf.PdfReader(the_pdf(site, folder)).trailer["/Info"]
        assert str(info["/CreationDate"]).startswith(stamp)
        assert str(info["/ModDate"]).startswith(stamp)


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_pdf_carries_the_pages_reference_lists(site, folder):
    """Every work a page of the section cites is in the PDF, with its link's text."""
    from sitekit import citations

    works = citations.load(paths.ROOT / "docs")
    cited = set()
    for page_article in page_articles(site, folder):
        cited |= set(re.findall(r'<li id="ref-([\w:-]+)">', page_article))
    text = pdf_text(site, folder)
    assert cited, f"{folder}: no page of the section cites a paper"
    for key in sorted(cited):
        title = " ".join(works[key].title.split())
        assert title in text, f"{key}: {title!r} is not in the PDF"

        # A line may break the link's text, and pdftotext joins "W18-" and "2509" as "W182509":
        # compared without spaces and hyphens.
        def squeeze(t: str) -> str:
            return t.replace(" ", "").replace("-", "")

        assert squeeze(works[key].links[0][0]) in squeeze(text), key
