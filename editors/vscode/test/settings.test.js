// settings.js: the extension's settings as the server receives them.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { bundledServer, serverCommand, initializationOptions, restartSettings } = require("../settings");

// config is a stand-in for vscode.WorkspaceConfiguration.get.
const config = (values) => ({ get: (k) => values[k] });

test("serverCommand: nginx-lint.path, or nginx-lint on PATH", () => {
  assert.deepEqual(serverCommand(config({ path: " /opt/bin/nginx-lint " })), { command: "/opt/bin/nginx-lint", args: ["lsp"] });
  assert.deepEqual(serverCommand(config({ path: "" })), { command: "nginx-lint", args: ["lsp"] });
  assert.deepEqual(serverCommand(config({})), { command: "nginx-lint", args: ["lsp"] });
});

test("initializationOptions: the settings file's keys", () => {
  const rules = { "version-disclosure": "off", NL2003: { severity: "error" } };
  assert.deepEqual(initializationOptions(config({ rules, customDirectives: ["vts_status", ""] })), {
    rules,
    "custom-directives": ["vts_status"],
  });
  assert.deepEqual(initializationOptions(config({ rules: {}, customDirectives: [] })), {});
  assert.deepEqual(initializationOptions(config({ costProfile: " /srv/nginx-lint-profile.json " })), {
    "cost-profile": "/srv/nginx-lint-profile.json",
  });
  assert.deepEqual(initializationOptions(config({ costProfile: "" })), {});
});

test("package.json declares every setting the extension reads", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
  const props = pkg.contributes.configuration.properties;
  for (const key of [...restartSettings, "nginx-lint.trace.server"]) {
    assert.ok(props[key], `${key} missing from contributes.configuration`);
  }
  assert.deepEqual(props["nginx-lint.trace.server"].enum, ["off", "messages", "verbose"]);
});

test("serverCommand: nginx-lint.path, then the bundled server, then PATH", () => {
  assert.deepEqual(serverCommand(config({ path: "/opt/nginx-lint" }), "/ext/bin/nginx-lint"), { command: "/opt/nginx-lint", args: ["lsp"] });
  assert.deepEqual(serverCommand(config({}), "/ext/bin/nginx-lint"), { command: "/ext/bin/nginx-lint", args: ["lsp"] });
  assert.deepEqual(serverCommand(config({}), ""), { command: "nginx-lint", args: ["lsp"] });
});

test("bundledServer: bin/nginx-lint (nginx-lint.exe on Windows) when the .vsix carries it", () => {
  const os = require("node:os");
  const ext = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-lint-ext-"));
  try {
    assert.equal(bundledServer(ext, "linux"), "");
    assert.equal(bundledServer("", "linux"), "");
    fs.mkdirSync(path.join(ext, "bin"));
    fs.writeFileSync(path.join(ext, "bin", "nginx-lint"), "");
    assert.equal(bundledServer(ext, "linux"), path.join(ext, "bin", "nginx-lint"));
    assert.equal(bundledServer(ext, "win32"), "");
    fs.writeFileSync(path.join(ext, "bin", "nginx-lint.exe"), "");
    assert.equal(bundledServer(ext, "win32"), path.join(ext, "bin", "nginx-lint.exe"));
  } finally {
    fs.rmSync(ext, { recursive: true, force: true });
  }
});
