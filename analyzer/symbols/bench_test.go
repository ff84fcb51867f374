package symbols_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// BenchmarkBuildL2c19900 is what the table costs a lint of
// BenchmarkLintL2c19900's configuration (the definitions, which the
// rules read), and with every use, which the editor asks for.
func BenchmarkBuildL2c19900(b *testing.B) {
	src := layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 19900})
	f := parser.ParseFile("/bench/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	ix := analyzer.NewIndex(&parser.Config{Main: f, Files: []*parser.File{f}})
	b.Run("definitions", func(b *testing.B) {
		for b.Loop() {
			symbols.Build(ix)
		}
	})
	b.Run("uses", func(b *testing.B) {
		for b.Loop() {
			symbols.Build(ix).At(f.Path, 0)
		}
	})
}
