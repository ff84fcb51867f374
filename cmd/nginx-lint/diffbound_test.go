package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/report"
)

// prefixesAndRegexes is a server of n prefix locations and n regex
// locations not anchored at the start (the request set asks each
// regex's example below each prefix: n² requests a host), on
// 127.0.0.1:20000, and a small server on 127.0.0.2:20000 that cost
// --fix --wildcard would join to it on one wildcard socket. status is
// what the first regex location returns.
func prefixesAndRegexes(n, status int) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\nserver { listen 127.0.0.1:20000; server_name a.example;\n")
	for i := range n {
		st := 204
		if i == 0 {
			st = status
		}
		fmt.Fprintf(&b, "location /p%d/ { return 200; }\nlocation ~ \\.e%d$ { return %d; }\n", i, i, st)
	}
	b.WriteString("}\nserver { listen 127.0.0.2:20000; server_name b.example; location / { return 200; } }\n}\n")
	return b.String()
}

// TestDiffCutSaysSo: a diff whose request set passes its bound (500
// prefixes and 500 regexes: 756,000 requests unbounded) says, in text,
// Markdown and JSON, that its comparison is partial, still lists what
// changed in the requests it asked, and fails --fail-on-change even
// when none of them changed (exit 2): no change cannot be vouched for.
func TestDiffCutSaysSo(t *testing.T) {
	old := writeTemp(t, "old.conf", prefixesAndRegexes(500, 204))
	changed := writeTemp(t, "new.conf", prefixesAndRegexes(500, 205))
	code, out, errOut := runCLI(t, "", "diff", old, changed)
	if code != exitClean || !strings.HasPrefix(out, "partial comparison of "+changed+": the request set was cut after ") ||
		!strings.Contains(out, "the requests past it were not compared\n") || !strings.Contains(out, "/p0/nginx-lint-probe.e0") {
		t.Errorf("diff: exit %d\n%.600s\n%s", code, out, errOut)
	}
	var js struct {
		Requests       int
		Partial        bool
		Configurations []struct {
			Partial string
			Changes []struct{ URL string }
		}
	}
	code, out, errOut = runCLI(t, "", "diff", "-f", "json", old, changed)
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != exitClean || !js.Partial || len(js.Configurations) != 1 ||
		!strings.HasPrefix(js.Configurations[0].Partial, "the request set was cut") || len(js.Configurations[0].Changes) == 0 {
		t.Errorf("diff -f json: exit %d, %v, %+v %s", code, err, js, errOut)
	}
	// Cut well before the 756,000 requests the set holds.
	if js.Requests < 50_000 || js.Requests > 600_000 {
		t.Errorf("diff -f json: %d requests asked", js.Requests)
	}
	var md strings.Builder
	rep := report.Diff{Requests: 10, Partial: true, Configurations: []report.ConfigDiff{{Name: "new.conf", Requests: 10, Partial: "the request set was cut after 10 requests"}}}
	if err := report.WriteDiffMarkdown(&md, rep, 50); err != nil || !strings.HasPrefix(md.String(), "**Partial comparison** of `new.conf`: the request set was cut after 10 requests; the requests past it were not compared.\n\n**nginx-lint diff**: no change") {
		t.Errorf("markdown: %v\n%s", err, md.String())
	}
	if code, out, errOut := runCLI(t, "", "diff", "--fail-on-change", old, old); code != exitError ||
		!strings.Contains(out, "partial comparison") || !strings.Contains(errOut, "the comparison is partial") {
		t.Errorf("diff --fail-on-change of a cut comparison without change: exit %d\n%.300s\n%s", code, out, errOut)
	}
}

// TestCostFixRefusesCutProof: cost --fix does not write a rewrite whose
// proof that routing is unchanged was cut at its bound: the rewrite is
// listed as not applied with the reason, and the file is left.
func TestCostFixRefusesCutProof(t *testing.T) {
	src := prefixesAndRegexes(500, 204)
	path := writeTemp(t, "nginx.conf", src)
	code, out, errOut := runCLI(t, "", "cost", "--fix", "--wildcard", path)
	if code != exitClean || !strings.Contains(out, "not applied: port 20000: one wildcard socket for its 2 addresses") ||
		!strings.Contains(out, "the proof that routing is unchanged is too large: the request set was cut after ") ||
		strings.Contains(out, "routing: every request served before") {
		t.Errorf("cost --fix: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Error("cost --fix wrote a rewrite whose proof was cut")
	}
}
