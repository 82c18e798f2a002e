"""Draw one figure script as the build does, as PNGs to look at, and check it.

    .venv/bin/python -m sitekit.draw figures/foundations/softmax/scores-to-weights.py

draws the script's ``make_figure(style, layout)`` in every style and layout (light and dark,
wide and narrow), writes each as ``<figure>.<style>.<layout>.png`` in ``--out`` (by default
``paperlens-figures`` in the system's temporary folder), prints their paths and the alt text,
and runs the checks the build runs (`sitekit.render`: text size, contrast, text that overlaps
or runs off the edge, the same alt text in every variant). It writes the PNGs even when a
check fails, so that you can see what it found; it exits 1 then.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from sitekit import figstyle, render, text_layout

OUT = Path(tempfile.gettempdir()) / "paperlens-figures"


def draw_all(script: Path, out: Path, dpi: float) -> tuple[list[Path], str, list[str]]:
    """The PNGs written, the alt text, and every check's problems (each naming its variant)."""
    module = render.load(script)
    out.mkdir(parents=True, exist_ok=True)
    written, problems, alts = [], [], {}
    for style in figstyle.STYLES:
        for layout in figstyle.LAYOUTS:
            result = render.draw(module, style, layout)
            fig: Figure = result.fig  # type: ignore[assignment]
            with text_layout.drawn_texts() as drawn:  # drawn as the build draws it, in SVG
                fig.savefig(io.BytesIO(), format="svg")
            found = render.check_text(fig, style) + text_layout.problems(fig, drawn)
            problems += [f"{style.name} {layout.name}: {p}" for p in found]
            path = out / f"{script.stem}.{style.name}.{layout.name}.png"
            fig.savefig(path, dpi=dpi)
            plt.close(fig)
            written.append(path)
            alts[f"{style.name} {layout.name}"] = result.alt
    if len(set(alts.values())) > 1:
        problems.append(f"the alt text differs between styles or layouts: {alts!r}")
    return written, next(iter(alts.values())), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sitekit.draw", description=__doc__)
    parser.add_argument("script", type=Path, help="figures/<section>/<page>/<figure>.py")
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    parser.add_argument("--dpi", type=float, default=192, help="192: twice the CSS pixels")
    args = parser.parse_args(argv)
    written, alt, problems = draw_all(args.script, args.out, args.dpi)
    print("\n".join(str(path) for path in written))
    print(f"alt text: {alt}")
    if text_layout.known_key(args.script) in text_layout.KNOWN:
        print("(listed in sitekit.text_layout.KNOWN: the build lets its text layout pass)")
    if problems:
        print("text that readers cannot read:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
