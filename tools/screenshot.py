"""Screenshot built pages in headless Chromium: ``python tools/screenshot.py OUTDIR PAGE...``.

Serves ``site/`` on a free local port; ``--dark`` switches to the dark palette first;
``--full`` captures the whole page. PAGE is a path inside the site, such as ``foundations/``.
Serving and launching are shared with the browser tests (``sitekit.browser``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from sitekit import browser
from sitekit.paths import ROOT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="built site folder")
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    with browser.serve(args.site) as base, sync_playwright() as p:
        b = browser.launch(p)
        page = b.new_page(viewport={"width": args.width, "height": 900}, color_scheme="light")
        for path in args.pages:
            page.goto(base + path)
            browser.set_palette(page, "slate" if args.dark else "default")
            name = browser.page_name(path) + ("-dark" if args.dark else "")
            out = args.outdir / f"{name}.png"
            page.screenshot(path=str(out), full_page=args.full, animations="disabled")
            print(out)
        b.close()


if __name__ == "__main__":
    main()
