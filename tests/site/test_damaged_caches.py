"""Caches that cannot lie, and a build that is reproducible: over the session's caches, with an
entry of every kind damaged, `make site` passes, says so in one line per entry, and builds the
very same site, byte for byte, as the session's cold build in a network namespace with no
network (tests/conftest.py). It reads everything else the cold build computed and renders every
page again, so the two builds also show that the build needs no network, that caches never
change the output, and that nothing in it depends on time, hash seeds or file order. (That each
computation gives the same bytes twice is checked where it is cheap: a figure, an explorable's
frames, tests/tools.)

Damaged as a disk that filled up or a machine that lost power leaves files: cut short, emptied,
or overwritten with garbage. Every way is tried on every kind of entry by the unit tests
(tests/tools/test_cache.py); here each kind gets one, over the session's warm caches, so only
the damaged entries are computed again. (`tools/damaged_caches.py` damages every file.)
"""

import os
import shutil
import subprocess
from pathlib import Path

from sitekit import cache, examples, paths
from sitekit.paths import ROOT

PAGE = "docs/foundations/softmax.md"
SOFTMAX = ROOT / PAGE


def one_of_each_kind(root: Path, built: frozenset[str]) -> list[Path]:
    """An entry of each kind of cache the build reads: a page's examples, a figure's SVG, alt
    text and links, an explorable's manifest, frame and alt text (the one with fewest frames),
    the formulas, and the sample notebook's rendering (it runs no experiment). Each is one the
    session's cold build left (``built``): the scratch builds of edited pages leave others."""

    def entries(folder: str, pattern: str) -> list[Path]:
        found = sorted((root / folder).glob(pattern))
        return [p for p in found if p.relative_to(root).as_posix() in built]

    # The two explorables with fewest frames: a damaged manifest leaves its frames unread.
    frames, other = sorted(
        (p.parent for p in entries("frames", "*/frames.json")),
        key=lambda folder: len(cache.read_json(folder / "frames.json")["texts"]),
    )[:2]
    notebook = next(
        p
        for p in entries("notebooks", "*.json")
        if cache.read_json(p)["title"].startswith("Sample notebook")
    )
    # The softmax page's outcome, found by its key: an edited page's entry is another one.
    page = examples.page_key(SOFTMAX, PAGE, examples.environment_key())
    return [
        root / "examples" / f"{page}.pickle",
        entries("figures", "*.dark.narrow.svg")[0],
        entries("figures", "*.alt")[1],
        entries("figures", "*.wide.links.json")[2],
        other / "frames.json",
        frames / "1-light-wide.svg",
        frames / "0.alt",
        root / "katex.json",
        notebook,
    ]


def test_a_build_over_damaged_caches_is_byte_identical_to_the_cold_offline_one(
    site, cold_cache_entries, tmp_path
):
    root = tmp_path / "cache"
    shutil.copytree(os.environ["PAPERLENS_CACHE_DIR"], root)
    damaged = one_of_each_kind(root, cold_cache_entries)
    for n, path in enumerate(damaged):
        how = list(cache.DAMAGE)[n % len(cache.DAMAGE)]
        path.write_bytes(cache.DAMAGE[how](path.read_bytes()))
    out = tmp_path / "site"
    result = subprocess.run(
        ["make", "--no-print-directory", "site", f"SITE_DIR={out}"],
        cwd=ROOT,
        env=paths.build_env() | {"PAPERLENS_CACHE_DIR": str(root)},
        capture_output=True,
        text=True,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "Traceback" not in output
    for path in damaged:  # one line each
        assert output.count(f"cache entry {path} was damaged") == 1, path
    first, second = cache.tree(site), cache.tree(out)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"{len(differ)} files differ between the two builds: {differ[:10]}"
