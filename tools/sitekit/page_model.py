"""One model of a page's Markdown, parsed once, on Sybil's regions.

The tests, the build's check of the examples, the page's notebook, the recall cards and the
Markdown-side math all read a page through :func:`parse`, so they cannot disagree about what
the page holds:

- **examples**: the regions the tests run, from the Sybil the tests use
  (`sitekit.examples.page_sybil`): code, doctest examples, skips and namespace clears;
- **blocks**: every fenced code block (any language) and every invisible code block, lexed by
  Sybil's own lexers, each with the examples inside it and whether a skip covers it;
- **admonitions**: ``!!!`` and ``???`` blocks outside code, the recall cards among them;
- **math**: the ``$...$`` and ``$$...$$`` patterns of Markdown text (:data:`MATH_INLINE`,
  :data:`MATH_DISPLAY`), shared with the notebook pages' math rendering and the Anki deck.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from sybil import Document, Example, Region
from sybil.evaluators.skip import Skipper
from sybil.parsers.abstract.clear import AbstractClearNamespaceParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, RawFencedCodeBlockLexer

from sitekit import PageError

# Math in Markdown text (and in the HTML of notebook Markdown cells, which keeps it as text):
# ``$$...$$`` displayed, ``$...$`` inline. Inline math may wrap onto the next line of its
# paragraph but not cross a blank line, and a ``$`` followed or preceded by a space (prices,
# shell prompts) opens or closes nothing.
MATH_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
MATH_INLINE = re.compile(r"(?<![\\$])\$(?!\s)((?:[^$\n]|\n(?![ \t]*\n))+?)(?<!\s)\$(?!\$)")

# Every fence, whatever its info string (the tests reject Python spelled other than
# ``python``, so they must see those fences too).
_FENCES = RawFencedCodeBlockLexer(
    info_pattern=re.compile(r"(?P<info>[^\n]*)$\n", re.MULTILINE),
    mapping={"info": "info", "source": "source"},
)
_INVISIBLE = DirectiveInHTMLCommentLexer(directive=r"(invisible-)?code(-block)?", arguments=".+")
_CLOSE_COMMENT = re.compile(r"[ \t]*--+>[^\n]*")
ADMONITION = re.compile(
    r"^(?P<indent>[ \t]*)(?P<mark>\?\?\?\+?|!!!) (?P<kind>\w+)"
    r'(?: "(?P<title>(?:[^"\\]|\\.)*)")?\s*$'
)


@dataclass(frozen=True)
class Block:
    """A fenced code block or an invisible code block (``<!-- invisible-code-block: ...``)."""

    start: int  # offset of the block (its opening line) in the page's text
    end: int  # offset just after its closing fence or ``-->``
    line: int  # 1-based line of the opening
    end_line: int  # 1-based line of the closing
    indent: str  # what precedes the opening fence on its line
    info: str  # the fence's info string ("python title=x"); "python" for an invisible block
    source: str  # the code, without the block's indent
    invisible: bool
    examples: tuple[int, ...]  # indices into `Page.examples` of the examples inside it
    skipped: bool  # a ``skip`` directive covers its examples

    @property
    def language(self) -> str:
        return self.info.split(" ")[0].strip() if self.info.strip() else ""

    @property
    def runs(self) -> bool:
        """Do the tests run this block's code (it holds examples no skip covers)?"""
        return bool(self.examples) and not self.skipped

    @property
    def is_doctest(self) -> bool:
        return self.source.lstrip().startswith(">>>")

    @property
    def code(self) -> str:
        """The code a notebook cell holds: doctest prompts and expected output removed."""
        return doctest_to_code(self.source) if self.is_doctest else self.source


@dataclass(frozen=True)
class Admonition:
    """A ``!!! kind "title"`` or ``??? kind "title"`` block and its indented body."""

    line: int  # 0-based index of its first line in the page's lines
    end: int  # 0-based index just after its body
    indent: int  # columns before the marker
    mark: str  # "!!!", "???" or "???+"
    kind: str
    title: str | None
    body: tuple[str, ...]  # the body's lines, dedented

    @property
    def is_card(self) -> bool:
        """A recall card: a collapsed question."""
        return self.kind == "question" and self.mark.startswith("???") and bool(self.title)


