package lint_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// hostGuard reads the disk and fails the test when a path it is asked for
// is, or leads by a symbolic link to, a file under one of nginx's conf
// prefixes on this machine (/etc/nginx, ...), or when a file it reads is
// outside root, the layout (Debian's modules-enabled links lead to
// /usr/share/nginx/modules-available, which this machine may have): a
// checked-in tree must be read where it is checked out, whatever the
// machine has installed.
type hostGuard struct {
	t    *testing.T
	root string
	mu   sync.Mutex
	n    int
}

func (g *hostGuard) check(p string) {
	g.mu.Lock()
	g.n++
	g.mu.Unlock()
	real := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		real = r
	}
	for _, prefix := range lint.MirrorPrefixes {
		for _, x := range []string{p, real} {
			if x == prefix || strings.HasPrefix(x, prefix+"/") {
				g.t.Errorf("read from this machine: %s (%s)", p, real)
				return
			}
		}
	}
}

func (g *hostGuard) ReadFile(p string) ([]byte, error) {
	g.check(p)
	if real, err := filepath.EvalSymlinks(p); g.root != "" && err == nil && !lint.Within(real, g.root) {
		g.t.Errorf("read outside the layout: %s (%s)", p, real)
	}
	return parser.OSFS{}.ReadFile(p)
}

func (g *hostGuard) Glob(pattern string) ([]string, error) {
	g.check(filepath.Dir(pattern))
	return parser.OSFS{}.Glob(pattern)
}

// layoutFiles returns the configuration files of a stock layout (every
// file but the .gitkeep placeholders, symbolic links included).
func layoutFiles(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// mainOf returns the layout's nginx.conf.
func mainOf(files []string) string {
	for _, f := range files {
		if filepath.Base(f) == "nginx.conf" {
			return f
		}
	}
	return ""
}

// TestStockLayouts lints the stock /etc/nginx trees of Debian, Alpine,
// Fedora, the nginx.org Docker image and OpenResty (testdata/layouts,
// written from their packages' files) the four ways a repository is
// linted: the directory, the main file, every file alone, and all files
// at once, and each file as the editor opens it. None may get an error
// (they are what the packages install, which nginx starts), and none may
// be read from this machine's /etc/nginx: the tree mirrors it.
func TestStockLayouts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "layouts"))
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	layouts := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		layouts++
		dir := filepath.Join(root, e.Name())
		files := layoutFiles(t, dir)
		main := mainOf(files)
		if main == "" || len(files) < 3 {
			t.Fatalf("%s: no nginx.conf or too few files: %v", e.Name(), files)
		}
		t.Run(e.Name(), func(t *testing.T) { lintLayoutEveryWay(t, dir, files, main) })
	}
	if layouts < 5 {
		t.Errorf("%d layouts, want Debian, Alpine, Fedora, Docker and OpenResty", layouts)
	}
}

// lintLayoutEveryWay lints the layout at dir (its files, its main file)
// the four ways a repository is linted and as the editor opens each file,
// through a guard against reading this machine's nginx files: no error.
func lintLayoutEveryWay(t *testing.T, dir string, files []string, main string) {
	guard := &hostGuard{t: t, root: dir}
	lintWays := map[string][][]string{
		"directory": {{dir}},
		"main file": {{main}},
		"all files": {files},
		"each file alone": func() [][]string {
			var out [][]string
			for _, f := range files {
				out = append(out, []string{f})
			}
			return out
		}(),
	}
	for way, runs := range lintWays {
		for _, paths := range runs {
			targets, err := lint.Targets(paths)
			if err != nil {
				t.Fatalf("%s %v: %v", way, paths, err)
			}
			w := &lint.Workspace{FS: guard, NoSettings: true}
			rep, err := w.Lint(targets)
			if err != nil {
				t.Fatalf("%s %v: %v", way, paths, err)
			}
			for _, d := range append(rep.Findings, entryFindings(rep)...) {
				if d.Severity == parser.Error {
					t.Errorf("%s (%s): %v [%s]", way, rel(dir, paths), d, d.Name)
				}
			}
		}
	}
	// As the editor opens each file, bounded by the layout.
	for _, f := range files {
		w := &lint.Workspace{FS: guard, NoSettings: true, Bound: dir}
		rep, err := w.LintFile(f)
		if errors.Is(err, parser.ErrElsewhere) {
			// A link out of the checkout (Debian's
			// modules-enabled): the deployment host's file,
			// with no text here to open.
			continue
		}
		if err != nil {
			t.Fatalf("editor %s: %v", f, err)
		}
		for _, d := range rep.Findings {
			if d.Severity == parser.Error {
				t.Errorf("editor (%s): %v [%s]", rel(dir, []string{f}), d, d.Name)
			}
		}
	}
	if guard.n == 0 {
		t.Error("nothing was read through the file system")
	}
}

