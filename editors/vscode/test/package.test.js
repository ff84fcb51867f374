// The files `vsce package` puts in the .vsix are enough to load the
// extension: build.js bundles extension.js and the language client into
// dist/extension.js (as `vsce package` does through vscode:prepublish); the
// files `vsce ls` lists, copied alone to a temporary directory (no
// node_modules), load that bundle with a stand-in for `vscode`, and hold
// the files the bundle looks for beside itself.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const cp = require("node:child_process");
const fs = require("node:fs");
const { builtinModules } = require("node:module");
const os = require("node:os");
const path = require("node:path");

const dir = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));

test("the packaged files load the extension", async () => {
  assert.equal(manifest.main, "./dist/extension.js");
  assert.equal(manifest.scripts["vscode:prepublish"], "node build.js");
  const build = cp.spawnSync(process.execPath, [path.join(dir, "build.js")], { cwd: dir, encoding: "utf8", timeout: 60000 });
  assert.equal(build.status, 0, build.stderr);

  const ls = cp.spawnSync(path.join(dir, "node_modules", ".bin", "vsce"), ["ls"], { cwd: dir, encoding: "utf8", timeout: 60000 });
  assert.equal(ls.status, 0, ls.stderr);
  const files = ls.stdout.split("\n").map((l) => l.trim()).filter(Boolean);
  assert.deepEqual(
    [...files].sort(),
    [
      "LICENSE",
      "README.md",
      "dist/extension.js",
      "dist/terminateProcess.sh",
      "language-configuration.json",
      "package.json",
      "syntaxes/nginx.tmLanguage.json",
    ],
  );

  // The bundle requires only Node.js's modules and `vscode`; a package
  // left out of it would be looked up in a node_modules the .vsix lacks.
  const bundle = fs.readFileSync(path.join(dir, "dist", "extension.js"), "utf8");
  const required = new Set([...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]));
  assert.ok(required.has("vscode") && required.has("child_process"), [...required].join(" "));
  for (const r of required) {
    assert.ok(r === "vscode" || builtinModules.includes(r.replace(/^node:/, "")), `the bundle requires ${r}`);
  }
  // Files a bundled module finds with path.join(__dirname, name): in the
  // bundle, __dirname is dist/, so they must be there.
  const beside = [...bundle.matchAll(/\b__dirname,\s*"([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(beside, ["terminateProcess.sh"]);
  for (const f of beside) {
    assert.ok(files.includes(`dist/${f}`), `the bundle looks for dist/${f}, which the .vsix does not hold`);
  }
  // The licenses of the bundled packages go with it.
  assert.match(bundle, /\nvscode-languageclient@9\.[0-9.]+\n\nCopyright \(c\) Microsoft/);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-lint-vsix-"));
  try {
    for (const f of files) {
      fs.mkdirSync(path.join(tmp, path.dirname(f)), { recursive: true });
      fs.copyFileSync(path.join(dir, f), path.join(tmp, f));
    }
    const r = cp.spawnSync(process.execPath, [path.join(__dirname, "support", "load-extension.js"), tmp], { encoding: "utf8", timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "loaded\n");
    await killsWith(path.join(tmp, "dist", "terminateProcess.sh"));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// killsWith runs script on a process as the language client does on a
// server still alive 2 s after `exit` (spawnSync(script, [pid])): the
// packaged copy must be executable and kill it.
async function killsWith(script) {
  const child = cp.spawn("sleep", ["60"], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(signal)));
  try {
    const r = cp.spawnSync(script, [String(child.pid)], { encoding: "utf8", timeout: 30000 });
    assert.equal(r.error, undefined, `${script}: ${r.error}`);
    assert.equal(await exited, "SIGKILL");
  } finally {
    child.kill("SIGKILL");
  }
}

// A platform-specific .vsix (package-target.sh, run on release builds)
// carries the server: VS Code installs the one for its platform, and the
// extension starts bin/nginx-lint from it when nginx-lint.path is unset.
test("a platform package carries the server", { skip: !process.env.NGINX_LINT_BIN && "NGINX_LINT_BIN is unset (go test ./editors sets it)" }, async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-lint-target-"));
  try {
    const r = cp.spawnSync(path.join(dir, "package-target.sh"), ["linux", "amd64", process.env.NGINX_LINT_BIN, out], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!fs.existsSync(path.join(dir, "bin")), "package-target.sh left bin/ behind for the universal .vsix");
    const entries = await readZip(path.join(out, "nginx-lint-linux-x64.vsix"));
    assert.match(entries.get("extension.vsixmanifest").data.toString(), /TargetPlatform="linux-x64"/);
    const bin = entries.get("extension/bin/nginx-lint");
    assert.ok(bin, `no extension/bin/nginx-lint in ${[...entries.keys()].join(" ")}`);
    assert.equal(bin.mode & 0o777, 0o755);
    // Unpacked as VS Code does, the extension finds it, and it runs.
    const ext = path.join(out, "extension");
    for (const [name, e] of entries) {
      if (name.startsWith("extension/")) {
        fs.mkdirSync(path.join(out, path.dirname(name)), { recursive: true });
        fs.writeFileSync(path.join(out, name), e.data, { mode: e.mode & 0o777 });
      }
    }
    const { bundledServer, serverCommand } = require("../settings");
    const found = bundledServer(ext, "linux");
    assert.equal(found, path.join(ext, "bin", "nginx-lint"));
    assert.equal(serverCommand({ get: () => "" }, found).command, found);
    const v = cp.spawnSync(found, ["--version"], { encoding: "utf8", timeout: 30000 });
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, /nginx-lint/);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

// readZip returns the entries of a .vsix (a zip): name → {mode, data}.
function readZip(file) {
  const yauzl = require("yauzl"); // vsce's, from node_modules
  return new Promise((resolve, reject) => {
    const entries = new Map();
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks = [];
          stream.on("data", (c) => chunks.push(c));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, { mode: entry.externalFileAttributes >>> 16, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
