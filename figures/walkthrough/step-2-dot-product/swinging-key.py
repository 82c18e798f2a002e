"""The key swings round the query: the dot product falls from positive through 0 to negative."""

import numpy as np
from _angles import dot_label, q, rotate
from _text import listing, vec
from matplotlib import pyplot as plt

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

ANGLES = np.array([0, 45, 90, 135, 180])  # degrees between q and k in the small panels


def make_figure(style, layout):
    fig, grid = new_figure(
        2, ANGLES.size, height=4.9, layout=layout, height_ratios=[1.3, 1], stack=False
    )
    for ax in grid[1]:  # the bottom row becomes one wide axes for the curve
        ax.remove()
    curve = fig.add_subplot(grid[0, 0].get_gridspec()[1, :])
    k0 = q / np.linalg.norm(q)  # a unit key along q, longer than q so both stay visible
    for ax, angle in zip(grid[0], ANGLES, strict=True):
        k = rotate(k0, angle)
        for arrow, colour in ((k, style.vermilion), (q, style.blue)):  # the query on top
            ax.annotate(
                "",
                xy=arrow,
                xytext=(0, 0),
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2.2, "mutation_scale": 14},
            )
        ax.add_patch(
            plt.Circle((0, 0), np.linalg.norm(k0), fill=False, color=style.muted, lw=0.6, ls=":")
        )
        ax.plot(0, 0, "o", color=style.foreground, ms=3)
        ax.set_xlim(-1.08, 1.08)
        ax.set_ylim(-1.08, 1.08)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ("left", "bottom"):
            ax.spines[side].set_visible(False)
        label = (
            f"{angle}°\nq·k =\n{dot_label(q @ k)}"
            if layout.stacked
            else f"{angle}°\nq·k = {dot_label(q @ k)}"
        )
        ax.set_title(label, fontsize=9 if layout.stacked else 10)
    angle = np.linspace(0, 180, 181)  # (181,)
    keys = np.stack([rotate(k0, a) for a in angle])  # (181, d_k)
    values = keys @ q  # (181, d_k) x (d_k,) -> (181,)
    ax = curve
    ax.axhline(0, color=style.muted, lw=0.8)
    ax.plot(angle, values, color=style.blue, lw=2)
    marks = np.stack([rotate(k0, a) for a in ANGLES]) @ q  # (5,)
    ax.plot(ANGLES, marks, "o", color=style.vermilion, ms=7)
    ax.set_xticks(ANGLES, [f"{a}°" for a in ANGLES])
    ax.set_xlabel("angle between the key and the query")
    ax.set_ylabel("dot product q·k")
    # q·k = ‖q‖ ‖k‖ cos θ: the curve is a cosine; say so only if the data agree
    cosine = np.linalg.norm(q) * np.linalg.norm(k0) * np.cos(np.deg2rad(angle))  # (181,)
    shape = "a cosine, ‖q‖ ‖k‖ cos θ," if np.allclose(values, cosine) else "a curve"
    ax.text(5, 0.35, "aligned: positive", fontsize=10)
    ax.text(92, 0.08, "perpendicular: 0", color=style.foreground, fontsize=10)
    ax.text(130, marks[-1], "opposed: negative", ha="right", color=style.foreground, fontsize=10)
    note = "above: query q (blue), key k (orange),\nkey norm ‖k‖ fixed (dotted circle)"
    if layout.stacked:  # no room inside the plot: over it
        ax.set_title(note, fontsize=9, color=style.muted)
    else:
        ax.text(180, marks[0], note, ha="right", va="top", fontsize=10)
    crossing = angle[np.argmin(np.abs(values))]  # (°) where the curve meets 0
    alt = (
        f"Small panels across the top show the fixed blue query {vec(q)} and an orange key of "
        f"norm {np.linalg.norm(k0):g}, on a dotted circle, turned by "
        f"{listing(f'{a}°' for a in ANGLES)} from it, one panel each, labelled with dot products "
        f"{listing(dot_label(m) for m in marks)}. Below, the dot product against the angle, "
        f"{shape} falls smoothly from {dot_label(values[0])} at {angle[0]:g}°, through zero at "
        f"{crossing:g}°, to {dot_label(values[-1])} at {angle[-1]:g}°."
    )
    return pl.show(fig, alt)
