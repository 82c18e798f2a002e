"""Citations: ``[@key]`` in a page becomes a link to the page's own reference list, whose
entries come from ``docs/references.bib`` (parsed by pybtex) and link to the papers.

The marker follows pandoc's: ``[@he2016]`` reads "(He et al., 2016)", ``[@he2016, §4.1]``
"(He et al., 2016, §4.1)" (the location of a quote stays beside its citation), ``[-@he2016]``
"(2016)" after a sentence that names the authors, and ``[@a; @b]`` cites two works. `expand`
writes the citations and the list as HTML, which Markdown, nbconvert's HTML and Jupyter's
Markdown cells all keep, so Markdown pages, notebook pages, downloaded notebooks and the print
edition carry the same text. An entry with no well-formed arXiv id, DOI or (for a work with
neither) https address raises `PageError`; the other loose ends are returned for the plugin
to report (`make site` fails on them, `make serve` shows them in the page): a key with no entry
(`expand`, with its line), a page that names a work in its prose without citing it
(`uncited_names`), and an entry that no page cites (`uncited_entries`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path

import yaml
from pybtex.backends import plaintext
from pybtex.database import Entry as BibEntry
from pybtex.database import parse_string
from pybtex.exceptions import PybtexError
from pybtex.richtext import Text

from sitekit import PageError

BIB_FILE = "references.bib"  # in docs/, so the site publishes it for readers to download
PAGE = "references.md"  # the References page, generated: every entry
_LEFT = re.compile(r"\[-?@[A-Za-z][^\]]{0,40}")  # what is left of a marker MARKER did not read
# A locator may wrap onto the next line, as prose does ("[@key,\n§3.2]"), but not further.
MARKER = re.compile(r"\[((?:-?@[A-Za-z][\w:-]*(?:,[^;\]\n]*(?:\n[^;\]\n]*)?)?;?\s*)+)\]")
_ONE = re.compile(r"(-?)@([A-Za-z][\w:-]*)(?:,\s*([^;]*))?")
# What a reader can follow: arXiv's and doi.org's addresses; for a work with neither (an ACL
# paper of 2004, a technical report, a blog post), its publisher's https address.
ARXIV = re.compile(r"\d{4}\.\d{4,5}")
DOI = re.compile(r"10\.\d{4,9}/[^\s\"<>]+")
ADDRESS = re.compile(r"https://(?P<host>[a-z0-9.-]+\.[a-z]{2,})/[^\s\"<>]*")
# Code, where a marker is not one: HTML's <pre> and <code>, Markdown's fenced blocks and its
# code spans.
_CODE = re.compile(
    r"(<pre\b.*?</pre>|<code\b.*?</code>|^[ \t]*(?:```|~~~).*?^[ \t]*(?:```|~~~)[ \t]*$"
    r"|`[^`\n]+`)",
    re.S | re.M,
)


@dataclass(frozen=True)
class Work:
    key: str
    authors: list[str]  # "Kaiming He", in the entry's order
    surnames: list[str]
    title: str
    venue: str
    year: str
    links: list[tuple[str, str]]  # (label, address): arXiv first, then the DOI or the https url
    names: list[str]  # how prose names it besides its authors: its title, and the entry's `names`

    @property
    def label(self) -> str:
        """How a citation names the authors: "Keshav", "Kingma and Ba", "He et al."."""
        s = self.surnames
        return s[0] if len(s) == 1 else f"{s[0]} and {s[1]}" if len(s) == 2 else f"{s[0]} et al."

    def authors_named_in(self, text: str) -> bool:
        """Whether ``text`` names the authors as a citation would: "He et al.", "Kingma and
        Ba", or "Post (2018)" (a lone surname being also a word, it needs its year or 's)."""
        s = [re.escape(n) for n in self.surnames]
        who = (
            rf"\b{s[0]}(?:'s| \(?\d{{4}}|, \d{{4}})"
            if len(s) == 1
            else rf"\b{s[0]} (?:and|&) {s[1]}\b"
            if len(s) == 2
            else rf"\b{s[0]} et al\b"
        )
        return bool(re.search(who, text))

    def entry_html(self) -> str:
        links = " · ".join(
            f'<a href="{html.escape(u)}">{html.escape(t)}</a>' for t, u in self.links
        )
        authors = (
            ", ".join(self.authors[:-1]) + " and " * (len(self.authors) > 1) + self.authors[-1]
        )
        return (
            f'<li id="ref-{self.key}">{html.escape(authors)} ({self.year}).'
            f" <cite>{html.escape(self.title)}</cite>. {html.escape(self.venue)}. {links}</li>"
        )


_PLAIN = plaintext.Backend()  # named, not looked up per call (`render_as` reads entry points)


def _text(latex: str) -> str:
    return str(Text.from_latex(latex).render(_PLAIN))


