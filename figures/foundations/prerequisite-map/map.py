"""Prerequisite map: each Foundations page, the concepts it introduces, and the skills it feeds.

Drawn from the pages' own front matter (``introduces`` and ``feeds``), read in navigation order,
so the map changes whenever a page's declarations do.
"""

from dataclasses import replace

from _shared import listing

import paperlens as pl
from sitekit.concepts import load_from_config
from sitekit.figstyle import CYCLE, GREY, new_figure

SEED = 0  # no randomness; kept so every figure script reads the same way
DEPENDS_ON = ["mkdocs.yml", "docs/**/*.md#front-matter"]  # the declarations only


def make_figure(style, layout):
    pages = [d for d in load_from_config() if d.feeds]
    skills = sorted({s for d in pages for s in d.feeds}, key=_first_use(pages))
    rows = max(len(pages), len(skills))
    # A quarter wider than the layout: the browser scales it down to fit.
    wider = replace(layout, width=layout.width * 1.25)
    fig, ax = new_figure(height=0.62 * rows + 0.8, layout=wider)
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(rows - 0.4, -0.6)

    def y_of(i, n):  # spread n boxes over the rows, centred
        return i * (rows - 1) / max(n - 1, 1)

    skill_y = {s: y_of(i, len(skills)) for i, s in enumerate(skills)}
    for i, page in enumerate(pages):
        y = y_of(i, len(pages))
        colour = CYCLE[i % len(CYCLE)]
        ax.text(
            0.0,
            y - 0.12,
            page.title,
            ha="left",
            va="center",
            fontsize=10.5,
            fontweight="bold",
            color="#111111",
        )
        ax.text(
            0.0,
            y + 0.2,
            ", ".join(page.introduces),
            ha="left",
            va="center",
            fontsize=8.5,
            color=GREY,
        )
        for skill in page.feeds:
            ax.annotate(
                "",
                xy=(0.62, skill_y[skill]),
                xytext=(0.45, y),
                arrowprops={
                    "arrowstyle": "-|>",
                    "color": colour,
                    "lw": 1.2,
                    "alpha": 0.85,
                    "shrinkA": 2,
                    "shrinkB": 4,
                },
            )
    for skill, y in skill_y.items():
        ax.text(
            0.63,
            y,
            skill,
            ha="left",
            va="center",
            fontsize=10,
            bbox={"boxstyle": "round,pad=0.35", "fc": "white", "ec": "#333333", "lw": 1},
        )
    ax.text(
        0.0, -0.55, "Foundations page — and what it introduces", fontsize=9.5, color=GREY, ha="left"
    )
    ax.text(0.63, -0.55, "Reproduction skill it feeds", fontsize=9.5, color=GREY, ha="left")
    arrows = sum(len(page.feeds) for page in pages)
    alt = (
        f"The prerequisite map. Left column: the {len(pages)} Foundations pages in reading "
        f"order, from “{pages[0].title}” to “{pages[-1].title}”, each listing the concepts it "
        f"introduces. Right column: the {len(skills)} reproduction skills they feed: "
        f"{listing(f'“{s}”' for s in skills)}. Arrows, {arrows} in all, connect each page to "
        "the skills it feeds."
    )
    return pl.show(fig, alt)


def _first_use(pages):
    order = {}
    for i, page in enumerate(pages):
        for skill in page.feeds:
            order.setdefault(skill, i)
    return lambda skill: (order[skill], skill)
