package report_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

const regenerate = "run `go generate ./analyzer/rules` to regenerate the reference pages"

// TestReferenceUpToDate fails when a page under docs/rules differs from
// what the rule definitions render, when a rule has no page, or when a
// page belongs to no rule.
func TestReferenceUpToDate(t *testing.T) {
	want := report.ReferencePages(rules.All().Rules())
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		got, err := os.ReadFile(filepath.Join("..", "..", report.ReferenceDir, n))
		switch {
		case os.IsNotExist(err):
			t.Errorf("%s is missing; %s", n, regenerate)
		case err != nil:
			t.Fatal(err)
		case string(got) != want[n]:
			t.Errorf("%s is stale; %s", n, regenerate)
		}
	}
	pages, err := filepath.Glob(filepath.Join("..", "..", report.ReferenceDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if _, ok := want[filepath.Base(p)]; !ok {
			t.Errorf("%s belongs to no rule; %s", p, regenerate)
		}
	}
}

// TestMarkdownLayout pins the page layout that explain prints.
func TestMarkdownLayout(t *testing.T) {
	got := report.RuleMarkdown(rules.DuplicateDirective)
	want := "# NL2007 duplicate-directive\n\ndirective given twice in one block (correctness, error by default)\n\n" +
		rules.DuplicateDirective.Doc.Text + "\n\n## Bad\n\n```nginx\n" + rules.DuplicateDirective.Doc.Bad +
		"```\n\n## Good\n\n```nginx\n" + rules.DuplicateDirective.Doc.Good + "```\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
