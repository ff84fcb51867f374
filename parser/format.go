package parser

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrNotFormattable is returned by Format for a file with syntax errors:
// a formatter must not guess at structure nginx itself cannot read.
var ErrNotFormattable = errors.New("the file has syntax errors")

// Format prints f with FormatOptions' defaults: one directive per line,
// indented as the file already is (see DetectIndent; four spaces for a
// file that shows no indentation), "{" on the directive's line, "}" on a
// line of its own, and everything a person lays out by hand kept as
// written: the whitespace between a directive's words (aligned columns),
// blank lines, comments where they were (a comment at column 0 inside an
// indented block stays at column 0; one indented deeper than its block
// keeps the extra indentation). Words are printed exactly as written
// (quotes and escapes included), and what the formatter does not lay out
// itself is copied byte for byte: a directive whose words span several
// lines or hold comments keeps its own line breaks (its continuation lines
// move with its first line), and the body of a *_by_lua_block is not
// touched. Blocks nested deeper than maxIndentLevels are indented as
// deep as that.
func Format(f *File) ([]byte, error) { return FormatWith(f, FormatOptions{}) }

// maxIndentLevels is the deepest indentation the printer writes: blocks
// nested deeper are indented as deep as that. With an indentation per
// level, the output of a configuration nested ten thousand deep (nginx
// reads thirteen thousand) would be 200 MB for a 120 KB file, growing
// with the square of its depth; capped, it stays within a few times the
// input. Real configurations nest a handful of levels.
const maxIndentLevels = 64

// indentLevels is how many indentations a line at depth gets.
func indentLevels(depth int) int { return min(depth, maxIndentLevels) }

// Indent is the indentation of one block level. The zero value means
// "not set".
type Indent struct {
	// Tabs indents with one tab per level; otherwise Spaces spaces.
	Tabs   bool
	Spaces int
}

// IsZero reports whether i is unset.
func (i Indent) IsZero() bool { return !i.Tabs && i.Spaces <= 0 }

// String is the text of one level ("\t", or Spaces spaces; four when
// unset).
func (i Indent) String() string {
	switch {
	case i.Tabs:
		return "\t"
	case i.Spaces > 0:
		return strings.Repeat(" ", i.Spaces)
	}
	return "    "
}

// Spacing says what Format does with the whitespace between the words of a
// directive written on one line.
type Spacing int

const (
	// SpacingKeep keeps it as written: hand-made alignment
	// ("include       mime.types;") and the gap before a trailing comment
	// stay.
	SpacingKeep Spacing = iota
	// SpacingSingle puts one space between words and before a trailing
	// comment, and none before ";".
	SpacingSingle
)

// FormatOptions change Format's layout. The zero value is Format's
// default: the file's own indentation, spacing and blank lines kept.
type FormatOptions struct {
	// Tabs and Spaces set the indentation of one block level (Spaces from
	// 1 to 16; Tabs wins). Both unset: as the file is indented
	// (DetectIndent), else Default.
	Tabs   bool
	Spaces int
	// Default is the indentation of a file that shows none (every
	// directive at the top level, or none indented); unset: four spaces.
	// The language server puts the editor's settings here.
	Default Indent
	// Spacing is what happens to the whitespace between words.
	Spacing Spacing
	// MaxBlankLines, when positive, shortens longer runs of blank lines to
	// that many; zero keeps every blank line.
	MaxBlankLines int
}

// Indent is the indentation o gives a file: the one set, else the file's
// own (detected), else Default, else four spaces.
func (o FormatOptions) Indent(f *File) Indent {
	if o.Tabs {
		return Indent{Tabs: true}
	}
	if o.Spaces > 0 {
		return Indent{Spaces: o.Spaces}
	}
	if in, ok := DetectIndent(f); ok {
		return in
	}
	if !o.Default.IsZero() {
		return o.Default
	}
	return Indent{Spaces: 4}
}

