package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestCostFix: cost --diff prints the rewrite and leaves the file, cost
// --fix writes it, and the written file has one socket where it had one
// per server; the wildcard listen opens the port on every address, so
// it takes --wildcard, and the report says so.
func TestCostFix(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 40}))
	path := writeTemp(t, "nginx.conf", src)
	code, out, errOut := runCLI(t, "", "cost", "--diff", path)
	if code != exitClean || out != "" || !strings.Contains(errOut, "not applied: port 20000: one wildcard socket for its 40 addresses") ||
		!strings.Contains(errOut, "it would open 0.0.0.0:20000 on every address of the machine, where the configuration listens on 40 addresses only: a change of routing; --wildcard applies it") {
		t.Fatalf("--diff without --wildcard: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "cost", "--diff", "--wildcard", path)
	if code != exitFindings || !strings.Contains(out, "+        listen 20000;\n") || !strings.Contains(out, "+        return 444;\n") {
		t.Fatalf("--diff: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "applied: port 20000: one wildcard socket for its 40 addresses") || !strings.Contains(errOut, "listening sockets at start 40 → 1") {
		t.Errorf("--diff report:\n%s", errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Fatal("--diff changed the file")
	}
	code, out, errOut = runCLI(t, "", "cost", "--fix", "--wildcard", path)
	if code != exitClean {
		t.Fatalf("--fix: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "routing: every request served before goes to the same server, location and handler (") ||
		!strings.Contains(out, "as --wildcard accepted, nginx now listens on 0.0.0.0:20000, every address of the machine") {
		t.Errorf("--fix report:\n%s", out)
	}
	_, out, _ = runCLI(t, "", "cost", "--format", "json", path)
	var js struct {
		Sockets struct{ Start int } `json:"sockets"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || js.Sockets.Start != 1 {
		t.Errorf("after --fix: sockets.start %d (%v)", js.Sockets.Start, err)
	}
	if code, _, errOut := runCLI(t, "", "cost", "--fix", "--format", "json", path); code != exitUsage || !strings.Contains(errOut, "--format json") {
		t.Errorf("--fix --format json: exit %d, %s", code, errOut)
	}
	// Again: nothing left to do.
	_, out, _ = runCLI(t, "", "cost", "--diff", "--wildcard", path)
	if out != "" {
		t.Errorf("a second --diff:\n%s", out)
	}
}

// TestCostFixAssumeHost: the name-based rewrite is listed with the
// requests it moves, and applied only under --assume-host.
func TestCostFixAssumeHost(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 5}))
	path := writeTemp(t, "nginx.conf", src)
	_, _, errOut := runCLI(t, "", "cost", "--diff", path)
	if !strings.Contains(errOut, "not applied: port 20000: serve its 5 addresses from one wildcard address") ||
		!strings.Contains(errOut, "- a request to 127.0.0.2:20000 without Host or with an unknown Host goes to server perf-test-00001.example") {
		t.Errorf("name-based rewrite not listed:\n%s", errOut)
	}
	_, out, errOut := runCLI(t, "", "cost", "--diff", "--assume-host", "--wildcard", path)
	if !strings.Contains(out, "-        listen 127.0.0.2:20000;\n+        listen 20000;\n") || !strings.Contains(errOut, "applied: port 20000: serve its 5 addresses") {
		t.Errorf("--assume-host --wildcard:\n%s\n%s", out, errOut)
	}
	if _, out, errOut := runCLI(t, "", "cost", "--diff", "--assume-host", path); out != "" || !strings.Contains(errOut, "--assume-host --wildcard apply it") {
		t.Errorf("--assume-host alone:\n%s\n%s", out, errOut)
	}
}

// TestCostVerify: cost --verify runs the real nginx before and after the
// rewrite and reports every sampled request answered alike.
func TestCostVerify(t *testing.T) {
	ngx := nginxtest.Require(t)
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 60}))
	path := writeTemp(t, "nginx.conf", src)
	code, out, errOut := runCLI(t, "", "cost", "--verify", "--wildcard", "--nginx", ngx, path)
	if strings.Contains(errOut, "unshare failed") && os.Getenv("CI") != "true" {
		t.Skipf("skipping: %s", errOut)
	}
	if code != exitClean {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"listening sockets  60 ", "152 answered alike, 0 differ", "predicted 152 of 152 answers right"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Error("--verify changed the file")
	}
}
