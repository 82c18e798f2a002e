"""The built site's citations (`sitekit.citations`): every page that names a paper cites it and
links to it, each page's reference list holds exactly what it cites, and the References page,
the notebooks and the print edition carry the same entries. A planted unknown key fails
`make site` (the preview's notice is tests/browser/test_serve.py's)."""

import json
import re

import pytest
from bs4 import BeautifulSoup

from sitekit import citations, paths, print_edition
from sitekit.paths import ROOT

WORKS = citations.load(ROOT / "docs")
PAPER = re.compile(r"https://(arxiv\.org/abs/\d{4}\.\d{4,5}|doi\.org/10\.|[a-z0-9.-]+/)")


def soup(site, name):
    """The page's article (the theme's chrome left out: parsing it took most of the time)."""
    text = (site / name).read_text(encoding="utf-8")
    start = text.index("<article")
    return BeautifulSoup(text[start : text.rindex("</article>") + len("</article>")], "html.parser")


def cited_and_listed(page):
    """The keys a page's citations link to, and the keys of its reference list."""
    article = page.select_one("article") or page
    cited = {a["href"].removeprefix("#ref-") for a in article.select("a.citation")}
    listed = [li["id"].removeprefix("ref-") for li in article.select("ol.references > li")]
    return cited, listed


def content_pages(site):
    skip = {citations.PAGE, *map(print_edition.print_source, print_edition.SECTIONS)}
    return [
        paths.page_url(src)
        for src in (p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*"))
        if src.endswith((".md", ".py"))
        and src not in skip
        and (site / paths.page_url(src)).is_file()
    ]


def test_every_page_cites_what_it_names_and_lists_exactly_what_it_cites(site):
    citing = 0
    for name in content_pages(site):
        page = soup(site, name)
        cited, listed = cited_and_listed(page)
        assert sorted(cited) == sorted(listed), name
        assert len(listed) == len(set(listed)), name
        article = page.select_one("article")
        for ref in article.select("ol.references"):
            ref.decompose()
        named = citations.named(citations.page_text(str(article)), WORKS)
        labels = {WORKS[k].label for k in cited}
        missing = [n for k, n in named.items() if k not in cited and n not in labels]
        assert not missing, f"{name} names {missing} without citing them"
        citing += bool(cited)
    assert citing >= 15  # the pages that name papers: most of the site


def test_each_entry_links_to_its_paper_and_the_references_page_holds_them_all(site):
    page = soup(site, paths.page_url(citations.PAGE))
    items = page.select("ol.references > li")
    assert [li["id"].removeprefix("ref-") for li in items] == sorted(
        WORKS, key=lambda k: (WORKS[k].surnames, WORKS[k].year)
    )
    for li in items:
        links = [a["href"] for a in li.select("a")]
        assert links and all(PAPER.match(href) for href in links), li
        assert li.select_one("cite").get_text() == WORKS[li["id"].removeprefix("ref-")].title
    assert page.select_one(f'a[href="../{citations.BIB_FILE}"]') is not None  # downloadable
    assert (site / citations.BIB_FILE).read_bytes() == (
        ROOT / "docs" / citations.BIB_FILE
    ).read_bytes()


def test_every_notebook_carries_its_page_s_citations_and_list(site):
    checked = 0
    for notebook in sorted(site.rglob("*.ipynb")):
        page = notebook.with_suffix("") / "index.html"
        if not page.is_file():
            page = notebook.with_name("index.html")  # a section's index
        cited, listed = cited_and_listed(soup(site, page.relative_to(site).as_posix()))
        markdown = "".join(
            "".join(c["source"])
            for c in json.loads(notebook.read_text("utf-8"))["cells"]
            if c["cell_type"] == "markdown"
        )
        in_notebook = re.findall(r'<li id="ref-([\w:-]+)">', markdown)
        assert sorted(in_notebook) == sorted(listed), notebook.name
        # Each citation links to the paper itself (Jupyter drops the ids of in-page anchors).
        papers = set(re.findall(r'class="citation" href="([^"]+)"', markdown))
        assert papers == {WORKS[key].links[0][1] for key in cited}, notebook.name
        assert "[@" not in markdown, notebook.name
        checked += bool(listed)
    assert checked >= 10


@pytest.mark.parametrize("folder", list(print_edition.SECTIONS))
def test_the_print_edition_carries_each_page_s_list(site, folder):
    page = soup(site, paths.page_url(print_edition.print_source(folder)))
    for section in page.select("section.print-edition__page"):
        cited = {a["href"].split("--ref-")[-1] for a in section.select("a.citation")}
        listed = [li["id"].split("--ref-")[-1] for li in section.select("ol.references > li")]
        assert sorted(cited) == sorted(listed), section["data-source"]
        for a in section.select("a.citation"):  # each link finds its entry in the combined page
            assert page.select_one(a["href"]) is not None, a["href"]


def test_an_unknown_key_fails_make_site_naming_the_page_and_line(
    scratch_config, tmp_path, make_site
):
    page = tmp_path / "docs" / "foundations" / "softmax.md"
    text = page.read_text(encoding="utf-8").rstrip("\n") + "\n"
    page.write_text(text + "\nSee [@planted-missing2020].\n", encoding="utf-8")
    line = text.count("\n") + 2
    returncode, output = make_site(f"CONFIG={scratch_config}", f"SITE_DIR={tmp_path / 'site'}")
    assert returncode != 0, output[-3000:]
    expected = f"docs/foundations/softmax.md:{line}: [@planted-missing2020] names no entry"
    assert expected in output, output[-3000:]
    assert "Traceback" not in output
