package parser

import (
	"fmt"
	"strings"
	"unsafe"
)

// BlockContext identifies, for a DirectiveKinds, the kind of block the
// parser is in. The parser treats it as opaque; 0 means "unknown", which
// turns the checks off inside that block.
type BlockContext uint32

// DirectiveKinds tells the parser what it needs to know about directive
// names to report the block-structure errors nginx reports ("is not
// terminated by ;", "has no opening {") and to spot a missing ";". The
// analyzer's directive table implements it; a nil DirectiveKinds turns
// those checks off.
type DirectiveKinds interface {
	// Root returns the context of a file parsed inside the blocks named by
	// ancestors (outermost first; empty for a main configuration).
	Root(ancestors []string) BlockContext
	// Child returns the context inside block name opened in parent.
	Child(parent BlockContext, name string) BlockContext
	// BlockKind reports whether name opens a block in ctx, and whether name
	// is a known directive there at all.
	BlockKind(ctx BlockContext, name string) (block, known bool)
	// Fits reports whether name, known in ctx, accepts args (their count,
	// and on/off for a flag). It keeps the missing-";" heuristic from
	// splitting a valid multi-line directive.
	Fits(ctx BlockContext, name string, args []Word) bool
}

// Options tunes the parsing of one file.
type Options struct {
	// Kinds enables the checks that need directive knowledge.
	Kinds DirectiveKinds
	// Ancestors are the block names a fragment is parsed inside, outermost
	// first (for example ["http", "server"] for a file included in a
	// server block). Empty for a main configuration.
	Ancestors []string
}

// maxDepth bounds block nesting. Real configurations nest a handful of
// levels; the bound keeps hostile input from exhausting the stack.
const maxDepth = 256

// ParseFile parses one file's text. It never fails: syntax errors are
// recorded in the returned File's Diagnostics and parsing resumes after
// them, so the tree holds everything that could be understood.
func ParseFile(path string, src []byte, opts *Options) *File {
	return ParseString(path, string(src), opts)
}

// ParseString is ParseFile for text already held as a string; the File
// shares it without copying.
func ParseString(path, src string, opts *Options) *File {
	if opts == nil {
		opts = &Options{}
	}
	f := &File{Path: path, Src: src}
	if len(src) > MaxSourceSize {
		// Offsets past MaxSourceSize do not fit a Range: refuse, as the
		// loader does (the file readers never return more).
		f.Diagnostics = []*Diagnostic{{File: f, Path: path, Severity: Error, Code: CodeTooLarge, Name: NameTooLarge,
			Message: fmt.Sprintf("not parsed: the file is larger than %s", FormatSize(MaxSourceSize))}}
		return f
	}
	lx := newLexer(f)
	b := &builder{lx: lx, f: f, kinds: opts.Kinds}
	var ctx BlockContext
	if b.kinds != nil {
		ctx = b.kinds.Root(opts.Ancestors)
	}
	freeForm := len(opts.Ancestors) > 0 && isFreeForm(opts.Ancestors[len(opts.Ancestors)-1])
	dirs, comments, _ := b.block(0, ctx, freeForm)
	f.Directives = dirs
	f.Comments = comments
	f.DirectiveCount = b.count
	f.Diagnostics = append(lx.errs, b.errs...)
	sortDiagnostics(f.Diagnostics)
	return f
}

type builder struct {
	lx    *lexer
	f     *File
	kinds DirectiveKinds
	errs  []*Diagnostic

	// Directives, words, blocks and directive lists are carved from slabs:
	// a big config has a hundred thousand small nodes, and one allocation
	// per node would dominate parse time and size-class waste. The chunks
	// start small and double up to 32 KiB (see nextChunk).
	dirSlab   []Directive
	wordSlab  []Word
	blockSlab []Block
	ptrSlab   []*Directive
	// pending holds the directives of the blocks being built, innermost
	// last; each block takes its own tail when it ends.
	pending []*Directive

	// seenComments counts the lexer's comments already given to a block.
	seenComments int
	// count is the number of directives built.
	count int
}

