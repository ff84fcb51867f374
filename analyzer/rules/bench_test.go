package rules_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// BenchmarkLintL2c19900 is the whole lint of the seed benchmark's slowest
// layout with every rule on: parse, typed model, every rule. The budget is
// the parser's (30 ms) plus 50%.
func BenchmarkLintL2c19900(b *testing.B) {
	src := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900})
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
		c := &parser.Config{Main: f, Files: []*parser.File{f}}
		ds := lintFindings(c, rules.All(), analyzer.Options{})
		for _, d := range ds {
			if d.Severity == parser.Error {
				b.Fatalf("unexpected error: %v", d)
			}
		}
	}
}

// BenchmarkValueRules is the share of the value validators (listen,
// upstream server, *_pass, if, return, error_page, nesting, entries) in
// BenchmarkLintL2c19900: the same lint with only them, against a lint
// with only empty-upstream and invalid-arguments, which build the same
// shared model and index.
func BenchmarkValueRules(b *testing.B) {
	src := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900})
	for _, bc := range []struct {
		name  string
		rules []*analyzer.Rule
	}{
		{"baseline", []*analyzer.Rule{rules.EmptyUpstream, rules.InvalidArguments}},
		{"validators", []*analyzer.Rule{rules.EmptyUpstream, rules.InvalidArguments, rules.InvalidParameter, rules.InvalidURL, rules.InvalidCondition,
			rules.LocationNesting, rules.InvalidEntry, rules.InvalidStatus}},
	} {
		reg, err := analyzer.NewRegistry(bc.rules...)
		if err != nil {
			b.Fatal(err)
		}
		f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
		c := &parser.Config{Main: f, Files: []*parser.File{f}}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lintFindings(c, reg, analyzer.Options{})
			}
		})
	}
}
