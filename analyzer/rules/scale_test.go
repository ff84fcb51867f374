package rules_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// richConfig parses layout.Rich with n servers: every construct the
// rules look at, in every server.
func richConfig(n int) *parser.Config {
	src := layout.Generate(layout.Rich(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: n}))
	f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	return &parser.Config{Main: f, Files: []*parser.File{f}}
}

// BenchmarkRules times each rule alone on 20,000 rich servers, with the
// index and typed model built beforehand (BenchmarkRules/index and
// /model time those).
func BenchmarkRules(b *testing.B) {
	src := layout.Generate(layout.Rich(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 20000}))
	var c *parser.Config
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
			c = &parser.Config{Main: f, Files: []*parser.File{f}}
		}
	})
	if c == nil { // -bench selected no parse run
		f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
		c = &parser.Config{Main: f, Files: []*parser.File{f}}
	}
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			analyzer.NewIndex(c)
		}
	})
	b.Run("model", func(b *testing.B) {
		for b.Loop() {
			parser.BuildModel(c)
		}
	})
	s := analyzer.NewSession(door.Key{}, c)
	for _, r := range rules.All().Rules() {
		b.Run(r.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.RunRule(r, analyzer.Options{})
			}
		})
	}
}
