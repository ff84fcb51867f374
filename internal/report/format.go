package report

import (
	"io"
	"slices"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// A Formatter writes the findings of one lint in one format.
type Formatter interface {
	Format(w io.Writer, l *Lint) error
}

// Lint is what a Formatter writes: the findings of a run and what the
// formats say around them.
type Lint struct {
	// Findings are the run's findings, in the order they are shown.
	Findings []*parser.Diagnostic
	// Registry holds the rules the run could report; SARIF describes
	// every one, so a viewer shows a rule's page even for results it has
	// not seen.
	Registry *analyzer.Registry
	// Dir is the working directory: files under it are named relative
	// to it (DisplayPath), and it is SARIF's SRCROOT.
	Dir string
	// Tool is the version of nginx-lint that ran, as SARIF's driver
	// states it.
	Tool Tool
	// Hidden counts the run's findings left out of Findings because they
	// are below HiddenBelow (--min-severity); the text format's summary
	// says so.
	Hidden      int
	HiddenBelow parser.Severity
	// Hint ends the text format's summary line when it has findings to
	// sum up: how to lint for the nginx installed here when no target
	// was named.
	Hint string
}

// Tool is nginx-lint's version: as the binary reports it ("v1.2.3",
// "(devel)") and as Semantic Versioning 2.0 ("0.0.0-devel").
type Tool struct {
	Version, Semantic string
}

// Options are how the text format is shown; the other formats are the
// same whatever they say.
type Options struct {
	// Color colors the text output with ANSI escapes.
	Color bool
	// Quiet prints the finding lines alone: no source line, detail,
	// related places or summary.
	Quiet bool
}

// format is one entry of the registry: a name and how to make the
// Formatter.
type format struct {
	name string
	new  func(Options) Formatter
}

// formats is the registry of output formats, in the order the help
// lists them: a format is added here, once, and --format and --output
// both offer it.
var formats = []format{
	{"text", func(o Options) Formatter { return textFormat(o) }},
	{"json", func(Options) Formatter { return jsonFormat{} }},
	{"sarif", func(Options) Formatter { return sarifFormat{} }},
	{"github", func(Options) Formatter { return githubFormat{} }},
	{"gitlab", func(Options) Formatter { return gitlabFormat{} }},
	{"checkstyle", func(Options) Formatter { return checkstyleFormat{} }},
}

// Names are the names of the output formats.
func Names() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// New returns the format called name, shown as o says; false when there
// is no such format.
func New(name string, o Options) (Formatter, bool) {
	i := slices.IndexFunc(formats, func(f format) bool { return f.name == name })
	if i < 0 {
		return nil, false
	}
	return formats[i].new(o), true
}
