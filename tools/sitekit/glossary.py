"""Words the pages use, each defined once and shown as a tooltip on every later page.

The source is the **Words** table of ``docs/reference/notation.md``: a word (and the other forms
it takes in the text), its meaning in plain text, and the page that defines it::

    | word | meaning | defined in |
    | --- | --- | --- |
    | token, tokens | one piece of the input text ... | [Where Q, K and V come from](...) |

From it, ``includes/glossary.md`` is generated: one Markdown abbreviation per form
(``*[token]: one piece ...``), appended to every page by pymdownx.snippets (``auto_append``), so
Python-Markdown's ``abbr`` extension wraps each occurrence in ``<abbr title="...">``. Notebook
pages are not rendered by Python-Markdown; :func:`abbreviate_html` gives them the same tooltips.
The page that defines a word shows no tooltip for it (:func:`without_own_tooltips`).

A ``title`` shows on mouse hover only. :func:`definitions_html` turns each ``<abbr>`` into a
definition every reader can reach (WCAG 2.1's 1.4.13 and 2.1.1): the word is a button whose
accessible description (``aria-describedby``) is the definition, in a ``role="tooltip"``
element beside it. Screen readers announce a focused control's description (NVDA, JAWS,
VoiceOver and TalkBack all do), so the definition is read when the word is reached with Tab,
with no state to announce. The definition opens on hover, on keyboard focus and on tap, stays
while the pointer moves onto it, and closes with Escape (``docs/assets/glossary.js``); without
JavaScript, CSS opens it on hover and focus. Inside a link, a summary, a button or a label a
button would nest one control in another, so a word there keeps its ``<abbr title>``.

The build (``sitekit.plugin``) and ``tests/tools/test_glossary.py`` fail when

- ``includes/glossary.md`` differs from what the table generates (run this module to rewrite
  it: ``.venv/bin/python tools/sitekit/glossary.py``);
- a word's "defined in" page is not the first page, in navigation order, whose prose uses it;
- that page does not define it: the definition sentence writes the word in bold,
  ``**learning rate**``.

Only prose counts as a use: code, math, comments, tags and link targets do not, nor a link to
the word's own page (a section's index lists its pages by title). A word of the
glossary used in its everyday sense ("from head to foot", beside the attention "head") is
marked by its writer, ``<span class="everyday">head</span>``: such a use is not read as a use
of the term (:func:`prose`) and shows no tooltip (:func:`without_everyday_tooltips`).
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from sitekit import PageError, page_model
from sitekit.frontmatter import get_data
from sitekit.paths import ROOT

NOTATION_PAGE = "reference/notation.md"
GLOSSARY_FILE = "includes/glossary.md"
HEADING = "## Words"
# Pages that are not read for uses: the table itself, and pages generated from the others.
NOT_SCANNED = (NOTATION_PAGE, "review.md")
# Meanings become title attributes: plain text, no Markdown or math.
_MARKUP = re.compile(r"[`*$\[\]<>|]")
_LINK = re.compile(r"^\[(?P<text>[^\]]+)\]\((?P<href>[^)\s#]+)(?:#[^)\s]*)?\)$")


@dataclass(frozen=True)
class Word:
    forms: tuple[str, ...]  # as written in the table: "token", "tokens"
    meaning: str
    page: str  # the defining page, relative to docs/

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every form, and its capitalised variant at the start of a sentence."""
        out = dict.fromkeys(self.forms)
        for form in self.forms:
            out.setdefault(form[0].upper() + form[1:])
        return tuple(out)


