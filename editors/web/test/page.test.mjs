// The playground page in a real browser: Debian's Chromium, headless,
// driven by playwright-core (which never downloads a browser of its own).
// editors/web_test.go (TestWebPage) builds the site, serves it on
// 127.0.0.1 and runs this with
//
//   NGINX_LINT_PAGE     the page's URL
//   CHROMIUM            the browser (/usr/bin/chromium)
//   NGINX_LINT_SHOTS    where a screenshot goes when a step fails
//
// It opens the page, types a configuration with a typo and a missing ";",
// sees each error at its line, applies the typo's quick fix from the
// hover, applies the other fix with "Apply fixes", formats, checks the
// link in the address bar and opens it, lints several files (one added,
// for an older nginx), asks the URL tester (with a method and a client's
// address), loads the 20,000-server example and sees the estimate with
// its chart and "what if" table, types in it (measuring the page thread's
// longest task meanwhile), and reloads the page offline. The last line it
// prints is RESULT and a JSON object
// with the latencies measured (milliseconds).
import assert from "node:assert/strict";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

const url = process.env.NGINX_LINT_PAGE;
const shots = process.env.NGINX_LINT_SHOTS;
assert.ok(url && shots, "NGINX_LINT_PAGE and NGINX_LINT_SHOTS must be set");

// The flags of /work/.library/env/machines/go.md: no sandbox as root, no
// GPU, and none of Chromium's own network traffic. playwright-core adds
// a new empty user data directory.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const result = {};
let page;
let step = "start";

function log(msg) {
  console.log(`# ${step}: ${msg}`);
}

async function open(target) {
  const p = await context.newPage();
  p.on("pageerror", (e) => console.log(`page error: ${e.message}`));
  p.on("console", (m) => m.type() === "error" && console.log(`console error: ${m.text()}`));
  await p.goto(target);
  return p;
}

// lints is how many lints the page has shown.
const lints = (p) => p.evaluate(() => Number(document.body.dataset.lints || 0));

// settled waits for a lint after the nth and for no lint to be running or
// due: the findings shown are those of the text now.
async function settled(p, after, timeout = 60000) {
  await p.waitForFunction((n) => Number(document.body.dataset.lints || 0) > n && document.body.dataset.linting === "false", after, { timeout });
  await p.waitForTimeout(400); // a lint scheduled by the last keystroke starts within 150 ms
  await p.waitForFunction(() => document.body.dataset.linting === "false", null, { timeout });
}

const doc = (p) => p.evaluate(() => window.nginxLintText());

async function problems(p) {
  return p.$$eval("#problems li.problem", (els) => els.map((e) => ({ code: e.dataset.code, line: Number(e.dataset.line), file: e.dataset.file, text: e.textContent })));
}

// The configuration typed: "locaton" on line 6, and the ";" missing after
// return on line 7, which nginx reports at the "}" of line 8.
const typed = ["events {}", "http {", "server {", "listen 8080;", "server_name example.test;", "locaton / {", 'return 200 "ok"', "}", "}", "}"];
const formatted = `events {}
http {
    server {
        listen 8080;
        server_name example.test;
        location / {
            return 200 "ok";
        }
    }
}
`;

