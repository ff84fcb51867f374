package rules_test

import (
	"path/filepath"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/analysistest"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
)

// TestTxtar runs the txtar cases under testdata/<rule-name>/ for each rule
// that has them.
func TestTxtar(t *testing.T) {
	analysistest.Registry = rules.All()
	for _, r := range rules.All().Rules() {
		dir := filepath.Join("testdata", r.Name)
		if m, _ := filepath.Glob(filepath.Join(dir, "*.txtar")); len(m) == 0 {
			continue
		}
		t.Run(r.Name, func(t *testing.T) { analysistest.Run(t, dir, r) })
	}
}
