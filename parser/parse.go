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
	// Faithful keeps the tree of a file with syntax errors as nginx's
	// reading leaves it. By default such a file is read a second time,
	// recovering as a person typing means it (see recovery), and that
	// tree is returned with the first reading's findings.
	Faithful bool
}

// MaxDepth is the deepest block nesting the parser reads, counting the
// blocks a fragment is included in (Options.Ancestors). nginx reads a
// block by calling its parser again from the block directive's handler,
// a few hundred bytes of C stack a level: under the usual 8 MiB stack,
// nginx 1.22 reads 13,093 locations nested in a server (13,095 blocks)
// and crashes at 13,101, 13,057 and 13,065 for regex locations (run
// nginx -t on them; docs/robustness.md). Deeper input is an error at the
// block directive that passes the bound, which is skipped whole.
const MaxDepth = 13_100

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
	b := build(f, opts, nil)
	f.Diagnostics = append(b.lx.errs, b.errs...)
	sortDiagnostics(f.Diagnostics)
	if opts.Faithful || len(f.Diagnostics) == 0 {
		return f
	}
	rec := recoveryFor(b)
	if rec == nil {
		return f
	}
	// The tree the rest of the analysis sees is the recovered one; the
	// findings stay those of nginx's reading.
	for range maxRecoveries {
		g := &File{Path: path, Src: src}
		gb := build(g, opts, rec)
		var more []int
		for _, q := range gb.lx.strayQuotes {
			if !rec.cut[q] {
				more = append(more, q)
			}
		}
		if len(more) == 0 {
			g.Diagnostics = f.Diagnostics
			for _, d := range g.Diagnostics {
				d.File = g
				for i := range d.Edits {
					if d.Edits[i].File == f {
						d.Edits[i].File = g
					}
				}
				for i := range d.Related {
					if d.Related[i].File == f {
						d.Related[i].File = g
					}
				}
			}
			return g
		}
		// Cutting one quote short lets the next open one show.
		for _, q := range more {
			rec.cut[q] = true
		}
	}
	return f
}

// maxRecoveries bounds the recovery parses of one file: each one cuts
// the open quotes the one before revealed.
const maxRecoveries = 8

// build reads f's text into its tree, recovering as rec says (nil: as
// nginx reads it).
func build(f *File, opts *Options, rec *recovery) *builder {
	lx := newLexer(f)
	b := &builder{lx: lx, f: f, kinds: opts.Kinds, rec: rec, base: len(opts.Ancestors)}
	if rec != nil {
		lx.cut, lx.brace = rec.cut, rec.brace
	}
	var ctx BlockContext
	if b.kinds != nil {
		ctx = b.kinds.Root(opts.Ancestors)
	}
	freeForm := len(opts.Ancestors) > 0 && isFreeForm(opts.Ancestors[len(opts.Ancestors)-1])
	dirs, comments, _, _ := b.block(0, ctx, freeForm, nil, nil)
	f.Directives = dirs
	f.Comments = comments
	f.DirectiveCount = b.count
	return b
}

// recovery says how a second reading of a file that nginx refuses
// rebuilds its tree the way the person typing it meant, so one mistake
// does not change what everything after it is. nginx's reading decides
// whether it is needed and gives the findings; the recovered tree is
// what rules and editor features read.
//
//   - cut: a quote that ran past its line into an error ends at its line.
//   - shallow: a block is missing its "}" (the input ended inside it): a
//     statement that starts a line no deeper than the line that opened a
//     block (whose body is indented deeper) ends that block there, and so
//     does a "}" shallower than it.
//   - stray: a "}" came with no block open: one that starts a line deeper
//     than the line that opened the block it would close is stray and is
//     skipped.
//   - noBrace: a block directive ended with ";" where a line of its body
//     begins (`location /x` + newline + `proxy_pass ...;`): the "{" is put
//     back at the end of its head.
//   - cutBlock: a "}" indented as the block directive whose head it cut
//     short closes that directive's block (an empty `location = /x {}`
//     that lost its "{").
//   - A "{" after a "$" that starts no variable name (`^/(.*)${`) opens
//     a block, not a variable's braces.
//
// Indentation is trusted in a body indented deeper than its opening line,
// in any body of a file whose blocks mostly are (indented), and never in
// a file written flat.
type recovery struct {
	cut                                      map[int]bool
	shallow, stray, noBrace, cutBlock, brace bool
	indented                                 bool
}

