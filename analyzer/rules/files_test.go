package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ruleless are the files of package rules that may hold no rule, each
// with the reason.
var ruleless = map[string]string{
	"all.go":          "the registry",
	"doc.go":          "the package's documentation and its go:generate line",
	"cost_helpers.go": "the cost rules' helpers: their option list, their report position, their examples' text",
}

// generated is the header Go's tools recognise in generated files.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// TestRulesFilesHoldRules keeps analyzer/rules a package of rules, one file
// each: every file that is neither a test nor generated declares a rule
// (a package-level &analyzer.Rule{...}), or is one of the few above, and
// none compiles a regex with Go's regexp rather than analyzer/regex.
// What several rules need to know about nginx belongs in the analyzer or a
// package named for what it reads (docs/architecture.md).
func TestRulesFilesHoldRules(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if generated.Match(src) {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		// nginx's regexes are read as PCRE in one place: a rule that
		// compiled one with Go's regexp would read it another way
		// (bytes above 0x7f, "$" before a final newline, \v, \1).
		for _, imp := range f.Imports {
			if imp.Path.Value == `"regexp"` {
				t.Errorf("%s imports regexp: read nginx's regexes with analyzer/regex (Compile, Regex.Match)", name)
			}
		}
		_, allowed := ruleless[name]
		switch has := declaresRule(f); {
		case !has && !allowed:
			t.Errorf("%s declares no rule: move what it holds next to the rules that use it, or to the analyzer or a package named for what it reads (docs/architecture.md)", name)
		case has && allowed:
			t.Errorf("%s declares a rule: take it off the list of files without one", name)
		}
	}
	for name := range ruleless {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("%s is on the list of files without a rule but is gone: %v", name, err)
		}
	}
}

// declaresRule reports whether f has a package-level variable whose value
// is &analyzer.Rule{...}.
func declaresRule(f *ast.File) bool {
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				u, ok := v.(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					continue
				}
				lit, ok := u.X.(*ast.CompositeLit)
				if !ok {
					continue
				}
				if sel, ok := lit.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Rule" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "analyzer" {
						return true
					}
				}
			}
		}
	}
	return false
}
