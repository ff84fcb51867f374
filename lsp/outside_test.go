package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestOutsideFileNotQuoted: a map defined in a file outside the
// workspace (included by absolute path) is not shown by hover (where it
// is defined is) nor offered by completion, and a finding's related
// place there carries no text of it; the same file inside the workspace
// is shown, so the test can fail.
func TestOutsideFileNotQuoted(t *testing.T) {
	const secret = "map $host $tok { default TOPSECRET_hover; }\nclient_max_body_size 1m;\n"
	for _, inside := range []bool{false, true} {
		s, c, dir := setup(t, nil)
		where := t.TempDir()
		if inside {
			where = filepath.Join(dir, "in")
			if err := os.Mkdir(where, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(where, "secret.conf")
		if err := os.WriteFile(path, []byte(secret), 0o644); err != nil {
			t.Fatal(err)
		}
		text := "events {}\nhttp {\n    include " + path + ";\n    client_max_body_size 2m;\n    server {\n        listen 80;\n        return 200 $tok;\n        \n    }\n}\n"
		uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
		pos := func(line, char int) protocol.TextDocumentPositionParams {
			return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
				Position: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}}
		}
		var shown strings.Builder
		h, err := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: pos(6, 21)})
		if err != nil || h == nil {
			t.Fatalf("inside %v: hover %v %v", inside, h, err)
		}
		shown.WriteString(h.Contents.(protocol.MarkupContent).Value)
		res, _ := s.completion(bg, &protocol.CompletionParams{TextDocumentPositionParams: pos(6, 20)})
		offered := false
		for _, it := range res.([]protocol.CompletionItem) {
			offered = offered || it.Label == "$tok"
		}
		if offered != inside {
			t.Errorf("inside %v: $tok offered %v", inside, offered)
		}
		b, _ := json.Marshal(c.diags(uri))
		shown.Write(b)
		got := shown.String()
		if !strings.Contains(got, "secret.conf:1") {
			t.Errorf("inside %v: the hover does not say where $tok is defined: %s", inside, got)
		}
		if strings.Contains(got, "TOPSECRET_hover") != inside {
			t.Errorf("inside %v: the map's text shown %v:\n%s", inside, !inside, got)
		}
		if !strings.Contains(got, "secret.conf") || !strings.Contains(got, `"first given here"`) {
			t.Errorf("inside %v: no related place in secret.conf:\n%s", inside, got)
		}
	}
}

// TestOpeningManyDocuments: opening n documents lints each about once,
// and marks no other document changed. Each open marked every document
// not linted yet changed (it had no view to say what it reads), and each
// lint copied every open buffer: three thousand documents took 14 s of
// CPU and 1.3 GB, ten thousand over ten minutes.
func TestOpeningManyDocuments(t *testing.T) {
	s, c, dir := setup(t, nil)
	const n = 400
	for i := range n {
		uri := pathToURI(filepath.Join(dir, fmt.Sprintf("d%d.conf", i)))
		if err := s.didOpen(c.ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "nginx", Version: 1,
			Text: fmt.Sprintf("server { listen %d; server_name d%d.example; }\n", 1000+i, i)}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Settle()
	if got := s.lintsRun.Load(); got > 2*n {
		t.Errorf("%d lints for %d documents opened", got, n)
	}
	// A document is changed once, by its own open: no other open marks
	// it changed (each did, for every document not linted yet).
	s.mu.Lock()
	most := uint64(0)
	for _, d := range s.docs {
		most = max(most, d.gen)
	}
	s.mu.Unlock()
	if most > 2 {
		t.Errorf("a document was marked changed %d times", most)
	}
	for i := range n {
		if c.diags(pathToURI(filepath.Join(dir, fmt.Sprintf("d%d.conf", i)))) == nil {
			t.Fatalf("nothing published for d%d.conf", i)
		}
	}
}
