package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/nginx-lint/nginx-lint/internal/report"
)

// renderMarkdown writes the Markdown of a rule's page (report.RuleMarkdown) as
// text for a terminal: headings underlined (bold in color), paragraphs
// and list items wrapped to width, fenced code indented by four spaces
// and never wrapped, tables as aligned columns, inline code without its
// backticks (colored in color), links as "text (url)". It knows the
// Markdown the rule pages use, not all of CommonMark: what it does not
// recognise is printed as paragraph text.
func renderMarkdown(w io.Writer, md string, width int, colored bool) error {
	r := &mdRenderer{width: max(width, 40), styles: newMDStyles(colored)}
	lines := strings.Split(strings.TrimRight(md, "\n"), "\n")
	for i := 0; i < len(lines); {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			i++
		case strings.HasPrefix(trimmed, "```"):
			i++
			r.gap()
			for ; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				if lines[i] == "" {
					r.b.WriteString("\n")
					continue
				}
				r.b.WriteString("    " + r.styles.code.Sprint(report.TerminalSafe(lines[i])) + "\n")
			}
			i++ // the closing fence
		case strings.HasPrefix(trimmed, "#"):
			level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
			text := strings.TrimSpace(trimmed[level:])
			r.heading(level, text)
			i++
		case strings.HasPrefix(trimmed, "|"):
			var rows [][]string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				if row := tableCells(lines[i]); !isDelimiterRow(row) {
					rows = append(rows, row)
				}
			}
			r.table(rows)
		case listMarker(line) != "":
			// An item runs to a blank line or the next item; its
			// continuation lines may be indented or not.
			marker := listMarker(line)
			text := strings.TrimSpace(strings.TrimLeft(line, " ")[len(marker):])
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && listMarker(lines[i]) == "" && !blockStart(lines[i]); i++ {
				text += " " + strings.TrimSpace(lines[i])
			}
			if !r.inList {
				r.gap()
			}
			r.wrap("  "+marker, strings.Repeat(" ", 2+len(marker)), text)
			r.inList = true
		default:
			text := trimmed
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && listMarker(lines[i]) == "" && !blockStart(lines[i]); i++ {
				text += " " + strings.TrimSpace(lines[i])
			}
			r.gap()
			r.wrap("", "", text)
		}
	}
	_, err := io.WriteString(w, r.b.String())
	return err
}

// mdStyles are the colors of rendered Markdown; all plain without color.
type mdStyles struct {
	heading, code *color.Color
}

func newMDStyles(on bool) mdStyles {
	mk := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return mdStyles{heading: mk(color.Bold), code: mk(color.FgCyan)}
}

type mdRenderer struct {
	b      strings.Builder
	width  int
	styles mdStyles
	// inList is set after a list item, so the items of one list are not
	// separated by blank lines; every other block starts with one.
	inList bool
}

// gap separates a block from the one before it by a blank line.
func (r *mdRenderer) gap() {
	if r.b.Len() > 0 {
		r.b.WriteString("\n")
	}
	r.inList = false
}

func (r *mdRenderer) heading(level int, text string) {
	r.gap()
	plain := joinPlain(inlineWords(text, r.styles))
	under := "-"
	if level == 1 {
		under = "="
	}
	r.b.WriteString(r.styles.heading.Sprint(plain) + "\n")
	r.b.WriteString(strings.Repeat(under, min(utf8.RuneCountInString(plain), r.width)) + "\n")
}

// wrap writes text's words in lines of at most r.width columns (a longer
// word gets a line of its own), the first line after first, the others
// after rest (both plain spaces and markers).
func (r *mdRenderer) wrap(first, rest, text string) {
	r.b.WriteString(wrapWords(inlineWords(text, r.styles), first, utf8.RuneCountInString(first), rest, r.width))
}