@dataclass(frozen=True)
class Skip:
    """A ``<!-- skip: next "reason" -->`` directive (or ``start``/``end``)."""

    line: int
    action: str  # next, start or end
    reason: str | None  # as written: a quoted string, or ``if(...)``


@dataclass(frozen=True)
class Page:
    path: str
    text: str
    examples: tuple[Example, ...]
    blocks: tuple[Block, ...]
    admonitions: tuple[Admonition, ...]

    @property
    def cards(self) -> list[Admonition]:
        return [a for a in self.admonitions if a.is_card]

    @property
    def skips(self) -> list[Skip]:
        """The ``skip`` directives, as Sybil parsed them."""
        return [
            Skip(e.line, str(e.region.parsed[0]), e.region.parsed[1])
            for e in self.examples
            if isinstance(e.region.evaluator, Skipper)
        ]

    def block_at(self, offset: int) -> Block | None:
        """The block holding the text at ``offset`` (an example's start), if any."""
        for block in self.blocks:
            if block.start <= offset < block.end:
                return block
        return None


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def in_fences(lines: list[str]) -> list[bool]:
    """Whether each line of a page's Markdown belongs to a fenced code block, its fences
    included: for the checks that read prose line by line (a block closes at a fence of its own
    character, at least as long, with nothing after it)."""
    inside, fence = [], ""
    for line in lines:
        m = _FENCE.match(line)
        inside.append(bool(fence or m))
        if fence and m and m.group(1).startswith(fence) and not line.strip()[len(m.group(1)) :]:
            fence = ""
        elif not fence and m:
            fence = m.group(1)
    return inside


def is_directive(example: Example) -> bool:
    """Is this example a ``skip`` or ``clear-namespace`` directive rather than code?"""
    evaluator = example.region.evaluator
    return isinstance(evaluator, Skipper) or evaluator is AbstractClearNamespaceParser.evaluate


# Statements the ``>>>`` prompt (and ``python3``'s) ends only at an empty line.
_COMPOUND = (
    ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.TryStar,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match,
)  # fmt: skip


