// The Web Worker that runs nginx-lint, off the page's thread, so typing
// never waits for a lint. It holds the WebAssembly build (nginx-lint.wasm,
// started by Go's wasm_exec.js) and the in-memory file system it reads.
//
// Messages in: {id, op, req, files?}: files ({path: text}), when present,
// replace every file first; op and req are internal/playground's call and
// request. Out: {id, result, ms} with the call's JSON answer parsed and
// the time it took, or {id, error} when the build could not start. The
// calls run one at a time, in the order they came.
import { MemFS, install } from "./memfs.js";

const mem = new MemFS();
install(mem, self);
// wasm_exec.js (Go's, copied beside the build by editors/web/build) keeps
// the fs, process and path installed above.
importScripts("wasm_exec.js");

const started = (async () => {
  const go = new Go();
  const ready = new Promise((resolve) => {
    self.nginxLintReady = resolve;
  });
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch("nginx-lint.wasm"), go.importObject));
  } catch (err) {
    // A server that does not say application/wasm.
    const bytes = await (await fetch("nginx-lint.wasm")).arrayBuffer();
    ({ instance } = await WebAssembly.instantiate(bytes, go.importObject));
  }
  go.run(instance).then(() => {
    self.nginxLint = null;
  });
  await ready;
})();

self.onmessage = async (e) => {
  const { id, op, req, files } = e.data;
  try {
    await started;
  } catch (err) {
    self.postMessage({ id, error: `nginx-lint could not start: ${err}` });
    return;
  }
  if (!self.nginxLint) {
    self.postMessage({ id, error: "nginx-lint stopped; reload the page" });
    return;
  }
  if (files) mem.setFiles(files);
  const t0 = performance.now();
  let result;
  try {
    result = JSON.parse(self.nginxLint.call(op, JSON.stringify(req ?? {})));
  } catch (err) {
    result = { error: `nginx-lint failed: ${err}` };
  }
  self.postMessage({ id, result, ms: performance.now() - t0 });
};
