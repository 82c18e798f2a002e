"""`make serve`'s dirty rebuilds (sitekit.preview): which pages are rebuilt."""

import logging

import pytest

from sitekit import preview
from sitekit.figures import Rendered


def test_a_page_whose_inputs_changed_is_rebuilt_and_others_are_not():
    before = {"a.md": "1", "b.md": "2"}
    assert preview.outdated({"a.md": "1", "b.md": "3"}, before, "s", "s") == ["b.md"]
    assert preview.outdated(before, before, "s", "s") == []
    assert preview.outdated({**before, "c.md": "4"}, before, "s", "s") == ["c.md"]


def test_a_change_every_page_shares_rebuilds_them_all():
    keys = {"a.md": "1", "b.md": "2"}
    assert preview.outdated(keys, keys, "new", "old") == ["a.md", "b.md"]
    assert preview.outdated(keys, {}, "s", "") == ["a.md", "b.md"]  # the first build


def test_the_shared_key_sees_the_pages():
    key = preview.shared_key(["a.md"])
    assert preview.shared_key(["a.md", "b.md"]) != key
    assert preview.shared_key(["a.md"]) == key


def test_a_figure_s_edit_changes_the_key_of_the_page_that_shows_it_and_no_other():
    path = "figures/foundations/softmax/curve.svg"
    shows = "# Softmax\n\n![](../figures/foundations/softmax/curve.svg)\n"
    other = "# Scalars\n"

    def keys(figure: Rendered) -> tuple[str, str]:
        return tuple(preview.with_figures("k", src, {path: figure}, {}) for src in (shows, other))

    before = keys(Rendered(b"<svg width='10'/>", "A curve."))
    assert keys(Rendered(b"<svg width='10'/>", "A curve.")) == before
    for edited in (
        Rendered(b"<svg width='10'/>", "Another curve."),
        Rendered(b"<svg/>", "A curve."),
    ):
        after = keys(edited)
        assert after[0] != before[0] and after[1] == before[1]


def test_only_the_engines_dirty_build_warning_is_dropped(caplog):
    preview.allow_dirty_builds()
    logger = logging.getLogger("properdocs.commands.build")
    with caplog.at_level(logging.WARNING, logger="properdocs.commands.build"):
        logger.warning("A 'dirty' build is being performed, this will likely lead to ...")
        logger.warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"]


def test_a_broken_link_under_serve_is_kept_for_its_page_not_counted_as_a_warning(caplog):
    kept = preview.keep_link_problems()
    logger = logging.getLogger("properdocs.structure.pages")
    missing = (
        "Doc file 'foundations/softmax.md' contains a link 'nowhere.md', but the target "
        "'foundations/nowhere.md' is not found among documentation files."
    )
    with caplog.at_level(logging.INFO):
        logger.warning(missing)
        logger.warning("something else")
        logger.info(
            "Doc file 'a.md' contains a link to 'b.md' which is excluded from the built site."
        )
    assert kept.pages == {"foundations/softmax.md": [missing]}
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == ["something else"]  # what strict mode counts
    assert any("the preview shows it in the page" in r.getMessage() for r in caplog.records)
    again = preview.keep_link_problems()  # each build its own, the old one removed
    assert again is not kept
    assert [f for f in logger.filters if isinstance(f, preview.LinkProblems)] == [again]
    _remove_filters(again)


def _remove_filters(kept) -> None:  # as make site has them
    for engine in ("properdocs", "mkdocs"):
        for part in ("pages", "nav"):
            logging.getLogger(f"{engine}.structure.{part}").removeFilter(kept)


