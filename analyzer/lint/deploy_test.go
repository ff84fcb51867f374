package lint_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// hostFS reads the disk and notes every path asked for outside root (the
// checkout) but the nginx.conf files looked for above it; with noHost it
// answers as a machine without them would (a CI runner without nginx):
// nothing there.
type hostFS struct {
	root   string
	noHost bool

	mu      sync.Mutex
	outside []string
}

func (h *hostFS) allowed(p string) bool {
	if lint.Within(p, h.root) || filepath.Base(p) == "nginx.conf" && lint.Within(h.root, filepath.Dir(p)) {
		return true
	}
	h.mu.Lock()
	h.outside = append(h.outside, p)
	h.mu.Unlock()
	return !h.noHost
}

func (h *hostFS) ReadFile(p string) ([]byte, error) {
	if !h.allowed(p) {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	return parser.OSFS{}.ReadFile(p)
}

func (h *hostFS) Glob(p string) ([]string, error) {
	if !h.allowed(p) {
		return nil, nil
	}
	return parser.OSFS{}.Glob(p)
}

// layoutFiles returns the files of a layout (symbolic links included),
// sorted.
func layoutFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// layouts are the stock trees of testdata/layouts: the main file and the
// files it must reach, relative to the layout.
var layouts = []struct {
	name, main string
	reaches    []string
}{
	{"debian", "etc/nginx/nginx.conf", []string{"etc/nginx/mime.types", "etc/nginx/sites-enabled/default", "etc/nginx/modules-enabled/50-mod-stream.conf"}},
	{"alpine", "etc/nginx/nginx.conf", []string{"etc/nginx/mime.types", "etc/nginx/http.d/default.conf"}},
	{"fedora", "etc/nginx/nginx.conf", []string{"etc/nginx/mime.types", "etc/nginx/conf.d/php-fpm.conf", "etc/nginx/default.d/php.conf", "etc/nginx/fastcgi_params"}},
	{"docker", "etc/nginx/nginx.conf", []string{"etc/nginx/mime.types", "etc/nginx/conf.d/default.conf"}},
	{"openresty", "usr/local/openresty/nginx/conf/nginx.conf", []string{"usr/local/openresty/nginx/conf/mime.types", "etc/nginx/conf.d/default.conf"}},
}

func layoutRoot(t *testing.T, name string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "layouts", name))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestStockLayouts lints every stock layout the four ways the command line
// does (the directory, the main file, each file alone, all files at once)
// and each file as the editor does, on this machine and as on one without
// nginx's files: no error anywhere, every file read from the checkout
// (this machine's /etc/nginx is never read, even though it is there), and
// the main file reaches its includes through the absolute paths mapped
// onto the checkout.
func TestStockLayouts(t *testing.T) {
	for _, lay := range layouts {
		root := layoutRoot(t, lay.name)
		files := layoutFiles(t, root)
		main := filepath.Join(root, lay.main)
		for _, noHost := range []bool{false, true} {
			name := lay.name
			if noHost {
				name += "/without-host"
			}
			t.Run(name, func(t *testing.T) {
				h := &hostFS{root: root, noHost: noHost}
				w := &lint.Workspace{FS: h, NoSettings: true}
				check := func(how string, rep *lint.Report) {
					t.Helper()
					for _, d := range rep.Findings {
						if d.Severity == parser.Error {
							t.Errorf("%s: error %s at %s: %s", how, d.Code, d.FilePath(), d.Message)
						}
					}
					for _, e := range rep.Entries {
						for _, f := range e.Config.Files {
							if !lint.Within(f.Path, root) {
								t.Errorf("%s: read %s, outside the checkout", how, f.Path)
							}
						}
					}
					if len(h.outside) > 0 {
						t.Errorf("%s: asked the host for %q", how, h.outside)
						h.outside = nil
					}
				}
				lintPaths := func(how string, paths ...string) *lint.Report {
					t.Helper()
					ts, err := lint.Targets(paths)
					if err != nil {
						t.Fatal(err)
					}
					rep, err := w.Lint(ts)
					if err != nil {
						t.Fatal(err)
					}
					check(how, rep)
					return rep
				}

				lintPaths("directory", root)
				rep := lintPaths("main file", main)
				if len(rep.Entries) != 1 {
					t.Fatalf("main file: %d entries", len(rep.Entries))
				}
				var got []string
				for _, f := range rep.Entries[0].Config.Files {
					rel, _ := filepath.Rel(root, f.Path)
					got = append(got, rel)
				}
				for _, want := range lay.reaches {
					if !slices.Contains(got, want) {
						t.Errorf("main file reads %q, not %s", got, want)
					}
				}
				for _, f := range files {
					rel, _ := filepath.Rel(root, f)
					rep := lintPaths("alone "+rel, f)
					// A file the main file reaches is linted through it.
					if slices.Contains(lay.reaches, rel) && (len(rep.Entries) != 1 || rep.Entries[0].Config.Main.Path != main) {
						t.Errorf("alone %s: not linted through %s", rel, lay.main)
					}
				}
				lintPaths("all files", files...)

				ew := &lint.Workspace{FS: h, NoSettings: true, Bound: root}
				for _, f := range files {
					rel, _ := filepath.Rel(root, f)
					fr, err := ew.LintFile(f)
					if err != nil {
						t.Fatal(err)
					}
					for _, d := range fr.Findings {
						if d.Severity == parser.Error {
							t.Errorf("editor %s: error %s: %s", rel, d.Code, d.Message)
						}
					}
					if slices.Contains(lay.reaches, rel) && fr.Entry.Config.Main.Path != main {
						t.Errorf("editor %s: linted through %s, not %s", rel, fr.Entry.Config.Main.Path, lay.main)
					}
					check("editor "+rel, &lint.Report{Entries: []*lint.Entry{fr.Entry}})
				}
			})
		}
	}
}

