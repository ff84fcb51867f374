package lsp

import (
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

// hostlessFS reads the disk and notes each path read outside root (the
// workspace) but the nginx.conf files looked for above it; with noHost it
// has nothing there, as a machine without nginx.
type hostlessFS struct {
	root   string
	noHost bool

	mu      sync.Mutex
	outside []string
}

func (h *hostlessFS) allowed(p string) bool {
	if lint.Within(p, h.root) || filepath.Base(p) == "nginx.conf" && lint.Within(h.root, filepath.Dir(p)) {
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
	return parser.OSFS{}.ReadFile(p)
}

func (h *hostlessFS) Glob(p string) ([]string, error) {
	if !h.allowed(p) {
		return nil, nil
	}
	return parser.OSFS{}.Glob(p)
}

// TestStockLayoutsInEditor opens every file of every stock layout
// (testdata/layouts) in a server whose workspace is the layout, on this
// machine and as on one without nginx's files: no error is published,
// nothing is read from the host, and a site linted through its
// nginx.conf gets the findings of its own text.
func TestStockLayoutsInEditor(t *testing.T) {
	for _, name := range []string{"debian", "alpine", "fedora", "docker", "openresty"} {
		root, err := filepath.Abs(filepath.Join("..", "testdata", "layouts", name))
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, noHost := range []bool{false, true} {
			h := &hostlessFS{root: root, noHost: noHost}
			for _, f := range files {
				rel, _ := filepath.Rel(root, f)
				text, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				// A server per file: what one file's lint reads is its own.
				s := New()
				s.FS = h
				rootURI := string(pathToURI(root))
				s.initialize(&protocol.InitializeParams{RootURI: &rootURI})
				c := &client{published: map[protocol.DocumentUri][]protocol.Diagnostic{}}
				uri := open(t, s, c, f, string(text))
				for _, d := range c.diags(uri) {
					if d.Severity != nil && *d.Severity == protocol.DiagnosticSeverityError {
						t.Errorf("%s %s (no host %v): error %v: %s", name, rel, noHost, d.Code.Value, d.Message)
					}
				}
			}
			if len(h.outside) > 0 {
				t.Errorf("%s (no host %v): read from the host: %q", name, noHost, h.outside)
			}
		}
	}
	// A site of Debian's tree with a directive of its own: published for
	// the file opened, read from the workspace (the host's stock site has
	// no such directive).
	dir := t.TempDir()
	files := map[string]string{}
	root, _ := filepath.Abs(filepath.Join("..", "testdata", "layouts", "debian"))
	for _, rel := range []string{"etc/nginx/nginx.conf", "etc/nginx/mime.types", "etc/nginx/sites-available/default"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = string(b)
	}
	files["etc/nginx/sites-available/default"] = strings.Replace(files["etc/nginx/sites-available/default"], "server_name _;", "server_name _;\n\tno_such_directive on;", 1)
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "etc/nginx/sites-enabled"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../sites-available/default", filepath.Join(dir, "etc/nginx/sites-enabled/default")); err != nil {
		t.Fatal(err)
	}
	codes, _ := openIn(t, dir, filepath.Join(dir, "etc/nginx/sites-available/default"))
	if len(codes) != 1 || !strings.HasPrefix(codes[0], "NL2001@") {
		t.Errorf("site with its own directive: published %q, want the unknown directive alone", codes)
	}
}
