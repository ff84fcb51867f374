package rules

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestOpenFilesLimitSeverity: over an assumed limit the finding is a
// warning; over a limit the user gave, nginx certainly cannot start, so
// it is an error.
func TestOpenFilesLimitSeverity(t *testing.T) {
	src := OpenFilesLimit.Doc.Bad
	sev := func(host analyzer.Host) []parser.Severity {
		f := parser.ParseString("/x/nginx.conf", src, nil)
		reg, err := analyzer.NewRegistry(OpenFilesLimit)
		if err != nil {
			t.Fatal(err)
		}
		var out []parser.Severity
		for _, d := range findings(&parser.Config{Main: f, Files: []*parser.File{f}}, reg,
			analyzer.Options{Host: host}) {
			if d.Code == OpenFilesLimit.Code {
				out = append(out, d.Severity)
			}
		}
		return out
	}
	if got := sev(analyzer.Host{}); len(got) != 1 || got[0] != parser.Warning {
		t.Errorf("assumed limit: %v", got)
	}
	if got := sev(analyzer.Host{NoFile: 1024}); len(got) != 1 || got[0] != parser.Error {
		t.Errorf("given limit: %v", got)
	}
	if got := sev(analyzer.Host{NoFile: 1 << 20}); len(got) != 0 {
		t.Errorf("a high limit: %v", got)
	}
}
