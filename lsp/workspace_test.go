package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/parser"
)

// recordingFS records every path the server reads.
type recordingFS struct {
	parser.FileSystem
	mu   sync.Mutex
	read []string
}

func (r *recordingFS) ReadFile(p string) ([]byte, error) {
	r.mu.Lock()
	r.read = append(r.read, p)
	r.mu.Unlock()
	return r.FileSystem.ReadFile(p)
}

func (r *recordingFS) didRead(p string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.read, p)
}

// openIn starts a server whose workspace is root, opens path with its
// text from disk, and returns the codes of what is published for it.
func openIn(t *testing.T, root, path string) ([]string, *recordingFS) {
	t.Helper()
	rec := &recordingFS{FileSystem: parser.OSFS{}}
	s := New()
	s.FS = rec
	rootURI := string(pathToURI(root))
	s.initialize(&protocol.InitializeParams{RootURI: &rootURI})
	c := &client{published: map[protocol.DocumentUri][]protocol.Diagnostic{}}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	uri := open(t, s, c, path, string(text))
	var codes []string
	for _, d := range c.diags(uri) {
		codes = append(codes, fmt.Sprintf("%v@%d", d.Code.Value, d.Range.Start.Line))
	}
	return codes, rec
}

// TestWorkspaceBounds: ws/site.conf is included by ../../nginx.conf, which
// lies outside the workspace: it is not read, and the settings file beside
// it does not apply. With the workspace one level up, both are used.
func TestWorkspaceBounds(t *testing.T) {
	top := t.TempDir()
	testfiles.Write(t, top, map[string]string{
		"nginx.conf":       "events {}\nhttp {\n    include a/ws/site.conf;\n}\n",
		".nginx-lint.yaml": "rules:\n  unknown-directive: off\n",
		"a/ws/site.conf":   "listen 80;\nserver_name x.example;\ngzipp on;\n",
		"a/ws/inside.conf": "events {}\nhttp {\n    include ../../shared.conf;\n}\n",
		"shared.conf":      "upstream app { server 127.0.0.1:9000; }\ninclude ../../far/more.conf;\n",
		"far/more.conf":    "upstream more { server 127.0.0.1:9001; }\n",
		"b/.git/HEAD":      "ref: refs/heads/main\n",
		"b/nginx.conf":     "events {}\nhttp {\n    include c/site.conf;\n}\n",
		"b/c/site.conf":    "listen 80;\n",
	})
	site := filepath.Join(top, "a", "ws", "site.conf")
	mainConf := filepath.Join(top, "nginx.conf")

	codes, rec := openIn(t, filepath.Join(top, "a", "ws"), site)
	if rec.didRead(mainConf) {
		t.Errorf("the nginx.conf outside the workspace was read: %v", rec.read)
	}
	// A server fragment alone: only the unknown directive, which the
	// settings outside the workspace would have turned off.
	if got := strings.Join(codes, " "); got != "NL2001@2" {
		t.Errorf("inside the workspace: %s, want NL2001@2 only", got)
	}

	// The workspace one level higher holds both: site.conf is checked
	// where nginx reads it (listen and server_name in http) and the
	// settings apply.
	codes, rec = openIn(t, top, site)
	if !rec.didRead(mainConf) {
		t.Errorf("nginx.conf inside the workspace was not read")
	}
	if got := strings.Join(codes, " "); got != "NL2002@0 NL2002@1" {
		t.Errorf("workspace at the top: %s, want NL2002@0 NL2002@1", got)
	}

	// An include inside the workspace may name a file outside it.
	_, rec = openIn(t, filepath.Join(top, "a", "ws"), filepath.Join(top, "a", "ws", "inside.conf"))
	if !rec.didRead(filepath.Join(top, "shared.conf")) {
		t.Errorf("the file an include names outside the workspace was not read")
	}
	// What that outside file includes in turn is not followed.
	if rec.didRead(filepath.Join(top, "far", "more.conf")) {
		t.Errorf("an include of a file outside the workspace was followed further out")
	}

	// A repository root (.git) bounds the search inside a workspace:
	// b/nginx.conf, in the repository, is found; the top's nginx.conf and
	// settings file, above the repository, are not.
	codes, rec = openIn(t, top, filepath.Join(top, "b", "c", "site.conf"))
	if !rec.didRead(filepath.Join(top, "b", "nginx.conf")) {
		t.Errorf("b/nginx.conf (in the repository) was not read")
	}
	if rec.didRead(mainConf) {
		t.Errorf("the search went above the repository root")
	}
	if got := strings.Join(codes, " "); got != "NL2002@0" {
		t.Errorf("in the repository: %s, want NL2002@0", got)
	}
}

// TestNoWorkspace: without a workspace folder, a file is bounded by its
// repository root, else its own directory.
func TestNoWorkspace(t *testing.T) {
	top := t.TempDir()
	testfiles.Write(t, top, map[string]string{
		"nginx.conf":  "events {}\nhttp {\n    include d/site.conf;\n}\n",
		"d/site.conf": "listen 80;\n",
	})
	s := New()
	s.initialize(&protocol.InitializeParams{})
	s.mu.Lock()
	bound := s.boundLocked(filepath.Join(top, "d", "site.conf"))
	s.mu.Unlock()
	if _, err := os.Lstat(filepath.Join(bound, ".git")); bound != filepath.Join(top, "d") && err != nil {
		t.Errorf("bound %s", bound)
	}
}
