//go:build unix

package lsp

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// The benchmarks of the features of issue 30 on the seed's slowest
// layout, the 19,900-server L2c file (1.98 MB): what an editor asks for
// on open and while scrolling must not stall it.

// l2c opens the L2c file and returns its view, linted.
func l2c(b *testing.B) (*Server, protocol.DocumentUri, *view, []string) {
	text := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900}))
	s, uri, _ := benchDoc(b, text)
	v, _ := s.lintedView(bg, uri)
	if v == nil {
		b.Fatal("no view")
	}
	return s, uri, v, strings.Split(text, "\n")
}

// viewport is 80 lines in the middle of the file, as an editor shows.
func viewport(lines []string) protocol.Range {
	mid := protocol.UInteger(len(lines) / 2)
	return protocol.Range{Start: protocol.Position{Line: mid}, End: protocol.Position{Line: mid + 80}}
}

// BenchmarkSemanticTokensFullL2c19900: the tokens of the whole file as
// the first request on its text pays for them (the index of the
// document is made each time), encoded as they go over the wire.
func BenchmarkSemanticTokensFullL2c19900(b *testing.B) {
	s, uri, v, _ := l2c(b)
	p := &protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}
	b.ReportAllocs()
	defer cpu(b)()
	var size int
	for b.Loop() {
		v.ixOnce, v.ix = sync.Once{}, nil
		res, err := s.semanticTokensFull(bg, p)
		if err != nil || len(res.Data) < 5*90000 {
			b.Fatalf("tokens %d %v", len(res.Data), err)
		}
		out, _ := json.Marshal(res)
		size = len(out)
	}
	b.ReportMetric(float64(size), "json-bytes")
}

// BenchmarkSemanticTokensRangeL2c19900: the tokens of 80 lines in the
// middle of the file (what an editor asks first on a large file), the
// index made each time.
func BenchmarkSemanticTokensRangeL2c19900(b *testing.B) {
	s, uri, v, lines := l2c(b)
	p := &protocol.SemanticTokensRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: viewport(lines)}
	b.ReportAllocs()
	defer cpu(b)()
	for b.Loop() {
		v.ixOnce, v.ix = sync.Once{}, nil
		res, err := s.semanticTokensRange(bg, p)
		if err != nil || len(res.Data) == 0 || len(res.Data) > 5*400 {
			b.Fatalf("tokens %d %v", len(res.Data), err)
		}
	}
}

// BenchmarkSemanticTokensRangeWarmL2c19900: the same on a text whose
// index an earlier request made (scrolling).
func BenchmarkSemanticTokensRangeWarmL2c19900(b *testing.B) {
	s, uri, _, lines := l2c(b)
	p := &protocol.SemanticTokensRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: viewport(lines)}
	b.ReportAllocs()
	defer cpu(b)()
	for b.Loop() {
		if res, err := s.semanticTokensRange(bg, p); err != nil || len(res.Data) == 0 {
			b.Fatalf("tokens %v", err)
		}
	}
}

// inlayBench asks for the inlay hints of r; first: as the first request
// on a text (the servers' shares made each time).
func inlayBench(b *testing.B, r func(lines []string) protocol.Range, min int, first bool) {
	s, uri, _, lines := l2c(b)
	p := &inlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: r(lines)}
	b.ReportAllocs()
	defer cpu(b)()
	for b.Loop() {
		if first {
			s.shares = sharesCache{}
		}
		hints, err := s.inlayHint(bg, p)
		if err != nil || len(hints) < min {
			b.Fatalf("%d hints %v", len(hints), err)
		}
	}
}

// BenchmarkInlayHintsL2c19900: the hints of 80 lines in the middle of
// the file (the cost model is the lint's, the servers' shares made by the
// first request on the text).
func BenchmarkInlayHintsL2c19900(b *testing.B) {
	inlayBench(b, viewport, 20, false)
}

// BenchmarkInlayHintsFirstL2c19900: the same as the first request on a
// text.
func BenchmarkInlayHintsFirstL2c19900(b *testing.B) {
	inlayBench(b, viewport, 20, true)
}

// BenchmarkInlayHintsFullL2c19900: the hints of the whole file, 39,800
// of them.
func BenchmarkInlayHintsFullL2c19900(b *testing.B) {
	inlayBench(b, func(lines []string) protocol.Range {
		return protocol.Range{End: protocol.Position{Line: protocol.UInteger(len(lines))}}
	}, 2*19900, false)
}

// BenchmarkCodeLensL2c19900: the estimate on "http {".
func BenchmarkCodeLensL2c19900(b *testing.B) {
	s, uri, _, _ := l2c(b)
	p := &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}
	b.ReportAllocs()
	defer cpu(b)()
	for b.Loop() {
		if lenses, err := s.codeLens(bg, p); err != nil || len(lenses) != 1 {
			b.Fatalf("lenses %v %v", lenses, err)
		}
	}
}

// BenchmarkWorkspaceSymbolL2c19900: a query over the workspace that
// holds the file (open; its symbols kept from an earlier query).
func BenchmarkWorkspaceSymbolL2c19900(b *testing.B) {
	s, _, _, _ := l2c(b)
	p := &protocol.WorkspaceSymbolParams{Query: "perf-test-01999"}
	b.ReportAllocs()
	defer cpu(b)()
	for b.Loop() {
		if syms, err := s.workspaceSymbol(bg, p); err != nil || len(syms) == 0 {
			b.Fatalf("symbols %v %v", syms, err)
		}
	}
}
