package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AllowWithoutDeny reports access lists with allow but no deny.
var AllowWithoutDeny = &analyzer.Rule{
	Code: "NL3011", Name: "allow-without-deny", Title: "allow without deny restricts nothing", Severity: parser.Warning,
	Run: runAllowWithoutDeny,
	Doc: analyzer.Doc{
		Text: "The access module lets a request through when no rule matches, so `allow 10.0.0.0/8;` " +
			"on its own allows everyone. Its rules are not merged with an outer level either: a " +
			"location with its own `allow` drops the server's `deny all`. End the list with " +
			"`deny all;` in the same block. Under `satisfy any` with `auth_basic`, `auth_request` or " +
			"`auth_jwt` in force, an allow list without deny means \"these addresses or a login\" " +
			"and is not reported.",
		Bad:  "location /admin/ {\n    allow 10.0.0.0/8;\n}\n",
		Good: "location /admin/ {\n    allow 10.0.0.0/8;\n    deny all;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_access_module.html",
	},
}

func runAllowWithoutDeny(p *analyzer.Pass) {
	check := func(dirs []*parser.Directive) {
		var firstAllow *parser.Directive
		for _, d := range dirs {
			switch {
			case d.Is("deny"):
				return
			case d.Is("allow") && firstAllow == nil && !(len(d.Args) == 1 && d.Args[0].Value == "all"):
				// "allow all" alone says what it means.
				firstAllow = d
			}
		}
		if firstAllow != nil {
			diag := p.ReportDirective(firstAllow, "%q without %q in the same block lets every client in", "allow", "deny")
			diag.Detail = "requests no rule matches are allowed, and outer deny rules are not inherited by a block " +
				"with its own rules; add \"deny all;\" after the allow rules"
		}
	}
	var visit func(dirs []*parser.Directive, access accessSettings)
	visit = func(dirs []*parser.Directive, access accessSettings) {
		access = access.in(dirs)
		// With "satisfy any" and authentication in force, an allow list
		// without deny means "these addresses, or a login": meant.
		if !(access.satisfyAny && access.auth) {
			check(dirs)
		}
		for _, d := range dirs {
			if d.Block != nil && !d.Is("map") && !d.Is("geo") && !d.Is("types") && !d.Is("upstream") {
				visit(p.Body(d), access)
			}
		}
	}
	visit(analyzer.ExpandIncludes(p.Config, p.Config.Main.Directives), accessSettings{})
}

// accessSettings are the inherited settings that decide what an access
// list means: "satisfy any", and whether a module asks for credentials.
type accessSettings struct {
	satisfyAny, auth bool
}

// in returns the settings in force in a block with directives dirs.
func (a accessSettings) in(dirs []*parser.Directive) accessSettings {
	for _, d := range dirs {
		if len(d.Args) == 0 {
			continue
		}
		switch d.Name.Value {
		case "satisfy":
			a.satisfyAny = strings.EqualFold(d.Args[0].Value, "any")
		case "auth_basic", "auth_request", "auth_jwt", "auth_oidc":
			a.auth = !strings.EqualFold(d.Args[0].Value, "off")
		}
	}
	return a
}
