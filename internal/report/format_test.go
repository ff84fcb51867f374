package report

import (
	"bytes"
	"slices"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestRegistry: every registered name gives a Formatter that writes a
// report, names are unique, and an unknown name gives none.
func TestRegistry(t *testing.T) {
	names := Names()
	if len(names) != 6 || names[0] != "text" {
		t.Errorf("names %v", names)
	}
	f := parser.ParseString("/w/x.conf", "events {}\n", nil)
	d := &parser.Diagnostic{File: f, Path: f.Path, Range: parser.Range{Start: 0, End: 6}, Severity: parser.Warning, Code: "NL5999", Name: "x", Message: "m"}
	reg, err := analyzer.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			t.Errorf("%q registered twice", name)
		}
		fm, ok := New(name, Options{})
		if !ok {
			t.Fatalf("New(%q): no format", name)
		}
		var b bytes.Buffer
		if err := fm.Format(&b, &Lint{Findings: []*parser.Diagnostic{d}, Registry: reg, Dir: "/w"}); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v, %d bytes", name, err, b.Len())
		}
	}
	if _, ok := New("xml", Options{}); ok {
		t.Error("New(\"xml\") gave a format")
	}
}
