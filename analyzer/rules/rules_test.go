package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
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
	return lintTextFor(t, src, nil)
}

// exampleTarget gives the nginx version a rule's examples are linted for,
// for rules that report only for an affected build.
var exampleTarget = map[string]string{"cve-config-pattern": "1.22.1"}

func lintTextFor(t *testing.T, src string, target *analyzer.Target) []*parser.Diagnostic {
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
	return lint.Run(c, rules.All(), analyzer.Options{Target: target})
}

// noExample lists findings no config text produces; other tests cover
// them: a crashing rule below, an unreadable path in the CLI tests.
var noExample = map[string]bool{"internal-error": true, "unreadable-file": true}

// TestExamples lints every rule's documented examples: the bad one must
// make the rule fire, the good one must leave it quiet.
func TestExamples(t *testing.T) {
	for _, r := range rules.All().Rules() {
		if noExample[r.Name] {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			var target *analyzer.Target
			if v, ok := exampleTarget[r.Name]; ok {
				target = &analyzer.Target{Version: v}
			}
			if !fires(lintTextFor(t, r.Doc.Bad, target), r) {
				t.Errorf("bad example does not fire:\n%s", r.Doc.Bad)
			}
			if ds := lintTextFor(t, r.Doc.Good, target); fires(ds, r) {
				t.Errorf("good example fires:\n%s\n%v", r.Doc.Good, ds)
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
	ds := analyzer.Run(&parser.Config{Main: f, Files: []*parser.File{f}}, reg, analyzer.Options{})
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
// in-tree module) accepts get no directive-table findings.
func TestCorpusValidConfigs(t *testing.T) {
	root := corpustest.Root(t)
	checked := 0
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" || e["nginx_t_head"] != "ok" {
			continue
		}
		checked++
		c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(filepath.Join(root, e["path"]))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range analyzer.Run(c, rules.All(), analyzer.Options{}) {
			switch d.Name {
			case "unknown-directive", "directive-not-allowed", "invalid-arguments":
				t.Errorf("%s: nginx accepts it, but %v", e["path"], d)
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d configs", checked)
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
	for _, d := range analyzer.Run(c, rules.All(), opts) {
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
