"""A notebook cell tagged ``hide-input`` shows only its output on the site, and the notebook a
reader downloads keeps its code (mkdocs.yml's mkdocs-jupyter ``remove_tag_config``)."""

import json

import jupytext
import yaml
from mkdocs_jupyter import nbconvert2

from sitekit import notebook_html, notebooks
from sitekit.paths import ROOT

TAG = "hide-input"
NOTEBOOK = """# %% [markdown]
# Prose the author typed.

# %% tags=["hide-input"]
hidden_words = "written" + " " + "from the run"
print(hidden_words.upper())

# %%
shown_value = 6 * 7
shown_value
"""


def jupyter_options():
    """mkdocs-jupyter's options as mkdocs.yml sets them (its ``!ENV`` tags read as None)."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", lambda loader, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)  # noqa: S506
    (options,) = [p["mkdocs-jupyter"] for p in config["plugins"] if "mkdocs-jupyter" in p]
    return options


def test_the_site_shows_a_tagged_cell_s_output_without_its_code(tmp_path):
    options = jupyter_options()
    assert options["remove_tag_config"] == {"remove_input_tags": [TAG]}
    source = tmp_path / "page.py"
    source.write_text(NOTEBOOK)
    page = notebook_html.clean_html(
        nbconvert2.nb2html(
            str(source),
            execute=options["execute"],
            allow_errors=options["allow_errors"],
            no_input=options["no_input"],
            no_prompt=options["no_prompt"],
            remove_tag_config=options["remove_tag_config"],
        )
    )
    assert "WRITTEN FROM THE RUN" in page  # the tagged cell's output
    assert "hidden_words" not in page  # ... without its code
    assert "shown_value" in page and "42" in page  # an untagged cell keeps both
    assert "Prose the author typed." in page


def test_the_download_keeps_a_tagged_cell_s_code_and_tag():
    notebook = json.loads(notebooks.percent_to_ipynb(NOTEBOOK, page="reproduce/x.py", site_url="/"))
    tagged = [c for c in notebook["cells"] if TAG in c["metadata"].get("tags", [])]
    assert len(tagged) == 1 and "hidden_words" in "".join(tagged[0]["source"])


def test_the_sample_notebook_tags_its_prose_and_figure_cells():
    sample = jupytext.read(ROOT / "docs" / "reproduce" / "sample-temperature.py")
    tagged = [c.source for c in sample.cells if TAG in c.metadata.get("tags", [])]
    assert len(tagged) == 2
    assert tagged[0].startswith("Markdown(") and "pl.show(" in tagged[1]
