package rules

import (
	"net/netip"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ProxySSLUnverified reports proxying over TLS without checking the
// upstream's certificate.
var ProxySSLUnverified = &analyzer.Rule{
	Code: "NL3036", Name: "proxy-ssl-unverified", Title: "proxying over TLS without verifying the upstream's certificate", Severity: parser.Warning,
	Run: runProxySSLUnverified,
	Doc: analyzer.Doc{
		Text: "`proxy_pass https://...` encrypts the connection to the upstream but, by default, does " +
			"not check who answers: `proxy_ssl_verify` is off, so any certificate is accepted and " +
			"anyone on the path between nginx and the upstream can pose as it and read or change " +
			"the traffic, credentials and cookies included. Turn on `proxy_ssl_verify`, give the CAs " +
			"with `proxy_ssl_trusted_certificate` and, when the upstream is addressed by IP or an " +
			"upstream block, the name to check with `proxy_ssl_name` (and `proxy_ssl_server_name on` " +
			"to send it). The same holds for `grpc_pass grpcs://` (`grpc_ssl_verify`) and " +
			"`uwsgi_pass suwsgi://` (`uwsgi_ssl_verify`).",
		Bad:  "location / {\n    proxy_pass https://backend.example.com;\n}\n",
		Good: "location / {\n    proxy_pass https://backend.example.com;\n    proxy_ssl_verify on;\n    proxy_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt;\n    proxy_ssl_server_name on;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_ssl_verify",
	},
}

// tlsPass maps each *_pass to the scheme that makes it TLS and the
// directive that turns verification on.
var tlsPass = map[string]struct{ scheme, verify string }{
	"proxy_pass": {"https://", "proxy_ssl_verify"},
	"grpc_pass":  {"grpcs://", "grpc_ssl_verify"},
	"uwsgi_pass": {"suwsgi://", "uwsgi_ssl_verify"},
}

func runProxySSLUnverified(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		t := tlsPass[strings.ToLower(d.Name().Value)]
		// Stream's proxy_pass has no scheme (proxy_ssl turns TLS on).
		if len(d.Args()) == 0 || !strings.HasPrefix(strings.ToLower(d.Args()[0].Value), t.scheme) || ctx&directives.StreamContexts != 0 {
			return
		}
		if p.InEffect(analyzer.Levels(stack), t.verify).ArgIs("on") || loopbackUpstream(p, d.Args()[0].Value[len(t.scheme):]) {
			return
		}
		diag := p.ReportDirective(d, "%q %q does not verify the upstream's certificate (%q is off)", d.Name().Value, d.Args()[0].Value, t.verify)
		diag.Detail = "anyone between nginx and the upstream can pose as it; add \"" + t.verify + " on;\" with the trusted CAs (" + strings.TrimSuffix(t.verify, "_verify") + "_trusted_certificate)"
	}, "proxy_pass", "grpc_pass", "uwsgi_pass")
}

// loopbackUpstream reports whether the host of a *_pass address (what
// follows the scheme) stays on this machine: a loopback address,
// localhost, or an upstream block whose servers all are. Nobody on the
// network stands between nginx and such an upstream.
func loopbackUpstream(p *analyzer.Pass, rest string) bool {
	host := rest
	if i := strings.IndexAny(host, "/?"); i >= 0 {
		host = host[:i]
	}
	if strings.Contains(host, "$") || host == "" {
		return false
	}
	if local(host) {
		return true
	}
	name := host
	if h, _, ok := strings.Cut(strings.TrimPrefix(host, "["), "]"); ok && strings.HasPrefix(host, "[") {
		name = h
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		name = host[:i]
	}
	for _, u := range p.Model().Upstreams {
		if u.Protocol != parser.HTTP || !strings.EqualFold(u.Name, name) {
			continue
		}
		if len(u.Servers) == 0 {
			return false
		}
		for _, s := range u.Servers {
			if len(s.Args()) == 0 || !local(s.Args()[0].Value) {
				return false
			}
		}
		return true
	}
	return false
}

// local reports whether an address ("127.0.0.1:8443", "[::1]", "localhost",
// "unix:/x") is on this machine.
func local(addr string) bool {
	if strings.HasPrefix(addr, "unix:") {
		return true
	}
	host := addr
	if strings.HasPrefix(host, "[") {
		if h, _, ok := strings.Cut(host[1:], "]"); ok {
			host = h
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 && strings.Count(host, ":") == 1 {
		host = host[:i]
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
