package parser

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

	lines lineIndex
}

// Word is one token: a directive name or an argument.
type Word struct {
	// Value is the token as nginx sees it: quotes removed and the escapes
	// nginx resolves (\" \' \\ \t \r \n) applied.
	Value string
	// Range covers the raw text, quotes included.
	Range Range
}

// A word is only its value and range: a large configuration holds millions
// of words, and the quoting, which few consumers ask for, is written in
// the source the range points into (see Quote and Unterminated).

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
// The pointer fields come first and the flags share a word: a large config
// has a hundred thousand directives, and the collector scans each only up
// to its last pointer.
type Directive struct {
	Name Word
	Args []Word
	// Block is the "{ ... }" body, nil for a simple directive and for a raw
	// block (see RawBlock).
	Block *Block
	// File is the file the directive is written in.
	File *File
	// LBrace and RBrace are the offsets of the braces of Block or of a raw
	// block; -1 when absent (RBrace is -1 when the file ended first).
	LBrace, RBrace int32
	// Semicolon is the offset of the terminating ";", -1 when absent.
	Semicolon int32
	// RawBlock is set for directives such as "content_by_lua_block" whose
	// body is not nginx syntax: the body text is the last argument, and
	// LBrace/RBrace locate the braces.
	RawBlock bool
	// Unterminated is set when the directive was cut short by a syntax
	// error: a "}" or the end of the file came before ";" or "{".
	Unterminated bool
}

// Block is the body of a block directive.
type Block struct {
	Directives []*Directive
	// Comments are the comments inside the braces, in source order.
	Comments []*Comment
}

// Range returns the directive's extent: from its name to its ";" or the
// closing "}" of its block, whichever ends it.
func (d *Directive) Range() Range {
	r := d.Name.Range
	switch {
	case d.RBrace >= 0:
		r.End = d.RBrace + 1
	case d.Semicolon >= 0:
		r.End = d.Semicolon + 1
	case d.LBrace >= 0:
		r.End = d.LBrace + 1
	case len(d.Args) > 0:
		r.End = d.Args[len(d.Args)-1].Range.End
	}
	return r
}

// HeadRange returns the range of the name and arguments, without the block.
func (d *Directive) HeadRange() Range {
	r := d.Name.Range
	if len(d.Args) > 0 && !d.RawBlock {
		r.End = d.Args[len(d.Args)-1].Range.End
	}
	return r
}

// Line returns the 1-based line of the directive's name.
func (d *Directive) Line() int { return d.File.Line(int(d.Name.Range.Start)) }

// ArgValues returns the argument values as strings.
func (d *Directive) ArgValues() []string {
	out := make([]string, len(d.Args))
	for i, a := range d.Args {
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
func (d *Directive) Is(name string) bool { return d.Name.Value == name }