func (b *builder) errorf(r Range, msg string, args ...any) *Diagnostic {
	d := newSyntaxError(b.f, r, msg, args...)
	b.errs = append(b.errs, d)
	return d
}

// block reads directives until the "}" that closes the current block (or the
// end of input at top level). It returns the offset of that "}", -1 if none.
func (b *builder) block(depth int, ctx BlockContext, freeForm bool) (dirs []*Directive, comments []*Comment, rbrace int) {
	check := b.kinds != nil && ctx != 0 && !freeForm
	mark := len(b.pending)
	defer func() { dirs = b.takePending(mark) }()
	lx := b.lx
	var prev *Directive
	prevEnd := -1
	for {
		words, term, at := lx.statement()
		// Comments read along with this statement belong to this block.
		var fresh []*Comment
		if n := len(lx.comments); n > b.seenComments {
			fresh = lx.comments[b.seenComments:n]
			b.seenComments = n
			comments = append(comments, fresh...)
		}
		var d *Directive
		if len(words) > 0 {
			d = b.newDirective(words)
		}
		b.attachComments(prev, prevEnd, d, fresh)

		switch term {
		case termEOF:
			if d != nil {
				b.pending = append(b.pending, d)
			} else if depth > 0 {
				b.errorf(rng(at, at), "unexpected end of file, expecting \"}\"")
			}
			return nil, comments, -1

		case termRBrace:
			if d != nil {
				// The lexer has reported `unexpected "}"`; say what is
				// probably missing.
				b.explainCut(b.addSplit(d, ctx, check, false), at)
			}
			if depth > 0 {
				return nil, comments, at
			}
			if d == nil {
				b.errorf(rng(at, at+1), "unexpected \"}\"")
			}
			prev, prevEnd = nil, at+1
			continue

		case termSemicolon:
			d.term = int32(at)
			last := b.addSplit(d, ctx, check, false)
			if check {
				if block, known := b.kinds.BlockKind(ctx, last.Name.Value); known && block && !isRawBlock(last.Name.Value) {
					b.errorf(rng(at, at+1), "directive %q has no opening \"{\"", last.Name.Value)
				}
			}
			prev, prevEnd = last, at+1
			continue
		}

		// termLBrace
		if d == nil {
			// `unexpected "{"` was reported; keep the braces balanced and
			// drop what is inside.
			b.skipBlock()
			prev, prevEnd = nil, lx.pos
			continue
		}
		d.term = int32(at)
		d = b.addSplit(d, ctx, check, true)
		name := d.Name.Value
		switch {
		case isRawBlock(name):
			body, rb, _ := lx.rawBlock(at)
			d.rbrace = int32(rb)
			d.Args = append(d.Args, Word{Value: b.f.Src[body.Start:body.End], Range: body})
			if rb < 0 {
				// The reader of the Lua block reported why, where nginx
				// does; the enclosing blocks need no second message.
				return nil, comments, -1
			}
			prev, prevEnd = d, lx.pos
			continue
		case freeForm:
			// map, types and the like hand their body to a custom handler
			// that rejects nested blocks.
			b.errorf(rng(at, at+1), "unexpected \"{\"")
		case check:
			if block, known := b.kinds.BlockKind(ctx, name); known && !block {
				diag := b.errorf(rng(at, at+1), "directive %q is not terminated by \";\"", name)
				if at > 0 && !isSpace(b.f.Src[at-1]) {
					// A "{" glued to a word is almost always an unquoted
					// regex quantifier such as "[0-9]{4}": skip to the ";"
					// that ends the statement instead of opening a block.
					diag.Detail = "a \"{\" inside an argument starts a block in nginx; quote the argument that holds it"
					b.skipStatement()
					prev, prevEnd = d, lx.pos
					continue
				}
			}
		}
		if depth+1 >= maxDepth {
			b.errorf(d.Name.Range, "blocks nested more than %d deep", maxDepth)
			b.skipBlock()
			prev, prevEnd = d, lx.pos
			continue
		}
		d.Block = b.newBlock()
		var inner BlockContext
		if b.kinds != nil && ctx != 0 {
			inner = b.kinds.Child(ctx, name)
		}
		var rb int
		var inside []*Comment
		d.Block.Directives, inside, rb = b.block(depth+1, inner, freeForm || isFreeForm(name))
		if len(inside) > 0 {
			// A fresh cell, so that inside itself does not escape: most
			// blocks have no comments and allocate nothing here.
			cell := new([]*Comment)
			*cell = inside
			d.Block.comments = cell
		}
		d.rbrace = int32(rb)
		if d.rbrace < 0 {
			// The error was reported where the input ended; outer blocks
			// are unterminated too but need no second message.
			return nil, comments, -1
		}
		prev, prevEnd = d, rb+1
	}
}

