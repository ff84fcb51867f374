package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
)

// symbolTable returns the run's symbol table: what the configuration
// defines (upstreams, variables, log formats, zones...), built once and
// shared with the other rules (and read as the language server reads
// it), so that a rule and the editor agree on what a name means.
func symbolTable(p *analyzer.Pass) *symbols.Table { return symbols.Result.Get(p, struct{}{}) }

// isUpstream reports whether the configuration has an upstream block
// named host (compared as nginx compares, without case), in stream {}
// when stream is set.
func isUpstream(p *analyzer.Pass, host string, stream bool) bool {
	return symbolTable(p).Defined(symbols.UpstreamSymbol(host, stream))
}
