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
	access := newPerBlock(p, accessRulesOf)
	unix := newPerBlock(p, unixOnly)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if (!d.Is("stub_status") && !d.Is("api")) || (len(d.Args) == 1 && strings.EqualFold(d.Args[0].Value, "off")) {
			return
		}
		loc := innermost(stack, "location")
		if loc == nil {
			return
		}
		if srv := innermost(stack, "server"); srv != nil && unix.of(stack, srv) {
			return
		}
		if accessRestricted(access, stack) {
			return
		}
		diag := p.ReportDirective(d, "%q in location %q is open to every client", d.Name.Value, strings.Join(loc.ArgValues(), " "))
		diag.Detail = "add \"allow <monitoring address>; deny all;\" (or authentication) to the location"
	}, "stub_status", "api")
}

// unixOnly reports whether every listen of a server body is a unix
// socket.
func unixOnly(body []*parser.Directive) bool {
	n := 0
	for _, d := range body {
		if d.Is("listen") && len(d.Args) > 0 {
			if !strings.HasPrefix(d.Args[0].Value, "unix:") {
				return false
			}
			n++
		}
	}
	return n > 0
}

// accessRules is what one block says about who may come in: its
// allow/deny rules and its first auth directive.
type accessRules struct {
	allow, allowAll, deny, denyAll bool
	// auth is set when the block has an auth_basic, auth_request or
	// auth_jwt; authOn when the first of them is not "off".
	auth, authOn bool
}

func accessRulesOf(body []*parser.Directive) accessRules {
	var a accessRules
	for _, d := range body {
		switch {
		case d.Is("allow") && len(d.Args) == 1:
			if d.Args[0].Value == "all" {
				if !a.deny && !a.allow {
					a.allowAll = true // first rule lets everyone in
				}
			} else {
				a.allow = true
			}
		case d.Is("deny") && len(d.Args) == 1:
			a.deny = true
			a.denyAll = a.denyAll || d.Args[0].Value == "all"
		case !a.auth && (d.Is("auth_basic") || d.Is("auth_request") || d.Is("auth_jwt")) && len(d.Args) > 0:
			a.auth, a.authOn = true, !strings.EqualFold(d.Args[0].Value, "off")
		}
	}
	return a
}

// accessRestricted reports whether requests reaching the innermost block
// of stack are limited by address (an allow for some clients and a deny
// for the rest) or need authentication. Access rules and auth settings
// come from the nearest level that has any, as nginx inherits them.
func accessRestricted(blocks *perBlock[accessRules], stack []*parser.Directive) bool {
	rulesFound, authFound := false, false
	for i := len(stack) - 1; i >= 0; i-- {
		if !stack[i].Is("location") && !stack[i].Is("server") && !stack[i].Is("http") {
			continue
		}
		a := blocks.of(stack, stack[i])
		if !authFound && a.auth {
			authFound = true
			if a.authOn {
				return true
			}
		}
		if !rulesFound && (a.allow || a.allowAll || a.deny) {
			rulesFound = true
			if a.allow && a.denyAll && !a.allowAll {
				return true
			}
			if a.deny && !a.allow && !a.allowAll && a.denyAll {
				return true // closed to everyone: nothing is exposed
			}
		}
	}
	return false
}
