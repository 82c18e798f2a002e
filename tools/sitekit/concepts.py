r"""Concepts in order: every page declares what it introduces and what it uses.

Front matter of a page::

    introduces: [dot product]
    uses: [vector, matrix, transpose]
    feeds: [derive the 1/sqrt(d_k) scale]   # optional: reproduction skills this page enables

The build fails if a page uses a concept no earlier page (in navigation order) introduced, if
a concept is introduced twice, or if a declaration is not a list of strings. The prerequisite
map figure is drawn from the same declarations, so it cannot drift from the pages.

A declaration is only as good as its author's memory, so some concepts also have **signs**
(:data:`SIGNS`): marks in a formula or in Python code that use the concept whatever the page
declares, such as ``W_s\mathbf{x}`` or ``W_s @ x`` for a matrix product, ``\mathcal{H}`` for
ResNet's desired mapping, ``\sqrt{d_k}`` for the scale of attention's scores. A page that
declares what it teaches is read for them (its formulas outside code, and its Python blocks
without comments and strings), and a sign counts as a use: a matrix product on a page before
the one that introduces it fails the build like an undeclared ``uses``. Pages that declare
nothing (the home page, overviews, reference tables) name the destination and are not read.
Each sign says in words what it catches (``Sign.said``); the home page lists them, and a test
keeps that list whole.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sitekit import PageError, page_model
from sitekit.frontmatter import get_data
from sitekit.paths import ROOT

KEYS = ("introduces", "uses", "feeds")

# A matrix in a formula: a capital letter (not part of a word or a command), perhaps with a
# subscript and a transpose: K, W_s, W_{Q}, K^T. Multiplied by juxtaposition with a bold vector
# or another such matrix, it is a matrix product: W_s\mathbf{x}, QK^T, XW_Q.
_MATRIX = r"(?<![\\A-Za-z])[A-Z](?:_\{[^{}]*\}|_[A-Za-z0-9])?(?:\^T|\^\{T\}|\^\\top)?"
_OPERAND = r"(?:\\mathbf\{[A-Za-z]\}|[A-Z](?![a-z]))"
_MATH_PRODUCT = re.compile(rf"{_MATRIX}\s*(?:\\,\s*)?{_OPERAND}")
# Words set in a formula are not symbols: \operatorname{Var}, \text{BLEU}.
_WORDS = re.compile(r"\\(?:operatorname|text|mathrm|textbf|textit)\{[^{}]*\}")
# The target equations' own letters, however a page sets them: the input x bold or plain,
# d_k with or without braces, the transpose as T, {T} or \top.
_X = r"(?:\\mathbf\{x\}|\\boldsymbol\{x\}|x)"
_SQRT_DK = r"(?:\\sqrt\{\s*d_(?:k|\{k\})\s*\}|√\s*d_(?:k|\{k\}))"
_QKT = r"Q\s*K\^(?:T|\{T\}|\\top)"
_H_OF_X = r"\\mathcal\{H\}|(?<![\\A-Za-z])H\s*\(\s*" + _X + r"\s*\)\s*="
_F_PLUS_X = (
    r"\\mathcal\{F\}|(?<![\\A-Za-z])F\s*\(\s*" + _X + r"\s*\)\s*\+\s*" + _X + r"(?![A-Za-z])"
)
# QK^T over sqrt(d_k), as a fraction or with a slash
_ATTENTION = rf"\\frac\{{\s*{_QKT}\s*\}}\{{\s*{_SQRT_DK}\s*\}}|{_QKT}\s*/\s*{_SQRT_DK}"


@functools.lru_cache(maxsize=512)
def _tokens(code: str) -> tuple[tokenize.TokenInfo, ...]:
    """Python ``code``'s tokens without its comments (its strings are single tokens)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return ()
    return tuple(t for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL))


def _multiplies(code: str) -> list[int]:
    """The lines (from 1) of ``code`` where ``@`` multiplies (not a decorator) or ``matmul``
    is called."""
    found: list[int] = []
    if "@" not in code and "matmul" not in code:  # most blocks: no need to tokenize
        return found
    previous = tokenize.NEWLINE
    for tok in _tokens(code):
        starts_line = previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        binary_at = tok.type == tokenize.OP and tok.string == "@" and not starts_line
        if binary_at or (tok.type == tokenize.NAME and tok.string == "matmul"):
            found.append(tok.start[0])
        previous = tok.type
    return found


def _attribute(*names: str) -> Callable[[str], list[int]]:
    """The lines of code that read one of these attributes: ``np.exp``, ``K.T``."""

    def lines(code: str) -> list[int]:
        if not any(f".{name}" in code for name in names):
            return []
        tokens = _tokens(code)
        return [
            tok.start[0]
            for before, tok in zip(tokens, tokens[1:], strict=False)
            if before.string == "." and tok.type == tokenize.NAME and tok.string in names
        ]

    return lines


