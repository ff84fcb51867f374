// node build.js OUTDIR: the page's JavaScript and static files, beside the
// nginx-lint.wasm and wasm_exec.js that ./build has put in OUTDIR:
//
//   index.html, style.css  copied from src/
//   main.js                the page (src/main.js with CodeMirror), one bundle
//   worker.js              the Web Worker that runs the WebAssembly build
//   sw.js                  the service worker, with the list of files and
//                          a version (the hash of their contents)
//
// The bundles are minified, for the browsers of the last few years
// (es2020), and end with the license texts of the packages they hold, as
// their licenses ask of copies (build.js of the VS Code extension does
// the same).
"use strict";
const esbuild = require("esbuild");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const dir = __dirname;

// licenses returns, for every package a file of the bundle comes from, its
// name, version and license text, sorted by name.
function licenses(metafile) {
  const roots = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
    if (m) roots.add(m[1]);
  }
  const out = [];
  for (const root of roots) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, root, "package.json"), "utf8"));
    const file = fs.readdirSync(path.join(dir, root)).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (!file) throw new Error(`${root}: no license file to ship with the bundle`);
    out.push({ name: `${pkg.name}@${pkg.version}`, text: fs.readFileSync(path.join(dir, root, file), "utf8").trim() });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function bundle(entry, out) {
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    target: "es2020",
    platform: "browser",
    minify: true,
    metafile: true,
    write: false,
    loader: { ".conf": "text" },
    legalComments: "none",
    logLevel: "warning",
  });
  const [code] = result.outputFiles;
  const notices = licenses(result.metafile)
    .map(({ name, text }) => `${name}\n\n${text.replace(/\*\//g, "* /")}`)
    .join("\n\n----------------------------------------\n\n");
  const text = notices ? `${code.text}/*\nThis file bundles the following packages, under these licenses.\n\n${notices}\n*/\n` : code.text;
  fs.writeFileSync(out, text);
}

async function main() {
  const out = process.argv[2];
  if (!out) throw new Error("usage: node build.js OUTDIR");
  for (const f of ["nginx-lint.wasm", "wasm_exec.js"]) {
    if (!fs.existsSync(path.join(out, f))) throw new Error(`${out}/${f} is missing: run ./build OUTDIR, which builds it`);
  }
  await bundle("src/main.js", path.join(out, "main.js"));
  await bundle("src/worker.js", path.join(out, "worker.js"));
  for (const f of ["index.html", "style.css"]) fs.copyFileSync(path.join(dir, "src", f), path.join(out, f));
  const assets = ["index.html", "style.css", "main.js", "worker.js", "wasm_exec.js", "nginx-lint.wasm"];
  const hash = crypto.createHash("sha256");
  for (const f of assets) hash.update(fs.readFileSync(path.join(out, f)));
  const sw = fs
    .readFileSync(path.join(dir, "src", "sw.js"), "utf8")
    .replace('"__VERSION__"', JSON.stringify(hash.digest("hex").slice(0, 16)))
    .replace("__ASSETS__", JSON.stringify(["./", ...assets]));
  fs.writeFileSync(path.join(out, "sw.js"), sw);
}

main().catch((err) => {
  console.error(err.message || err);
  process.exit(1);
});
