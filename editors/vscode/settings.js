// The extension's settings, turned into what the language server is
// given. Kept apart from extension.js (which needs the vscode module) so the
// node tests can check it.
"use strict";

// serverCommand returns the command that starts the server.
function serverCommand(config) {
  const path = (config.get("path") || "").trim();
  return { command: path || "nginx-lint", args: ["lsp"] };
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
  const custom = config.get("customDirectives");
  if (Array.isArray(custom) && custom.length > 0) {
    out["custom-directives"] = custom.filter((d) => typeof d === "string" && d !== "");
  }
  return out;
}

// restartSettings are the settings whose change needs a new server: the
// binary, and what is only sent at initialize.
const restartSettings = ["nginx-lint.path", "nginx-lint.rules", "nginx-lint.customDirectives"];

module.exports = { serverCommand, initializationOptions, restartSettings };
