package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RewriteBypassesAllowDeny reports a redirecting rewrite where allow/deny
// are in force: like return, it answers in the rewrite phase, before the
// access phase checks the client.
var RewriteBypassesAllowDeny = &analyzer.Rule{
	Code: "NL3031", Name: "rewrite-bypasses-allow-deny", Title: "redirecting rewrite answers before allow/deny are checked", Severity: parser.Warning,
	Run: runRewriteBypassesAllowDeny,
	Doc: analyzer.Doc{
		Text: "nginx runs the rewrite module before the access module. A `rewrite` that redirects " +
			"(the `redirect` or `permanent` flag, or a replacement starting with `http://`, " +
			"`https://` or `$scheme`, which redirects whatever the flag) sends its answer in the " +
			"rewrite phase, so clients that `deny` should stop get the redirect, and with it the " +
			"target URL. A rewrite that changes the URI (`last`, `break`, no flag) is no bypass: " +
			"the access phase still runs. Named and `internal` locations are only reached after " +
			"the access check of the location that sent the request there, so only their own " +
			"allow/deny count. Check the client before redirecting (an `if` on a `geo` variable), " +
			"or move the redirect to a location without the restriction. See also " +
			"return-bypasses-allow-deny.",
		Bad:  "location /admin/ {\n    allow 10.0.0.0/8;\n    deny all;\n    rewrite ^/admin/(.*)$ /console/$1 permanent;\n}\n",
		Good: "location /admin/ {\n    allow 10.0.0.0/8;\n    deny all;\n    rewrite ^/admin/(.*)$ /console/$1 last;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#rewrite",
	},
}

func runRewriteBypassesAllowDeny(p *analyzer.Pass) {
	blocks := analyzer.NewPerBlock(p, access.ReadLevel)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) < 2 || !routing.Redirects(d) {
			return
		}
		a := access.At(blocks, stack)
		if a.ListAt == nil || len(a.Rules) == 0 {
			return
		}
		// Reached only by internal redirects: only the location's own
		// list counts, the enclosing ones ran for the original location.
		if loc := analyzer.Innermost(stack, "location"); loc != nil && a.ListAt != loc {
			if l, err := parser.LocationSpec(loc); err == nil && l.Named || loc.HasChild("internal") {
				return
			}
		}
		first := a.Rules[0].Directive
		diag := p.ReportDirective(d, "%q redirects in the rewrite phase, before %q %q on line %d is checked: denied clients get the redirect",
			"rewrite", first.Name().Value, first.Args()[0].Value, first.File.Position(int(first.Name().Range.Start)).Line)
		diag.Detail = "the access phase runs after the rewrite phase; check the client first (geo + if) or redirect from a location without the restriction"
	}, "rewrite")
}
