package lsp

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds the features that follow a name through the whole
// configuration: references, document highlights and rename, for three
// kinds of names a configuration defines and uses: upstreams, named
// locations (@name) and the variables it defines itself.

type symbolKind uint8

const (
	symUpstream symbolKind = iota + 1
	symNamedLocation
	symVariable
)

func (k symbolKind) String() string {
	switch k {
	case symUpstream:
		return "upstream"
	case symNamedLocation:
		return "named location"
	}
	return "variable"
}

// symbol is a name the configuration defines.
type symbol struct {
	kind symbolKind
	name string // without "@" or "$"
	// stream is set for a variable of the stream module: stream {} and
	// http {} keep variables apart, so a $name in one is another
	// variable than the same name in the other.
	stream bool
}

// inStream reports whether entry e is inside stream {}.
func inStream(e *analyzer.Entry) bool { return e.Context()&directives.StreamContexts != 0 }

// occurrence is one place a symbol is written: r covers the name alone
// (without "@" or "$"), so a rename replaces exactly it.
type occurrence struct {
	file *parser.File
	r    parser.Range
	def  bool
	// opaque: the name is in a word written with escapes, r is the
	// word's; listed, but a rename cannot edit it in place.
	opaque bool
}

// namedLocationUses are the directives whose last argument may name a
// location "@name".
var namedLocationUses = []string{"try_files", "error_page", "post_action"}

// defArg returns the argument of d that defines a variable, if any.
func defArg(d *parser.Directive) (parser.Word, bool) {
	i, ok := rules.DefiningArg(d)
	if !ok || len(d.Args[i].Value) < 2 || d.Args[i].Value[0] != '$' {
		return parser.Word{}, false
	}
	return d.Args[i], true
}

// valueStart returns the offset in f where w's value starts when the
// value is written as it is (no escapes; quotes around it are fine), so
// that offsets in the value are offsets in the source; ok is false when
// it is not.
func valueStart(f *parser.File, w parser.Word) (start int, ok bool) {
	if int(w.Range.End) > len(f.Src) || w.Range.Start < 0 || w.Unterminated(f) {
		return 0, false
	}
	raw, start := w.Raw(f), int(w.Range.Start)
	if w.Quote(f) != 0 {
		if len(raw) < 2 {
			return 0, false
		}
		raw, start = raw[1:len(raw)-1], start+1
	}
	return start, raw == w.Value
}

// upstreamRef returns the upstream name a *_pass argument names and its
// range, "" when it names none (a host:port, a unix socket, a variable).
func upstreamRef(f *parser.File, w parser.Word) (string, parser.Range) {
	v := w.Value
	start := 0
	if i := strings.Index(v, "://"); i >= 0 {
		start = i + 3
	}
	name := v[start:]
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[:i]
	}
	if name == "" || strings.ContainsAny(name, ":$[") {
		return "", parser.Range{}
	}
	at, ok := valueStart(f, w)
	if !ok {
		return name, parser.Range{Start: w.Range.Start, End: w.Range.Start} // see opaque
	}
	return name, parser.Span(at+start, at+start+len(name))
}

// namedLocation returns the name of an "@name" word and the range of the
// name, "" for other words.
func namedLocation(f *parser.File, w parser.Word) (string, parser.Range) {
	if len(w.Value) < 2 || w.Value[0] != '@' {
		return "", parser.Range{}
	}
	at, ok := valueStart(f, w)
	if !ok {
		return w.Value[1:], parser.Range{Start: w.Range.Start, End: w.Range.Start} // see opaque
	}
	return w.Value[1:], parser.Span(at+1, at+len(w.Value))
}

// variableRefs calls fn for every "$name" and "${name}" in w with the
// name's range; none for a word whose source is not its value.
func variableRefs(f *parser.File, w parser.Word, fn func(name string, r parser.Range)) {
	s := w.Value
	if strings.IndexByte(s, '$') < 0 {
		return
	}
	at, ok := valueStart(f, w)
	if !ok {
		// Escapes move the name off its place in the source: the
		// whole word stands for it.
		opaque(w, fn)
		return
	}
	varSpans(s, func(_, start, end int, ok bool) {
		if ok {
			fn(s[start:end], parser.Span(at+start, at+end))
		}
	})
}

