"""What ``make serve`` shows in place of a figure whose script failed: the error, drawn.

A script fails when it raises, or when its drawing fails one of the checks every figure passes
(`sitekit.render`: text too small or too faint, overlapping labels, alt text that changes with
the style). ``make site`` fails on such a script (the build names it and prints its traceback);
the preview keeps serving instead, and the page shows this placeholder, with the error in its
alt text too, until the script is fixed.
"""

from __future__ import annotations

import html
import posixpath
import re
import textwrap
from collections.abc import Callable, Mapping

from sitekit.figures import Figure, Rendered

# The placeholder's size in CSS px; its SVG gives it in points, as matplotlib writes every
# figure (1 pt = 4/3 px), since the page sizes each figure from its SVG (`figures.svg_size`).
WIDTH, LINE, WRAP = 700, 20, 80
MAX_LINES = 14  # of the error's message; the whole traceback is in the terminal


def error_message(error: str) -> list[str]:
    """The message of the exception at the end of a traceback, one line per line, without the
    frames: ``ValueError: light wide: text that readers cannot read:`` and the lines under it.
    Text that is no traceback is returned whole."""
    lines = [line.rstrip() for line in error.strip().splitlines()]
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call")]
    if starts:
        after = lines[starts[-1] + 1 :]
        first = next((i for i, line in enumerate(after) if line and not line[0].isspace()), None)
        if first is not None:
            lines = after[first:]
    message = [line for line in lines if line.strip()]
    return message or ["unknown error"]


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def placeholder(figure: Figure, error: str) -> Rendered:
    """A self-contained SVG (its own background, so it reads in either palette) naming the
    script and its error; every style and layout of the figure shows it."""
    message = error_message(error)
    # Each line wrapped, its continuation lines indented under it (the checks indent theirs).
    wrapped = [
        part
        for line in message
        for part in textwrap.wrap(line, WRAP, subsequent_indent=_indent(line) + "    ")
    ]
    if len(wrapped) > MAX_LINES:
        wrapped = [*wrapped[: MAX_LINES - 1], "…"]
    lines = [f"The figure script {figure.name} failed:", *wrapped]
    lines.append("The traceback is in the terminal running make serve.")
    said = " ".join(line.strip() for line in message)
    alt = f"The figure could not be drawn: its script {figure.name} failed with {said}"
    return Rendered(_box(lines), alt)


def _box(lines: list[str]) -> bytes:
    """An SVG of ``lines``, the first in bold, in a red box of its own background."""
    height = LINE * (len(lines) + 1)
    text = "".join(
        f'<text x="16" y="{LINE * (i + 1)}" font-weight="{700 if i == 0 else 400}"'
        f' xml:space="preserve">{html.escape(line)}</text>'
        for i, line in enumerate(lines)
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH * 0.75:g}pt" '
        f'height="{height * 0.75:g}pt" viewBox="0 0 {WIDTH} {height}" '
        f'font-family="DejaVu Sans, sans-serif" font-size="14" fill="#8b0000">'
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{height - 2}" '
        f'fill="#fdecea" stroke="#b00020" stroke-width="2"/>{text}</svg>'
    )
    return svg.encode()


# An image a page embeds: ![alt](path.svg); and what shows Markdown rather than being it.
_EMBED = re.compile(r"!\[[^\]]*\]\((?P<src>[^)\s]+\.svg)\)")
_CODE = re.compile(r"^([ \t]*)(`{3,}|~{3,}).*?^\1\2[ \t]*$|`[^`\n]*`|<!--.*?-->", re.M | re.S)


def missing(
    pages: dict[str, str], rendered: Mapping[str, Rendered], script: Callable[[str], str]
) -> dict[str, Rendered]:
    """The figures ``pages`` (``{path under docs/: Markdown}``) embed from ``figures/`` that no
    script draws (``rendered`` has none): a page written before its figure's script, under
    ``make serve``. Each is a placeholder naming the script to write, ``script(site_path)``,
    so that the preview keeps serving the page (``make site`` fails on the missing image)."""
    out: dict[str, Rendered] = {}
    for page, markdown in pages.items():
        for m in _EMBED.finditer(_CODE.sub("", markdown)):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), m["src"]))
            if target.startswith("figures/") and target not in rendered:
                name = script(target)
                said = (
                    f"docs/{page} embeds {target}, which the build draws from that script:"
                    " write it (the contributing guide's Add a figure says how)."
                )
                lines = [f"No figure script {name} yet.", *textwrap.wrap(said, WRAP)]
                alt = f"The figure is not drawn yet: its script {name} does not exist"
                out[target] = Rendered(_box(lines), alt)
    return out
