package analyzer_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

// TestResolveTarget: the order of docs/target-and-fixes.md. The first
// choice that names something wins, a build over a version beside it; a
// build that cannot be read is the error and the order goes on past it;
// only the build chosen is read.
func TestResolveTarget(t *testing.T) {
	build := func(v string) *buildinfo.Info {
		b, err := buildinfo.Parse("nginx version: nginx/" + v + "\nconfigure arguments: --with-http_ssl_module\n")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	files := map[string]*buildinfo.Info{"front.txt": build("1.18.0"), "settings.txt": build("1.20.2")}
	for _, tt := range []struct {
		name            string
		front, settings analyzer.TargetChoice
		want            string // version, "" for no target, "build" suffix when modules are known
		wantErr         string
		read            []string
	}{
		{name: "none", want: ""},
		{name: "settings version", settings: analyzer.TargetChoice{Version: "1.22.1"}, want: "1.22.1"},
		{name: "settings build over its version", settings: analyzer.TargetChoice{BuildFile: "settings.txt", Version: "1.22.1"},
			want: "1.20.2 build", read: []string{"settings.txt"}},
		{name: "flag version over settings build", front: analyzer.TargetChoice{Version: "1.25.1"},
			settings: analyzer.TargetChoice{BuildFile: "settings.txt"}, want: "1.25.1"},
		{name: "flag build over flag version", front: analyzer.TargetChoice{Build: build("1.24.0"), Version: "1.25.1"},
			settings: analyzer.TargetChoice{BuildFile: "settings.txt"}, want: "1.24.0 build"},
		{name: "flag build file", front: analyzer.TargetChoice{BuildFile: "front.txt"},
			settings: analyzer.TargetChoice{BuildFile: "settings.txt"}, want: "1.18.0 build", read: []string{"front.txt"}},
		{name: "unreadable build: the version beside it", front: analyzer.TargetChoice{BuildFile: "gone.txt", Version: "1.25.1", Where: "nginx-build"},
			want: "1.25.1", wantErr: "nginx-build: gone", read: []string{"gone.txt"}},
		{name: "unreadable settings build: nothing else", settings: analyzer.TargetChoice{BuildFile: "gone.txt", Where: "x.yaml: nginx-build"},
			want: "", wantErr: "x.yaml: nginx-build: gone", read: []string{"gone.txt"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var read []string
			got, err := analyzer.ResolveTarget(func(path string) (*buildinfo.Info, error) {
				read = append(read, path)
				if b := files[path]; b != nil {
					return b, nil
				}
				return nil, errors.New("gone")
			}, tt.front, tt.settings)
			if (err == nil) != (tt.wantErr == "") || err != nil && err.Error() != tt.wantErr {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
			desc := ""
			if got != nil {
				desc = got.Version
				if got.Modules != nil {
					desc += " build"
				}
			}
			if desc != tt.want {
				t.Errorf("target %q, want %q", desc, tt.want)
			}
			if strings.Join(read, ",") != strings.Join(tt.read, ",") {
				t.Errorf("read %q, want %q", read, tt.read)
			}
		})
	}
}

// TestTargetMethods: what a rule asks of the target, named or not.
func TestTargetMethods(t *testing.T) {
	none, old := &analyzer.Target{}, &analyzer.Target{Version: "1.22.1"}
	for _, tt := range []struct {
		name string
		got  bool
		want bool
	}{
		{"no target lacks nothing", none.Lacks("1.29.0"), false},
		{"1.22.1 lacks 1.25.1", old.Lacks("1.25.1"), true},
		{"1.22.1 has 1.22.1", old.Lacks("1.22.1"), false},
		{"no record: not lacking", old.Lacks(""), false},
		{"no target is the newest", none.AtLeast(directives.NginxVersion), true},
		{"1.22.1 is not 1.25.1", old.AtLeast("1.25.1"), false},
		{"1.22.1 is at least 1.9.0", old.AtLeast("1.9.0"), true},
		{"every module with none named", none.HasModule("ngx_http_v3_module"), true},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %v", tt.name, tt.got)
		}
	}
}