// recoveryFor returns how to recover from the errors nginx's reading
// (b) found, nil when a second reading would change nothing.
func recoveryFor(b *builder) *recovery {
	rec := &recovery{cut: map[int]bool{}, shallow: b.unclosed, stray: b.extraClose, noBrace: b.noBrace,
		cutBlock: b.cutBlock, brace: b.lx.dollarBrace}
	for _, q := range b.lx.strayQuotes {
		rec.cut[q] = true
	}
	if len(rec.cut) == 0 && !rec.shallow && !rec.stray && !rec.noBrace && !rec.cutBlock && !rec.brace {
		return nil
	}
	deep, flat := indentation(b.f.Src, b.f.Directives)
	rec.indented = deep > 0 && deep >= flat
	return rec
}

// indentation counts the blocks of dirs whose first statement starts a
// line indented deeper than the line that opened them, and those where it
// is not.
func indentation(src string, dirs []*Directive) (deep, flat int) {
	for _, d := range dirs {
		if d.Block == nil || len(d.Block.Directives) == 0 {
			continue
		}
		head, ok := lineIndent(src, int(d.Name().Range.Start))
		first, starts := lineIndent(src, int(d.Block.Directives[0].Name().Range.Start))
		if ok && starts {
			if deeper(first, head) {
				deep++
			} else {
				flat++
			}
		}
		dd, ff := indentation(src, d.Block.Directives)
		deep, flat = deep+dd, flat+ff
	}
	return deep, flat
}

// opener is the line that opened a block, for recovery by indentation.
type opener struct {
	// indent is the blank prefix of the line whose first word is the
	// block's directive; ok is false when the directive does not start
	// its line (its indentation says nothing).
	indent string
	ok     bool
	// seen is set once the first statement of the body that starts a
	// line has been looked at; deeper when it was indented deeper than
	// indent. Indentation is trusted in a body indented deeper than its
	// opening line, or inside one (a block just typed may have no body
	// of its own yet): a file written flat says nothing by it.
	seen, deeper bool
	parent       *opener
	// indented is set in a file whose blocks are mostly indented.
	indented bool
}

func (op *opener) trusted() bool {
	return op != nil && (op.deeper || op.indented || op.parent.trusted())
}

// lineIndent returns the blanks that precede off on its line, and
// whether only blanks do.
func lineIndent(src string, off int) (string, bool) {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] != '\n' {
		return "", false
	}
	return src[i:off], true
}

// deeper reports whether indentation a is deeper than b (b a proper
// prefix of it); notDeeper whether a is b or a prefix of it. Blanks that
// mix tabs and spaces differently are neither: nothing is inferred.
func deeper(a, b string) bool    { return len(a) > len(b) && strings.HasPrefix(a, b) }
func notDeeper(a, b string) bool { return strings.HasPrefix(b, a) }

// nextToken returns the offset of the next token after blanks and
// comments, without reading it (len(src) at the end).
func (lx *lexer) nextToken() int {
	src := lx.src
	i := lx.pos
	for i < len(src) {
		switch c := src[i]; {
		case isSpace(c):
			i++
		case c == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return len(src)
			}
			i += j
		default:
			return i
		}
	}
	return i
}

// byIndent applies the recovery by indentation before the next
// statement of the block op opened: close says the block ends before it,
// skip that the next token was a stray "}", now read.
func (b *builder) byIndent(op *opener) (close, skip bool) {
	if b.rec == nil || op == nil || !op.ok || !b.rec.shallow && !b.rec.stray {
		return false, false
	}
	src := b.f.Src
	t := b.lx.nextToken()
	if t >= len(src) {
		return false, false
	}
	indent, starts := lineIndent(src, t)
	if !starts {
		return false, false
	}
	rbrace := src[t] == '}'
	if !op.seen && !rbrace {
		op.seen, op.deeper = true, deeper(indent, op.indent)
	}
	if !op.trusted() {
		return false, false
	}
	switch {
	case b.rec.shallow && !rbrace && notDeeper(indent, op.indent):
		return true, false
	case b.rec.shallow && rbrace && deeper(op.indent, indent):
		return true, false
	case b.rec.stray && rbrace && deeper(indent, op.indent):
		b.lx.statement() // the comments before it, and the "}"
		return false, true
	}
	return false, false
}

