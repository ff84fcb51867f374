package lint

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// TestMirrorOf: which conf prefix a file's tree mirrors, by path segments;
// the longest prefix wins; the real prefix (this machine's /etc/nginx) and
// a look-alike (/etc/nginx2) mirror nothing.
func TestMirrorOf(t *testing.T) {
	for _, tc := range []struct {
		path, prefix, dir string
	}{
		{"/repo/etc/nginx/sites-available/x", "/etc/nginx", "/repo/etc/nginx"},
		{"/repo/etc/nginx/nginx.conf", "/etc/nginx", "/repo/etc/nginx"},
		{"/repo/usr/local/etc/nginx/nginx.conf", "/usr/local/etc/nginx", "/repo/usr/local/etc/nginx"},
		{"/repo/usr/local/openresty/nginx/conf/nginx.conf", "/usr/local/openresty/nginx/conf", "/repo/usr/local/openresty/nginx/conf"},
		{"/srv/etc/openresty/conf.d/a.conf", "/etc/openresty", "/srv/etc/openresty"},
		{"/etc/nginx-copy/etc/nginx/nginx.conf", "/etc/nginx", "/etc/nginx-copy/etc/nginx"},
		{"/etc/nginx/nginx.conf", "", ""},
		{"/usr/local/openresty/nginx/conf/nginx.conf", "", ""},
		{"/repo/etc/nginx2/nginx.conf", "", ""},
		{"/repo/nginx/nginx.conf", "", ""},
	} {
		prefix, dir, ok := mirrorOf(tc.path)
		if ok != (tc.prefix != "") || ok && (prefix != tc.prefix || dir != tc.dir) {
			t.Errorf("%s: %q %q %v, want %q %q", tc.path, prefix, dir, ok, tc.prefix, tc.dir)
		}
	}
}

// TestWithMirror: a file of a mirrored tree gets the include-paths entry
// that maps the prefix onto the checkout, longest prefix first, without
// changing the shared settings; an entry of the settings for that prefix
// wins; a tree not checked out here, or no mirror, adds nothing.
func TestWithMirror(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"etc/nginx/nginx.conf": "events {}\n", "conf/nginx.conf": "events {}\n"})
	conf := filepath.Join(dir, "etc", "nginx", "nginx.conf")
	mirror := config.PathMap{From: "/etc/nginx", To: filepath.Join(dir, "etc", "nginx")}

	if got := withMirror(conf, nil); got == nil || !slices.Equal(got.IncludePaths, []config.PathMap{mirror}) {
		t.Errorf("no settings: %+v", got)
	}
	shared := &config.File{IncludePaths: []config.PathMap{{From: "/srv", To: "/x"}, {From: "/etc/nginx/ssl", To: "/y"}}}
	got := withMirror(conf, shared)
	want := []config.PathMap{{From: "/etc/nginx/ssl", To: "/y"}, mirror, {From: "/srv", To: "/x"}}
	if !slices.Equal(got.IncludePaths, want) {
		t.Errorf("with settings: %v, want %v", got.IncludePaths, want)
	}
	if len(shared.IncludePaths) != 2 || shared.IncludePaths[0].From != "/srv" {
		t.Errorf("the shared settings changed: %v", shared.IncludePaths)
	}
	own := &config.File{IncludePaths: []config.PathMap{{From: "/etc/nginx", To: "/elsewhere"}}}
	if got := withMirror(conf, own); got != own {
		t.Errorf("the settings' own entry for the prefix did not win: %v", got.IncludePaths)
	}
	if got := withMirror(filepath.Join(dir, "conf", "nginx.conf"), shared); got != shared {
		t.Errorf("no mirror: %v", got.IncludePaths)
	}
	if got := withMirror("/nonexistent/nginx-lint-test/etc/nginx/nginx.conf", nil); got != nil {
		t.Errorf("a tree that is not here: %v", got.IncludePaths)
	}
	if got := withMirror("-", shared); got != shared {
		t.Errorf("standard input: %v", got.IncludePaths)
	}
}

