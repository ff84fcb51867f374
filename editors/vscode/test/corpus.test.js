// The grammar on real configurations: every file of the shared corpus that
// the real nginx accepted (MANIFEST.tsv: nginx_t or nginx_t_head "ok"), and
// the files with Lua blocks, is
// tokenized line by line, as VS Code does, and must end with every block
// closed (the rule stack back at the root) and no "}" taken as unmatched.
// A construct the grammar misreads (a quote or brace in a regex, a comment
// in an argument) shows up here as a block left open for the rest of the
// file. The corpus lives in ../shared beside the clone: without it the test
// skips, and under CI=true fails.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const tm = require("vscode-textmate");
const onig = require("vscode-oniguruma");

const corpus = process.env.NGINX_LINT_CORPUS || path.join(__dirname, "..", "..", "..", "..", "shared", "corpus");
const grammarPath = path.join(__dirname, "..", "syntaxes", "nginx.tmLanguage.json");

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new tm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new onig.OnigScanner(p), createOnigString: (s) => new onig.OnigString(s) }),
    // source.lua (VS Code's Lua grammar) is not here: its include resolves to nothing.
    loadGrammar: async (scope) =>
      scope === "source.nginx" ? tm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath) : null,
  });
  return registry.loadGrammar("source.nginx");
}

// luaFixture reports whether a file uses *_by_lua_block: Debian's nginx has
// no lua module and stops at the first one, so these are taken on their
// authors' word (crossplane's lexer fixtures) that they are well formed.
function luaFixture(rel) {
  return /\.conf$/.test(rel) && fs.readFileSync(path.join(corpus, rel), "utf8").includes("_by_lua_block");
}

function acceptedFiles() {
  const lines = fs.readFileSync(path.join(corpus, "MANIFEST.tsv"), "utf8").split("\n");
  const head = lines[0].split("\t");
  const col = (name) => head.indexOf(name);
  const [p, t, th] = [col("path"), col("nginx_t"), col("nginx_t_head")];
  assert.ok(p >= 0 && t >= 0 && th >= 0, `MANIFEST.tsv columns: ${head.join(",")}`);
  return lines
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((r) => r.length > th && (r[t] === "ok" || r[th] === "ok" || luaFixture(r[p])))
    .map((r) => r[p]);
}

test("grammar: the corpus configurations nginx accepts tokenize with every block closed", async (t) => {
  if (!fs.existsSync(path.join(corpus, "MANIFEST.tsv"))) {
    if (process.env.CI === "true") assert.fail(`CI=true: the corpus is missing at ${corpus}`);
    t.skip(`the corpus is missing at ${corpus} (set NGINX_LINT_CORPUS)`);
    return;
  }
  const grammar = await loadGrammar();
  const files = acceptedFiles();
  assert.ok(files.length > 100, `only ${files.length} accepted files in the corpus`);
  const bad = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(corpus, f), "utf8");
    let stack = tm.INITIAL;
    let unmatched = 0;
    for (const line of text.split(/\r?\n/)) {
      const r = grammar.tokenizeLine(line, stack, 1000);
      for (const tok of r.tokens) {
        if (tok.scopes.includes("invalid.illegal.unmatched-brace.nginx")) unmatched++;
      }
      stack = r.ruleStack;
    }
    if (stack.depth !== tm.INITIAL.depth || unmatched > 0) {
      bad.push(`${f}: ${stack.depth - tm.INITIAL.depth} rules open at the end, ${unmatched} unmatched "}"`);
    }
  }
  assert.deepEqual(bad, [], `${bad.length} of ${files.length} files`);
});