type builder struct {
	lx    *lexer
	f     *File
	kinds DirectiveKinds
	errs  []*Diagnostic
	// rec, when set, recovers the tree as it says (a second reading).
	rec *recovery
	// What a recovery could mend (see recovery): the input ended inside
	// a block; a "}" came with no block open; a block directive ended with
	// ";"; one was cut short by a "}".
	unclosed, extraClose, noBrace, cutBlock bool

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
	// base is the nesting of the blocks the file is read inside
	// (Options.Ancestors), which counts towards MaxDepth.
	base int
}

func (b *builder) errorf(r Range, msg string, args ...any) *Diagnostic {
	d := newSyntaxError(b.f, r, msg, args...)
	b.errs = append(b.errs, d)
	return d
}

// block reads directives until the "}" that closes the current block (or the
// end of input at top level). It returns the offset of that "}", -1 if none;
// eof is set when the input ended inside the block. op is the line that
// opened the block (nil at top level), for recovery by indentation; first,
// when set, is the block's first statement, already read (a block whose
// "{" recovery put back). A block that recovery closed before its "}"
// returns -2-end, end being where its last statement ends.
func (b *builder) block(depth int, ctx BlockContext, freeForm bool, op *opener, first *Directive) (dirs []*Directive, comments []*Comment, rbrace int, eof bool) {
	check := b.kinds != nil && ctx != 0 && !freeForm
	mark := len(b.pending)
	defer func() { dirs = b.takePending(mark) }()
	lx := b.lx
	var prev *Directive
	prevEnd := lx.pos
	if first != nil {
		opens := first.LBrace() >= 0
		prev = b.addSplit(first, ctx, check, opens)
		prevEnd = int(first.term) + 1
		if opens {
			ended, end := b.body(prev, depth, ctx, freeForm, op, nil)
			if ended {
				return nil, comments, -1, true
			}
			prevEnd = end
		}
	}
	for {
		if closeHere, skipped := b.byIndent(op); closeHere {
			return nil, comments, -2 - prevEnd, false
		} else if skipped {
			prev, prevEnd = nil, lx.pos
			continue
		}
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
			if depth > 0 {
				b.unclosed = true
			}
			return nil, comments, -1, true

		case termRBrace:
			if d != nil {
				// The lexer has reported `unexpected "}"`; say what is
				// probably missing.
				last := b.addSplit(d, ctx, check, false)
				b.explainCut(last, at)
				if check && b.opensBlock(ctx, last.Name().Value) {
					// A block's head cut by a "}": its "{" is missing.
					b.cutBlock = true
					if b.rec != nil && b.rec.cutBlock && b.closesHead(last, at) {
						last.Block = b.newBlock()
						last.rbrace = int32(at)
						prev, prevEnd = last, at+1
						continue
					}
				}
			}
			if depth > 0 {
				return nil, comments, at, false
			}
			b.extraClose = true
			if d == nil {
				b.errorf(rng(at, at+1), "unexpected \"}\"")
			}
			prev, prevEnd = nil, at+1
			continue

		case termLine:
			// Recovery: a quote left open ended the statement at its line.
			prev, prevEnd = b.addSplit(d, ctx, check, false), at
			continue

		case termSemicolon:
			d.term = int32(at)
			last := b.addSplit(d, ctx, check, false)
			if check && b.opensBlock(ctx, last.Name().Value) {
				b.errorf(rng(at, at+1), "directive %q has no opening \"{\"", last.Name().Value)
				b.noBrace = true
				if b.rec != nil && b.rec.noBrace {
					if i := b.bodyAhead(last, ctx); i >= 0 {
						// Recovery: the "{" belongs at the end of the head's
						// line; the statement that follows it is the body's
						// first, and the body goes on to its "}".
						a := last.Args()[i]
						body := directiveOf(b.f, a, last.Args()[i+1:], last.term, -1)
						last.SetArgs(last.Args()[:i])
						last.term = -1
						b.reattach(last, body)
						ended, end := b.body(last, depth, ctx, freeForm, op, body)
						if ended {
							return nil, comments, -1, true
						}
						prev, prevEnd = last, end
						continue
					}
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
		name := d.Name().Value
		if check && !freeForm && !isFreeForm(name) && b.opensBlock(ctx, name) {
			if i := b.bodyAhead(d, ctx); i >= 0 && b.opensBlock(b.kinds.Child(ctx, name), d.Args()[i].Value) {
				// A block's head that runs into a line opening a block
				// of its own: the head's "{" is missing (nginx fails on
				// the arguments, or on a "}" further on).
				b.noBrace = true
				if b.rec != nil && b.rec.noBrace {
					body := directiveOf(b.f, d.Args()[i], d.Args()[i+1:], d.term, -1)
					d.SetArgs(d.Args()[:i])
					d.term = -1
					b.reattach(d, body)
					ended, end := b.body(d, depth, ctx, freeForm, op, body)
					if ended {
						return nil, comments, -1, true
					}
					prev, prevEnd = d, end
					continue
				}
			}
		}
		switch {
		case isRawBlock(name):
			body, rb, _ := lx.rawBlock(at)
			d.rbrace = int32(rb)
			d.SetArgs(append(d.Args(), Word{Value: b.f.Src[body.Start:body.End], Range: body}))
			if rb < 0 {
				// The reader of the Lua block reported why, where nginx
				// does; the enclosing blocks need no second message.
				return nil, comments, -1, true
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
		ended, end := b.body(d, depth, ctx, freeForm, op, nil)
		if ended {
			// The error was reported where the input ended; outer blocks
			// are unterminated too but need no second message.
			return nil, comments, -1, true
		}
		prev, prevEnd = d, end
	}
}

// body reads the body of block directive d, whose head was read in ctx
// (first: its first statement, already read), and returns where it ends,
// or ended when the input ended inside it.
func (b *builder) body(d *Directive, depth int, ctx BlockContext, freeForm bool, op *opener, first *Directive) (ended bool, end int) {
	if b.base+depth+1 > MaxDepth {
		// Every way into a block comes here, those of recovery too, so
		// no input makes the reading recurse deeper.
		b.errorf(d.Name().Range, "blocks nested more than %d deep (nginx runs out of stack reading deeper)", MaxDepth)
		b.skipBlock()
		return false, b.lx.pos
	}
	name := d.Name().Value
	d.Block = b.newBlock()
	var inner BlockContext
	if b.kinds != nil && ctx != 0 {
		inner = b.kinds.Child(ctx, name)
	}
	var in *opener
	if b.rec != nil {
		indent, ok := lineIndent(b.f.Src, int(d.Name().Range.Start))
		in = &opener{indent: indent, ok: ok, parent: op, indented: b.rec.indented}
	}
	dirs, inside, rb, eof := b.block(depth+1, inner, freeForm || isFreeForm(name), in, first)
	d.Block.Directives = dirs
	if len(inside) > 0 {
		// A fresh cell, so that inside itself does not escape: most
		// blocks have no comments and allocate nothing here.
		cell := new([]*Comment)
		*cell = inside
		d.Block.comments = cell
	}
	d.rbrace = int32(rb)
	switch {
	case eof:
		return true, -1
	case rb < -1:
		// Closed by recovery before the statement that comes next.
		return false, -2 - rb
	}
	return false, rb + 1
}

// opensBlock reports whether name is a directive known in ctx to open a
// block of nginx syntax.
func (b *builder) opensBlock(ctx BlockContext, name string) bool {
	block, known := b.kinds.BlockKind(ctx, name)
	return known && block && !isRawBlock(name)
}

// bodyAhead returns, for a block directive d that ended with ";" and
// spans lines, the index of the argument that starts the line its body
// begins on: a directive known in the block (any word for a block of
// data such as map), -1 when there is none.
func (b *builder) bodyAhead(d *Directive, ctx BlockContext) int {
	if len(d.Args()) == 0 || !spansLines(b.f.Src, d) {
		return -1
	}
	inner := b.kinds.Child(ctx, d.Name().Value)
	for i, a := range d.Args() {
		if !startsLine(b.f.Src, int(a.Range.Start)) {
			continue
		}
		if isFreeForm(d.Name().Value) {
			return i
		}
		if _, known := b.kinds.BlockKind(inner, a.Value); inner != 0 && known && a.Quote(b.f) == 0 {
			return i
		}
	}
	return -1
}

// closesHead reports whether the "}" at rbrace, which cut the head of
// block directive d, is the one that closes d's block: it starts a line
// indented as d's does.
func (b *builder) closesHead(d *Directive, rbrace int) bool {
	head, ok := lineIndent(b.f.Src, int(d.Name().Range.Start))
	brace, starts := lineIndent(b.f.Src, rbrace)
	return ok && starts && head == brace
}

func (b *builder) newDirective(words []Word) *Directive {
	if len(b.dirSlab) == cap(b.dirSlab) {
		b.dirSlab = make([]Directive, 0, nextChunk(cap(b.dirSlab), unsafe.Sizeof(Directive{})))
	}
	b.dirSlab = b.dirSlab[:len(b.dirSlab)+1]
	b.count++
	d := &b.dirSlab[len(b.dirSlab)-1]
	*d = Directive{File: b.f, term: -1, rbrace: -1}
	// A name as it is written is that very substring of the source: no
	// comparison needed (SetName compares).
	if w, src := words[0], b.f.Src; w.Value != "" && len(w.Value) < spelledName &&
		0 <= w.Range.Start && int(w.Range.Start) < len(src) &&
		unsafe.StringData(w.Value) == unsafe.StringData(src[w.Range.Start:]) && int(w.Range.End-w.Range.Start) == len(w.Value) {
		d.nameAt, d.nameLen = w.Range.Start, uint16(len(w.Value))
	} else {
		d.SetName(w)
	}
	if n := len(words) - 1; n > 0 {
		if n > 64 {
			d.SetArgs(make([]Word, n))
		} else {
			if cap(b.wordSlab)-len(b.wordSlab) < n {
				b.wordSlab = make([]Word, 0, max(nextChunk(cap(b.wordSlab), unsafe.Sizeof(Word{})), n))
			}
			l := len(b.wordSlab)
			b.wordSlab = b.wordSlab[:l+n]
			d.SetArgs(b.wordSlab[l : l+n : l+n])
		}
		copy(d.Args(), words[1:])
	}
	return d
}

// directiveOf returns a directive of f named name, with the arguments
// args and the offsets term and rbrace: a statement that recovery cut
// out of another.
func directiveOf(f *File, name Word, args []Word, term, rbrace int32) *Directive {
	d := &Directive{File: f, term: term, rbrace: rbrace}
	d.SetName(name)
	d.SetArgs(args)
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
		if d != nil && c.Range.Start < d.Name().Range.Start {
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
		case termSemicolon, termEOF, termLine:
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
	if !check || len(d.Args()) == 0 || !spansLines(b.f.Src, d) {
		b.pending = append(b.pending, d)
		return d
	}
	src := b.f.Src
	firstBlock, firstKnown := b.kinds.BlockKind(ctx, d.Name().Value)
	moduleBlock, moduleKnown := b.splitKind(ctx, d.Name().Value)
	if opensBlock && !firstBlock && !moduleBlock {
		if i := b.blockAhead(d, ctx); i >= 0 {
			return b.splitBeforeBlock(d, i, ctx, firstKnown)
		}
	}
	if !moduleKnown || moduleBlock {
		b.pending = append(b.pending, d)
		return d
	}
	for i, a := range d.Args() {
		if a.Quote(b.f) != 0 || !startsLine(src, int(a.Range.Start)) {
			continue
		}
		if block, known := b.splitKind(ctx, a.Value); !known || block != opensBlock {
			continue
		}
		if !b.kinds.Fits(ctx, d.Name().Value, d.Args()[:i]) || !b.kinds.Fits(ctx, a.Value, d.Args()[i+1:]) {
			continue
		}
		first, rest, last, head, fix := b.splitAt(d, i)
		if opensBlock {
			// nginx itself fails here, at the "{", with this message.
			b.notTerminated(d, head, last.End, fix)
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
				Detail:  fmt.Sprintf("without it nginx reads the next line's %q as more arguments of %q", a.Value, d.Name().Value),
				Edits:   fix}
			if takesWordsAsData[d.Name().Value] && b.kinds.Fits(ctx, d.Name().Value, d.Args()) {
				// nginx starts: the words are one more format string,
				// server name or index file to it. Not nginx's refusal,
				// but the next line's directive never takes effect.
				diag.Severity = Warning
				diag.Detail += fmt.Sprintf(" and starts, but %q never takes effect", a.Value)
			}
			b.errs = append(b.errs, diag)
		}
		b.reattach(first, rest)
		b.pending = append(b.pending, first)
		return b.addSplit(rest, ctx, check, opensBlock)
	}
	b.pending = append(b.pending, d)
	return d
}

// blockAhead returns the index of the argument of d, a statement that
// ended with "{", that starts a line with a directive known in ctx to open
// a block, -1 when none does. d's own name is not a known block directive
// there: it is a simple one, or one this block does not know. That is how
// a directive half written above a block reads (`server_tokens` typed
// above `location / {`, `set $y`, `proxy_pass http://`): nginx reads the
// block's head as more arguments and fails at the "{"; the tree keeps the
// block, so what follows is seen as it will be once the line is finished.
func (b *builder) blockAhead(d *Directive, ctx BlockContext) int {
	for i, a := range d.Args() {
		if a.Quote(b.f) != 0 || !startsLine(b.f.Src, int(a.Range.Start)) {
			continue
		}
		if block, known := b.kinds.BlockKind(ctx, a.Value); known && block && !isRawBlock(a.Value) {
			return i
		}
	}
	return -1
}

// splitBeforeBlock closes d before its argument i, which starts the head
// of the block the "{" opens, and reports the missing ";" once: as nginx
// does at the "{" when d is a simple directive of this block ("is not
// terminated by"), else as a missing-semicolon at d's last word (nginx's
// verdict there is the rule's: an unknown directive, or one not allowed
// here).
func (b *builder) splitBeforeBlock(d *Directive, i int, ctx BlockContext, known bool) *Directive {
	a := d.Args()[i]
	first, rest, last, head, fix := b.splitAt(d, i)
	if known {
		b.notTerminated(d, head, last.End, fix)
	} else {
		b.errs = append(b.errs, &Diagnostic{File: b.f, Path: b.f.Path, Range: last, Severity: Error,
			Code: CodeMissingSemicolon, Name: NameMissingSemicolon,
			Message: fmt.Sprintf("missing \";\" after %q", head),
			Detail:  fmt.Sprintf("without it nginx reads the next line's %q block as more arguments of %q", a.Value, d.Name().Value),
			Edits:   fix})
	}
	b.reattach(first, rest)
	b.pending = append(b.pending, first)
	b.pending = append(b.pending, rest)
	return rest
}

// splitAt cuts d before its argument i, which starts another directive:
// first keeps d's name and the arguments before i, rest is argument i
// with those after it and d's terminator and block. last is the word the
// missing ";" belongs after, head the text up to it (shortened) and fix
// the edit that inserts the ";".
func (b *builder) splitAt(d *Directive, i int) (first, rest *Directive, last Range, head string, fix []Edit) {
	last = d.Name().Range
	if i > 0 {
		last = d.Args()[i-1].Range
	}
	end := last.End
	first = directiveOf(d.File, d.Name(), d.Args()[:i:i], -1, -1)
	rest = directiveOf(d.File, d.Args()[i], d.Args()[i+1:], d.term, d.rbrace)
	head = shorten(b.f.Src[d.Name().Range.Start:end])
	fix = []Edit{{File: b.f, Range: Range{end, end}, NewText: ";"}}
	return first, rest, last, head, fix
}

// notTerminated reports d, a simple directive of its block whose
// arguments ran into a block's head, as nginx does at the "{".
func (b *builder) notTerminated(d *Directive, head string, end int32, fix []Edit) {
	diag := b.errorf(Range{d.term, d.term + 1}, "directive %q is not terminated by \";\"", d.Name().Value)
	diag.Detail = fmt.Sprintf("a \";\" is missing after %q on line %d", head, b.lineOf(int(end)))
	diag.Related = []Related{{File: b.f, Range: Range{end, end}, Message: "insert \";\" here"}}
	diag.Edits = fix
}

// reattach moves the comments between the end of first's words and the
// start of rest, a directive split from it, to where they belong: one on
// first's last line trails first, the others lead rest (a suppression
// comment above a block then still governs the block).
func (b *builder) reattach(first, rest *Directive) {
	from := first.HeadRange().End
	src := b.f.Src
	for i := len(b.lx.comments) - 1; i >= 0; i-- {
		c := b.lx.comments[i]
		if c.Range.Start < from {
			break
		}
		if c.Range.Start >= rest.Name().Range.Start {
			continue
		}
		if !strings.Contains(src[from:c.Range.Start], "\n") {
			c.Directive, c.Trailing = first, true
		} else {
			c.Directive, c.Trailing = rest, false
		}
	}
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
	return strings.IndexByte(src[d.Name().Range.End:d.Args()[len(d.Args())-1].Range.Start], '\n') >= 0
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
			d.Name().Value, shorten(b.f.Src[d.Name().Range.Start:end]), b.lineOf(int(end)))
		e.Related = []Related{{File: b.f, Range: Range{end, end}, Message: "insert \";\" here"}}
		e.Edits = []Edit{{File: b.f, Range: Range{end, end}, NewText: ";"}}
		return
	}
}
