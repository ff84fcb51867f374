// node parity.mjs WASM WASM_EXEC: lint in the WebAssembly build, as the
// page does, over the in-memory file system (src/memfs.js), and print the
// findings. editors/web_test.go (TestWebWasm/parity) compares them with
// the command line's on every main configuration of testdata/.
//
// Standard input is a JSON object {files: {path: text}, runs: [{targets,
// dir}]}: the file system holds exactly files, and each run is the lint
// call with those targets, paths shown relative to dir. Standard output
// is a JSON array with each run's answer.
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
  out.push(JSON.parse(globalThis.nginxLint.call("lint", JSON.stringify({ targets: run.targets, dir: run.dir }))));
}
fs.writeSync(1, JSON.stringify(out));
process.exit(0);
