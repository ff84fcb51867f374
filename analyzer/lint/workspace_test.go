package lint_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

func codes(ds []*parser.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+" "+filepath.Base(d.FilePath()))
	}
	return out
}

// TestTargets: a directory gives its *.conf files and Debian's site files
// (no extension), hidden ones and ModSecurity's aside, each with the conf prefix of its
// nearest nginx.conf; a directory with none is a usage error.
func TestTargets(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf":              "events {}\n",
		"sites-enabled/example":   "server {}\n",
		"conf.d/a.conf":           "server {}\n",
		".git/x.conf":             "x;\n",
		"README":                  "not a config\n",
		"empty/sub/notes.txt":     "x\n",
		"other/nginx.conf":        "events {}\n",
		"other/snippets/ssl.conf": "ssl_protocols TLSv1.2;\n",
		// ModSecurity's files as Debian's libnginx-mod-http-modsecurity
		// installs them: not nginx's, skipped; a file of nginx's whose
		// name only resembles them is kept.
		"modsecurity.conf":          "# ModSecurity\n\nSecRuleEngine DetectionOnly\nSecRequestBodyAccess On\n",
		"modsecurity_includes.conf": "include modsecurity.conf\n#include /usr/share/modsecurity-crs/owasp-crs.load\n",
		"conf.d/crs-setup.conf":     "\tSecAction \"id:900000,phase:1,pass,nolog\"\n",
		"conf.d/security.conf":      "add_header X-Frame-Options DENY;\n",
	})
	ts, err := lint.Targets([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tg := range ts {
		rel, _ := filepath.Rel(dir, tg.Path)
		prefix, _ := filepath.Rel(dir, tg.Prefix)
		got[rel] = prefix
		if !tg.FromDir || tg.Root != dir {
			t.Errorf("%s: FromDir %v Root %q", rel, tg.FromDir, tg.Root)
		}
	}
	want := map[string]string{"nginx.conf": ".", "sites-enabled/example": ".", "conf.d/a.conf": ".",
		"other/nginx.conf": "other", "other/snippets/ssl.conf": "other", "conf.d/security.conf": "."}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: prefix %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	_, err = lint.Targets([]string{filepath.Join(dir, "empty")})
	var ue *lint.UsageError
	if !errors.As(err, &ue) {
		t.Errorf("empty directory: %v, want a usage error", err)
	}
}

// TestLintThroughIncluder: a site given beside the nginx.conf that
// includes it is linted once, through it; its finding is reported once.
func TestLintThroughIncluder(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf":      "events {}\nhttp {\n    include sites/*.conf;\n}\n",
		"sites/site.conf": "server {\n    listen 127.0.0.1:8080;\n    bogus_directive on;\n}\n",
	})
	w := &lint.Workspace{}
	ts, err := lint.Targets([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := w.Lint(ts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Units) != 1 || filepath.Base(rep.Units[0].Config.Main.Path) != "nginx.conf" {
		t.Fatalf("entries %d", len(rep.Units))
	}
	n := 0
	for _, d := range rep.Findings {
		if d.Code == rules.UnknownDirective.Code {
			n++
		}
	}
	if n != 1 {
		t.Errorf("unknown directive reported %d times: %v", n, codes(rep.Findings))
	}
}

// TestSettingsDiscovery: the settings file upward from a file applies,
// but not above the Bound; --config style fixed settings win; a settings
// file that does not parse is a usage error on the command line and a
// tolerated problem in an editor.
func TestSettingsDiscovery(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		".nginx-lint.yaml":        "rules:\n  unknown-directive: off\n",
		"ws/nginx.conf":           "events {}\nbogus_directive on;\n",
		"broken/.nginx-lint.yaml": "rules: [\n",
		"broken/nginx.conf":       "events {}\n",
	})
	conf := filepath.Join(dir, "ws", "nginx.conf")
	lintOne := func(w *lint.Workspace, p string) ([]*parser.Diagnostic, error) {
		rep, err := w.Lint([]lint.Target{{Path: p}})
		if err != nil {
			return nil, err
		}
		return rep.Findings, nil
	}
	ds, err := lintOne(&lint.Workspace{}, conf)
	if err != nil || len(ds) != 0 {
		t.Errorf("settings above: %v %v, want the rule off", err, codes(ds))
	}
	ds, err = lintOne(&lint.Workspace{Bound: filepath.Join(dir, "ws")}, conf)
	if err != nil || len(ds) != 1 || ds[0].Code != rules.UnknownDirective.Code {
		t.Errorf("settings above the bound applied: %v %v", err, codes(ds))
	}
	ds, err = lintOne(&lint.Workspace{NoSettings: true}, conf)
	if err != nil || len(ds) != 1 {
		t.Errorf("no settings: %v %v", err, codes(ds))
	}
	broken := filepath.Join(dir, "broken", "nginx.conf")
	_, err = lintOne(&lint.Workspace{}, broken)
	var ue *lint.UsageError
	if !errors.As(err, &ue) {
		t.Errorf("broken settings: %v, want a usage error", err)
	}
	var told []string
	w := &lint.Workspace{Tolerate: func(err error) { told = append(told, err.Error()) }}
	if _, err := lintOne(w, broken); err != nil || len(told) != 1 {
		t.Errorf("tolerated: %v, told %q", err, told)
	}
	_, err = lintOne(&lint.Workspace{Disable: []string{"unknwn-directive"}}, conf)
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "unknown-directive") {
		t.Errorf("--disable with a typo: %v, want a usage error naming the rule", err)
	}
}

// TestLintFileAndIncludePaths: a site open in an editor (unsaved text in
// the overlay) is linted through the nginx.conf above it that includes it
// by an absolute path the settings' include-paths map: the command line
// and the editor entry points give the same findings.
func TestLintFileAndIncludePaths(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		".nginx-lint.yaml": "include-paths:\n  /etc/nginx/: ./\n",
		"nginx.conf":       "events {}\nhttp {\n    include /etc/nginx/sites/*.conf;\n}\n",
		"sites/a.conf":     "server {\n    listen 127.0.0.1:8080;\n}\n",
	})
	site := filepath.Join(dir, "sites", "a.conf")
	unsaved := "server {\n    listen 127.0.0.1:8080;\n    bogus_directive on;\n}\n"
	w := &lint.Workspace{Bound: dir, Overlay: map[string][]byte{site: []byte(unsaved)}}
	rep, err := w.LintFile(site)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unit == nil || rep.Unit.Config.Main.Path != filepath.Join(dir, "nginx.conf") || rep.UnitFile.Path != site {
		t.Fatalf("not linted through its includer: %+v", rep.Unit)
	}
	if got := codes(rep.Findings); len(got) != 1 || got[0] != rules.UnknownDirective.Code+" a.conf" {
		t.Errorf("editor findings %v", got)
	}
	cli, err := w.Lint([]lint.Target{{Path: filepath.Join(dir, "nginx.conf")}, {Path: site}})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := strings.Join(codes(cli.Findings), ","), strings.Join(codes(rep.Findings), ","); a != b {
		t.Errorf("command line %s, editor %s", a, b)
	}
	// The cost model is the configuration's: both servers' listens.
	if m := rep.Unit.CostModel(); m.Counts.Servers != 1 || m != rep.Unit.CostModel() {
		t.Errorf("cost model: %d servers, cached %v", m.Counts.Servers, m == rep.Unit.CostModel())
	}
	// Lint keeps no run's results: the entry's model is computed when
	// asked, the same as the editor's.
	if len(cli.Units) != 1 {
		t.Fatalf("%d entries, want the includer only", len(cli.Units))
	}
	if m := cli.Units[0].CostModel(); m.Counts.Servers != 1 || m != cli.Units[0].CostModel() {
		t.Errorf("command line cost model: %d servers, cached %v", m.Counts.Servers, m == cli.Units[0].CostModel())
	}
}

// TestEstimateOneModel: the estimate's model is the one the cost rules
// computed, and Unit.CostModel gives that one, not a second.
func TestEstimateOneModel(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    server { listen 127.0.0.1:8080; server_name a; }\n    server { listen 127.0.0.2:8080; server_name b; }\n}\n",
	})
	w := &lint.Workspace{Cost: costOptionsNoFile(10)}
	ests, _, err := w.Estimate([]lint.Target{{Path: filepath.Join(dir, "nginx.conf")}})
	if err != nil || len(ests) != 1 {
		t.Fatalf("%v %d", err, len(ests))
	}
	e := ests[0]
	if e.Model != e.Unit.CostModel() || e.Model.Counts.Servers != 2 || !e.NoFileGiven {
		t.Errorf("model %p vs %p, %d servers, nofile given %v", e.Model, e.Unit.CostModel(), e.Model.Counts.Servers, e.NoFileGiven)
	}
	if e.Model.Options.NoFile != 10 || e.Model.Options.CPUs == 0 {
		t.Errorf("host facts %+v", e.Model.Options)
	}
}

func costOptionsNoFile(n int) (o costmodel.Options) {
	o.NoFile = n
	return o
}

// TestEstimateSuppressed: "nginx-lint cost" obeys the ignore comments a
// lint obeys, and a comment naming a rule cost does not run is neither
// unknown nor unused there.
func TestEstimateSuppressed(t *testing.T) {
	conf := "events { worker_connections 2; }\nhttp {\n    server { listen 127.0.0.1:8080; server_name a; }\n    server { listen 127.0.0.2:8080; server_name b; }\n}\n"
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"nginx.conf": conf})
	path := filepath.Join(dir, "nginx.conf")
	w := &lint.Workspace{Cost: costOptionsNoFile(10)}
	ests, _, err := w.Estimate([]lint.Target{{Path: path}})
	if err != nil || len(ests) != 1 || len(ests[0].Findings) == 0 {
		t.Fatalf("%v %d, want a cost finding to suppress", err, len(ests))
	}
	var names []string
	for _, d := range ests[0].Findings {
		names = append(names, d.Name)
	}
	header := "# nginx-lint file-ignore=" + strings.Join(names, ",") + ",version-disclosure the host is sized for it\n"
	testfiles.Write(t, dir, map[string]string{"nginx.conf": header + conf})
	ests, _, err = w.Estimate([]lint.Target{{Path: path}})
	if err != nil || len(ests) != 1 {
		t.Fatalf("%v %d", err, len(ests))
	}
	if len(ests[0].Findings) != 0 {
		t.Errorf("suppressed findings come back under cost: %v", ests[0].Findings)
	}
	rep, err := w.Lint([]lint.Target{{Path: path}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Units {
		for _, d := range e.Findings {
			if slices.Contains(names, d.Name) {
				t.Errorf("lint reports a suppressed finding: %v", d)
			}
		}
	}
}

// TestEstimateMatchesLint: "nginx-lint cost" and "nginx-lint" report the
// same cost findings for the same file: the rules' options from the
// settings, the ignore comments and the dedupe are applied on both paths.
func TestEstimateMatchesLint(t *testing.T) {
	dir := t.TempDir()
	var servers strings.Builder
	for i := 1; i <= 4; i++ {
		servers.WriteString("    server { listen 127.0.0." + string(rune('0'+i)) + ":8080; server_name s" + string(rune('0'+i)) + "; }\n")
	}
	testfiles.Write(t, dir, map[string]string{
		".nginx-lint.yaml": "rules:\n  listen-port-aggregation:\n    options: {max-addresses: 2}\n  listen-socket-count:\n    options: {max-sockets: 1}\n",
		"nginx.conf": "events { worker_connections 2; }\nhttp {\n" + servers.String() +
			"    server { listen 8080; server_name w; }\n" +
			"    # nginx-lint ignore=listen-bind-conflict the test says so\n" +
			"    server { listen 127.0.0.7:8080 bind; server_name b; }\n" +
			"    server { listen 127.0.0.8:8080 bind; server_name c; }\n" +
			"    include site.conf;\n}\n",
		"site.conf": "server { listen 127.0.0.9:8081; server_name site; }\n",
	})
	path := filepath.Join(dir, "nginx.conf")
	w := &lint.Workspace{Cost: costOptionsNoFile(6)}
	ests, _, err := w.Estimate([]lint.Target{{Path: path}})
	if err != nil || len(ests) != 1 {
		t.Fatalf("%v %d", err, len(ests))
	}
	rep, err := w.Lint([]lint.Target{{Path: path}})
	if err != nil || len(rep.Units) != 1 {
		t.Fatalf("%v %d", err, len(rep.Units))
	}
	render := func(ds []*parser.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			if strings.HasPrefix(d.Code, "NL4") {
				out = append(out, fmt.Sprintf("%s %s:%d %s %s", d.Code, filepath.Base(d.FilePath()), d.Start().Line, d.Severity, d.Message))
			}
		}
		slices.Sort(out)
		return out
	}
	cost, lnt := render(ests[0].Findings), render(rep.Units[0].Findings)
	distinct := map[string]bool{}
	for _, f := range cost {
		distinct[strings.Fields(f)[0]] = true
	}
	if len(distinct) < 3 {
		t.Fatalf("cost reports %d cost rules (%v): the comparison proves little", len(distinct), cost)
	}
	if strings.Join(cost, "\n") != strings.Join(lnt, "\n") {
		t.Errorf("cost reports:\n%s\nlint reports:\n%s", strings.Join(cost, "\n"), strings.Join(lnt, "\n"))
	}
	// The ignore comment covers the first bind, not the second.
	if got := strings.Join(slices.DeleteFunc(slices.Clone(cost), func(f string) bool { return !strings.HasPrefix(f, "NL4003") }), "\n"); !strings.HasPrefix(got, "NL4003 nginx.conf:10 ") || strings.Count(got, "\n") != 0 {
		t.Errorf("listen-bind-conflict: %q, want the unsuppressed line 10 alone", got)
	}
}

// TestContextLintsTheFragment: --context (Workspace.Context) lints a file
// named alone as a fragment of that context, not through the nginx.conf
// that includes it elsewhere; its relative includes still resolve against
// that nginx.conf's directory (the conf prefix), in the command line's
// lint and the editor's alike. Without it, the file is linted where
// nginx.conf includes it (in http, where location is not allowed).
func TestContextLintsTheFragment(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		"nginx.conf":            "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"conf.d/a.conf":         "location / {\n    include snippets/headers.conf;\n    return 204;\n}\n",
		"snippets/headers.conf": "add_header X-Frame-Options DENY;\n",
	})
	frag := filepath.Join(dir, "conf.d", "a.conf")
	lintAs := func(context string) []string {
		w := &lint.Workspace{NoSettings: true, Context: context}
		rep, err := w.Lint([]lint.Target{lint.FileTarget(frag)})
		if err != nil {
			t.Fatal(err)
		}
		fr, err := (&lint.Workspace{NoSettings: true, Context: context}).LintFile(frag)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := codes(rep.Findings), codes(fr.Findings); !slices.Equal(a, b) {
			t.Errorf("--context %q: the command line finds %v, the editor %v", context, a, b)
		}
		return codes(rep.Findings)
	}
	if got := lintAs(""); !slices.Contains(got, rules.DirectiveNotAllowed.Code+" a.conf") {
		t.Errorf("through nginx.conf (location in http): %v, want directive-not-allowed", got)
	}
	if got := lintAs("server"); len(got) != 0 {
		t.Errorf("--context server: %v, want nothing (the snippet found under the conf prefix)", got)
	}
	if got := lintAs("http"); !slices.Contains(got, rules.DirectiveNotAllowed.Code+" a.conf") {
		t.Errorf("--context http: %v, want directive-not-allowed", got)
	}
}

// TestUnitSymbols: the symbol table of a linted file's configuration is
// kept with the lint's results (a second call returns it again), and it
// sees the whole configuration: the site file's proxy_pass names the
// upstream that nginx.conf defines in another case.
func TestUnitSymbols(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf":   "events {}\nhttp {\n    upstream Backend { server 127.0.0.1:9000; }\n    include sites/*.conf;\n}\n",
		"sites/a.conf": "server {\n    listen 127.0.0.1:8080;\n    location / { proxy_pass http://backend; }\n}\n",
	})
	rep, err := (&lint.Workspace{Bound: dir}).LintFile(filepath.Join(dir, "sites", "a.conf"))
	if err != nil || rep.Unit == nil {
		t.Fatalf("%v %+v", err, rep)
	}
	tab := rep.Unit.Symbols()
	if tab != rep.Unit.Symbols() {
		t.Error("a second Symbols built another table")
	}
	var uses []string
	for _, o := range tab.Occurrences(symbols.UpstreamSymbol("backend", false)) {
		uses = append(uses, fmt.Sprintf("%s:%v", filepath.Base(o.File.Path), o.Def))
	}
	if got := strings.Join(uses, " "); got != "nginx.conf:true a.conf:false" && got != "a.conf:false nginx.conf:true" {
		t.Errorf("occurrences of upstream backend: %s", got)
	}
}

// TestLintBaseline: with a Baseline, Lint reports only the findings the
// baseline does not hold: none for the configuration it was written
// from, the one new copy of a line (the third identical finding).
func TestLintBaseline(t *testing.T) {
	dir := t.TempDir()
	conf := "events {}\nhttp {\n    gzipp on;\n    gzipp on;\n}\n"
	testfiles.Write(t, dir, map[string]string{"nginx.conf": conf})
	targets := []lint.Target{{Path: filepath.Join(dir, "nginx.conf")}}
	w := &lint.Workspace{NoSettings: true}
	rep, err := w.Lint(targets)
	if err != nil || len(rep.Findings) != 2 {
		t.Fatalf("%v %v", err, codes(rep.Findings))
	}
	w.Baseline = baseline.New(dir, rep.Findings)
	if rep, err = w.Lint(targets); err != nil || len(rep.Findings) != 0 {
		t.Errorf("the baseline's own configuration: %v %v", err, codes(rep.Findings))
	}
	testfiles.Write(t, dir, map[string]string{"nginx.conf": "events {}\nhttp {\n    gzipp on;\n    gzipp on;\n    gzipp on;\n}\n"})
	if rep, err = w.Lint(targets); err != nil || len(rep.Findings) != 1 || rep.Findings[0].Start().Line != 5 {
		t.Errorf("a third copy: %v %v", err, codes(rep.Findings))
	}
}
