// The playground page: CodeMirror editors for a set of nginx files, linted
// by nginx-lint's WebAssembly build in a Web Worker as one types, with the
// findings underlined (the rule's explanation on hover, its quick fix as
// an action), Format, Apply fixes, the startup estimate with its chart and
// "what if" table, a URL tester, examples, and the state in the URL.
import { EditorState, ChangeSet } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { StreamLanguage } from "@codemirror/language";
import { nginxMode } from "./nginx-mode.js";
import { setDiagnostics } from "@codemirror/lint";
import { examples, layouts } from "./examples.js";
import { renderMarkdown } from "./markdown.js";
import { encodeState, decodeState, MaxLinkText } from "./share.js";

// Root is where the files live for nginx-lint: a copy of /etc/nginx
// (internal/playground.DefaultRoot).
const Root = "/playground/etc/nginx";
const Versions = ["1.28.0", "1.26.3", "1.24.0", "1.22.1", "1.20.2", "1.18.0", "1.16.1", "1.14.2"];

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
};

// ---- the worker ----------------------------------------------------------

const worker = new Worker("worker.js");
let callSeq = 0;
const waiting = new Map();
worker.onmessage = (e) => {
  const { id, result, error, ms } = e.data;
  const w = waiting.get(id);
  waiting.delete(id);
  if (error) w.reject(new Error(error));
  else w.resolve({ result, ms });
};
worker.onerror = (e) => {
  setStatus(`nginx-lint could not start: ${e.message}`, "error");
};

// filesChanged says whether the worker's files are out of date.
let filesChanged = true;

// onFiles are the calls that read the files.
const onFiles = new Set(["lint", "fix", "format", "cost", "route"]);

// call runs op in the worker with req; the files go along when they
// changed since the last call.
function call(op, req = {}) {
  const id = ++callSeq;
  const msg = { id, op, req: onFiles.has(op) ? { root: Root, ...req } : req };
  if (filesChanged) {
    msg.files = {};
    for (const f of files) msg.files[`${Root}/${f.name}`] = f.state.doc.toString();
    filesChanged = false;
  }
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage(msg);
  });
}

// ---- files and the editor ------------------------------------------------

// files are the tabs: {name, state, diags, pending, sinceDiag}. pending
// is the changes made since the text went to the lint that is running,
// sinceDiag those since its findings were shown: positions the worker
// gives are mapped through them.
let files = [];
let active = 0;
// layout is the generated example the files still are, or null.
let layout = null;
let lastFindings = [];
// generation counts the changes to the set of files (an example loaded, a
// file added, removed or renamed): a lint of another set is not shown.
let generation = 0;
let ruleDocs = {};

const language = StreamLanguage.define(nginxMode);

// stats are the page's timings, which the browser test reads: when the
// first findings were shown (ms after navigation) and how long the last
// lint took in the worker and from request to findings.
const stats = { lints: 0, firstLintAt: null, lastLintMs: null, lastRoundTripMs: null };
window.nginxLintStats = stats;

const view = new EditorView({
  parent: $("editor"),
  dispatchTransactions(trs, view) {
    view.update(trs);
    const f = files[active];
    if (!f) return;
    f.state = view.state;
    for (const tr of trs) {
      if (!tr.docChanged) continue;
      if (f.pending) f.pending = f.pending.compose(tr.changes);
      if (f.sinceDiag) f.sinceDiag = f.sinceDiag.compose(tr.changes);
      edited();
    }
  },
});

// The text of the file shown and the line of its cursor, for the browser
// test.
window.nginxLintText = () => view.state.doc.toString();
window.nginxLintCursorLine = () => view.state.doc.lineAt(view.state.selection.main.head).number;

function makeState(text) {
  return EditorState.create({ doc: text, extensions: [basicSetup, language, EditorView.lineWrapping] });
}

