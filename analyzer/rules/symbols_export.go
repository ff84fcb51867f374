package rules

import "github.com/nginx-lint/nginx-lint/analyzer"

// DefinedVariables returns the variables the configuration indexed by ix
// defines, as the unknown-variable rule reads them: lower-cased names,
// [0] for http {} and [1] for stream {}. The symbol table's tests compare
// its definitions with it.
func DefinedVariables(ix *analyzer.Index) [2]map[string]bool {
	return collectVariables(ix, &builtinVars{}).defined
}