// DetectIndent returns the indentation a file uses for one block level,
// decided by its directives inside blocks that begin a line: one whose
// leading whitespace is exactly one tab per level votes for tabs, one
// indented with spaces only, a multiple of its depth, votes for that many
// spaces per level (1 to 16); anything else (mixed tabs and spaces, a
// width that is no multiple) does not vote. Tabs win when more lines vote
// for them than for spaces; otherwise the most common width wins (the
// narrower on a tie). ok is false when no line votes (a file with no
// blocks, or nothing indented).
func DetectIndent(f *File) (in Indent, ok bool) {
	var tabs, spaces int
	var widths [17]int
	var walk func(ds []*Directive, depth int)
	walk = func(ds []*Directive, depth int) {
		for _, d := range ds {
			if lv := indentLevels(depth); lv > 0 {
				// (Levels past maxIndentLevels are read as the printer
				// writes them.)
				if ws, starts := leadingSpace(f.Src, int(d.Name().Range.Start)); starts && ws != "" {
					switch {
					case len(ws) == lv && strings.Trim(ws, "\t") == "":
						tabs++
					case strings.Trim(ws, " ") == "" && len(ws)%lv == 0 && len(ws)/lv <= 16:
						spaces++
						widths[len(ws)/lv]++
					}
				}
			}
			if d.Block != nil {
				walk(d.Block.Directives, depth+1)
			}
		}
	}
	walk(f.Directives, 0)
	switch {
	case tabs == 0 && spaces == 0:
		return Indent{}, false
	case tabs > spaces:
		return Indent{Tabs: true}, true
	}
	best := 1
	for w := 2; w < len(widths); w++ {
		if widths[w] > widths[best] {
			best = w
		}
	}
	return Indent{Spaces: best}, true
}

// leadingSpace returns the blanks between the start of the line holding
// offset at and at, and whether only blanks (spaces, tabs) precede at on
// its line.
func leadingSpace(src string, at int) (string, bool) {
	i := at
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] != '\n' {
		return "", false
	}
	return src[i:at], true
}