func entryFindings(rep *lint.Report) []*parser.Diagnostic {
	var out []*parser.Diagnostic
	for _, e := range rep.Units {
		out = append(out, e.Findings...)
	}
	return out
}

func rel(dir string, paths []string) string {
	var out []string
	for _, p := range paths {
		if r, err := filepath.Rel(dir, p); err == nil {
			p = r
		}
		out = append(out, p)
	}
	return strings.Join(out, " ")
}

// TestIncludePathsEmptyGlob: with include-paths, an include glob that
// matches nothing in a directory that exists where the files are checked
// out leaves the configuration whole (nginx includes nothing), so the
// rules that need the whole configuration still run: an undefined
// variable is reported.
func TestIncludePathsEmptyGlob(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		".nginx-lint.yaml": "include-paths:\n  /srv/nginx-lint-test/: ./\n",
		"nginx.conf":       "events {}\nhttp {\n    include /srv/nginx-lint-test/conf.d/*.conf;\n    server {\n        listen 127.0.0.1:8080;\n        return 200 $undefined_here;\n    }\n}\n",
		"conf.d/.gitkeep":  "",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	targets, err := lint.Targets([]string{filepath.Join(dir, "nginx.conf")})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := (&lint.Workspace{}).Lint(targets)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range entryFindings(rep) {
		found = found || d.Name == "unknown-variable"
	}
	if !found {
		t.Errorf("the empty glob switched unknown-variable off: %v", entryFindings(rep))
	}
}

