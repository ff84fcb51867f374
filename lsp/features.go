package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// hit is what lies under the cursor.
type hit struct {
	dir *parser.Directive
	// arg is -1 on the name, the argument index on an argument, and -2
	// elsewhere in the directive.
	arg int
	// stack holds the blocks enclosing the cursor, outermost first.
	stack []*parser.Directive
}

// locate finds the innermost directive at off and the blocks around it.
func locate(f *parser.File, at int) hit {
	h := hit{arg: -2}
	off := int32(at) // offsets within a file fit (parser.MaxSourceSize)
	dirs := f.Directives
	for {
		var next []*parser.Directive
		for _, d := range dirs {
			// A block left open runs to the end of the file, or, in a tree
			// recovered from a syntax error, to its last statement.
			r := d.Extent()
			if off < r.Start || off > r.End {
				continue
			}
			if inBody(d, off) {
				h.stack = append(h.stack, d)
				next = d.Block.Directives
				break
			}
			h.dir = d
			switch {
			case off >= d.Name().Range.Start && off <= d.Name().Range.End:
				h.arg = -1
			default:
				for i, a := range d.Args() {
					if off >= a.Range.Start && off <= a.Range.End {
						h.arg = i
					}
				}
			}
			return h
		}
		if next == nil {
			return h
		}
		dirs = next
	}
}

// inBody reports whether off lies in the body of block directive d:
// after its "{" (or, for a block whose "{" recovery put back, after its
// head) and up to its "}" or the end of its extent.
func inBody(d *parser.Directive, off int32) bool {
	if d.Block == nil {
		return false
	}
	start := d.LBrace()
	if start < 0 {
		start = d.HeadRange().End
	}
	end := d.RBrace()
	if end < 0 {
		end = d.Extent().End
	}
	return off > start && off <= end
}

// contextAt returns the directive context at the cursor.
func contextAt(c *parser.Config, stack []*parser.Directive) (directives.Context, bool) {
	names := append([]string(nil), c.Context...)
	for _, d := range stack {
		names = append(names, d.Name().Value)
	}
	return analyzer.ContextOf(names)
}

// at returns a view of the open document, the offset of pos in it and
// what lies there; v is nil for a document that is not open (or too large
// to analyse).
func (s *Server) at(uri protocol.DocumentUri, pos protocol.Position) (v *view, off int, h hit) {
	if v = s.viewOf(uri); v == nil {
		return nil, 0, hit{}
	}
	off = offset(v.file, pos)
	return v, off, locate(v.file, off)
}

func (s *Server) hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	d, off, h := s.at(p.TextDocument.URI, p.Position)
	if d == nil {
		return nil, nil
	}
	if h.dir == nil {
		return nil, nil
	}
	var text string
	var r parser.Range
	switch {
	case h.arg == -1:
		dctx, _ := contextAt(d.config, h.stack)
		text, r = directiveDoc(h.dir.Name().Value, dctx), h.dir.Name().Range
		if c := costHover(d, h.dir, h.stack); c != "" {
			text += "\n\n" + c
		}
		if rt := routeHover(d, h.dir); rt != "" {
			text += "\n\n" + rt
		}
	case h.arg >= 0:
		w := h.dir.Args()[h.arg]
		text, r = s.symbolHover(ctx, p.TextDocument.URI, off)
		if text == "" {
			text, r = costHover(d, h.dir, h.stack), w.Range
		}
		if text == "" {
			text = routeHover(d, h.dir)
		}
	}
	if text == "" {
		return nil, nil
	}
	rng := rangeOf(d.file, r)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}, Range: &rng}, nil
}

// directiveDoc renders what the tables know about a directive.
func directiveDoc(name string, ctx directives.Context) string {
	row := directives.InContext(name, ctx)
	if row == nil {
		rows := directives.Lookup(name)
		if len(rows) == 0 {
			return ""
		}
		row = rows[0]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s)\n\n", row.Name, row.Module)
	if row.Syntax != "" {
		for _, form := range strings.Split(row.Syntax, " || ") {
			fmt.Fprintf(&b, "```nginx\n%s\n```\n", form)
		}
	}
	if row.Default != "" {
		fmt.Fprintf(&b, "Default: `%s %s;`\n\n", row.Name, row.Default)
	}
	fmt.Fprintf(&b, "Context: %s", strings.ReplaceAll(row.Contexts.String(), ",", ", "))
	if row.Since != "" {
		fmt.Fprintf(&b, " · since %s", row.Since)
	}
	if row.URL != "" {
		fmt.Fprintf(&b, "\n\n[Documentation](%s)", row.URL)
	}
	return b.String()
}

