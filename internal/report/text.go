package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"

	"github.com/nginx-lint/nginx-lint/parser"
)

// jsonDiagnostic is the stable JSON schema of one finding. Lines and
// columns are 1-based; columns count bytes.
type jsonDiagnostic struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Name      string `json:"name"`
	Message   string `json:"message"`
	Detail    string `json:"detail,omitempty"`
	// Target is the nginx a version-dependent finding or its fix assumed
	// ("nginx 1.22.1", "nginx 1.31.5 (newest; no target named)").
	Target string `json:"target,omitempty"`
	// Related are the other places the finding points at ("first
	// defined here", where nginx reports it).
	Related []jsonRelated `json:"related,omitempty"`
}

// jsonRelated is one secondary location of a finding.
type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// toJSON converts one finding, its path shown as displayPath shows it.
func toJSON(d *parser.Diagnostic) jsonDiagnostic {
	cwd, _ := os.Getwd()
	return toJSONIn(d, cwd)
}

func toJSONIn(d *parser.Diagnostic, cwd string) jsonDiagnostic {
	s, e := d.Start(), d.End()
	j := jsonDiagnostic{
		File: displayPath(d.FilePath(), cwd), Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column,
		Severity: d.Severity.String(), Code: d.Code, Name: d.Name, Message: d.Message, Detail: d.Detail,
		Target: d.Target,
	}
	for _, r := range d.Related {
		if r.File == nil {
			continue
		}
		pos := r.File.Position(int(r.Range.Start))
		j.Related = append(j.Related, jsonRelated{File: displayPath(r.File.Path, cwd), Line: pos.Line, Column: pos.Column, Message: r.Message})
	}
	return j
}

func writeJSON(w io.Writer, ds []*parser.Diagnostic) error {
	out := struct {
		Diagnostics []jsonDiagnostic `json:"diagnostics"`
	}{Diagnostics: []jsonDiagnostic{}}
	cwd, _ := os.Getwd()
	// Written as encoded, one finding at a time (jsonStream); no HTML
	// escapes: "<stdin>", not "\u003cstdin\u003e".
	return jsonStream(w, out, "diagnostics", 1, len(ds), func(i int) any { return toJSONIn(ds[i], cwd) }, false)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// useColor decides --color. always and never win over the environment.
// auto colors a terminal, with two environment overrides:
// FORCE_COLOR or CLICOLOR_FORCE set to anything but "" or "0" colors
// whatever stdout is (a CI log that renders ANSI codes), and NO_COLOR set
// to anything but "" (https://no-color.org: an empty value does not
// count) leaves it plain. A forcing variable wins over NO_COLOR, as in
// Node.js and supports-color: it is the narrower request, usually set for
// one job, where NO_COLOR is a standing preference.
func useColor(mode string, terminal bool) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") {
		return true
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	return terminal
}

// forced reports whether the environment variable name asks for color:
// set, not empty, not "0".
func forced(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0"
}

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

// writeText prints "file:line:col: severity: message [CODE name]", the
// source line and a caret under the range, then a summary. Paths are
// shown as displayPath shows them. Findings are
// grouped by file (files in the order they first appear), with a blank
// line between files.
func writeText(w io.Writer, ds []*parser.Diagnostic, colored bool) error {
	return writeTextOpts(w, ds, colored, false)
}

// writeTextOpts is writeText; quiet (-q) prints the finding lines alone:
// no source line, no detail, no blank line between files, no summary.
func writeTextOpts(w io.Writer, ds []*parser.Diagnostic, colored, quiet bool) error {
	p := newPalette(colored)
	cwd, _ := os.Getwd()
	counts := map[parser.Severity]int{}
	groups := groupByFile(ds)
	for gi, g := range groups {
		if gi > 0 && !quiet {
			fmt.Fprintln(w)
		}
		for _, d := range g {
			counts[d.Severity]++
			s := d.Start()
			loc := terminalSafe(displayPath(d.FilePath(), cwd))
			if d.File != nil {
				loc = fmt.Sprintf("%s:%d:%d", loc, s.Line, s.Column)
			}
			fmt.Fprintf(w, "%s: %s: %s %s\n", p.file.Sprint(loc), p.bySeverity[d.Severity].Sprint(d.Severity), terminalSafe(d.Message),
				p.code.Sprintf("[%s %s]", d.Code, d.Name))
			if quiet {
				continue
			}
			if d.File != nil {
				writeSnippet(w, p, d)
			}
			if d.Detail != "" {
				fmt.Fprintf(w, "    %s\n", terminalSafe(d.Detail))
			}
			for _, r := range d.Related {
				if r.File == nil || r.Message == "" {
					continue
				}
				pos := r.File.Position(int(r.Range.Start))
				fmt.Fprintf(w, "    %s %s\n", p.file.Sprintf("%s:%d:%d:", terminalSafe(displayPath(r.File.Path, cwd)), pos.Line, pos.Column), terminalSafe(r.Message))
			}
		}
	}
	if len(ds) == 0 || quiet {
		return nil
	}
	var parts []string
	for _, s := range []parser.Severity{parser.Error, parser.Warning, parser.Info} {
		if n := counts[s]; n > 0 {
			parts = append(parts, plural(n, s.String()))
		}
	}
	summary := strings.Join(parts, ", ")
	if len(groups) > 1 {
		summary += fmt.Sprintf(" in %d files", len(groups))
	}
	if ts := assumedTargets(ds); ts != "" {
		summary += "; linted for " + ts
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

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeSnippet shows the source line with a caret (and tildes) under the
// part the diagnostic is about. Tabs are kept so the caret lines up;
// control characters are shown escaped (terminalSafe), and the caret
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
	before, marked := terminalSafe(line[:from]), terminalSafe(line[from:to])
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
	fmt.Fprintf(w, "    %s%s%s\n    %s\n", before, marked, terminalSafe(line[to:]), p.caret.Sprint(mark.String()))
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
	return terminalSafe(strings.Join(ts, ", "))
}
