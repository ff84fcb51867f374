package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds the features that follow a name through the whole
// configuration: references, document highlights, rename and the
// definition of names. What a name is and where it occurs is the symbol
// table's (analyzer/symbols); this file asks it and presents the answer.

// symbolView is a symbol under the cursor and every place it occurs in
// the configuration the document is analysed in.
type symbolView struct {
	v    *view
	tab  *symbols.Table
	at   symbols.Occurrence // the occurrence under the cursor
	sym  symbols.Symbol
	r    parser.Range // in v.file
	occs []symbols.Occurrence
}

// symbolOf finds the symbol at pos in the linted view of the document
// (its configuration is the whole one: the nginx.conf that includes it)
// and its occurrences; nil when there is none.
func (s *Server) symbolOf(ctx context.Context, uri protocol.DocumentUri, pos protocol.Position) (*symbolView, error) {
	v, err := s.currentView(ctx, uri)
	if v == nil {
		return nil, err
	}
	tab := v.symbols()
	o, ok := tab.At(v.file.Path, offset(v.file, pos))
	if !ok {
		return nil, nil
	}
	return &symbolView{v: v, tab: tab, at: o, sym: o.Symbol, r: o.Range, occs: tab.Occurrences(o.Symbol)}, nil
}

// symbols returns the symbol table of the configuration the document is
// read in: its unit's (the nginx.conf that includes it) when that was
// parsed with this text, the very table the lint's rules read, else the
// document's own, built on first use, once: typing does not pay for it.
func (v *view) symbols() *symbols.Table {
	v.symOnce.Do(func() {
		if v.unit != nil && v.unit.Config != nil && v.unitFile != nil && v.unitFile.Src == v.file.Src {
			v.syms = v.unit.Symbols()
			return
		}
		v.syms = symbols.Build(v.index(v.config))
	})
	return v.syms
}

// uriOf is the URI of a file of v's configuration: the document's own
// URI for the document (which may not be a file: URI).
func (v *view) uriOf(f *parser.File) protocol.DocumentUri {
	if f.Path == v.path {
		return v.uri
	}
	return pathToURI(f.Path)
}

func (s *Server) references(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	sv, err := s.symbolOf(ctx, p.TextDocument.URI, p.Position)
	if sv == nil || len(sv.occs) == 0 {
		return nil, err
	}
	out := []protocol.Location{}
	for _, o := range sv.occs {
		if o.Def && !p.Context.IncludeDeclaration {
			continue
		}
		out = append(out, protocol.Location{URI: sv.v.uriOf(o.File), Range: rangeOf(o.File, o.Range)})
	}
	return out, nil
}

func (s *Server) documentHighlight(ctx context.Context, p *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	sv, err := s.symbolOf(ctx, p.TextDocument.URI, p.Position)
	if sv == nil || len(sv.occs) == 0 {
		return nil, err
	}
	out := []protocol.DocumentHighlight{}
	read, write := protocol.DocumentHighlightKindRead, protocol.DocumentHighlightKindWrite
	for _, o := range sv.occs {
		if o.File.Path != sv.v.path {
			continue
		}
		kind := &read
		if o.Def {
			kind = &write
		}
		out = append(out, protocol.DocumentHighlight{Range: rangeOf(sv.v.file, o.Range), Kind: kind})
	}
	return out, nil
}

// renameable says why sym cannot be renamed, "" when it can.
func renameable(sv *symbolView) string {
	if sv.sym.Kind == symbols.Capture {
		return "$" + sv.v.file.Src[sv.r.Start:sv.r.End] + " is a numbered capture of a regex"
	}
	if sv.sym.BuiltIn() {
		return fmt.Sprintf("$%s is a built-in variable", sv.sym.Name)
	}
	defined := false
	for _, o := range sv.occs {
		defined = defined || o.Def
	}
	if !defined {
		return fmt.Sprintf("%s %q is not defined in this configuration", sv.sym.Kind, sv.sym.Name)
	}
	for _, o := range sv.occs {
		if o.Opaque {
			return fmt.Sprintf("%s:%d has it in a string with escapes; edit that one by hand first", o.File.Path, o.File.Line(int(o.Range.Start)))
		}
	}
	return ""
}

