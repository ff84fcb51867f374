package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/routing/routepass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RedirectCycle reports rewrites that send every request they take from
// location to location and back, until nginx gives up with a 500.
var RedirectCycle = &analyzer.Rule{
	Code: "NL2057", Name: "redirect-cycle", Title: "rewrites that send requests around a cycle of locations", Severity: parser.Warning,
	Run: runRedirectCycle,
	Doc: analyzer.Doc{
		Text: "A `rewrite ... last` (or a `rewrite` without a flag at the end of a location's " +
			"rewrites) changes the URI and searches the locations again. When the first location's " +
			"rewrite sends every request to a URI that another location takes, and that location's " +
			"rewrite sends it back, the request goes around until nginx stops after ten URI changes: " +
			"the client gets a 500 and the error log says `rewrite or internal redirection cycle " +
			"while processing \"/a\"`. nginx -t accepts the configuration.\n\n" +
			"nginx-lint follows the rewrites that run on every request of their location (the first " +
			"of its rewrite directives other than `set`, not inside an `if`) to constant URIs, each " +
			"taken by the location search as nginx does, and reports the cycle once, at the rewrite " +
			"of its first location. Break the cycle, or use `break` where the request should stay. " +
			"A location that rewrites back to itself is rewrite-loop's.",
		Bad: "server {\n    listen 80;\n    location /old {\n        rewrite ^ /new last;\n    }\n" +
			"    location /new {\n        rewrite ^ /old last;\n    }\n}\n",
		Good: "server {\n    listen 80;\n    location /old {\n        rewrite ^ /new last;\n    }\n" +
			"    location /new {\n        return 200 \"new\\n\";\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#rewrite",
	},
}

// serverLoops are the rewrite loops of a server (routing.Sets.Loops),
// which redirect-cycle and rewrite-loop share. Only a server with a
// location whose rewrite phase starts with an internal rewrite can have
// one: the others are not read.
var serverLoops = &analyzer.Result[*parser.Directive, []routing.Loop]{
	Name: "rewrite loops",
	Compute: func(p *analyzer.Pass, server *parser.Directive) []routing.Loop {
		if !mayLoop(p.Config, server) {
			return nil
		}
		return routing.NewSets().Loops(routepass.ReadServer(p, server))
	},
}

// mayLoop says some location of the server starts its rewrite phase
// (set aside) with a rewrite that searches the locations again: "last"
// or no flag, to a URI.
func mayLoop(c *parser.Config, server *parser.Directive) bool {
	found := false
	var first func(dirs []*parser.Directive) *parser.Directive
	first = func(dirs []*parser.Directive) *parser.Directive {
		for _, d := range dirs {
			switch d.Name().Value {
			case "include":
				if f := firstIn(c, d, first); f != nil {
					return f
				}
			case "rewrite", "return", "if", "break":
				return d
			}
		}
		return nil
	}
	var walk func(dirs []*parser.Directive)
	walk = func(dirs []*parser.Directive) {
		for _, d := range dirs {
			if found {
				return
			}
			switch {
			case d.Name().Value == "include":
				for _, f := range c.Included(d) {
					walk(f.Directives)
				}
			case d.Name().Value == "location" && d.Block != nil:
				if r := first(d.Block.Directives); r != nil && r.Name().Value == "rewrite" && internalRewrite(r) {
					found = true
					return
				}
				walk(d.Block.Directives)
			}
		}
	}
	if server == nil {
		walk(c.Main.Directives)
	} else if server.Block != nil {
		walk(server.Block.Directives)
	}
	return found
}

// firstIn is first over the files an include reads.
func firstIn(c *parser.Config, inc *parser.Directive, first func([]*parser.Directive) *parser.Directive) *parser.Directive {
	for _, f := range c.Included(inc) {
		if d := first(f.Directives); d != nil {
			return d
		}
	}
	return nil
}

// internalRewrite says a rewrite changes the URI and searches the
// locations again: "last" or no flag, and not a redirect.
func internalRewrite(d *parser.Directive) bool {
	if len(d.Args()) < 2 || len(d.Args()) > 3 {
		return false
	}
	if len(d.Args()) == 3 && d.Args()[2].Value != "last" {
		return false
	}
	r := d.Args()[1].Value
	return !strings.HasPrefix(r, "http://") && !strings.HasPrefix(r, "https://") && !strings.HasPrefix(r, "$scheme")
}

func runRedirectCycle(p *analyzer.Pass) {
	for _, server := range routepass.ServersWith(p, "rewrite") {
		for _, lp := range serverLoops.Get(p, server) {
			if len(lp.Steps) < 2 {
				continue
			}
			first := lp.Steps[0]
			var way []string
			for _, st := range lp.Steps[1:] {
				way = append(way, fmt.Sprintf("%q in location %s", lp.Steps[len(way)].URI, locationRef(st.Location)))
			}
			way = append(way, fmt.Sprintf("%q back in location %s", lp.Steps[len(lp.Steps)-1].URI, locationRef(first.Location)))
			diag := p.ReportDirective(first.Rewrite, "%q sends requests around a cycle that never ends: %s",
				"rewrite", strings.Join(way, ", then "))
			diag.Detail = "each request that reaches this rewrite goes from location to location until nginx stops after 10 URI changes and answers 500 (\"rewrite or internal redirection cycle\"); break the cycle, or use \"break\" where the request should stay"
			for i, st := range lp.Steps[1:] {
				next := lp.Steps[(i+2)%len(lp.Steps)].Location
				diag.Related = append(diag.Related, parser.Related{File: st.Rewrite.File, Range: st.Rewrite.Name().Range,
					Message: fmt.Sprintf("sends it on to location %s", locationRef(next))})
			}
		}
	}
}
