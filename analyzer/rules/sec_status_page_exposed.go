package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// StatusPageExposed reports stub_status (and the API module) reachable
// without an address restriction.
var StatusPageExposed = &analyzer.Rule{
	Code: "NL3012", Name: "status-page-exposed", Title: "status page not restricted to trusted clients", Severity: parser.Warning,
	Run: runStatusPageExposed,
	Doc: analyzer.Doc{
		Text: "`stub_status` (and the `api` of NGINX Plus) show connection counts and request rates " +
			"(and, for the API, upstream addresses and can even change the configuration). Limit the " +
			"location to the monitoring hosts with `allow ADDRESS; deny all;`, put it behind " +
			"authentication, or serve it only on a unix socket. Access rules of the enclosing server " +
			"count when the location has none of its own.",
		Bad:  "location /nginx_status {\n    stub_status;\n}\n",
		Good: "location = /nginx_status {\n    stub_status;\n    allow 127.0.0.1;\n    deny all;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_stub_status_module.html",
	},
}

func runStatusPageExposed(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if (!d.Is("stub_status") && !d.Is("api")) || (len(d.Args) == 1 && strings.EqualFold(d.Args[0].Value, "off")) {
			return
		}
		loc := innermost(stack, "location")
		if loc == nil {
			return
		}
		if srv := innermost(stack, "server"); srv != nil && unixOnly(p.Config, srv) {
			return
		}
		if accessRestricted(p.Config, stack) {
			return
		}
		diag := p.ReportDirective(d, "%q in location %q is open to every client", d.Name.Value, strings.Join(loc.ArgValues(), " "))
		diag.Detail = "add \"allow <monitoring address>; deny all;\" (or authentication) to the location"
	}, "stub_status", "api")
}

// unixOnly reports whether every listen of a server is a unix socket.
func unixOnly(c *parser.Config, srv *parser.Directive) bool {
	n := 0
	for _, d := range body(c, srv) {
		if d.Is("listen") && len(d.Args) > 0 {
			if !strings.HasPrefix(d.Args[0].Value, "unix:") {
				return false
			}
			n++
		}
	}
	return n > 0
}

// accessRestricted reports whether requests reaching the innermost block
// of stack are limited by address (an allow for some clients and a deny
// for the rest) or need authentication. Access rules and auth settings
// come from the nearest level that has any, as nginx inherits them.
func accessRestricted(c *parser.Config, stack []*parser.Directive) bool {
	rulesFound, authFound := false, false
	for i := len(stack) - 1; i >= 0; i-- {
		if !stack[i].Is("location") && !stack[i].Is("server") && !stack[i].Is("http") {
			continue
		}
		var allow, allowAll, deny, denyAll bool
		for _, d := range body(c, stack[i]) {
			switch {
			case d.Is("allow") && len(d.Args) == 1:
				if d.Args[0].Value == "all" {
					if !deny && !allow {
						allowAll = true // first rule lets everyone in
					}
				} else {
					allow = true
				}
			case d.Is("deny") && len(d.Args) == 1:
				deny = true
				denyAll = denyAll || d.Args[0].Value == "all"
			case !authFound && (d.Is("auth_basic") || d.Is("auth_request") || d.Is("auth_jwt")) && len(d.Args) > 0:
				authFound = true
				if !strings.EqualFold(d.Args[0].Value, "off") {
					return true
				}
			}
		}
		if !rulesFound && (allow || allowAll || deny) {
			rulesFound = true
			if allow && denyAll && !allowAll {
				return true
			}
			if deny && !allow && !allowAll && denyAll {
				return true // closed to everyone: nothing is exposed
			}
		}
	}
	return false
}