// FormatWith is Format with options.
func FormatWith(f *File, o FormatOptions) ([]byte, error) {
	for _, d := range f.Diagnostics {
		if d.Name == NameSyntax || d.Name == NameMissingSemicolon {
			p := d.Start()
			return nil, fmt.Errorf("%w: %s:%d:%d: %s", ErrNotFormattable, f.Path, p.Line, p.Column, d.Message)
		}
	}
	pr := &printer{f: f, o: o, indentBy: o.Indent(f).String()}
	if old, ok := DetectIndent(f); ok {
		pr.oldIndent = old.String()
	}
	pr.block(f.Directives, f.Comments, 0, -1, len(f.Src))
	out := pr.b.Bytes()
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	if crlfFile(f.Src) {
		// A file whose every line ends in CRLF (written on Windows) keeps
		// its line endings: the printer writes LF, and a CR inside a
		// quoted word spanning lines is the source's own.
		out = bytes.ReplaceAll(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// crlfFile reports whether every line of src ends in CRLF (and there is
// at least one): a file with mixed line endings is written with LF.
func crlfFile(src string) bool {
	n := strings.Count(src, "\n")
	return n > 0 && strings.Count(src, "\r\n") == n
}

type printer struct {
	f *File
	o FormatOptions
	// b is a bytes.Buffer, not a strings.Builder: a trailing comment
	// takes back the newline before it (Truncate), in constant time.
	b bytes.Buffer
	// indentBy is one level of the output's indentation; oldIndent one
	// level of the file's own ("" when it shows none).
	indentBy, oldIndent string
}

// item is a directive or a comment of one block, in source order.
type item struct {
	start int
	d     *Directive
	c     *Comment
}

func (pr *printer) indent(depth int) {
	for range indentLevels(depth) {
		pr.b.WriteString(pr.indentBy)
	}
}

// blankLines writes the blank lines of gap, the whitespace between two
// lines the output keeps (lead says the gap starts a line, as at the top
// of the file, rather than ending one), as many as written, or at most
// MaxBlankLines.
func (pr *printer) blankLines(gap string, lead bool) {
	n := strings.Count(gap, "\n")
	if !lead {
		n--
	}
	if pr.o.MaxBlankLines > 0 {
		n = min(n, pr.o.MaxBlankLines)
	}
	for ; n > 0; n-- {
		pr.b.WriteString("\n")
	}
}

// block prints the directives and comments of one block. open is the
// offset of the block's "{" (-1 at the top of the file), end the offset
// of its "}" (the file's length at the top).
func (pr *printer) block(dirs []*Directive, comments []*Comment, depth, open, end int) {
	src := pr.f.Src
	items := make([]item, 0, len(dirs)+len(comments))
	// indented says whether the block's own directives are indented: only
	// then does a comment at column 0 inside it mean something (code
	// commented out where it was) and stay there.
	indented := false
	for _, d := range dirs {
		items = append(items, item{start: int(d.Name().Range.Start), d: d})
		if ws, starts := leadingSpace(src, int(d.Name().Range.Start)); starts && ws != "" {
			indented = true
		}
	}
	for _, c := range comments {
		if !insideHead(dirs, c) {
			items = append(items, item{start: int(c.Range.Start), c: c})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].start < items[j].start })
	prevEnd := open + 1
	if open < 0 {
		prevEnd = 0
	}
	for i, it := range items {
		gap := src[min(prevEnd, it.start):it.start]
		if it.c != nil && (i > 0 || open >= 0) && !strings.Contains(gap, "\n") {
			// A comment on the line of what came before (a directive, or
			// the block's "{") stays there.
			pr.trimNewline()
			pr.b.WriteString(pr.space(gap) + "#" + commentText(it.c) + "\n")
			prevEnd = int(it.c.Range.End)
			continue
		}
		pr.blankLines(gap, open < 0 && i == 0)
		if it.c != nil {
			pr.commentIndent(it.c, depth, indented)
			pr.b.WriteString("#" + commentText(it.c) + "\n")
			prevEnd = int(it.c.Range.End)
			continue
		}
		pr.indent(depth)
		prevEnd = pr.directive(it.d, depth)
	}
	if prevEnd < end {
		tail := src[prevEnd:end]
		if open < 0 && len(items) == 0 {
			return // nothing but blanks
		}
		pr.blankLines(tail, false)
	}
}

// space is the gap before a trailing comment: as written (SpacingKeep) or
// one space.
func (pr *printer) space(gap string) string {
	if pr.o.Spacing == SpacingKeep {
		return gap
	}
	return " "
}

// commentIndent indents a comment on a line of its own. A comment at
// column 0 inside a block whose directives are indented stays at column 0
// (code commented out, as in Fedora's nginx.conf); one indented deeper
// than the file's own indentation for its depth keeps the extra; others
// get the block's indentation.
func (pr *printer) commentIndent(c *Comment, depth int, indented bool) {
	ws, _ := leadingSpace(pr.f.Src, int(c.Range.Start))
	if ws == "" && depth > 0 && indented {
		return
	}
	pr.indent(depth)
	if depth == 0 || pr.oldIndent != "" {
		if extra, ok := strings.CutPrefix(ws, strings.Repeat(pr.oldIndent, indentLevels(depth))); ok {
			pr.b.WriteString(extra)
		}
	}
}

// trimNewline removes the newline the last line ended with, so a trailing
// comment can join it.
func (pr *printer) trimNewline() {
	if n := pr.b.Len(); n > 0 && pr.b.Bytes()[n-1] == '\n' {
		pr.b.Truncate(n - 1)
	}
}

// directive prints d and returns the source offset where it ended.
func (pr *printer) directive(d *Directive, depth int) int {
	src := pr.f.Src
	// term is where the words end: the ";" or the "{".
	term := d.Semicolon()
	if d.LBrace() >= 0 {
		term = d.LBrace()
	}
	start := int(d.Name().Range.Start)
	if text := src[start:term]; strings.ContainsAny(text, "\n#") {
		// Words over several lines, or comments between them: keep them
		// as written, up to the terminator, the continuation lines moved
		// as the first line moves.
		text = pr.continuation(d, depth, text)
		if i := strings.LastIndexByte(text, '\n'); i >= 0 && strings.Trim(text[i+1:], " \t") == "" {
			// The terminator has a line of its own (after a comment,
			// say): the directive's indentation, plus what it had beyond
			// the directive's first line.
			pr.b.WriteString(text[:i+1])
			pr.indent(depth)
			if old, starts := leadingSpace(src, start); starts {
				if extra, ok := strings.CutPrefix(text[i+1:], old); ok {
					pr.b.WriteString(extra)
				}
			}
			return pr.terminate(d, depth, false)
		}
		pr.b.WriteString(strings.TrimRight(text, " \t"))
		if d.LBrace() >= 0 {
			pr.b.WriteString(" ")
		}
		return pr.terminate(d, depth, false)
	}
	args := d.Args()
	if d.RawBlock() && len(args) > 0 {
		args = args[:len(args)-1]
	}
	if pr.o.Spacing == SpacingKeep {
		// The words and what lies between them as written: aligned
		// columns stay aligned. Before a "{" the blanks go (terminate
		// puts one space).
		text := src[start:term]
		if d.LBrace() >= 0 {
			text = strings.TrimRight(text, " \t")
		}
		pr.b.WriteString(text)
		return pr.terminate(d, depth, d.LBrace() >= 0)
	}
	pr.b.WriteString(d.Name().Raw(pr.f))
	for _, a := range args {
		pr.b.WriteString(" " + a.Raw(pr.f))
	}
	return pr.terminate(d, depth, true)
}

// continuation moves the continuation lines of a directive written over
// several lines (text, from its name to its terminator) with its first
// line: where a line starts with the first line's old indentation, that
// becomes the new one. A line that starts inside a word (a quoted string
// over lines) is part of the word and never touched, nor is anything when
// the directive did not begin its line.
func (pr *printer) continuation(d *Directive, depth int, text string) string {
	src := pr.f.Src
	start := int(d.Name().Range.Start)
	old, starts := leadingSpace(src, start)
	if !starts || !strings.Contains(text, "\n") {
		return text
	}
	var b strings.Builder
	at := 0
	for {
		nl := strings.IndexByte(text[at:], '\n')
		if nl < 0 {
			b.WriteString(text[at:])
			break
		}
		nl += at
		b.WriteString(text[at : nl+1])
		at = nl + 1
		if inWord(d, start+nl) {
			continue
		}
		rest := text[at:]
		if strings.HasPrefix(rest, old) && strings.TrimLeft(rest, " \t") != "" && !strings.HasPrefix(strings.TrimLeft(rest, " \t"), "\n") {
			// Only a line with something on it is moved.
			b.WriteString(strings.Repeat(pr.indentBy, indentLevels(depth)))
			at += len(old)
		}
	}
	return b.String()
}

// inWord reports whether offset at lies inside one of d's words.
func inWord(d *Directive, at int) bool {
	if int(d.Name().Range.Start) <= at && at < int(d.Name().Range.End) {
		return true
	}
	for _, a := range d.Args() {
		if int(a.Range.Start) <= at && at < int(a.Range.End) {
			return true
		}
	}
	return false
}

// terminate prints what ends d: ";", or its block. space says whether a
// space goes before a "{".
func (pr *printer) terminate(d *Directive, depth int, space bool) int {
	src := pr.f.Src
	sp := ""
	if space {
		sp = " "
	}
	switch {
	case d.RawBlock():
		pr.b.WriteString(sp + src[d.LBrace():d.RBrace()+1] + "\n")
		return int(d.RBrace()) + 1
	case d.Block != nil:
		open, end := int(d.LBrace()), int(d.RBrace())
		if len(d.Block.Directives) == 0 && len(d.Block.Comments()) == 0 && !strings.Contains(src[open:end], "\n") {
			// An empty block on one line: "{}", or as written ("{ }")
			// when the spacing is kept.
			body := "{}"
			if pr.o.Spacing == SpacingKeep {
				body = src[open : end+1]
			}
			pr.b.WriteString(sp + body + "\n")
			return end + 1
		}
		pr.b.WriteString(sp + "{\n")
		pr.block(d.Block.Directives, d.Block.Comments(), depth+1, open, end)
		pr.indent(depth)
		pr.b.WriteString("}\n")
		return end + 1
	}
	pr.b.WriteString(";\n")
	return int(d.Semicolon()) + 1
}

// insideHead reports whether c lies between the words of a directive
// (before its terminator), where the directive is printed as written.
func insideHead(dirs []*Directive, c *Comment) bool {
	i := sort.Search(len(dirs), func(i int) bool { return dirs[i].Name().Range.Start > c.Range.Start }) - 1
	if i < 0 {
		return false
	}
	d := dirs[i]
	end := d.Semicolon()
	if d.LBrace() >= 0 {
		end = d.LBrace()
	}
	return c.Range.Start < end
}

// commentText is a comment without trailing blanks (a stray carriage
// return included), which the layout drops.
func commentText(c *Comment) string { return strings.TrimRight(c.Text, " \t\r") }
