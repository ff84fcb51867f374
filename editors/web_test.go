//go:build unix

package editors_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

// The playground page (editors/web) is tested here: the WebAssembly
// build's size and package list, its findings against the command
// line's on every main configuration of testdata/ (in Node.js, over the
// page's in-memory file system), and the built site in headless Chromium.

// buildWasm builds the page's WebAssembly core as editors/web/build does
// and returns its path.
func buildWasm(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "nginx-lint.wasm")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s", "-o", out, "./web/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build ./web/wasm: %v\n%s", err, b)
	}
	return out
}

// wasmExec is Go's wasm_exec.js, which must be the one of the Go that
// built the .wasm.
func wasmExec(t *testing.T) string {
	t.Helper()
	b, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := strings.TrimSpace(string(b))
	for _, p := range []string{filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js")} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("no wasm_exec.js in %s", root)
	return ""
}

// TestWebWasmPackages: the page's core links nothing of the command line
// or the language server, nothing that writes files, runs programs or
// serves HTTP.
func TestWebWasmPackages(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./web/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/nginx-lint/nginx-lint/"
	banned := []string{
		mod + "cmd/", mod + "lsp", mod + "internal/atomicfile", mod + "internal/nginxrun", mod + "internal/dist",
		"github.com/alecthomas/kong", "github.com/tliron/glsp", "github.com/aymanbagabas/go-udiff",
		"github.com/santhosh-tekuri/jsonschema", "golang.org/x/sys/",
		"net/http", "os/exec", "crypto/tls",
	}
	pkgs := strings.Fields(string(out))
	for _, p := range pkgs {
		for _, b := range banned {
			if p == strings.TrimSuffix(b, "/") || strings.HasPrefix(p, b) {
				t.Errorf("the WebAssembly build links %s", p)
			}
		}
	}
	for _, want := range []string{mod + "internal/playground", mod + "analyzer/lint", mod + "analyzer/routing"} {
		if !strings.Contains("\n"+string(out), "\n"+want+"\n") {
			t.Errorf("the WebAssembly build does not link %s: %d packages listed", want, len(pkgs))
		}
	}
}

// budgetPattern is how docs/benchmarks.md states the size budget of the
// page's core, which TestWebWasm holds.
var budgetPattern = regexp.MustCompile(`size budget: ([0-9]+(?:\.[0-9]+)?) MB gzipped`)

// TestWebWasm builds the page's core once and checks its compressed size
// against the budget docs/benchmarks.md states, then (parity) that it
// finds what the command line finds.
func TestWebWasm(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "benchmarks.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := budgetPattern.FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/benchmarks.md states no %q", budgetPattern)
	}
	budget, _ := strconv.ParseFloat(string(m[1]), 64)
	wasm := buildWasm(t)
	raw, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	gz.Write(raw)
	gz.Close()
	t.Logf("nginx-lint.wasm: %.2f MB, %.2f MB gzipped (budget %.1f MB)", float64(len(raw))/1e6, float64(z.Len())/1e6, budget)
	if float64(z.Len()) > budget*1e6 {
		t.Errorf("nginx-lint.wasm is %.2f MB gzipped, over the budget of %.1f MB in docs/benchmarks.md", float64(z.Len())/1e6, budget)
	}
	t.Run("parity", func(t *testing.T) { testParity(t, wasm) })
}

