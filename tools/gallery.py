"""Screenshot every page of the built site in both palettes: ``make gallery``.

    .venv/bin/python tools/gallery.py [--site DIR] [--out gallery] [--width 1280] [--full]

Pages are discovered from the site's HTML files (as the browser tests do). Writes
``OUT/<page>-light.png`` and ``OUT/<page>-dark.png`` (``OUT`` is gitignored) and an
``index.html`` that shows them side by side.
"""

from __future__ import annotations

import argparse
import html
from pathlib import Path

from playwright.sync_api import sync_playwright

from sitekit import browser
from sitekit.paths import ROOT

PALETTES = {"light": "default", "dark": "slate"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="built site folder")
    parser.add_argument("--out", type=Path, default=ROOT / "gallery")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--full", action="store_true", help="whole pages, not the first screen")
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        raise SystemExit(f"no built site in {args.site}; run `make site` first")
    args.out.mkdir(parents=True, exist_ok=True)
    paths = browser.page_paths(args.site, include_not_found=True)
    rows = []
    with browser.serve(args.site) as base, sync_playwright() as p:
        b = browser.launch(p)
        context = b.new_context(viewport={"width": args.width, "height": 900}, color_scheme="light")
        page = context.new_page()
        for path in paths:
            page.goto(base + path)
            shots = []
            for label, scheme in PALETTES.items():
                browser.set_palette(page, scheme)
                out = args.out / f"{browser.page_name(path)}-{label}.png"
                page.screenshot(path=str(out), full_page=args.full, animations="disabled")
                shots.append(out.name)
            rows.append((path or "(home)", shots))
            print(f"gallery: /{path}", flush=True)
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