// varSpans calls fn for every "$" of s that starts a variable name: the
// "$"'s offset, the name's [start, end) and whether it is complete (a
// "${name" must be closed by "}"). Names are [A-Za-z0-9_]+, as nginx's
// script compiler reads them.
func varSpans(s string, fn func(dollar, start, end int, complete bool)) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		j := i + 1
		braced := j < len(s) && s[j] == '{'
		if braced {
			j++
		}
		k := j
		for k < len(s) && isVarChar(s[k]) {
			k++
		}
		if k > j {
			fn(i, j, k, !braced || k < len(s) && s[k] == '}')
			i = k - 1
		}
	}
}

// opaque reports each variable of a word written with escapes with an
// empty range at the word's start: the name is not at its place in the
// source, so the caller can list the word but not edit the name.
func opaque(w parser.Word, fn func(name string, r parser.Range)) {
	varSpans(w.Value, func(_, start, end int, _ bool) {
		fn(w.Value[start:end], parser.Range{Start: w.Range.Start, End: w.Range.Start})
	})
}

func isVarChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// symbolAt returns the symbol under off in f and the range of its name
// there; ok is false when there is none.
func symbolAt(f *parser.File, off int) (sym symbol, r parser.Range, ok bool) {
	h := locate(f, off)
	if h.dir == nil || h.arg < 0 {
		return symbol{}, r, false
	}
	d, w := h.dir, h.dir.Args[h.arg]
	in := func(r parser.Range) bool { return off >= int(r.Start) && off <= int(r.End) }
	switch {
	case d.Name.Value == "upstream" && h.arg == 0 && d.Block != nil:
		if at, ok := valueStart(f, w); ok && w.Value != "" {
			return symbol{kind: symUpstream, name: w.Value}, parser.Span(at, at+len(w.Value)), true
		}
	case h.arg == 0 && directives.IsPass(d.Name.Value):
		if name, r := upstreamRef(f, w); name != "" && r.Len() > 0 && in(r) {
			return symbol{kind: symUpstream, name: name}, r, true
		}
	case d.Name.Value == "location" || slices.Contains(namedLocationUses, d.Name.Value) && h.arg == len(d.Args)-1:
		if name, r := namedLocation(f, w); name != "" && r.Len() > 0 && in(r) {
			return symbol{kind: symNamedLocation, name: name}, r, true
		}
	}
	if d.RawBlock() && h.arg == len(d.Args)-1 {
		return symbol{}, r, false // a Lua body
	}
	variableRefs(f, w, func(name string, vr parser.Range) {
		// "$" itself counts as on the name.
		if !ok && vr.Len() > 0 && off >= int(vr.Start)-1 && off <= int(vr.End) {
			sym, r, ok = symbol{kind: symVariable, name: name}, vr, true
		}
	})
	return sym, r, ok
}

// captureAt returns the variable whose name, in a named group of a regex
// of e, is at off.
func captureAt(e *analyzer.Entry, off int) (sym symbol, r parser.Range, ok bool) {
	f := e.Directive.File
	rules.CaptureNames(e, func(w parser.Word, name string, at int) {
		vs, plain := valueStart(f, w)
		if ok || !plain || at < 0 || off < vs+at || off > vs+at+len(name) {
			return
		}
		sym, r, ok = symbol{kind: symVariable, name: name}, parser.Span(vs+at, vs+at+len(name)), true
	})
	return sym, r, ok
}

