/* paperlens: glossary definitions (tools/sitekit/glossary.py says what and why). CSS opens a
   definition on hover and on focus; this script adds what CSS cannot (WCAG 2.1, 1.4.13):
   Escape closes it, a tap toggles it, it stays a moment after the pointer leaves the word so
   the pointer can reach it, and it is kept inside the screen. Listeners are on the document,
   so pages that Material's instant navigation swaps in need no set-up. */
(function () {
  "use strict";
  var GRACE_MS = 400, timer = null, kept = null, tapShown = false, pointer = "mouse";

  function gloss(node) {
    return node instanceof Element ? node.closest(".gloss") : null;
  }
  function shown(g) {
    return getComputedStyle(g.lastElementChild).display !== "none";
  }
  function set(g, name, on) {
    g.classList.toggle("gloss--" + name, on);
    if (on && name === "open") place(g);
  }
  // Shift the definition left when it would overflow the screen's right edge.
  function place(g) {
    var tip = g.lastElementChild;
    tip.style.left = "";
    var over = tip.getBoundingClientRect().right - document.documentElement.clientWidth + 8;
    if (over > 0) tip.style.left = -Math.min(over, g.getBoundingClientRect().left - 8) + "px";
  }
  function release() {
    window.clearTimeout(timer);
    if (kept) set(kept, "open", false);
    kept = null;
  }

  document.addEventListener("pointerdown", function (event) {
    pointer = event.pointerType || "mouse";
    var g = gloss(event.target);
    tapShown = !!g && shown(g) && !g.classList.contains("gloss--closed");
  }, true);
  document.addEventListener("pointerover", function (event) {
    var g = gloss(event.target);
    if (g && g === kept) window.clearTimeout(timer);
    if (g) place(g);
  });
  document.addEventListener("pointerout", function (event) {
    var g = gloss(event.target);
    if (!g || g.contains(event.relatedTarget) || event.pointerType !== "mouse") return;
    if (g.classList.contains("gloss--closed")) return set(g, "closed", false);
    release();
    kept = g;
    set(g, "open", true);
    timer = window.setTimeout(release, GRACE_MS);
  });
  document.addEventListener("focusin", function (event) {
    var g = gloss(event.target);
    if (g) place(g);
  });
  document.addEventListener("focusout", function (event) {
    var g = gloss(event.target);
    if (g && !g.contains(event.relatedTarget)) {
      set(g, "closed", false);
      set(g, "open", false);
    }
  });
  document.addEventListener("click", function (event) {
    var g = gloss(event.target);
    document.querySelectorAll(".gloss--open").forEach(function (other) {
      if (other !== g) set(other, "open", false);
    });
    if (!g || !event.target.closest(".gloss__term")) return;
    if (pointer === "mouse" && event.detail > 0) return set(g, "closed", false);
    // A tap, or Enter or Space on the focused word: toggle.
    var open = event.detail > 0 ? !tapShown : g.classList.contains("gloss--closed");
    set(g, "closed", !open);
    set(g, "open", open);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    release();
    document.querySelectorAll(".gloss:hover, .gloss:focus-within, .gloss--open")
      .forEach(function (g) {
        set(g, "open", false);
        set(g, "closed", true);
      });
  });
})();
