"""The built pages, parsed once per session for the site checks."""

from html.parser import HTMLParser
from pathlib import Path

import pytest

# The ``site`` fixture (one strict build per session) is in tests/conftest.py, shared with the
# browser tests (tests/browser).


class Page(HTMLParser):
    """The parts of a built page the checks look at."""

    SKIP_TEXT = {"script", "style", "code", "pre", "annotation"}

    def __init__(self, path: Path):
        super().__init__(convert_charrefs=True)
        self.path = path
        self.ids: set[str] = set()
        self.links: list[str] = []  # <a href>
        self.resources: list[tuple[str, str]] = []  # (tag, url) the browser will fetch
        self.images: list[dict[str, str]] = []
        self.classes: list[str] = []
        self.tags: list[str] = []
        self.text_parts: list[str] = []
        # The footer line saying the page's examples (or a notebook's cells) ran at build time.
        self.footer_examples: int | None = None
        self.footer_cells: int | None = None
        self._skip = 0
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.tags.append(tag)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "name" in a:
            self.ids.add(a["name"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag in ("img", "script", "iframe", "source", "audio", "video") and a.get("src"):
            self.resources.append((tag, a["src"]))
        if tag == "link" and a.get("href"):
            rel = a.get("rel", "")
            if any(
                r in rel.split()
                for r in (
                    "stylesheet",
                    "icon",
                    "preload",
                    "modulepreload",
                    "manifest",
                    "prefetch",
                    "dns-prefetch",
                    "preconnect",
                )
            ):
                self.resources.append((f"link[{rel}]", a["href"]))
        if tag == "img":
            self.images.append(a)
        if tag == "p" and "page-checked" in a.get("class", "").split():
            if "data-examples" in a:
                self.footer_examples = int(a["data-examples"])
            if "data-cells" in a:
                self.footer_cells = int(a["data-cells"])
        self.classes.extend(a.get("class", "").split())
        if tag in self.SKIP_TEXT:
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP_TEXT and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(self.text_parts)


@pytest.fixture(scope="session")
def pages(site):
    """Every built HTML page, parsed, keyed by its path inside the site."""
    return {p.relative_to(site).as_posix(): Page(p) for p in sorted(site.rglob("*.html"))}
