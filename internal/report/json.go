package report

import (
	"io"

	"github.com/nginx-lint/nginx-lint/parser"
)

// JSONDiagnostic is the stable JSON schema of one finding. Lines and
// columns are 1-based; columns count bytes.
type JSONDiagnostic struct {
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
	Related []JSONRelated `json:"related,omitempty"`
}

// JSONRelated is one secondary location of a finding.
type JSONRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// toJSON converts one finding, its path shown as DisplayPath shows it.
func toJSON(d *parser.Diagnostic, cwd string) JSONDiagnostic {
	s, e := d.Start(), d.End()
	j := JSONDiagnostic{
		File: DisplayPath(d.FilePath(), cwd), Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column,
		Severity: d.Severity.String(), Code: d.Code, Name: d.Name, Message: d.Message, Detail: d.Detail,
		Target: d.Target,
	}
	for _, r := range d.Related {
		if r.File == nil {
			continue
		}
		pos := r.File.Position(int(r.Range.Start))
		j.Related = append(j.Related, JSONRelated{File: DisplayPath(r.File.Path, cwd), Line: pos.Line, Column: pos.Column, Message: r.Message})
	}
	return j
}

// jsonFormat writes {"diagnostics": [...]}, one JSONDiagnostic per
// finding.
type jsonFormat struct{}

// Format writes l's findings as JSON.
func (jsonFormat) Format(w io.Writer, l *Lint) error {
	ds, cwd := l.Findings, l.Dir
	out := struct {
		Diagnostics []JSONDiagnostic `json:"diagnostics"`
	}{Diagnostics: []JSONDiagnostic{}}
	// Written as encoded, one finding at a time (jsonStream); no HTML
	// escapes: "<stdin>", not "\u003cstdin\u003e".
	return jsonStream(w, out, "diagnostics", 1, len(ds), func(i int) any { return toJSON(ds[i], cwd) }, false)
}