// copyTree copies a directory, symbolic links as links.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, dst)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckoutWinsOverHost: Debian's tree with a site that differs from
// the stock one (this machine's /etc/nginx/sites-available/default, when
// nginx is installed, has no such directive) is linted from the checkout
// however it is named: the site's finding is reported, at the name given.
func TestCheckoutWinsOverHost(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, layoutRoot(t, "debian"), dir)
	site := filepath.Join(dir, "etc/nginx/sites-available/default")
	b, _ := os.ReadFile(site)
	b = []byte(strings.Replace(string(b), "server_name _;", "server_name _;\n\tno_such_directive on;", 1))
	if err := os.WriteFile(site, b, 0o644); err != nil {
		t.Fatal(err)
	}
	enabled := filepath.Join(dir, "etc/nginx/sites-enabled/default")
	for _, paths := range [][]string{{dir}, {filepath.Join(dir, "etc/nginx/nginx.conf")}, {site}, {enabled}} {
		ts, err := lint.Targets(paths)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := (&lint.Workspace{NoSettings: true}).Lint(ts)
		if err != nil {
			t.Fatal(err)
		}
		var at []string
		for _, d := range rep.Findings {
			if d.Name == "unknown-directive" {
				at = append(at, d.FilePath())
			}
		}
		want := enabled // how nginx.conf reads it
		if paths[0] == site {
			want = site
		}
		if !slices.Equal(at, []string{want}) {
			t.Errorf("lint %s: unknown-directive at %q, want %q", paths[0], at, want)
		}
	}
	fr, err := (&lint.Workspace{NoSettings: true, Bound: dir}).LintFile(site)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fr.Findings); n != 1 || fr.Findings[0].Name != "unknown-directive" {
		t.Errorf("editor: %v", fr.Findings)
	}
}

