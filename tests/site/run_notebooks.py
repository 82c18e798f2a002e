"""Run notebooks top to bottom, each in a fresh kernel of a named kernelspec, two at a time,
saved with their outputs; write the reports (None for a notebook that ran) to a JSON file.

    python run_notebooks.py KERNELS_DIR KERNEL REPORTS.json NOTEBOOK...

KERNELS_DIR holds ``kernels/<KERNEL>/kernel.json``. Nothing of the project's is left on the
kernels' path. Started by tests/conftest.py (``reader_notebooks``) as soon as the site is built,
so it runs beside the browser tests; tests/site/test_reader_install.py reads the reports.
"""

import functools
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sitekit.notebooks import execute


def main() -> None:
    kernels, kernel, reports, *notebooks = sys.argv[1:]
    os.environ["JUPYTER_PATH"] = kernels
    os.environ.pop("PYTHONPATH", None)
    with ProcessPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(functools.partial(execute, kernel=kernel, save=True), notebooks))
    Path(reports).write_text(json.dumps(found))


if __name__ == "__main__":
    main()
