"""What ``make serve`` shows in place of a figure whose script raised: the error, drawn.

``make site`` fails on such a script (the build names it and prints its traceback); the
preview keeps serving instead, and the page shows this placeholder, with the error in its alt
text too, until the script is fixed.
"""

from __future__ import annotations

import html
import textwrap

from sitekit.figures import Figure, Rendered

WIDTH, LINE, WRAP = 700, 20, 80


def last_line(error: str) -> str:
    lines = [line.strip() for line in error.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "unknown error"


def placeholder(figure: Figure, error: str) -> Rendered:
    """A self-contained SVG (its own background, so it reads in either palette) naming the
    script and its error."""
    message = last_line(error)
    lines = [f"The figure script {figure.name} failed:", *textwrap.wrap(message, WRAP)]
    lines.append("The traceback is in the terminal running make serve.")
    height = LINE * (len(lines) + 1)
    text = "".join(
        f'<text x="16" y="{LINE * (i + 1)}" font-weight="{700 if i == 0 else 400}">'
        f"{html.escape(line)}</text>"
        for i, line in enumerate(lines)
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif" font-size="14" '
        f'fill="#8b0000"><rect x="1" y="1" width="{WIDTH - 2}" height="{height - 2}" '
        f'fill="#fdecea" stroke="#b00020" stroke-width="2"/>{text}</svg>'
    )
    alt = f"The figure could not be drawn: its script {figure.name} failed with {message}"
    return Rendered(svg.encode(), alt)
