"""Damage every file of a warm cache, build, and compare with a clean build.

    .venv/bin/python tools/damaged_caches.py --site CLEAN_SITE [--mode cycle] [--cache DIR]

Copies the cache (default: ``.cache``, or ``PAPERLENS_CACHE_DIR``) into a scratch folder, damages
every file in it as a full disk, a lost power or a stray write would (``truncated`` to half,
``emptied``, overwritten with ``garbage``, or ``cycle``: each file the next way in turn), runs
``make site`` over the damaged copy and compares the site it builds, byte for byte, with
``CLEAN_SITE`` (a clean cold build of the same sources). Prints what it damaged, the lines the
build reported, and the verdict; exits 1 when the build fails or the sites differ.
tests/site/test_damaged_caches.py does the same for one entry of each kind.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sitekit.cache import DAMAGE, tree
from sitekit.paths import ROOT, build_env, cache_root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", type=Path, required=True, help="a clean cold build's site")
    parser.add_argument("--mode", choices=[*DAMAGE, "cycle"], default="cycle")
    parser.add_argument("--cache", type=Path, default=cache_root())
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="paperlens-damaged-") as tmp:
        root = Path(tmp) / "cache"
        shutil.copytree(args.cache, root)
        files = sorted(p for p in root.rglob("*") if p.is_file())
        ways = list(DAMAGE)
        for n, path in enumerate(files):
            how = ways[n % len(ways)] if args.mode == "cycle" else args.mode
            path.write_bytes(DAMAGE[how](path.read_bytes()))
        print(f"damaged {len(files)} files in a copy of {args.cache} ({args.mode})")
        out = Path(tmp) / "site"
        env = build_env() | {
            "PAPERLENS_CACHE_DIR": str(root),
            "PAPERLENS_EXPERIMENT_CACHE": str(root / "experiments"),
        }
        result = subprocess.run(
            ["make", "--no-print-directory", "site", f"SITE_DIR={out}"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        output = result.stdout + result.stderr
        reported = [line for line in output.splitlines() if "was damaged" in line]
        print(f"the build reported {len(reported)} damaged entries, e.g.:")
        print("\n".join(f"  {line}" for line in reported[:5]))
        if result.returncode != 0 or "Traceback" in output:
            print(f"make site failed (exit {result.returncode}):\n{output[-4000:]}")
            return 1
        first, second = tree(args.site), tree(out)
        differ = sorted(n for n in set(first) | set(second) if first.get(n) != second.get(n))
        if differ:
            print(f"{len(differ)} files differ from {args.site}: {differ[:10]}")
            return 1
        print(f"make site passed; its {len(second)} files equal {args.site}'s, byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
