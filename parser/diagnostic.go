package parser

import "fmt"

// Severity orders findings; higher is worse.
type Severity int

// Severities, from least to most severe.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	}
	return "error"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "error":
		return Error, true
	case "warning":
		return Warning, true
	case "info":
		return Info, true
	}
	return 0, false
}

// Diagnostic is a finding tied to a range of a file: a syntax error from
// the parser, an include problem from the loader, or a rule's report.
type Diagnostic struct {
	// File is the file the range points into. It may be nil for a
	// finding about input that could not be read at all; Path then names it.
	File *File
	Path string
	// Range is the primary location.
	Range    Range
	Severity Severity
	// Code is the stable rule code (NL1001) and Name its kebab-case name
	// (syntax-error).
	Code, Name string
	// Message is one terse line; Detail says why and how to fix it.
	Message string
	Detail  string
	// Related points at other places that explain the finding ("first
	// declared here").
	Related []Related
	// Edits is a suggested fix, applied all together.
	Edits []Edit
	// Target names the nginx the finding or its fix assumed when either
	// depends on the version ("nginx 1.22.1"; with no target named, the
	// newest release the tables know); empty when neither does.
	Target string
}

// Related is a secondary location of a diagnostic.
type Related struct {
	File    *File
	Range   Range
	Message string
}

// Edit replaces the bytes of Range in File with NewText.
type Edit struct {
	File    *File
	Range   Range
	NewText string
}

// Error makes a Diagnostic usable as an error.
func (d *Diagnostic) Error() string {
	if d.File == nil {
		if d.Path != "" {
			return d.Path + ": " + d.Message
		}
		return d.Message
	}
	p := d.File.Position(int(d.Range.Start))
	return fmt.Sprintf("%s:%d:%d: %s", d.File.Path, p.Line, p.Column, d.Message)
}

// Start returns the position where the diagnostic begins.
func (d *Diagnostic) Start() Position {
	if d.File == nil {
		return Position{Line: 1, Column: 1}
	}
	return d.File.Position(int(d.Range.Start))
}

// End returns the position where the diagnostic ends.
func (d *Diagnostic) End() Position {
	if d.File == nil {
		return Position{Line: 1, Column: 1}
	}
	return d.File.Position(int(d.Range.End))
}

// FilePath returns the path of the file the diagnostic is about.
func (d *Diagnostic) FilePath() string {
	if d.File != nil {
		return d.File.Path
	}
	return d.Path
}

// Codes and names of the findings the parser and loader produce. Rules in
// the analyzer continue the numbering (first digit: 1 syntax, 2
// correctness, 3 security, 4 performance, 5 style).
const (
	// CodeInternal is nginx-lint's own failure (a rule or the language
	// server's lint panicked), not the configuration's.
	CodeInternal         = "NL1000"
	NameInternal         = "internal-error"
	CodeSyntax           = "NL1001"
	NameSyntax           = "syntax-error"
	CodeMissingSemicolon = "NL1002"
	NameMissingSemicolon = "missing-semicolon"
	CodeIncludeNotFound  = "NL1003"
	NameIncludeNotFound  = "include-not-found"
	CodeIncludeCycle     = "NL1004"
	NameIncludeCycle     = "include-cycle"
	CodeUnreadable       = "NL1005"
	NameUnreadable       = "unreadable-file"
	CodeNotRegular       = "NL1006"
	NameNotRegular       = "not-regular-file"
	CodeTooLarge         = "NL1007"
	NameTooLarge         = "file-too-large"
	CodeBudget           = "NL1008"
	NameBudget           = "total-size-limit"
	CodeBinary           = "NL1009"
	NameBinary           = "binary-file"
	CodeIncludeLimit     = "NL1010"
	NameIncludeLimit     = "include-limit"
)

func newSyntaxError(f *File, r Range, msg string, args ...any) *Diagnostic {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	return &Diagnostic{File: f, Path: f.Path, Range: r, Severity: Error, Code: CodeSyntax, Name: NameSyntax, Message: msg}
}