// occurrences lists where sym is defined and used in the configuration
// indexed by ix, each place once (a file included twice is one file), in
// file and offset order.
func occurrences(ix *analyzer.Index, sym symbol) []occurrence {
	var out []occurrence
	seen := map[occKey]bool{}
	add := func(f *parser.File, r parser.Range, def bool) {
		k := occKey{f.Path, int(r.Start)}
		if seen[k] {
			return
		}
		seen[k] = true
		o := occurrence{file: f, r: r, def: def}
		if r.Len() == 0 {
			o.opaque = true
			o.r = wordAt(f, int(r.Start))
		}
		out = append(out, o)
	}
	dir := func(i int32) *parser.Directive { return ix.Entries[i].Directive }
	switch sym.kind {
	case symUpstream:
		for _, i := range ix.Named("upstream") {
			d := dir(i)
			if d.Block != nil && len(d.Args) == 1 && d.Args[0].Value == sym.name {
				r := parser.Range{Start: d.Args[0].Range.Start, End: d.Args[0].Range.Start} // see opaque
				if at, ok := valueStart(d.File, d.Args[0]); ok {
					r = parser.Span(at, at+len(sym.name))
				}
				add(d.File, r, true)
			}
		}
		for _, i := range ix.Named(directives.PassDirectives()...) {
			d := dir(i)
			if len(d.Args) > 0 {
				if name, r := upstreamRef(d.File, d.Args[0]); name == sym.name {
					add(d.File, r, false)
				}
			}
		}
	case symNamedLocation:
		for _, i := range ix.Named("location") {
			d := dir(i)
			if len(d.Args) == 1 {
				if name, r := namedLocation(d.File, d.Args[0]); name == sym.name {
					add(d.File, r, true)
				}
			}
		}
		for _, i := range ix.Named(namedLocationUses...) {
			d := dir(i)
			if len(d.Args) > 0 {
				if name, r := namedLocation(d.File, d.Args[len(d.Args)-1]); name == sym.name {
					add(d.File, r, false)
				}
			}
		}
	case symVariable:
		// nginx folds variable names to lower case.
		defs := map[occKey]bool{}
		for _, i := range ix.Named(rules.VariableDefiners()...) {
			d := dir(i)
			if inStream(&ix.Entries[i]) != sym.stream {
				continue
			}
			if w, ok := defArg(d); ok && strings.EqualFold(w.Value[1:], sym.name) {
				if at, ok := valueStart(d.File, w); ok {
					defs[occKey{d.File.Path, at + 1}] = true
				}
			}
		}
		// Uses may be in any argument nginx compiles; every argument is
		// read, except where "$" is only text: Lua bodies, the values of
		// geo, split_clients and types blocks. The same pass finds the
		// definitions in regexes' named groups: (?<user>...).
		captured := false
		for i := range ix.Entries {
			e := &ix.Entries[i]
			d := e.Directive
			if inStream(e) != sym.stream {
				continue
			}
			rules.CaptureNames(e, func(w parser.Word, name string, at int) {
				if !strings.EqualFold(name, sym.name) {
					return
				}
				r := parser.Range{Start: w.Range.Start, End: w.Range.Start} // see opaque
				if vs, ok := valueStart(d.File, w); ok && at >= 0 {
					r = parser.Span(vs+at, vs+at+len(name))
				}
				add(d.File, r, true)
				captured = true
			})
			if e.Parent >= 0 {
				switch ix.Entries[e.Parent].Directive.Name.Value {
				case "geo", "split_clients", "types":
					continue
				}
			}
			args := d.Args
			if d.RawBlock() && len(args) > 0 {
				args = args[:len(args)-1]
			}
			for _, w := range args {
				variableRefs(d.File, w, func(name string, r parser.Range) {
					if strings.EqualFold(name, sym.name) {
						add(d.File, r, defs[occKey{d.File.Path, int(r.Start)}])
					}
				})
			}
		}
		if len(defs) == 0 && !captured {
			return nil // not defined here: a built-in or an unknown
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].file.Path != out[j].file.Path {
			return out[i].file.Path < out[j].file.Path
		}
		return out[i].r.Start < out[j].r.Start
	})
	return out
}

// wordAt returns the range of the word of f that starts at off (for an
// opaque occurrence): up to the next unescaped space, ";" or brace, or
// the closing quote.
func wordAt(f *parser.File, off int) parser.Range {
	src := f.Src
	end := off
	if off < len(src) && (src[off] == '"' || src[off] == '\'') {
		q := src[off]
		for end = off + 1; end < len(src) && src[end] != q; end++ {
			if src[end] == '\\' {
				end++
			}
		}
		return parser.Span(off, min(end+1, len(src)))
	}
	for end < len(src) && !strings.ContainsRune(" \t\r\n;{}", rune(src[end])) {
		if src[end] == '\\' {
			end++
		}
		end++
	}
	return parser.Span(off, min(end, len(src)))
}

