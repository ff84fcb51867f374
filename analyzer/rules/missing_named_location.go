package rules

import (
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/parser"
)

// MissingNamedLocation reports try_files and error_page naming a named
// location that the server does not have.
var MissingNamedLocation = &analyzer.Rule{
	Code: "NL2059", Name: "missing-named-location", Title: "try_files or error_page to a named location the server does not have", Severity: parser.Warning,
	Run: runMissingNamedLocation,
	Doc: analyzer.Doc{
		Text: "`try_files ... @name` and `error_page ... @name` send the request to the named location " +
			"`location @name` of the same server. nginx looks it up only when a request gets there " +
			"(`ngx_http_named_location`): nginx -t accepts a name no location has, and at run time " +
			"the request ends in a 500 with `could not find named location \"@name\"` in the error " +
			"log. Named locations belong to one server and must be on its level; a typo, or a named " +
			"location of another server, is the usual cause. Names are compared as nginx does, with " +
			"case. A server with an include that did not resolve is not checked.",
		Bad: "server {\n    listen 80;\n    location / {\n        try_files $uri $uri/ @app;\n    }\n" +
			"    location @backend {\n        proxy_pass http://127.0.0.1:8080;\n    }\n}\n",
		Good: "server {\n    listen 80;\n    location / {\n        try_files $uri $uri/ @backend;\n    }\n" +
			"    location @backend {\n        proxy_pass http://127.0.0.1:8080;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_core_module.html#try_files",
	},
}

func runMissingNamedLocation(p *analyzer.Pass) {
	type use struct {
		d      *parser.Directive
		server *parser.Directive
	}
	var uses []use
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) < 2 {
			return
		}
		last := d.Args()[len(d.Args())-1].Value
		if !strings.HasPrefix(last, "@") || strings.Contains(last, "$") {
			return
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].Name().Value == "server" {
				uses = append(uses, use{d, stack[i]})
				return
			}
		}
	}, "try_files", "error_page")
	// Per server: whether every include resolved, and its named
	// locations.
	type facts struct {
		whole bool
		named []string
	}
	servers := map[*parser.Directive]*facts{}
	for _, u := range uses {
		f := servers[u.server]
		if f == nil {
			f = &facts{whole: wholeServer(p.Config, u.server), named: namedLocations(p.Config, u.server)}
			servers[u.server] = f
		}
		// A named location anywhere in the server counts: one below the
		// server level is nginx's error, location-nesting's finding.
		a := u.d.Args()[len(u.d.Args())-1]
		if !f.whole || slices.Contains(f.named, a.Value) {
			continue
		}
		diag := p.Reportf(u.d.File, a.Range, "%s falls back to the named location %q, which this server does not have", u.d.Name().Value, a.Value)
		diag.Detail = "nginx looks the name up when a request gets there and answers 500 (\"could not find named location\"); add \"location " + a.Value + "\" to this server or correct the name"
		if near := didyoumean.Closest(a.Value, f.named); len(near) > 0 {
			diag.Message += didyoumean.Suffix(near)
		}
	}
}

// wholeServer says every include of the server resolved, so that its
// named locations are all known.
func wholeServer(c *parser.Config, server *parser.Directive) bool {
	ok := true
	eachIn(c, server, func(d *parser.Directive) {
		if d.Name().Value == "include" && len(c.Included(d)) == 0 && !strings.ContainsAny(argOf(d), "*?[") {
			ok = false
		}
	})
	return ok && len(c.Elsewhere) == 0
}

func argOf(d *parser.Directive) string {
	if len(d.Args()) == 0 {
		return ""
	}
	return d.Args()[0].Value
}

// eachIn calls fn for every directive inside a block, includes
// followed.
func eachIn(c *parser.Config, b *parser.Directive, fn func(*parser.Directive)) {
	if b.Block == nil {
		return
	}
	var walk func(ds []*parser.Directive)
	walk = func(ds []*parser.Directive) {
		for _, d := range ds {
			fn(d)
			if d.Name().Value == "include" {
				for _, f := range c.Included(d) {
					walk(f.Directives)
				}
			}
			if d.Block != nil {
				walk(d.Block.Directives)
			}
		}
	}
	walk(b.Block.Directives)
}

// namedLocations are the names of the named locations anywhere in the
// server (nginx refuses those not on its level, which location-nesting
// reports).
func namedLocations(c *parser.Config, server *parser.Directive) []string {
	var out []string
	eachIn(c, server, func(d *parser.Directive) {
		if d.Name().Value == "location" && len(d.Args()) == 1 && strings.HasPrefix(d.Args()[0].Value, "@") {
			out = append(out, d.Args()[0].Value)
		}
	})
	return out
}
