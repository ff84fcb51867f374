// node build.js [OUTFILE]: bundles extension.js, settings.js and the
// language client into one CommonJS file (dist/extension.js by default),
// the `main` of package.json and the only JavaScript in the .vsix: VS Code
// loads one file instead of some 160 from node_modules. `vscode` is left
// out (VS Code provides it), and the target is the Node.js of the oldest
// VS Code that engines.vscode admits (1.82: Electron 25, Node.js 18).
//
// The license texts of the bundled packages are appended as a comment, as
// their MIT licenses ask of copies; they were in the .vsix with the
// packages before.
"use strict";
const esbuild = require("esbuild");
const fs = require("node:fs");
const path = require("node:path");

const dir = __dirname;
const outfile = path.resolve(dir, process.argv[2] || path.join("dist", "extension.js"));

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
    logLevel: "warning",
  });
  const notices = licenses(result.metafile)
    .map(({ name, text }) => `${name}\n\n${text.replace(/\*\//g, "* /")}`)
    .join("\n\n----------------------------------------\n\n");
  fs.appendFileSync(outfile, `/*\nThis file bundles the following packages, under these licenses.\n\n${notices}\n*/\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
