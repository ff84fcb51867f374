// Package report is how nginx-lint shows what it found: the output
// formats of a lint (text, json, sarif, github, gitlab, checkstyle), each
// a Formatter in one registry that --format and --output both read, the
// cost report (text, JSON and the SVG chart), the words the cost
// report, its chart and the editor's hover share (costwords.go), and
// the answers of nginx-lint route and diff (route.go, diff.go: text,
// JSON and diff's Markdown summary).
//
// Every format names files the same way (DisplayPath) and escapes what a
// terminal would act on (TerminalSafe). The analysis knows nothing of
// this package: it hands over findings and models; the command line and
// the language server choose how they are shown.
package report
