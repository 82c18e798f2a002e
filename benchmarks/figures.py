"""Figures as readers get them, measured in Chromium on every content page of a built site.

    .venv/bin/python benchmarks/figures.py [--site site] [--json out.json]

Prints, over every page with images in its article:

- the smallest ratio of an image's drawn width to its designed (intrinsic) width on a 390 px
  phone, in each palette (the goal: 0.75 or more; tests/browser/test_pages.py checks it);
- how many images are shown through a CSS filter in the dark palette (the goal: none);
- the page weight of images: the bytes of every image the page loads (files, and ``data:``
  URLs inside the HTML) at 1280 px and 390 px, light and dark, per page and in total.

Works on any built site, so the same script measures a build from before a change.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from playwright.sync_api import sync_playwright

from sitekit import browser
from sitekit.paths import ROOT

MEASURE = """async () => {
    const imgs = [...document.querySelectorAll("article img")].filter(i => i.checkVisibility());
    for (const img of imgs) img.loading = "eager";
    await Promise.all(imgs.map(img => img.decode().catch(() => null)));
    await new Promise(r => setTimeout(r, 100));
    const shown = imgs.map(img => {
        let filtered = false;
        for (let e = img; e; e = e.parentElement)
            if (getComputedStyle(e).filter !== "none") filtered = true;
        return {src: (img.currentSrc || img.src).slice(0, 100), filtered,
                ratio: img.getBoundingClientRect().width / img.naturalWidth};
    });
    const files = performance.getEntriesByType("resource")
        .filter(e => e.initiatorType === "img" || /\\.(svg|png|jpe?g|gif|webp)$/.test(e.name))
        .reduce((n, e) => n + (e.encodedBodySize || e.transferSize || 0), 0);
    // data: URLs of the article's images, as many bytes as they take in the page's HTML.
    const inline = [...new Set([...document.querySelectorAll("article img, article source")]
        .flatMap(e => [e.getAttribute("src"), e.getAttribute("srcset")])
        .filter(u => u && u.startsWith("data:")))].reduce((n, u) => n + u.length, 0);
    return {shown, bytes: files + inline};
}"""

PALETTES = {"light": "default", "dark": "slate"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--json", type=Path, help="also write the measurements here")
    args = parser.parse_args()
    paths = browser.page_paths(args.site)
    results: dict[str, dict[str, object]] = {}
    with browser.serve(args.site) as base, sync_playwright() as p:
        b = browser.launch(p)
        for width in (390, 1280):
            for label, scheme in PALETTES.items():
                context = b.new_context(
                    viewport={"width": width, "height": 844}, color_scheme="light"
                )
                page = context.new_page()
                # The palette is chosen once, and kept by the theme from page to page as a
                # returning reader's is: each page loads in it from the start.
                page.goto(base, wait_until="load")
                browser.set_palette(page, scheme)
                for path in paths:
                    page.goto(base + path, wait_until="load")
                    assert page.locator("body").get_attribute("data-md-color-scheme") == scheme
                    found = page.evaluate(MEASURE)
                    if found["shown"]:
                        results.setdefault(path, {})[f"{width}-{label}"] = found
                context.close()
        b.close()
    ratios = {
        label: min(
            (img["ratio"], img["src"])
            for r in results.values()
            for img in r[f"390-{label}"]["shown"]  # type: ignore[index]
        )
        for label in PALETTES
    }
    filtered = sum(img["filtered"] for r in results.values() for img in r["1280-dark"]["shown"])  # type: ignore[index]
    images = sum(len(r["1280-dark"]["shown"]) for r in results.values())  # type: ignore[index]
    print(f"{len(results)} pages with images, {images} images shown in the dark palette")
    for label, (ratio, src) in ratios.items():
        print(f"smallest drawn/designed width at 390 px, {label}: {ratio:.3f} ({src})")
    print(f"images shown through a CSS filter in the dark palette (1280 px): {filtered}")
    print("image bytes per page (1280 light, 1280 dark, 390 light, 390 dark):")
    totals = [0, 0, 0, 0]
    for path, r in results.items():
        row = [r[k]["bytes"] for k in ("1280-light", "1280-dark", "390-light", "390-dark")]  # type: ignore[index]
        totals = [t + int(v) for t, v in zip(totals, row, strict=True)]  # type: ignore[call-overload]
        print(f"  {path or '(home)':45s} " + " ".join(f"{int(v) // 1024:6d} KB" for v in row))  # type: ignore[call-overload]
    print(f"  {'total':45s} " + " ".join(f"{t // 1024:6d} KB" for t in totals))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
