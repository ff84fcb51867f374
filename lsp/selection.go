package lsp

import (
	"context"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds selection ranges ("expand selection"): from the
// cursor, the variable or word it is on, the directive, the body of the
// block around it, the whole block directive, and so on out to the file.

func (s *Server) selectionRange(_ context.Context, p *protocol.SelectionRangeParams) ([]protocol.SelectionRange, error) {
	v := s.viewOf(p.TextDocument.URI)
	if v == nil {
		return nil, nil
	}
	out := make([]protocol.SelectionRange, 0, len(p.Positions))
	for _, pos := range p.Positions {
		out = append(out, selectionAt(v.file, offset(v.file, pos)))
	}
	return out, nil
}

// selectionAt returns the chain of ranges around off, innermost first,
// each holding the one before.
func selectionAt(f *parser.File, off int) protocol.SelectionRange {
	// Outermost first, then linked the other way round.
	spans := []parser.Range{parser.Span(0, len(f.Src))}
	push := func(r parser.Range) {
		if last := spans[len(spans)-1]; r != last && r.Start >= last.Start && r.End <= last.End {
			spans = append(spans, r)
		}
	}
	h := locate(f, off)
	for _, b := range h.stack {
		push(b.Range())
		if b.RBrace() >= 0 {
			// The body: inside the braces, without them.
			push(parser.Span(int(b.LBrace())+1, int(b.RBrace())))
		}
	}
	if d := h.dir; d != nil {
		push(d.Range())
		var w *parser.Word
		switch {
		case h.arg == -1:
			name := d.Name()
			w = &name
		case h.arg >= 0:
			w = &d.Args()[h.arg]
		}
		if w != nil {
			push(w.Range)
			// A variable inside the word.
			raw := f.Src[w.Range.Start:w.Range.End]
			at := int(w.Range.Start)
			for t := range script.Tokens(raw) {
				if t.Kind != script.Variable && t.Kind != script.Capture {
					continue
				}
				// "$" to the name's end ("${name" without its "}").
				end := t.Start + 1 + len(t.Name)
				if t.Text[1] == '{' {
					end++
				}
				if off >= at+t.Start && off <= at+end {
					push(parser.Span(at+t.Start, at+end))
				}
			}
		}
	}
	var sel *protocol.SelectionRange
	for _, r := range spans {
		sel = &protocol.SelectionRange{Range: rangeOf(f, r), Parent: sel}
	}
	return *sel
}
