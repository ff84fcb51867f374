package rules

import (
	"net/netip"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ResolverExternal reports resolver addresses on the public internet.
var ResolverExternal = &analyzer.Rule{
	Code: "NL3013", Name: "resolver-external", Title: "resolver points at a public DNS server", Severity: parser.Warning,
	Run: runResolverExternal,
	Doc: analyzer.Doc{
		Text: "nginx's resolver speaks plain UDP DNS with a 16-bit query id and no DNSSEC validation. " +
			"Answers from a public server cross networks where they can be spoofed, and a forged " +
			"answer sends proxied traffic (with its cookies and credentials) to the attacker. Use a " +
			"resolver on the host or the local network (a caching resolver such as unbound or " +
			"systemd-resolved, `127.0.0.1`, `127.0.0.53`). Only IP literals are judged: a resolver " +
			"given by name is assumed local.",
		Bad:  "resolver 8.8.8.8;\n",
		Good: "resolver 127.0.0.1 valid=30s;\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#resolver",
	},
}

func runResolverExternal(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		if !d.Is("resolver") {
			return
		}
		for _, a := range d.Args() {
			if strings.Contains(a.Value, "=") {
				continue // valid=, ipv4=, ipv6=, status_zone=
			}
			ip, ok := resolverIP(a.Value)
			if !ok || !publicIP(ip) {
				continue
			}
			diag := p.Reportf(d.File, a.Range, "%q %q is a public DNS server: answers can be spoofed on the way", "resolver", a.Value)
			diag.Detail = "nginx's resolver does not validate DNSSEC; use a resolver on this host or the local network"
			return
		}
	}, "resolver")
}

// resolverIP reads "ADDR", "ADDR:PORT", "[V6]" or "[V6]:PORT".
func resolverIP(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr(), true
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	ip, err := netip.ParseAddr(s)
	return ip, err == nil
}

// publicIP reports whether ip is routed on the internet: not loopback,
// private, link-local, shared (CGNAT) or otherwise reserved.
func publicIP(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast() {
		return false
	}
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	return !cgnat.Contains(ip)
}
