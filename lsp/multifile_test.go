package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// This file asks the real server over stdio what an editor with several
// files open, or a disk changed under it, sees (issue 30, "Why", item 2):
// every open file true after every change.

func hasMessage(ds []publishedDiag, sub string) bool {
	for _, d := range ds {
		if strings.Contains(d.Message, sub) {
			return true
		}
	}
	return false
}

// TestOpenSnippetDefinesVariable: a set typed in an open included snippet
// clears the main file's unknown variable, and definition from the main
// file reaches it.
func TestOpenSnippetDefinesVariable(t *testing.T) {
	dir := t.TempDir()
	main := "events {}\nhttp {\n    server {\n        listen 80;\n        include snippets/vars.conf;\n        location / { return 200 $from_snippet; }\n    }\n}\n"
	testfiles.Write(t, dir, map[string]string{"nginx.conf": main, "snippets/vars.conf": "# variables\n"})
	s := newSession(t, dir, nil)
	mainURI := s.open(filepath.Join(dir, "nginx.conf"), main)
	s.diagnostics(mainURI, func(ds []publishedDiag) bool { return hasMessage(ds, `unknown "from_snippet" variable`) })
	snipURI := s.open(filepath.Join(dir, "snippets", "vars.conf"), "# variables\n")
	s.change(snipURI, 2, 1, 1, "set $from_snippet 1;\n")
	s.diagnostics(mainURI, func(ds []publishedDiag) bool { return !hasMessage(ds, `unknown "from_snippet" variable`) })
	col := strings.Index(strings.Split(main, "\n")[5], "$from") + 2
	if locs := s.definition(mainURI, 5, col); len(locs) != 1 || !strings.HasSuffix(locs[0].URI, "/snippets/vars.conf") || locs[0].Range.Start.Line != 1 {
		t.Errorf("definition of $from_snippet: %+v", locs)
	}
}

// TestUpstreamMovedInOtherFile: an upstream moved and renamed in an open
// nginx.conf: an open app.conf it includes follows it.
func TestUpstreamMovedInOtherFile(t *testing.T) {
	dir := t.TempDir()
	main := "events {}\nhttp {\n    upstream backend { server 127.0.0.1:9000; }\n    include conf.d/*.conf;\n}\n"
	app := "server {\n    listen 80;\n    location / { proxy_pass http://backend; }\n}\n"
	testfiles.Write(t, dir, map[string]string{"nginx.conf": main, "conf.d/app.conf": app})
	s := newSession(t, dir, nil)
	mainURI := s.open(filepath.Join(dir, "nginx.conf"), main)
	appURI := s.open(filepath.Join(dir, "conf.d", "app.conf"), app)
	s.diagnostics(appURI, func([]publishedDiag) bool { return true })
	col := strings.Index(strings.Split(app, "\n")[2], "backend") + 2
	if locs := s.definition(appURI, 2, col); len(locs) != 1 || locs[0].Range.Start.Line != 2 {
		t.Fatalf("definition of backend: %+v", locs)
	}
	// Two lines above it: the upstream is on line 4 now.
	s.change(mainURI, 2, 2, 2, "    # the pool\n    # of app servers\n")
	if locs := s.definition(appURI, 2, col); len(locs) != 1 || !strings.HasSuffix(locs[0].URI, "/nginx.conf") || locs[0].Range.Start.Line != 4 {
		t.Errorf("definition of backend after the edit of nginx.conf: %+v", locs)
	}
	// Renamed: backend names no upstream any more.
	s.change(mainURI, 3, 4, 5, "    upstream pool { server 127.0.0.1:9000; }\n")
	if locs := s.definition(appURI, 2, col); len(locs) != 0 {
		t.Errorf("definition of backend after the rename: %+v", locs)
	}
	var hv struct{ Contents struct{ Value string } }
	json.Unmarshal(s.ask("textDocument/hover", s.at(mainURI, 4, 14)), &hv)
	if !strings.Contains(hv.Contents.Value, "pool") {
		t.Errorf("hover on the renamed upstream: %q", hv.Contents.Value)
	}
}

