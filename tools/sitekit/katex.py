"""Build-time math: TeX from arithmatex's ``generic`` output rendered to HTML by KaTeX.

Pages ship the rendered HTML plus KaTeX's CSS and fonts; no math JavaScript runs in the
reader's browser. One ``node`` process (``katex_server.js``) serves a whole build; results are
cached by content hash in ``.cache/katex.json`` so a rebuild only renders new formulas.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from sitekit import PageError, cache
from sitekit.page_model import MATH_DISPLAY, MATH_INLINE
from sitekit.paths import ROOT, cache_root

HERE = Path(__file__).resolve().parent
KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"

# arithmatex (generic: true) wraps inline math as <span class="arithmatex">\(...\)</span>
# and display math as <div class="arithmatex">\[...\]</div>.
_INLINE = re.compile(r'<span class="arithmatex">\\\((.+?)\\\)</span>', re.S)
_DISPLAY = re.compile(r'<div class="arithmatex">\\\[(.+?)\\\]</div>', re.S)
# Notebook Markdown cells (mkdocs-jupyter) keep $...$ and $$...$$ as text: the Markdown-side
# patterns of `sitekit.page_model`, shared with the Anki deck.
# Code in a notebook page's HTML, where a $ is a character, not math.
_CODE = re.compile(r"(<pre\b.*?</pre>|<code\b.*?</code>)", re.S)


def mark_text_math(text_html: str) -> str:
    """$$...$$ and $...$ left as text (notebook Markdown cells) marked up as arithmatex marks a
    Markdown page's math, for `Renderer.render_page`; not inside code (``<pre>``, ``<code>``):
    a code cell's f-string ``f"$d_k = {d}$"`` stays code."""
    parts = _CODE.split(text_html)  # odd indices: the code elements, kept as they are
    for i in range(0, len(parts), 2):
        marked = MATH_DISPLAY.sub(r'<div class="arithmatex">\\[\1\\]</div>', parts[i])
        parts[i] = MATH_INLINE.sub(r'<span class="arithmatex">\\(\1\\)</span>', marked)
    return "".join(parts)


def katex_version() -> str:
    package = json.loads((KATEX_DIST.parent / "package.json").read_text())
    return str(package["version"])


class Renderer:
    """Renders formulas through one node process, with a persistent content-hash cache
    (``cache_file``, default ``katex.json`` in the build's cache folder, `paths.cache_root`)."""

    def __init__(self, cache_file: Path | None = None) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._version = katex_version()
        self.cache_file = cache_file or cache_root() / "katex.json"
        stored = cache.read_json(self.cache_file)  # verified: a damaged file is dropped
        self._cache: dict[str, str] = stored if isinstance(stored, dict) else {}
        self._dirty = False
        self.rendered = 0  # formulas sent to KaTeX in this build (cache misses)

    def _key(self, tex: str, display: bool) -> str:
        raw = f"{self._version}\0{int(display)}\0{tex}".encode()
        return hashlib.sha256(raw).hexdigest()[:32]

    def _node(self) -> subprocess.Popen[str]:
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["node", str(HERE / "katex_server.js")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
        return self._proc

    def render(self, tex: str, *, display: bool, where: str) -> str:
        key = self._key(tex, display)
        if key in self._cache:
            return self._cache[key]
        proc = self._node()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({"id": key, "tex": tex, "display": display}) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        if "error" in reply:
            kind = "display" if display else "inline"
            raise PageError(f"{where}: KaTeX cannot render {kind} math {tex!r}: {reply['error']}")
        self._cache[key] = reply["html"]
        self._dirty = True
        self.rendered += 1
        return str(reply["html"])

    def render_page(self, page_html: str, *, where: str) -> str:
        """Replace every arithmatex span/div of a rendered Markdown page by KaTeX HTML."""
        return self._substitute(page_html, _DISPLAY, _INLINE, where)

    def _substitute(
        self, text: str, display: re.Pattern[str], inline: re.Pattern[str], where: str
    ) -> str:
        def block(m: re.Match[str]) -> str:
            tex = html.unescape(m.group(1)).strip()
            return f'<div class="math-display">{self.render(tex, display=True, where=where)}</div>'

        def span(m: re.Match[str]) -> str:
            return self.render(html.unescape(m.group(1)).strip(), display=False, where=where)

        return inline.sub(span, display.sub(block, text))

    def close(self) -> None:
        if self._proc is not None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            self._proc.wait(timeout=10)
            if self._proc.stdout is not None:
                self._proc.stdout.close()
            self._proc = None
        if self._dirty:
            cache.write_json(self.cache_file, self._cache)  # atomic: builds never read half a file
            self._dirty = False


def asset_files() -> dict[str, bytes]:
    """KaTeX's stylesheet and woff2 fonts, keyed by their path inside the site.

    The stylesheet lists woff2, woff and ttf for every font; every browser that runs this site
    reads woff2, so only those are shipped and the other two sources are cut from the CSS.
    """
    css = (KATEX_DIST / "katex.min.css").read_text()
    css = re.sub(r',url\(fonts/[^)]+\.woff\) format\("woff"\)', "", css)
    css = re.sub(r',url\(fonts/[^)]+\.ttf\) format\("truetype"\)', "", css)
    out = {"assets/katex/katex.min.css": css.encode()}
    for font in sorted((KATEX_DIST / "fonts").glob("*.woff2")):
        out[f"assets/katex/fonts/{font.name}"] = font.read_bytes()
    return out


# Headings with math reach the table of contents, the navigation and <title> as text, where
# HTML cannot go; there the TeX is spelled in Unicode instead.
_PLAIN = [
    (re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"),
    (re.compile(r"\\(?:mathbf|mathrm|mathcal|operatorname|text|boldsymbol)\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\^\{?\\(?:top|intercal)\}?|\^\{?T\}?(?![A-Za-z])"), "ᵀ"),
    (re.compile(r"\\cdot\b"), "·"),
    (re.compile(r"\\times\b"), "×"),
    (re.compile(r"\\to\b|\\rightarrow\b"), "→"),
    (re.compile(r"\\infty\b"), "∞"),
    (re.compile(r"\\approx\b"), "≈"),
    (re.compile(r"\\sum\b"), "Σ"),
    (re.compile(r"\\(?:left|right)\b"), ""),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}"), r"\1/\2"),
    (re.compile(r"[{}]"), ""),
]
_TEXT_MATH = re.compile(r"\\\((.+?)\\\)|\$(.+?)\$")


def plain_text(text: str) -> str:
    """``Why \\(QK^\\top\\) needs it`` → ``Why QKᵀ needs it``: math in headings as Unicode."""

    def spell(m: re.Match[str]) -> str:
        tex = m.group(1) or m.group(2)
        for pattern, replacement in _PLAIN:
            tex = pattern.sub(replacement, tex)
        return " ".join(tex.split())

    return _TEXT_MATH.sub(spell, text)


def plain_titles(page: Any) -> None:
    """Math in a page's headings, spelled in Unicode where only text can go (its table of
    contents, the navigation and ``<title>``)."""

    def walk(items: Any) -> None:
        for item in items:
            item.title = plain_text(item.title)
            walk(item.children)

    walk(page.toc)
    if page.title:
        page.title = plain_text(page.title)