func (s *Server) prepareRename(ctx context.Context, p *protocol.PrepareRenameParams) (*protocol.RangeWithPlaceholder, error) {
	sv, err := s.symbolOf(ctx, p.TextDocument.URI, p.Position)
	if sv == nil || renameable(sv) != "" {
		return nil, err
	}
	return &protocol.RangeWithPlaceholder{Range: rangeOf(sv.v.file, sv.r), Placeholder: sv.v.file.Src[sv.r.Start:sv.r.End]}, nil
}

func (s *Server) rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	sv, err := s.symbolOf(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	if sv == nil {
		return nil, nil // nothing to rename here
	}
	if why := renameable(sv); why != "" {
		return nil, errorf(codeInvalidParams, "cannot rename: %s", why)
	}
	name := p.NewName
	// The sigil may come with the new name, as the editor shows it.
	if sigil := sv.sym.Kind.Sigil(); sigil != "" {
		name = strings.TrimPrefix(name, sigil)
	}
	if why := validName(sv.sym.Kind, name); why != "" {
		return nil, errorf(codeInvalidParams, "cannot rename: %s", why)
	}
	changes := map[protocol.DocumentUri][]protocol.TextEdit{}
	for _, o := range sv.occs {
		uri := sv.v.uriOf(o.File)
		changes[uri] = append(changes[uri], protocol.TextEdit{Range: rangeOf(o.File, o.Range), NewText: name})
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// symbolHover describes the name at off in the document: for a variable
// the configuration defines, what defines it (and, for set and map, what
// it gives); for a built-in variable, its module; for an upstream or a
// named location, where it is defined. "" when off is on no name.
func (s *Server) symbolHover(ctx context.Context, uri protocol.DocumentUri, off int) (string, parser.Range) {
	v, _ := s.currentView(ctx, uri)
	if v == nil {
		return "", parser.Range{}
	}
	tab := v.symbols()
	o, ok := tab.At(v.file.Path, off)
	if !ok {
		return "", parser.Range{}
	}
	sym := o.Symbol
	// A name is shown as it is written: "$x", "@x", or after what it
	// is ("upstream backend").
	lead := sym.Kind.Sigil()
	if lead == "" {
		lead = sym.Kind.String() + " "
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s%s**", lead, v.file.Src[o.Range.Start:o.Range.End])
	defs := tab.Definitions(sym)
	if len(defs) == 0 {
		if sym.Kind != symbols.Variable {
			return "", parser.Range{}
		}
		bv, ok := directives.LookupVariable(sym.Name)
		if !ok {
			return "", parser.Range{}
		}
		fmt.Fprintf(&b, " (%s)", bv.Module)
		if bv.URL != "" {
			b.WriteString("\n\n[Documentation](" + bv.URL + ")")
		}
		return b.String(), o.Range
	}
	const most = 5
	for i, def := range defs {
		if i == most {
			fmt.Fprintf(&b, "\n\nand %d more definitions", len(defs)-most)
			break
		}
		d := tab.Directive(def)
		where := fmt.Sprintf("%s:%d", filepath.Base(def.File.Path), def.File.Line(int(def.Range.Start)))
		what := "defined by"
		switch {
		case sym.Kind == symbols.Capture:
			what = "group " + v.file.Src[o.Range.Start:o.Range.End] + " of the regex of"
			if v.file.Src[o.Range.Start:o.Range.End] == "0" {
				what = "the whole match of the regex of"
			}
		case def.Capture:
			what = "a named group of the regex of"
		}
		fmt.Fprintf(&b, "\n\n%s `%s` (%s)", what, dirText(d), where)
		if d.Name().Value == "map" && d.Block != nil {
			b.WriteString(", which gives:\n")
			mapLines(&b, d)
		}
	}
	return b.String(), o.Range
}

// dirText is a directive as one short line: its name and arguments, no
// block.
func dirText(d *parser.Directive) string {
	t := strings.Join(append([]string{d.Name().Value}, d.ArgValues()...), " ")
	if len(t) > 100 {
		t = t[:97] + "..."
	}
	return strings.ReplaceAll(t, "`", "'")
}
