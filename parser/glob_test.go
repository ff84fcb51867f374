package parser_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// writeTree writes files (relative path: text) under a new temporary
// directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A wildcard does not match a name starting with "." in any component of
// an include pattern, as glob(3) without GLOB_PERIOD (nginx's
// ngx_read_glob): conf.d/*/x.conf does not read conf.d/.hidden/x.conf,
// while a component spelled with the dot does. The real nginx agrees:
// the hidden file holds a directive it would refuse.
func TestIncludeGlobSkipsHiddenDirectories(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"nginx.conf":                 "events {}\nhttp {\n    include conf.d/*/x.conf;\n    include conf.d/.*/y.conf;\n}\n",
		"conf.d/site/x.conf":         "server { listen 127.0.0.1:31871; }\n",
		"conf.d/.hidden/x.conf":      "no_such_directive here;\n",
		"conf.d/.shown/y.conf":       "server { listen 127.0.0.1:31872; }\n",
		"conf.d/site/.x.conf/x.conf": "no_such_directive either;\n",
	})
	c, err := (&parser.Loader{}).Load(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.Files[1:] {
		rel, _ := filepath.Rel(dir, f.Path)
		got = append(got, filepath.ToSlash(rel))
	}
	if want := []string{"conf.d/site/x.conf", "conf.d/.shown/y.conf"}; !slices.Equal(got, want) {
		t.Errorf("files read = %q, want %q", got, want)
	}

	nginx := nginxtest.Require(t)
	res, err := nginxtest.Test(t.Context(), nginx, filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Errorf("nginx -t refused it (it read a hidden file?):\n%s", res.Stderr)
	}
}

// A glob that matches nothing is complete when its directory exists (nginx
// includes nothing) and incomplete when the directory is missing (a
// checkout without conf.d); either way it is no finding.
func TestEmptyGlobCompleteness(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"nginx.conf":     "events {}\nhttp {\n    include empty/*.conf;\n}\n",
		"empty/note.txt": "not a conf\n",
		"main2.conf":     "events {}\nhttp {\n    include missing/*.conf;\n}\n",
	})
	c, err := (&parser.Loader{}).Load(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Incomplete) != 0 || len(c.Diagnostics) != 0 {
		t.Errorf("empty directory: incomplete %q, findings %v", c.Incomplete, c.Diagnostics)
	}
	c, err = (&parser.Loader{}).Load(filepath.Join(dir, "main2.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "missing/*.conf")}; !slices.Equal(c.Incomplete, want) || len(c.Diagnostics) != 0 {
		t.Errorf("missing directory: incomplete %q (want %q), findings %v", c.Incomplete, want, c.Diagnostics)
	}
}

// Loader.Elsewhere turns a missing include it accepts into an entry of
// Config.Incomplete; others stay include-not-found errors.
func TestElsewhere(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    include mime.types;\n    include typo.conf;\n}\n",
	})
	l := &parser.Loader{Elsewhere: func(p string) bool { return filepath.Base(p) == "mime.types" }}
	c, err := l.Load(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "mime.types")}; !slices.Equal(c.Incomplete, want) {
		t.Errorf("incomplete %q, want %q", c.Incomplete, want)
	}
	if len(c.Diagnostics) != 1 || c.Diagnostics[0].Code != parser.CodeIncludeNotFound {
		t.Errorf("findings %v, want one include-not-found (typo.conf)", c.Diagnostics)
	}
}
