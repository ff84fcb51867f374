package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// githubCommand maps a severity onto a workflow command.
func githubCommand(s parser.Severity) string {
	switch s {
	case parser.Error:
		return "error"
	case parser.Warning:
		return "warning"
	}
	return "notice"
}

// githubData escapes a workflow command's message: GitHub decodes %25,
// %0D and %0A there, so those three must be encoded.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a property value, where ":" and "," also end the
// value and so are encoded as well.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// githubFormat prints one workflow command per finding, which GitHub
// Actions turns into annotations on the pull request:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE name::message
type githubFormat struct{}

// Format writes l's findings as GitHub workflow commands.
func (githubFormat) Format(w io.Writer, l *Lint) error {
	for _, d := range l.Findings {
		props := []string{"file=" + githubProperty(TerminalSafe(DisplayPath(d.FilePath(), l.Dir)))}
		if d.File != nil {
			s, e := d.Start(), d.End()
			end := e.Column
			if e.Line == s.Line {
				end = max(end, s.Column+1) // an empty range still marks one column
			}
			// endColumn is exclusive, as end_column is in the JSON output.
			props = append(props, fmt.Sprintf("line=%d", s.Line), fmt.Sprintf("col=%d", s.Column),
				fmt.Sprintf("endLine=%d", e.Line), fmt.Sprintf("endColumn=%d", end))
		}
		props = append(props, "title="+githubProperty(d.Code+" "+d.Name))
		// The log that shows these is a terminal of sorts: escape the
		// controls a configuration's words may carry.
		msg := TerminalSafe(d.Message)
		if d.Detail != "" {
			msg += "\n" + TerminalSafe(d.Detail)
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubCommand(d.Severity), strings.Join(props, ","), githubData(msg)); err != nil {
			return err
		}
	}
	return nil
}
