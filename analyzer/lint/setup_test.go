package lint_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestTargetBuild: a build named decides what the rules see: gzip is
// unknown to one built without it.
func TestTargetBuild(t *testing.T) {
	b, err := buildinfo.Parse("nginx version: nginx/1.22.1\nconfigure arguments: --without-http_gzip_module\n")
	if err != nil {
		t.Fatal(err)
	}
	target, err := analyzer.ResolveTarget(nil, analyzer.TargetChoice{Build: b})
	if err != nil || target == nil || target.Version != "1.22.1" || target.Modules == nil || target.HasModule("ngx_http_gzip_module") {
		t.Fatalf("target %+v, %v", target, err)
	}
	f := parser.ParseFile("/x/nginx.conf", []byte("events {}\nhttp { gzip on; }\n"), &parser.Options{Kinds: analyzer.Kinds})
	ds, _ := lint.Run(&parser.Config{Main: f, Files: []*parser.File{f}}, rules.All(), analyzer.Options{Target: target})
	if len(ds) != 1 || ds[0].Code != rules.UnknownDirective.Code {
		t.Errorf("findings %v", ds)
	}
}

// TestCostOptionsFromSettings: a cost rule's host option in the settings
// file reaches the run's one cost model, so open-files-limit treats the
// limit as given (an error, not a warning).
func TestCostOptionsFromSettings(t *testing.T) {
	src := rules.OpenFilesLimit.Doc.Bad
	sev := func(settings string) []parser.Severity {
		var cfg *config.File
		if settings != "" {
			var err error
			if cfg, err = config.Parse("/x/.nginx-lint.yaml", []byte(settings)); err != nil {
				t.Fatal(err)
			}
		}
		opts, err := lint.SettingsOptions(rules.All(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := parser.ParseFile("/x/nginx.conf", []byte(src), &parser.Options{Kinds: analyzer.Kinds})
		var out []parser.Severity
		ds, _ := lint.Run(&parser.Config{Main: f, Files: []*parser.File{f}}, rules.All(), opts)
		for _, d := range ds {
			if d.Code == rules.OpenFilesLimit.Code {
				out = append(out, d.Severity)
			}
		}
		return out
	}
	if got := sev(""); len(got) != 1 || got[0] != parser.Warning {
		t.Errorf("assumed limit: %v", got)
	}
	// Written under another cost rule: still the run's limit.
	if got := sev("rules:\n  worker-connections:\n    options: {nofile: 1024}\n"); len(got) != 1 || got[0] != parser.Error {
		t.Errorf("limit given under worker-connections: %v", got)
	}
}
