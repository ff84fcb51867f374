package report

import (
	"encoding/xml"
	"io"
)

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

// checkstyleFormat groups findings by file, in the order files first
// appear. source is "nginx-lint.CODE.name" so a consumer can filter by
// rule with either key.
type checkstyleFormat struct{}

// Format writes l's findings as a Checkstyle report.
func (checkstyleFormat) Format(w io.Writer, l *Lint) error {
	doc := checkstyle{Version: "4.3", Files: []checkstyleFile{}}
	index := map[string]int{}
	for _, d := range l.Findings {
		name := DisplayPath(d.FilePath(), l.Dir)
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
