"""A reader pasting a page's snippets into a plain ``python3``, in order: run by the reader's
Python (no pytest, no sitekit) on a downloaded notebook, it prints, as JSON, one
``[code, what the page shows, what the interpreter printed]`` for every cell whose page shows
an output (``metadata["paperlens"]["shows"]``, `sitekit.notebooks.doctest_cells`).

Each cell is pasted line by line into `code.InteractiveConsole`, the standard library's copy of
the interactive interpreter's loop (``python3`` without a script): a line is compiled in
``"single"`` mode, so every expression statement's value is echoed by ``sys.displayhook``, and a
compound statement ends only at a blank line, so a statement pasted straight after one is a
syntax error, as it is at the prompt. A cell ends with an empty line, the reader's Enter. An
error the interpreter prints (a syntax error, or an exception) is reported as the cell's failure.
"""

import code
import contextlib
import io
import json
import sys


class Console(code.InteractiveConsole):
    """The interactive interpreter, keeping the errors it would print to the reader (that every
    cell pastes without a syntax error, the build checks: `sitekit.notebooks.paste_problems`)."""

    def __init__(self, namespace: dict[str, object] | None = None) -> None:
        super().__init__(namespace, filename="<stdin>")
        self.errors: list[str] = []

    def write(self, data: str) -> None:  # where the console prints tracebacks
        self.errors.append(data)

    def paste(self, source: str) -> None:
        """Paste a cell line by line, then press Enter once more."""
        for line in [*source.splitlines(), ""]:
            self.push(line)


def main(path: str) -> None:
    notebook = json.loads(open(path, encoding="utf-8").read())
    console = Console({"__name__": "__main__"})
    compared = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        shows = cell.get("metadata", {}).get("paperlens", {}).get("shows")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            console.paste(source)
        if console.errors:
            sys.exit(
                f"pasting this cell into python3 prints an error:\n{source}\n\n"
                + "".join(console.errors)
            )
        if shows is not None:
            compared.append([source, shows, printed.getvalue()])
    json.dump(compared, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