type occKey struct {
	path  string
	start int
}

// symbolView is a symbol under the cursor and every place it occurs in
// the configuration the document is analysed in.
type symbolView struct {
	v    *view
	sym  symbol
	r    parser.Range // in v.file
	occs []occurrence
}

// symbolOf finds the symbol at pos in the linted view of the document
// (its configuration is the whole one: the nginx.conf that includes it)
// and its occurrences; nil when there is none.
func (s *Server) symbolOf(ctx context.Context, uri protocol.DocumentUri, pos protocol.Position) (*symbolView, error) {
	v, err := s.lintedView(ctx, uri)
	if v == nil {
		return nil, err
	}
	off := offset(v.file, pos)
	sym, r, ok := symbolAt(v.file, off)
	c := v.config
	if v.entry != nil && v.entry.Config != nil && v.entryFile != nil && v.entryFile.Src == v.file.Src {
		c = v.entry.Config
	}
	ix := v.index(c)
	if sym.kind == symVariable || !ok {
		// The entry of the directive under the cursor (the first place
		// the configuration includes it): a variable's module is its
		// module, and a regex's named group defines a variable.
		d := locate(v.file, off).dir
		for i := range ix.Entries {
			if e := &ix.Entries[i]; e.Directive == d {
				if !ok {
					sym, r, ok = captureAt(e, off)
				}
				sym.stream = inStream(e)
				break
			}
		}
	}
	if !ok {
		return nil, nil
	}
	return &symbolView{v: v, sym: sym, r: r, occs: occurrences(ix, sym)}, nil
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
		if o.def && !p.Context.IncludeDeclaration {
			continue
		}
		out = append(out, protocol.Location{URI: sv.v.uriOf(o.file), Range: rangeOf(o.file, o.r)})
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
		if o.file.Path != sv.v.path {
			continue
		}
		kind := &read
		if o.def {
			kind = &write
		}
		out = append(out, protocol.DocumentHighlight{Range: rangeOf(sv.v.file, o.r), Kind: kind})
	}
	return out, nil
}

// renameable says why sym cannot be renamed, "" when it can.
func renameable(sv *symbolView) string {
	if sv.sym.kind == symVariable {
		if _, builtin := directives.LookupVariable(sv.sym.name); builtin {
			return fmt.Sprintf("$%s is a built-in variable", sv.sym.name)
		}
	}
	defined := false
	for _, o := range sv.occs {
		defined = defined || o.def
	}
	if !defined {
		return fmt.Sprintf("%s %q is not defined in this configuration", sv.sym.kind, sv.sym.name)
	}
	for _, o := range sv.occs {
		if o.opaque {
			return fmt.Sprintf("%s:%d has it in a string with escapes; edit that one by hand first", o.file.Path, o.file.Line(int(o.r.Start)))
		}
	}
	return ""
}

// validName says why name cannot name a symbol of kind k, "" when it can.
func validName(k symbolKind, name string) string {
	if name == "" {
		return "the new name is empty"
	}
	switch k {
	case symVariable:
		for i := 0; i < len(name); i++ {
			if !isVarChar(name[i]) {
				return fmt.Sprintf("%q is not a variable name (letters, digits and _)", name)
			}
		}
	default:
		if strings.ContainsAny(name, " \t\r\n;{}\"'\\$#/:@") {
			return fmt.Sprintf("%q is not a valid %s name (no spaces, quotes or ; { } $ # / : @)", name, k)
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
	switch sv.sym.kind {
	case symVariable:
		name = strings.TrimPrefix(name, "$")
	case symNamedLocation:
		name = strings.TrimPrefix(name, "@")
	}
	if why := validName(sv.sym.kind, name); why != "" {
		return nil, errorf(codeInvalidParams, "cannot rename: %s", why)
	}
	changes := map[protocol.DocumentUri][]protocol.TextEdit{}
	for _, o := range sv.occs {
		uri := sv.v.uriOf(o.file)
		changes[uri] = append(changes[uri], protocol.TextEdit{Range: rangeOf(o.file, o.r), NewText: name})
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}
