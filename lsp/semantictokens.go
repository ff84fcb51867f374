package lsp

import (
	"context"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds semantic tokens: what each word of a document is, as
// nginx reads it, so an editor can colour a directive, a variable inside
// an argument or a regex the way the parser sees them rather than as a
// grammar of regular expressions guesses.

// The token types, in the legend's order (their index is what a token
// carries). Standard types, so every theme colours them.
const (
	tokDirective = iota // a directive's name: "keyword"
	tokParameter        // an argument, or a key of a map, types or geo block
	tokVariable         // a "$name" inside an argument
	tokRegex            // an argument nginx compiles as a regex
	tokComment
)

// tokDefaultLibrary is the modifier of a variable an nginx module
// provides ($host), as against one the configuration defines.
const tokDefaultLibrary = 1 << 0

// semanticLegend is the legend the server announces.
var semanticLegend = protocol.SemanticTokensLegend{
	TokenTypes:     []string{"keyword", "parameter", "variable", "regexp", "comment"},
	TokenModifiers: []string{"defaultLibrary"},
}

// semanticTokensOptions is the capability: whole documents and ranges
// (an editor asks for the lines in view first on a large file).
func semanticTokensOptions() protocol.SemanticTokensOptions {
	return protocol.SemanticTokensOptions{Legend: semanticLegend, Range: true, Full: true}
}

// semToken is one token, by byte offsets of the file.
type semToken struct {
	start, end int32
	typ, mods  uint8
}

func (s *Server) semanticTokensFull(_ context.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	v := s.viewOf(p.TextDocument.URI)
	if v == nil {
		return nil, nil
	}
	return &protocol.SemanticTokens{Data: encodeTokens(v.file, semanticTokens(v, 0, len(v.file.Src)+1))}, nil
}

func (s *Server) semanticTokensRange(_ context.Context, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	v := s.viewOf(p.TextDocument.URI)
	if v == nil {
		return nil, nil
	}
	from, to := offset(v.file, p.Range.Start), offset(v.file, p.Range.End)
	return &protocol.SemanticTokens{Data: encodeTokens(v.file, semanticTokens(v, from, to))}, nil
}

// semanticTokens returns the tokens of the view's document that start in
// [from, to), sorted. The directives are read through the index of the
// document's configuration, which knows each one's context: a regex is
// what symbols.RegexArgs says nginx compiles, the lines of a map, types
// or geo block are data unless they are the block's own keywords.
func semanticTokens(v *view, from, to int) []semToken {
	f := v.file
	in := func(r parser.Range) bool { return int(r.Start) < to && int(r.End) > from || int(r.Start) == from }
	var out []semToken
	add := func(r parser.Range, typ, mods uint8) {
		if r.Len() > 0 && in(r) {
			out = append(out, semToken{r.Start, r.End, typ, mods})
		}
	}
	addComments := func(cs []*parser.Comment) {
		for _, c := range cs {
			add(c.Range, tokComment, 0)
		}
	}
	addComments(f.Comments)
	ix := v.index(v.config)
	var regexes []parser.Range
	for i := range ix.Entries {
		e := &ix.Entries[i]
		d := e.Directive
		if d.File != f {
			continue
		}
		if d.Block != nil {
			addComments(d.Block.Comments())
		}
		if h := d.HeadRange(); int(h.Start) >= to || int(h.End) < from {
			continue
		}
		regexes = regexes[:0]
		symbols.RegexArgs(e, func(x symbols.Regex) bool {
			regexes = append(regexes, x.Range)
			return true
		})
		name := tokDirective
		if e.Parent >= 0 && directives.FreeFormBlock(ix.Entries[e.Parent].Directive.Name().Value) && e.Row() == nil {
			// A line of data (a map's key, a MIME type): not a directive.
			name = tokParameter
		}
		word(f, d.Name(), uint8(name), regexes, add)
		if d.RawBlock() {
			continue // its body is Lua (or another language), not nginx's
		}
		for _, a := range d.Args() {
			word(f, a, tokParameter, regexes, add)
		}
	}
	slices.SortFunc(out, func(a, b semToken) int { return int(a.start) - int(b.start) })
	return out
}

// word adds the tokens of w: a regex as one, else the word with its
// variables cut out of it.
func word(f *parser.File, w parser.Word, typ uint8, regexes []parser.Range, add func(parser.Range, uint8, uint8)) {
	if slices.Contains(regexes, w.Range) {
		add(w.Range, tokRegex, 0)
		return
	}
	if typ == tokDirective {
		add(w.Range, typ, 0)
		return
	}
	raw := f.Src[w.Range.Start:w.Range.End]
	at := w.Range.Start
	// Variables and captures as nginx's script compiler reads them
	// (script.Tokens: "$1abc" is capture 1, then text).
	for t := range script.Tokens(raw) {
		if t.Kind != script.Variable && t.Kind != script.Capture {
			continue
		}
		add(parser.Span(int(at), int(w.Range.Start)+t.Start), typ, 0)
		var mods uint8
		if _, ok := directives.LookupVariable(t.Name); ok && t.Kind == script.Variable {
			mods = tokDefaultLibrary
		}
		add(parser.Span(int(w.Range.Start)+t.Start, int(w.Range.Start)+t.End), tokVariable, mods)
		at = w.Range.Start + int32(t.End)
	}
	add(parser.Span(int(at), int(w.Range.End)), typ, 0)
}

// encodeTokens writes tokens in the protocol's relative form (line and
// start relative to the previous token, UTF-16 lengths), one piece per
// line of a token that spans lines (clients need not take multi-line
// tokens). It reads the text once, from the first token on, counting
// lines with strings.Count and UTF-16 units only where a column is
// needed.
func encodeTokens(f *parser.File, toks []semToken) []protocol.UInteger {
	out := make([]protocol.UInteger, 0, 5*len(toks))
	if len(toks) == 0 {
		return out
	}
	src := f.Src
	// The cursor: a byte offset and its line and UTF-16 column.
	first := position(f, int(toks[0].start))
	off := int(toks[0].start)
	line, col := int(first.Line), int(first.Character)
	advance := func(to int) {
		seg := src[off:to]
		if n := strings.Count(seg, "\n"); n > 0 {
			line += n
			col = utf16Len(seg[strings.LastIndexByte(seg, '\n')+1:])
		} else {
			col += utf16Len(seg)
		}
		off = to
	}
	prevLine, prevCol := 0, 0
	emit := func(l, c, n int, t semToken) {
		if n <= 0 {
			return
		}
		dl, dc := l-prevLine, c
		if dl == 0 {
			dc = c - prevCol
		}
		out = append(out, protocol.UInteger(dl), protocol.UInteger(dc), protocol.UInteger(n), protocol.UInteger(t.typ), protocol.UInteger(t.mods))
		prevLine, prevCol = l, c
	}
	for _, t := range toks {
		if int(t.start) < off {
			continue // the same place again (a file included twice)
		}
		advance(int(t.start))
		for {
			nl := strings.IndexByte(src[off:t.end], '\n')
			if nl < 0 {
				sl, sc := line, col
				advance(int(t.end))
				emit(sl, sc, col-sc, t)
				break
			}
			emit(line, col, utf16Len(src[off:off+nl]), t)
			advance(off + nl + 1)
		}
	}
	return out
}

// utf16Len is the length of s in UTF-16 units (an invalid byte counts as
// one, as the file's columns count it).
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += max(utf16.RuneLen(r), 1)
		i += size
	}
	return n
}
