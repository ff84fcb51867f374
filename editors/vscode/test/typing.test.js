// Typing and several open files (issue 30), asked as VS Code asks: a
// vscode-jsonrpc client with VS Code 1.9x's capabilities sends incremental
// edits, answers the server's requests (it registers file watching), and
// sends workspace/didChangeWatchedFiles for a file changed on disk as VS
// Code's watcher does for the patterns registered. The binary is
// $NGINX_LINT_BIN (the Go test builds it), else it is built from this
// checkout.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const cp = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const rpc = require("vscode-jsonrpc/node");
const { clientCapabilities } = require("./support/vscode-capabilities");
const { stopServer } = require("./support/stop-server");

const STEP = 15000; // ms: the longest any one wait may take

let tmp, root, server, conn, stderr = "";
const published = new Map(); // uri -> publishDiagnostics params, in order
const waiters = [];
const watchers = []; // the glob patterns the server asked to watch

// The configuration typed into: the text goes on line 6 (0-based), above
// the location whose names are followed.
const typingConf = `events {}
http {
    upstream backend { server 127.0.0.1:9000; }
    server {
        listen 80;
        set $x 1;
        location / {
            proxy_pass http://backend;
            add_header X-A $x;
            error_page 404 = @fb;
        }
        location @fb { return 204; }
    }
}
`;

const files = {
  "typing/nginx.conf": typingConf,
  "main/nginx.conf": "events {}\nhttp {\n    server {\n        listen 80;\n        include snippets/vars.conf;\n        location / { return 200 $from_snippet; }\n    }\n}\n",
  "main/snippets/vars.conf": "# variables\n",
  "nginx.conf": "events {}\nhttp {\n    upstream backend { server 127.0.0.1:9000; }\n    include conf.d/*.conf;\n}\n",
  "conf.d/app.conf": "server {\n    listen 80;\n    location / { proxy_pass http://backend; }\n}\n",
  "disk/nginx.conf": "events {}\nhttp {\n    include extra.conf;\n    server {\n        listen 80;\n        return 200 $v;\n    }\n}\n",
  "disk/extra.conf": "map $uri $v { default a; }\n",
};