def _work(key: str, e: BibEntry) -> Work:
    f = e.fields
    people = e.persons.get("author", [])
    links = []
    if f.get("eprint"):
        if not ARXIV.fullmatch(f["eprint"]):
            raise PageError(f"docs/{BIB_FILE}: {key}: eprint {f['eprint']!r} is no arXiv id")
        links.append((f"arXiv:{f['eprint']}", f"https://arxiv.org/abs/{f['eprint']}"))
    if f.get("doi"):
        if not DOI.fullmatch(f["doi"]):
            raise PageError(f"docs/{BIB_FILE}: {key}: doi {f['doi']!r} is not a DOI")
        links.append((f"doi:{f['doi']}", f"https://doi.org/{f['doi']}"))
    elif f.get("url"):
        address = ADDRESS.fullmatch(f["url"])
        if not address:
            raise PageError(f"docs/{BIB_FILE}: {key}: url {f['url']!r} is no https address")
        links.append((address["host"], f["url"]))
    if not links or not people or not f.get("title") or not f.get("year"):
        raise PageError(
            f"docs/{BIB_FILE}: {key} needs authors, a title, a year and an arXiv eprint, a doi"
            " or (for a work with neither) an https url"
        )
    venue = (
        f.get("journal")
        or f.get("booktitle")
        or f.get("institution")
        or f.get("howpublished")
        or "arXiv preprint"
    )
    if f.get("volume"):
        venue += f" {f['volume']}" + (f"({f['number']})" if f.get("number") else "")
    if f.get("pages"):
        venue += f", pp. {_text(f['pages'])}"
    title = _text(f["title"])
    extra = [n.strip() for n in f.get("names", "").split(";") if n.strip()]
    return Work(
        key=key,
        authors=[_text(" ".join(p.first_names + p.middle_names + p.last_names)) for p in people],
        surnames=[_text(" ".join(p.last_names)) for p in people],
        title=title,
        venue=_text(venue),
        year=f["year"],
        links=links,
        names=[title, *extra],
    )


def load(docs: Path) -> dict[str, Work]:
    """Every entry of ``docs/references.bib``, by key, in the file's order."""
    text = (docs / BIB_FILE).read_text(encoding="utf-8")
    try:
        entries = parse_string(text, "bibtex").entries
    except PybtexError as err:
        raise PageError(f"docs/{BIB_FILE}: {err}") from None
    works = {key: _work(key, e) for key, e in entries.items()}
    # Two works of one label and year read "2016a" and "2016b", in the file's order.
    labels = {k: (w.label, w.year) for k, w in works.items()}
    for key, work in works.items():
        same = [k for k in works if labels[k] == labels[key]]
        if len(same) > 1:
            works[key] = replace(work, year=work.year + "abcdefgh"[same.index(key)])
    return works


def _line(source: str, needle: str) -> int:
    return source.count("\n", 0, max(source.find(needle), 0)) + 1


def expand(
    text: str,
    works: dict[str, Work],
    *,
    where: str,
    source: str | None = None,
    to_paper: bool = False,
) -> tuple[str, list[str], list[str]]:
    """``text`` (Markdown or HTML) with each marker outside code written as a link to its
    entry (``to_paper``: to the paper itself, for notebooks, whose Jupyter front ends drop the
    ids a link to the entry needs); the keys it cites, in order of first citation; and an error
    for each unknown key, naming ``where`` and the line of ``source`` (default ``text``), whose
    marker is shown marked in place."""
    cited: list[str] = []
    errors: list[str] = []

    def cite(m: re.Match[str]) -> str:
        parts = []
        for dash, key, locator in _ONE.findall(m.group(1)):
            if key not in works:
                line = _line(source or text, m.group(0))
                errors.append(f"{where}:{line}: [@{key}] names no entry of docs/{BIB_FILE}")
                parts.append(f'<mark class="citation-unknown">@{html.escape(key)}?</mark>')
                continue
            cited.extend([key] * (key not in cited))
            said = works[key].year if dash else f"{works[key].label}, {works[key].year}"
            locator = " ".join(locator.split())  # a wrapped locator, on one line
            said += f", {locator}" if locator else ""
            href = works[key].links[0][1] if to_paper else f"#ref-{key}"
            parts.append(f'<a class="citation" href="{href}">{html.escape(said)}</a>')
        return f"({'; '.join(parts)})"

    pieces = _CODE.split(text)
    out = [p if i % 2 else MARKER.sub(cite, p) for i, p in enumerate(pieces)]
    for left in (_LEFT.search(p) for i, p in enumerate(out) if not i % 2):
        if left:  # a marker MARKER cannot read: it would be shown to the reader as typed
            line = _line(source or text, left.group(0))
            errors.append(f"{where}:{line}: a citation the build cannot read: {left.group(0)!r}")
    return "".join(out), cited, errors


