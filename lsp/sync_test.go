package lsp

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestLineStarts: the document store's positions agree with offsetOf
// (which scans from the top) on texts with multi-byte characters, pairs
// of UTF-16 units, CRLF and invalid bytes, and its line index stays what
// indexing the edited text gives after every edit.
func TestLineStarts(t *testing.T) {
	pieces := []string{"a", "é", "😀", "\n", "\r\n", "\xff", " ", "{", "日本"}
	r := rand.New(rand.NewPCG(3, 4))
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	text := gen(200)
	ls := newLineStarts([]byte(text))
	for range 2000 {
		pos := func() protocol.Position {
			return protocol.Position{Line: protocol.UInteger(r.IntN(len(ls) + 1)), Character: protocol.UInteger(r.IntN(12))}
		}
		a, b := pos(), pos()
		if got, want := ls.offset([]byte(text), a), offsetOf(text, a); got != want {
			t.Fatalf("offset of %+v in %q: %d, offsetOf says %d", a, text, got, want)
		}
		start, end := ls.offset([]byte(text), a), ls.offset([]byte(text), b)
		if end < start {
			start, end = end, start
		}
		repl := gen(r.IntN(4))
		text = text[:start] + repl + text[end:]
		ls.replace(start, end, repl)
		if want := newLineStarts([]byte(text)); !slices.Equal(ls, want) {
			t.Fatalf("line starts after an edit: %v, want %v", ls, want)
		}
	}
}

// TestIncrementalEditsUTF16: incremental edits placed by UTF-16 columns
// after characters of two units (an emoji) and of one unit but several
// bytes land where the editor means them.
func TestIncrementalEditsUTF16(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "events {}\nhttp {\n    add_header X-É \"😀é😀\";\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	// After the closing quote: 4 + len(`add_header X-É "`) + 2+1+2 + 1.
	line := "    add_header X-É \"😀é😀\";"
	col := len(utf16.Encode([]rune(line)))
	edit := func(version int, ch protocol.UInteger, newText string) {
		r := protocol.Range{Start: protocol.Position{Line: 2, Character: ch}, End: protocol.Position{Line: 2, Character: ch}}
		if err := s.didChange(c.ctx(), &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: protocol.Integer(version)},
			ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: newText}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	edit(2, protocol.UInteger(col), " gzipp on;")
	edit(3, protocol.UInteger(col+len(" gzipp on;")), " 😀x on;")
	s.Settle()
	if want := "    add_header X-É \"😀é😀\"; gzipp on; 😀x on;"; strings.Split(string(s.docs[uri].buf), "\n")[2] != want {
		t.Fatalf("line 3 is %q, want %q", strings.Split(string(s.docs[uri].buf), "\n")[2], want)
	}
	var starts []protocol.UInteger
	for _, d := range c.diags(uri) {
		if d.Code.Value == "NL2001" {
			starts = append(starts, d.Range.Start.Character)
		}
	}
	slices.Sort(starts)
	if want := []protocol.UInteger{protocol.UInteger(col + 1), protocol.UInteger(col + len(" gzipp on;") + 1)}; !slices.Equal(starts, want) {
		t.Errorf("unknown directives at UTF-16 columns %v, want %v", starts, want)
	}
}

// TestIncrementalSyncOverStdio: the server asks for incremental edits,
// and an edit placed by UTF-16 columns after characters of two units
// lands where the editor means it (issue 30: every keystroke sent the
// whole document).
func TestIncrementalSyncOverStdio(t *testing.T) {
	c := procClient(t)
	dir := t.TempDir()
	c.request("1", "initialize", map[string]any{"processId": nil, "rootUri": string(pathToURI(dir)), "capabilities": map[string]any{}})
	r := c.answer()
	var res struct {
		Capabilities struct {
			TextDocumentSync struct{ Change int }
		}
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || res.Capabilities.TextDocumentSync.Change != 2 {
		t.Fatalf("textDocumentSync %s (want change 2, incremental)", r.raw)
	}
	c.notify("initialized", map[string]any{})
	text := "events {}\nhttp {\n    add_header X \"😀😀\";\n}\n"
	uri := string(pathToURI(filepath.Join(dir, "nginx.conf")))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": text}})
	c.published(uri, 1)
	col := len(utf16.Encode([]rune(`    add_header X "😀😀";`)))
	at := map[string]any{"line": 2, "character": col}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": at, "end": at}, "text": " gzipp on;"}},
	})
	for _, d := range c.published(uri, 2) {
		if d["code"] == "NL2001" {
			start := d["range"].(map[string]any)["start"].(map[string]any)
			if start["line"] != 2.0 || start["character"] != float64(col+1) {
				t.Errorf("unknown directive at %v, want 2:%d", start, col+1)
			}
			return
		}
	}
	t.Error("no unknown-directive finding after the edit")
}
