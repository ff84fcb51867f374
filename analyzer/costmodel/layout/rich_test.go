package layout_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestRich: the rich configuration parses cleanly and carries, in every
// stretch of servers, each construct the rules look at.
func TestRich(t *testing.T) {
	const n = 40
	src := layout.Generate(layout.Rich(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: n}))
	f := parser.ParseFile("/rich/nginx.conf", src, nil)
	for _, d := range f.Diagnostics {
		t.Errorf("%v", d)
	}
	count := map[string]int{}
	var walk func(ds []*parser.Directive)
	walk = func(ds []*parser.Directive) {
		for _, d := range ds {
			count[d.Name().Value]++
			walk(d.Children())
		}
	}
	walk(f.Directives)
	if count["server"] != n+3 { // two upstreams hold three "server"s
		t.Errorf("%d server directives, want %d", count["server"], n+3)
	}
	for _, name := range []string{"return", "allow", "deny", "if", "location", "add_header", "map", "geo", "proxy_pass",
		"proxy_set_header", "alias", "rewrite", "set", "ssl_protocols", "ssl_ciphers", "stub_status", "valid_referers", "resolver", "error_page"} {
		if count[name] == 0 {
			t.Errorf("no %q", name)
		}
	}
	if count["return"] < 2*n {
		t.Errorf("%d returns, want at least two per server", count["return"])
	}
}