func (s *Server) completion(_ context.Context, p *protocol.CompletionParams) (any, error) {
	d, off, h := s.at(p.TextDocument.URI, p.Position)
	if d == nil {
		return nil, nil
	}
	// The word being typed: every item replaces it (textEdit), so that
	// clients agree on the prefix whatever they take for a word ("$"
	// included or not).
	start, dollar := typedWord(d.file.Src, off)
	edit := rangeOf(d.file, parser.Span(start, off))
	// After a "$": variables.
	if dollar >= 0 && (h.arg >= 0 || argsDir(d.file, off) != nil) {
		edit = rangeOf(d.file, parser.Span(dollar, off))
		stream := false
		for _, b := range h.stack {
			stream = stream || b.Name().Value == "stream"
		}
		return append(definedVariableItems(d.symbols(), stream, edit), variableItems(edit)...), nil
	}
	if dir, stack := argsAt(d.file, off); dir != nil && off > int(dir.Name().Range.End) {
		ctx, _ := contextAt(d.config, stack)
		if items, ok := nameItems(d, dir, stack, ctx, off); ok {
			return items, nil
		}
		return valueItems(dir, ctx, off, edit), nil
	}
	if h.dir != nil && h.arg != -1 {
		return []protocol.CompletionItem{}, nil
	}
	ctx, ok := contextAt(d.config, h.stack)
	if !ok {
		return []protocol.CompletionItem{}, nil
	}
	return directiveItems(ctx, edit, rankingOf(d)), nil
}

// argsDir is the directive whose arguments off is among, nil if none.
func argsDir(f *parser.File, off int) *parser.Directive {
	d, _ := argsAt(f, off)
	return d
}

// valueItems offers the values the core's schemas allow for the
// argument at off of dir (argValues).
func valueItems(dir *parser.Directive, ctx directives.Context, off int, edit protocol.Range) []protocol.CompletionItem {
	out := []protocol.CompletionItem{}
	arg := 0
	for i, a := range dir.Args() {
		if off > int(a.Range.End) {
			arg = i + 1
		} else if off >= int(a.Range.Start) {
			arg = i
			break
		}
	}
	values := argValues(dir, ctx, arg)
	kind := protocol.CompletionItemKindEnumMember
	for _, v := range values {
		out = append(out, protocol.CompletionItem{Label: v, Kind: &kind, TextEdit: protocol.TextEdit{Range: edit, NewText: v}})
	}
	return out
}

// definedVariableItems lists the variables the configuration defines
// (set, map, geo, a regex's named group, ...) in http {}, or stream {}
// when stream is set, as the symbol table has them: written as at their
// first definition, with what defines them.
func definedVariableItems(tab *symbols.Table, stream bool, edit protocol.Range) []protocol.CompletionItem {
	kind := protocol.CompletionItemKindVariable
	var out []protocol.CompletionItem
	for _, sym := range tab.Symbols(symbols.Variable) {
		def, ok := tab.FirstDefinition(sym)
		if sym.Stream != stream || !ok || sym.BuiltIn() {
			continue
		}
		name := sym.Name
		if !def.Opaque {
			name = def.File.Src[def.Range.Start:def.Range.End]
		}
		text := "$" + name
		detail := "defined by " + tab.Directive(def).Name().Value
		if def.Capture {
			detail = "a named group of a regex"
		}
		out = append(out, protocol.CompletionItem{Label: text, Kind: &kind, Detail: &detail, FilterText: &text,
			TextEdit: protocol.TextEdit{Range: edit, NewText: text}})
	}
	return out
}

