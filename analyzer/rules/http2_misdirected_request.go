package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// HTTP2MisdirectedRequest reports a TLS default server that rejects
// handshakes but, with HTTP/2 on, still answers requests that reach it
// over another server's connection.
var HTTP2MisdirectedRequest = &analyzer.Rule{
	Code: "NL3030", Name: "http2-misdirected-request", Title: "catch-all server rejects TLS handshakes but answers coalesced HTTP/2 requests", Severity: parser.Warning,
	Run: runHTTP2MisdirectedRequest,
	Doc: analyzer.Doc{
		Text: "`ssl_reject_handshake on` in the default server refuses TLS connections for unknown " +
			"names. HTTP/2 clients reuse a connection opened for one name for other names the " +
			"certificate covers (connection coalescing): such a request never has a handshake of " +
			"its own, and when its Host matches no server it lands in the default server, which " +
			"then serves it. Answer `421 Misdirected Request` there (`location / { return 421; }`), " +
			"so the client opens a proper connection for that name.",
		Bad:  "server {\n    listen 443 ssl default_server;\n    http2 on;\n    ssl_reject_handshake on;\n}\n",
		Good: "server {\n    listen 443 ssl default_server;\n    http2 on;\n    ssl_reject_handshake on;\n    location / {\n        return 421;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_reject_handshake",
	},
}

func runHTTP2MisdirectedRequest(p *analyzer.Pass) {
	if len(p.Index().Named("ssl_reject_handshake")) == 0 {
		return
	}
	httpHTTP2 := map[*parser.Directive]bool{} // http blocks with "http2 on"
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(stack) == 1 && stack[0].Is("http") && len(d.Args()) == 1 {
			httpHTTP2[stack[0]] = strings.EqualFold(d.Args()[0].Value, "on")
		}
	}, "http2")
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || !strings.EqualFold(d.Args()[0].Value, "on") || len(stack) == 0 {
			return
		}
		srv := stack[len(stack)-1]
		h := analyzer.Innermost(stack, "http")
		if !srv.Is("server") || h == nil && len(stack) > 1 {
			return
		}
		var tlsDefault, listenHTTP2 bool
		var own *bool
		answers421 := false
		for _, c := range p.Body(srv) {
			switch {
			case c.Is("listen"):
				var tls, def, h2 bool
				for _, a := range c.Args()[min(1, len(c.Args())):] {
					switch a.Value {
					case "ssl", "quic":
						tls = true
					case "default_server", "default":
						def = true
					case "http2":
						h2 = true
					}
				}
				if tls && def {
					tlsDefault = true
					listenHTTP2 = listenHTTP2 || h2
				}
			case c.Is("http2") && len(c.Args()) == 1:
				on := strings.EqualFold(c.Args()[0].Value, "on")
				own = &on
			case c.Is("return") && returns421(c):
				answers421 = true
			case c.Is("location") && c.Block != nil:
				for _, x := range p.Body(c) {
					if x.Is("return") && returns421(x) {
						answers421 = true
					}
				}
			}
		}
		http2 := listenHTTP2 || h != nil && httpHTTP2[h]
		if own != nil {
			http2 = *own
		}
		if !tlsDefault || !http2 || answers421 {
			return
		}
		diag := p.ReportDirective(srv, "default server with %q and HTTP/2 answers requests coalesced onto other servers' connections", "ssl_reject_handshake on")
		diag.Detail = "add \"location / { return 421; }\" so clients open a connection of their own for names no server has"
	}, "ssl_reject_handshake")
}

func returns421(d *parser.Directive) bool {
	return len(d.Args()) >= 1 && d.Args()[0].Value == "421"
}
