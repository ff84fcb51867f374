package analyzer_test

import (
	"sync/atomic"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestResultOfFinishedRun: a value the rules computed is handed to the
// front end without a second computation; one no rule asked for is
// computed once, on demand.
func TestResultOfFinishedRun(t *testing.T) {
	var computed atomic.Int64
	count := &analyzer.Result[string, *int]{
		Name: "directives",
		Compute: func(p *analyzer.Pass, key string) *int {
			computed.Add(1)
			n := len(p.Index().Entries)
			return &n
		},
	}
	var seen *int
	rule := func(code, name string, get bool) *analyzer.Rule {
		return &analyzer.Rule{Code: code, Name: name, Title: "reads the count",
			Doc: analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"},
			Run: func(p *analyzer.Pass) {
				if get {
					seen = count.Get(p, "a")
				}
			}}
	}
	reg, err := analyzer.NewRegistry(rule("NL5901", "reads-a", true), rule("NL5902", "reads-a-too", true))
	if err != nil {
		t.Fatal(err)
	}
	f := parser.ParseString("/x/nginx.conf", "events {}\nhttp { server { listen 80; } }\n", nil)
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	_, rs := analyzer.RunRules(door.Key{}, c, reg, analyzer.Options{})
	got := count.Of(rs, "a")
	if got != seen || computed.Load() != 1 {
		t.Errorf("after the run: %p (rules saw %p), %d computations, want the rules' value and 1", got, seen, computed.Load())
	}
	if *got != 4 {
		t.Errorf("count %d, want 4 directives", *got)
	}
	// Another key no rule asked for: computed now, then remembered.
	b := count.Of(rs, "b")
	if b == got || count.Of(rs, "b") != b || computed.Load() != 2 {
		t.Errorf("key b: %p %p, %d computations, want a new value computed once", b, got, computed.Load())
	}
	// Every rule disabled: the run has no rule, Of still answers.
	_, rs = analyzer.RunRules(door.Key{}, c, reg, analyzer.Options{Disabled: map[string]bool{"reads-a": true, "reads-a-too": true}})
	if v := count.Of(rs, "a"); v == nil || *v != 4 || computed.Load() != 3 {
		t.Errorf("no rule ran: %v, %d computations", v, computed.Load())
	}
}
