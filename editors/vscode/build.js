// node build.js: bundles extension.js, settings.js and the language client
// into one minified CommonJS file, dist/extension.js, the `main` of
// package.json and the only JavaScript in the .vsix: VS Code loads one file
// instead of some 160 from node_modules. `vscode` is left out (VS Code
// provides it), and the target is the Node.js of the oldest VS Code that
// engines.vscode admits (1.82: Electron 25, Node.js 18).
//
// The license texts of the bundled packages are appended as a comment, as
// their MIT licenses ask of copies; they were in the .vsix with the
// packages before. The language client runs terminateProcess.sh from its
// own directory (path.join(__dirname, ...)) to kill a server that outlives
// `exit`; in the bundle __dirname is dist/, so the script is copied there,
// executable.
"use strict";
const esbuild = require("esbuild");
const fs = require("node:fs");
const path = require("node:path");

const dir = __dirname;
const outfile = path.join(dir, "dist", "extension.js");

// licenses returns, for every package a file of the bundle comes from, its
// name, version and license text, sorted by name.
function licenses(metafile) {
  const roots = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    // The package is the last node_modules/<name> (or <@scope/name>) of
    // the path: dependencies may be nested under their dependents.
    const m = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
    if (m) {
      roots.add(m[1]);
    }
  }
  const out = [];
  for (const root of roots) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, root, "package.json"), "utf8"));
    const file = fs.readdirSync(path.join(dir, root)).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (!file) {
      throw new Error(`${root}: no license file to ship with the bundle`);
    }
    const text = fs.readFileSync(path.join(dir, root, file), "utf8").trim();
    out.push({ name: `${pkg.name}@${pkg.version}`, text });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function main() {
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ["extension.js"],
    bundle: true,
    outfile,
    external: ["vscode"],
    platform: "node",
    format: "cjs",
    target: "node18",
    minify: true,
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  const notices = licenses(result.metafile)
    .map(({ name, text }) => `${name}\n\n${text.replace(/\*\//g, "* /")}`)
    .join("\n\n----------------------------------------\n\n");
  const [bundle] = result.outputFiles;
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  fs.writeFileSync(outfile, `${bundle.text}/*\nThis file bundles the following packages, under these licenses.\n\n${notices}\n*/\n`);
  const client = path.dirname(require.resolve("vscode-languageclient/package.json", { paths: [dir] }));
  const script = path.join(path.dirname(outfile), "terminateProcess.sh");
  fs.copyFileSync(path.join(client, "lib", "node", "terminateProcess.sh"), script);
  fs.chmodSync(script, 0o755);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
