package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
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
			"authentication, or serve it only on a unix socket. nginx-lint runs the access phase " +
			"as nginx does: the enclosing server's allow/deny count only when the location has " +
			"none of its own; with `satisfy any`, an address no rule matches still needs the " +
			"login (the access module declines, `auth_basic` answers 401), and only the addresses " +
			"an allow rule lets in skip it; `auth_basic` without `auth_basic_user_file` protects " +
			"nothing.",
		Bad:  "location /nginx_status {\n    stub_status;\n}\n",
		Good: "location = /nginx_status {\n    stub_status;\n    allow 127.0.0.1;\n    deny all;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_stub_status_module.html",
	},
}

func runStatusPageExposed(p *analyzer.Pass) {
	blocks := analyzer.NewPerBlock(p, access.ReadLevel)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if (!d.Is("stub_status") && !d.Is("api")) || (len(d.Args()) == 1 && strings.EqualFold(d.Args()[0].Value, "off")) {
			return
		}
		// A status page is a location's, or a whole server's.
		where := "server"
		if loc := analyzer.Innermost(stack, "location"); loc != nil {
			where = fmt.Sprintf("location %q", strings.Join(loc.ArgValues(), " "))
		} else if analyzer.Innermost(stack, "server") == nil {
			return
		}
		fams := []access.Family{access.IPv4, access.IPv6} // a snippet: whatever its server listens on
		if s := serverOf(p, stack); s != nil {
			fams = access.ListenFamilies(s)
		}
		a := access.At(blocks, stack)
		var open []string
		for _, f := range fams {
			if f == access.Unix {
				continue // local clients only
			}
			if e := a.Exposure(f); e != "" {
				open = append(open, e)
			}
		}
		if len(open) == 0 {
			return
		}
		var diag *parser.Diagnostic
		if a.Restricted() {
			diag = p.ReportDirective(d, "%q in %s looks restricted but is open to %s", d.Name().Value, where, strings.Join(open, "; "))
		} else {
			diag = p.ReportDirective(d, "%q in %s is open to every client", d.Name().Value, where)
		}
		diag.Detail = "allow only the monitoring addresses and end with \"deny all;\" (an address list is per family: " +
			"0.0.0.0/0 is every IPv4 client, ::/0 every IPv6 one), put the page behind authentication with the " +
			"default \"satisfy all\", or make the location internal"
	}, "stub_status", "api")
}

// serverOf returns the model's server of the innermost server block of
// stack, nil when there is none.
func serverOf(p *analyzer.Pass, stack []*parser.Directive) *parser.Server {
	return p.ServerOf(analyzer.Innermost(stack, "server"))
}
