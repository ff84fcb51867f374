package rules

import (
	"slices"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/parser"
)

// runRules is what the tests of package rules read of a run: the
// parser's findings and the rules' as reported, with the run's shared
// results. They cannot call analyzer/lint.Run, the one public way to run
// rules, since analyzer/lint imports this package.
func runRules(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options) ([]*parser.Diagnostic, *analyzer.Results) {
	ds, rs := analyzer.RunRules(door.Key{}, c, reg, opts)
	return append(slices.Clone(c.AllDiagnostics()), ds...), rs
}

// findings is runRules without the results.
func findings(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options) []*parser.Diagnostic {
	ds, _ := runRules(c, reg, opts)
	return ds
}