// variableItems lists the built-in variables, labelled with their "$",
// each replacing edit (from the "$" to the cursor).
func variableItems(edit protocol.Range) []protocol.CompletionItem {
	kind := protocol.CompletionItemKindVariable
	seen := map[string]bool{}
	var out []protocol.CompletionItem
	for _, v := range directives.AllVariables() {
		label := "$" + v.Name
		if v.Prefix {
			label += "*"
		}
		if seen[label] {
			continue
		}
		seen[label] = true
		detail := v.Module
		text := strings.TrimSuffix(label, "*")
		out = append(out, protocol.CompletionItem{Label: label, Kind: &kind, Detail: &detail, FilterText: &text,
			TextEdit: protocol.TextEdit{Range: edit, NewText: text}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

func (s *Server) documentSymbol(_ context.Context, p *protocol.DocumentSymbolParams) (any, error) {
	d := s.viewOf(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	return prune(outline(d.file, d.file.Directives), outlineBudget), nil
}

// outlineBudget is the most symbols an outline lists. The server builds
// the outline of the 19,900-server L2c file in 11 ms, but Emacs 28's
// eglot spent 144 s turning its symbols into imenu's index (each
// position found from the buffer's start): 5.8 s with 2,000 symbols,
// 0.7 s with 1,000. Past the budget, the deepest levels are left out,
// the outermost blocks kept.
const outlineBudget = 1000

// prune keeps the first budget symbols of syms in breadth-first order:
// every symbol of a level before any of the next. A block whose children
// are left out says how many in its detail; a cut of the top level ends
// the list with a symbol that says so.
func prune(syms []protocol.DocumentSymbol, budget int) []protocol.DocumentSymbol {
	type list struct {
		parent *protocol.DocumentSymbol
		syms   *[]protocol.DocumentSymbol
	}
	level := []list{{nil, &syms}}
	n := 0
	var topCut []protocol.DocumentSymbol
	for len(level) > 0 {
		var next []list
		for _, l := range level {
			keep := min(len(*l.syms), max(budget-n, 0))
			if cut := len(*l.syms) - keep; cut > 0 {
				if l.parent == nil {
					topCut = (*l.syms)[keep:]
				} else {
					note := fmt.Sprintf("%d blocks not listed: the outline lists %d symbols at most", cut, budget)
					if l.parent.Detail != nil && *l.parent.Detail != "" {
						note = *l.parent.Detail + " (" + note + ")"
					}
					l.parent.Detail = &note
				}
				if keep == 0 {
					*l.syms = nil
				} else {
					*l.syms = (*l.syms)[:keep]
				}
			}
			n += keep
			for i := range *l.syms {
				if c := &(*l.syms)[i]; len(c.Children) > 0 {
					next = append(next, list{c, &c.Children})
				}
			}
		}
		level = next
	}
	if len(topCut) > 0 {
		syms = append(syms, protocol.DocumentSymbol{
			Name: fmt.Sprintf("… %d more blocks not listed (the outline lists %d symbols at most)", len(topCut), budget),
			Kind: protocol.SymbolKindNamespace, Range: topCut[0].Range, SelectionRange: topCut[0].SelectionRange,
		})
	}
	return syms
}

// outline outlines the blocks of a file, and the includes.
func outline(f *parser.File, dirs []*parser.Directive) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	for _, d := range dirs {
		if d.Block == nil && d.Name().Value != "include" {
			continue
		}
		kind := protocol.SymbolKindNamespace
		switch d.Name().Value {
		case "server":
			kind = protocol.SymbolKindClass
		case "location", "if", "limit_except":
			kind = protocol.SymbolKindMethod
		case "upstream", "map", "geo", "types", "split_clients":
			kind = protocol.SymbolKindStruct
		case "include":
			kind = protocol.SymbolKindFile
		}
		// Named by what it serves, as lists and imenu show the name only.
		name := d.Name().Value
		var detail string
		if d.Name().Value == "server" && d.Block != nil {
			detail = serverDetail(d)
			if n := serverLabel(d); n != "" {
				name += " " + n
			}
		} else if len(d.Args()) > 0 && !d.RawBlock() {
			detail = strings.Join(d.ArgValues(), " ")
			// The arguments as written: location ~ \.php$.
			args := f.Src[d.Args()[0].Range.Start:d.Args()[len(d.Args())-1].Range.End]
			if len(args) > 80 {
				args = args[:77] + "..."
			}
			name += " " + args
		}
		sym := protocol.DocumentSymbol{
			Name:           name,
			Kind:           kind,
			Range:          rangeOf(f, d.Extent()),
			SelectionRange: rangeOf(f, d.Name().Range),
		}
		if detail != "" {
			sym.Detail = &detail
		}
		if d.Block != nil {
			sym.Children = outline(f, d.Block.Directives)
		}
		out = append(out, sym)
	}
	return out
}

func (s *Server) codeAction(ctx context.Context, p *protocol.CodeActionParams) (any, error) {
	// Quick fixes come from findings: wait for the lint of this text.
	d, err := s.lintedView(ctx, p.TextDocument.URI)
	if d == nil {
		return nil, err
	}
	from, to := offset(d.file, p.Range.Start), offset(d.file, p.Range.End)
	kind := protocol.CodeActionKindQuickFix
	out := []protocol.CodeAction{}
	for _, diag := range d.diags {
		if !fixReaches(d, diag, from, to) {
			continue
		}
		if len(diag.Edits) == 0 {
			out = append(out, valueFixes(d, diag)...)
			continue
		}
		changes := map[protocol.DocumentUri][]protocol.TextEdit{}
		for _, e := range diag.Edits {
			f := e.File
			if f == nil {
				f = diag.File
			}
			uri := d.uri
			if f.Path != d.path {
				uri = pathToURI(f.Path)
			}
			changes[uri] = append(changes[uri], protocol.TextEdit{Range: rangeOf(f, e.Range), NewText: e.NewText})
		}
		title := "Fix: " + diag.Message
		if len(diag.Edits) == 1 && diag.Edits[0].NewText != "" && diag.Edits[0].Range.Len() == 0 {
			title = fmt.Sprintf("Insert %q", diag.Edits[0].NewText)
		}
		pd := toProtocolDiagnostic(diag)
		preferred := true
		out = append(out, protocol.CodeAction{Title: title, Kind: &kind, Diagnostics: []protocol.Diagnostic{pd},
			IsPreferred: &preferred, Edit: &protocol.WorkspaceEdit{Changes: changes}})
	}
	return out, nil
}

// valueFixes offers, for a finding on a bad argument (invalid-value,
// invalid-arguments, invalid-parameter) that carries no edit of its own,
// one quick fix per value the schemas allow that is close to it ("onn":
// on; "defualt_server": default_server), or each value of a short closed
// list ("maybe": on, off, build).
func valueFixes(v *view, diag *parser.Diagnostic) []protocol.CodeAction {
	switch diag.Name {
	case "invalid-value", "invalid-arguments", "invalid-parameter":
	default:
		return nil
	}
	if diag.File == nil || diag.File.Path != v.file.Path {
		return nil
	}
	h := locate(v.file, int(diag.Range.Start))
	if h.dir == nil || h.arg < 0 || h.dir.Args()[h.arg].Range != diag.Range {
		return nil
	}
	ctx, ok := contextAt(v.config, h.stack)
	if !ok {
		return nil
	}
	w := h.dir.Args()[h.arg]
	kind := protocol.CodeActionKindQuickFix
	pd := toProtocolDiagnostic(diag)
	var out []protocol.CodeAction
	for i, val := range fixValues(h.dir, ctx, h.arg, w) {
		preferred := i == 0
		edit := protocol.TextEdit{Range: rangeOf(v.file, w.Range), NewText: val}
		out = append(out, protocol.CodeAction{Title: fmt.Sprintf("Replace %q with %q", w.Value, val), Kind: &kind,
			Diagnostics: []protocol.Diagnostic{pd}, IsPreferred: &preferred,
			Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{v.uri: {edit}}}})
	}
	return out
}

// definition jumps from an include to the files it includes, from a
// certificate's path to its file, and from a name (an upstream in a
// *_pass, a named location, a variable) to where the configuration
// defines it, as the symbol table says.
func (s *Server) definition(ctx context.Context, p *protocol.DefinitionParams) (any, error) {
	d, _, h := s.at(p.TextDocument.URI, p.Position)
	if d == nil {
		return nil, nil
	}
	if h.dir == nil || h.arg < 0 {
		return nil, nil
	}
	out := []protocol.Location{}
	if h.dir.Name().Value == "include" {
		// The lint of this text reads the document where the
		// configuration includes it, with the open buffers laid over the
		// disk: its includes resolve against that nginx.conf's prefix,
		// which the view of an edited text alone does not know.
		if lv, err := s.currentView(ctx, p.TextDocument.URI); lv != nil {
			d, h = lv, locate(lv.file, offset(lv.file, p.Position))
			if h.dir == nil || h.dir.Name().Value != "include" {
				return out, nil
			}
		} else if err != nil {
			return nil, err
		}
		for _, f := range d.included(h.dir) {
			out = append(out, protocol.Location{URI: pathToURI(f.Path), Range: protocol.Range{}})
		}
		return out, nil
	}
	v, o, ok, err := s.nameAt(ctx, p.TextDocument.URI, p.Position)
	if !ok {
		return out, err
	}
	tab := v.symbols()
	if o.Symbol.Kind == symbols.Certificate {
		// The file the path names, when it exists.
		if path, ok := s.fileOf(v, o.Symbol.Name); ok {
			out = append(out, protocol.Location{URI: pathToURI(path), Range: protocol.Range{}})
		}
		return out, nil
	}
	for _, def := range tab.Definitions(o.Symbol) {
		out = append(out, protocol.Location{URI: v.uriOf(def.File), Range: rangeOf(def.File, def.Range)})
	}
	return out, nil
}

// formatting replaces the whole document with its formatted text (see
// formatted); a document the formatter cannot read (a syntax error) gets
// an error that says where.
func (s *Server) formatting(_ context.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	d := s.viewOf(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	out, err := s.formatted(d, p.Options)
	if err != nil || out == d.text {
		return []protocol.TextEdit{}, err
	}
	f := d.file
	return []protocol.TextEdit{{Range: rangeOf(f, parser.Range{Start: 0, End: int32(len(f.Src))}), NewText: out}}, nil
}

// formatOptions turns the editor's indentation settings into the
// indentation of a document that shows none of its own: tabs when it does
// not insert spaces, else its tab size in spaces.
func formatOptions(o protocol.FormattingOptions) parser.FormatOptions {
	var fo parser.FormatOptions
	if v, ok := o[protocol.FormattingOptionInsertSpaces].(bool); ok && !v {
		fo.Default.Tabs = true
	}
	switch v := o[protocol.FormattingOptionTabSize].(type) {
	case float64: // a JSON number
		fo.Default.Spaces = int(v)
	case int:
		fo.Default.Spaces = v
	case protocol.UInteger:
		fo.Default.Spaces = int(v)
	}
	fo.Default.Spaces = min(max(fo.Default.Spaces, 0), 16)
	return fo
}

// lintedView waits for the lint of the document's current text and
// returns its view (nil for a document not open or too large), or the
// context's error when the request is cancelled first.
func (s *Server) lintedView(ctx context.Context, uri protocol.DocumentUri) (*view, error) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil || d.tooLarge() {
		s.mu.Unlock()
		return nil, nil
	}
	d.waiters++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		d.waiters--
		if d.waiters == 0 && ctx.Err() != nil {
			// No one waits any more ($/cancelRequest): neither should
			// the lint this request hurried.
			unhurryLocked(d)
		}
		s.mu.Unlock()
	}()
	for {
		s.mu.Lock()
		if d.closed || s.docs[uri] != d {
			s.mu.Unlock()
			return nil, nil
		}
		if v := d.view; v != nil && v.gen == d.gen && v.linted {
			s.mu.Unlock()
			if v.file == nil {
				return nil, nil // too large, or the lint failed
			}
			return v, nil
		}
		if !d.linting && !d.dirty {
			// Nothing will lint this text (the session is stopping).
			s.mu.Unlock()
			return nil, nil
		}
		wait := d.linted
		if !d.hurry {
			// Someone waits: lint without waiting for the edits to pause.
			d.hurry = true
			select {
			case d.wake <- struct{}{}:
			default:
			}
		}
		s.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