def read_words(notation: str) -> list[Word]:
    """The rows of the Words table of the notation page's Markdown."""
    lines = notation.splitlines()
    try:
        start = lines.index(HEADING)
    except ValueError:
        raise PageError(f"docs/{NOTATION_PAGE} has no '{HEADING}' section") from None
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    if len(rows) < 3 or rows[0] != ["word", "meaning", "defined in"]:
        raise PageError(
            f"docs/{NOTATION_PAGE}: the Words table needs the columns word | meaning | defined in"
        )
    words = []
    folder = PurePosixPath(NOTATION_PAGE).parent
    for row in rows[2:]:
        if len(row) != 3:
            raise PageError(
                f"docs/{NOTATION_PAGE}: the Words row '{' | '.join(row)}' has {len(row)} cells,"
                " not 3 (word | meaning | defined in; a | in a meaning splits it)"
            )
        forms, meaning, where = row
        link = _LINK.match(where)
        if link is None:
            raise PageError(f"docs/{NOTATION_PAGE}: '{forms}' needs a link to its page")
        if _MARKUP.search(meaning):
            raise PageError(
                f"docs/{NOTATION_PAGE}: the meaning of '{forms}' becomes a tooltip, so it must be"
                " plain text (Unicode for math, no Markdown)"
            )
        page = posixpath.normpath(folder / link.group("href"))
        words.append(Word(tuple(f.strip() for f in forms.split(",")), meaning, page))
    return words


def glossary_markdown(words: list[Word]) -> str:
    """The contents of ``includes/glossary.md``: one abbreviation per spelling."""
    # No comment line saying it is generated: it would be appended to every page's HTML.
    # includes/README.md says so, and the build fails on a hand edit.
    out = []
    for word in words:
        out += [f"*[{spelling}]: {word.meaning}" for spelling in word.spellings]
    return "\n".join(out) + "\n"


def glossary(words: list[Word]) -> dict[str, str]:
    """``{spelling: meaning}``, as the abbr extension reads the generated file."""
    return {s: w.meaning for w in words for s in w.spellings}