function newFile(name, text) {
  return { name, state: makeState(text), diags: [], pending: null, sinceDiag: null };
}

function setFiles(list, opts = {}) {
  generation++;
  files = list.map((f) => newFile(f.name, f.text));
  if (!files.length) files.push(newFile("nginx.conf", ""));
  layout = opts.layout ?? null;
  filesChanged = true;
  active = 0;
  view.setState(files[0].state);
  renderTabs();
  edited({ now: true, keepLayout: true });
}

function openFile(i) {
  if (i === active || !files[i]) return;
  files[active].state = view.state;
  active = i;
  view.setState(files[i].state);
  renderTabs();
}

function renderTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren();
  files.forEach((f, i) => {
    const n = f.diags.length;
    const tab = el("button", { type: "button", class: "tab" + (i === active ? " active" : ""), "data-file": f.name, title: "Double-click to rename" }, f.name);
    if (n) tab.append(el("span", { class: "badge " + worst(f.diags) }, String(n)));
    tab.addEventListener("click", () => openFile(i));
    tab.addEventListener("dblclick", () => renameFile(i));
    const close = el("span", { class: "close", title: `Remove ${f.name}`, role: "button" }, "×");
    close.addEventListener("click", (e) => {
      e.stopPropagation();
      removeFile(i);
    });
    if (files.length > 1) tab.append(close);
    tabs.append(tab);
  });
  tabs.append(el("button", { type: "button", class: "tab add", title: "Add a file", onclick: addFile }, "+"));
}

function worst(diags) {
  return diags.some((d) => d.severity === "error") ? "error" : diags.some((d) => d.severity === "warning") ? "warning" : "info";
}

function validName(name, except) {
  if (!name || name.startsWith("/") || name.split("/").some((s) => s === "" || s === "." || s === "..")) return "a relative path such as conf.d/site.conf";
  if (files.some((f, i) => i !== except && f.name === name)) return `${name} is already open`;
  return "";
}

function addFile() {
  const name = prompt("File name (relative to /etc/nginx):", files.some((f) => f.name === "conf.d/site.conf") ? "" : "conf.d/site.conf");
  if (name === null) return;
  const bad = validName(name.trim());
  if (bad) return setStatus(`Not added: ${bad}`, "error");
  files[active].state = view.state;
  generation++;
  files.push(newFile(name.trim(), ""));
  openFile(files.length - 1);
  edited({ now: true });
}

function renameFile(i) {
  const name = prompt("Rename to:", files[i].name);
  if (name === null || name.trim() === files[i].name) return;
  const bad = validName(name.trim(), i);
  if (bad) return setStatus(`Not renamed: ${bad}`, "error");
  generation++;
  files[i].name = name.trim();
  renderTabs();
  edited({ now: true });
}

function removeFile(i) {
  if (files[i].state.doc.length && !confirm(`Remove ${files[i].name}?`)) return;
  files[active].state = view.state;
  generation++;
  files.splice(i, 1);
  active = Math.min(active >= i ? Math.max(active - 1, 0) : active, files.length - 1);
  view.setState(files[active].state);
  renderTabs();
  edited({ now: true });
}

// replaceText puts text in file f as one undoable change.
function replaceText(f, text) {
  const spec = { changes: { from: 0, to: f.state.doc.length, insert: text } };
  if (f === files[active]) view.dispatch(spec);
  else {
    const tr = f.state.update(spec);
    f.state = tr.state;
    if (f.pending) f.pending = f.pending.compose(tr.changes);
    if (f.sinceDiag) f.sinceDiag = f.sinceDiag.compose(tr.changes);
    edited();
  }
}

// ---- linting as one types ------------------------------------------------

let lintTimer = null;
let linting = false;
let lintAgain = false;
let shareTimer = null;

