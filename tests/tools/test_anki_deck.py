"""The Anki deck (sitekit.cards.anki_package), opened by Anki itself: the ``anki`` package, a
fresh collection in a temporary folder, the deck imported as Anki's *File → Import* does (its
default options: a note is updated when the incoming one is newer)."""

import contextlib
import sqlite3
import zipfile
from collections import Counter
from io import BytesIO
from pathlib import Path

import pytest
import yaml

from sitekit import cards
from sitekit.paths import ROOT

anki_collection = pytest.importorskip("anki.collection", reason="the `anki` package (test extra)")

SITE = "https://pl.example/"
T0 = 1_800_000_000  # a commit's time
DOCS = ROOT / "docs"


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # !ENV and the like


@pytest.fixture(scope="module")
def site_cards():
    nav = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_Loader)["nav"]
    found = cards.collect(DOCS, nav)
    assert len(found) > 20
    return found


def fresh_collection(folder: Path):
    return anki_collection.Collection(str(folder / "collection.anki2"))


def import_deck(col, data: bytes, folder: Path, name: str):
    path = folder / name
    path.write_bytes(data)
    request = anki_collection.ImportAnkiPackageRequest(
        package_path=str(path), options=anki_collection.ImportAnkiPackageOptions()
    )
    return col.import_anki_package(request).log


def notes(col):
    """{guid: (fields, tags, deck name)} of every note in the collection."""
    out = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        (card,) = note.cards()
        out[note.guid] = (list(note.fields), sorted(note.tags), col.decks.name(card.did))
    return out


def test_every_card_imports_with_its_fields_tags_and_section_deck(site_cards, tmp_path):
    col = fresh_collection(tmp_path)
    try:
        log = import_deck(
            col, cards.anki_package(site_cards, site_url=SITE, timestamp=T0), tmp_path, "a.apkg"
        )
        found = notes(col)
    finally:
        col.close()
    assert len(log.new) == len(site_cards)
    assert set(found) == {c.guid for c in site_cards}, "one note per card, by its identity"
    assert len({c.guid for c in site_cards}) == len(site_cards), "identities are unique"
    for card in site_cards:
        (question, answer, page), tags, deck = found[card.guid]
        assert deck == f"paperlens::{card.section}"
        assert tags == sorted(cards._tags(card))
        assert question == cards.anki_field(card.question, card.page, SITE)
        assert answer == cards.anki_field(card.answer, card.page, SITE)
        assert f"#{card.anchor}" in page and SITE in page
        for field in (question, answer):
            assert "$" not in field, f"math must be in Anki's delimiters: {field[:80]}"
    # Math reaches Anki's MathJax in its own delimiters.
    assert any("\\(" in found[c.guid][0][0] for c in site_cards)
    assert Counter(d for _, _, d in found.values()).keys() == {
        f"paperlens::{c.section}" for c in site_cards
    }


def test_a_newer_deck_updates_the_notes_in_place_and_the_same_deck_changes_nothing(
    site_cards, tmp_path
):
    first = cards.anki_package(site_cards, site_url=SITE, timestamp=T0)
    changed = site_cards[3]
    edited = [
        cards.Card(c.section, c.page, c.page_title, c.question, c.answer + " (Edited.)", c.anchor)
        if c is changed
        else c
        for c in site_cards
    ]
    second = cards.anki_package(edited, site_url=SITE, timestamp=T0 + 60)
    col = fresh_collection(tmp_path)
    try:
        import_deck(col, first, tmp_path, "first.apkg")
        again = import_deck(col, first, tmp_path, "again.apkg")
        assert len(again.new) == len(again.updated) == 0
        log = import_deck(col, second, tmp_path, "second.apkg")
        found = notes(col)
    finally:
        col.close()
    assert len(found) == len(site_cards), "updated, not duplicated"
    assert len(log.new) == 0
    assert len(log.updated) == len(site_cards)  # a later commit: every note is newer
    assert found[changed.guid][0][1].endswith("(Edited.)</p>")


def test_the_package_is_byte_identical_for_the_same_cards_and_time(site_cards):
    a = cards.anki_package(site_cards, site_url=SITE, timestamp=T0)
    assert a == cards.anki_package(site_cards, site_url=SITE, timestamp=T0)
    with zipfile.ZipFile(BytesIO(a)) as z:
        assert z.namelist() == ["collection.anki2", "media"]


def test_note_times_are_the_commit_time(site_cards, tmp_path):
    data = cards.anki_package(site_cards, site_url=SITE, timestamp=T0)
    with zipfile.ZipFile(BytesIO(data)) as z:
        (tmp_path / "c.db").write_bytes(z.read("collection.anki2"))
    # closing(): sqlite3's own context manager commits but leaves the connection open, which
    # Python 3.13 reports as a ResourceWarning when the connection is collected.
    with contextlib.closing(sqlite3.connect(tmp_path / "c.db")) as db:
        assert {m for (m,) in db.execute("select mod from notes")} == {T0}