# A use of a glossary word in its everyday sense, marked by the page's writer.
EVERYDAY = '<span class="everyday">'
_EVERYDAY = re.compile(re.escape(EVERYDAY) + r".*?</span>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
_TARGET = re.compile(r"\]\([^)]*\)")
_INLINE_LINK = re.compile(r"\[[^\]\n]*\]\((?P<href>[^)\s#]*)[^)]*\)")
_TAG = re.compile(r"<[^>]+>")


def _blank(m: re.Match[str]) -> str:
    """The match as spaces, its line breaks kept: what is left keeps its line numbers."""
    return re.sub(r"[^\n]", " ", m.group(0))


def prose(path: Path, *, page: str = "", links_to: str = "") -> str:
    """The text of a page a reader reads as prose, line for line with the file: Markdown with
    its front matter, code, math, comments, tags, link targets and everyday uses
    (`EVERYDAY`) blanked out. A notebook (``.py``) is read whole but for its everyday uses:
    its prose is in comments and in the strings it prints, and identifiers (``pl.adam_step``)
    never match a word, since ``_`` counts as a letter of the word around it.

    With ``page`` (the page's path under docs/) and ``links_to`` (a page's path under docs/),
    the whole text of every link to ``links_to`` is blanked too: a section's index names its
    pages ("[Broadcasting](broadcasting.md)") before they define their word, and such a link
    points the reader at the definition rather than using the word unexplained."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".md":
        return _EVERYDAY.sub(_blank, text)
    body, _ = get_data(text)
    front = text[: len(text) - len(body)].count("\n") if text.endswith(body) else 0
    lines = _COMMENT.sub(_blank, body).split("\n")
    inside = page_model.in_fences(lines)
    kept = ["" if code else line for line, code in zip(lines, inside, strict=True)]
    text = "\n" * front + "\n".join(kept)
    for pattern in (_EVERYDAY, _INLINE_CODE, _MATH):
        text = pattern.sub(_blank, text)
    if links_to:

        def to_definition(m: re.Match[str]) -> str:
            href = m.group("href")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), href))
            return _blank(m) if href and target == links_to else m.group(0)

        text = _INLINE_LINK.sub(to_definition, text)
    for pattern in (_TARGET, _TAG):
        text = pattern.sub(_blank, text)
    return text


def _first_use(word: Word, text: str) -> int:
    """The line (from 1) of the first use of ``word`` in a page's `prose`."""
    starts = []
    for form in word.forms:
        m = re.search(_word(form), text, re.I)
        if m is not None:
            starts.append(m.start())
    return text.count("\n", 0, min(starts)) + 1


def _word(form: str) -> str:
    return rf"\b{re.escape(form)}\b"


def _uses(word: Word, text: str) -> bool:
    return any(re.search(_word(f), text, re.I) for f in word.forms)


def _uses_unlinked(word: Word, docs_dir: Path, page: str, text: str) -> bool:
    """Whether ``page`` (its `prose`, ``text``) uses ``word`` other than in a link to the page
    that defines it."""
    if not _uses(word, text) or page == word.page:
        return _uses(word, text)
    return _uses(word, prose(docs_dir / page, page=page, links_to=word.page))


def _defines(word: Word, text: str) -> bool:
    return any(re.search(rf"\*\*{re.escape(f)}\*\*", text, re.I) for f in word.forms)


def check(docs_dir: Path, nav: Any, glossary_file: Path) -> list[Word]:
    """Raise PageError unless the table, the glossary file and the pages agree."""
    from sitekit.concepts import nav_pages

    words = read_words((docs_dir / NOTATION_PAGE).read_text(encoding="utf-8"))
    problems = []
    expected = glossary_markdown(words)
    if not glossary_file.is_file() or glossary_file.read_text(encoding="utf-8") != expected:
        problems.append(
            f"{GLOSSARY_FILE} is not the one the Words table of docs/{NOTATION_PAGE} generates:"
            " run `.venv/bin/python tools/sitekit/glossary.py`"
        )
    pages = [p for _, p in nav_pages(nav) if p not in NOT_SCANNED and (docs_dir / p).is_file()]
    texts = {p: prose(docs_dir / p) for p in pages}
    for word in words:
        name = word.forms[0]
        first = next((p for p in pages if _uses_unlinked(word, docs_dir, p, texts[p])), None)
        if word.page not in texts:
            problems.append(f"'{name}': its page docs/{word.page} is not in the nav")
        elif first is not None and first != word.page:
            unlinked = prose(docs_dir / first, page=first, links_to=word.page)
            problems.append(_used_before(word, docs_dir, first, unlinked))
        elif not _defines(word, texts[word.page]):
            problems.append(
                f"'{name}': docs/{word.page} uses it first but does not define it; write the"
                f" definition sentence with the word in bold, **{name}**"
            )
    if problems:
        raise PageError("glossary:\n  " + "\n  ".join(problems))
    return words


def _used_before(word: Word, docs_dir: Path, page: str, text: str) -> str:
    """The error for a word used before its defining page: where, and the two ways out."""
    line = _first_use(word, text)
    quoted = (docs_dir / page).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    if len(quoted) > 90:
        quoted = quoted[:87] + "..."
    form = next(f for f in word.forms if re.search(_word(f), text.splitlines()[line - 1], re.I))
    return (
        f"'{word.forms[0]}' is first used on docs/{page}, line {line} ({quoted!r}), but the"
        f" glossary defines it on docs/{word.page} ('{word.meaning}').\n"
        f"    If this is the everyday word, not that term: mark it,"
        f" {EVERYDAY}{form}</span>, or reword the sentence (no tooltip is shown on a marked"
        f" word).\n"
        f"    If it is the term: define it here instead, in bold (**{word.forms[0]}**), and name"
        f" this page in the Words table of docs/{NOTATION_PAGE}."
    )


def without_everyday_tooltips(page_html: str) -> str:
    """A word the writer marked as everyday (`EVERYDAY`) shows no tooltip: the ``<abbr>`` the
    glossary put inside the mark (Markdown's abbreviations, or `abbreviate_html`) is undone."""

    def unwrap(m: re.Match[str]) -> str:
        return _ANY_ABBR.sub(r"\1", m.group(0))

    return _EVERYDAY.sub(unwrap, page_html)


_ANY_ABBR = re.compile(r"<abbr\b[^>]*>(.*?)</abbr>", re.S)


def without_own_tooltips(page_html: str, words: list[Word], page: str) -> str:
    """The defining page states the meaning in its own words: no tooltip there, so that a page
    about tokens is not dotted under every "token"."""
    spellings = {s for w in words if w.page == page for s in w.spellings}
    if not spellings:
        return page_html

    def unwrap(m: re.Match[str]) -> str:
        return m.group(2) if html.unescape(m.group(2)) in spellings else m.group(0)

    return re.sub(r'<abbr title="([^"]*)">([^<]*)</abbr>', unwrap, page_html)


# --- Definitions everyone can reach: each <abbr> as a button described by its definition ------

# Elements a button must not be put inside (a control in a control); "abbr" is the word itself.
_NO_BUTTON = {"a", "button", "summary", "label", "select", "textarea", "option"}
_ABBR = re.compile(r'<abbr title="(?P<title>[^"]*)">(?P<text>[^<]*)</abbr>')
DEFINITION_CLASS = "gloss"


def definition_markup(text: str, title: str, ident: str) -> str:
    """One word and its definition (``title`` already escaped, as in the ``<abbr>``)."""
    return (
        f'<span class="{DEFINITION_CLASS}">'
        f'<button type="button" class="gloss__term" aria-describedby="{ident}">{text}</button>'
        f'<span class="gloss__tip" role="tooltip" id="{ident}" data-search-exclude>'
        f"{title}</span></span>"
    )


def definitions_html(page_html: str, prefix: str = "gloss") -> str:
    """``page_html`` with every ``<abbr title>`` outside links, summaries, buttons and labels
    turned into a word whose definition opens on hover, focus and tap (`definition_markup`).
    Ids are ``{prefix}-1``, ``{prefix}-2``, ... in page order."""
    if "<abbr" not in page_html:
        return page_html
    out: list[str] = []
    stack: list[str] = []
    count = 0
    for part in re.split(r"(<abbr title=\"[^\"]*\">[^<]*</abbr>|<!--.*?-->|<[^>]+>)", page_html):
        if not part:
            continue
        m = _ABBR.fullmatch(part)
        if m:
            if any(tag in _NO_BUTTON for tag in stack):
                out.append(part)
            else:
                count += 1
                out.append(
                    definition_markup(m.group("text"), m.group("title"), f"{prefix}-{count}")
                )
            continue
        out.append(part)
        if not part.startswith("<") or part.startswith("<!--"):
            continue
        name_match = _NAME.match(part)
        if name_match is None:
            continue
        name = name_match.group(1).lower()
        if part.startswith("</"):
            if name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name) :]
        elif not part.endswith("/>") and name not in _VOID:
            stack.append(name)
    return "".join(out)


