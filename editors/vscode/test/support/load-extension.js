// node load-extension.js DIR: requires DIR/extension.js with a stand-in for
// the `vscode` module (which only VS Code provides), so that every module
// the extension loads at activation time must be present in DIR.
"use strict";
const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? "vscode" : resolve.call(this, request, ...rest);
};
// Any property of the stand-in is a constructible, callable stand-in.
const handler = { get: (t, k) => (k in t ? t[k] : new Proxy(function () {}, handler)) };
require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: new Proxy({}, handler) };
const ext = require(require("node:path").resolve(process.argv[2], "extension.js"));
if (typeof ext.activate !== "function" || typeof ext.deactivate !== "function") {
  throw new Error("extension.js exports no activate/deactivate");
}
process.stdout.write("loaded\n");