// edited schedules a lint after a pause in typing (longer for a large
// configuration, whose lint takes longer) and updates the link.
function edited({ now = false, keepLayout = false } = {}) {
  filesChanged = true;
  if (!keepLayout) layout = null;
  const size = files.reduce((n, f) => n + f.state.doc.length, 0);
  clearTimeout(lintTimer);
  lintTimer = setTimeout(lint, now ? 0 : size > 500000 ? 600 : 150);
  clearTimeout(shareTimer);
  shareTimer = setTimeout(updateLink, 400);
}

async function lint() {
  if (linting) {
    lintAgain = true;
    return;
  }
  linting = true;
  lintAgain = false;
  document.body.dataset.linting = "true";
  for (const f of files) f.pending = ChangeSet.empty(f.state.doc.length);
  const t0 = performance.now();
  const gen = generation;
  try {
    const { result, ms } = await call("lint", { version: version() });
    if (gen !== generation) {
      lintAgain = true; // the files changed under it: lint them instead
    } else if (result.error) {
      setStatus(result.error, "error");
    } else {
      showFindings(result);
      stats.lints++;
      stats.lastLintMs = ms;
      stats.lastRoundTripMs = performance.now() - t0;
      if (stats.firstLintAt === null) stats.firstLintAt = performance.now();
      document.body.dataset.lints = String(stats.lints);
      const counts = countBySeverity(result.findings);
      setStatus(`linted in ${formatMs(ms)} · ${counts}${result.warnings.length ? " · settings: " + result.warnings.join("; ") : ""}`, result.warnings.length ? "warning" : "");
    }
  } catch (err) {
    setStatus(String(err.message || err), "error");
  } finally {
    for (const f of files) f.pending = null;
    linting = false;
    document.body.dataset.linting = "false";
  }
  if (lintAgain) return lint();
  refreshPanels();
}

