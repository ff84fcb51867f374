package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
)

// TestOptionsOnlyGenerated: the rule options and their defaults are
// tabled in one place, rules/options.md, generated from the rules'
// declarations (and kept fresh by the rules package's
// TestReferenceUpToDate). A table row elsewhere (README.md, another
// page) naming a rule and one of its options with a value in
// parentheses, "`max-sockets` (1000)", is a hand-written copy of a
// default, which drifts.
func TestOptionsOnlyGenerated(t *testing.T) {
	pages := []string{filepath.Join("..", "README.md")}
	mds, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, mds...)
	opts := 0
	for _, r := range rules.All().Rules() {
		opts += len(r.Options)
	}
	if opts < 10 {
		t.Fatalf("only %d rule options: the registry was not read", opts)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "|") {
				continue
			}
			for _, r := range rules.All().Rules() {
				for _, o := range r.Options {
					if strings.Contains(line, r.Name) && strings.Contains(line, "`"+o.Name+"` (") {
						t.Errorf("%s:%d gives option %s of %s a value by hand; link rules/options.md instead", p, n+1, o.Name, r.Name)
					}
				}
			}
		}
	}
}

// TestSettingsExample: the settings file configuration.md shows is one
// nginx-lint reads, and its host: section names every host fact
// (analyzer.HostFacts), with the values it reads them as.
func TestSettingsExample(t *testing.T) {
	b, err := os.ReadFile("configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("configuration.md has no yaml example")
	}
	f, err := config.Parse("/repo/.nginx-lint.yaml", []byte(example))
	if err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	for _, fact := range analyzer.HostFacts {
		if _, ok := f.Host[fact.Name]; !ok {
			t.Errorf("the example's host: section does not show %s", fact.Name)
		}
	}
	var opts analyzer.Options
	if err := f.Apply(&opts, rules.All().Lookup); err != nil {
		t.Fatal(err)
	}
	if want := (analyzer.Host{NoFile: 65536, CPUs: 8, Kernel: "5.15"}); opts.Host != want {
		t.Errorf("host %+v, want %+v", opts.Host, want)
	}
}