func (b *builder) newDirective(words []Word) *Directive {
	if len(b.dirSlab) == cap(b.dirSlab) {
		b.dirSlab = make([]Directive, 0, nextChunk(cap(b.dirSlab), unsafe.Sizeof(Directive{})))
	}
	b.dirSlab = b.dirSlab[:len(b.dirSlab)+1]
	b.count++
	d := &b.dirSlab[len(b.dirSlab)-1]
	*d = Directive{
		Name:   words[0],
		File:   b.f,
		term:   -1,
		rbrace: -1,
	}
	if n := len(words) - 1; n > 0 {
		if n > 64 {
			d.Args = make([]Word, n)
		} else {
			if cap(b.wordSlab)-len(b.wordSlab) < n {
				b.wordSlab = make([]Word, 0, max(nextChunk(cap(b.wordSlab), unsafe.Sizeof(Word{})), n))
			}
			l := len(b.wordSlab)
			b.wordSlab = b.wordSlab[:l+n]
			d.Args = b.wordSlab[l : l+n : l+n]
		}
		copy(d.Args, words[1:])
	}
	return d
}

func (b *builder) newBlock() *Block {
	if len(b.blockSlab) == cap(b.blockSlab) {
		b.blockSlab = make([]Block, 0, nextChunk(cap(b.blockSlab), unsafe.Sizeof(Block{})))
	}
	b.blockSlab = b.blockSlab[:len(b.blockSlab)+1]
	return &b.blockSlab[len(b.blockSlab)-1]
}

// takePending moves the directives collected since mark into an
// exactly-sized list.
func (b *builder) takePending(mark int) []*Directive {
	n := len(b.pending) - mark
	if n == 0 {
		return nil
	}
	var out []*Directive
	if n > 256 {
		out = make([]*Directive, n)
	} else {
		if cap(b.ptrSlab)-len(b.ptrSlab) < n {
			b.ptrSlab = make([]*Directive, 0, max(nextChunk(cap(b.ptrSlab), unsafe.Sizeof((*Directive)(nil))), n))
		}
		l := len(b.ptrSlab)
		b.ptrSlab = b.ptrSlab[:l+n]
		out = b.ptrSlab[l : l+n : l+n]
	}
	copy(out, b.pending[mark:])
	clear(b.pending[mark:])
	b.pending = b.pending[:mark]
	return out
}

// attachComments gives fresh comments to the directive they describe: a
// comment on the line where the previous directive ended trails it; one
// before the new directive's name leads it.
func (b *builder) attachComments(prev *Directive, prevEnd int, d *Directive, fresh []*Comment) {
	src := b.f.Src
	for _, c := range fresh {
		if prev != nil && prevEnd >= 0 && prevEnd <= int(c.Range.Start) && !strings.Contains(src[prevEnd:c.Range.Start], "\n") {
			c.Directive, c.Trailing = prev, true
			continue
		}
		if d != nil && c.Range.Start < d.Name.Range.Start {
			c.Directive = d
		}
	}
}

// skipBlock consumes statements up to the "}" that balances a "{" already
// read, without building anything. It iterates rather than recursing, so
// hostile nesting cannot exhaust the stack.
func (b *builder) skipBlock() {
	depth := 1
	for depth > 0 {
		_, term, _ := b.lx.statement()
		switch term {
		case termLBrace:
			depth++
		case termRBrace:
			depth--
		case termEOF:
			return
		}
	}
	b.takeComments()
}

