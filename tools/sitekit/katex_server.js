// Renders TeX to HTML with KaTeX for the MkDocs build: one long-lived process per build.
// Protocol: one JSON object per line on stdin {"id", "tex", "display"}; one JSON line back
// {"id", "html"} or {"id", "error"}. Unknown or malformed TeX is an error (throwOnError).
"use strict";
const katex = require("katex");
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const { id, tex, display } = JSON.parse(line);
  let reply;
  try {
    const html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      strict: "error",
      output: "htmlAndMathml",
      trust: false,
    });
    reply = { id, html };
  } catch (err) {
    reply = { id, error: String(err.message || err) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