// TestFragmentPrefix: a snippet linted alone resolves its relative
// includes against the conf prefix (the nearest nginx.conf's directory),
// as nginx does, not against its own directory.
func TestFragmentPrefix(t *testing.T) {
	root := layoutRoot(t, "debian")
	snippet := filepath.Join(root, "etc/nginx/snippets/fastcgi-php.conf")
	rep, err := (&lint.Workspace{NoSettings: true}).Lint([]lint.Target{{Path: snippet}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Entries) != 1 {
		t.Fatalf("%d entries", len(rep.Entries))
	}
	c := rep.Entries[0].Config
	if want := filepath.Join(root, "etc/nginx"); c.Prefix != want {
		t.Errorf("prefix %s, want %s", c.Prefix, want)
	}
	if len(c.Files) != 2 || c.Files[1].Path != filepath.Join(root, "etc/nginx/fastcgi.conf") {
		t.Errorf("files %v", c.Files)
	}
}

// TestStockFileNotInCheckout: a checkout of /etc/nginx that leaves out
// the package's own files (mime.types, fastcgi_params) and the
// directories a glob reads is no error: nginx finds them on the
// deployment host. The configuration is incomplete, so the rules that
// look for a definition anywhere stay quiet; a file of the user's own
// that is missing stays an error, and so does a stock file missing from
// the host's own /etc/nginx (the lint of the live tree).
func TestStockFileNotInCheckout(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"etc/nginx/nginx.conf":   "events {}\nhttp {\n    include /etc/nginx/mime.types;\n    include /etc/nginx/conf.d/*.conf;\n    server {\n        listen 127.0.0.1:8080;\n        location / {\n            include fastcgi_params;\n            return 200 $undefined_here;\n        }\n    }\n}\n",
		"etc/nginx/typo.conf":    "events {}\nhttp {\n    include /etc/nginx/mime.types;\n    include /etc/nginx/sites/app.conf;\n}\n",
		"etc/nginx/.placeholder": "",
	})
	h := &hostFS{root: dir, noHost: true}
	w := &lint.Workspace{FS: h, NoSettings: true}
	rep, err := w.Lint([]lint.Target{{Path: filepath.Join(dir, "etc/nginx/nginx.conf")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(rep.Findings); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "NL1003") || strings.HasPrefix(s, "NL2035") }) {
		t.Errorf("findings %q: want no include-not-found nor unknown-variable", got)
	}
	if inc := rep.Entries[0].Config.Incomplete; len(inc) != 3 {
		t.Errorf("incomplete %q, want mime.types, conf.d/*.conf, fastcgi_params", inc)
	}
	rep, err = w.Lint([]lint.Target{{Path: filepath.Join(dir, "etc/nginx/typo.conf")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(rep.Findings); !slices.Equal(got, []string{"NL1003 typo.conf"}) {
		t.Errorf("user's own file missing: %q, want one NL1003", got)
	}
	if len(h.outside) > 0 {
		t.Errorf("asked the host for %q", h.outside)
	}
}

// TestRepositoryOfEtcNginx: a repository that holds what /etc/nginx holds
// (nginx.conf at its top, not under etc/nginx) and whose nginx.conf
// includes from /etc/nginx is read from the repository.
func TestRepositoryOfEtcNginx(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf":       "events {}\nhttp {\n    include /etc/nginx/mime.types;\n    include /etc/nginx/conf.d/*.conf;\n}\n",
		"mime.types":       "types { text/html html; }\n",
		"conf.d/site.conf": "server {\n    listen 127.0.0.1:8080;\n    no_such_directive on;\n}\n",
	})
	h := &hostFS{root: dir, noHost: true}
	for _, p := range []string{"nginx.conf", "conf.d/site.conf"} {
		rep, err := (&lint.Workspace{FS: h, NoSettings: true}).Lint([]lint.Target{{Path: filepath.Join(dir, p)}})
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(rep.Findings); !slices.Equal(got, []string{"NL2001 site.conf"}) {
			t.Errorf("%s: %q, want the site's unknown directive", p, got)
		}
	}
	if len(h.outside) > 0 {
		t.Errorf("asked the host for %q", h.outside)
	}
}

// TestIncludePathsEmptyGlob (issue 18): with include-paths set, an include
// glob that matches nothing in a directory that exists is the whole
// configuration (nginx includes nothing): the rules that need it run.
func TestIncludePathsEmptyGlob(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		".nginx-lint.yaml": "include-paths:\n  /srv/nginx-lint-issue-18: .\n",
		"nginx.conf":       "events {}\nhttp {\n    include /srv/nginx-lint-issue-18/conf.d/*.conf;\n    server {\n        listen 127.0.0.1:8080;\n        return 200 $undefined_here;\n    }\n}\n",
		"conf.d/README":    "no configuration yet\n",
	})
	rep, err := (&lint.Workspace{}).Lint([]lint.Target{{Path: filepath.Join(dir, "nginx.conf")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(rep.Findings); !slices.Contains(got, "NL2035 nginx.conf") {
		t.Errorf("findings %q: want unknown-variable (NL2035)", got)
	}
}
