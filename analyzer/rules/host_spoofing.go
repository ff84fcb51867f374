package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/taint"
	"github.com/nginx-lint/nginx-lint/parser"
)

// HostSpoofing reports a Host header for the upstream taken from a raw
// request header or argument instead of $host.
var HostSpoofing = &analyzer.Rule{
	Code: "NL3003", Name: "host-spoofing", Title: "upstream Host header taken from an unchecked request value", Severity: parser.Warning,
	Fixable: true,
	Run:     runHostSpoofing,
	Doc: analyzer.Doc{
		Text: "`$http_host` is the Host header exactly as the client sent it: it may differ from the " +
			"server name nginx matched (a request line with an absolute URI wins over the header), and " +
			"it may carry any host the client likes. Passed upstream, it feeds password-reset links, " +
			"cache keys and virtual-host routing with an attacker's value. `$host` is the host nginx " +
			"actually used (lower-cased, from the request line, the Host header or `server_name`).",
		Bad:  "location / {\n    proxy_set_header Host $http_host;\n    proxy_pass http://backend;\n}\n",
		Good: "location / {\n    proxy_set_header Host $host;\n    proxy_pass http://backend;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#var_host",
	},
}

func runHostSpoofing(p *analyzer.Pass) {
	var env *taint.Env
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if (!d.Is("proxy_set_header") && !d.Is("grpc_set_header")) || len(d.Args()) != 2 || !strings.EqualFold(d.Args()[0].Value, "host") {
			return
		}
		if env == nil {
			env = taint.NewEnv(p)
		}
		if !env.Of(d.Args()[1].Value, stack).User {
			return
		}
		diag := p.Reportf(d.File, d.Args()[1].Range, "%q sets the upstream Host to %q, which the client controls", d.Name().Value, d.Args()[1].Value)
		diag.Detail = "use $host, the host name nginx validated and matched, instead of a raw request value"
		diag.Edits = hostEdit(d)
	}, "proxy_set_header", "grpc_set_header")
}

// hostEdit offers "$host" in place of a bare "$http_host".
func hostEdit(d *parser.Directive) []parser.Edit {
	if !strings.EqualFold(d.Args()[1].Value, "$http_host") {
		return nil
	}
	return []parser.Edit{{File: d.File, Range: d.Args()[1].Range, NewText: "$host"}}
}