function withTimeout(p, what) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: nothing in ${STEP} ms; server stderr:\n${stderr}`)), STEP);
    }),
  ]).finally(() => clearTimeout(timer));
}

function request(method, params) {
  return withTimeout(conn.sendRequest(method, params), method);
}

// diagnosticsFor waits for a publication of uri, after the first `after`
// ones, that ok accepts.
function diagnosticsFor(uri, ok, after = 0) {
  const seen = (published.get(uri) || []).slice(after);
  const hit = seen.find(ok);
  if (hit) return Promise.resolve(hit);
  return withTimeout(new Promise((resolve) => waiters.push({ uri, ok, resolve })), `publishDiagnostics for ${uri}`);
}

function count(uri) {
  return (published.get(uri) || []).length;
}

function uriOf(rel) {
  return pathToFileURL(path.join(root, rel)).href;
}

const versions = new Map();
async function open(rel) {
  const uri = uriOf(rel);
  versions.set(uri, 1);
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nginx", version: 1, text: files[rel] },
  });
  return uri;
}

// edit replaces lines [from, to) of uri with text, incrementally.
async function edit(uri, from, to, text) {
  const version = versions.get(uri) + 1;
  versions.set(uri, version);
  await conn.sendNotification("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ range: { start: { line: from, character: 0 }, end: { line: to, character: 0 } }, text }],
  });
  return version;
}

function at(uri, line, character) {
  return { textDocument: { uri }, position: { line, character } };
}

async function definitionLine(uri, line, character) {
  const r = await request("textDocument/definition", at(uri, line, character));
  const locs = Array.isArray(r) ? r : r ? [r] : [];
  return locs.length ? { line: (locs[0].range || locs[0].targetRange).start.line, uri: locs[0].uri || locs[0].targetUri } : null;
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-lint-typing-"));
  let bin = process.env.NGINX_LINT_BIN;
  if (!bin) {
    bin = path.join(tmp, "nginx-lint");
    cp.execFileSync("go", ["build", "-o", bin, "github.com/nginx-lint/nginx-lint/cmd/nginx-lint"], {
      cwd: path.join(__dirname, "..", "..", ".."),
      stdio: "inherit",
    });
  }
  root = path.join(tmp, "etc", "nginx");
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  server = cp.spawn(bin, ["lsp"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  server.stderr.on("data", (d) => (stderr += d));
  conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
  conn.onNotification("textDocument/publishDiagnostics", (p) => {
    if (!published.has(p.uri)) published.set(p.uri, []);
    published.get(p.uri).push(p);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].uri === p.uri && waiters[i].ok(p)) {
        waiters[i].resolve(p);
        waiters.splice(i, 1);
      }
    }
  });
  conn.onRequest("client/registerCapability", (p) => {
    for (const r of p.registrations) {
      if (r.method === "workspace/didChangeWatchedFiles") {
        for (const w of r.registerOptions.watchers) watchers.push(w.globPattern);
      }
    }
    return null;
  });
  conn.onRequest("workspace/configuration", (p) => p.items.map(() => null));
  conn.onRequest("window/workDoneProgress/create", () => null);
  conn.onNotification("window/logMessage", () => {});
  conn.listen();
  await request("initialize", {
    processId: process.pid,
    clientInfo: { name: "Visual Studio Code", version: "1.95.3" },
    rootUri: pathToFileURL(root).href,
    capabilities: clientCapabilities,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "nginx" }],
  });
  await conn.sendNotification("initialized", {});
});

after(async () => {
  await stopServer(server, conn, request);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const syntax = (d) => d.code === "NL1001" || d.code === "NL1002";

test("typing above a location leaves what is below it as it was", async () => {
  const uri = await open("typing/nginx.conf");
  await diagnosticsFor(uri, (p) => p.version === 1 && p.diagnostics.length === 0);
  const lines = typingConf.split("\n");
  const col = (line, sub, off) => lines[line].indexOf(sub) + off;
  for (const typed of [
    "        server_tokens ",
    "        include ",
    "        set $y",
    "        proxy_pass http://",
    "        if ($request_method = POST) {",
    "        }",
    '        add_header X "abc',
  ]) {
    const v = await edit(uri, 6, 6, typed + "\n");
    // Below the inserted line, the original line n is line n+1.
    const p = await diagnosticsFor(uri, (p) => p.version === v);
    assert.ok(p.diagnostics.some(syntax), `${typed}: no syntax finding: ${JSON.stringify(p.diagnostics)}`);
    for (const d of p.diagnostics) {
      assert.ok(!["NL2035", "NL2002", "NL2001"].includes(d.code) || d.range.start.line <= 6, `${typed}: ${d.code} below: ${d.message}`);
    }
    assert.equal((await definitionLine(uri, 8, col(7, "backend", 2)))?.line, 2, `${typed}: definition of backend`);
    assert.equal((await definitionLine(uri, 9, col(8, "$x", 1)))?.line, 5, `${typed}: definition of $x`);
    assert.equal((await definitionLine(uri, 10, col(9, "@fb", 1)))?.line, 12, `${typed}: definition of @fb`);
    const refs = await request("textDocument/references", { ...at(uri, 8, col(7, "backend", 2)), context: { includeDeclaration: true } });
    assert.equal(refs.length, 2, `${typed}: references of backend`);
    const r = await request("textDocument/completion", { ...at(uri, 9, 12), context: { triggerKind: 1 } });
    const items = Array.isArray(r) ? r : r.items;
    assert.ok(items.length > 500 && items.some((i) => i.label === "proxy_pass"), `${typed}: completion: ${items.length} items`);
    const names = [];
    const walk = (syms) => syms.forEach((s) => (names.push(s.name), walk(s.children || [])));
    walk(await request("textDocument/documentSymbol", { textDocument: { uri } }));
    assert.ok(names.join(", ").includes("location /, location @fb"), `${typed}: outline ${names.join(", ")}`);
    const u = await edit(uri, 6, 7, "");
    await diagnosticsFor(uri, (p) => p.version === u && p.diagnostics.length === 0);
  }
});

test("a set in an open snippet clears the main file's unknown variable", async () => {
  const main = await open("main/nginx.conf");
  await diagnosticsFor(main, (p) => p.diagnostics.some((d) => d.code === "NL2035"));
  const snippet = await open("main/snippets/vars.conf");
  const seen = count(main);
  await edit(snippet, 1, 1, "set $from_snippet 1;\n");
  await diagnosticsFor(main, (p) => !p.diagnostics.some((d) => d.code === "NL2035"), seen);
  const def = await definitionLine(main, 5, files["main/nginx.conf"].split("\n")[5].indexOf("$from") + 2);
  assert.ok(def && def.line === 1 && def.uri === snippet, JSON.stringify(def));
});

test("an upstream moved in one open file: another open file follows", async () => {
  const pool = await open("nginx.conf");
  const app = await open("conf.d/app.conf");
  await diagnosticsFor(app, () => true);
  const col = files["conf.d/app.conf"].split("\n")[2].indexOf("backend") + 2;
  assert.equal((await definitionLine(app, 2, col))?.line, 2);
  await edit(pool, 2, 2, "    # the pool\n    # of app servers\n");
  assert.equal((await definitionLine(app, 2, col))?.line, 4);
});

test("a file changed on disk, as VS Code's watcher reports it", async () => {
  assert.ok(watchers.includes("**/*.conf"), `watchers ${JSON.stringify(watchers)}`);
  const uri = await open("disk/nginx.conf");
  await diagnosticsFor(uri, (p) => p.diagnostics.length === 0);
  const seen = count(uri);
  const extra = path.join(root, "disk", "extra.conf");
  fs.writeFileSync(extra, "map $uri $w { default a; }\n");
  await conn.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(extra).href, type: 2 }] });
  await diagnosticsFor(uri, (p) => p.diagnostics.some((d) => d.code === "NL2035"), seen);
});
