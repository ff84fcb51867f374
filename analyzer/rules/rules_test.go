package rules_test

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// lintText lints src written as nginx.conf in a temporary directory, the
// way the command line does: context inferred, includes followed, ignore
// comments applied.
func lintText(t *testing.T, src string) []*parser.Diagnostic {
	t.Helper()
	return lintTextWith(t, src, analyzer.Options{})
}

// lintTextWith is lintText with analyzer options.
func lintTextWith(t *testing.T, src string, opts analyzer.Options) []*parser.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	probe := parser.ParseString(path, src, nil)
	_, ancestors := analyzer.InferContext(probe)
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).LoadContext(path, ancestors)
	if err != nil {
		t.Fatal(err)
	}
	return lintFindings(c, rules.All(), opts)
}

// lintFindings is the one run, lint.Run, without its shared results.
func lintFindings(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options) []*parser.Diagnostic {
	ds, _ := lint.Run(c, reg, opts)
	return ds
}

// ruleFindings are the parser's findings and every rule's as reported,
// in lint.Run's order, but before the lint drops the follow-on findings
// of a refused directive and applies the ignore comments: the parity
// tests hold each rule to nginx's verdict, including what a refusal hides
// from the user.
func ruleFindings(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options) []*parser.Diagnostic {
	ds, _ := analyzer.RunRules(door.Key{}, c, reg, opts)
	var out []*parser.Diagnostic
	for _, d := range c.AllDiagnostics() {
		if !opts.Disabled[d.Name] {
			out = append(out, d)
		}
	}
	out = append(out, ds...)
	slices.SortStableFunc(out, func(a, b *parser.Diagnostic) int {
		return cmp.Or(strings.Compare(a.FilePath(), b.FilePath()), cmp.Compare(a.Range.Start, b.Range.Start), strings.Compare(a.Code, b.Code))
	})
	return out
}

// noExample lists findings no config text produces; other tests cover
// them: a crashing rule below, an unreadable path, limits and binary
// files in the CLI and parser tests.
var noExample = map[string]bool{"internal-error": true, "unreadable-file": true,
	"file-too-large": true, "total-size-limit": true, "binary-file": true, "include-limit": true}

// exampleOptions are the options a rule's examples are linted with: a
// rule that is off unless asked gets asked.
var exampleOptions = map[string]map[string]any{rules.MissingFile.Name: {analyzer.CheckFilesOption.Name(): true},
	rules.CertificateExpired.Name: {analyzer.CheckFilesOption.Name(): true}, rules.CertificateKeyMismatch.Name: {analyzer.CheckFilesOption.Name(): true},
	rules.CertificateChain.Name: {analyzer.CheckFilesOption.Name(): true}, rules.CertificateNameMismatch.Name: {analyzer.CheckFilesOption.Name(): true},
	rules.CertificateWeak.Name: {analyzer.CheckFilesOption.Name(): true},
	// The example's certificate expires in 2049: a window of a century
	// reaches it (and not the good example's, which never expires).
	rules.CertificateExpiring.Name: {analyzer.CheckFilesOption.Name(): true, "cert-expiry-days": 36500},
	rules.HostNotFound.Name:        {analyzer.CheckFilesOption.Name(): true}, rules.UnknownUser.Name: {analyzer.CheckFilesOption.Name(): true},
	rules.WorkerProcessesUnset.Name: {"report": true}}

// exampleTargets are the builds a rule's examples are linted for: a rule
// about build features says nothing without one.
var exampleTargets = map[string]*analyzer.Target{
	rules.UnsupportedByBuild.Name: {Configure: []string{"--with-threads"}},
	"cve-config-pattern":          {Version: "1.22.1"},
	"nginx-advisory":              {Version: "1.22.1"},
}

// TestExamples lints every rule's documented examples: the bad one must
// make the rule fire, the good one must leave it quiet.
func TestExamples(t *testing.T) {
	for _, r := range rules.All().Rules() {
		if noExample[r.Name] {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			opts := analyzer.Options{RuleOptions: map[string]map[string]any{r.Name: exampleOptions[r.Name]}, Target: exampleTargets[r.Name]}
			bad := lintTextWith(t, r.Doc.Bad, opts)
			if !fires(bad, r) {
				t.Errorf("bad example does not fire:\n%s", r.Doc.Bad)
			}
			good := lintTextWith(t, r.Doc.Good, opts)
			if fires(good, r) {
				t.Errorf("good example fires:\n%s\n%v", r.Doc.Good, good)
			}
			// TestFixesKeepNginxWorking (analyzer/fix) runs the fixes of
			// the rules marked Fixable through nginx: no other may fix.
			for _, d := range append(bad, good...) {
				if o := rules.All().Lookup(d.Code); len(d.Edits) > 0 && o != nil && !o.Fixable {
					t.Errorf("%s offers a fix but is not marked Fixable", d.Name)
				}
			}
		})
	}
}