// skipStatement consumes statements up to the next ";" at this level, or
// stops before a "}" that would close the enclosing block.
func (b *builder) skipStatement() {
	for {
		words, term, _ := b.lx.statement()
		switch term {
		case termSemicolon, termEOF:
			b.takeComments()
			return
		case termRBrace:
			if len(words) == 0 {
				// Give the "}" back: it closes the enclosing block.
				b.lx.pos--
			}
			b.takeComments()
			return
		}
	}
}

// takeComments marks comments read while skipping as seen; they stay in
// the lexer's list but belong to no block.
func (b *builder) takeComments() { b.seenComments = len(b.lx.comments) }

// addSplit detects a directive that swallowed the next line's
// directive because a ";" is missing at the end of a line, as in
//
//	listen 80
//	server_name example.com;
//
// nginx reads that as one "listen" with three arguments. When an argument
// that starts a new line is a directive known in this block, and the
// directive it would start is also known, the statement is split there and
// a missing-semicolon error points at the end of the previous line.
//
// addSplit appends the resulting directives to the block being built and
// returns the last one, which carries d's terminator.
func (b *builder) addSplit(d *Directive, ctx BlockContext, check, opensBlock bool) *Directive {
	if !check || len(d.Args) == 0 || !spansLines(b.f.Src, d) {
		b.pending = append(b.pending, d)
		return d
	}
	src := b.f.Src
	if firstBlock, known := b.splitKind(ctx, d.Name.Value); !known || firstBlock {
		b.pending = append(b.pending, d)
		return d
	}
	for i, a := range d.Args {
		if a.Quote(b.f) != 0 || !startsLine(src, int(a.Range.Start)) {
			continue
		}
		if block, known := b.splitKind(ctx, a.Value); !known || block != opensBlock {
			continue
		}
		if !b.kinds.Fits(ctx, d.Name.Value, d.Args[:i]) || !b.kinds.Fits(ctx, a.Value, d.Args[i+1:]) {
			continue
		}
		last := d.Name.Range
		if i > 0 {
			last = d.Args[i-1].Range
		}
		end := last.End
		first := &Directive{Name: d.Name, Args: d.Args[:i:i], File: d.File,
			term: -1, rbrace: -1}
		rest := &Directive{Name: a, Args: d.Args[i+1:], File: d.File,
			term: d.term, rbrace: d.rbrace}
		head := shorten(src[d.Name.Range.Start:end])
		fix := []Edit{{File: b.f, Range: Range{end, end}, NewText: ";"}}
		if opensBlock {
			// nginx itself fails here, at the "{", with this message.
			diag := b.errorf(Range{d.term, d.term + 1}, "directive %q is not terminated by \";\"", d.Name.Value)
			diag.Detail = fmt.Sprintf("a \";\" is missing after %q on line %d", head, b.lineOf(int(end)))
			diag.Related = []Related{{File: b.f, Range: Range{end, end}, Message: "insert \";\" here"}}
			diag.Edits = fix
		} else {
			// The finding covers the word the ";" belongs after: an
			// editor's cursor can reach it (not the column past the end
			// of the line) to ask for the fix, which inserts at its end.
			// A word over several lines (a quoted value, a template's
			// placeholder) is reported on its last line, the one that
			// lost the ";".
			at := last
			if nl := strings.LastIndexByte(src[last.Start:last.End], '\n'); nl >= 0 {
				at.Start = last.Start + int32(nl) + 1
				for at.Start < at.End-1 && (src[at.Start] == ' ' || src[at.Start] == '\t') {
					at.Start++
				}
			}
			diag := &Diagnostic{File: b.f, Path: b.f.Path, Range: at, Severity: Error,
				Code: CodeMissingSemicolon, Name: NameMissingSemicolon,
				Message: fmt.Sprintf("missing \";\" after %q", head),
				Detail:  fmt.Sprintf("without it nginx reads the next line's %q as more arguments of %q", a.Value, d.Name.Value),
				Edits:   fix}
			if takesWordsAsData[d.Name.Value] && b.kinds.Fits(ctx, d.Name.Value, d.Args) {
				// nginx starts: the words are one more format string,
				// server name or index file to it. Not nginx's refusal,
				// but the next line's directive never takes effect.
				diag.Severity = Warning
				diag.Detail += fmt.Sprintf(" and starts, but %q never takes effect", a.Value)
			}
			b.errs = append(b.errs, diag)
		}
		b.pending = append(b.pending, first)
		return b.addSplit(rest, ctx, check, opensBlock)
	}
	b.pending = append(b.pending, d)
	return d
}

