package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// AuthBasicPlaintext reports HTTP basic authentication on a server that
// has no TLS.
var AuthBasicPlaintext = &analyzer.Rule{
	Code: "NL3037", Name: "auth-basic-plaintext", Title: "basic authentication on a server without TLS", Severity: parser.Warning,
	Run: runAuthBasicPlaintext,
	Doc: analyzer.Doc{
		Text: "With `auth_basic` the browser sends the user name and password with every request, " +
			"only base64-encoded. On a server with no `listen ... ssl` they cross the network in " +
			"clear text, where anyone on the path reads them. Serve the protected locations over " +
			"HTTPS (and redirect plain HTTP to it). A server that listens only on loopback or a " +
			"unix socket, behind a proxy that terminates TLS, is not reported.",
		Bad:  "server {\n    listen 80;\n    location /admin/ {\n        auth_basic \"admin\";\n        auth_basic_user_file /etc/nginx/htpasswd;\n    }\n}\n",
		Good: "server {\n    listen 443 ssl;\n    ssl_certificate /etc/ssl/site.pem;\n    ssl_certificate_key /etc/ssl/site.key;\n    location /admin/ {\n        auth_basic \"admin\";\n        auth_basic_user_file /etc/nginx/htpasswd;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_auth_basic_module.html#auth_basic",
	},
}

// plaintextOnly reports whether server s takes plain HTTP from beyond
// the machine and has no TLS listen: no "listen ... ssl", no "ssl on",
// and a listen (or the default *:80) that is not loopback or a socket.
func plaintextOnly(p *analyzer.Pass, s *parser.Server, outer []*parser.Directive) bool {
	if p.InEffect(append(outer, s.Directive), "ssl").ArgIs("on") {
		return false
	}
	listens := s.Listens()
	if len(listens) == 0 {
		return true // *:80
	}
	external := false
	for _, l := range listens {
		if l.Spec == nil {
			return false
		}
		if l.Spec.Has(grammar.ParamSSL) || l.Spec.Has(grammar.ParamQUIC) {
			return false
		}
		if l.Spec.Kind == grammar.AddrUnix || l.Spec.IP.IsValid() && l.Spec.IP.IsLoopback() || l.Spec.Host == "localhost" {
			continue
		}
		external = true
	}
	return external
}

func runAuthBasicPlaintext(p *analyzer.Pass) {
	if len(p.Index().Named("auth_basic")) == 0 {
		return
	}
	servers := map[*parser.Directive]*parser.Server{}
	for _, s := range p.Model().Servers {
		if s.Protocol == parser.HTTP {
			servers[s.Directive] = s
		}
	}
	blocks := analyzer.NewPerBlock(p, access.ReadLevel)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || d.ArgIs("off") {
			return
		}
		// Without auth_basic_user_file the module declines: no password
		// is asked for.
		if !guardedBy(access.At(blocks, stack), "auth_basic") {
			return
		}
		for i, b := range stack {
			s, ok := servers[b]
			if !ok {
				continue
			}
			if plaintextOnly(p, s, analyzer.Levels(stack[:i])) {
				diag := p.ReportDirective(d, "%q on a server without TLS: the password crosses the network in clear text", "auth_basic")
				diag.Detail = "basic authentication sends the credentials base64-encoded with every request; serve this over HTTPS (listen ... ssl) and redirect plain HTTP there"
			}
			return
		}
		// In http: the servers that inherit it.
		for _, s := range p.Model().Servers {
			if s.Protocol != parser.HTTP {
				continue
			}
			own := p.InEffect([]*parser.Directive{s.Directive}, "auth_basic")
			if (own == nil || !own.ArgIs("off")) && plaintextOnly(p, s, analyzer.Levels(stack)) {
				diag := p.ReportDirective(d, "%q on a server without TLS: the password crosses the network in clear text", "auth_basic")
				diag.Detail = "basic authentication sends the credentials base64-encoded with every request; serve this over HTTPS (listen ... ssl) and redirect plain HTTP there"
				diag.Related = append(diag.Related, parser.Related{File: s.Directive.File, Range: s.Directive.Name().Range, Message: "a server without TLS that inherits it"})
				return
			}
		}
	}, "auth_basic")
}

// guardedBy reports whether an authentication directive called name is
// among the access phase's guards (in force, and able to refuse).
func guardedBy(a access.Phase, name string) bool {
	for _, g := range a.Guards {
		if g.Is(name) {
			return true
		}
	}
	return false
}
