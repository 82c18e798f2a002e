/* paperlens: definitions of the glossary's words (tools/sitekit/glossary.py writes the markup).

   Each word is a button (.gloss__term) described by its definition (.gloss__tip,
   role="tooltip", aria-describedby), inside a span.gloss. Screen readers announce the
   definition as the button's description when it is focused. This script shows the definition
   (WCAG 2.1, 1.4.13 and 2.1.1):
   - on hover, and it stays while the pointer moves onto the definition itself (it waits a
     moment before closing, so a pointer on its way there does not close it);
   - on keyboard focus;
   - on tap (a second tap, or a tap elsewhere, closes it);
   - and Escape closes it, without moving the pointer or the focus, until they leave the word.
   Without this script, CSS shows it on hover and focus (paperlens.css).

   Every listener is on the document, so the words of a page that Material's instant
   navigation swaps in work with no set-up. */
(function () {
  "use strict";

  var OPEN = "gloss--open";
  var open = null;  // the span.gloss whose definition is shown
  var dismissed = null;  // closed with Escape: not reopened by the same hover or focus
  var tapStartedOpen = false;
  var lastPointer = "mouse";

  document.documentElement.classList.add("gloss-js");

  function gloss(node) {
    return node instanceof Element ? node.closest(".gloss") : null;
  }

  function button(g) {
    return g.querySelector(".gloss__term");
  }

  // Keep the definition inside the viewport: shift it left when it would overflow the right
  // edge (a word near the end of a line on a phone).
  function place(g) {
    var tip = g.querySelector(".gloss__tip");
    tip.style.left = "";
    var box = tip.getBoundingClientRect();
    var room = document.documentElement.clientWidth - 8;
    if (box.right > room) tip.style.left = Math.min(0, room - box.right) + "px";
    box = tip.getBoundingClientRect();
    if (box.left < 8) tip.style.left = (parseFloat(tip.style.left || "0") + 8 - box.left) + "px";
  }

  // Leaving the word for its definition, the pointer may cross the text beside them (the box
  // is wider than the word): the definition waits this long before it closes, and stays if the
  // pointer arrives on it (or back on the word) in time.
  var GRACE_MS = 400;
  var closing = null;

  function cancelClose() {
    if (closing) window.clearTimeout(closing);
    closing = null;
  }

  function show(g) {
    cancelClose();
    if (open && open !== g) hide(open);
    open = g;
    g.classList.add(OPEN);
    place(g);
  }

  function hide(g) {
    g.classList.remove(OPEN);
    if (open === g) open = null;
  }

  function hovered(g) {
    return g.matches(":hover");
  }

  function focused(g) {
    return g.contains(document.activeElement);
  }

  document.addEventListener("pointerdown", function (event) {
    lastPointer = event.pointerType || "mouse";
    var g = gloss(event.target);
    tapStartedOpen = !!g && g.classList.contains(OPEN);
  }, true);

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") return;
    var g = gloss(event.target);
    // The pointer is elsewhere: a word closed with Escape opens again on its next hover.
    if (dismissed && g !== dismissed && !focused(dismissed)) dismissed = null;
    if (g && g !== dismissed) show(g);
  });

  document.addEventListener("pointerout", function (event) {
    if (event.pointerType !== "mouse") return;
    var g = gloss(event.target);
    if (!g || g.contains(event.relatedTarget)) return;
    if (dismissed === g && !focused(g)) dismissed = null;
    if (focused(g)) return;
    cancelClose();
    closing = window.setTimeout(function () {
      closing = null;
      if (!hovered(g) && !focused(g)) hide(g);
    }, GRACE_MS);
  });

  document.addEventListener("focusin", function (event) {
    var g = gloss(event.target);
    if (g && g !== dismissed) show(g);
  });

  document.addEventListener("focusout", function (event) {
    var g = gloss(event.target);
    if (!g || g.contains(event.relatedTarget)) return;
    if (dismissed === g) dismissed = null;
    if (!(lastPointer === "mouse" && hovered(g))) hide(g);
  });

  document.addEventListener("click", function (event) {
    var g = gloss(event.target);
    if (!g) {
      if (open) hide(open);
      return;
    }
    if (!event.target.closest(".gloss__term")) return;  // a click inside the definition
    if (lastPointer === "mouse" && event.detail > 0) {
      show(g);  // hovering shows it already; a click keeps it shown
      dismissed = null;
      return;
    }
    // A tap, a pen, or Enter/Space on the focused button: toggle.
    var wasOpen = event.detail > 0 ? tapStartedOpen : g.classList.contains(OPEN);
    dismissed = null;
    if (wasOpen) {
      hide(g);
      dismissed = g;
    } else {
      show(g);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !open) return;
    dismissed = open;
    hide(open);
  });
})();
