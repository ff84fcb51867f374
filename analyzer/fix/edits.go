package fix

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// The edits of the rules whose findings carry a mechanical fix. They keep
// the text around them as written: only the bytes of the change move.

// RemoveArg deletes argument i of d together with the blanks before
// it, so "listen 443 ssl http2;" becomes "listen 443 ssl;".
func RemoveArg(d *parser.Directive, i int) parser.Edit {
	r := d.Args()[i].Range
	src := d.File.Src
	for r.Start > 0 && (src[r.Start-1] == ' ' || src[r.Start-1] == '\t') {
		r.Start--
	}
	return parser.Edit{File: d.File, Range: r}
}

// InsertAfter adds a directive on its own line after d, indented as d
// is. d must end with ";" (not a block or an unterminated directive).
func InsertAfter(d *parser.Directive, text string) (parser.Edit, bool) {
	if d.Semicolon() < 0 || d.Block != nil {
		return parser.Edit{}, false
	}
	at := d.Semicolon() + 1
	return parser.Edit{File: d.File, Range: parser.Range{Start: at, End: at}, NewText: "\n" + lineIndent(d) + text}, true
}

// lineIndent returns the blanks that start the line d's name is on, or
// four spaces when something else precedes the name on that line.
func lineIndent(d *parser.Directive) string {
	src := d.File.Src
	start := d.Name().Range.Start
	i := start
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	if strings.Trim(src[i:start], " \t") != "" {
		return "    "
	}
	return src[i:start]
}

// DeleteDirective removes d; when d stands alone on its lines the
// whole lines go, so no blank line is left behind.
func DeleteDirective(d *parser.Directive) parser.Edit {
	r := d.Range()
	src := d.File.Src
	start, end := r.Start, r.End
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	j := int(end)
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
		j++
	}
	if (start == 0 || src[start-1] == '\n') && (j == len(src) || src[j] == '\n') {
		if j < len(src) {
			j++
		}
		return parser.Edit{File: d.File, Range: parser.Range{Start: start, End: int32(j)}}
	}
	return parser.Edit{File: d.File, Range: r}
}

// InsertFirstChild adds a directive at the top of block directive b,
// indented as b's first child is (or one level deeper than b).
func InsertFirstChild(b *parser.Directive, text string) (parser.Edit, bool) {
	if b.LBrace() < 0 || b.RawBlock() {
		return parser.Edit{}, false
	}
	indent := lineIndent(b) + "    "
	if cs := b.Children(); len(cs) > 0 && cs[0].File == b.File {
		indent = lineIndent(cs[0])
	}
	at := b.LBrace() + 1
	return parser.Edit{File: b.File, Range: parser.Range{Start: at, End: at}, NewText: "\n" + indent + text}, true
}

// ReplaceArg replaces argument a with value, quoted as a was.
func ReplaceArg(f *parser.File, a parser.Word, value string) parser.Edit {
	raw := f.Src[a.Range.Start:a.Range.End]
	if q := raw[0]; (q == '\'' || q == '"') && len(raw) > 1 && raw[len(raw)-1] == q {
		value = string(q) + value + string(q)
	}
	return parser.Edit{File: f, Range: a.Range, NewText: value}
}