# --- Notebook pages: the same tooltips, added to their HTML ---------------------------------------

_SKIP = {"pre", "code", "script", "style", "abbr", "svg", "math", "textarea", "title", "kbd"}
_PART = re.compile(r"(<!--.*?-->|<[^>]+>)", re.S)
_NAME = re.compile(r"</?\s*([a-zA-Z][\w-]*)")


def abbreviate_html(page_html: str, terms: dict[str, str]) -> str:
    """Wrap each spelling of ``terms`` in ``<abbr title="...">`` in the text of ``page_html``,
    as the abbr extension does for Markdown pages: whole words, case as written, never inside
    code, math (arithmatex's or KaTeX's elements, by class) or an existing ``<abbr>``."""
    if not terms:
        return page_html
    pattern = re.compile(
        r"\b(?:" + "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)) + r")\b"
    )
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag, skipped) of open elements

    def skipped() -> bool:
        return any(s for _, s in stack)

    def wrap(m: re.Match[str]) -> str:
        return f'<abbr title="{html.escape(terms[m.group(0)])}">{m.group(0)}</abbr>'

    for part in _PART.split(page_html):
        if not part:
            continue
        if part.startswith("<!--") or not part.startswith("<"):
            if part.startswith("<") or skipped():
                out.append(part)
            else:
                out.append(pattern.sub(wrap, part))
            continue
        out.append(part)
        name_match = _NAME.match(part)
        if name_match is None:
            continue
        name = name_match.group(1).lower()
        if part.startswith("</"):
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    del stack[i:]
                    break
        elif not part.endswith("/>") and name not in _VOID:
            math = re.search(r'class="[^"]*\b(?:arithmatex|katex)\b', part) is not None
            stack.append((name, name in _SKIP or math))
    return "".join(out)


_VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip


def main() -> None:
    docs = ROOT / "docs"
    words = read_words((docs / NOTATION_PAGE).read_text(encoding="utf-8"))
    target = ROOT / GLOSSARY_FILE
    target.parent.mkdir(exist_ok=True)
    target.write_text(glossary_markdown(words), encoding="utf-8")
    print(f"wrote {GLOSSARY_FILE}: {len(words)} words")


if __name__ == "__main__":
    main()
