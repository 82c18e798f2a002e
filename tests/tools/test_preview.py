"""`make serve`'s dirty rebuilds (sitekit.preview): which pages are rebuilt."""

import logging

from sitekit import preview


def test_a_page_whose_inputs_changed_is_rebuilt_and_others_are_not():
    before = {"a.md": "1", "b.md": "2"}
    assert preview.outdated({"a.md": "1", "b.md": "3"}, before, "s", "s") == ["b.md"]
    assert preview.outdated(before, before, "s", "s") == []
    assert preview.outdated({**before, "c.md": "4"}, before, "s", "s") == ["c.md"]


def test_a_change_every_page_shares_rebuilds_them_all():
    keys = {"a.md": "1", "b.md": "2"}
    assert preview.outdated(keys, keys, "new", "old") == ["a.md", "b.md"]
    assert preview.outdated(keys, {}, "s", "") == ["a.md", "b.md"]  # the first build


def test_the_shared_key_sees_the_pages_and_the_extra_inputs():
    key = preview.shared_key(["a.md"], ["fig.svg\0alt"])
    assert preview.shared_key(["a.md", "b.md"], ["fig.svg\0alt"]) != key
    assert preview.shared_key(["a.md"], ["fig.svg\0other alt"]) != key
    assert preview.shared_key(["a.md"], ["fig.svg\0alt"]) == key


def test_only_the_engines_dirty_build_warning_is_dropped(caplog):
    preview.allow_dirty_builds()
    logger = logging.getLogger("properdocs.commands.build")
    with caplog.at_level(logging.WARNING, logger="properdocs.commands.build"):
        logger.warning("A 'dirty' build is being performed, this will likely lead to ...")
        logger.warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"]
