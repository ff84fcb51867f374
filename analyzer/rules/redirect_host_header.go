package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RedirectHostHeader reports a redirect whose host comes from a request
// header the client sets.
var RedirectHostHeader = &analyzer.Rule{
	Code: "NL3038", Name: "redirect-host-header", Title: "a redirect to a host the client chose", Severity: parser.Warning,
	Run: runRedirectHostHeader,
	Doc: analyzer.Doc{
		Text: "A redirect built as `https://$http_host$request_uri` sends the browser to whatever host " +
			"the request's Host header named, and `$http_x_forwarded_host` to whatever the client " +
			"wrote in X-Forwarded-Host. The Host header need not be a name of the server: a request " +
			"line with an absolute URI picks the server while the header says anything, and a default " +
			"server takes every name. Such a redirect is an open redirect, and cached, it sends every " +
			"visitor to the attacker's site (web cache poisoning). Build redirects from `$host` (the " +
			"name nginx matched) or `$server_name`, or write the host out.",
		Bad:  "server {\n    listen 80;\n    server_name example.com;\n    return 301 https://$http_host$request_uri;\n}\n",
		Good: "server {\n    listen 80;\n    server_name example.com;\n    return 301 https://$host$request_uri;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#var_host",
	},
}

// clientHostVars are the variables that hold a host exactly as the client
// sent it.
var clientHostVars = map[string]bool{"http_host": true, "http_x_forwarded_host": true}

// redirectHost returns the client-chosen host variable a redirect target
// puts in its authority (after "://" or a leading "//", before the path),
// "" if none.
func redirectHost(target string) string {
	inHost := strings.HasPrefix(target, "//")
	for _, r := range script.Split(target) {
		if r.Name == "" {
			text := r.Text
			if i := strings.Index(text, "://"); i >= 0 {
				inHost, text = true, text[i+3:]
			} else if inHost && strings.HasPrefix(target, "//") && strings.HasPrefix(text, "//") {
				text = text[2:]
			}
			if inHost && strings.ContainsAny(text, "/?#") {
				return ""
			}
			continue
		}
		if inHost && clientHostVars[r.Name] {
			return "$" + r.Name
		}
	}
	return ""
}

func runRedirectHostHeader(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if ctx&directives.StreamContexts != 0 {
			return
		}
		var target parser.Word
		switch {
		case d.Is("return") && len(d.Args()) == 2:
			switch d.Args()[0].Value {
			case "301", "302", "303", "307", "308":
				target = d.Args()[1]
			default:
				return
			}
		case d.Is("return") && len(d.Args()) == 1:
			target = d.Args()[0]
		case d.Is("rewrite") && len(d.Args()) >= 2 && routing.Redirects(d):
			target = d.Args()[1]
		default:
			return
		}
		v := redirectHost(target.Value)
		if v == "" {
			return
		}
		diag := p.Reportf(d.File, target.Range, "%q redirects to the host in %s, which the client chooses", d.Name().Value, v)
		diag.Detail = "an open redirect, and with a cache in front a poisoned one; use $host (the name nginx matched), $server_name, or the host written out"
	}, "return", "rewrite")
}
