// Drives `nginx-lint lsp` as VS Code does: a vscode-jsonrpc connection over
// stdio, the initialize request with the capabilities VS Code 1.9x sends
// (workspace folders, configuration, dynamic registration, pull
// diagnostics), then each feature the extension offers. The binary is
// $NGINX_LINT_BIN (the Go test builds it), else it is built from this
// checkout with `go build`.
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

const STEP = 10000; // ms: the longest any one answer may take

let tmp, bin, server, conn, stderr = "";
let initResult;
// The extension's settings as VS Code holds them (see package.json).
const settings = {
  path: "nginx-lint",
  rules: { "version-disclosure": "off" },
  customDirectives: [],
  inlayHints: { enabled: true, minServers: 100 },
  trace: { server: "off" },
};
const published = new Map(); // uri -> list of publishDiagnostics params, in order
const waiters = [];
const serverRequests = [];

// The configuration the tests open: the missing ";" on line 8 is reported
// at the "}" on line 9 (0-based 8); the include is on line 3.
const nginxConf = `events {}
http {
    include snippets/gzip.conf;
    server {
        listen 8080;
        server_name example.com;
        location / {
            root /var/www
        }
    }
}
`;
let root, confPath, confURI;

function withTimeout(p, what) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${STEP} ms; server stderr:\n${stderr}`)), STEP);
    }),
  ]).finally(() => clearTimeout(timer));
}

function request(method, params) {
  return withTimeout(conn.sendRequest(method, params), method);
}

// diagnosticsFor waits for a publishDiagnostics of uri that satisfies ok.
function diagnosticsFor(uri, ok) {
  const seen = published.get(uri) || [];
  const hit = seen.find(ok);
  if (hit) return Promise.resolve(hit);
  return withTimeout(
    new Promise((resolve) => waiters.push({ uri, ok, resolve })),
    `publishDiagnostics for ${uri}`,
  );
}

// apply applies LSP TextEdits (UTF-16 positions, as JavaScript strings
// count) to text.
function apply(text, edits) {
  const lines = text.split("\n");
  const offset = (p) => {
    let off = 0;
    for (let i = 0; i < p.line; i++) off += lines[i].length + 1;
    return off + p.character;
  };
  const sorted = edits
    .map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start);
  for (const e of sorted) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-lint-vscode-"));
  bin = process.env.NGINX_LINT_BIN;
  if (!bin) {
    bin = path.join(tmp, "nginx-lint");
    cp.execFileSync("go", ["build", "-o", bin, "github.com/nginx-lint/nginx-lint/cmd/nginx-lint"], {
      cwd: path.join(__dirname, "..", "..", ".."),
      stdio: "inherit",
    });
  }
  root = path.join(tmp, "etc", "nginx");
  fs.mkdirSync(path.join(root, "snippets"), { recursive: true });
  confPath = path.join(root, "nginx.conf");
  fs.writeFileSync(confPath, nginxConf);
  fs.writeFileSync(path.join(root, "snippets", "gzip.conf"), "gzip on;\n");
  confURI = pathToFileURL(confPath).href;

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
  // What VS Code answers to the server's requests.
  conn.onRequest("workspace/configuration", (p) => {
    serverRequests.push("workspace/configuration");
    return p.items.map((i) => (i.section === "nginx-lint" ? settings : null));
  });
  conn.onRequest("client/registerCapability", () => {
    serverRequests.push("client/registerCapability");
    return null;
  });
  conn.onRequest("window/workDoneProgress/create", () => null);
  conn.onNotification("window/logMessage", () => {});
  conn.listen();

  initResult = await request("initialize", {
    processId: process.pid,
    clientInfo: { name: "Visual Studio Code", version: "1.95.3" },
    locale: "en",
    rootPath: root,
    rootUri: pathToFileURL(root).href,
    capabilities: clientCapabilities,
    initializationOptions: require("../settings").initializationOptions({ get: (k) => settings[k] }),
    trace: "off",
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "nginx" }],
  });
  await conn.sendNotification("initialized", {});
  // The extension's synchronize.configurationSection: the client sends
  // the section's values after initialized.
  await conn.sendNotification("workspace/didChangeConfiguration", { settings: { "nginx-lint": settings } });
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri: confURI, languageId: "nginx", version: 1, text: nginxConf },
  });
});

after(async () => {
  await stopServer(server, conn, request);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test("initialize: capabilities of every feature the extension uses", () => {
  const c = initResult.capabilities;
  assert.equal(initResult.serverInfo.name, "nginx-lint");
  assert.ok(c.hoverProvider, "hover");
  assert.ok(c.completionProvider, "completion");
  assert.ok(c.completionProvider.triggerCharacters.includes("$"), "completion on $");
  assert.ok(c.definitionProvider, "definition");
  assert.ok(c.documentSymbolProvider, "documentSymbol");
  assert.ok(c.documentFormattingProvider, "formatting");
  assert.ok(c.codeActionProvider, "codeAction");
  assert.ok(c.foldingRangeProvider, "foldingRange");
  assert.ok(c.referencesProvider, "references");
  assert.ok(c.renameProvider && c.renameProvider.prepareProvider, "rename with prepareRename");
  assert.ok(c.signatureHelpProvider, "signatureHelp");
  assert.ok(c.workspaceSymbolProvider, "workspaceSymbol");
  assert.ok(c.declarationProvider, "declaration");
  assert.ok(c.codeLensProvider, "codeLens");
  assert.ok(c.documentRangeFormattingProvider, "rangeFormatting");
  assert.ok(c.selectionRangeProvider, "selectionRange");
  assert.ok(c.inlayHintProvider, "inlayHint");
  assert.ok(c.semanticTokensProvider && c.semanticTokensProvider.full && c.semanticTokensProvider.range, "semanticTokens full and range");
  const sync = typeof c.textDocumentSync === "number" ? c.textDocumentSync : c.textDocumentSync.change;
  assert.ok(sync === 1 || sync === 2, `textDocumentSync ${JSON.stringify(c.textDocumentSync)}`);
});

test("diagnostics on open", async () => {
  const p = await diagnosticsFor(confURI, (p) => p.diagnostics.length > 0);
  assert.equal(p.diagnostics.length, 1, JSON.stringify(p.diagnostics));
  const d = p.diagnostics[0];
  assert.equal(d.code, "NL1001");
  assert.equal(d.severity, 1);
  assert.deepEqual(d.range, { start: { line: 8, character: 8 }, end: { line: 8, character: 9 } });
  assert.match(d.codeDescription.href, /^https?:\/\//);
  assert.match(d.message, /unexpected "\}"/);
});

test("diagnostics: pulled when the server offers it, else pushed", async () => {
  // VS Code announces textDocument.diagnostic; a server that does not
  // register diagnosticProvider publishes instead, which the previous test
  // checked.
  if (!initResult.capabilities.diagnosticProvider) {
    assert.ok((published.get(confURI) || []).length > 0, "neither pulled nor pushed");
    return;
  }
  const r = await request("textDocument/diagnostic", { textDocument: { uri: confURI } });
  assert.equal(r.kind, "full");
  assert.ok(r.items.some((d) => d.code === "NL1001"), JSON.stringify(r.items));
});

test("hover on a directive", async () => {
  const h = await request("textDocument/hover", { textDocument: { uri: confURI }, position: { line: 5, character: 10 } });
  assert.ok(h, "no hover");
  assert.equal(h.contents.kind, "markdown");
  assert.match(h.contents.value, /server_name/);
});

test("completion of the directives allowed in location", async () => {
  const r = await request("textDocument/completion", {
    textDocument: { uri: confURI },
    position: { line: 7, character: 12 },
    context: { triggerKind: 1 },
  });
  const items = Array.isArray(r) ? r : r.items;
  const labels = new Set(items.map((i) => i.label));
  assert.ok(labels.has("proxy_pass"), "proxy_pass");
  assert.ok(labels.has("root"), "root");
  assert.ok(!labels.has("events"), "events is not allowed in location");
});

test("completion of variables after $", async () => {
  const uri = pathToFileURL(path.join(root, "conf.d", "vars.conf")).href;
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nginx", version: 1, text: "return 200 $;\n" },
  });
  const r = await request("textDocument/completion", {
    textDocument: { uri },
    position: { line: 0, character: 12 },
    context: { triggerKind: 2, triggerCharacter: "$" },
  });
  const items = Array.isArray(r) ? r : r.items;
  const labels = new Set(items.map((i) => i.label));
  assert.ok(labels.has("request_uri") || labels.has("$request_uri"), [...labels].slice(0, 5).join(","));
  assert.ok(!labels.has("proxy_pass"), "directives offered after $");
  await conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
});

test("document symbols: the block outline", async () => {
  const r = await request("textDocument/documentSymbol", { textDocument: { uri: confURI } });
  const http = r.find((s) => s.name.startsWith("http"));
  assert.ok(http && http.children, JSON.stringify(r));
  const server = http.children.find((s) => s.name.startsWith("server"));
  assert.ok(server, JSON.stringify(http.children));
  assert.ok(server.children.some((s) => s.name.startsWith("location")), JSON.stringify(server.children));
});

test("go to definition on an include", async () => {
  const r = await request("textDocument/definition", { textDocument: { uri: confURI }, position: { line: 2, character: 16 } });
  const locs = Array.isArray(r) ? r : [r];
  assert.deepEqual(
    locs.map((l) => l.uri || l.targetUri),
    [pathToFileURL(path.join(root, "snippets", "gzip.conf")).href],
  );
});

// A configuration of its own for the features that follow names: an
// upstream used twice and a variable set and used.
const navConf = `events {}
http {
    upstream app { server 127.0.0.1:9000; }
    server {
        listen 8081;
        set $pool "a";
        location / {
            proxy_pass http://app;
            add_header X-Pool $pool;
        }
        location /b { proxy_pass http://app/b; }
    }
}
`;

async function openNav() {
  const uri = pathToFileURL(path.join(root, "nav", "nginx.conf")).href;
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nginx", version: 1, text: navConf },
  });
  await diagnosticsFor(uri, () => true);
  return uri;
}

async function closeNav(uri) {
  await conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
}

test("folding ranges of the blocks that span lines", async () => {
  const uri = await openNav();
  const r = await request("textDocument/foldingRange", { textDocument: { uri } });
  const got = r.map((f) => [f.startLine, f.endLine]).sort((a, b) => a[0] - b[0]);
  // http, server and "location /"; the one-line blocks do not fold.
  assert.deepEqual(got, [[1, 11], [3, 10], [6, 8]]);
  await closeNav(uri);
});

test("references of an upstream, from a proxy_pass", async () => {
  const uri = await openNav();
  const r = await request("textDocument/references", {
    textDocument: { uri },
    position: { line: 7, character: 31 },
    context: { includeDeclaration: true },
  });
  const got = r.map((l) => `${l.uri === uri ? "" : l.uri}${l.range.start.line}:${l.range.start.character}-${l.range.end.character}`).sort();
  assert.deepEqual(got, ["10:40-43", "2:13-16", "7:30-33"]);
  const without = await request("textDocument/references", {
    textDocument: { uri },
    position: { line: 7, character: 31 },
    context: { includeDeclaration: false },
  });
  assert.equal(without.length, 2, JSON.stringify(without));
  await closeNav(uri);
});

test("definition of an upstream and of a variable, and hover on the variable", async () => {
  const uri = await openNav();
  // From "app" in proxy_pass http://app: upstream app (line 2).
  const up = await request("textDocument/definition", { textDocument: { uri }, position: { line: 7, character: 31 } });
  assert.deepEqual(up.map((l) => `${l.range.start.line}:${l.range.start.character}`), ["2:13"]);
  // From $pool in add_header: its set (line 5).
  const v = await request("textDocument/definition", { textDocument: { uri }, position: { line: 8, character: 32 } });
  assert.deepEqual(v.map((l) => `${l.range.start.line}:${l.range.start.character}`), ["5:13"]);
  const h = await request("textDocument/hover", { textDocument: { uri }, position: { line: 8, character: 32 } });
  assert.ok(h.contents.value.includes("set $pool a"), h.contents.value);
  await closeNav(uri);
});

test("hover on a location: URIs that reach it, and one of its prefix that goes elsewhere", async () => {
  const uri = await openNav();
  const h = await request("textDocument/hover", { textDocument: { uri }, position: { line: 6, character: 10 } });
  assert.match(h.contents.value, /- reached by `\/` and `\/[a-z]`/, h.contents.value);
  assert.match(h.contents.value, /`\/b` goes to `location \/b` \(line 11\) instead/, h.contents.value);
  await closeNav(uri);
});

test("the route command: nginx-lint.route answers a URL as nginx-lint route does", async () => {
  assert.deepEqual(initResult.capabilities.executeCommandProvider.commands, ["nginx-lint.route"]);
  const uri = await openNav();
  // What the extension's nginx-lint.routeUrl sends.
  const r = await request("workspace/executeCommand", { command: "nginx-lint.route", arguments: [uri, "http://localhost:8081/b/x"] });
  assert.equal(r.route.location.name, "/b");
  assert.equal(r.route.location.line, 11);
  assert.equal(r.route.handler.kind, "proxy");
  assert.equal(r.route.handler.upstream.name, "app");
  assert.match(r.text, /handler\s+passed by proxy_pass to http:\/\/app\/b/);
  await closeNav(uri);
});

test("completion of values: server_tokens and proxy_buffering", async () => {
  const uri = pathToFileURL(path.join(root, "nav", "values.conf")).href;
  // Being typed: "server_tokens |;", and "proxy_buffering o|" above a
  // directive its words run into.
  const text = "server_tokens ;\nproxy_buffering o\ngzip on;\n";
  await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "nginx", version: 1, text } });
  const labels = async (line, character) => {
    const r = await request("textDocument/completion", { textDocument: { uri }, position: { line, character } });
    const items = Array.isArray(r) ? r : r.items;
    for (const i of items) assert.ok(i.textEdit, `${i.label} has no textEdit`);
    return items.map((i) => i.label).sort();
  };
  assert.deepEqual(await labels(0, 14), ["build", "off", "on"]);
  assert.deepEqual(await labels(1, 17), ["off", "on"]);
  await conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
});

test("rename of a variable, and the signature of add_header", async () => {
  const uri = await openNav();
  const prep = await request("textDocument/prepareRename", { textDocument: { uri }, position: { line: 8, character: 32 } });
  assert.equal(prep.placeholder, "pool");
  const we = await request("textDocument/rename", { textDocument: { uri }, position: { line: 8, character: 32 }, newName: "$backend" });
  const edits = we.changes ? we.changes[uri] : we.documentChanges[0].edits;
  const out = apply(navConf, edits).split("\n");
  assert.equal(out[5], '        set $backend "a";');
  assert.equal(out[8], "            add_header X-Pool $backend;");
  // A name that is not a variable name is refused with invalid params.
  await assert.rejects(
    request("textDocument/rename", { textDocument: { uri }, position: { line: 5, character: 13 }, newName: "a b" }),
    (e) => e.code === -32602,
  );
  const sig = await request("textDocument/signatureHelp", {
    textDocument: { uri },
    position: { line: 8, character: 32 },
    context: { triggerKind: 1, isRetrigger: false },
  });
  const s = sig.signatures[sig.activeSignature || 0];
  assert.equal(s.label, "add_header name value [always];");
  const [from, to] = s.parameters[s.activeParameter].label;
  assert.equal(s.label.slice(from, to), "value");
  await closeNav(uri);
});

// decodeTokens turns semantic tokens into "line:char text type" with the
// legend's names, on the lines of source.
function decodeTokens(data, source) {
  const legend = initResult.capabilities.semanticTokensProvider.legend.tokenTypes;
  const lines = source.split("\n");
  const out = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    if (data[i] > 0) {
      line += data[i];
      char = data[i + 1];
    } else {
      char += data[i + 1];
    }
    out.push(`${line}:${char} ${lines[line].slice(char, char + data[i + 2])} ${legend[data[i + 3]]}`);
  }
  return out;
}

test("semantic tokens: what nginx reads each word as, whole and by range", async () => {
  const uri = await openNav();
  const full = await request("textDocument/semanticTokens/full", { textDocument: { uri } });
  const toks = decodeTokens(full.data, navConf);
  for (const want of ["7:12 proxy_pass keyword", "7:23 http://app parameter", "8:30 $pool variable", "5:12 $pool variable"]) {
    assert.ok(toks.includes(want), `${want} not in ${toks.join(" | ")}`);
  }
  const part = await request("textDocument/semanticTokens/range", {
    textDocument: { uri },
    range: { start: { line: 8, character: 0 }, end: { line: 9, character: 0 } },
  });
  assert.deepEqual(decodeTokens(part.data, navConf), ["8:12 add_header keyword", "8:23 X-Pool parameter", "8:30 $pool variable"]);
  await closeNav(uri);
});

test("inlay hints: none on a small configuration, until the settings ask; tooltips resolved", async () => {
  const uri = await openNav();
  const range = { start: { line: 0, character: 0 }, end: { line: 13, character: 0 } };
  assert.deepEqual(await request("textDocument/inlayHint", { textDocument: { uri }, range }), []);
  // nginx-lint.inlayHints.minServers: 1, as VS Code sends a changed setting.
  await conn.sendNotification("workspace/didChangeConfiguration", {
    settings: { "nginx-lint": { ...settings, inlayHints: { enabled: true, minServers: 1 } } },
  });
  const hints = await request("textDocument/inlayHint", { textDocument: { uri }, range });
  const socket = hints.find((h) => h.label === "socket 0.0.0.0:8081");
  assert.ok(socket, JSON.stringify(hints));
  assert.deepEqual(socket.position, { line: 4, character: 19 });
  const share = hints.find((h) => h.label.startsWith("≈ "));
  assert.ok(share && share.position.line === 3, JSON.stringify(hints));
  const resolved = await request("inlayHint/resolve", socket);
  assert.match(resolved.tooltip.value, /its own listening socket/);
  await conn.sendNotification("workspace/didChangeConfiguration", { settings: { "nginx-lint": settings } });
  assert.deepEqual(await request("textDocument/inlayHint", { textDocument: { uri }, range }), []);
  await closeNav(uri);
});

test("code lens: the estimated nginx -t, start and reload on http", async () => {
  const uri = await openNav();
  const lenses = await request("textDocument/codeLens", { textDocument: { uri } });
  assert.equal(lenses.length, 1, JSON.stringify(lenses));
  assert.deepEqual(lenses[0].range.start, { line: 1, character: 0 });
  assert.match(lenses[0].command.title, /nginx -t ≈ .* · start ≈ .* · reload ≈ /);
  await closeNav(uri);
});

test("workspace symbols, declaration and selection ranges", async () => {
  const uri = await openNav();
  const syms = await request("workspace/symbol", { query: "app" });
  const app = syms.find((s) => s.name === "app" && s.location.uri === uri);
  assert.ok(app, JSON.stringify(syms));
  assert.deepEqual(app.location.range.start, { line: 2, character: 13 });
  const decl = await request("textDocument/declaration", { textDocument: { uri }, position: { line: 8, character: 32 } });
  assert.deepEqual(decl.map((l) => `${l.range.start.line}:${l.range.start.character}`), ["5:13"]);
  const [sel] = await request("textDocument/selectionRange", { textDocument: { uri }, positions: [{ line: 8, character: 32 }] });
  const chain = [];
  for (let r = sel; r; r = r.parent) chain.push(`${r.range.start.line}:${r.range.start.character}-${r.range.end.line}:${r.range.end.character}`);
  // $pool, add_header ..., the location's body, the location, ...
  assert.deepEqual(chain.slice(0, 4), ["8:30-8:35", "8:12-8:36", "6:20-9:8", "6:8-9:9"]);
  await closeNav(uri);
});

test("completion: upstream names after http://, directives ranked", async () => {
  const uri = pathToFileURL(path.join(root, "nav", "nginx.conf")).href;
  const withPass = navConf.replace("proxy_pass http://app;", "proxy_pass http://a;\n            r");
  await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "nginx", version: 1, text: withPass } });
  const names = await request("textDocument/completion", { textDocument: { uri }, position: { line: 7, character: 31 } });
  assert.deepEqual((Array.isArray(names) ? names : names.items).map((i) => i.label), ["app"]);
  const r = await request("textDocument/completion", { textDocument: { uri }, position: { line: 8, character: 13 } });
  const items = Array.isArray(r) ? r : r.items;
  const sort = (label) => items.find((i) => i.label === label).sortText;
  assert.ok(sort("root") < sort("rds_json"), `root ${sort("root")}, rds_json ${sort("rds_json")}`);
  await closeNav(uri);
});

test("formatting a file with a syntax error says where it is", async () => {
  const uri = pathToFileURL(path.join(root, "nav", "broken.conf")).href;
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nginx", version: 1, text: "server {\n    listen 80\n}\n" },
  });
  await assert.rejects(
    request("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } }),
    (e) => e.code === -32803 && /broken\.conf:3:1/.test(e.message),
  );
  await conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
});

let text = nginxConf;

test("code action: the quick fix inserts the missing ;", async () => {
  const p = await diagnosticsFor(confURI, (p) => p.diagnostics.length > 0);
  const d = p.diagnostics[0];
  const actions = await request("textDocument/codeAction", {
    textDocument: { uri: confURI },
    range: d.range,
    context: { diagnostics: [d], only: ["quickfix"], triggerKind: 1 },
  });
  const fix = actions.find((a) => a.kind === "quickfix" && a.edit);
  assert.ok(fix, JSON.stringify(actions));
  const edits = fix.edit.changes ? fix.edit.changes[confURI] : fix.edit.documentChanges[0].edits;
  text = apply(text, edits);
  assert.equal(text.split("\n")[7], "            root /var/www;");
});

test("diagnostics after an edit", async () => {
  await conn.sendNotification("textDocument/didChange", {
    textDocument: { uri: confURI, version: 2 },
    contentChanges: [{ text }],
  });
  await diagnosticsFor(confURI, (p) => p.version === 2 && p.diagnostics.length === 0);
  // An unknown directive, unindented, before "location": sent as VS Code
  // does, as a range edit when the server takes incremental changes.
  const lines = text.split("\n");
  lines.splice(6, 0, "frobnicate on;");
  text = lines.join("\n");
  const c = initResult.capabilities.textDocumentSync;
  const incremental = (typeof c === "number" ? c : c.change) === 2;
  await conn.sendNotification("textDocument/didChange", {
    textDocument: { uri: confURI, version: 3 },
    contentChanges: incremental
      ? [{ range: { start: { line: 6, character: 0 }, end: { line: 6, character: 0 } }, text: "frobnicate on;\n" }]
      : [{ text }],
  });
  const p = await diagnosticsFor(confURI, (p) => p.version === 3 && p.diagnostics.length > 0);
  assert.deepEqual(p.diagnostics.map((d) => d.code), ["NL2001"]);
  assert.equal(p.diagnostics[0].range.start.line, 6);
});

// The document is indented with four spaces: formatting keeps them whatever
// the editor asks (its tabSize and insertSpaces only indent a document that
// shows no indentation of its own).
test("formatting keeps the document's indentation", async () => {
  const edits = await request("textDocument/formatting", {
    textDocument: { uri: confURI },
    options: { tabSize: 4, insertSpaces: true, trimTrailingWhitespace: true, insertFinalNewline: true },
  });
  assert.ok(edits.length > 0, "no edits");
  const out = apply(text, edits);
  assert.equal(out.split("\n")[6], "        frobnicate on;");
  const tabs = apply(
    text,
    await request("textDocument/formatting", { textDocument: { uri: confURI }, options: { tabSize: 8, insertSpaces: false } }),
  );
  assert.equal(tabs.split("\n")[6], "        frobnicate on;");
});

// The extension sends the nginx-lint.rules setting as initializationOptions
// (initialize above turns version-disclosure off), and the server applies
// them.
test("initializationOptions: rule settings apply", async () => {
  const uri = pathToFileURL(path.join(root, "conf.d", "tokens.conf")).href;
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nginx", version: 1, text: "server_tokens on;\n" },
  });
  const p = await diagnosticsFor(uri, () => true);
  assert.deepEqual(p.diagnostics.map((d) => d.code), []);
});

test("shutdown and exit end the server with status 0", async () => {
  const exited = new Promise((resolve) => server.on("exit", (code) => resolve(code)));
  assert.equal(await request("shutdown", null), null);
  await conn.sendNotification("exit");
  assert.equal(await withTimeout(exited, "exit"), 0);
});