function formatMs(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function countBySeverity(findings) {
  const n = { error: 0, warning: 0, info: 0 };
  for (const d of findings) n[d.severity]++;
  const parts = [];
  for (const s of ["error", "warning", "info"]) if (n[s]) parts.push(`${n[s]} ${s}${n[s] > 1 ? "s" : ""}`);
  return parts.length ? parts.join(", ") : "no findings";
}

function showFindings(result) {
  lastFindings = result.findings;
  Object.assign(ruleDocs, result.rules || {});
  for (const f of files) {
    const mine = result.findings.filter((d) => d.file === f.name);
    const len = f.state.doc.length;
    const map = (pos, assoc) => Math.min(f.pending ? f.pending.mapPos(pos, assoc) : pos, len);
    f.diags = mine.map((d) => {
      const from = map(d.from, 1);
      const to = Math.max(from, map(d.to, -1));
      return { from, to, severity: d.severity, message: d.message, source: d.code, renderMessage: () => renderFinding(d), actions: d.fix ? [fixAction(f, d)] : [] };
    });
    // A fix's edits are mapped from the text linted to the text now:
    // through what was typed while the lint ran, then after.
    f.fixBase = f.pending;
    f.sinceDiag = ChangeSet.empty(len);
    const spec = setDiagnostics(f.state, f.diags);
    if (f === files[active]) view.dispatch(spec);
    else f.state = f.state.update(spec).state;
  }
  renderTabs();
  renderProblems();
}

// fixAction applies finding d's edits, mapped from the text that was
// linted to the text now.
function fixAction(f, d) {
  return {
    name: "Fix",
    apply() {
      const byFile = new Map();
      for (const e of d.fix) {
        const g = files.find((x) => x.name === e.file);
        if (!g) continue;
        if (!byFile.has(g)) byFile.set(g, []);
        byFile.get(g).push(e);
      }
      for (const [g, edits] of byFile) {
        const through = (pos, assoc) => {
          let p = g.fixBase ? g.fixBase.mapPos(pos, assoc) : pos;
          if (g.sinceDiag) p = g.sinceDiag.mapPos(p, assoc);
          return Math.min(p, g.state.doc.length);
        };
        const changes = edits.map((e) => ({ from: through(e.from, 1), to: Math.max(through(e.from, 1), through(e.to, -1)), insert: e.text }));
        if (g === files[active]) view.dispatch({ changes, scrollIntoView: true });
        else {
          const tr = g.state.update({ changes });
          g.state = tr.state;
          if (g.sinceDiag) g.sinceDiag = g.sinceDiag.compose(tr.changes);
          edited();
        }
      }
    },
  };
}

// renderFinding is a finding's hover: the message, the detail, the rule
// and its explanation (its page as nginx-lint explain prints it).
function renderFinding(d) {
  const box = el("div", { class: "finding" });
  box.append(el("div", { class: "message" }, d.message));
  if (d.detail) box.append(el("div", { class: "detail" }, d.detail));
  if (d.target) box.append(el("div", { class: "target" }, `for ${d.target}`));
  const rule = el("div", { class: "rule" });
  if (d.url) rule.append(el("a", { href: d.url, target: "_blank", rel: "noopener" }, `${d.code} ${d.name}`));
  else rule.append(`${d.code} ${d.name}`);
  if (d.title) rule.append(`: ${d.title}`);
  box.append(rule);
  const doc = ruleDocs[d.code];
  if (doc && doc.text) {
    const more = el("div", { class: "explain" });
    more.append(renderMarkdown(doc.text));
    box.append(more);
  }
  for (const r of d.related || []) box.append(el("div", { class: "related" }, `${r.file}:${r.line}:${r.column}: ${r.message}`));
  return box;
}

// MaxProblems bounds the Problems list (a layout of 20,000 servers with
// one name has a finding per server); the editor underlines them all.
const MaxProblems = 500;

function renderProblems() {
  const list = $("problems");
  list.replaceChildren();
  $("problem-count").textContent = lastFindings.length ? `(${lastFindings.length})` : "";
  if (!lastFindings.length) {
    list.append(el("li", { class: "none" }, "No findings."));
    return;
  }
  const shown = lastFindings.slice(0, MaxProblems);
  shown.forEach((d, i) => {
    list.append(el("li", { class: `problem ${d.severity}`, tabindex: "0", "data-i": String(i), "data-code": d.code, "data-line": String(d.line), "data-file": d.file },
      el("span", { class: "where" }, `${d.file}:${d.line}:${d.column}`), " ",
      el("span", { class: "sev" }, d.severity), " ",
      el("span", { class: "msg" }, d.message), " ",
      el("span", { class: "code" }, `(${d.code})`)));
  });
  if (lastFindings.length > shown.length) list.append(el("li", { class: "none" }, `… and ${lastFindings.length - shown.length} more`));
}

// A problem clicked, or Enter on one, shows its place.
for (const type of ["click", "keydown"]) {
  $("problems").addEventListener(type, (e) => {
    const item = e.target.closest("li.problem");
    if (item && (type === "click" || e.key === "Enter")) reveal(lastFindings[Number(item.dataset.i)]);
  });
}

function reveal(d) {
  const i = files.findIndex((f) => f.name === d.file);
  if (i < 0) return;
  openFile(i);
  const diag = files[i].diags.find((x) => x.source === d.code && x.message === d.message);
  const from = diag ? diag.from : 0;
  const to = diag ? diag.to : 0;
  view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
  view.focus();
}

// ---- the panels ----------------------------------------------------------

function panelShown(name) {
  return !$(`panel-${name}`).hidden;
}

// showPanel shows the panel called name, brought up to date unless a
// lint is due, which brings it up to date when it is done.
function showPanel(name, { refresh = true } = {}) {
  for (const b of document.querySelectorAll("#panels [role=tab]")) {
    const on = b.dataset.panel === name;
    b.setAttribute("aria-selected", String(on));
    $(`panel-${b.dataset.panel}`).hidden = !on;
  }
  if (refresh) refreshPanels();
}

for (const b of document.querySelectorAll("#panels [role=tab]")) b.addEventListener("click", () => showPanel(b.dataset.panel));

function refreshPanels() {
  // The estimate in the tab's label is of the text it was made for.
  if (!panelShown("cost")) $("cost-summary").textContent = "";
  if (panelShown("cost")) estimate();
  if (panelShown("route") && $("urls").value.trim()) route();
}

async function estimate() {
  const box = $("cost");
  const { result, ms } = await call("cost", { version: version() });
  box.replaceChildren();
  if (result.error) {
    box.append(el("p", { class: "error" }, result.error));
    return;
  }
  if (!result.estimates.length) {
    $("cost-summary").textContent = "";
    box.append(el("p", { class: "none" }, "No server blocks to estimate."));
    return;
  }
  for (const est of result.estimates) {
    const start = est.times.find((t) => t.term === "start");
    $("cost-summary").textContent = `(${start.seconds.toFixed(2)} s)`;
    const times = el("table", { class: "times" });
    for (const t of est.times) times.append(el("tr", {}, el("th", {}, t.term), el("td", { class: "num" }, `${t.seconds.toFixed(2)} s`), el("td", { class: "note" }, t.note || "")));
    box.append(el("h3", {}, `${est.file}: ${est.layout}`), times);
    const img = el("img", { class: "chart", alt: `Estimated startup of ${est.file} against the number of servers`, src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(est.svg) });
    box.append(img);
    const whatifs = est.report.what_ifs || [];
    if (whatifs.length) {
      const t = el("table", { class: "whatif" }, el("caption", {}, "What if"), el("tr", {}, el("th", {}, "change"), el("th", {}, "saves"), el("th", {}, "")));
      for (const w of whatifs) t.append(el("tr", {}, el("td", {}, w.change), el("td", { class: "num" }, `${w.saving_seconds.toFixed(2)} s`), el("td", { class: "note" }, w.note || "")));
      box.append(t);
    }
    box.append(el("details", {}, el("summary", {}, "The full report (nginx-lint cost)"), el("pre", {}, est.text)));
  }
  box.append(el("p", { class: "hint" }, `estimated in ${formatMs(ms)}`));
}

async function route() {
  const lines = (id) => $(id).value.split("\n").map((s) => s.trim()).filter(Boolean);
  const box = $("routes");
  // The request options are nginx-lint route's flags (internal/playground's
  // RouteRequest, the names of the language server's nginx-lint.route).
  const req = {
    urls: lines("urls"),
    version: version(),
    method: $("route-method").value.trim(),
    remote: $("route-remote").value.trim(),
    local: $("route-local").value.trim(),
    headers: lines("route-headers"),
    noHost: $("route-nohost").checked,
  };
  const { result } = await call("route", req);
  box.replaceChildren();
  if (result.error) {
    box.append(el("p", { class: "error" }, result.error));
    return;
  }
  for (const t of result.text) box.append(el("pre", { class: "route" }, t));
}

$("route-form").addEventListener("submit", (e) => {
  e.preventDefault();
  route();
});

// ---- Format, Apply fixes, the version, examples --------------------------

function version() {
  return $("version").value.trim();
}

$("version").addEventListener("change", () => edited({ now: true, keepLayout: true }));

$("format").addEventListener("click", async () => {
  const f = files[active];
  const { result } = await call("format", { paths: [f.name] });
  if (result.error) return setStatus(result.error, "error");
  const out = result.files[0];
  if (out.error) return setStatus(`Not formatted: ${out.error}`, "error");
  if (out.changed) replaceText(f, out.text);
  setStatus(out.changed ? `formatted ${f.name}` : `${f.name} is formatted already`);
});

$("fix").addEventListener("click", async () => {
  const { result } = await call("fix", { version: version() });
  if (result.error) return setStatus(result.error, "error");
  for (const ff of result.files) {
    const f = files.find((x) => x.name === ff.path);
    if (f) replaceText(f, ff.text);
  }
  const n = result.changes.length;
  let msg = n ? `applied ${n} fix${n > 1 ? "es" : ""}` : "nothing to fix";
  if (result.refused.length) msg += `; not fixed (the result would not parse): ${result.refused.join(", ")}`;
  setStatus(msg, result.refused.length ? "warning" : "");
});

function fillExamples() {
  const sel = $("examples");
  const small = el("optgroup", { label: "Examples" });
  for (const x of examples) small.append(el("option", { value: `e:${x.id}` }, x.title));
  const big = el("optgroup", { label: "The benchmark's layouts (generated here)" });
  for (const l of layouts) big.append(el("option", { value: `l:${l.name}` }, l.title));
  sel.append(small, big);
  sel.addEventListener("change", async () => {
    const v = sel.value;
    sel.value = "";
    if (v.startsWith("e:")) loadExample(examples.find((x) => x.id === v.slice(2)));
    else if (v.startsWith("l:")) loadLayout(layouts.find((l) => l.name === v.slice(2)));
  });
  const dl = $("versions");
  for (const v of Versions) dl.append(el("option", { value: v }));
}

function loadExample(x) {
  setFiles(x.files);
  if (x.urls) $("urls").value = x.urls.join("\n");
  if (x.panel) showPanel(x.panel, { refresh: false });
}

async function loadLayout(l) {
  setStatus(`generating ${l.title}…`);
  const { result } = await call("example", { layout: l.name, n: l.n });
  if (result.error) return setStatus(result.error, "error");
  setFiles([{ name: "nginx.conf", text: result.text }], { layout: { name: l.name, n: l.n } });
  showPanel("cost", { refresh: false });
}

// ---- the link ------------------------------------------------------------

function updateLink() {
  // A generated layout is linked by its name, and a configuration too
  // large for a link is not turned into text for it.
  const size = files.reduce((n, f) => n + f.state.doc.length, 0);
  const texts = layout || size > MaxLinkText ? [] : files.map((f) => ({ name: f.name, text: f.state.doc.toString() }));
  const hash = !layout && size > MaxLinkText ? "" : encodeState({ files: texts, version: version(), layout });
  const url = hash ? `#${hash}` : location.pathname + location.search;
  history.replaceState(null, "", url);
  currentHash = location.hash;
  $("share").disabled = !hash;
  $("share").title = hash ? "Copy a link that opens this configuration" : "Too large for a link";
}

let currentHash = "";

async function loadFromHash() {
  currentHash = location.hash;
  let st;
  try {
    st = decodeState(location.hash);
  } catch (err) {
    setStatus(`The link's configuration cannot be read (cut short?): ${err.message}`, "error");
  }
  if (!st) return false;
  $("version").value = st.version;
  if (st.layout) {
    const l = layouts.find((x) => x.name === st.layout.name);
    if (!l) return false;
    await loadLayout({ ...l, n: st.layout.n });
  } else setFiles(st.files);
  return true;
}

window.addEventListener("hashchange", () => {
  if (location.hash !== currentHash) loadFromHash();
});

$("share").addEventListener("click", async () => {
  updateLink();
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus("link copied");
  } catch {
    setStatus("copy the address bar's link");
  }
});

// ---- status and start ----------------------------------------------------

function setStatus(text, kind = "") {
  const s = $("status");
  s.textContent = text;
  s.className = kind;
}

async function start() {
  fillExamples();
  $("root").textContent = Root;
  call("info").then(({ result }) => {
    if (result.error) return;
    $("build").textContent = `nginx-lint ${result.version}, ${result.rules} rules; newest nginx known: ${result.nginx}.`;
    $("version").placeholder = `newest (${result.nginx})`;
  });
  if (!(await loadFromHash())) loadExample(examples[0]);
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
}

start();
