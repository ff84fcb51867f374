package lsp

import (
	"context"
	"runtime"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds the features that read one document's tree: folding
// ranges, document links and signature help.

// eachDirective calls fn for every directive of dirs, blocks' bodies
// included, outermost first.
func eachDirective(dirs []*parser.Directive, fn func(*parser.Directive)) {
	for _, d := range dirs {
		fn(d)
		if d.Block != nil {
			eachDirective(d.Block.Directives, fn)
		}
	}
}

// foldingRange folds every block that spans lines (a Lua block's body
// too) and every run of two or more comment lines.
func (s *Server) foldingRange(_ context.Context, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	d := s.viewOf(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	return foldingRanges(d.file), nil
}

func foldingRanges(f *parser.File) []protocol.FoldingRange {
	out := []protocol.FoldingRange{}
	line := func(off int) protocol.UInteger { return protocol.UInteger(f.Line(off) - 1) }
	comments := append([]*parser.Comment(nil), f.Comments...)
	// One range per start line (editors keep one), the outermost.
	started := map[protocol.UInteger]bool{}
	eachDirective(f.Directives, func(d *parser.Directive) {
		if d.Block != nil {
			comments = append(comments, d.Block.Comments()...)
		}
		open := int(d.LBrace())
		if open < 0 && d.Block != nil {
			open = int(d.HeadRange().End) // a "{" recovery put back
		}
		if open < 0 || d.RBrace() < 0 && d.Block == nil {
			return
		}
		start := line(open)
		end := line(int(d.Extent().End))
		if d.RBrace() < 0 && end > start && f.Src[d.Extent().End-1] == '\n' {
			end-- // a block open to the end of the file
		}
		if end <= start || started[start] {
			return
		}
		started[start] = true
		// The closing brace stays in sight, as editors show Go or C
		// blocks, unless it shares the only other line with the body.
		if d.RBrace() >= 0 && end-1 > start {
			end--
		}
		out = append(out, protocol.FoldingRange{StartLine: start, EndLine: end})
	})
	sort.Slice(comments, func(i, j int) bool { return comments[i].Range.Start < comments[j].Range.Start })
	kind := string(protocol.FoldingRangeKindComment)
	first, last := -1, -1
	flush := func() {
		if first >= 0 && last > first {
			out = append(out, protocol.FoldingRange{StartLine: protocol.UInteger(first), EndLine: protocol.UInteger(last), Kind: &kind})
		}
	}
	for _, c := range comments {
		// Only a comment alone on its line starts or continues a run: one
		// after a directive belongs to that directive.
		ls := strings.LastIndexByte(f.Src[:c.Range.Start], '\n') + 1
		if strings.TrimSpace(f.Src[ls:c.Range.Start]) != "" {
			flush()
			first, last = -1, -1
			continue
		}
		l := int(line(int(c.Range.Start)))
		if first >= 0 && l == last+1 {
			last = l
			continue
		}
		flush()
		first, last = l, l
	}
	flush()
	return out
}

// documentLink links the files a document names: each include argument
// to the file it includes (a glob only when it matched exactly one file),
// and the paths of the files nginx reads at startup (certificates and
// keys, auth_basic_user_file: symbols.ReadsFile) to their file when it
// exists.
func (s *Server) documentLink(_ context.Context, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	d := s.viewOf(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	out := []protocol.DocumentLink{}
	link := func(w parser.Word, path string) {
		target := pathToURI(path)
		out = append(out, protocol.DocumentLink{Range: rangeOf(d.file, w.Range), Target: &target})
	}
	eachDirective(d.file.Directives, func(x *parser.Directive) {
		if len(x.Args()) != 1 || x.RawBlock() {
			return
		}
		switch {
		case x.Name().Value == "include":
			// The loader's own resolution: prefix, include-paths, globs.
			if files := d.included(x); len(files) == 1 {
				link(x.Args()[0], files[0].Path)
			}
		case symbols.ReadsFile(x.Name().Value):
			if path, ok := s.fileOf(d, x.Args()[0].Value); ok {
				link(x.Args()[0], path)
			}
		}
	})
	return out, nil
}

// fileOf returns the file that a path argument of the document (a
// certificate's, auth_basic_user_file's) names when it exists: a
// relative path resolves against the conf prefix of the configuration
// the document is read in, then through the settings' include-paths, as
// the loader does for includes.
func (s *Server) fileOf(v *view, arg string) (string, bool) {
	c := v.config
	if v.unit != nil && v.unit.Config != nil {
		c = v.unit.Config
	}
	path, ok := c.FilePath(arg)
	if !ok {
		return "", false
	}
	if v.unit != nil && v.unit.Settings != nil {
		path, _ = v.unit.Settings.MapPath(path)
	}
	return path, s.exists(path)
}

// included returns the files the include x of the document pulls in,
// as the configuration the document is read in resolves it: a file that
// an nginx.conf includes resolves its relative includes against that
// configuration's prefix, not its own directory.
func (v *view) included(x *parser.Directive) []*parser.File {
	e := v.unit
	if e != nil && e.Config != nil && v.unitFile == v.file {
		return e.Config.Included(x)
	}
	if e != nil && e.Config != nil && v.unitFile != nil && v.unitFile.Src == v.file.Src {
		// The same text parsed in the unit's tree: the same offsets.
		var same *parser.Directive
		eachDirective(v.unitFile.Directives, func(y *parser.Directive) {
			if y.Name().Range.Start == x.Name().Range.Start && y.Name().Value == x.Name().Value {
				same = y
			}
		})
		if same != nil {
			return e.Config.Included(same)
		}
	}
	return v.config.Included(x)
}

// exists reports whether path names a file on the server's disk (through
// FS, so tests and the fuzzer see their own disk).
func (s *Server) exists(path string) bool {
	pattern := path
	if runtime.GOOS != "windows" {
		// A literal path as a glob pattern: its metacharacters escaped.
		pattern = strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(path)
	} else if strings.ContainsAny(path, "*?[") {
		return false
	}
	m, err := s.base().Glob(pattern)
	return err == nil && len(m) == 1
}

// signatureHelp shows, inside a directive's arguments, the syntax of the
// directive from the tables (each form of it), with the parameter the
// cursor is on when the syntax tells it.
func (s *Server) signatureHelp(_ context.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	v := s.viewOf(p.TextDocument.URI)
	if v == nil {
		return nil, nil
	}
	off := offset(v.file, p.Position)
	dir, stack := argsAt(v.file, off)
	if dir == nil {
		return nil, nil
	}
	ctx, _ := contextAt(v.config, stack)
	row := directives.InContext(dir.Name().Value, ctx)
	if row == nil {
		rows := directives.Lookup(dir.Name().Value)
		if len(rows) == 0 {
			return nil, nil
		}
		row = rows[0]
	}
	if row.Syntax == "" {
		return nil, nil
	}
	// The argument the cursor is on, or the one it is about to type.
	arg := 0
	for i, a := range dir.Args() {
		if off > int(a.Range.End) {
			arg = i + 1
		} else if off >= int(a.Range.Start) {
			arg = i
			break
		}
	}
	help := &protocol.SignatureHelp{}
	active := -1
	for i, form := range strings.Split(row.Syntax, " || ") {
		params, spans := syntaxParams(form)
		sig := protocol.SignatureInformation{Label: form}
		if row.URL != "" {
			sig.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: "[Documentation](" + row.URL + ")"}
		}
		for _, sp := range spans {
			sig.Parameters = append(sig.Parameters, protocol.ParameterInformation{Label: []protocol.UInteger{protocol.UInteger(sp[0]), protocol.UInteger(sp[1])}})
		}
		// An index past the parameters tells the client that no parameter
		// is active (3.16 has no null for it).
		ap := protocol.UInteger(len(params))
		if n, ok := paramOf(params, arg); ok {
			ap = protocol.UInteger(n)
			if active < 0 {
				active = i
			}
		}
		sig.ActiveParameter = &ap
		help.Signatures = append(help.Signatures, sig)
	}
	as := protocol.UInteger(max(active, 0))
	help.ActiveSignature = &as
	return help, nil
}

// syntaxParam is one parameter of a syntax line.
type syntaxParam struct {
	optional, repeated bool
}

// syntaxParams splits a syntax line ("name a [b] c ...;") into its
// parameters and their byte spans in the line: a bracketed group is one
// optional parameter, "x | y" one parameter, and "..." repeats the one
// before it. The spans are byte offsets, which the protocol reads as
// UTF-16 units: the tables' syntax lines are ASCII.
func syntaxParams(form string) ([]syntaxParam, [][2]int) {
	var params []syntaxParam
	var spans [][2]int
	i := strings.IndexByte(form, ' ')
	if i < 0 {
		return nil, nil
	}
	end := len(form)
	if j := strings.LastIndexAny(form, ";{"); j > i {
		end = j
	}
	join := false
	for i < end {
		for i < end && form[i] == ' ' {
			i++
		}
		if i >= end {
			break
		}
		start := i
		depth := 0
		for i < end && (form[i] != ' ' || depth > 0) {
			switch form[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			i++
		}
		tok := form[start:i]
		switch {
		case tok == "|":
			join = len(spans) > 0
		case tok == "...":
			if len(params) > 0 {
				params[len(params)-1].repeated = true
			}
		case join:
			spans[len(spans)-1][1] = i
			join = false
		default:
			params = append(params, syntaxParam{optional: tok[0] == '['})
			spans = append(spans, [2]int{start, i})
		}
	}
	return params, spans
}

// paramOf maps the argument index arg to its parameter: only while every
// parameter before it takes exactly one argument can the syntax tell, and
// an optional parameter only when it is the last (else the argument may
// be one of those after it).
func paramOf(params []syntaxParam, arg int) (int, bool) {
	if arg >= len(params) {
		return 0, false
	}
	for _, p := range params[:arg] {
		if p.optional || p.repeated {
			return 0, false
		}
	}
	if params[arg].optional && arg != len(params)-1 {
		return 0, false
	}
	return arg, true
}

// argsAt returns the directive whose arguments the cursor at off is
// among (after its name, before its ";" or "{"), and the blocks around
// it; nil when there is none. A directive still being typed (no ";" yet)
// takes the rest of the line after its last word.
func argsAt(f *parser.File, off int) (*parser.Directive, []*parser.Directive) {
	var stack []*parser.Directive
	dirs := f.Directives
	for {
		var next []*parser.Directive
		for _, d := range dirs {
			if inBody(d, int32(off)) {
				stack = append(stack, d)
				next = d.Block.Directives
				break
			}
			if off <= int(d.Name().Range.End) {
				continue
			}
			end := int(d.Semicolon())
			if d.LBrace() >= 0 {
				end = int(d.LBrace())
			}
			if end < 0 {
				last := int(d.Name().Range.End)
				if n := len(d.Args()); n > 0 {
					last = int(d.Args()[n-1].Range.End)
				}
				end = len(f.Src)
				if i := strings.IndexAny(f.Src[last:], "\n;{}"); i >= 0 {
					end = last + i
				}
			}
			if off <= end {
				return d, stack
			}
		}
		if next == nil {
			return nil, nil
		}
		dirs = next
	}
}