func fires(ds []*parser.Diagnostic, r *analyzer.Rule) bool {
	for _, d := range ds {
		if d.Code == r.Code {
			return true
		}
	}
	return false
}

func TestRegistry(t *testing.T) {
	reg := rules.All()
	if reg.Lookup("unknown-directive") != rules.UnknownDirective || reg.Lookup("nl2001") != rules.UnknownDirective {
		t.Error("lookup by name or code failed")
	}
	bad := &analyzer.Rule{Code: "NL9001", Name: "x", Title: "t", Run: func(*analyzer.Pass) {}}
	if _, err := analyzer.NewRegistry(bad); err == nil {
		t.Error("invalid code accepted")
	}
	if _, err := analyzer.NewRegistry(rules.UnknownDirective, rules.UnknownDirective); err == nil {
		t.Error("duplicate accepted")
	}
}

func TestCrashingRuleIsContained(t *testing.T) {
	boom := &analyzer.Rule{Code: "NL5999", Name: "boom", Title: "crashes", Severity: parser.Warning,
		Run: func(*analyzer.Pass) { panic("kaboom") },
		Doc: analyzer.Doc{Text: "x", Bad: "x", Good: "x"}}
	reg, err := analyzer.NewRegistry(boom, rules.UnknownDirective)
	if err != nil {
		t.Fatal(err)
	}
	f := parser.ParseString("/x/nginx.conf", "events {}\nfoo_bar 1;\n", nil)
	ds := ruleFindings(&parser.Config{Main: f, Files: []*parser.File{f}}, reg, analyzer.Options{})
	var names []string
	for _, d := range ds {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, ","); got != "internal-error,unknown-directive" {
		t.Errorf("findings %s", got)
	}
}

