package parser

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrNotFormattable is returned by Format for a file with syntax errors:
// a formatter must not guess at structure nginx itself cannot read.
var ErrNotFormattable = errors.New("the file has syntax errors")

// Format prints f in the canonical layout: one directive per line, four
// spaces per block level (FormatWith changes that), one space between words, "{" on the directive's
// line, comments kept where they were (a comment after a directive stays on
// its line), at most one blank line in a row. Words are printed exactly as
// written (quotes and escapes included), and what the formatter does not
// lay out itself is copied byte for byte: a directive whose words span
// several lines or hold comments keeps its own line breaks, and the body of
// a *_by_lua_block is not touched.
func Format(f *File) ([]byte, error) { return FormatWith(f, FormatOptions{}) }

// FormatOptions change Format's layout.
type FormatOptions struct {
	// Tabs indents one tab per block level; otherwise Spaces spaces (0
	// means the default, 4).
	Tabs   bool
	Spaces int
}

// FormatWith is Format with options.
func FormatWith(f *File, o FormatOptions) ([]byte, error) {
	for _, d := range f.Diagnostics {
		if d.Name == NameSyntax || d.Name == NameMissingSemicolon {
			p := d.Start()
			return nil, fmt.Errorf("%w: %s:%d:%d: %s", ErrNotFormattable, f.Path, p.Line, p.Column, d.Message)
		}
	}
	pr := &printer{f: f, indentBy: "    "}
	switch {
	case o.Tabs:
		pr.indentBy = "\t"
	case o.Spaces > 0:
		pr.indentBy = strings.Repeat(" ", o.Spaces)
	}
	pr.block(f.Directives, f.Comments, 0, -1)
	out := strings.TrimRight(pr.b.String(), "\n")
	if out == "" {
		return nil, nil
	}
	return []byte(out + "\n"), nil
}

type printer struct {
	f        *File
	b        strings.Builder
	indentBy string
}

// item is a directive or a comment of one block, in source order.
type item struct {
	start int
	d     *Directive
	c     *Comment
}

func (pr *printer) indent(depth int) {
	for i := 0; i < depth; i++ {
		pr.b.WriteString(pr.indentBy)
	}
}

// block prints the directives and comments of one block. open is the
// offset of the block's "{" (-1 at the top of the file).
func (pr *printer) block(dirs []*Directive, comments []*Comment, depth, open int) {
	src := pr.f.Src
	items := make([]item, 0, len(dirs)+len(comments))
	for _, d := range dirs {
		items = append(items, item{start: int(d.Name.Range.Start), d: d})
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
			pr.b.WriteString(" #" + commentText(it.c) + "\n")
			prevEnd = int(it.c.Range.End)
			continue
		}
		if i > 0 && strings.Count(gap, "\n") >= 2 {
			pr.b.WriteString("\n")
		}
		pr.indent(depth)
		if it.c != nil {
			pr.b.WriteString("#" + commentText(it.c) + "\n")
			prevEnd = int(it.c.Range.End)
			continue
		}
		prevEnd = pr.directive(it.d, depth)
	}
}

// trimNewline removes the newline the last line ended with, so a trailing
// comment can join it.
func (pr *printer) trimNewline() {
	s := pr.b.String()
	if strings.HasSuffix(s, "\n") {
		pr.b.Reset()
		pr.b.WriteString(s[:len(s)-1])
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
	if text := src[d.Name.Range.Start:term]; strings.ContainsAny(text, "\n#") {
		// Words over several lines, or comments between them: keep them
		// as written, up to the terminator.
		text = strings.TrimRight(text, " \t")
		pr.b.WriteString(text)
		if strings.HasSuffix(text, "\n") {
			// The terminator had a line of its own (after a comment, say).
			pr.indent(depth)
		} else if d.LBrace() >= 0 {
			pr.b.WriteString(" ")
		}
		return pr.terminate(d, depth, false)
	} else {
		pr.b.WriteString(d.Name.Raw(pr.f))
		args := d.Args
		if d.RawBlock() && len(args) > 0 {
			args = args[:len(args)-1]
		}
		for _, a := range args {
			pr.b.WriteString(" " + a.Raw(pr.f))
		}
	}
	return pr.terminate(d, depth, true)
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
		if len(d.Block.Directives) == 0 && len(d.Block.Comments()) == 0 {
			pr.b.WriteString(sp + "{}\n")
			return int(d.RBrace()) + 1
		}
		pr.b.WriteString(sp + "{\n")
		pr.block(d.Block.Directives, d.Block.Comments(), depth+1, int(d.LBrace()))
		pr.indent(depth)
		pr.b.WriteString("}\n")
		return int(d.RBrace()) + 1
	}
	pr.b.WriteString(";\n")
	return int(d.Semicolon()) + 1
}

// insideHead reports whether c lies between the words of a directive
// (before its terminator), where the directive is printed as written.
func insideHead(dirs []*Directive, c *Comment) bool {
	i := sort.Search(len(dirs), func(i int) bool { return dirs[i].Name.Range.Start > c.Range.Start }) - 1
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
