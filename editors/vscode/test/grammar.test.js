// The TextMate grammar and the language configuration.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const cp = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const dir = path.join(__dirname, "..");
const grammar = path.join("syntaxes", "nginx.tmLanguage.json");

function tool(name, args) {
  const bin = path.join(dir, "node_modules", ".bin", name);
  const r = cp.spawnSync(bin, args, { cwd: dir, encoding: "utf8", timeout: 60000 });
  assert.equal(r.error, undefined, `${name}: ${r.error}`);
  return r;
}

// Scope assertions written by hand in test/grammar/*.test.nginx: what
// themes rely on (directives, strings and escapes, variables, regex
// locations, numbers, comments, Lua bodies).
test("grammar: scope assertions", () => {
  const r = tool("vscode-tmgrammar-test", ["-g", grammar, "test/grammar/*.test.nginx"]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /scopes\.test\.nginx run successfuly/);
});

// Snapshots of every token of test/grammar/sample.nginx, reviewed when
// written; a change shows as a diff (update with `npm run snap`).
test("grammar: snapshots", () => {
  const r = tool("vscode-tmgrammar-snap", ["-g", grammar, "test/grammar/*.nginx"]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  for (const f of fs.readdirSync(path.join(dir, "test", "grammar"))) {
    if (f.endsWith(".nginx") && !f.endsWith(".test.nginx")) {
      assert.ok(fs.existsSync(path.join(dir, "test", "grammar", f + ".snap")), `${f} has no snapshot`);
    }
  }
});

test("grammar: package.json contributes it for the nginx language", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const g = pkg.contributes.grammars.find((g) => g.language === "nginx");
  assert.ok(g, "no grammar contribution");
  const json = JSON.parse(fs.readFileSync(path.join(dir, g.path), "utf8"));
  assert.equal(json.scopeName, g.scopeName);
  const lang = pkg.contributes.languages.find((l) => l.id === "nginx");
  assert.ok(fs.existsSync(path.join(dir, lang.configuration)), "language configuration missing");
});

test("language configuration: comments, brackets, indentation", () => {
  const conf = JSON.parse(fs.readFileSync(path.join(dir, "language-configuration.json"), "utf8"));
  assert.equal(conf.comments.lineComment, "#");
  assert.deepEqual(conf.brackets[0], ["{", "}"]);
  assert.ok(conf.autoClosingPairs.some((p) => p.open === "{" && p.close === "}"));
  assert.ok(conf.autoClosingPairs.some((p) => p.open === '"' && p.notIn.includes("string")));
  const inc = new RegExp(conf.indentationRules.increaseIndentPattern);
  const dec = new RegExp(conf.indentationRules.decreaseIndentPattern);
  for (const line of ["server {", "    location ~ ^/a {", "http { # main", 'if ($a = "x") {']) {
    assert.ok(inc.test(line), `indent after ${JSON.stringify(line)}`);
  }
  for (const line of ["server { listen 80; }", "# a { in a comment", "    root /srv;", 'return 200 "{";']) {
    assert.ok(!inc.test(line), `no indent after ${JSON.stringify(line)}`);
  }
  assert.ok(dec.test("    }"));
  assert.ok(!dec.test("    root /srv; # }"));
  const word = new RegExp(conf.wordPattern, "g");
  assert.deepEqual("proxy_pass http://$host${uri};".match(word), ["proxy_pass", "http://", "$host", "${uri}"]);
});
