package lsp

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nginx-lint/nginx-lint/parser"
)

// mapHoverLines is the most lines of a map a hover lists.
const mapHoverLines = 64

// mapLines writes the lines of the map block d as a Markdown list, each
// as it is written: a key nginx reads as the empty string (two quotes)
// is a key like any other, and its quotes are what shows it.
func mapLines(b *strings.Builder, d *parser.Directive) {
	lines := d.Block.Directives
	for j, line := range lines {
		if j == mapHoverLines {
			fmt.Fprintf(b, "- … %d more lines\n", len(lines)-j)
			break
		}
		fmt.Fprintf(b, "- `%s`\n", sourceLine(line))
	}
}

// sourceLine is a simple directive as written, without its ";", on one
// line (runs of blanks and line breaks made one space) and at most 100
// bytes.
func sourceLine(d *parser.Directive) string {
	r := d.HeadRange()
	t := strings.Join(strings.Fields(d.File.Src[r.Start:r.End]), " ")
	if len(t) > 100 {
		n := 97
		for n > 0 && !utf8.RuneStart(t[n]) {
			n--
		}
		t = t[:n] + "..."
	}
	return strings.ReplaceAll(t, "`", "'")
}
