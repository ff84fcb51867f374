// node load-extension.js DIR: requires the `main` of DIR/package.json with a
// stand-in for the `vscode` module (which only VS Code provides), so that
// every module the extension loads at activation time must be present in
// DIR: for the bundle, that it needs nothing but Node.js's own modules.
"use strict";
const Module = require("node:module");
const path = require("node:path");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? "vscode" : resolve.call(this, request, ...rest);
};
// Any property of the stand-in is a constructible, callable stand-in.
const handler = { get: (t, k) => (k in t ? t[k] : new Proxy(function () {}, handler)) };
require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: new Proxy({}, handler) };
const dir = path.resolve(process.argv[2]);
const { main } = require(path.join(dir, "package.json"));
const ext = require(path.resolve(dir, main));
if (typeof ext.activate !== "function" || typeof ext.deactivate !== "function") {
  throw new Error(`${main} exports no activate/deactivate`);
}
// No client was started: deactivate has nothing to stop.
if (ext.deactivate() !== undefined) {
  throw new Error("deactivate before activate returned a value");
}
process.stdout.write("loaded\n");
