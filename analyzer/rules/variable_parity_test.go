package rules_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestDuplicateVariableParity defines every embedded variable of the
// table again, in its own family (http or stream), with map and with set,
// and lets the real nginx label each: where nginx says `the duplicate
// "x" variable` at a line, builtin-variable-redefined must report an
// error at that line with nginx's message; where nginx accepts, no error
// from it.
func TestDuplicateVariableParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx about a thousand times")
	}
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	loads, loaded := dynamicModules(info)
	opts := analyzer.Options{Target: analyzer.BuildTarget(loaded)}
	type varCase struct{ how, src string }
	var cases []varCase
	seen := map[string]bool{}
	for _, v := range directives.AllVariables() {
		if v.Prefix || v.ThirdParty {
			continue
		}
		fam := "http"
		if v.Stream {
			fam = "stream"
		}
		load, ok := loads[fam]
		if fam == "stream" && !ok {
			continue // no stream module to load
		}
		if seen[fam+v.Name] {
			continue
		}
		seen[fam+v.Name] = true
		// The line under test is 3 in every form, after the load line.
		head := "events {}\n" + fam + " {\n"
		if load != "" {
			head = strings.TrimSuffix(load, "\n") + " events {}\n" + fam + " {\n"
		}
		cases = append(cases,
			varCase{"map $" + v.Name + " in " + fam, head + "    map $remote_addr $" + v.Name + " { default 1; }\n}\n"})
		if fam == "http" {
			cases = append(cases, varCase{"set $" + v.Name, head + "    server { listen 127.0.0.1:20999; set $" + v.Name + " 1; }\n}\n"})
		} else {
			cases = append(cases, varCase{"stream set $" + v.Name, head + "    server { listen 127.0.0.1:20999; set $" + v.Name + " 1; return x; }\n}\n"})
		}
	}
	dir := t.TempDir()
	paths := make([]string, len(cases))
	for i, c := range cases {
		paths[i] = filepath.Join(dir, fmt.Sprintf("v%04d", i), "nginx.conf")
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(paths[i], []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	counts := map[string]int{}
	for i, run := range runAll(context.Background(), nginx, paths) {
		c := cases[i]
		if run.err != nil {
			t.Fatalf("%s: %v", c.how, run.err)
		}
		ours, err := lintValues(run.path, opts)
		if err != nil {
			t.Fatal(err)
		}
		var errs []*parser.Diagnostic
		for _, d := range ours {
			if d.Severity == parser.Error && d.Name == rules.BuiltinVariableRedefined.Name {
				errs = append(errs, d)
			}
		}
		nerrs := run.res.Errors()
		switch {
		case len(nerrs) == 0:
			counts["nginx accepts"]++
			if len(errs) > 0 {
				t.Errorf("%s: nginx accepts, we report %v\n%s", c.how, errs[0], numberedLines(c.src))
			}
		case strings.HasPrefix(nerrs[0].Text, "the duplicate "):
			counts["nginx: the duplicate variable"]++
			found := false
			for _, d := range errs {
				found = found || d.Start().Line == nerrs[0].Line && d.Message == nerrs[0].Text
			}
			if !found {
				t.Errorf("%s: nginx: %s; we report %v\n%s", c.how, nerrs[0], errs, numberedLines(c.src))
			}
		default:
			counts["nginx stops on another error"]++
		}
	}
	logCounts(t, "duplicate variables", counts)
	if counts["nginx: the duplicate variable"] < 100 || counts["nginx accepts"] < 100 {
		t.Errorf("too few or one-sided cases: %v", counts)
	}
}
