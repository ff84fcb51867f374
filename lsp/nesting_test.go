package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestNestingDepth: a document of locations nested as deep as nginx reads
// them (parser.MaxDepth blocks) has no diagnostic, an outline (pruned to
// its budget, outermost first), a fold per block and a hover at its
// deepest line; one level more is one diagnostic at that location.
func TestNestingDepth(t *testing.T) {
	deepest := parser.MaxDepth - 2
	s, c, dir := setup(t, nil)
	text := testfiles.NestedLocations(deepest, "127.0.0.1:8080", testfiles.Location, "proxy_set_header Host $host;\nreturn 200 deep;")
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	if ds := c.diags(uri); len(ds) != 0 {
		t.Errorf("%d diagnostics, the first %+v", len(ds), ds[0])
	}
	doc := protocol.TextDocumentIdentifier{URI: uri}
	res, err := s.documentSymbol(bg, &protocol.DocumentSymbolParams{TextDocument: doc})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for syms := res.([]protocol.DocumentSymbol); len(syms) > 0; syms = syms[len(syms)-1].Children {
		n += len(syms)
	}
	if n != outlineBudget {
		t.Errorf("the outline lists %d symbols down its last branch, want the budget, %d", n, outlineBudget)
	}
	folds, err := s.foldingRange(bg, &protocol.FoldingRangeParams{TextDocument: doc})
	if err != nil || len(folds) != deepest+2 {
		t.Errorf("%d folding ranges (%v), want %d", len(folds), err, deepest+2)
	}
	// Hover on "proxy_set_header" in the innermost location.
	line := protocol.UInteger(4 + deepest)
	h, err := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: doc, Position: protocol.Position{Line: line, Character: 3}}})
	if err != nil || h == nil || !strings.Contains(h.Contents.(protocol.MarkupContent).Value, "proxy_set_header") {
		t.Errorf("hover at line %d: %+v, %v", line+1, h, err)
	}

	past := testfiles.NestedLocations(deepest+1, "127.0.0.1:8080", testfiles.Location, "return 200 deep;")
	uri = open(t, s, c, filepath.Join(dir, "past.conf"), past)
	ds := c.diags(uri)
	if len(ds) != 1 || ds[0].Range.Start.Line != protocol.UInteger(4+deepest) || ds[0].Range.Start.Character != 0 || !strings.Contains(ds[0].Message, "blocks nested more than") {
		t.Errorf("one level past the bound: %+v", ds)
	}
}
