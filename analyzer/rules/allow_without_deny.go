package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
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
			"`deny all;` in the same block. Under `satisfy any` with an authentication in force " +
			"(`auth_basic` with its `auth_basic_user_file`, `auth_request`, `auth_jwt`, ...), an allow " +
			"list without deny means \"these addresses or a login\" (a client no rule matches still " +
			"gets 401) and is not reported.",
		Bad:  "location /admin/ {\n    allow 10.0.0.0/8;\n}\n",
		Good: "location /admin/ {\n    allow 10.0.0.0/8;\n    deny all;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_access_module.html",
	},
}

func runAllowWithoutDeny(p *analyzer.Pass) {
	blocks := analyzer.NewPerBlock(p, access.ReadLevel)
	check := func(dirs, stack []*parser.Directive) {
		var firstAllow *parser.Directive
		for _, d := range dirs {
			switch {
			case d.Is("deny"):
				return
			case d.Is("allow") && firstAllow == nil && !(len(d.Args()) == 1 && d.Args()[0].Value == "all"):
				// "allow all" alone says what it means.
				firstAllow = d
			}
		}
		if firstAllow == nil {
			return
		}
		// With "satisfy any" and an authentication in force that refuses
		// an anonymous client, the list means "these addresses, or a
		// login": a client no rule matches still has to log in.
		if a := access.At(blocks, stack); a.SatisfyAny && len(a.Guards) > 0 {
			return
		}
		diag := p.ReportDirective(firstAllow, "%q without %q in the same block lets every client in", "allow", "deny")
		diag.Detail = "requests no rule matches are allowed, and outer deny rules are not inherited by a block " +
			"with its own rules; add \"deny all;\" after the allow rules"
	}
	var visit func(dirs, stack []*parser.Directive)
	visit = func(dirs, stack []*parser.Directive) {
		check(dirs, stack)
		for _, d := range dirs {
			if d.Block != nil && !d.Is("map") && !d.Is("geo") && !d.Is("types") && !d.Is("upstream") {
				visit(p.Body(d), append(stack, d))
			}
		}
	}
	visit(analyzer.ExpandIncludes(p.Config, p.Config.Main.Directives), nil)
}
