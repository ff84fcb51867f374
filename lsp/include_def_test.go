package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestIncludeDefinitionModifiedBuffer: go to definition on an include
// still answers once the buffer differs from the disk, and reaches an
// included file that is open in the editor.
func TestIncludeDefinitionModifiedBuffer(t *testing.T) {
	files := map[string]string{"site.conf": "server { listen 80; }\n"}
	s, c, dir := setup(t, files)
	text := "events {}\nhttp {\n    include site.conf;\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	edited := "events {}\nhttp {\n    include site.conf;\n    gzip on;\n}\n"
	r := protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 4, Character: 0}}
	if err := s.didChange(c.ctx(), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: 2},
		ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: edited}},
	}); err != nil {
		t.Fatal(err)
	}
	res, err := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 2, 14)})
	locs, _ := res.([]protocol.Location)
	if err != nil || len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/site.conf") {
		t.Errorf("definition on the include of a modified buffer: %+v %v", res, err)
	}
}

// TestIncludeDefinitionInSiteFile: in a site file that nginx.conf
// includes, an include resolves against nginx.conf's prefix, before and
// after an edit of the site file.
func TestIncludeDefinitionInSiteFile(t *testing.T) {
	files := map[string]string{
		"nginx.conf":            "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"conf.d/site.conf":      "server {\n    listen 80;\n    include snippets/x.conf;\n}\n",
		"snippets/x.conf":       "gzip on;\n",
		"conf.d/snippets/.keep": "",
	}
	s, c, dir := setup(t, files)
	uri := open(t, s, c, filepath.Join(dir, "conf.d", "site.conf"), files["conf.d/site.conf"])
	def := func(what string) {
		t.Helper()
		res, err := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 2, 16)})
		locs, _ := res.([]protocol.Location)
		if err != nil || len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/snippets/x.conf") || strings.Contains(string(locs[0].URI), "conf.d/snippets") {
			t.Errorf("%s: definition %+v %v", what, res, err)
		}
	}
	def("as on disk")
	edited := "server {\n    listen 80;\n    include snippets/x.conf;\n    gzip off;\n}\n"
	r := protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 4, Character: 0}}
	if err := s.didChange(c.ctx(), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: 2},
		ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: edited}},
	}); err != nil {
		t.Fatal(err)
	}
	def("modified")
}

// TestIncludeDefinitionOpenBuffer: an include reaches a file that exists
// only as an open buffer (not saved yet).
func TestIncludeDefinitionOpenBuffer(t *testing.T) {
	s, c, dir := setup(t, nil)
	open(t, s, c, filepath.Join(dir, "new.conf"), "gzip on;\n")
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), "events {}\nhttp {\n    include new.conf;\n}\n")
	res, err := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, 2, 14)})
	locs, _ := res.([]protocol.Location)
	if err != nil || len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/new.conf") {
		t.Errorf("definition %+v %v", res, err)
	}
}