// testParity lints every main configuration of testdata/ (every
// configuration `nginx-lint testdata/` lints as a unit: a file no other
// includes) with the command line, and with the WebAssembly build in
// Node.js over the page's in-memory file system holding the files the
// command line reads, and wants the same findings, field by field of the
// JSON format.
func testParity(t *testing.T, wasm string) {
	node := require(t, "node", "apt-get install nodejs")
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testdata := filepath.Join(repo, "testdata")
	w := &lint.Workspace{Cache: &lint.Cache{}}
	targets, err := lint.Targets([]string{testdata})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := w.Load(targets)
	if err != nil {
		t.Fatal(err)
	}
	var mains []string
	for _, u := range rep.Units {
		mains = append(mains, u.Config.Main.Path)
	}
	if len(mains) < 100 {
		t.Fatalf("%d main configurations in testdata/: the walk went wrong", len(mains))
	}

	// The in-memory file system: testdata/ as it is (every text file),
	// the repository's root marker, and whatever else the command line
	// reads for these configurations (the files the loads read).
	files := map[string]string{filepath.Join(repo, ".git"): ""}
	add := func(p string) {
		b, err := os.ReadFile(p)
		if err == nil && utf8.Valid(b) {
			files[p] = string(b)
		}
	}
	err = filepath.WalkDir(testdata, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			add(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range rep.Units {
		for _, f := range u.Config.Files {
			if _, ok := files[f.Path]; !ok && f.FromDump == "" {
				add(f.Path)
			}
		}
	}
	type run struct {
		Call    string `json:"call"`
		Request any    `json:"request"`
	}
	in := struct {
		Files map[string]string `json:"files"`
		Runs  []run             `json:"runs"`
	}{Files: files}
	for _, p := range mains {
		in.Runs = append(in.Runs, run{"lint", map[string]any{"targets": []string{p}, "dir": repo}})
	}
	for _, c := range routeCases {
		req := map[string]any{"config": filepath.Join(repo, c.config), "dir": repo, "urls": routeURLs}
		for k, v := range c.options {
			req[k] = v
		}
		in.Runs = append(in.Runs, run{"route", req})
	}
	input, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("web", "test", "parity.mjs"), wasm, wasmExec(t))
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node parity.mjs: %v\n%s", err, stderr.Bytes())
	}
	type answer struct {
		Findings []report.JSONDiagnostic `json:"findings"`
		Routes   []report.Route          `json:"routes"`
		Error    string                  `json:"error"`
	}
	var got []answer
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || len(got) != len(in.Runs) {
		t.Fatalf("node parity.mjs: %d answers for %d calls (%v)\n%s", len(got), len(in.Runs), err, stderr.Bytes())
	}

	bin := filepath.Join(buildServer(t), "nginx-lint")
	findings := 0
	for i, p := range mains {
		cli := exec.Command(bin, "-f", "json", "--fail-level", "none", p)
		cli.Dir = repo
		out, err := cli.Output()
		if err != nil {
			t.Errorf("nginx-lint %s: %v", p, err)
			continue
		}
		var want struct {
			Diagnostics []report.JSONDiagnostic `json:"diagnostics"`
		}
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatalf("nginx-lint -f json %s: %v", p, err)
		}
		if got[i].Error != "" {
			t.Errorf("%s: the page's lint failed: %s", p, got[i].Error)
			continue
		}
		if diff := cmp.Diff(want.Diagnostics, got[i].Findings); diff != "" {
			t.Errorf("%s: the page's findings differ from the command line's (-cli +page):\n%s", p, diff)
		}
		findings += len(want.Diagnostics)
	}
	t.Logf("%d configurations, %d findings, the same in the page as on the command line", len(mains), findings)
	if findings == 0 {
		t.Errorf("no findings at all: the comparison compared nothing")
	}

	// route: the page's answers are nginx-lint route --no-files's (the
	// page holds no web roots), request options as its flags.
	answers := map[string]bool{}
	for i, c := range routeCases {
		g := got[len(mains)+i]
		args := append([]string{"route", "-f", "json", "--no-files"}, c.flags...)
		args = append(append(args, c.config), routeURLs...)
		cli := exec.Command(bin, args...)
		cli.Dir = repo
		out, err := cli.Output()
		if err != nil {
			t.Errorf("nginx-lint %s: %v", strings.Join(args, " "), err)
			continue
		}
		var want []report.Route
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatalf("nginx-lint %s: %v", strings.Join(args, " "), err)
		}
		if g.Error != "" {
			t.Errorf("route %v: the page's route failed: %s", c.options, g.Error)
			continue
		}
		if diff := cmp.Diff(want, g.Routes); diff != "" {
			t.Errorf("nginx-lint %s: the page's answers differ (-cli +page):\n%s", strings.Join(args, " "), diff)
		}
		for _, r := range want {
			switch {
			case r.Server == nil:
				answers["refused"] = true
			case r.Handler.Kind == "close":
				answers["close"] = true
			default:
				answers[strconv.Itoa(r.Status)] = true
			}
		}
	}
	// The cases tell the options apart: the client's address decides
	// /admin/ (403 or on to try_files' 404), no Host meets the default
	// server (444, the connection closed), an unknown port or socket is
	// refused.
	for _, a := range []string{"301", "403", "404", "close", "refused"} {
		if !answers[a] {
			t.Errorf("no route case answered %s: the cases do not exercise the request options (%v)", a, answers)
		}
	}
	t.Logf("route: %d requests, the same answers in the page as on the command line", len(routeCases)*len(routeURLs))
}

// routeURLs are the requests routeCases route.
var routeURLs = []string{
	"http://shop.example/cart", "https://shop.example/api/v2/orders", "https://shop.example/admin/users",
	"https://shop.example/catalog/12/", "http://elsewhere.test/", "http://shop.example:8080/",
}

// routeCases are route's request options, as the page sends them and as
// nginx-lint route's flags.
var routeCases = []struct {
	config  string
	options map[string]any
	flags   []string
}{
	{"testdata/route/shop.conf", nil, nil},
	{"testdata/route/shop-pr.conf", nil, nil},
	{"testdata/route/shop.conf", map[string]any{"remote": "10.1.2.3"}, []string{"--remote", "10.1.2.3"}},
	{"testdata/route/shop.conf", map[string]any{"remote": "203.0.113.9", "method": "POST"}, []string{"--remote", "203.0.113.9", "--method", "POST"}},
	{"testdata/route/shop.conf", map[string]any{"headers": []string{"Host: www.shop.example", "X-Forwarded-For: 10.0.0.1"}},
		[]string{"-H", "Host: www.shop.example", "-H", "X-Forwarded-For: 10.0.0.1"}},
	{"testdata/route/shop.conf", map[string]any{"noHost": true}, []string{"--no-host"}},
	{"testdata/route/shop.conf", map[string]any{"local": "127.0.0.1:443"}, []string{"--local", "127.0.0.1:443"}},
	{"testdata/route/shop.conf", map[string]any{"local": "unix:/run/nginx.sock"}, []string{"--local", "unix:/run/nginx.sock"}},
}

