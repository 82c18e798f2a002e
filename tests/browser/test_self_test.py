"""The self-test in a real browser: answer boxes that check, a checklist that stays, and the
glossary's tooltips on later pages.

The expected answers are written into the page by the build (tools/sitekit/answers.py) from
the page's own code; docs/assets/self-test.js compares what the reader types with them.
Each test gets a tab of its own, with empty local storage (conftest.py: ``fresh_tab``).
"""

import json
import re

import pytest
from playwright.sync_api import expect

from sitekit.browser import set_palette

SELF_TEST = "foundations/self-test/"


@pytest.fixture
def self_test(fresh_tab, base_url):
    visit = fresh_tab.visit(base_url + SELF_TEST)
    yield visit.page
    assert not visit.errors, "\n".join(visit.errors)


def answer(page, key, text):
    """Type ``text`` into question ``key``'s box and press Enter, as a reader would."""
    box = page.locator(f"#answer-{key}")
    box.fill(text)
    box.press("Enter")
    return page.locator(f"#answer-{key}-verdict")


def test_every_box_is_shown_labelled_and_announces_its_verdict(self_test):
    forms = self_test.locator("form.answer-box")
    assert forms.count() == 12
    for i in range(forms.count()):
        form = forms.nth(i)
        expect(form).to_be_visible()  # the script unhides them; without it the cards remain
        verdict = form.locator(".answer-box__verdict")
        assert verdict.get_attribute("aria-live") == "polite"
        assert verdict.get_attribute("role") == "status"
    for key in ("2", "3", "5", "6", "8", "9", "10", "12", "13", "14", "15"):
        expect(self_test.get_by_label(f"Your answer to question {key} ")).to_have_count(1)
    expect(self_test.get_by_role("group", name="Your answer to question 11")).to_have_count(1)


def test_a_right_answer_is_right_and_links_to_its_section(self_test, base_url):
    verdict = answer(self_test, "2", "(8, 64)")
    expect(verdict).to_contain_text("Right.")
    expect(self_test.locator("form.answer-box").first).to_have_class(re.compile("--right"))
    link = verdict.get_by_role("link", name="§2 Matrices")
    expect(link).to_be_visible()
    link.click()
    self_test.wait_for_url(base_url + "foundations/matrices/#building-q-from-row-vectors")
    expect(self_test.locator("#building-q-from-row-vectors")).to_have_count(1)


def test_a_wrong_answer_is_wrong_and_says_where_it_is_taught(self_test):
    verdict = answer(self_test, "2", "(64, 8)")
    expect(verdict).to_contain_text("Not quite.")
    expect(verdict.get_by_role("link", name="§2 Matrices")).to_be_visible()
    expect(answer(self_test, "6", "13")).to_contain_text("Not quite.")
    expect(answer(self_test, "6", "")).to_contain_text("Type your answer first.")
    expect(answer(self_test, "14", "256")).to_contain_text("the answer has 2 numbers")
    # and a right answer after a wrong one
    expect(answer(self_test, "2", "8 64")).to_contain_text("Right.")


def test_every_box_accepts_the_value_the_build_computed_and_only_that(self_test):
    forms = self_test.locator("form.answer-box[data-kind=numbers]")
    for i in range(forms.count()):
        form = forms.nth(i)
        key = form.locator("input").get_attribute("id").removeprefix("answer-")
        expected = json.loads(form.get_attribute("data-expected"))
        typed = ", ".join(f"{x:g}".replace("-", "−") for x in expected)  # a true minus sign
        expect(answer(self_test, key, typed)).to_contain_text("Right.", timeout=2000)
        off = ", ".join(f"{x + 0.5:g}" for x in expected)
        expect(answer(self_test, key, off)).to_contain_text("Not quite.", timeout=2000)


def test_fractions_and_the_two_decimal_tolerance(self_test):
    expect(answer(self_test, "10", "[[1/4, -1/4], [-0.25, 0.25]]")).to_contain_text("Right.")
    expect(answer(self_test, "9", " ".join(["0.251"] * 8))).to_contain_text("Right.")
    expect(answer(self_test, "9", " ".join(["0.26"] * 8))).to_contain_text("Not quite.")


