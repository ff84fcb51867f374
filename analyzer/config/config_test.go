package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindUpward(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".nginx-lint.yaml"), "rules: {}\n")
	write(t, filepath.Join(dir, "a", "b", "nginx.conf"), "events {}\n")
	got, err := config.Find(filepath.Join(dir, "a", "b", "nginx.conf"))
	if err != nil || got != filepath.Join(dir, ".nginx-lint.yaml") {
		t.Errorf("Find = %q, %v", got, err)
	}
	// A nearer file wins.
	write(t, filepath.Join(dir, "a", ".nginx-lint.yml"), "rules: {}\n")
	if got, _ := config.Find(filepath.Join(dir, "a", "b")); got != filepath.Join(dir, "a", ".nginx-lint.yml") {
		t.Errorf("nearer file not preferred: %q", got)
	}
}

func TestParseAndApply(t *testing.T) {
	src := `
prefix: conf
include-paths:
  /etc/nginx: ./nginx
  /etc/nginx/conf.d/: ./confd
custom-directives: [vts_status]
custom-variables: [$vts_id, "vts_filter_*"]
rules:
  unknown-directive: error
  NL2002: off
  invalid-arguments:
    severity: info
  listen-socket-count:
    options: {max-sockets: 3}
`
	f, err := config.Parse("/repo/.nginx-lint.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Prefix != "/repo/conf" {
		t.Errorf("prefix %q", f.Prefix)
	}
	if got, _ := f.MapPath("/etc/nginx/conf.d/a.conf"); got != "/repo/confd/a.conf" {
		t.Errorf("longest prefix not used: %q", got)
	}
	if got, _ := f.MapPath("/etc/nginx/mime.types"); got != "/repo/nginx/mime.types" {
		t.Errorf("MapPath %q", got)
	}
	if _, ok := f.MapPath("/etc/nginx2/x"); ok {
		t.Error("prefix matched inside a directory name")
	}
	opts := analyzer.Options{Disabled: map[string]bool{}, Severity: map[string]parser.Severity{}, RuleOptions: map[string]map[string]any{}}
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if !opts.Disabled["directive-not-allowed"] {
		t.Error("rule keyed by code not disabled")
	}
	if opts.Severity["unknown-directive"] != parser.Error || opts.Severity["invalid-arguments"] != parser.Info {
		t.Errorf("severities %v", opts.Severity)
	}
	if opts.RuleOptions["listen-socket-count"]["max-sockets"] != 3 {
		t.Errorf("options %v", opts.RuleOptions)
	}
	if got := opts.CustomDirectives; !slices.Equal(got, []string{"vts_status"}) {
		t.Errorf("custom directives %v", got)
	}
	if got := opts.CustomVariables; !slices.Equal(got, []string{"vts_id", "vts_filter_*"}) {
		t.Errorf("custom variables %v", got)
	}
	if _, ok := opts.RuleOptions["unknown-directive"]["custom"]; ok {
		t.Error("custom-directives still written into the rule's options")
	}
}