// TestWatchRegistration: a client that watches files for servers is asked
// to watch the configuration files and the settings files, then what the
// analyses read that those miss (mime.types).
func TestWatchRegistration(t *testing.T) {
	dir := t.TempDir()
	main := "events {}\nhttp {\n    include mime.types;\n}\n"
	testfiles.Write(t, dir, map[string]string{"nginx.conf": main, "mime.types": "types { text/html html; }\n"})
	s := newSession(t, dir, map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}})
	var patterns []string
	want := func(sub string) {
		t.Helper()
		for !strings.Contains(strings.Join(patterns, " "), sub) {
			r := s.c.next()
			if r.Method != "client/registerCapability" {
				continue
			}
			var p struct {
				Registrations []struct {
					Method          string
					RegisterOptions struct {
						Watchers []struct{ GlobPattern string }
					}
				}
			}
			if err := json.Unmarshal(r.Params, &p); err != nil {
				t.Fatal(err)
			}
			for _, reg := range p.Registrations {
				if reg.Method != "workspace/didChangeWatchedFiles" {
					t.Errorf("registration of %s", reg.Method)
				}
				for _, w := range reg.RegisterOptions.Watchers {
					patterns = append(patterns, w.GlobPattern)
				}
			}
			// The client's answer, which the server reads and drops.
			s.c.frame(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":null}`)
		}
	}
	want("**/*.conf")
	want("**/.nginx-lint.yaml")
	s.open(filepath.Join(dir, "nginx.conf"), main)
	want(filepath.ToSlash(filepath.Join(dir, "mime.types")))
}

// TestDiskChanges: an included file changed on disk, deleted, renamed;
// the open nginx.conf saved after a tool rewrote what it includes; and a
// client that cannot watch files, whose server looks by itself.
func TestDiskChanges(t *testing.T) {
	dir := t.TempDir()
	// nginx.conf uses $v, which extra.conf defines.
	main := "events {}\nhttp {\n    include extra.conf;\n    server {\n        listen 80;\n        return 200 $v;\n    }\n}\n"
	defines := "map $uri $v { default a; }\n"
	testfiles.Write(t, dir, map[string]string{"nginx.conf": main, "extra.conf": defines})
	const unknown = `unknown "v" variable`
	extra := filepath.Join(dir, "extra.conf")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(extra, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	watched := func(s *lspSession, typ int, paths ...string) {
		var changes []any
		for _, p := range paths {
			changes = append(changes, map[string]any{"uri": string(pathToURI(p)), "type": typ})
		}
		s.c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
	}
	t.Run("watched", func(t *testing.T) {
		s := newSession(t, dir, map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}})
		uri := s.open(filepath.Join(dir, "nginx.conf"), main)
		s.diagnostics(uri, func(ds []publishedDiag) bool { return len(ds) == 0 })
		write("map $uri $w { default a; }\n")
		watched(s, 2, extra)
		s.diagnostics(uri, func(ds []publishedDiag) bool { return hasMessage(ds, unknown) })
		write(defines)
		watched(s, 2, extra)
		s.diagnostics(uri, func(ds []publishedDiag) bool { return len(ds) == 0 })
		if err := os.Remove(extra); err != nil {
			t.Fatal(err)
		}
		watched(s, 3, extra)
		s.diagnostics(uri, func(ds []publishedDiag) bool { return hasMessage(ds, "cannot open included file") })
		// Moved back under its name by another program: a rename.
		other := filepath.Join(dir, "moved.conf")
		if err := os.WriteFile(other, []byte(defines), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(other, extra); err != nil {
			t.Fatal(err)
		}
		s.c.notify("workspace/didRenameFiles", map[string]any{"files": []any{map[string]any{"oldUri": string(pathToURI(other)), "newUri": string(pathToURI(extra))}}})
		s.diagnostics(uri, func(ds []publishedDiag) bool { return len(ds) == 0 })
		// Rewritten by a tool, no event: saving nginx.conf reads it again.
		write("map $uri $w { default a; }\n")
		s.c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
		s.diagnostics(uri, func(ds []publishedDiag) bool { return hasMessage(ds, unknown) })
	})
	t.Run("polled", func(t *testing.T) {
		write(defines)
		s := newSession(t, dir, nil)
		uri := s.open(filepath.Join(dir, "nginx.conf"), main)
		s.diagnostics(uri, func(ds []publishedDiag) bool { return len(ds) == 0 })
		// Far enough for the file's time to differ on any file system.
		time.Sleep(10 * time.Millisecond)
		write("map $uri $w { default a; }\n")
		s.diagnostics(uri, func(ds []publishedDiag) bool { return hasMessage(ds, unknown) })
	})
}
