package baseline_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	nglint "github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

func lint(path, src string) []*parser.Diagnostic {
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(path, []byte(src), nil)
	ds, _ := nglint.Run(c, testRules, analyzer.Options{})
	return ds
}

// testRules are the rules the cases are written against, so that rules
// added later do not change what they find.
var testRules, _ = analyzer.NewRegistry(rules.UnknownDirective, rules.InvalidArguments)

func messages(ds []*parser.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.FilePath()+": "+d.Message)
	}
	return out
}

func TestFingerprintsSurviveEdits(t *testing.T) {
	before := "events {}\nhttp {\n    gzipp on;\n    gzipp on;\n}\n"
	old := lint("/repo/conf/nginx.conf", before)
	if len(old) != 2 {
		t.Fatalf("setup: %d findings", len(old))
	}
	var buf bytes.Buffer
	if err := baseline.New("/repo", old).Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"file": "conf/nginx.conf"`) {
		t.Errorf("path not relative to the baseline:\n%s", buf.String())
	}
	// The baseline moved with the repository to another directory.
	b, err := baseline.Read(&buf, "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		new       int
	}{
		{"unchanged", before, 0},
		{"lines inserted above, reindented", "# new header\n\nevents {}\nhttp {\n  server_tokens off;\n\tgzipp   on;\n        gzipp on;\n}\n", 0},
		{"third identical finding is new", "events {}\nhttp {\n    gzipp on;\n    gzipp on;\n    gzipp on;\n}\n", 1},
		{"changed text is new", "events {}\nhttp {\n    gzipp on;\n    gzipp off;\n}\n", 1},
		{"fixed", "events {}\nhttp {\n}\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := b.Filter(lint("/elsewhere/conf/nginx.conf", tt.src))
			if len(got) != tt.new {
				t.Errorf("%d new findings, want %d: %q", len(got), tt.new, messages(got))
			}
		})
	}
	// Another file with the same text is not covered.
	if got := b.Filter(lint("/elsewhere/conf/other.conf", before)); len(got) != 2 {
		t.Errorf("other file: %d new, want 2", len(got))
	}
}

func TestReadRejects(t *testing.T) {
	for _, src := range []string{"", "[]", `{"version": 99, "findings": []}`} {
		if _, err := baseline.Read(strings.NewReader(src), "/"); err == nil {
			t.Errorf("accepted %q", src)
		}
	}
}
