package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// FuzzLint runs every rule (and the suppression pass) on arbitrary input,
// in the inferred context: no rule may crash (a crash is reported as
// NL1000 internal-error) or hang. Seeds are the corpus configs and the
// rules' own examples.
func FuzzLint(f *testing.F) {
	for _, r := range rules.All().Rules() {
		f.Add([]byte(r.Doc.Bad))
		f.Add([]byte(r.Doc.Good))
	}
	if root, ok := corpustest.Find(); ok {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".conf") {
				if b, err := os.ReadFile(p); err == nil && len(b) < 16<<10 {
					f.Add(b)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		over := &parser.Overlay{Files: map[string][]byte{"/fuzz/nginx.conf": src}}
		c := analyzer.LoadInferred(&parser.Loader{FS: over, Kinds: analyzer.Kinds}, "/fuzz/nginx.conf", src)
		for _, d := range lintFindings(c, rules.All(), analyzer.Options{}) {
			if d.Name == "internal-error" {
				t.Fatalf("%s\ninput:\n%s", d.Message, src)
			}
			if d.File != nil && (d.Range.Start < 0 || int(d.Range.End) > len(d.File.Src) || d.Range.Start > d.Range.End) {
				t.Fatalf("%s: range %v outside the file", d.Name, d.Range)
			}
		}
	})
}