func TestParseErrors(t *testing.T) {
	// Each error names the file and line, in the settings file's terms
	// (its keys, YAML kinds), with a suggestion for a misspelt key.
	for _, tt := range []struct{ src, want string }{
		{"prefix: x\nrulez: {}\n", `/r/.nginx-lint.yaml:2: unknown key "rulez", did you mean "rules"?`},
		{"custom-directive: [a]\n", `/r/.nginx-lint.yaml:1: unknown key "custom-directive", did you mean "custom-directives"?`},
		{"colour: red\n", `/r/.nginx-lint.yaml:1: unknown key "colour"`},
		{"rules:\n  unknown-directive: loud\n", `/r/.nginx-lint.yaml:2: rules: unknown-directive: "loud" is not on, off, error, warning or info`},
		{"rules:\n  unknown-directive: {severity: loud}\n", `/r/.nginx-lint.yaml:2: rules: unknown-directive: severity "loud" is not error, warning or info`},
		{"rules:\n  unknown-directive:\n    enable: false\n", `/r/.nginx-lint.yaml:3: rules: unknown-directive: unknown key "enable", did you mean "enabled"? (want enabled, severity, options)`},
		{"rules:\n  x: {enabled: maybe}\n", `/r/.nginx-lint.yaml:2: rules: x: enabled: "maybe" is not true or false`},
		{"include-paths:\n  etc/nginx: x\n", `/r/.nginx-lint.yaml:2: include-paths: "etc/nginx" is not an absolute path`},
		{"prefix: [a, b]\n", `/r/.nginx-lint.yaml:1: prefix: expected a single value, got a list`},
		{"custom-directives: vts\n", `/r/.nginx-lint.yaml:1: custom-directives: expected a list of directive names, got the value "vts"`},
		{"nginx-version: 1.22\n", `/r/.nginx-lint.yaml:1: nginx-version: "1.22" is not a version such as 1.22.1`},
		{"rules: [\n", `/r/.nginx-lint.yaml:1: did not find expected node content`},
		{"- a\n", `/r/.nginx-lint.yaml:1: the settings must be a mapping of keys`},
		{"prefix: a\nprefix: b\n", `/r/.nginx-lint.yaml:2: key "prefix" given twice`},
		{"fmt: tab\n", `/r/.nginx-lint.yaml:1: fmt: expected a mapping of indent, spacing, max-blank-lines, got the value "tab"`},
		{"fmt:\n  indent: 0\n", `/r/.nginx-lint.yaml:2: fmt: indent: "0" is not auto, tab or a number of spaces from 1 to 16`},
		{"fmt:\n  indent: [2]\n", `/r/.nginx-lint.yaml:2: fmt: indent: expected a single value, got a list`},
		{"fmt:\n  spacing: align\n", `/r/.nginx-lint.yaml:2: fmt: spacing: "align" is not keep or single`},
		{"fmt:\n  max-blank-lines: 0\n", `/r/.nginx-lint.yaml:2: fmt: max-blank-lines: "0" is not a number of lines from 1 up`},
		{"fmt:\n  tabs: true\n", `/r/.nginx-lint.yaml:2: fmt: unknown key "tabs"`},
		{"fmt:\n  indent: 2\n  indent: 4\n", `/r/.nginx-lint.yaml:3: fmt: key "indent" given twice`},
	} {
		_, err := config.Parse("/r/.nginx-lint.yaml", []byte(tt.src))
		if err == nil {
			t.Errorf("accepted %q", tt.src)
			continue
		}
		if !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q:\n got %v\nwant %s", tt.src, err, tt.want)
		}
		if strings.Contains(err.Error(), "config.") || strings.Contains(err.Error(), "unmarshal") {
			t.Errorf("%q: error speaks Go: %v", tt.src, err)
		}
	}
	f, err := config.Parse("/r/.nginx-lint.yaml", []byte("rules:\n  version-disclosure: off\n  ssl-weak: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{Disabled: map[string]bool{}, Severity: map[string]parser.Severity{}, RuleOptions: map[string]map[string]any{}}
	err = f.Apply(&opts, rules.All().Lookup)
	var ur *config.UnknownRuleError
	if !errors.As(err, &ur) || ur.Line != 3 || ur.Key != "ssl-weak" {
		t.Fatalf("unknown rule: %v", err)
	}
	ur.Suggestions = rules.All().Suggest(ur.Key)
	if want := `/r/.nginx-lint.yaml:3: rules: no rule "ssl-weak", did you mean "weak-ssl-tls"? (see nginx-lint rules)`; err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	for _, src := range []string{"", "# only a comment\n", "rules:\n"} {
		if _, err := config.Parse("/r/.nginx-lint.yaml", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestFmtSection reads the formatter's settings.
func TestFmtSection(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want parser.FormatOptions
	}{
		{"fmt:\n  indent: tab\n  spacing: single\n  max-blank-lines: 2\n", parser.FormatOptions{Tabs: true, Spacing: parser.SpacingSingle, MaxBlankLines: 2}},
		{"fmt:\n  indent: 2\n", parser.FormatOptions{Spaces: 2}},
		{"fmt:\n  indent: auto\n  spacing: keep\n", parser.FormatOptions{}},
		{"fmt:\n", parser.FormatOptions{}},
		{"prefix: x\n", parser.FormatOptions{}},
	} {
		f, err := config.Parse("/r/.nginx-lint.yaml", []byte(tt.src))
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if f.Fmt != tt.want {
			t.Errorf("%q: got %+v, want %+v", tt.src, f.Fmt, tt.want)
		}
	}
}

// TestCustomDirectivesReachTheRule checks the whole path: a name declared
// in the file silences unknown-directive.
func TestCustomDirectivesReachTheRule(t *testing.T) {
	src := "events {}\nhttp {\n    vts_status on;\n}\n"
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource("/x/nginx.conf", []byte(src), nil)
	count := func(opts analyzer.Options) int {
		n := 0
		ds, _ := lint.Run(c, rules.All(), opts)
		for _, d := range ds {
			if d.Name == "unknown-directive" {
				n++
			}
		}
		return n
	}
	if count(analyzer.Options{}) != 1 {
		t.Fatal("the example should fire without configuration")
	}
	f, _ := config.Parse("/x/.nginx-lint.yaml", []byte("custom-directives: [vts_status]\n"))
	opts := analyzer.Options{Disabled: map[string]bool{}, Severity: map[string]parser.Severity{}, RuleOptions: map[string]map[string]any{}}
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if n := count(opts); n != 0 {
		t.Errorf("custom directive still reported (%d)", n)
	}
	// The rule's own option keeps working, alone and beside the settings.
	src2 := "events {}\nhttp {\n    vts_status on;\n    my_flag on;\n}\n"
	c = (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource("/x/nginx.conf", []byte(src2), nil)
	if n := count(analyzer.Options{}); n != 2 {
		t.Fatalf("want 2 unknown directives without configuration, got %d", n)
	}
	own := analyzer.Options{RuleOptions: map[string]map[string]any{"unknown-directive": {"custom": []string{"my_flag"}}}}
	if n := count(own); n != 1 {
		t.Errorf("rule option alone: want 1 finding, got %d", n)
	}
	own.CustomDirectives = []string{"vts_status"}
	if n := count(own); n != 0 {
		t.Errorf("rule option and custom directives: want 0 findings, got %d", n)
	}
}

func TestMappedFS(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "nginx", "conf.d", "a.conf"), "server { listen 80; }\n")
	write(t, filepath.Join(dir, "nginx", "nginx.conf"), "events {}\nhttp { include /etc/nginx/conf.d/*.conf; include /etc/nginx/mime.types; include /etc/nginx/app.conf; }\n")
	f, err := config.Parse(filepath.Join(dir, ".nginx-lint.yaml"), []byte("include-paths:\n  /etc/nginx/: nginx/\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := &parser.Loader{FS: config.FS{Base: parser.OSFS{}, File: f}, Kinds: analyzer.Kinds}
	c, err := l.Load(filepath.Join(dir, "nginx", "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, file := range c.Files {
		paths = append(paths, file.Path)
	}
	want := []string{filepath.Join(dir, "nginx", "nginx.conf"), "/etc/nginx/conf.d/a.conf"}
	if !slices.Equal(paths, want) {
		t.Errorf("files %q, want %q", paths, want)
	}
	// app.conf is missing here too: reported with nginx's path.
	if len(c.Diagnostics) != 1 || !strings.Contains(c.Diagnostics[0].Message, "/etc/nginx/app.conf") {
		t.Errorf("diagnostics %v", c.Diagnostics)
	}
	// mime.types, a file of the nginx package, is the deployment host's.
	if !slices.Equal(c.Elsewhere, []string{"/etc/nginx/mime.types"}) {
		t.Errorf("elsewhere %q", c.Elsewhere)
	}
}

func TestRuleOptionsChecked(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"rules:\n  listen-socket-count:\n    options: {max-socket: 1}\n", `/r/.nginx-lint.yaml:3: rule "listen-socket-count" has no option "max-socket", did you mean "max-sockets"?`},
		{"rules:\n  listen-socket-count:\n    options:\n      max-sockets: many\n", `/r/.nginx-lint.yaml:4: rule "listen-socket-count": option "max-sockets" wants an integer, not the string "many"`},
		{"rules:\n  syntax-error:\n    options: {x: 1}\n", `rule "syntax-error" has no option "x" (it takes none)`},
		{"rules:\n  startup-budget:\n    options: {budget: soon}\n", `option "budget" wants a duration`},
	} {
		f, err := config.Parse("/r/.nginx-lint.yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		opts := analyzer.Options{}
		err = f.Apply(&opts, rules.All().Lookup)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestRuleOptionsConvertedAndRenamed(t *testing.T) {
	src := "rules:\n  origins:\n    options: {https_only: true, domains: example.com}\n  startup-budget:\n    options: {budget: 1.5}\n"
	f, err := config.Parse("/r/.nginx-lint.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{}
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if got := opts.RuleOptions["origins"]["https-only"]; got != true {
		t.Errorf("https_only not renamed: %v", opts.RuleOptions["origins"])
	}
	if got := opts.RuleOptions["origins"]["domains"]; !slices.Equal(got.([]string), []string{"example.com"}) {
		t.Errorf("domains %v", got)
	}
	if got := opts.RuleOptions["startup-budget"]["budget"]; got != 1500*time.Millisecond {
		t.Errorf("budget %v", got)
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], `option "https_only" is deprecated, write "https-only"`) {
		t.Errorf("warnings %q", f.Warnings)
	}
}

func TestFindWithin(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".nginx-lint.yaml"), "rules: {}\n")
	write(t, filepath.Join(dir, "ws", "a", "nginx.conf"), "events {}\n")
	ws := filepath.Join(dir, "ws")
	stop := func(d string) bool { return d == ws }
	if got, err := config.FindWithin(filepath.Join(ws, "a", "nginx.conf"), stop); err != nil || got != "" {
		t.Errorf("found %q above the bound (%v)", got, err)
	}
	write(t, filepath.Join(ws, ".nginx-lint.yml"), "rules: {}\n")
	if got, _ := config.FindWithin(filepath.Join(ws, "a"), stop); got != filepath.Join(ws, ".nginx-lint.yml") {
		t.Errorf("the bound's own file not found: %q", got)
	}
	// Only regular files count: a directory by the name is skipped.
	if err := os.MkdirAll(filepath.Join(ws, "a", ".nginx-lint.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := config.FindWithin(filepath.Join(ws, "a"), stop); got != filepath.Join(ws, ".nginx-lint.yml") {
		t.Errorf("a directory was taken for a settings file: %q", got)
	}
}

func TestNginxBuildSetting(t *testing.T) {
	f, err := config.Parse("/repo/.nginx-lint.yaml", []byte("nginx-build: ./nginx-V.txt\n"))
	if err != nil || f.NginxBuild != "/repo/nginx-V.txt" {
		t.Errorf("nginx-build %+v %v", f, err)
	}
}

// TestCostOptionsRunWide: the host facts the cost rules still accept as
// options (nonroot, nofile, cpus, kernel; deprecated for host:) go to the
// run's one Host, whichever rule they are written under, with a warning;
// two rules that disagree are a usage error with the line, since the run
// has one model.
func TestCostOptionsRunWide(t *testing.T) {
	src := "rules:\n  open-files-limit:\n    options: {nofile: 4096, nonroot: yes}\n" +
		"  listen-socket-count:\n    options: {max-sockets: 50, nofile: 4096, cpus: 8, kernel: \"5.15\"}\n"
	f, err := config.Parse("/r/.nginx-lint.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{}
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if want := (analyzer.Host{NonRoot: true, NoFile: 4096, CPUs: 8, Kernel: "5.15"}); opts.Host != want {
		t.Errorf("host facts %+v, want %+v", opts.Host, want)
	}
	if len(f.Warnings) != 5 || !strings.Contains(f.Warnings[0], `option "cpus" is deprecated: it describes the host, write it under host:`) {
		t.Errorf("warnings %q", f.Warnings)
	}
	// The rule's own option stays the rule's; the host facts do not.
	if ro := opts.RuleOptions["listen-socket-count"]; len(ro) != 1 || ro["max-sockets"] != 50 {
		t.Errorf("listen-socket-count options %v", ro)
	}
	if ro := opts.RuleOptions["open-files-limit"]; len(ro) != 0 {
		t.Errorf("open-files-limit options %v", ro)
	}

	src = "rules:\n  open-files-limit:\n    options: {nofile: 4096}\n  worker-connections:\n    options:\n      nofile: 1024\n"
	if f, err = config.Parse("/r/.nginx-lint.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	err = f.Apply(&analyzer.Options{}, rules.All().Lookup)
	if err == nil || !strings.Contains(err.Error(), `/r/.nginx-lint.yaml:6: rule "worker-connections": option "nofile" is 1024 here but 4096 for rule "open-files-limit"`) {
		t.Errorf("conflicting nofile: %v", err)
	}
}

// TestMappedFSLinks: a symbolic link of the mapped tree to an absolute
// path under a mapped prefix is read from the checkout; one to an
// absolute path no entry maps (Debian's modules-enabled ->
// /usr/share/nginx/modules-available) is the deployment host's file:
// parser.ErrElsewhere, whether or not this machine has a file there, and
// the loader takes its include as present but unseen (Config.Elsewhere,
// no finding). A link outside the mapped tree, and a relative one, are
// read as the disk has them.
func TestMappedFSLinks(t *testing.T) {
	dir := t.TempDir()
	here := filepath.Join(dir, "here.conf")
	write(t, here, "worker_processes 1;\n")
	write(t, filepath.Join(dir, "nginx", "sites-available", "a"), "server { listen 127.0.0.1:8080; }\n")
	write(t, filepath.Join(dir, "nginx", "nginx.conf"), "events {}\ninclude /etc/nginx/modules-enabled/*.conf;\nhttp { include /etc/nginx/sites-enabled/*; }\n")
	links := map[string]string{
		"nginx/sites-enabled/a":                 "/etc/nginx/sites-available/a",
		"nginx/sites-enabled/rel":               "../sites-available/a",
		"nginx/modules-enabled/50-absent.conf":  "/nonexistent/nginx-lint-test/mod-absent.conf",
		"nginx/modules-enabled/50-present.conf": here, // on this machine, not in the tree
		"outside.conf":                          here,
	}
	for link, to := range links {
		p := filepath.Join(dir, link)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	f, err := config.Parse(filepath.Join(dir, ".nginx-lint.yaml"), []byte("include-paths:\n  /etc/nginx/: nginx/\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := config.FS{Base: parser.OSFS{}, File: f}
	for _, tc := range []struct {
		path, local string
		elsewhere   bool
	}{
		{"/etc/nginx/sites-enabled/a", filepath.Join(dir, "nginx/sites-available/a"), false},
		{"/etc/nginx/sites-enabled/rel", filepath.Join(dir, "nginx/sites-enabled/rel"), false},
		{"/etc/nginx/modules-enabled/50-absent.conf", filepath.Join(dir, "nginx/modules-enabled/50-absent.conf"), true},
		{"/etc/nginx/modules-enabled/50-present.conf", filepath.Join(dir, "nginx/modules-enabled/50-present.conf"), true},
		{filepath.Join(dir, "nginx/modules-enabled/50-present.conf"), filepath.Join(dir, "nginx/modules-enabled/50-present.conf"), true},
		{filepath.Join(dir, "outside.conf"), filepath.Join(dir, "outside.conf"), false},
	} {
		local, err := m.Resolve(tc.path)
		if local != tc.local || errors.Is(err, parser.ErrElsewhere) != tc.elsewhere || err != nil && !tc.elsewhere {
			t.Errorf("%s: %s, %v; want %s (elsewhere %v)", tc.path, local, err, tc.local, tc.elsewhere)
		}
		if _, err := m.ReadFile(tc.path); tc.elsewhere != errors.Is(err, parser.ErrElsewhere) {
			t.Errorf("%s: read: %v", tc.path, err)
		}
	}
	c, err := (&parser.Loader{FS: m, Kinds: analyzer.Kinds}).Load(filepath.Join(dir, "nginx", "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/etc/nginx/modules-enabled/50-absent.conf", "/etc/nginx/modules-enabled/50-present.conf"}
	if !slices.Equal(c.Elsewhere, want) || len(c.Diagnostics) != 0 || len(c.Files) != 3 {
		t.Errorf("elsewhere %q (want %q), diagnostics %v, %d files", c.Elsewhere, want, c.Diagnostics, len(c.Files))
	}
}

// TestHostSection: the host: section sets the run's Host; its keys and
// values are checked as the rest of the file is; a rule's deprecated
// host option that disagrees with it is an error, one that agrees a
// warning.
func TestHostSection(t *testing.T) {
	f, err := config.Parse("/r/.nginx-lint.yaml", []byte("host:\n  nonroot: true\n  nofile: 65536\n  cpus: 8\n  kernel: 5.15\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{}
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if want := (analyzer.Host{NonRoot: true, NoFile: 65536, CPUs: 8, Kernel: "5.15"}); opts.Host != want || len(f.Warnings) != 0 {
		t.Errorf("host %+v, want %+v; warnings %q", opts.Host, want, f.Warnings)
	}
	for src, want := range map[string]string{
		"host:\n  nofiles: 10\n":  `/r/.nginx-lint.yaml:2: host: unknown key "nofiles", did you mean "nofile"? (want nonroot, nofile, cpus, kernel)`,
		"host:\n  nofile: lots\n": `/r/.nginx-lint.yaml:2: host: option "nofile" wants an integer, not the string "lots"`,
		"host: [nofile]\n":        `/r/.nginx-lint.yaml:1: host: expected a mapping of nonroot, nofile, cpus, kernel, got a list`,
		"host:\n  cpus: [1, 2]\n": `/r/.nginx-lint.yaml:2: host: cpus: expected a single value, got a list`,
	} {
		if _, err := config.Parse("/r/.nginx-lint.yaml", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", src, err, want)
		}
	}
	src := "host:\n  nofile: 4096\nrules:\n  open-files-limit:\n    options: {nofile: 1024}\n"
	if f, err = config.Parse("/r/.nginx-lint.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	err = f.Apply(&analyzer.Options{}, rules.All().Lookup)
	if err == nil || !strings.Contains(err.Error(), `/r/.nginx-lint.yaml:5: rule "open-files-limit": option "nofile" is 1024 here but 4096 under host: (line 2)`) {
		t.Errorf("conflicting nofile: %v", err)
	}
	src = "host:\n  nofile: 4096\nrules:\n  open-files-limit:\n    options: {nofile: 4096}\n"
	if f, err = config.Parse("/r/.nginx-lint.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	opts = analyzer.Options{}
	if err := f.Apply(&opts, rules.All().Lookup); err != nil || opts.Host.NoFile != 4096 || len(f.Warnings) != 1 {
		t.Errorf("agreeing nofile: %v, %+v, warnings %q", err, opts.Host, f.Warnings)
	}
}

// TestHostileSettings: settings files that bomb a YAML reader end in an
// error that names the file: an alias bomb inside a rule's options, a
// document nested 20,000 deep, and a file over config.MaxSize (a 50 MiB
// one took 5 s and 360 MB to refuse).
func TestHostileSettings(t *testing.T) {
	bomb := "rules:\n  quic-reuseport:\n    options:\n      o0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 9; i++ {
		bomb += "      o" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [" + strings.Repeat("*a"+strconv.Itoa(i-1)+", ", 9) + "*a" + strconv.Itoa(i-1) + "]\n"
	}
	for name, src := range map[string]string{
		"bomb":  bomb,
		"deep":  "rules: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n",
		"large": "prefix: /etc/nginx\n# " + strings.Repeat("x", config.MaxSize) + "\n",
	} {
		path := filepath.Join(t.TempDir(), ".nginx-lint.yaml")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := config.Load(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v; want an error naming the file", name, err)
		}
	}
}

// FuzzParse: any settings text parses or fails with an error that names
// the file, never a panic. go test runs the seeds.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "prefix: /etc/nginx\n", "rules:\n  quic-reuseport:\n    enabled: false\n",
		"a: &a [x, x]\nb: [*a, *a]\n", "rules: [[[]]]\n", "max-file-size: 1GiB\n", "fmt:\n  indent: tab\n",
		"include-paths:\n  /etc/nginx: ./conf\n", "\x00\xff", "rules: {quic-reuseport: {options: {a: 1}}}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := config.Parse("/fuzz/.nginx-lint.yaml", src); err != nil && !strings.Contains(err.Error(), ".nginx-lint.yaml") {
			t.Fatalf("%q: %v does not name the file", src, err)
		}
	})
}
