// node parity.mjs WASM WASM_EXEC: make calls of the WebAssembly build, as
// the page does, over the in-memory file system (src/memfs.js), and print
// their answers. editors/web_test.go (TestWebWasm/parity) compares them
// with the command line's: the findings of every main configuration of
// testdata/, and route's answers with its request options.
//
// Standard input is a JSON object {files: {path: text}, runs: [{call,
// request}]}: the file system holds exactly files, and each run is one
// call (internal/playground's names and requests). Standard output is a
// JSON array with each run's answer.
import fs from "node:fs";
import { createRequire } from "node:module";
import { MemFS, install } from "../src/memfs.js";

const [wasm, wasmExec] = process.argv.slice(2);
const input = JSON.parse(fs.readFileSync(0, "utf8"));

const mem = new MemFS();
install(mem);
createRequire(import.meta.url)(wasmExec);
const go = new Go();
const ready = new Promise((resolve) => {
  globalThis.nginxLintReady = resolve;
});
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasm), go.importObject);
go.run(instance);
await ready;

mem.setFiles(input.files);
const out = [];
for (const run of input.runs) {
  out.push(JSON.parse(globalThis.nginxLint.call(run.call, JSON.stringify(run.request))));
}
fs.writeSync(1, JSON.stringify(out));
process.exit(0);
