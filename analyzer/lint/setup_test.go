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

func TestIncludePathsAndLocalize(t *testing.T) {
	cfg, err := config.Parse("/repo/.nginx-lint.yaml", []byte("include-paths:\n  /etc/nginx/: ./conf/\n"))
	if err != nil {
		t.Fatal(err)
	}
	disk := &parser.Overlay{Files: map[string][]byte{
		"/repo/conf/nginx.conf":      []byte("events {}\nhttp { include /etc/nginx/snippets/x.conf; }\n"),
		"/repo/conf/snippets/x.conf": []byte("gzip on;\n"),
	}}
	if fs := lint.FileSystem(disk, nil); fs != parser.FileSystem(disk) {
		t.Errorf("no settings: the file system is not the base")
	}
	l := &parser.Loader{FS: lint.FileSystem(disk, cfg), Kinds: analyzer.Kinds}
	c, err := l.Load("/repo/conf/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 || len(c.Files) != 2 || c.Files[1].Path != "/etc/nginx/snippets/x.conf" {
		t.Fatalf("load: %v %d", c.Diagnostics, len(c.Files))
	}
	lint.LocalizePaths(c, cfg)
	if c.Files[1].Path != "/repo/conf/snippets/x.conf" {
		t.Errorf("localized %q", c.Files[1].Path)
	}
	// Again (a cached tree loaded twice): unchanged.
	lint.LocalizePaths(c, cfg)
	if c.Files[1].Path != "/repo/conf/snippets/x.conf" {
		t.Errorf("localized twice %q", c.Files[1].Path)
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
