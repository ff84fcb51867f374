package lsp

import (
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/valuecheck"
	"github.com/nginx-lint/nginx-lint/parser"
)

// argValues returns what argument arg of dir, in ctx, may be (the core's
// valuecheck.Candidates).
func argValues(dir *parser.Directive, ctx directives.Context, arg int) []string {
	values, _ := valuecheck.Candidates(dir.Name().Value, ctx, arg)
	return values
}

// fixValues returns the values to offer in place of the bad argument w
// of dir (valuecheck.Replacements).
func fixValues(dir *parser.Directive, ctx directives.Context, arg int, w parser.Word) []string {
	return valuecheck.Replacements(dir.Name().Value, ctx, arg, w.Value)
}
