"""Explorable: the key turns round the query, and the dot product is read off as it swings."""

import numpy as np
from _angles import dot_label, q, rotate
from _text import vec
from matplotlib import pyplot as plt

import paperlens as pl
from sitekit.figstyle import Frames, new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

k0 = q / np.linalg.norm(q)  # (d_k,) a unit key along q: only its angle changes
ANGLES = tuple(range(0, 181, 15))  # degrees between q and k, one frame each


FRAMES = Frames(
    label="Angle between q and k",
    values=ANGLES,
    default=45,
    texts=tuple(f"{a}°, q·k = {dot_label(q @ rotate(k0, a))}" for a in ANGLES),
)


def make_frame(angle, style, layout):
    k = rotate(k0, angle)  # (d_k,)
    dot = q @ k
    shape = (2, 1) if layout.stacked else (1, 2)
    height = 6.4 if layout.stacked else 3.1
    fig, (arrows, curve) = new_figure(
        *shape, height=height, layout=layout, **({} if layout.stacked else {"width_ratios": [1, 2]})
    )
    # Left: the two arrows, the key on its circle of fixed norm, and the angle between them.
    for arrow, colour in ((k, style.vermilion), (q, style.blue)):  # the query on top
        arrows.annotate(
            "",
            xy=arrow,
            xytext=(0, 0),
            arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2.4, "mutation_scale": 16},
        )
    arrows.add_patch(plt.Circle((0, 0), 1.0, fill=False, color=style.muted, lw=0.6, ls=":"))
    start = np.degrees(np.arctan2(q[1], q[0]))  # the query's direction
    arc = np.deg2rad(start + np.linspace(0, angle, 40))  # (40,)
    arrows.plot(0.3 * np.cos(arc), 0.3 * np.sin(arc), color=style.foreground, lw=1)
    arrows.plot(0, 0, "o", color=style.foreground, ms=3)
    arrows.text(
        *(1.12 * q / np.linalg.norm(q)), "q", color=style.text(style.blue), fontsize=12, ha="center"
    )
    arrows.text(
        *(1.12 * k), "k", color=style.text(style.vermilion), fontsize=12, ha="center", va="center"
    )
    arrows.set_xlim(-1.25, 1.25)
    arrows.set_ylim(-1.25, 1.25)
    arrows.set_aspect("equal")
    arrows.set_xticks([])
    arrows.set_yticks([])
    for side in ("left", "bottom"):
        arrows.spines[side].set_visible(False)
    arrows.set_title(f"θ = {angle}°", fontsize=11)
    # Right: q·k against the angle, with this frame's point on it.
    theta = np.linspace(0, 180, 181)  # (181,) degrees
    values = np.stack([rotate(k0, a) for a in theta]) @ q  # (181, d_k) x (d_k,) -> (181,)
    curve.axhline(0, color=style.muted, lw=0.8)
    curve.plot(theta, values, color=style.blue, lw=2)
    curve.plot([angle], [dot], "o", color=style.vermilion, ms=9)
    curve.vlines(angle, 0, dot, color=style.vermilion, lw=1, ls="--")
    curve.set_xticks(range(0, 181, 45), [f"{a}°" for a in range(0, 181, 45)])
    curve.set_xlabel("angle θ between the key and the query")
    curve.set_ylabel("dot product q·k")
    curve.set_title(f"q·k = {dot_label(dot)}", fontsize=11)
    cosine = np.linalg.norm(q) * np.cos(np.deg2rad(theta))  # (181,) with ‖k‖ = 1
    shape = "a cosine, ‖q‖ ‖k‖ cos θ," if np.allclose(values, cosine) else "a curve"
    if np.isclose(dot, np.linalg.norm(q)):
        where = "aligned with it"
    elif np.isclose(dot, -np.linalg.norm(q)):
        where = "opposed to it"
    elif np.isclose(dot, 0.0):
        where = "perpendicular to it"
    else:
        where = f"at {angle}° to it"
    crossing = theta[np.argmin(np.abs(values))]  # (°) where the curve meets 0
    alt = (
        f"Left, the blue query {vec(q)} and an orange key of norm {np.linalg.norm(k0):g} "
        f"{where}, on a dotted circle. Right, the dot product against the angle, {shape} "
        f"falling from {dot_label(values[0])} at {theta[0]:g}° through zero at {crossing:g}° "
        f"to {dot_label(values[-1])} at {theta[-1]:g}°, with this key's point marked: q·k = "
        f"{dot_label(dot)} at {angle}°."
    )
    return pl.show(fig, alt)


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
