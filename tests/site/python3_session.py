"""A reader pasting a page's snippets into a plain ``python3``, in order: run by the reader's
Python (no pytest, no sitekit) on a downloaded notebook, it prints, as JSON, one
``[code, what the page shows, what the interpreter printed]`` for every cell whose page shows
an output (``metadata["paperlens"]["shows"]``, `sitekit.notebooks.doctest_cells`).

Every top-level statement is compiled in ``"single"`` mode, as the interactive interpreter
compiles what is typed at its prompt, so every expression statement's value is echoed by
``sys.displayhook`` exactly as ``python3`` echoes it.
"""

import ast
import contextlib
import io
import json
import sys

notebook = json.loads(open(sys.argv[1], encoding="utf-8").read())
namespace = {"__name__": "__main__"}
compared = []
for cell in notebook["cells"]:
    if cell["cell_type"] != "code":
        continue
    source = "".join(cell["source"])
    shows = cell.get("metadata", {}).get("paperlens", {}).get("shows")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for statement in ast.parse(source).body:
            exec(compile(ast.Interactive([statement]), "<stdin>", "single"), namespace)
    if shows is not None:
        compared.append([source, shows, printed.getvalue()])
json.dump(compared, sys.stdout)