// TestNearestConfDir: a file named alone gets as conf prefix the nearest
// directory upward with an nginx.conf (a regular file), never above the
// bound or the repository's root.
func TestNearestConfDir(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"repo/.git/HEAD":                 "ref: refs/heads/main\n",
		"repo/etc/nginx/nginx.conf":      "events {}\n",
		"repo/etc/nginx/snippets/a.conf": "gzip on;\n",
		"repo/etc/nginx/sites/deep/x":    "server {}\n",
		"repo/loose/b.conf":              "gzip on;\n",
		"nginx.conf":                     "events {}\n",
		"repo/dirconf/nginx.conf/.keep":  "",
		"repo/dirconf/snippets/c.conf":   "gzip on;\n",
	})
	repo := filepath.Join(dir, "repo")
	nginx := filepath.Join(repo, "etc", "nginx")
	for _, tc := range []struct {
		dir, bound, want string
	}{
		{filepath.Join(nginx, "snippets"), "", nginx},
		{filepath.Join(nginx, "sites", "deep"), "", nginx},
		{nginx, "", nginx},
		{filepath.Join(nginx, "snippets"), filepath.Join(nginx, "snippets"), ""},
		// The repository's root stops the search: the nginx.conf above
		// it is someone else's.
		{filepath.Join(repo, "loose"), "", ""},
		// A directory named nginx.conf is no configuration.
		{filepath.Join(repo, "dirconf", "snippets"), "", ""},
	} {
		if got := nearestConfDir(tc.dir, tc.bound); got != tc.want {
			t.Errorf("%s (bound %q): %q, want %q", tc.dir, tc.bound, got, tc.want)
		}
	}
}

// TestInferredMirror: a tree whose nginx.conf names a file under a conf
// prefix by absolute path, and holds that file (or a glob's directory)
// beside it, is a copy of that prefix; a commented-out include, one whose
// file the tree lacks, and relative includes say nothing.
func TestInferredMirror(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"flat/.git/HEAD":         "ref: refs/heads/main\n",
		"flat/nginx.conf":        "events {}\nhttp {\n    # include /etc/nginx/koi-utf;\n    include /etc/nginx/mime.types; # types\n}\n",
		"flat/mime.types":        "types {}\n",
		"flat/sites-available/x": "server {}\n",
		"glob/.git/HEAD":         "ref: refs/heads/main\n",
		"glob/nginx.conf":        "events {}\nhttp {\n\tinclude\t\"/usr/local/nginx/conf/conf.d/*.conf\";\n}\n",
		"glob/conf.d/.keep":      "",
		"plain/.git/HEAD":        "ref: refs/heads/main\n",
		"plain/nginx.conf":       "events {}\nhttp {\n    include mime.types;\n}\n",
		"plain/mime.types":       "types {}\n",
		"absent/.git/HEAD":       "ref: refs/heads/main\n",
		"absent/nginx.conf":      "events {}\nhttp {\n    include /etc/nginx/mime.types;\n    # include /etc/nginx/koi-utf;\n}\n",
		"absent/koi-utf":         "charset_map koi8-r utf-8 {}\n",
	})
	for _, tc := range []struct {
		file, prefix, dir string
	}{
		{"flat/nginx.conf", "/etc/nginx", "flat"},
		{"flat/sites-available/x", "/etc/nginx", "flat"},
		{"glob/nginx.conf", "/usr/local/nginx/conf", "glob"},
		{"plain/nginx.conf", "", ""},
		{"absent/nginx.conf", "", ""},
	} {
		prefix, d, ok := inferredMirror(filepath.Join(dir, tc.file))
		if want := filepath.Join(dir, tc.dir); ok != (tc.prefix != "") || ok && (prefix != tc.prefix || d != want) {
			t.Errorf("%s: %q %q %v, want %q %q", tc.file, prefix, d, ok, tc.prefix, want)
		}
	}
}
