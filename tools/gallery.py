"""Screenshot every page of the built site in both palettes: ``make gallery``.

    .venv/bin/python tools/gallery.py [--site DIR] [--out gallery] [--width 390 --width 1280]
                                      [--full] [--page foundations/softmax/]

Pages are discovered from the site's HTML files (as the browser tests do). At each width (by
default a 390 px phone and a 1280 px desktop) and in each palette, writes
``OUT/<page>-<width>-light.png`` and ``OUT/<page>-<width>-dark.png`` (``OUT`` is gitignored) and
an ``index.html`` that shows them side by side. Phone screenshots are of the whole page, so
that every figure is in them; desktop ones of the first screen unless ``--full``.
"""

from __future__ import annotations

import argparse
import html
from pathlib import Path

from playwright.sync_api import sync_playwright

from sitekit import browser
from sitekit.paths import ROOT

PALETTES = {"light": "default", "dark": "slate"}
_EAGER = """async () => {
    const shown = [...document.images].filter(i => i.checkVisibility());
    for (const img of shown) img.loading = "eager";
    await Promise.all(shown.map(i => i.decode().catch(() => null)));
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="built site folder")
    parser.add_argument("--out", type=Path, default=ROOT / "gallery")
    parser.add_argument("--width", type=int, action="append", help="390 and 1280 by default")
    parser.add_argument("--full", action="store_true", help="whole pages at every width")
    parser.add_argument("--page", action="append", help="only these pages (paths in the site)")
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        raise SystemExit(f"no built site in {args.site}; run `make site` first")
    args.out.mkdir(parents=True, exist_ok=True)
    paths = args.page or browser.page_paths(args.site, include_not_found=True)
    widths = args.width or [390, 1280]
    rows = []
    with browser.serve(args.site) as base, sync_playwright() as p:
        b = browser.launch(p)
        for width in widths:
            height = 844 if width < 600 else 900
            context = b.new_context(
                viewport={"width": width, "height": height}, color_scheme="light"
            )
            page = context.new_page()
            for path in paths:
                page.goto(base + path)
                shots = []
                for label, scheme in PALETTES.items():
                    browser.set_palette(page, scheme)
                    # Lazy images load as they near the screen: load them all first.
                    page.evaluate(_EAGER)
                    out = args.out / f"{browser.page_name(path)}-{width}-{label}.png"
                    full = args.full or width < 600
                    page.screenshot(path=str(out), full_page=full, animations="disabled")
                    shots.append(out.name)
                rows.append((f"{path or '(home)'} at {width} px", shots))
                print(f"gallery: /{path} at {width} px", flush=True)
            context.close()
        b.close()
    cells = "\n".join(
        f"<h2>{html.escape(path)}</h2><div>"
        + "".join(f'<img src="{s}" alt="{html.escape(path)} {s}" width="49%">' for s in shots)
        + "</div>"
        for path, shots in rows
    )
    (args.out / "index.html").write_text(
        f"<!doctype html><meta charset=utf-8><title>paperlens gallery</title>\n{cells}\n"
    )
    print(f"gallery: {2 * len(rows)} screenshots in {args.out}")


if __name__ == "__main__":
    main()