func TestDirectiveRulesMessages(t *testing.T) {
	ds := lintText(t, "events {}\nhttp {\n    lisen 80;\n    listen 80;\n    gzip maybe;\n    root;\n}\n")
	var got []string
	for _, d := range ds {
		got = append(got, d.Name+": "+d.Message)
	}
	want := []string{
		`unknown-directive: unknown directive "lisen"; did you mean "listen"?`,
		`directive-not-allowed: "listen" directive is not allowed here`,
		`invalid-arguments: invalid value "maybe" in "gzip" directive, it must be "on" or "off"`,
		`invalid-arguments: invalid number of arguments in "root" directive`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCorpusValidConfigs: configs the current nginx (built with every
// in-tree module) accepts get no directive-table findings; configs
// Debian's 1.22.1 accepts get no invalid-value finding when linted for
// that version (whose enum words are fewer).
func TestCorpusValidConfigs(t *testing.T) {
	root := corpustest.Root(t)
	checked, checked122 := 0, 0
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" || e["nginx_t_head"] != "ok" && e["nginx_t"] != "ok" {
			continue
		}
		c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(filepath.Join(root, e["path"]))
		if err != nil {
			t.Fatal(err)
		}
		if e["nginx_t_head"] == "ok" {
			checked++
			for _, d := range ruleFindings(c, rules.All(), analyzer.Options{}) {
				switch d.Name {
				case "unknown-directive", "directive-not-allowed", "invalid-arguments", "invalid-value":
					t.Errorf("%s: nginx accepts it, but %v", e["path"], d)
				}
			}
		}
		if e["nginx_t"] == "ok" {
			checked122++
			opts := analyzer.Options{Target: &analyzer.Target{Version: "1.22.1"}}
			for _, d := range ruleFindings(c, rules.All(), opts) {
				if d.Name == "invalid-value" {
					t.Errorf("%s: nginx 1.22.1 accepts it, but %v", e["path"], d)
				}
			}
		}
	}
	if checked < 300 || checked122 < 300 {
		t.Fatalf("only %d configs (1.22.1: %d)", checked, checked122)
	}
}

// TestUnknownDirectiveForBuild: with the module list of an nginx build, a
// known directive of a module the build lacks is reported.
func TestUnknownDirectiveForBuild(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	src := "events {}\nhttp {\n    server {\n        http2 on;\n        location / {\n            memcached_pass 127.0.0.1:11211;\n            proxy_pass http://127.0.0.1;\n        }\n    }\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := buildinfo.Parse("nginx version: nginx/1.27.0\nconfigure arguments: --with-http_v2_module --without-http_memcached_module\n")
	if err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{Target: &analyzer.Target{Modules: info.Modules(), Version: "1.22.1"}}
	var got []string
	for _, d := range ruleFindings(c, rules.All(), opts) {
		got = append(got, fmt.Sprintf("%d: %s", d.Start().Line, d.Message))
	}
	want := "4: unknown directive \"http2\": nginx 1.22.1 predates it (since 1.25.1)\n" +
		"6: unknown directive \"memcached_pass\": this nginx build lacks its module"
	if strings.Join(got, "\n") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestEmptyNames: a quoted empty directive name, with or without a block,
// must not crash any rule.
func TestEmptyNames(t *testing.T) {
	for _, d := range lintText(t, "events {}\nhttp {\n    \"\" {\n        \"\" x;\n    }\n    server { \"\" { } }\n}\n") {
		if d.Name == "internal-error" {
			t.Errorf("crash: %v", d)
		}
	}
}

// TestInvalidValueForBuild: the target version decides which words and
// which handler hold (proxy_http_version 2 is 1.29.4's, proxy_limit_rate
// took variables in 1.27.0); the newest nginx is the default.
func TestInvalidValueForBuild(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	src := "events {}\nhttp {\n    server {\n        location / {\n            proxy_http_version 2;\n            proxy_limit_rate $rate;\n            server_tokens build;\n        }\n    }\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ version, want string }{
		{"", ""},
		{"1.29.4", ""},
		{"1.27.0", `5: invalid value "2"`},
		{"1.22.1", `5: invalid value "2"` + "\n" + `6: "proxy_limit_rate" directive invalid value`},
	} {
		opts := analyzer.Options{Target: &analyzer.Target{Version: tt.version}}
		var got []string
		for _, d := range ruleFindings(c, rules.All(), opts) {
			if d.Name == "invalid-value" {
				got = append(got, fmt.Sprintf("%d: %s", d.Start().Line, d.Message))
			}
		}
		if strings.Join(got, "\n") != tt.want {
			t.Errorf("nginx %q: got %q, want %q", tt.version, got, tt.want)
		}
	}
}

// unsupported-by-build follows the configure arguments of the build, and
// says nothing when they are unknown.
func TestUnsupportedByBuild(t *testing.T) {
	src := "events {}\nhttp {\n    aio on;\n    server {\n        aio threads=pool;\n    }\n}\n"
	for _, tc := range []struct {
		target *analyzer.Target
		want   []string
	}{
		{nil, nil},
		{&analyzer.Target{Configure: []string{"--with-threads", "--with-file-aio"}}, nil},
		{&analyzer.Target{Configure: []string{"--with-threads"}}, []string{`3: "aio on" is unsupported on this platform`}},
		{&analyzer.Target{Configure: []string{}}, []string{`3: "aio on" is unsupported on this platform`, `5: "aio threads" is unsupported on this platform`}},
	} {
		var got []string
		for _, d := range lintTextWith(t, src, analyzer.Options{Target: tc.target}) {
			if d.Name == rules.UnsupportedByBuild.Name {
				got = append(got, fmt.Sprintf("%d: %s", d.Start().Line, d.Message))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("target %+v: got %q, want %q", tc.target, got, tc.want)
		}
	}
}

// TestCustomVariables: the settings' custom-variables (names and prefix
// families, with or without "$", any case) count as defined, as
// custom-directives count as known.
func TestCustomVariables(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	src := "events {}\nhttp {\n    server {\n        listen 80;\n        return 200 \"$vendor_id $Vendor_Flag_a $vendor_other\";\n    }\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ruleFindings(c, rules.All(), analyzer.Options{CustomVariables: []string{"$vendor_id", "vendor_flag_*"}}) {
		if d.Name == rules.UnknownVariable.Name {
			got = append(got, d.Severity.String()+": "+d.Message)
		}
	}
	if want := []string{`error: unknown "vendor_other" variable`}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
