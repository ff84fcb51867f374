package lsp

import (
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
