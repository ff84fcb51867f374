package report

import (
	"io"

	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/parser"
)

// gitlabIssue is one finding in GitLab's Code Quality report (the subset
// of the Code Climate issue format that the merge request widget reads).
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// gitlabSeverity maps a severity onto GitLab's scale (info, minor, major,
// critical, blocker): an error ranks above a warning in the widget, and
// nothing claims to block what the fail level lets through.
func gitlabSeverity(s parser.Severity) string {
	switch s {
	case parser.Error:
		return "major"
	case parser.Warning:
		return "minor"
	}
	return "info"
}

// gitlabFormat writes a Code Quality report: a JSON array, one issue per
// finding. GitLab treats issues with one fingerprint as one, and compares
// the report of a merge request with its target branch's by fingerprint:
// the baseline's (rule, path, flagged text, occurrence; no line number)
// keeps a finding the same issue when lines above it move.
type gitlabFormat struct{}

// Format writes l's findings as a GitLab Code Quality report.
func (gitlabFormat) Format(w io.Writer, l *Lint) error {
	ds, cwd := l.Findings, l.Dir
	fps := baseline.New(cwd, nil).Fingerprints(ds)
	// Written as encoded, one issue at a time (jsonStream); no HTML
	// escapes: "<stdin>", as the json format writes it.
	return jsonStream(w, []gitlabIssue{}, "", 0, len(ds), func(i int) any {
		d := ds[i]
		is := gitlabIssue{
			Description: d.Message,
			CheckName:   d.Code + " " + d.Name,
			Fingerprint: fps[i],
			Severity:    gitlabSeverity(d.Severity),
			Location:    gitlabLocation{Path: DisplayPath(d.FilePath(), cwd), Lines: gitlabLines{Begin: 1}},
		}
		if d.File != nil {
			begin, end := d.Start().Line, d.End().Line
			is.Location.Lines.Begin = begin
			if end > begin {
				is.Location.Lines.End = end
			}
		}
		return is
	}, false)
}
