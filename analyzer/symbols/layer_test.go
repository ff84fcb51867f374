package symbols_test

import (
	gobuild "go/build"
	"strings"
	"testing"
)

// TestBelowTheRules: the symbol table and the readings of nginx's
// meaning it holds are below the rules and the language server, which
// both read them; importing either would put the layers upside down.
func TestBelowTheRules(t *testing.T) {
	pkg, err := gobuild.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Imports) == 0 {
		t.Fatal("no imports read")
	}
	for _, imp := range pkg.Imports {
		for _, above := range []string{"/analyzer/rules", "/analyzer/lint", "/lsp"} {
			if strings.HasSuffix(imp, above) || strings.Contains(imp, above+"/") {
				t.Errorf("analyzer/symbols imports %s", imp)
			}
		}
	}
}