def test_a_nav_entry_for_a_missing_file_and_a_missing_anchor_are_kept_too(caplog):
    kept = preview.keep_link_problems()
    nav = (
        "A reference to 'foundations/typo.md' is included in the 'nav' configuration, which is"
        " not found in the documentation files."
    )
    anchor = (
        "Doc file 'a.md' contains a link 'b.md#nope', but the doc 'b.md' does not contain an"
        " anchor '#nope'."
    )
    try:
        with caplog.at_level(logging.INFO):
            logging.getLogger("properdocs.structure.nav").warning(nav)
            logging.getLogger("properdocs.structure.pages").warning(anchor)
        assert kept.pages == {"": [nav], "a.md": [anchor]}  # "": every page shows it
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
        said = [
            r.getMessage() for r in caplog.records if "does not contain an anchor" in r.getMessage()
        ]
        assert said and "the preview shows it" not in said[0]  # checked after the page is written
    finally:
        _remove_filters(kept)


def test_the_page_shows_its_broken_links_at_the_top_of_its_article():
    page = '<main><article class="md-content__inner md-typeset"><h1>Softmax</h1></article></main>'
    shown = preview.show_link_problems(page, ["Doc file 'a.md' contains a link '<b>.md'"])
    assert shown.startswith('<main><article class="md-content__inner md-typeset"><div class=')
    assert "A link on this page goes nowhere" in shown and "&lt;b&gt;.md" in shown
    assert shown.endswith("<h1>Softmax</h1></article></main>")
    assert preview.show_link_problems(page, []) == page


def _plugin(command: str):
    from sitekit.plugin import PaperlensPlugin

    plugin = PaperlensPlugin()
    plugin.on_startup(command="build", dirty=False)  # no signal handlers in a test
    plugin._session().serving = command == "serve"
    return plugin


def _mistake() -> None:
    from sitekit import PageError

    raise PageError("docs/a.md:3: KaTeX cannot render inline math '\\\\frac{1}{'")


def test_an_author_s_mistake_fails_make_site():
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="docs/a.md:3: KaTeX cannot render"):
        _plugin("build")._checked(_mistake, "fallback", "a.md")


def test_under_serve_a_page_s_mistake_shows_on_it_and_a_shared_one_on_every_page(capfd):
    plugin = _plugin("serve")
    assert plugin._checked(_mistake, "fallback", "a.md") == "fallback"  # the build goes on
    plugin._fail(["docs/references.bib: no page cites x"])  # shared by every page
    own, other = plugin._notice("a.md"), plugin._notice("b.md")
    assert "What make site fails on" in own and "page-problems" in own
    assert "KaTeX cannot render" in own and "KaTeX cannot render" not in other
    assert "no page cites x" in own and "no page cites x" in other
    assert "KaTeX cannot render" in capfd.readouterr().err  # and the terminal says it
    plugin._session().links = kept = preview.keep_link_problems()
    try:  # a nav entry for a missing file, as the engine logs it, is shared too
        logging.getLogger("properdocs.structure.nav").warning(
            "A reference to 'x.md' is included in the 'nav' configuration, which is not found"
        )
        assert "configuration, which is not found" in plugin._notice("b.md")
        plugin._fail(["docs/references.bib: no page cites x"])  # said again: shown once
        assert plugin._notice("b.md").count("no page cites x") == 1
    finally:
        _remove_filters(kept)
    plugin._session().links = None
    plugin._session().problems = {}  # the next build starts clean
    assert plugin._notice("a.md") == ""


def test_a_file_saved_during_the_first_build_asks_for_a_rebuild(tmp_path):
    import time

    docs = tmp_path / "docs"
    (docs / "__pycache__").mkdir(parents=True)
    (docs / "old.md").write_text("old")
    started = time.time()
    time.sleep(0.05)
    (docs / "__pycache__" / "x.pyc").write_bytes(b"")  # importing the library writes these

    import properdocs.replacement  # noqa: F401  (the engine, as its command line loads it)
    from properdocs.livereload import LiveReloadServer

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    try:
        preview.rebuild_for_saves_during_first_build(server, [docs], started)
        assert not server._want_rebuild  # nothing saved but bytecode
        (docs / "new.md").write_text("saved while the first build ran")
        preview.rebuild_for_saves_during_first_build(server, [docs, tmp_path / "gone"], started)
        assert server._want_rebuild
    finally:
        server.server_close()
