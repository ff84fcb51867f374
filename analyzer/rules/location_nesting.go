package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// LocationNesting reports locations nested where nginx refuses them.
var LocationNesting = &analyzer.Rule{
	Code: "NL2018", Name: "location-nesting", Title: "location nested where nginx refuses it", Severity: parser.Error,
	Refuses: true,
	Run:     runLocationNesting,
	Doc: analyzer.Doc{
		Text: "A location inside another location must be reachable from it, and nginx checks that " +
			"when it reads the configuration:\n\n" +
			"- a nested prefix or exact location must start with the enclosing location's text " +
			"(`location \"/bar\" is outside location \"/foo\"`). When the enclosing location is a " +
			"regex, its pattern text counts as the prefix, so a prefix location can hardly ever be " +
			"nested in a regex location; nest a regex location instead;\n" +
			"- nothing can be nested in an exact (`=`) or a named (`@`) location;\n" +
			"- a named location can only be at the server level " +
			"(`named location \"@x\" can be on the server level only`).\n\n" +
			"Locations are often split over included files, where the nesting is easy to miss: the " +
			"finding names the enclosing location.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        location /api/ {\n            location /static/ {\n            }\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        location /api/ {\n            location /api/static/ {\n            }\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runLocationNesting(p *analyzer.Pass) {
	var visit func(parent *parser.Location, locs []parser.Location)
	visit = func(parent *parser.Location, locs []parser.Location) {
		for i := range locs {
			l := &locs[i]
			if parent != nil && parent.Err() == nil && l.Err() == nil {
				checkNested(p, parent, l)
			}
			visit(l, l.Locations())
		}
	}
	for _, s := range p.Model().Servers {
		visit(nil, s.Locations())
	}
}

// checkNested follows the nested-location checks of
// ngx_http_core_location, in nginx's order.
func checkNested(p *analyzer.Pass, parent, l *parser.Location) {
	d := l.Directive
	at := d.Name().Range
	if len(d.Args()) > 0 {
		at = d.Args()[len(d.Args())-1].Range
	}
	spec, pspec := l.Spec(), parent.Spec()
	name, pname := spec.Path, pspec.Path
	related := []parser.Related{{File: parent.Directive.File, Range: parent.Directive.Name().Range, Message: "the enclosing location"}}
	var diag *parser.Diagnostic
	switch {
	case pspec.Modifier == grammar.ModExact:
		diag = p.Reportf(d.File, at, "location \"%s\" cannot be inside the exact location \"%s\"", name, pname)
		diag.Detail = "an exact location matches one URI and cannot hold other locations; move this one out"
	case pspec.Named:
		diag = p.Reportf(d.File, at, "location \"%s\" cannot be inside the named location \"%s\"", name, pname)
		diag.Detail = "a named location cannot hold other locations; move this one to the server"
	case spec.Named:
		diag = p.Reportf(d.File, at, "named location \"%s\" can be on the server level only", name)
		diag.Detail = "move it out of location \"" + pname + "\" into the server block"
	case !spec.IsRegex && !strings.HasPrefix(name, pname):
		diag = p.Reportf(d.File, at, "location \"%s\" is outside location \"%s\"", name, pname)
		diag.Detail = "a location nested in \"" + pname + "\" must start with \"" + pname + "\""
		if pspec.IsRegex {
			diag.Detail = "nginx compares a nested prefix location with the text of the enclosing regex \"" +
				pname + "\"; nest a regex location instead, or move this one to the server"
		}
	}
	if diag != nil {
		diag.Related = related
	}
}
