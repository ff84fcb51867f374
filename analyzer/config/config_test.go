package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
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
rules:
  unknown-directive: error
  NL2002: off
  invalid-arguments:
    severity: info
    options: {limit: 3}
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
	if opts.RuleOptions["invalid-arguments"]["limit"] != 3 {
		t.Errorf("options %v", opts.RuleOptions)
	}
	if got := opts.RuleOptions["unknown-directive"]["custom"]; !slices.Equal(got.([]any), []any{"vts_status"}) {
		t.Errorf("custom %v", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"rulez: {}\n",
		"rules:\n  unknown-directive: loud\n",
		"rules:\n  unknown-directive: {severity: loud}\n",
		"rules:\n  unknown-directive: {enable: false}\n",
		"include-paths:\n  etc/nginx: x\n",
		"rules: [\n",
	} {
		if _, err := config.Parse("/r/.nginx-lint.yaml", []byte(src)); err == nil {
			t.Errorf("accepted %q", src)
		} else if !strings.Contains(err.Error(), "/r/.nginx-lint.yaml") {
			t.Errorf("error does not name the file: %v", err)
		}
	}
	f, err := config.Parse("/r/.nginx-lint.yaml", []byte("rules:\n  no-such-rule: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{Disabled: map[string]bool{}, Severity: map[string]parser.Severity{}, RuleOptions: map[string]map[string]any{}}
	if err := f.Apply(&opts, rules.All().Lookup); err == nil || !strings.Contains(err.Error(), "no-such-rule") {
		t.Errorf("unknown rule: %v", err)
	}
	if _, err := config.Parse("/r/.nginx-lint.yaml", nil); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

// TestCustomDirectivesReachTheRule checks the whole path: a name declared
// in the file silences unknown-directive.
func TestCustomDirectivesReachTheRule(t *testing.T) {
	src := "events {}\nhttp {\n    vts_status on;\n}\n"
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource("/x/nginx.conf", []byte(src), nil)
	count := func(opts analyzer.Options) int {
		n := 0
		for _, d := range analyzer.Run(c, rules.All(), opts) {
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
}

func TestMappedFS(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "nginx", "conf.d", "a.conf"), "server { listen 80; }\n")
	write(t, filepath.Join(dir, "nginx", "nginx.conf"), "events {}\nhttp { include /etc/nginx/conf.d/*.conf; include /etc/nginx/mime.types; }\n")
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
	// mime.types is missing here too: reported with nginx's path.
	if len(c.Diagnostics) != 1 || !strings.Contains(c.Diagnostics[0].Message, "/etc/nginx/mime.types") {
		t.Errorf("diagnostics %v", c.Diagnostics)
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