try {
  step = "first lint after load";
  page = await open(url);
  await page.waitForFunction(() => window.nginxLintStats && window.nginxLintStats.firstLintAt !== null, null, { timeout: 120000 });
  const stats = await page.evaluate(() => window.nginxLintStats);
  result.firstLintAfterLoadMs = Math.round(stats.firstLintAt);
  result.firstLintWorkerMs = Math.round(stats.lastLintMs);
  log(`first findings ${result.firstLintAfterLoadMs} ms after navigation (the lint itself ${result.firstLintWorkerMs} ms)`);

  step = "type a configuration with a typo";
  let n = await lints(page);
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  for (const line of typed) {
    await page.keyboard.type(line);
    await page.keyboard.press("Enter");
  }
  await settled(page, n);
  result.typedLintMs = Math.round(await page.evaluate(() => window.nginxLintStats.lastLintMs));
  assert.equal((await doc(page)).replace(/[ \t]+/g, " ").replace(/\n /g, "\n"), typed.join("\n") + "\n", "the text typed");
  let ps = await problems(page);
  log(JSON.stringify(ps));
  const typo = ps.find((x) => x.code === "NL2001");
  assert.ok(typo, `an unknown-directive finding for "locaton"; got ${JSON.stringify(ps)}`);
  assert.equal(typo.line, 6, "the typo's line");
  assert.match(typo.text, /unknown directive "locaton"/);
  const semi = ps.find((x) => x.code === "NL1001");
  assert.ok(semi && semi.line === 8, `the missing ";" reported at the "}" of line 8; got ${JSON.stringify(ps)}`);
  // Underlined in the editor, on line 6.
  const marked = await page.$$eval(".cm-line", (lines) => lines.map((l, i) => (l.querySelector(".cm-lintRange-error") ? i + 1 : 0)).filter(Boolean));
  assert.ok(marked.includes(6), `an error underline on line 6; underlined lines ${marked}`);
  // The Problems list leads to the place.
  await page.click('#problems li.problem[data-code="NL2001"]');
  assert.equal(await page.evaluate(() => window.nginxLintCursorLine()), 6, "the cursor on the typo's line after a click on its problem");

  step = "the typo's explanation and quick fix on hover";
  const range = page.locator(".cm-line").nth(5).locator(".cm-lintRange-error").first();
  await range.hover();
  const tooltip = page.locator(".cm-tooltip-lint");
  await tooltip.waitFor({ timeout: 10000 });
  const tip = await tooltip.textContent();
  assert.match(tip, /unknown directive "locaton"/);
  assert.match(tip, /did you mean "location"/);
  assert.match(tip, /NL2001 unknown-directive/);
  n = await lints(page);
  await tooltip.locator("button", { hasText: "Fix" }).first().click();
  await settled(page, n);
  assert.match(await doc(page), /\blocation \/ \{/, "the quick fix renamed the directive");
  ps = await problems(page);
  assert.ok(!ps.some((x) => x.code === "NL2001"), `no unknown directive left: ${JSON.stringify(ps)}`);

  step = "Apply fixes";
  n = await lints(page);
  await page.click("#fix");
  await settled(page, n);
  assert.match(await doc(page), /return 200 "ok";/, 'the missing ";" inserted');
  ps = await problems(page);
  assert.ok(!ps.some((x) => x.text.includes("error")), `no error left: ${JSON.stringify(ps)}`);

  step = "Format";
  n = await lints(page);
  await page.click("#format");
  await settled(page, n);
  assert.equal(await doc(page), formatted, "formatted as nginx-lint fmt formats");

  step = "the link reproduces the configuration";
  await page.waitForFunction(() => location.hash.startsWith("#c="), null, { timeout: 10000 });
  const link = await page.evaluate(() => location.href);
  const again = await open(link);
  await settled(again, 0);
  assert.equal(await doc(again), formatted, "the page opened from the link holds the configuration");
  await again.close();
  // A link made by hand, as docs and chats make them: #c= and base64url.
  const byHand = await open(`${url}#c=${Buffer.from(typed.join("\n") + "\n", "utf8").toString("base64url")}`);
  await settled(byHand, 0);
  ps = await problems(byHand);
  assert.ok(ps.some((x) => x.code === "NL2001" && x.line === 6), `#c= linted: ${JSON.stringify(ps)}`);
  await byHand.close();

  step = "several files and the target version";
  n = await lints(page);
  await page.selectOption("#examples", "e:split");
  await settled(page, n);
  const tabs = () => page.$$eval("#tabs .tab[data-file]", (els) => els.map((e) => e.dataset.file));
  assert.deepEqual(await tabs(), ["nginx.conf", "conf.d/app.conf", "snippets/tls.conf"]);
  ps = await problems(page);
  assert.ok(ps.some((x) => x.file === "conf.d/app.conf" && x.code === "NL2050" && x.line === 18), `alias-slash-mismatch in the included file: ${JSON.stringify(ps)}`);
  assert.ok(ps.some((x) => x.file === "snippets/tls.conf" && x.line === 3), `the snippet included by the included file: ${JSON.stringify(ps)}`);
  page.once("dialog", (d) => d.accept("conf.d/h2.conf"));
  await page.click("#tabs .tab.add");
  await page.waitForFunction(() => document.querySelector("#tabs .tab.active")?.dataset.file === "conf.d/h2.conf");
  n = await lints(page);
  await page.click(".cm-content");
  for (const line of ["server {", "listen 8443 ssl;", "server_name h2.example;", "http2 on;", "}"]) {
    await page.keyboard.type(line);
    await page.keyboard.press("Enter");
  }
  await settled(page, n);
  ps = await problems(page);
  assert.ok(!ps.some((x) => x.file === "conf.d/h2.conf" && x.code === "NL2001"), `http2 is known to the newest nginx: ${JSON.stringify(ps)}`);
  n = await lints(page);
  await page.fill("#version", "1.22.1");
  await page.press("#version", "Enter");
  await settled(page, n);
  ps = await problems(page);
  assert.ok(ps.some((x) => x.file === "conf.d/h2.conf" && x.code === "NL2001" && x.line === 4 && /http2/.test(x.text)), `http2 on for nginx 1.22.1 (from 1.25.1): ${JSON.stringify(ps)}`);
  await page.waitForFunction(() => /^#f=.*&v=1\.22\.1$/.test(location.hash), null, { timeout: 10000 });
  n = await lints(page);
  await page.fill("#version", "");
  await page.press("#version", "Enter");
  await settled(page, n);

  step = "the URL tester";
  n = await lints(page);
  await page.selectOption("#examples", "e:shop");
  await settled(page, n);
  await page.waitForFunction(() => document.querySelectorAll("#routes pre").length === 5, null, { timeout: 60000 });
  const routes = await page.$$eval("#routes pre", (els) => els.map((e) => e.textContent));
  assert.match(routes[2], /^GET https:\/\/shop\.example\/api\/v2\/orders/);
  assert.match(routes[2], /location {2}\/api\/ \(nginx\.conf:48\)/);
  assert.match(routes[3], /301 redirect to https:\/\/shop\.example\/cart/);
  // The request options: the client's address decides allow 10.0.0.0/8.
  await page.click("#request summary");
  await page.fill("#urls", "https://shop.example/admin/users");
  await page.fill("#route-remote", "203.0.113.9");
  await page.fill("#route-method", "POST");
  await page.click("#route-form button[type=submit]");
  await page.waitForFunction(() => /^POST https:\/\/shop\.example\/admin\/users[^]*\b403\b/.test(document.querySelector("#routes pre")?.textContent || ""), null, { timeout: 60000 });
  await page.fill("#route-remote", "10.1.2.3");
  await page.press("#route-remote", "Enter");
  await page.waitForFunction(() => /chain {5}\/admin\/users in location \/admin\//.test(document.querySelector("#routes pre")?.textContent || ""), null, { timeout: 60000 });
  log((await page.textContent("#routes pre")).split("\n")[0]);

  step = "the 20,000-server example and its estimate";
  n = await lints(page);
  await page.selectOption("#examples", "l:L2c");
  await settled(page, n, 180000);
  const big = await page.evaluate(() => ({ ...window.nginxLintStats, size: window.nginxLintText().length }));
  result.lint20kMs = Math.round(big.lastLintMs);
  result.lint20kRoundTripMs = Math.round(big.lastRoundTripMs);
  result.l2cBytes = big.size;
  log(`L2c, ${big.size} bytes: lint ${result.lint20kMs} ms in the worker, ${result.lint20kRoundTripMs} ms from request to findings`);
  await page.waitForSelector("#cost h3", { timeout: 120000 });
  const cost = await page.textContent("#cost");
  assert.match(cost, /nginx\.conf: 20000 servers, 20000 listens on 1 port/);
  assert.match(cost, /start\s*[0-9.]+ s/);
  assert.match(cost, /What if/);
  assert.ok(await page.$("#cost img.chart"), "the chart");
  assert.match(await page.textContent("#cost-summary"), /\([0-9.]+ s\)/);
  ps = await problems(page);
  assert.ok(ps.some((x) => x.code === "NL4007"), `the startup-budget finding: ${JSON.stringify(ps.slice(0, 5))}`);
  assert.match(await page.evaluate(() => location.hash), /^#x=L2c&n=20000/);

  step = "typing in the 20,000-server configuration";
  // The main thread's long tasks (50 ms and more) while one types: the
  // lint runs in the worker, so typing must not wait for it.
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: "longtask" });
  });
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  n = await lints(page);
  await page.keyboard.type("# typed while the worker lints\n", { delay: 25 });
  await settled(page, n, 180000);
  assert.match(await doc(page), /# typed while the worker lints\n$/);
  const longTasks = await page.evaluate(() => window.longTasks);
  result.typing20kLongestTaskMs = Math.round(Math.max(0, ...longTasks));
  log(`longest task on the page's thread while typing: ${result.typing20kLongestTaskMs} ms (${longTasks.length} of 50 ms or more)`);

  step = "offline once loaded";
  await page.evaluate(() => navigator.serviceWorker.ready);
  await context.setOffline(true);
  const offline = await open(url);
  await settled(offline, 0);
  assert.ok((await problems(offline)).length > 0, "the default example linted offline");
  await offline.close();
  await context.setOffline(false);

  console.log(`RESULT ${JSON.stringify(result)}`);
} catch (err) {
  const shot = path.join(shots, `failure-${step.replace(/[^a-z0-9]+/gi, "-")}.png`);
  if (page) await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
  console.log(`FAILED at step "${step}": ${err.stack || err}`);
  console.log(`screenshot: ${shot}`);
  await browser.close();
  process.exit(1);
}
await browser.close();