@dataclass(frozen=True)
class Sign:
    """How a concept shows itself on a page, in formulas (a pattern) and in Python code."""

    said: str
    """What the sign catches, in words, as the home page lists it."""
    math: re.Pattern[str] | None = None
    code: Callable[[str], list[int]] | None = None
    words: bool = False
    """Match ``math`` against the formula with its words (``\\operatorname{Var}``) kept."""


SIGNS: dict[str, Sign] = {
    "matrix product": Sign("a matrix product", math=_MATH_PRODUCT, code=_multiplies),
    "transpose": Sign(
        "a transpose",
        math=re.compile(r"\^T(?![a-zA-Z])|\^\{T\}|\^\\top"),
        code=_attribute("T", "transpose"),
    ),
    "exponential": Sign(
        "an exponential",
        math=re.compile(r"(?<![\\A-Za-z])e\^|\\exp(?![a-z])"),
        code=_attribute("exp"),
    ),
    "desired mapping H": Sign("ResNet's $\\mathcal{H}$", math=re.compile(_H_OF_X)),
    "residual F": Sign("$\\mathcal{F}$", math=re.compile(_F_PLUS_X), code=_attribute("residual")),
    "softmax": Sign(
        "a softmax",
        math=re.compile(r"\\operatorname\{softmax\}|\\mathrm\{softmax\}"),
        code=_attribute("softmax"),
        words=True,
    ),
    "variance": Sign(
        "a variance",
        math=re.compile(r"\\operatorname\{Var\}|\\mathrm\{Var\}"),
        code=_attribute("var"),
        words=True,
    ),
    "√d_k scaling": Sign("the scale $\\sqrt{d_k}$", math=re.compile(_SQRT_DK)),
    "scaled dot-product attention": Sign(
        "the attention equation",
        math=re.compile(_ATTENTION),
        code=_attribute("attention"),
    ),
}


@dataclass
class Declaration:
    page: str  # path relative to docs/
    title: str
    introduces: list[str] = field(default_factory=list)
    uses: list[str] = field(default_factory=list)
    feeds: list[str] = field(default_factory=list)
    # Concepts the page's formulas or code use (their signs), each with where: "line 112: ...".
    shown: dict[str, str] = field(default_factory=dict)


_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\$)", re.S)


def _split(markdown: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The page's prose (after its front matter) and its Python code, each as ``(first line,
    text)`` pieces, its code blocks as the one model of a page reads them (`page_model`)."""
    body, _ = get_data(markdown)
    start = markdown[: len(markdown) - len(body)].count("\n")  # the first line of prose, from 0
    lines = markdown.split("\n")
    prose: list[tuple[int, str]] = []
    code: list[tuple[int, str]] = []
    for block in page_model.parse(markdown).blocks:
        prose.append((start + 1, "\n".join(lines[start : block.line - 1])))
        if block.language == "python":
            code.append((block.line + 1, block.source))
        start = block.end_line
    prose.append((start + 1, "\n".join(lines[start:])))
    return prose, code


def _cut(text: str) -> str:
    """``text`` on one line, cut to a readable length."""
    text = " ".join(text.split())
    return text if len(text) <= 72 else text[:69] + "..."


def _doctest_as_code(block: str) -> str:
    """A block of ``>>>`` examples as its code, line for line (prompts removed, the expected
    output blanked); other code as it is."""
    if not block.lstrip().startswith(">>>"):
        return block
    out = []
    for line in block.split("\n"):
        stripped = line.strip()
        is_code = stripped.startswith((">>>", "...")) and stripped[3:4] in ("", " ")
        out.append(stripped[4:] if is_code else "")
    return "\n".join(out)


def _math_sign(
    pattern: re.Pattern[str], prose: list[tuple[int, str]], *, words: bool = False
) -> str | None:
    """Where the first formula of ``prose`` that matches ``pattern`` is, and the formula; with
    ``words``, the formula is matched with its words (``\\operatorname{Var}``) kept."""
    for line, text in prose:
        for m in _MATH.finditer(text):
            formula = m.group(1) or m.group(2)
            if pattern.search(formula if words else _WORDS.sub("", formula)):
                at = line + text.count("\n", 0, m.start())
                return f"line {at}: ${_cut(formula)}$"
    return None


def _code_sign(lines_of: Callable[[str], list[int]], code: list[tuple[int, str]]) -> str | None:
    """Where the first line of ``code`` that ``lines_of`` finds is, and the line."""
    for line, block in code:
        lines = _doctest_as_code(block).split("\n")
        hits = lines_of("\n".join(lines))
        if hits:
            return f"line {line + hits[0] - 1}: {_cut(lines[hits[0] - 1])}"
    return None


def shown_concepts(markdown: str) -> dict[str, str]:
    """The concepts whose signs a page's formulas or Python code carry, each with the first
    place it does: ``{"matrix product": "line 118: y = first_two(x) + W_s @ x"}``."""
    prose, code = _split(markdown)
    found: dict[str, str] = {}
    for concept, sign in SIGNS.items():
        where = _math_sign(sign.math, prose, words=sign.words) if sign.math else None
        if where is None and sign.code is not None:
            where = _code_sign(sign.code, code)
        if where is not None:
            found[concept] = where
    return found


def nav_pages(nav: Any) -> list[tuple[str, str]]:
    """Flatten MkDocs' ``nav`` setting into ``(title, path)`` pairs in reading order."""
    out: list[tuple[str, str]] = []

    def walk(item: Any, title: str = "") -> None:
        if isinstance(item, str):
            if "://" not in item:
                out.append((title, item))
        elif isinstance(item, list):
            for entry in item:
                walk(entry)
        elif isinstance(item, dict):
            for key, value in item.items():
                walk(value, key)

    walk(nav)
    return out


