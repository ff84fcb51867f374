package parser

import (
	"strings"
	"sync"
	"unsafe"
)

// File is one parsed configuration file. Src is kept whole: every range in
// the tree points into it, so a printer can reproduce the file byte for byte
// and a formatter can keep what it does not understand.
type File struct {
	// Path is the file's path as the loader resolved it (absolute when it
	// came from disk through a Loader).
	Path string
	// Src is the file's text. Non-UTF-8 bytes are kept as they are.
	Src string
	// Directives are the top-level directives in source order.
	Directives []*Directive
	// Comments are the top-level comments in source order, including those
	// that fall between the words of a top-level directive.
	Comments []*Comment
	// Diagnostics are the syntax errors found in this file alone.
	Diagnostics []*Diagnostic
	// FromDump names the "nginx -T" dump this file was cut from, if any.
	FromDump string
	// DirectiveCount is the number of directives in the file, at every
	// depth, so consumers can size their indexes once.
	DirectiveCount int
	// Withheld marks a stand-in for a file whose text must not be shown
	// (a file outside the configuration's tree, lint.Tree.Redact): Src
	// has the file's line ends and byte offsets, and nothing else of it.
	// Front ends print no source line of such a file.
	Withheld bool

	// lines is built when a position is first asked for (lineIndex):
	// a lint reports positions after its rules have run, so the index is
	// not alive beside their results, and a file nobody asks about
	// never pays for it.
	linesOnce sync.Once
	lines     lineIndex
}

// Word is one token: a directive name or an argument. A word is only its
// value and range: a large configuration holds millions of words, and the
// quoting, which few consumers ask for, is written in the source the range
// points into (see Quote and Unterminated).
type Word struct {
	// Value is the token as nginx sees it: quotes removed and the escapes
	// nginx resolves (\" \' \\ \t \r \n) applied.
	Value string
	// Range covers the raw text, quotes included.
	Range Range
}

// Raw returns the token's text as written in f.
func (w Word) Raw(f *File) string { return f.Src[w.Range.Start:w.Range.End] }

// Quote returns the opening quote (a double or a single quote) of a token
// quoted in f, 0 otherwise. A token that begins with a quote character is
// a quoted one (nginx reads such a quote as an opening one, wherever the
// token stands); a raw block's body (see Directive.RawBlock) is the one
// argument whose value is its whole raw text, and it is never quoted.
func (w Word) Quote(f *File) byte {
	if w.Range.Start < 0 || w.Range.Start > w.Range.End || int(w.Range.End) > len(f.Src) {
		return 0 // not a word of f
	}
	raw := w.Raw(f)
	if raw == "" || (raw[0] != '"' && raw[0] != '\'') || len(raw) == len(w.Value) {
		return 0
	}
	return raw[0]
}

// Unterminated reports whether w is a quoted token of f cut short by the
// end of input: the lexer ends a quoted token at its first unescaped
// closing quote, so a token that has none ran into the end of the file.
func (w Word) Unterminated(f *File) bool {
	q := w.Quote(f)
	if q == 0 {
		return false
	}
	raw := w.Raw(f)
	for i := 1; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case q:
			return false
		}
	}
	return true
}