// TestLinkToDeploymentHostFile: in a checkout of /etc/nginx, a symbolic
// link to an absolute path outside it (Debian's modules-enabled ->
// /usr/share/nginx/modules-available) is a file the deployment host has:
// its include is no error, the configuration is incomplete (the rules
// that need all of it, such as unknown-variable, stay quiet, as for a
// missing conf.d), and the link named alone is an information, not an
// unreadable file.
func TestLinkToDeploymentHostFile(t *testing.T) {
	dir := t.TempDir()
	nginx := filepath.Join(dir, "etc", "nginx")
	conf := filepath.Join(nginx, "nginx.conf")
	link := filepath.Join(nginx, "modules-enabled", "50-mod-absent.conf")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte("include /etc/nginx/modules-enabled/*.conf;\nevents {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        return 200 $undefined_here;\n    }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lintIt := func(path string) *lint.Report {
		rep, err := (&lint.Workspace{NoSettings: true}).Lint([]lint.Target{lint.FileTarget(path)})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// Without the link the configuration is whole: the variable is
	// reported.
	if rep := lintIt(conf); !slices.ContainsFunc(rep.Findings, func(d *parser.Diagnostic) bool { return d.Name == "unknown-variable" }) {
		t.Fatalf("without the link: %v", rep.Findings)
	}
	if err := os.Symlink("/nonexistent/nginx-lint-test/mod-absent.conf", link); err != nil {
		t.Fatal(err)
	}
	rep := lintIt(conf)
	for _, d := range rep.Findings {
		if d.Severity == parser.Error || d.Name == "unknown-variable" {
			t.Errorf("with the link: %v [%s]", d, d.Name)
		}
	}
	if want := []string{"/etc/nginx/modules-enabled/50-mod-absent.conf"}; len(rep.Units) != 1 || !slices.Equal(rep.Units[0].Config.Elsewhere, want) {
		t.Errorf("elsewhere: want %q", want)
	}
	rep = lintIt(link)
	if len(rep.Findings) != 1 || rep.Findings[0].Severity != parser.Info || len(rep.Unreadable) != 0 ||
		!strings.Contains(rep.Findings[0].Message, "/nonexistent/nginx-lint-test/mod-absent.conf") {
		t.Errorf("the link named alone: %v, unreadable %v", rep.Findings, rep.Unreadable)
	}
}

// TestStockLayoutsAtTheRoot: a repository whose root is the conf prefix's
// copy (nginx.conf at the top, no etc/nginx in its path) is placed by what
// its nginx.conf says: "include /etc/nginx/mime.types;" with mime.types
// beside it maps /etc/nginx onto the copy. Each stock tree copied so is
// linted every way with no error and no read of this machine's files.
func TestStockLayoutsAtTheRoot(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "layouts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"debian", "alpine", "fedora", "docker", "openresty"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Dir(mainOf(layoutFiles(t, filepath.Join(root, name))))
			dir := filepath.Join(t.TempDir(), "repo")
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			files := layoutFiles(t, dir)
			lintLayoutEveryWay(t, dir, files, mainOf(files))
		})
	}
}

// TestPartialCopyLeavesPackageFiles: a repository that holds only its own
// part of /etc/nginx (nginx.conf and conf.d/, at its root or under
// etc/nginx) and leaves mime.types and fastcgi_params to the package or
// image it deploys onto gets no error for those, by absolute path or
// relative to the conf prefix, and never reads this machine's; a missing
// file of its own is still an error.
func TestPartialCopyLeavesPackageFiles(t *testing.T) {
	conf := "user nginx;\nevents {}\nhttp {\n    include /etc/nginx/mime.types;\n    include /etc/nginx/fastcgi_params;\n" +
		"    include /etc/nginx/conf.d/*.conf;\n    include /etc/nginx/app/missing.conf;\n}\n"
	site := "server {\n    listen 127.0.0.1:8080;\n    root /srv;\n    location ~ \\.php$ {\n        include fastcgi_params;\n        fastcgi_pass 127.0.0.1:9000;\n    }\n}\n"
	dir := t.TempDir()
	for _, base := range []string{"root", "etc/nginx"} {
		repo := filepath.Join(dir, strings.ReplaceAll(base, "/", "-"))
		at := filepath.Join(repo, base)
		if base == "root" {
			at = repo
		}
		testfiles.Write(t, repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
		testfiles.Write(t, at, map[string]string{"nginx.conf": conf, "conf.d/site.conf": site})
		rep, err := (&lint.Workspace{NoSettings: true}).Lint([]lint.Target{lint.FileTarget(filepath.Join(at, "nginx.conf"))})
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		for _, d := range rep.Findings {
			if d.Severity == parser.Error {
				errs = append(errs, d.Message)
			}
		}
		if len(errs) != 1 || !strings.Contains(errs[0], "/etc/nginx/app/missing.conf") {
			t.Errorf("%s: errors %q, want the one for app/missing.conf", base, errs)
		}
		if want := []string{"/etc/nginx/mime.types", "/etc/nginx/fastcgi_params", filepath.Join(at, "fastcgi_params")}; len(rep.Units) != 1 || !slices.Equal(rep.Units[0].Config.Elsewhere, want) {
			t.Errorf("%s: elsewhere: want %q", base, want)
		}
	}
}
