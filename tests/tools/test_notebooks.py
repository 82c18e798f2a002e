"""Notebook pages: links to other pages work on the site and in the downloaded notebook."""

import json

from sitekit import notebooks

SOURCE = """# %% [markdown]
# See [Checking a claim honestly](checking-claims.md#the-test) and [home](../index.md).

# %%
x = 1
"""


def test_a_notebook_page_links_to_pages_by_their_url():
    html = '<a href="checking-claims.md#the-test">x</a> <a href="https://a.org/b.md">y</a>'
    out = notebooks.page_links(
        html, "reproduce/attention-scaling.py", "reproduce/attention-scaling/"
    )
    assert out == '<a href="../checking-claims/#the-test">x</a> <a href="https://a.org/b.md">y</a>'


def test_the_downloaded_notebook_links_to_the_published_site():
    nb = json.loads(
        notebooks.to_ipynb(SOURCE, page="reproduce/x.py", site_url="https://pl.example/")
    )
    text = "".join(nb["cells"][0]["source"])
    assert "(https://pl.example/reproduce/checking-claims/#the-test)" in text
    assert "(https://pl.example/)" in text