def nav_sections(nav: Any) -> list[tuple[str, str, str]]:
    """``(section, title, path)`` for each page of ``nav``, ``section`` being its top-level
    entry ("" for a page listed at the top level) and ``title`` as written ("" for none)."""
    out = []
    for entry in nav:
        if isinstance(entry, dict):
            for section, value in entry.items():
                out += [(str(section), title, path) for title, path in nav_pages(value)]
        elif isinstance(entry, str):
            out.append(("", "", entry))
    return out


def read_declaration(docs_dir: Path, page: str, title: str) -> Declaration:
    path = docs_dir / page
    meta: dict[str, Any] = {}
    # Generated pages (the Review page) and notebooks declare nothing.
    if path.suffix == ".md" and path.is_file():
        _, meta = get_data(path.read_text(encoding="utf-8"))
    decl = Declaration(page=page, title=str(meta.get("title", title)))
    for key in KEYS:
        value = meta.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise PageError(f"{page}: front matter '{key}' must be a list of names")
        setattr(decl, key, [v.strip() for v in value])
    if "introduces" in meta or "uses" in meta:  # a page that teaches: read its signs too
        decl.shown = shown_concepts(path.read_text(encoding="utf-8"))
    return decl


def load(docs_dir: Path, nav: Any) -> list[Declaration]:
    return [read_declaration(docs_dir, page, title) for title, page in nav_pages(nav)]


def check_order(declarations: list[Declaration]) -> dict[str, str]:
    """Return ``{concept: introducing page}``; raise PageError on the first violations."""
    introduced: dict[str, str] = {}
    problems: list[str] = []
    for decl in declarations:
        for concept in decl.uses:
            if concept in decl.introduces:
                problems.append(f"{decl.page}: '{concept}' is both introduced and used")
            elif concept not in introduced:
                problems.append(
                    f"{decl.page} uses '{concept}', which no earlier page introduces"
                    " (check the spelling, or the order of the nav)"
                )
        for concept, where in decl.shown.items():
            if concept not in decl.introduces and concept not in introduced:
                problems.append(
                    f"{decl.page} uses '{concept}' ({where}), which no earlier page introduces"
                )
        for concept in decl.introduces:
            if concept in introduced:
                problems.append(
                    f"{decl.page} introduces '{concept}', already introduced by"
                    f" {introduced[concept]}"
                )
            else:
                introduced[concept] = decl.page
    if problems:
        raise PageError("concepts out of order:\n  " + "\n  ".join(problems))
    return introduced


def read_config(config_file: Path = ROOT / "mkdocs.yml") -> dict[str, Any]:
    """``mkdocs.yml`` as plain data (its ``!ENV`` and ``!!python`` tags read as None)."""

    class _Loader(yaml.SafeLoader):  # type: ignore[misc]  # yaml: no stubs
        pass

    _Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config: dict[str, Any] = yaml.load(config_file.read_text(), Loader=_Loader)  # noqa: S506
    return config


def load_from_config(config_file: Path = ROOT / "mkdocs.yml") -> list[Declaration]:
    """Declarations in nav order, read straight from ``mkdocs.yml`` (used by figure scripts)."""
    config = read_config(config_file)
    docs_dir = config_file.parent / config.get("docs_dir", "docs")
    return load(docs_dir, config["nav"])
