// The files `vsce package` puts in the .vsix are enough to load the
// extension: copied alone to a temporary directory, extension.js and the
// language client it requires load (with a stand-in for `vscode`).
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const cp = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const dir = path.join(__dirname, "..");

test("the packaged files load the extension", () => {
  const ls = cp.spawnSync(path.join(dir, "node_modules", ".bin", "vsce"), ["ls"], { cwd: dir, encoding: "utf8", timeout: 60000 });
  assert.equal(ls.status, 0, ls.stderr);
  const files = ls.stdout.split("\n").map((l) => l.trim()).filter(Boolean);
  assert.ok(files.includes("syntaxes/nginx.tmLanguage.json") && files.includes("language-configuration.json"), files.join("\n"));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-lint-vsix-"));
  try {
    for (const f of files) {
      fs.mkdirSync(path.join(tmp, path.dirname(f)), { recursive: true });
      fs.copyFileSync(path.join(dir, f), path.join(tmp, f));
    }
    const r = cp.spawnSync(process.execPath, [path.join(__dirname, "support", "load-extension.js"), tmp], { encoding: "utf8", timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "loaded\n");
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