def test_the_choice_works_from_the_keyboard(self_test):
    group = self_test.get_by_role("group", name="Your answer to question 11")
    verdict = self_test.locator("#answer-11-verdict")
    group.get_by_role("button", name="Check").click()
    expect(verdict).to_contain_text("Choose an answer first.")
    group.get_by_label("grows").focus()
    self_test.keyboard.press("Space")
    self_test.keyboard.press("Tab")  # a radio group is one stop: on to the button
    self_test.keyboard.press("Enter")
    expect(verdict).to_contain_text("Not quite.")
    group.get_by_label("grows").focus()
    self_test.keyboard.press("ArrowRight")  # moves the choice to "shrinks"
    expect(group.get_by_label("shrinks")).to_be_checked()
    group.get_by_role("button", name="Check").press("Enter")
    expect(verdict).to_contain_text("Right.")
    expect(verdict.get_by_role("link")).to_have_attribute(
        "href", re.compile(r"gradients/#saturation")
    )


def test_the_checklist_survives_a_reload(self_test):
    boxes = self_test.locator(".checklist input[type=checkbox]")
    assert boxes.count() == 8  # the skills of §1–§8
    status = self_test.locator(".checklist__status")
    expect(status).to_have_text("0 of 8 skills ticked.")
    self_test.get_by_label("I can tell a scalar from a vector").check()  # by its label
    boxes.nth(4).focus()
    self_test.keyboard.press("Space")  # from the keyboard
    expect(status).to_have_text("2 of 8 skills ticked.")
    self_test.reload()
    checked = boxes.evaluate_all("bs => bs.map(b => b.checked)")
    assert checked == [True, False, False, False, True, False, False, False]
    expect(status).to_have_text("2 of 8 skills ticked.")
    boxes.nth(0).uncheck()
    self_test.reload()
    assert boxes.evaluate_all("bs => bs.map(b => b.checked)") == [False] * 4 + [True] + [False] * 3


def test_axe_stays_clean_with_verdicts_and_ticks_in_both_palettes(self_test, axe_source):
    """Colour contrast of what the script shows (verdicts, ticks, the status), both palettes;
    the whole page as loaded is checked by test_pages.py."""
    answer(self_test, "2", "(8, 64)")
    answer(self_test, "6", "13")
    self_test.locator(".checklist input[type=checkbox]").first.check()
    expect(self_test.locator("#answer-6-verdict")).to_contain_text("Not quite.")
    self_test.add_script_tag(content=axe_source)
    for scheme in ("default", "slate"):
        set_palette(self_test, scheme)
        result = self_test.evaluate(
            """() => axe.run(document.querySelector("article"), {
                runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
                rules: {"target-size": {enabled: true}},
                resultTypes: ["violations"],
            }).then(r => r.violations.map(
                v => v.id + ": " + v.nodes.map(n => n.target).join(", ")))"""
        )
        assert not result, f"{scheme}: {result}"


# --- The glossary's tooltips ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "word", "meaning"),
    [
        ("beyond/long-sequences/", "tokens", "piece of the input text"),
        ("walkthrough/step-3-random-scores/", "heads", "attention computation"),
        # a notebook page: the tooltips come from the build, not from the abbr extension
        ("reproduce/residual-degradation/", "full-batch", "whole training set"),
    ],
)
def test_a_word_defined_earlier_has_its_tooltip_on_a_later_page(
    fresh_tab, base_url, path, word, meaning
):
    page = fresh_tab.visit(base_url + path).page
    term = page.locator("article .gloss__term", has_text=re.compile(rf"^{word}$")).first
    expect(term).to_be_visible()
    expect(term).to_have_accessible_description(re.compile(meaning))
    term.hover()  # tests/browser/test_reader.py tries every way to open it
    expect(page.locator("#" + term.get_attribute("aria-describedby"))).to_be_visible()


@pytest.mark.parametrize(
    ("path", "word"),
    [
        ("walkthrough/step-6-the-fix/", "Adam"),
        ("reproduce/attention-scaling/", "full-batch"),  # a notebook page
    ],
)
def test_the_page_that_defines_a_word_shows_no_tooltip_for_it(fresh_tab, base_url, path, word):
    page = fresh_tab.visit(base_url + path).page
    expect(page.locator("article strong", has_text=re.compile(f"^{word}$"))).to_have_count(1)
    expect(page.locator("article abbr", has_text=re.compile(f"^{word}$"))).to_have_count(0)
    expect(page.locator("article .gloss__term", has_text=re.compile(f"^{word}$"))).to_have_count(0)