// wrapWords is wrap for words already split; first, which may hold color
// codes, takes firstCols columns.
func wrapWords(words []mdWord, first string, firstCols int, rest string, width int) string {
	var b strings.Builder
	b.WriteString(first)
	col, start := firstCols, true
	for _, wd := range words {
		if !start && col+1+wd.width > width {
			b.WriteString("\n" + rest)
			col, start = utf8.RuneCountInString(rest), true
		}
		if !start {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(wd.styled)
		col += wd.width
		start = false
	}
	b.WriteString("\n")
	return b.String()
}

// table writes rows as columns two spaces apart, the first row (the
// header) in the heading style. The last column is wrapped within what
// the others leave of the width, or, when they leave less than 20
// columns, given lines of its own below the row.
func (r *mdRenderer) table(rows [][]string) {
	if len(rows) == 0 {
		return
	}
	r.gap()
	cols := 0
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	cells := make([][][]mdWord, len(rows))
	widths := make([]int, cols)
	for i, row := range rows {
		cells[i] = make([][]mdWord, cols)
		for j, c := range row {
			cells[i][j] = inlineWords(c, r.styles)
			if j < cols-1 {
				widths[j] = max(widths[j], wordsWidth(cells[i][j]))
			}
		}
	}
	indent := 0
	for _, wd := range widths[:cols-1] {
		indent += wd + 2
	}
	below := r.width-indent < 20
	for i, row := range cells {
		var line strings.Builder
		for j := 0; j < cols-1; j++ {
			text := joinWords(row[j], i == 0, r.styles)
			line.WriteString(text + strings.Repeat(" ", widths[j]-wordsWidth(row[j])+2))
		}
		last := row[cols-1]
		if i == 0 {
			last = []mdWord{{plain: joinPlain(last), styled: joinWords(last, true, r.styles), width: wordsWidth(last)}}
		}
		if below && i > 0 {
			r.b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
			r.b.WriteString(wrapWords(last, "      ", 6, "      ", r.width))
			continue
		}
		if below {
			r.b.WriteString(line.String() + joinWords(last, false, r.styles) + "\n")
			continue
		}
		r.b.WriteString(wrapWords(last, line.String(), indent, strings.Repeat(" ", indent), r.width))
	}
}

// mdWord is one word of rendered inline text: its text, the same with
// its color codes, and its width in columns.
type mdWord struct {
	plain, styled string
	width         int
}

func wordsWidth(ws []mdWord) int {
	n := 0
	for i, w := range ws {
		if i > 0 {
			n++
		}
		n += w.width
	}
	return n
}

func joinPlain(ws []mdWord) string {
	var parts []string
	for _, w := range ws {
		parts = append(parts, w.plain)
	}
	return strings.Join(parts, " ")
}

// joinWords joins words with spaces, in the heading style when heading.
func joinWords(ws []mdWord, heading bool, s mdStyles) string {
	if heading {
		return s.heading.Sprint(joinPlain(ws))
	}
	var parts []string
	for _, w := range ws {
		parts = append(parts, w.styled)
	}
	return strings.Join(parts, " ")
}

// inlineWords splits inline Markdown into words: code spans lose their
// backticks (and take the code style), "\|" and "\`" lose their
// backslash, links read "text (url)", ** and __ emphasis markers go.
// Control characters are escaped (report.TerminalSafe): rule pages are ours,
// but nothing reaches a terminal raw.
func inlineWords(text string, s mdStyles) []mdWord {
	type seg struct {
		text string
		code bool
	}
	var segs []seg
	var plain strings.Builder
	flush := func() {
		if plain.Len() > 0 {
			segs = append(segs, seg{text: plain.String()})
			plain.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && strings.IndexByte("\\`*_|[]()#", text[i+1]) >= 0:
			plain.WriteByte(text[i+1])
			i++
		case c == '`':
			n := 1
			for i+n < len(text) && text[i+n] == '`' {
				n++
			}
			fence := text[i : i+n]
			end := strings.Index(text[i+n:], fence)
			if end < 0 {
				plain.WriteString(fence)
				i += n - 1
				continue
			}
			flush()
			code := text[i+n : i+n+end]
			if strings.HasPrefix(code, " ") && strings.HasSuffix(code, " ") && strings.TrimSpace(code) != "" {
				code = code[1 : len(code)-1]
			}
			segs = append(segs, seg{text: code, code: true})
			i += n + end + n - 1
		case c == '[':
			close := strings.Index(text[i:], "](")
			if close < 0 {
				plain.WriteByte(c)
				continue
			}
			end := strings.IndexByte(text[i+close:], ')')
			if end < 0 {
				plain.WriteByte(c)
				continue
			}
			label, url := text[i+1:i+close], text[i+close+2:i+close+end]
			if strings.ContainsAny(label, "[]") {
				plain.WriteByte(c)
				continue
			}
			plain.WriteString(label + " (" + url + ")")
			i += close + end
		case (c == '*' || c == '_') && i+1 < len(text) && text[i+1] == c:
			i++ // strong emphasis markers
		default:
			plain.WriteByte(c)
		}
	}
	flush()

	var words []mdWord
	var cur mdWord
	open := false
	for _, sg := range segs {
		for k, piece := range strings.Split(sg.text, " ") {
			if k > 0 && open {
				words = append(words, cur)
				cur, open = mdWord{}, false
			}
			if piece == "" {
				continue
			}
			piece = report.TerminalSafe(piece)
			cur.plain += piece
			if sg.code {
				cur.styled += s.code.Sprint(piece)
			} else {
				cur.styled += piece
			}
			cur.width += utf8.RuneCountInString(piece)
			open = true
		}
	}
	if open {
		words = append(words, cur)
	}
	return words
}

// tableCells splits a table row on the pipes that are not escaped.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' && i+1 < len(line) && line[i+1] == '|' {
			cur.WriteString(`\|`)
			i++
			continue
		}
		if line[i] == '|' {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(line[i])
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// isDelimiterRow reports a table's |---|:--:| line.
func isDelimiterRow(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return len(cells) > 0
}

// listMarker returns the marker of a list item line ("- ", "* ", "1. "),
// or "".
func listMarker(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") {
		return t[:2]
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n > 0 && strings.HasPrefix(t[n:], ". ") {
		return t[:n+2]
	}
	return ""
}

// blockStart reports a line that starts a block of another kind (heading,
// fence, table), which ends a paragraph even without a blank line.
func blockStart(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "|")
}

// textWidth is the width to wrap rendered text at: $COLUMNS when it is a
// number, else the terminal's width (terminalWidth), else 80; at most
// 100, since longer lines are hard to read.
func textWidth(f io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return min(n, 100)
	}
	if file, ok := f.(*os.File); ok {
		if n := terminalWidth(file); n > 0 {
			return min(n, 100)
		}
	}
	return 80
}
