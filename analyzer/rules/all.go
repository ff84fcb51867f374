package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
)

// list is every rule, in no particular order; the registry sorts by code.
var list = []*analyzer.Rule{
	InternalError,
	SyntaxError,
	MissingSemicolon,
	IncludeNotFound,
	IncludeCycle,
	UnreadableFile,
	UnknownDirective,
	DirectiveNotAllowed,
	InvalidArguments,
}

var all = mustRegistry()

func mustRegistry() *analyzer.Registry {
	reg, err := analyzer.NewRegistry(list...)
	if err != nil {
		panic(err)
	}
	return reg
}

// All returns the registry of every rule.
func All() *analyzer.Registry { return all }