// TestWebPage builds the site with editors/web/build, serves it on
// 127.0.0.1, and drives Debian's Chromium, headless, through
// web/test/page.test.mjs with playwright-core: typing, findings at their
// lines, the quick fix, Apply fixes, Format, the link, the 20,000-server
// example's estimate and the page offline. It logs the two latencies that
// docs/benchmarks.md reports. .ci/run installs chromium and runs npm ci
// in editors/web.
func TestWebPage(t *testing.T) {
	node := require(t, "node", "apt-get install nodejs npm")
	chromium := require(t, "chromium", "apt-get install chromium")
	dir, err := filepath.Abs("web")
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range []string{"playwright-core", "esbuild", "codemirror"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", dep, "package.json")); err != nil {
			missing(t, "%s is not installed in editors/web (run `npm ci` there)", dep)
		}
	}
	site := t.TempDir()
	cmd := exec.Command(filepath.Join(dir, "build"), site)
	if out, err := run(t, 10*time.Minute, cmd); err != nil {
		t.Fatalf("editors/web/build: %v\n%s", err, out)
	}
	for _, f := range []string{"index.html", "main.js", "worker.js", "sw.js", "style.css", "wasm_exec.js", "nginx-lint.wasm"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("the site has no %s", f)
		}
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(site)), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	defer srv.Close()

	// Screenshots of a failure are kept: in a directory of their own that
	// outlives the test when it fails.
	shots, err := os.MkdirTemp("", "nginx-lint-web-shots-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			os.RemoveAll(shots)
		}
	})
	cmd = exec.Command(node, filepath.Join("test", "page.test.mjs"))
	cmd.Dir = dir
	cmd.Env = append(env(t, t.TempDir()), "NGINX_LINT_PAGE="+fmt.Sprintf("http://%s/", l.Addr()), "CHROMIUM="+chromium, "NGINX_LINT_SHOTS="+shots)
	out, err := run(t, 8*time.Minute, cmd)
	t.Logf("page.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the page failed in Chromium (screenshots in %s): %v", shots, err)
	}
	i := bytes.LastIndex(out, []byte("\nRESULT "))
	if i < 0 {
		t.Fatalf("page.test.mjs printed no RESULT")
	}
	var res map[string]float64
	if err := json.Unmarshal(bytes.TrimSpace(out[i+len("\nRESULT "):]), &res); err != nil {
		t.Fatalf("RESULT: %v", err)
	}
	t.Logf("first findings %.0f ms after navigation (lint %.0f ms), the typed configuration linted in %.0f ms; the 20,000-server L2c linted in %.0f ms (%.0f ms from request to findings); longest task while typing in it %.0f ms",
		res["firstLintAfterLoadMs"], res["firstLintWorkerMs"], res["typedLintMs"], res["lint20kMs"], res["lint20kRoundTripMs"], res["typing20kLongestTaskMs"])
}

// TestWebPagesWorkflow: the Pages workflow builds the page from a
// published release with the command editors/web/README.md documents,
// and the README links the page where the workflow publishes it.
func TestWebPagesWorkflow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", ".github", "workflows", "pages.yml"))
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		With map[string]string `yaml:"with"`
	}
	var wf struct {
		On struct {
			Release struct {
				Types []string `yaml:"types"`
			} `yaml:"release"`
		} `yaml:"on"`
		Jobs map[string]struct {
			Needs string `yaml:"needs"`
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("pages.yml: %v", err)
	}
	if !slices.Contains(wf.On.Release.Types, "published") {
		t.Errorf("pages.yml does not run on a published release: %v", wf.On.Release.Types)
	}
	var built, uploaded, deployed bool
	for _, s := range wf.Jobs["build"].Steps {
		if s.Uses == "actions/checkout@v4" && !strings.Contains(s.With["ref"], "github.event.release.tag_name") {
			t.Errorf("pages.yml checks out %q, not the release's tag", s.With["ref"])
		}
		built = built || strings.TrimSpace(s.Run) == "editors/web/build _site"
		uploaded = uploaded || strings.HasPrefix(s.Uses, "actions/upload-pages-artifact@") && s.With["path"] == "_site"
	}
	for _, s := range wf.Jobs["deploy"].Steps {
		deployed = deployed || strings.HasPrefix(s.Uses, "actions/deploy-pages@")
	}
	if !built || !uploaded || !deployed || wf.Jobs["deploy"].Needs != "build" {
		t.Errorf("pages.yml: built with editors/web/build %v, uploaded %v, deployed after the build %v", built, uploaded, deployed && wf.Jobs["deploy"].Needs == "build")
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Pages publishes github.com/OWNER/REPO at OWNER.github.io/REPO/.
	if !bytes.Contains(readme, []byte("(https://nginx-lint.github.io/nginx-lint/)")) {
		t.Errorf("README.md does not link the page")
	}
}