// ModuleKinds is implemented by a DirectiveKinds that also knows the
// directives of third-party modules from their sources (set-misc's
// set_random, echo, lua, ...), which BlockKind leaves unknown since a
// stock nginx lacks them. The missing-";" heuristic splits at them too: a
// line's directive swallowed by the line above is as plain with a module's
// directive as with nginx's.
type ModuleKinds interface {
	// ModuleBlockKind is BlockKind over every directive whose shape is
	// known, nginx's or a module's.
	ModuleBlockKind(ctx BlockContext, name string) (block, known bool)
}

// splitKind is the kind of name the missing-";" heuristic goes by.
func (b *builder) splitKind(ctx BlockContext, name string) (block, known bool) {
	if mk, ok := b.kinds.(ModuleKinds); ok {
		return mk.ModuleBlockKind(ctx, name)
	}
	return b.kinds.BlockKind(ctx, name)
}

// takesWordsAsData are the directives whose handlers take any further
// word as one more value without refusing it (ngx_http_log_set_format's
// format strings, ngx_http_core_server_name's names, ngx_http_index_set_index's
// files; an absolute one before the last only warns), so a line
// swallowed for a missing ";" still starts nginx.
var takesWordsAsData = map[string]bool{"log_format": true, "server_name": true, "index": true}

// spansLines reports whether d's words are on more than one line, the
// only shape the missing-";" heuristic looks at.
func spansLines(src string, d *Directive) bool {
	return strings.IndexByte(src[d.Name.Range.End:d.Args[len(d.Args)-1].Range.Start], '\n') >= 0
}

// startsLine reports whether only blanks precede off on its line.
func startsLine(src string, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return true
		}
		return false
	}
	return false
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// isRawBlock reports whether name takes a body that is not nginx syntax
// (lua-nginx-module's *_by_lua_block directives).
func isRawBlock(name string) bool { return strings.HasSuffix(name, "_by_lua_block") }

// isFreeForm reports whether name's block is read by a custom handler
// (cf->handler in nginx) that takes each line as data, not as a directive.
// Such handlers reject nested blocks with `unexpected "{"`.
func isFreeForm(name string) bool {
	switch name {
	case "map", "geo", "types", "split_clients", "charset_map":
		return true
	}
	return false
}

// lineOf returns the line of an offset already passed by the lexer.
func (b *builder) lineOf(off int) int { return b.f.Line(off) }

// explainCut adds to nginx's `unexpected "}"` for a "}" that cut d short
// where the ";" probably belongs, with the fix.
func (b *builder) explainCut(d *Directive, rbrace int) {
	for i := len(b.lx.errs) - 1; i >= 0; i-- {
		e := b.lx.errs[i]
		if int(e.Range.Start) != rbrace {
			continue
		}
		end := d.HeadRange().End
		e.Detail = fmt.Sprintf("directive %q is not terminated by \";\": it is probably missing after %q on line %d",
			d.Name.Value, shorten(b.f.Src[d.Name.Range.Start:end]), b.lineOf(int(end)))
		e.Related = []Related{{File: b.f, Range: Range{end, end}, Message: "insert \";\" here"}}
		e.Edits = []Edit{{File: b.f, Range: Range{end, end}, NewText: ";"}}
		return
	}
}