def cite_markdown(markdown: str, works: dict[str, Work], *, where: str) -> str:
    """A notebook's Markdown with its citations written as links to the papers and its
    reference list at its end (unknown keys marked in place; the page itself reports them)."""
    text, keys, _ = expand(markdown, works, where=where, to_paper=True)
    return with_references(text, keys, works)


def uncited_entries(docs: Path, works: dict[str, Work]) -> list[str]:
    """The entries that no page's source cites (Markdown pages and notebooks, outside code)."""
    sources = [*docs.rglob("*.md"), *docs.rglob("*.py")]
    cited = {k for path in sources for k in expand(path.read_text("utf-8"), works, where="")[1]}
    return [key for key in works if key not in cited]


def reference_list(keys: list[str], works: dict[str, Work]) -> str:
    """The entries of ``keys``, sorted as a reference list is (by authors, then year)."""
    ordered = sorted(keys, key=lambda k: (works[k].surnames, works[k].year))
    items = "\n".join(works[k].entry_html() for k in ordered)
    return f'<ol class="references">\n{items}\n</ol>\n'


def with_references(
    text: str, keys: list[str], works: dict[str, Work], *, markdown: bool = True
) -> str:
    """A page (Markdown, or with ``markdown=False`` HTML) or notebook cell ending with its
    reference list under a "References" heading, when it cites."""
    if not keys:
        return text
    heading = "## References\n" if markdown else '<h2 id="references">References</h2>'
    return f"{text.rstrip()}\n\n{heading}\n{reference_list(keys, works)}"


class _Prose(HTMLParser):
    """The text of an HTML page outside code, scripts, styles and drawings."""

    SKIP = frozenset({"pre", "code", "script", "style", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.inside = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside += tag in self.SKIP

    def handle_endtag(self, tag: str) -> None:
        self.inside -= tag in self.SKIP and self.inside > 0

    def handle_data(self, data: str) -> None:
        if not self.inside:
            self.parts.append(data)


def page_text(page_html: str) -> str:
    """The prose of a page's HTML: its text outside code, tags left out and entities read
    (the standard library's parser: five times faster here than BeautifulSoup's tree)."""
    prose = _Prose()
    prose.feed(page_html)
    prose.close()
    return " ".join(prose.parts)


def named(text: str, works: dict[str, Work]) -> dict[str, str]:
    """The works ``text`` names, by key, each with the name it is named by: its authors as a
    citation would name them (`Work.authors_named_in`), which for a label several works share
    ("He et al.") is said of the first of them, or its title or one of its `names`."""
    text = " ".join(text.split())  # a name broken over two lines is still named
    found: dict[str, str] = {}
    for label in dict.fromkeys(w.label for w in works.values()):
        first = next(k for k, w in works.items() if w.label == label)
        if works[first].authors_named_in(text):
            found[first] = label
    for key, work in works.items():
        said = [n for n in work.names if n in text]
        if said:
            found[key] = said[0]
    return found


def uncited_names(text: str, cited: list[str], works: dict[str, Work]) -> list[str]:
    """What ``text`` names (`named`) but does not cite. Citing any work of a shared label
    satisfies a use of that label: "He et al." names several papers here."""
    labels = {works[k].label for k in cited}
    return [
        name
        for key, name in named(text, works).items()
        if key not in cited and not (name == works[key].label and name in labels)
    ]


def references_page(works: dict[str, Work]) -> str:
    """The References page: every entry, and the file to download."""
    return (
        "---\ntitle: References\ndescription: Every paper this site cites or quotes, with a"
        " link to each.\n---\n\n# References\n\nEvery work the pages cite or quote, with a"
        " link to the paper. Each page lists its own at its end. The same entries as BibTeX:"
        f" [{BIB_FILE}]({BIB_FILE}).\n\n{reference_list(list(works), works)}"
    )


CFF_FILE = "CITATION.cff"  # at the repository's root: GitHub's "Cite this repository"


def site_bibtex(cff: Path, *, site_url: str, version: str, year: int) -> str:
    """The site's own BibTeX entry, from ``CITATION.cff``, as a fenced block for the home page:
    the address is the site's, the version the library's, the year the build's commit's."""
    meta = yaml.safe_load(cff.read_text(encoding="utf-8"))
    people = [
        "{" + a["name"] + "}" if "name" in a else f"{a['family-names']}, {a['given-names']}"
        for a in meta["authors"]
    ]
    return (
        "```bibtex\n@misc{paperlens,\n"
        f"  author = {{{' and '.join(people)}}},\n"
        f"  title = {{{{{meta['title']}}}}},\n"  # doubled braces: styles keep its capitals
        f"  year = {{{year}}},\n"
        f"  url = {{{site_url}}},\n"
        f"  note = {{Version {version}}},\n"
        "}\n```"
    )
