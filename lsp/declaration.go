package lsp

import (
	"context"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
)

// This file holds declaration: for nginx, where the configuration
// declares a name is where it defines it (an upstream block, a "set" or
// a map of a variable, a named location, a zone given its size), so
// declaration answers what definition answers for names, and nothing for
// the files definition also jumps to (includes, certificates).

// nameAt finds the name at pos in the current view of the document (the
// newest text of everything, without waiting for the lint: currentView):
// the symbol table's occurrence under the cursor, or, elsewhere on a word
// that names exactly one symbol (the scheme of "http://backend"), that
// one. ok is false when there is none.
func (s *Server) nameAt(ctx context.Context, uri protocol.DocumentUri, pos protocol.Position) (v *view, o symbols.Occurrence, ok bool, err error) {
	v, err = s.currentView(ctx, uri)
	if v == nil {
		return nil, o, false, err
	}
	tab := v.symbols()
	off := offset(v.file, pos)
	if o, ok = tab.At(v.file.Path, off); ok {
		return v, o, true, nil
	}
	if h := locate(v.file, off); h.dir != nil && h.arg >= 0 {
		if in := tab.In(v.file.Path, h.dir.Args()[h.arg].Range); len(in) == 1 {
			return v, in[0], true, nil
		}
	}
	return v, o, false, nil
}

// declaration answers textDocument/declaration: the definitions of the
// upstream, variable, named location or zone at the cursor.
func (s *Server) declaration(ctx context.Context, p *protocol.DeclarationParams) ([]protocol.Location, error) {
	out := []protocol.Location{}
	v, o, ok, err := s.nameAt(ctx, p.TextDocument.URI, p.Position)
	if !ok || o.Symbol.Kind == symbols.Certificate {
		return out, err
	}
	tab := v.symbols()
	for _, def := range tab.Definitions(o.Symbol) {
		out = append(out, protocol.Location{URI: v.uriOf(def.File), Range: rangeOf(def.File, def.Range)})
	}
	return out, nil
}
