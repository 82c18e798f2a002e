/* paperlens: explorable figures (tools/sitekit/explorables.py writes their markup).

   Each figure.explorable holds the default frame as an ordinary figure, a control hidden until
   this script runs (a range input, or a group of radio buttons), and its frames as JSON in its
   data-frames attribute: every
   frame's alt text, the text the control announces, and its SVG for each style and layout, all
   rendered at build time. Moving the control swaps the image and its alt text; the style
   follows the palette (Material's data-md-color-scheme: "slate" is dark) when a dark style is
   rendered, and the narrow layout is chosen with <picture> below the data's media query.
   The page's own figure (the default frame) stays until the control moves, unless a phone
   wants the narrow layout or the palette a dark style. Frames load when first shown; the
   neighbours of the frame shown load ahead, once the reader reaches for the control. */
(function () {
  "use strict";

  function palette() {
    return document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "light";
  }

  function setup(figure) {
    // Material's instant navigation runs this script again with each page that has it (it
    // re-inserts the scripts of the new content): set up each figure once.
    if (figure.dataset.ready) return;
    figure.dataset.ready = "1";
    var data = JSON.parse(figure.dataset.frames);
    var holder = figure.querySelector(".explorable__figure");
    var control = figure.querySelector(".explorable__control");
    var range = control.querySelector("input[type=range]");
    var output = control.querySelector("output");
    var wide = data.layouts[0];
    var narrow = data.layouts.indexOf("narrow") >= 0 ? "narrow" : null;
    var current = Number(range ? range.value : control.querySelector("input:checked").value);
    var img = null;
    var source = null;

    function style() {
      return data.styles.indexOf(palette()) >= 0 ? palette() : data.styles[0];
    }

    function src(i, layout) {
      return data.frames[i].src[style() + "-" + layout];
    }

    function layoutShown() {
      return narrow && window.matchMedia(data.narrow).matches ? narrow : wide;
    }

    // The first change replaces the default frame, shown as the site shows any figure, by a
    // <picture> whose sources this script sets.
    function build() {
      var picture = document.createElement("picture");
      if (narrow) {
        source = document.createElement("source");
        source.media = data.narrow;
        source.width = data.sizes[narrow][0];
        source.height = data.sizes[narrow][1];
        picture.appendChild(source);
      }
      img = document.createElement("img");
      img.width = data.sizes[wide][0];
      img.height = data.sizes[wide][1];
      picture.appendChild(img);
      holder.replaceChildren(picture);
    }

    function preload(i) {
      [i - 1, i + 1].forEach(function (j) {
        if (j >= 0 && j < data.frames.length) new Image().src = src(j, layoutShown());
      });
    }

    function show(i, ahead) {
      if (!img) build();
      current = i;
      var frame = data.frames[i];
      if (source) source.srcset = src(i, narrow);
      img.src = src(i, wide);
      img.alt = frame.alt;
      if (range) {
        range.value = String(i);
        range.setAttribute("aria-valuetext", frame.text);
        output.textContent = frame.text;
      }
      if (ahead) preload(i);
    }

    // The page's own figure stays until the reader moves the control, unless this script
    // has a better frame to show: the narrow layout on a phone, or a dark style.
    function fit() {
      if (!img && ((narrow && window.matchMedia(data.narrow).matches) || style() !== data.styles[0])) {
        show(current, false);
      }
    }

    if (range) {
      range.addEventListener("input", function () { show(Number(range.value), true); });
    } else {
      control.addEventListener("change", function (event) {
        show(Number(event.target.value), true);
      });
    }
    ["focusin", "pointerenter"].forEach(function (name) {
      control.addEventListener(name, function () { preload(current); }, { once: true });
    });
    new MutationObserver(function () { if (img) show(current, false); else fit(); })
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    window.matchMedia(data.narrow).addEventListener("change", fit);
    control.hidden = false;
    fit();
  }

  document.querySelectorAll("figure.explorable").forEach(setup);
})();