// ValueStart returns the offset in f where w's value starts when the
// value is written as it is (no escapes; quotes around it are fine), so
// that offsets in the value are offsets in the source; ok is false when
// it is not.
func (w Word) ValueStart(f *File) (start int, ok bool) {
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

// SubRange returns the range of the n bytes at offset off of w's value
// ("$name" in a word), or the whole word when the value is not written as
// it is (see ValueStart) or has no such bytes.
func (w Word) SubRange(f *File, off, n int) Range {
	start, ok := w.ValueStart(f)
	if !ok || off < 0 || off+n > len(w.Value) {
		return w.Range
	}
	return Span(start+off, start+off+n)
}

// Comment is a "#" comment. Text excludes the "#" and the line ending.
//
// A comment is attached to the directive it describes, so a formatter can
// move them together: a comment on the line where a directive ends trails
// that directive; a comment above a directive (with nothing but comments
// in between) leads it. The link lives on the comment because most
// directives have none, and a large config has a hundred thousand
// directives.
type Comment struct {
	Range Range
	Text  string
	// Directive is the directive the comment is attached to, or nil (a
	// comment at the end of a block, or between a directive's words).
	Directive *Directive
	// Trailing is set when the comment follows Directive on its last line;
	// otherwise the comment leads Directive.
	Trailing bool
}

// Directive is one statement: a name, arguments and either ";" or a block.
//
// A large config has millions of directives, so a directive holds only
// what cannot be read back from the source: its block, its file, where its
// arguments are, where its name is and two offsets. The name is read back
// from the source (as written, the name is its value); a name written
// otherwise (quoted, escaped) or one built outside a file is kept whole,
// with the arguments, in a head of its own. The terminator (";" or "{") is
// one offset, the byte there says which; whether the directive is a raw
// block or was cut short follows from those offsets and its name (see the
// methods). TestNodeSizes holds it at 40 bytes, where a name word, an
// argument slice, a block and a file took 72.
type Directive struct {
	// Block is the "{ ... }" body, nil for a simple directive and for a raw
	// block (see RawBlock).
	Block *Block
	// File is the file the directive is written in.
	File *File
	// words points to the first of nargs arguments (in the parser's word
	// slab, nil when there are none) or, when nameLen is spelledName, to
	// the directiveHead that holds the name and the arguments.
	words unsafe.Pointer
	// nameAt and nameLen locate the name in File.Src when it is written as
	// it reads.
	nameAt  int32
	nameLen uint16
	nargs   uint16
	// term is the offset of the ";" or "{" that ends the directive's
	// head, -1 when neither came (the directive was cut short).
	term int32
	// rbrace is the offset of the "}" closing Block or a raw block, -1
	// when absent or when the file ended first. A block that recovery
	// closed without its "}" (see Extent) holds -2-end, end being where
	// its body's text ends.
	rbrace int32
}

// spelledName in Directive.nameLen says that the name and the arguments
// are in a directiveHead: a name that is not its own text in the file
// (quoted, escaped, no file), one of 64 KiB or more, or 64 Ki arguments
// or more. Such directives are rare enough to pay an allocation each.
const spelledName = 1<<16 - 1

// directiveHead is the name and arguments of a directive whose name is
// spelled out (see spelledName).
type directiveHead struct {
	name Word
	args []Word
}

// NewDirective returns a directive named name with the arguments args,
// in no file: what a consumer builds to ask a question of a directive
// nobody wrote (the parser builds the tree's own).
func NewDirective(name Word, args []Word) *Directive {
	d := new(Directive)
	d.spell(name, args)
	return d
}

// Name returns the directive's name.
func (d *Directive) Name() Word {
	if n := d.nameLen; n != 0 && n != spelledName {
		r := Range{d.nameAt, d.nameAt + int32(n)}
		return Word{Value: d.File.Src[r.Start:r.End], Range: r}
	}
	return d.oddName()
}

// oddName is Name for a name spelled out, or none (a zero Directive).
func (d *Directive) oddName() Word {
	if d.nameLen == spelledName {
		return (*directiveHead)(d.words).name
	}
	return Word{Range: Range{d.nameAt, d.nameAt}}
}

// Args returns the directive's arguments, nil when it has none. The
// words are the tree's: a caller may change one in place but cannot
// append to the slice (its capacity is its length; SetArgs replaces the
// arguments).
func (d *Directive) Args() []Word {
	if d.nameLen == spelledName {
		return d.headArgs()
	}
	n := int(d.nargs)
	return *(*[]Word)(unsafe.Pointer(&wordSlice{d.words, n, n}))
}

// wordSlice is the layout of a []Word: Args builds one from the slab
// pointer and the count without unsafe.Slice's checks (the pointer is
// nil exactly when the count is 0), for code the size of a field read.
type wordSlice struct {
	data     unsafe.Pointer
	len, cap int
}

// headArgs is Args for a directive whose name is spelled out.
func (d *Directive) headArgs() []Word { return (*directiveHead)(d.words).args }

// SetName replaces the directive's name. A name that is its own text in
// d.File (set File first) costs no space of its own.
func (d *Directive) SetName(w Word) {
	if d.nameLen != spelledName && d.File != nil && 0 <= w.Range.Start && w.Range.Start <= w.Range.End &&
		w.Range.End-w.Range.Start < spelledName && int(w.Range.End) <= len(d.File.Src) &&
		d.File.Src[w.Range.Start:w.Range.End] == w.Value {
		d.nameAt, d.nameLen = w.Range.Start, uint16(w.Range.End-w.Range.Start)
		return
	}
	d.spell(w, d.Args())
}

// SetArgs replaces the directive's arguments: d keeps args' array, not a
// copy.
func (d *Directive) SetArgs(args []Word) {
	if len(args) == 0 {
		args = nil
	}
	if d.nameLen != spelledName && len(args) < 1<<16 {
		d.words, d.nargs = unsafe.Pointer(unsafe.SliceData(args)), uint16(len(args))
		return
	}
	d.spell(d.Name(), args)
}

// spell keeps name and args in a head of their own: a new one, since a
// copy of d may share the old one.
func (d *Directive) spell(name Word, args []Word) {
	if len(args) == 0 {
		args = nil
	}
	d.words = unsafe.Pointer(&directiveHead{name: name, args: args[:len(args):len(args)]})
	d.nameAt, d.nameLen, d.nargs = name.Range.Start, spelledName, 0
}

// Semicolon returns the offset of the terminating ";", -1 when absent.
func (d *Directive) Semicolon() int32 { return d.termIf(';') }

// LBrace returns the offset of the "{" that opens Block or a raw block
// (or that nginx would have read as one), -1 when absent.
func (d *Directive) LBrace() int32 { return d.termIf('{') }

// RBrace returns the offset of the "}" that closes Block or a raw block,
// -1 when absent or when the file ended first.
func (d *Directive) RBrace() int32 { return max(d.rbrace, -1) }

// Extent returns the text the directive covers: Range, except for a block
// whose "}" never came. Such a block runs to the end of the file as nginx
// reads it; in a tree recovered from a syntax error (see ParseString) it
// ends where the statements recovery kept in it end.
func (d *Directive) Extent() Range {
	r := d.Range()
	switch {
	case d.rbrace < -1:
		r.End = -2 - d.rbrace
	case d.rbrace == -1 && d.Block != nil:
		r.End = int32(len(d.File.Src))
	}
	return r
}

func (d *Directive) termIf(c byte) int32 {
	if d.term >= 0 && int(d.term) < len(d.File.Src) && d.File.Src[d.term] == c {
		return d.term
	}
	return -1
}

// RawBlock reports whether d is a directive such as "content_by_lua_block"
// whose body is not nginx syntax: the body text is the last argument, and
// LBrace and RBrace locate the braces.
func (d *Directive) RawBlock() bool { return d.LBrace() >= 0 && isRawBlock(d.Name().Value) }

// Unterminated reports whether d was cut short by a syntax error: a "}"
// or the end of the file came before its ";" or "{", a block or raw block
// it opened was never closed, or its "{" was skipped (glued to a word, or
// nested too deep).
func (d *Directive) Unterminated() bool {
	return d.term < 0 || d.rbrace < 0 && (d.LBrace() >= 0 || d.Block != nil)
}

// Block is the body of a block directive.
type Block struct {
	Directives []*Directive
	// comments points to the comments inside the braces, nil when there
	// are none: most blocks of a large config have none, and a pointer
	// costs them a third of a slice.
	comments *[]*Comment
}

// Comments returns the comments inside the braces, in source order.
func (b *Block) Comments() []*Comment {
	if b.comments == nil {
		return nil
	}
	return *b.comments
}

// Range returns the directive's extent: from its name to its ";" or the
// closing "}" of its block, whichever ends it.
func (d *Directive) Range() Range {
	r := d.Name().Range
	switch {
	case d.rbrace >= 0:
		r.End = d.rbrace + 1
	case d.term >= 0:
		r.End = d.term + 1
	case len(d.Args()) > 0:
		r.End = d.Args()[len(d.Args())-1].Range.End
	}
	return r
}

// HeadRange returns the range of the name and arguments, without the block.
func (d *Directive) HeadRange() Range {
	r := d.Name().Range
	if len(d.Args()) > 0 && !d.RawBlock() {
		r.End = d.Args()[len(d.Args())-1].Range.End
	}
	return r
}

// Line returns the 1-based line of the directive's name.
func (d *Directive) Line() int { return d.File.Line(int(d.Name().Range.Start)) }

// ArgValues returns the argument values as strings.
func (d *Directive) ArgValues() []string {
	out := make([]string, len(d.Args()))
	for i, a := range d.Args() {
		out[i] = a.Value
	}
	return out
}

// Children returns the directives of the block, or nil.
func (d *Directive) Children() []*Directive {
	if d.Block == nil {
		return nil
	}
	return d.Block.Directives
}

// Is reports whether the directive is named name.
func (d *Directive) Is(name string) bool {
	if n := d.nameLen; n != 0 && n != spelledName {
		// The length first: most directives asked are not name.
		return int(n) == len(name) && d.File.Src[d.nameAt:d.nameAt+int32(n)] == name
	}
	return d.oddName().Value == name
}

// ArgIs reports whether d (nil: no) has one argument and it is want,
// without regard to case, as nginx compares its flags and keywords
// ("on", "off": ngx_conf_set_flag_slot).
func (d *Directive) ArgIs(want string) bool {
	return d != nil && len(d.Args()) == 1 && strings.EqualFold(d.Args()[0].Value, want)
}

// HasArg reports whether one of d's arguments is want, without regard to
// case (a parameter such as "ssl" or "TLSv1.3").
func (d *Directive) HasArg(want string) bool {
	for _, a := range d.Args() {
		if strings.EqualFold(a.Value, want) {
			return true
		}
	}
	return false
}

// HasChild reports whether block d holds a directive called name itself,
// as written (an included file's directives are not looked at).
func (d *Directive) HasChild(name string) bool {
	for _, c := range d.Children() {
		if c.Is(name) {
			return true
		}
	}
	return false
}
