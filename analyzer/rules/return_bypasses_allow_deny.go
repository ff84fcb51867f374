package rules

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ReturnBypassesAllowDeny reports return in a block guarded by allow and
// deny: return runs in the rewrite phase, before access checks.
var ReturnBypassesAllowDeny = &analyzer.Rule{
	Code: "NL3016", Name: "return-bypasses-allow-deny", Title: "return answers before allow/deny are checked", Severity: parser.Warning,
	Run: runReturnBypassesAllowDeny,
	Doc: analyzer.Doc{
		Text: "nginx runs the rewrite module (`return`, `rewrite`, `if`, `set`) before the access " +
			"module (`allow`, `deny`). A `return` in a location protected by `allow`/`deny` answers " +
			"every client, the denied ones included. Serve the content another way (`try_files`, a " +
			"static file, `proxy_pass`), or test the client address with a `geo` map and `if` before " +
			"the `return`. Redirects and error responses (3xx, 4xx, 5xx) are not reported: they reveal " +
			"nothing, and a redirect target applies its own rules.",
		Bad:  "location /internal {\n    allow 10.0.0.0/8;\n    deny all;\n    return 200 \"secret\";\n}\n",
		Good: "location /internal {\n    allow 10.0.0.0/8;\n    deny all;\n    try_files /internal.txt =404;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#return",
	},
}

func runReturnBypassesAllowDeny(p *analyzer.Pass) {
	blocks := analyzer.NewPerBlock(p, access.ReadLevel)
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		// stream's return is a content handler: access checks run first.
		if !d.Is("return") || len(d.Args()) == 0 || analyzer.InStream(stack, ctx) {
			return
		}
		// Redirects and errors reveal nothing the rules protect; the
		// redirect target applies its own access rules.
		if code, err := strconv.Atoi(d.Args()[0].Value); (err == nil && code >= 300) || (err != nil && len(d.Args()) == 1) {
			return
		}
		a := access.At(blocks, stack)
		guard := a.FirstDeny()
		if guard == nil {
			return
		}
		// Only internal redirects reach an internal or named location, and
		// the access rules were checked where the request came in; its own
		// rules, if it has any, are still bypassed.
		if loc := analyzer.Innermost(stack, "location"); loc != nil && (loc.HasChild("internal") || strings.HasPrefix(firstArg(loc), "@")) &&
			a.ListAt != loc {
			return
		}
		diag := p.ReportDirective(d, "%q runs before the %q and %q rules and answers denied clients too", "return", "allow", "deny")
		diag.Detail = "the rewrite phase (return, rewrite) comes before the access phase; serve the response " +
			"with try_files or a file instead, or check the address with geo and if"
		diag.Related = append(diag.Related, parser.Related{File: guard.File, Range: guard.Name().Range, Message: "the access rule it bypasses"})
	}, "return")
}

// firstArg returns d's first argument, or "".
func firstArg(d *parser.Directive) string {
	if len(d.Args()) == 0 {
		return ""
	}
	return d.Args()[0].Value
}
