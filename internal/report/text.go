package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/nginx-lint/nginx-lint/internal/plural"
	"github.com/nginx-lint/nginx-lint/parser"
)

// palette holds the styles of the text output; all plain when color is off.
type palette struct {
	file, caret, code  *color.Color
	bySeverity         map[parser.Severity]*color.Color
	summaryOK, summBad *color.Color
}

func newPalette(on bool) palette {
	mk := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return palette{
		file:  mk(color.Bold),
		caret: mk(color.FgGreen, color.Bold),
		code:  mk(color.Faint),
		bySeverity: map[parser.Severity]*color.Color{
			parser.Error:   mk(color.FgRed, color.Bold),
			parser.Warning: mk(color.FgYellow, color.Bold),
			parser.Info:    mk(color.FgCyan, color.Bold),
		},
		summaryOK: mk(color.FgGreen),
		summBad:   mk(color.Bold),
	}
}

// textFormat prints "file:line:col: severity: message [CODE name]", the
// source line and a caret under the range, then a summary. Paths are
// shown as DisplayPath shows them. Findings are grouped by file (files
// in the order they first appear), with a blank line between files.
// Quiet (-q) prints the finding lines alone: no source line, no detail,
// no blank line between files, no summary.
type textFormat Options

// Format writes l's findings as text.
func (f textFormat) Format(w io.Writer, l *Lint) error {
	return writeText(w, l.Findings, l.Dir, f.Color, f.Quiet, l)
}

// writeText prints ds; sum, when not nil, gives what the summary adds
// (hidden findings, a hint).
func writeText(w io.Writer, ds []*parser.Diagnostic, cwd string, colored, quiet bool, sum *Lint) error {
	p := newPalette(colored)
	counts := map[parser.Severity]int{}
	groups := groupByFile(ds)
	for gi, g := range groups {
		if gi > 0 && !quiet {
			fmt.Fprintln(w)
		}
		for _, d := range g {
			counts[d.Severity]++
			s := d.Start()
			loc := TerminalSafe(DisplayPath(d.FilePath(), cwd))
			if d.File != nil {
				loc = fmt.Sprintf("%s:%d:%d", loc, s.Line, s.Column)
			}
			fmt.Fprintf(w, "%s: %s: %s %s\n", p.file.Sprint(loc), p.bySeverity[d.Severity].Sprint(d.Severity), TerminalSafe(d.Message),
				p.code.Sprintf("[%s %s]", d.Code, d.Name))
			if quiet {
				continue
			}
			if d.File != nil && !d.File.Withheld {
				writeSnippet(w, p, d)
			}
			if d.Detail != "" {
				fmt.Fprintf(w, "    %s\n", TerminalSafe(d.Detail))
			}
			for _, r := range d.Related {
				if r.File == nil || r.Message == "" {
					continue
				}
				pos := r.File.Position(int(r.Range.Start))
				fmt.Fprintf(w, "    %s %s\n", p.file.Sprintf("%s:%d:%d:", TerminalSafe(DisplayPath(r.File.Path, cwd)), pos.Line, pos.Column), TerminalSafe(r.Message))
			}
		}
	}
	hidden := sum != nil && sum.Hidden > 0
	if (len(ds) == 0 && !hidden) || quiet {
		return nil
	}
	var parts []string
	for _, s := range []parser.Severity{parser.Error, parser.Warning, parser.Info} {
		if n := counts[s]; n > 0 {
			parts = append(parts, plural.Count(n, s.String()))
		}
	}
	summary := strings.Join(parts, ", ")
	if len(ds) == 0 {
		summary = "no finding at " + sum.HiddenBelow.String() + " or above"
	}
	if len(groups) > 1 {
		summary += fmt.Sprintf(" in %d files", len(groups))
	}
	if hidden {
		summary += fmt.Sprintf(" (%s below %s not shown: --min-severity)", plural.Count(sum.Hidden, "finding"), sum.HiddenBelow)
	}
	if ts := assumedTargets(ds); ts != "" {
		summary += "; linted for " + ts
	}
	if sum != nil && sum.Hint != "" && len(ds) > 0 {
		summary += "; " + sum.Hint
	}
	_, err := fmt.Fprintln(w, p.summBad.Sprint(summary))
	return err
}

// groupByFile splits ds by file, keeping the order of first appearance and
// the order within each file.
func groupByFile(ds []*parser.Diagnostic) [][]*parser.Diagnostic {
	var groups [][]*parser.Diagnostic
	index := map[string]int{}
	for _, d := range ds {
		i, ok := index[d.FilePath()]
		if !ok {
			i = len(groups)
			index[d.FilePath()] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], d)
	}
	return groups
}

// writeSnippet shows the source line with a caret (and tildes) under the
// part the diagnostic is about. Tabs are kept so the caret lines up;
// control characters are shown escaped (TerminalSafe), and the caret
// counts the escapes' width.
func writeSnippet(w io.Writer, p palette, d *parser.Diagnostic) {
	s, e := d.Start(), d.End()
	line := d.File.LineText(s.Line)
	if len(line) > 200 {
		return
	}
	from := min(max(s.Column-1, 0), len(line))
	to := min(from+1, len(line))
	if e.Line == s.Line && e.Column > s.Column {
		to = min(e.Column-1, len(line))
	}
	before, marked := TerminalSafe(line[:from]), TerminalSafe(line[from:to])
	var mark strings.Builder
	for _, r := range before {
		if r == '\t' {
			mark.WriteByte('\t')
		} else {
			mark.WriteByte(' ')
		}
	}
	width := max(1, utf8.RuneCountInString(marked))
	mark.WriteString("^" + strings.Repeat("~", width-1))
	fmt.Fprintf(w, "    %s%s%s\n    %s\n", before, marked, TerminalSafe(line[to:]), p.caret.Sprint(mark.String()))
}

// assumedTargets names the targets that version-dependent findings or
// fixes assumed, each once, in order of appearance ("" when none did):
// files linted under different settings may have different targets.
func assumedTargets(ds []*parser.Diagnostic) string {
	var ts []string
	for _, d := range ds {
		if d.Target != "" && !slices.Contains(ts, d.Target) {
			ts = append(ts, d.Target)
		}
	}
	return TerminalSafe(strings.Join(ts, ", "))
}
