package lsp

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/parser"
)

// hostlessFS reads the disk and notes each file read outside root (the
// workspace), and each directory listed under one of nginx's conf prefixes
// on this machine (/etc/nginx, ...); with noHost it has nothing there, as
// a machine without nginx. (A glob outside every conf prefix, Fedora's
// /usr/share/nginx/modules/*.conf, is listed where it is: see
// docs/deployment.md.)
type hostlessFS struct {
	root   string
	noHost bool

	mu      sync.Mutex
	outside []string
}

func (h *hostlessFS) allowed(p string) bool {
	if lint.Within(p, h.root) {
		return true
	}
	h.mu.Lock()
	h.outside = append(h.outside, p)
	h.mu.Unlock()
	return !h.noHost
}

func (h *hostlessFS) ReadFile(p string) ([]byte, error) {
	if !h.allowed(p) {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	if real, err := filepath.EvalSymlinks(p); err == nil && !h.allowed(real) {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	return parser.OSFS{}.ReadFile(p)
}

func (h *hostlessFS) Glob(p string) ([]string, error) {
	for _, prefix := range lint.MirrorPrefixes {
		if lint.Within(p, prefix) && !h.allowed(p) {
			return nil, nil
		}
	}
	return parser.OSFS{}.Glob(p)
}

// openInWorkspace opens path with its text from disk in a fresh server
// whose workspace folder is root, reading through fsys, and returns what
// was published for it ("CODE@line", errors marked "!").
func openInWorkspace(t *testing.T, root, path string, fsys parser.FileSystem) []string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	s.FS = fsys
	rootURI := string(pathToURI(root))
	s.initialize(&protocol.InitializeParams{RootURI: &rootURI})
	c := &client{published: map[protocol.DocumentUri][]protocol.Diagnostic{}}
	uri := open(t, s, c, path, string(text))
	var out []string
	for _, d := range c.diags(uri) {
		mark := ""
		if d.Severity != nil && *d.Severity == protocol.DiagnosticSeverityError {
			mark = "!"
		}
		out = append(out, fmt.Sprintf("%s%v@%d %s", mark, d.Code.Value, d.Range.Start.Line+1, d.Message))
	}
	return out
}

// TestStockLayoutsInEditor opens every file of every stock layout
// (testdata/layouts) in a language server whose workspace is the layout,
// on this machine and as on one without nginx's files: no error is
// published and nothing is read from outside the workspace. A link that
// leads out of the checkout (Debian's modules-enabled) has no text here
// to open and is left out.
func TestStockLayoutsInEditor(t *testing.T) {
	opened := 0
	for _, name := range []string{"debian", "alpine", "fedora", "docker", "openresty"} {
		root, err := filepath.Abs(filepath.Join("..", "testdata", "layouts", name))
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if to, err := os.Readlink(p); err == nil && filepath.IsAbs(to) && !strings.HasPrefix(to, "/etc/") && !strings.HasPrefix(to, "/usr/local/") {
				return nil // modules-enabled -> /usr/share/nginx/...
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(files) < 5 {
			t.Fatalf("%s: %d files", name, len(files))
		}
		for _, noHost := range []bool{false, true} {
			h := &hostlessFS{root: root, noHost: noHost}
			for _, f := range files {
				rel, _ := filepath.Rel(root, f)
				for _, d := range openInWorkspace(t, root, f, h) {
					if strings.HasPrefix(d, "!") {
						t.Errorf("%s %s (no host %v): %s", name, rel, noHost, d)
					}
				}
				opened++
			}
			if len(h.outside) > 0 {
				t.Errorf("%s (no host %v): read from outside the workspace: %q", name, noHost, h.outside)
			}
		}
	}
	t.Logf("%d files opened", opened)
}

// TestDebianSiteWithPHPSnippet: a site of Debian's tree with a directive
// of its own and Debian's PHP snippet, whose "include fastcgi.conf;"
// resolves against the conf prefix: the editor publishes the unknown
// directive alone (an error: nginx refuses it) (read from the workspace: the host's stock site has no
// such directive), no include error, whether sites-enabled/default links
// to the site by Debian's absolute path or by a relative one.
func TestDebianSiteWithPHPSnippet(t *testing.T) {
	for _, link := range []string{"/etc/nginx/sites-available/default", "../sites-available/default"} {
		dir := t.TempDir()
		root, err := filepath.Abs(filepath.Join("..", "testdata", "layouts", "debian"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dir, os.DirFS(root)); err != nil {
			t.Fatal(err)
		}
		enabled := filepath.Join(dir, "etc/nginx/sites-enabled/default")
		if err := os.Remove(enabled); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.Symlink(link, enabled); err != nil {
			t.Fatal(err)
		}
		site := filepath.Join(dir, "etc/nginx/sites-available/default")
		b, err := os.ReadFile(site)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(b), "server_name _;", "server_name _;\n\tno_such_directive on;\n\tlocation ~ \\.php$ {\n\t\tinclude snippets/fastcgi-php.conf;\n\t\tfastcgi_pass unix:/run/php/php-fpm.sock;\n\t}", 1)
		if text == string(b) {
			t.Fatal("Debian's site has no \"server_name _;\" any more")
		}
		if err := os.WriteFile(site, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		h := &hostlessFS{root: dir, noHost: true}
		got := openInWorkspace(t, dir, site, h)
		if len(got) != 1 || !strings.HasPrefix(got[0], "!NL2001@47 ") || !strings.Contains(got[0], "no_such_directive") {
			t.Errorf("link %s: published %q, want the unknown directive alone", link, got)
		}
		if len(h.outside) > 0 {
			t.Errorf("link %s: read from outside the workspace: %q", link, h.outside)
		}
	}
}
