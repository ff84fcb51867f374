package lint_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// tokensLimit is the option of the test rule below, declared as a rule's
// file declares one.
var tokensLimit = analyzer.IntOption("limit", 1, "A number the test rule reports.")

// TestNewRuleNeedsNoLists: what a rule is, is said on the rule, and the
// lint derives the rest. Rules unknown to this package, marked Refuses,
// Host and Cost, with a typed option, behave as the built-in ones do
// without any list here: a refusal drops the follow-on finding on its
// directive, the rule that checks this machine runs only with
// CheckFiles, the estimate runs only the cost rule, and the option is
// read with its type.
func TestNewRuleNeedsNoLists(t *testing.T) {
	rule := func(code, name string, sev parser.Severity, run func(*analyzer.Pass)) *analyzer.Rule {
		return &analyzer.Rule{Code: code, Name: name, Title: "a test rule", Severity: sev, Run: run,
			Doc: analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"}}
	}
	on := func(name string, p *analyzer.Pass, arg bool, format string, args ...any) {
		p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
			if arg {
				p.Reportf(d.File, d.Args()[0].Range, format, args...)
			} else {
				p.ReportDirective(d, format, args...)
			}
		}, name)
	}
	refuser := rule("NL2991", "test-refuser", parser.Error, func(p *analyzer.Pass) { on("gzip", p, false, "refused") })
	refuser.Refuses = true
	follower := rule("NL3991", "test-follower", parser.Warning, func(p *analyzer.Pass) { on("gzip", p, true, "follows") })
	host := rule("NL2992", "test-host", parser.Error, func(p *analyzer.Pass) { on("server_tokens", p, false, "on this machine") })
	host.Host, host.Options = true, []analyzer.Option{analyzer.CheckFilesOption.Decl()}
	cost := rule("NL4991", "test-cost", parser.Warning, func(p *analyzer.Pass) {
		on("server_tokens", p, false, "costs more than %d", tokensLimit.Get(p))
	})
	cost.Cost, cost.Options = true, []analyzer.Option{tokensLimit.Decl()}
	reg, err := analyzer.NewRegistry(refuser, follower, host, cost)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"nginx.conf": "events {}\nhttp {\n    gzip on;\n    server_tokens off;\n}\n"})
	path := filepath.Join(dir, "nginx.conf")
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	names := func(ds []*parser.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			out = append(out, fmt.Sprintf("%s: %s", d.Name, d.Message))
		}
		return out
	}
	ds, _ := lint.Run(c, reg, analyzer.Options{})
	if got, want := names(ds), []string{"test-refuser: refused", "test-cost: costs more than 1"}; !slices.Equal(got, want) {
		t.Errorf("lint: %q, want %q", got, want)
	}
	ds, _ = lint.Run(c, reg, analyzer.Options{CheckFiles: true, RuleOptions: map[string]map[string]any{"test-cost": {"limit": 3}}})
	if got, want := names(ds), []string{"test-refuser: refused", "test-host: on this machine", "test-cost: costs more than 3"}; !slices.Equal(got, want) {
		t.Errorf("lint with check-files and an option: %q, want %q", got, want)
	}
	ests, _, err := (&lint.Workspace{Registry: reg, NoSettings: true, CheckFiles: true}).Estimate([]lint.Target{{Path: path}})
	if err != nil || len(ests) != 1 {
		t.Fatalf("%v %d", err, len(ests))
	}
	if got, want := names(ests[0].Findings), []string{"test-cost: costs more than 1"}; !slices.Equal(got, want) {
		t.Errorf("estimate: %q, want %q", got, want)
	}
}
