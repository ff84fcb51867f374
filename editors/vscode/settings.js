// The extension's settings, turned into what the language server is
// given. Kept apart from extension.js (which needs the vscode module) so the
// node tests can check it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// bundledServer returns the nginx-lint binary a platform-specific .vsix
// carries in bin/ (package-target.sh puts it there), or "" for the
// universal .vsix, which carries none.
function bundledServer(extensionPath, platform = process.platform) {
  if (!extensionPath) {
    return "";
  }
  const bin = path.join(extensionPath, "bin", platform === "win32" ? "nginx-lint.exe" : "nginx-lint");
  return fs.existsSync(bin) ? bin : "";
}

// serverCommand returns the command that starts the server: the binary
// nginx-lint.path names, else the one the .vsix carries (bundled), else
// nginx-lint on PATH.
function serverCommand(config, bundled = "") {
  const given = (config.get("path") || "").trim();
  return { command: given || bundled || "nginx-lint", args: ["lsp"] };
}

// initializationOptions holds the settings that mirror `.nginx-lint.yaml`
// (same keys), sent as the initialize request's initializationOptions. In
// the server they win over a settings file's, as flags do on the command
// line.
function initializationOptions(config) {
  const out = {};
  const rules = config.get("rules");
  if (rules && typeof rules === "object" && Object.keys(rules).length > 0) {
    out.rules = rules;
  }
  const profile = (config.get("costProfile") || "").trim();
  if (profile !== "") {
    out["cost-profile"] = profile;
  }
  const custom = config.get("customDirectives");
  if (Array.isArray(custom) && custom.length > 0) {
    out["custom-directives"] = custom.filter((d) => typeof d === "string" && d !== "");
  }
  return out;
}

// restartSettings are the settings whose change needs a new server: the
// binary, and what is only sent at initialize.
const restartSettings = ["nginx-lint.path", "nginx-lint.rules", "nginx-lint.customDirectives", "nginx-lint.costProfile"];

module.exports = { bundledServer, serverCommand, initializationOptions, restartSettings };
