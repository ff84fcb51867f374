package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
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
// which redirect-cycle and rewrite-loop share.
var serverLoops = &analyzer.Result[*parser.Directive, []routing.Loop]{
	Name: "rewrite loops",
	Compute: func(p *analyzer.Pass, server *parser.Directive) []routing.Loop {
		return routing.NewSets().Loops(ServerLocations.Get(p, server))
	},
}

func runRedirectCycle(p *analyzer.Pass) {
	for _, server := range serversWith(p, "rewrite") {
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
				diag.Related = append(diag.Related, parser.Related{File: st.Rewrite.File, Range: st.Rewrite.Name.Range,
					Message: fmt.Sprintf("sends it on to location %s", locationRef(next))})
			}
		}
	}
}
