package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// displayPath is how every output format names a file: relative to the
// working directory when it is under it (GitHub matches annotation paths
// against the checkout, and reports read better so), absolute otherwise,
// with forward slashes; standard input is "<stdin>" (the loader names it
// so in the working directory).
func displayPath(path, cwd string) string {
	if cwd == "" {
		return filepath.ToSlash(path)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

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

// writeGitHub prints one workflow command per finding, which GitHub
// Actions turns into annotations on the pull request:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE name::message
func writeGitHub(w io.Writer, ds []*parser.Diagnostic, cwd string) error {
	for _, d := range ds {
		props := []string{"file=" + githubProperty(terminalSafe(displayPath(d.FilePath(), cwd)))}
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
		msg := terminalSafe(d.Message)
		if d.Detail != "" {
			msg += "\n" + terminalSafe(d.Detail)
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubCommand(d.Severity), strings.Join(props, ","), githubData(msg)); err != nil {
			return err
		}
	}
	return nil
}

// checkstyle is the XML report format of Checkstyle, read by many CI
// dashboards and review bots.
type checkstyle struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// writeCheckstyle groups findings by file, in the order files first
// appear. source is "nginx-lint.CODE.name" so a consumer can filter by
// rule with either key.
func writeCheckstyle(w io.Writer, ds []*parser.Diagnostic, cwd string) error {
	doc := checkstyle{Version: "4.3", Files: []checkstyleFile{}}
	index := map[string]int{}
	for _, d := range ds {
		name := displayPath(d.FilePath(), cwd)
		i, ok := index[name]
		if !ok {
			i = len(doc.Files)
			index[name] = i
			doc.Files = append(doc.Files, checkstyleFile{Name: name})
		}
		e := checkstyleError{Line: 1, Severity: d.Severity.String(), Message: d.Message, Source: "nginx-lint." + d.Code + "." + d.Name}
		if d.File != nil {
			s := d.Start()
			e.Line, e.Column = s.Line, s.Column
		}
		doc.Files[i].Errors = append(doc.Files[i].Errors, e)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
