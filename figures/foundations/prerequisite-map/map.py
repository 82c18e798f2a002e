"""Prerequisite map, in three layers: the Foundations pages, the two target equations they build
up to, and the reproduction skills they feed. Each box links to its page.

Drawn from the pages' own front matter (``introduces``, ``uses`` and ``feeds``), read in
navigation order, so the map changes whenever a page's declarations do. A page points at the
target equations when that page uses a concept the page introduces, and at each skill it feeds.
"""

import textwrap

import numpy as np
from _shared import listing
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

import paperlens as pl
from sitekit.concepts import load_from_config
from sitekit.figstyle import new_figure

SEED = 0  # no randomness; kept so every figure script reads the same way
DEPENDS_ON = ["mkdocs.yml", "docs/**/*.md#front-matter"]  # the declarations only
TARGET = "foundations/target-equations.md"


def page_url(page):
    """The site URL of a page's source (``foundations/softmax.md`` is ``foundations/softmax/``)."""
    stem = page.removesuffix(".md")
    return stem.removesuffix("index") if stem.endswith("index") else stem + "/"


def make_figure(style, layout):
    declarations = load_from_config()
    target = next(d for d in declarations if d.page == TARGET)
    pages = [
        d for d in declarations if d.feeds and d.page.startswith("foundations/") and d != target
    ]
    feeds_target = [p for p in pages if set(p.introduces) & set(target.uses)]
    skills = _ordered_skills(pages, target)

    narrow = layout.stacked
    # Columns, in inches: pages, the equations, the skills; text wrapped to fit them.
    width = layout.width
    columns = (0.31, 0.3, 0.39) if not narrow else (0.38, 0.27, 0.35)
    gap = 0.35 if not narrow else 0.14
    inner = width - 2 * gap - 0.1
    col_w = [c * inner for c in columns]
    col_x = [0.05, 0.05 + col_w[0] + gap, 0.05 + col_w[0] + col_w[1] + 2 * gap]
    chars = [int(w / 0.088) for w in col_w]

    page_lines = [
        (textwrap.wrap(p.title, chars[0]), textwrap.wrap(", ".join(p.introduces), chars[0] + 3))
        for p in pages
    ]
    line_h = 0.19  # inches per line of 10-point text, with its leading
    page_h = [len(t) * line_h + len(i) * 0.165 + 0.16 for t, i in page_lines]
    row_gap = 0.12
    header = 0.45
    body = sum(page_h) + row_gap * (len(pages) - 1)
    legend_h = 0.95 if narrow else 0.55
    height = header + body + legend_h + 0.1
    fig, ax = new_figure(height=height, layout=layout)
    fig.set_layout_engine("none")
    ax.set_position((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)

    def box(x, y, w, h, edge, url, lines, fill=None):
        """A rounded box with its top left at (x, y), its text lines as (text, size, weight,
        colour), and a link to ``url``; returns the box's vertical middle."""
        patch = FancyBboxPatch(
            (x, y),
            w,
            h,
            boxstyle="round,pad=0,rounding_size=0.06",
            fc=style.paper if fill is None else fill,
            ec=edge,
            lw=1.4,
            zorder=2,
        )
        patch.set_url(url)
        patch.set_label(" ".join(text for text, *_ in lines))
        ax.add_patch(patch)
        ty = y + 0.1
        for text, size, weight, colour in lines:
            t = ax.text(
                x + 0.08, ty, text, fontsize=size, fontweight=weight, color=colour, va="top"
            )
            t.set_url(url)
            ty += line_h if size >= 10 else 0.165
        return y + h / 2

    headings = ("Foundations page", "Target\nequations" if narrow else "Target equations", "Skill")
    for x, text in zip(col_x, headings, strict=True):
        ax.text(x, 0.18, text, fontsize=10, color=style.muted, va="center", fontweight="bold")

    page_mid = {}
    y = header
    for p, (title, intro), h in zip(pages, page_lines, page_h, strict=True):
        lines = [(t, 10, "bold", style.foreground) for t in title]
        lines += [(t, 8.5, "normal", style.muted) for t in intro]
        page_mid[p.page] = box(col_x[0], y, col_w[0], h, style.blue, page_url(p.page), lines)
        y += h + row_gap

    eq_lines = [(t, 10, "bold", style.foreground) for t in textwrap.wrap(target.title, chars[1])]
    for name in target.introduces:
        eq_lines += [(t, 9, "normal", style.foreground) for t in textwrap.wrap(name, chars[1] + 2)]
    eq_h = sum(line_h if s >= 10 else 0.165 for _, s, _, _ in eq_lines) + 0.16
    eq_y = header + body / 2 - eq_h / 2
    eq_mid = box(col_x[1], eq_y, col_w[1], eq_h, style.vermilion, page_url(target.page), eq_lines)

    skill_lines = [textwrap.wrap(s, chars[2]) for s in skills]
    skill_h = [len(t) * line_h + 0.14 for t in skill_lines]
    spare = (body - sum(skill_h)) / max(len(skills) - 1, 1)
    skill_mid = {}
    y = header
    for s, lines, h in zip(skills, skill_lines, skill_h, strict=True):
        # A skill links to the first page that feeds it.
        first = next(p for p in [*pages, target] if s in p.feeds)
        rows = [(t, 10, "normal", style.foreground) for t in lines]
        skill_mid[s] = box(col_x[2], y, col_w[2], h, style.green, page_url(first.page), rows)
        y += h + spare

    def arrow(x0, y0, x1, y1, colour, rad=0.0):
        ax.add_patch(
            FancyArrowPatch(
                (x0, y0),
                (x1, y1),
                arrowstyle="-|>",
                mutation_scale=9,
                color=colour,
                lw=1.0,
                alpha=0.9,
                connectionstyle=f"arc3,rad={rad}",
                shrinkA=1,
                shrinkB=2,
                zorder=1,
            )
        )

    eq_box = (col_x[1] - 0.08, eq_y - 0.08, col_x[1] + col_w[1] + 0.08, eq_y + eq_h + 0.08)

    def around_the_equations(x0, y0, x1, y1):
        """The bend (matplotlib's arc3 rad) of the least curved arrow from (x0, y0) to (x1, y1)
        that keeps clear of the equations' box, so that a page's own skills do not seem to run
        into it. With x and y in inches and y pointing down, arc3's control point is the
        midpoint plus rad times (-dy, dx)."""
        left, top, right, bottom = eq_box
        t = np.linspace(0, 1, 200)[:, None]  # (200, 1)
        start, end = np.array([x0, y0]), np.array([x1, y1])
        best, fewest = 0.0, t.size
        for step in range(41):  # 0, 0.05, -0.05, 0.1, -0.1, ... up to 1 either way
            rad = (step + 1) // 2 * 0.05 * (1 if step % 2 else -1)
            control = (start + end) / 2 + rad * np.array([-(y1 - y0), x1 - x0])
            curve = (1 - t) ** 2 * start + 2 * (1 - t) * t * control + t**2 * end  # (200, 2)
            inside = (left < curve[:, 0]) & (curve[:, 0] < right)
            inside &= (top < curve[:, 1]) & (curve[:, 1] < bottom)
            between = (curve[:, 0] >= x0 - 0.01).all() and (curve[:, 0] <= x1 + 0.01).all()
            if between and inside.sum() < fewest:
                best, fewest = rad, int(inside.sum())
            if not fewest:
                break
        # On a phone the columns are too close for a bend to clear the box: straight, behind it.
        return best if not fewest else 0.0

    page_right = col_x[0] + col_w[0]
    for p in feeds_target:
        arrow(page_right, page_mid[p.page], col_x[1], eq_mid, style.muted)
    for s in target.feeds:
        arrow(col_x[1] + col_w[1], eq_mid, col_x[2], skill_mid[s], style.vermilion)
    # A page's own skills: bent around the equations' box.
    for p in pages:
        for s in p.feeds:
            ends = (page_right, page_mid[p.page], col_x[2], skill_mid[s])
            arrow(*ends, style.blue, rad=around_the_equations(*ends))

    # The legend.
    ly = header + body + 0.3
    entries = [
        ("box", style.blue, "page"),
        ("box", style.vermilion, "equations"),
        ("box", style.green, "skill"),
        ("line", style.muted, "builds up to"),
        ("line", style.blue, "feeds"),
    ]
    per_row = 3 if narrow else 5
    step = width / per_row
    for i, (kind, colour, label) in enumerate(entries):
        x = 0.1 + (i % per_row) * step
        yy = ly + (i // per_row) * 0.32
        if kind == "box":
            ax.add_patch(
                FancyBboxPatch(
                    (x, yy - 0.08),
                    0.28,
                    0.16,
                    boxstyle="round,pad=0,rounding_size=0.04",
                    fc=style.paper,
                    ec=colour,
                    lw=1.4,
                )  # fmt: skip
            )
        else:
            arrow(x, yy, x + 0.3, yy, colour)
        ax.text(x + 0.38, yy, label, fontsize=9.5, color=style.foreground, va="center")

    arrows = len(feeds_target) + len(target.feeds) + sum(len(p.feeds) for p in pages)
    alt = (
        f"The prerequisite map, in three layers, each box a link to its page. Left: the "
        f"{len(pages)} Foundations pages in reading order, from “{pages[0].title}” to "
        f"“{pages[-1].title}”, each listing the concepts it introduces. Middle: “{target.title}”, "
        f"{listing(target.introduces)}, which build on {len(feeds_target)} of those pages. "
        f"Right: the {len(skills)} reproduction skills they feed: "
        f"{listing(f'“{s}”' for s in skills)}. {arrows} arrows in all connect each page to the "
        "equations it builds up to and to the skills it feeds."
    )
    return pl.show(fig, alt)


def _ordered_skills(pages, target):
    """The skills from top to bottom by the mean position of the pages that feed them, so that
    arrows cross as little as they can."""
    sources = {}
    for i, page in enumerate(pages):
        for skill in page.feeds:
            sources.setdefault(skill, []).append(i)
    for skill in target.feeds:
        sources.setdefault(skill, []).append((len(pages) - 1) / 2)
    return sorted(sources, key=lambda s: (sum(sources[s]) / len(sources[s]), s))