def ends_compound(code: str) -> bool:
    """Whether ``code`` ends with a compound statement (a loop, an ``if``, a ``try``, a
    ``with``, a ``match``, a ``def`` or a ``class``, ``async`` or not, on one line or several)."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return False
    return bool(body) and isinstance(body[-1], _COMPOUND)


def doctest_to_code(source: str) -> str:
    """The runnable code of ``>>>`` examples, comments included: prompts stripped, expected
    output dropped (a traceback's ``...`` too), and an empty line after an example that ends
    with a compound statement when more code follows (as the ``>>>`` prompt needs it), so that
    the code pasted into ``python3`` runs."""
    examples: list[list[str]] = []
    inside = False  # the line before was an example's
    for line in source.splitlines():
        text = line.lstrip()  # trailing spaces are code: a line of spaces in a body, a string
        prompt = text[:3] if text[3:4] in ("", " ") else ""
        inside = prompt == ">>>" or (prompt == "..." and inside)
        if inside:
            examples += [[]] if prompt == ">>>" else []
            examples[-1].append(text[4:])
    code: list[str] = []
    for i, lines in enumerate(examples):
        before = examples[i - 1] if i else [""]
        # a line of spaces does not end a statement at the prompt: only an empty one does
        code += [""] if before[-1] != "" and ends_compound("\n".join(before)) else []
        code += lines
    return "\n".join(code)


def _document(text: str, path: str) -> Document:
    """The page as the tests' Sybil parses it."""
    from sitekit.examples import page_sybil

    document = Document(text, path)
    for parser in page_sybil().parsers:
        for region in parser(document):
            document.add(region)
    return document


def _skipped(examples: list[Example]) -> set[int]:
    """Indices of the examples a ``skip`` directive covers (``next``, or ``start``…``end``).

    Decided from the directives alone; a conditional skip (``skip: next if(...)``) counts as a
    skip, since the notebook cannot know the condition.
    """
    covered: set[int] = set()
    mode = ""
    for i, example in enumerate(examples):
        parsed = example.region.parsed
        if isinstance(example.region.evaluator, Skipper) and isinstance(parsed, tuple):
            mode = {"next": "next", "start": "all", "end": ""}.get(str(parsed[0]), "")
            continue
        if mode:
            covered.add(i)
            if mode == "next":
                mode = ""
    return covered


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _blocks(document: Document, examples: list[Example]) -> list[Block]:
    text = document.text
    skipped = _skipped(examples)
    regions: list[tuple[Region, bool]] = [(r, False) for r in _FENCES(document)]
    regions += [(r, True) for r in _INVISIBLE(document)]
    # A fence shown inside another block (Markdown markup shown in a ``markdown`` fence, or
    # code in an invisible block's comment) is part of that block, not a block of its own.
    regions = [
        (r, inv)
        for r, inv in regions
        if not any(o is not r and o.start <= r.start and r.end <= o.end for o, _ in regions)
    ]
    out = []
    for region, is_invisible in sorted(regions, key=lambda pair: pair[0].start):
        lexemes = region.lexemes
        inside = tuple(
            i for i, e in enumerate(examples) if region.start <= e.region.start < region.end
        )
        line_start = text.rfind("\n", 0, region.start) + 1
        info = "python" if is_invisible else str(lexemes.get("info", "")).strip()
        end = region.end
        closing = _CLOSE_COMMENT.match(text, end) if is_invisible else None
        if closing:  # Sybil's region stops before the comment's closing ``-->`` line
            end = closing.end()
        out.append(
            Block(
                start=region.start,
                end=end,
                line=_line(text, region.start),
                end_line=_line(text, max(region.start, end - 1)),
                indent=text[line_start : region.start] + _prefix(text, region.start),
                info=info,
                source=str(lexemes["source"]),
                invisible=is_invisible,
                examples=inside,
                skipped=bool(inside) and all(i in skipped for i in inside),
            )
        )
    return out


def _prefix(text: str, start: int) -> str:
    """The whitespace at ``start`` before a fence's backticks (Sybil's regions start at the
    line's indent)."""
    m = re.match(r"[ \t]*", text[start:])
    return m.group(0) if m else ""


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def _admonitions(text: str, blocks: list[Block]) -> list[Admonition]:
    """Top-level admonitions, in order; a marker inside a code block is code, not markup."""
    lines = text.splitlines()
    in_code: set[int] = set()
    for block in blocks:
        in_code.update(range(block.line - 1, block.end_line))
    out = []
    i = 0
    while i < len(lines):
        m = ADMONITION.match(lines[i]) if i not in in_code else None
        if not m:
            i += 1
            continue
        indent = len(m.group("indent").expandtabs(4))
        first = i
        body = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
            expanded = lines[i].expandtabs(4)
            body.append(expanded[min(indent + 4, _indent(lines[i])) :])
            i += 1
        title = m.group("title")
        out.append(
            Admonition(
                line=first,
                end=i,
                indent=indent,
                mark=m.group("mark"),
                kind=m.group("kind"),
                title=title.replace('\\"', '"') if title is not None else None,
                body=tuple(body),
            )
        )
    return out


def parse(text: str, path: str = "page.md") -> Page:
    """The model of one page's Markdown source (front matter included, as Sybil reads it)."""
    try:
        document = _document(text, path)
        examples = list(document)
    except ValueError as err:  # doctest's own parser: ">>>x", with no blank after the prompt
        raise PageError(f"{path}: an example Sybil cannot read: {err}") from None
    blocks = _blocks(document, examples)
    return Page(path, text, tuple(examples), tuple(blocks), tuple(_admonitions(text, blocks)))


def parse_file(path: Path) -> Page:
    return parse(path.read_text(encoding="utf-8"), str(path))
