/* paperlens: answer boxes and checklists (the self-test page).

   Answer boxes (form.answer-box) are written by the build (tools/sitekit/answers.py): the value
   the page's own code computed sits in data-expected, as JSON. This script compares the
   reader's answer with it, in the browser, with no request, and says right or wrong in the
   form's live region, with a link to the section that teaches it.

   Checklists (div.checklist[data-checklist]) are Markdown lists; each item becomes a checkbox
   whose state is kept in localStorage, so the ticks survive a reload.

   Both are set up on every page Material's instant navigation shows (document$). */
(function () {
  "use strict";

  // A number, with an optional fraction: 3, -0.25, .5, 1e-3, 1/4 (− and – read as minus).
  var NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?:\s*\/\s*(?:\d+\.?\d*|\.\d+))?/gi;

  function readNumbers(text) {
    var found = text.replace(/[\u2212\u2013]/g, "-").match(NUMBER) || [];
    return found.map(function (token) {
      var parts = token.split("/");
      return parts.length === 2 ? Number(parts[0]) / Number(parts[1]) : Number(token);
    });
  }

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  // The verdict for a numbers box: null when right, else what to tell the reader.
  function judgeNumbers(form) {
    var input = form.querySelector("input[type=text]");
    var expected = JSON.parse(form.dataset.expected);
    var tolerance = Number(form.dataset.tolerance);
    if (!input.value.trim()) return { empty: "Type your answer first." };
    var given = readNumbers(input.value);
    if (given.length !== expected.length) {
      return {
        wrong: "Not quite: the answer has " + plural(expected.length, "number") +
          ", and you typed " + plural(given.length, "number") + "."
      };
    }
    var right = expected.every(function (value, i) {
      return Math.abs(given[i] - value) <= tolerance + 1e-12 * Math.abs(value);
    });
    return right ? null : { wrong: "Not quite. Try again, or open the answer above." };
  }

  function judgeChoice(form) {
    var chosen = form.querySelector("input[type=radio]:checked");
    if (!chosen) return { empty: "Choose an answer first." };
    return chosen.value === JSON.parse(form.dataset.expected)
      ? null
      : { wrong: "Not quite. Try again, or open the answer above." };
  }

  function check(form) {
    var verdict = form.dataset.kind === "choice" ? judgeChoice(form) : judgeNumbers(form);
    var message = form.querySelector(".answer-box__message");
    var teach = form.querySelector(".answer-box__teach");
    var state = verdict === null ? "right" : verdict.wrong ? "wrong" : "empty";
    form.classList.remove("answer-box--right", "answer-box--wrong");
    if (state !== "empty") form.classList.add("answer-box--" + state);
    // Empty the live region first, so that the same verdict twice is announced twice.
    message.textContent = "";
    teach.hidden = true;
    window.setTimeout(function () {
      message.textContent = state === "right" ? "Right." : verdict.wrong || verdict.empty;
      teach.hidden = state === "empty";
    }, 50);
  }

  function setUpAnswerBox(form) {
    form.hidden = false;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      check(form);
    });
  }

  // --- Checklists ------------------------------------------------------------------------

  function storageKey(list) {
    return "paperlens:checklist:" + list.dataset.checklist;
  }

  function load(list) {
    try {
      var stored = JSON.parse(window.localStorage.getItem(storageKey(list)) || "[]");
      return Array.isArray(stored) ? stored : [];
    } catch (error) {
      return [];  // storage blocked or corrupt: start with nothing ticked
    }
  }

  function save(list, ticked) {
    try {
      window.localStorage.setItem(storageKey(list), JSON.stringify(ticked));
    } catch (error) {
      /* storage blocked (private mode): the ticks last until the page is left */
    }
  }

  // An item's id: the page its link points to ("scalars-vectors"), else its position.
  function itemId(item, index) {
    var link = item.querySelector("a[href]");
    if (!link) return "item-" + (index + 1);
    var path = new URL(link.href, document.baseURI).pathname.replace(/\/(index\.html)?$/, "");
    return path.slice(path.lastIndexOf("/") + 1) || "item-" + (index + 1);
  }

  function setUpChecklist(list) {
    var items = Array.prototype.slice.call(list.querySelectorAll(":scope > ul > li"));
    var ticked = load(list);
    var status = document.createElement("p");
    status.className = "checklist__status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");

    function report() {
      var n = list.querySelectorAll("input[type=checkbox]:checked").length;
      status.textContent = n + " of " + items.length + " skills ticked.";
    }

    items.forEach(function (item, index) {
      var id = itemId(item, index);
      var box = document.createElement("input");
      box.type = "checkbox";
      box.id = "checklist-" + list.dataset.checklist + "-" + id;
      box.value = id;
      box.checked = ticked.indexOf(id) !== -1;
      var label = document.createElement("label");
      label.htmlFor = box.id;
      while (item.firstChild) label.appendChild(item.firstChild);
      item.appendChild(box);
      item.appendChild(label);
      item.classList.add("checklist__item");
      box.addEventListener("change", function () {
        var now = Array.prototype.map.call(
          list.querySelectorAll("input[type=checkbox]:checked"),
          function (b) { return b.value; }
        );
        save(list, now);
        report();
      });
    });
    list.classList.add("checklist--ready");
    list.appendChild(status);
    report();
  }

  // Each element once: a page is set up on load and again after each instant navigation.
  function once(element) {
    if (element.dataset.ready) return false;
    element.dataset.ready = "1";
    return true;
  }

  function setUp() {
    document.querySelectorAll("form.answer-box").forEach(function (form) {
      if (once(form)) setUpAnswerBox(form);
    });
    document.querySelectorAll("div.checklist[data-checklist]").forEach(function (list) {
      if (once(list)) setUpChecklist(list);
    });
  }

  // Material's instant navigation swaps the page's content without loading this script again;
  // its document$ emits for the first page and for every page navigated to.
  if (window.document$) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
