package rules

import (
	"net/netip"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RealIPSpoofable reports a realip configuration that trusts every
// address: the client address then comes from a header any client sets.
var RealIPSpoofable = &analyzer.Rule{
	Code: "NL3033", Name: "real-ip-spoofable", Title: "the client address is taken from a header every client can set", Severity: parser.Warning,
	Run: runRealIPSpoofable,
	Doc: analyzer.Doc{
		Text: "`set_real_ip_from` names the proxies whose word nginx takes for the client's address: " +
			"for a connection from one of them, ngx_http_realip_module replaces `$remote_addr` with " +
			"the address in `real_ip_header` (X-Real-IP by default, often X-Forwarded-For). With " +
			"`0.0.0.0/0` or `::/0` every peer is a trusted proxy, so every client chooses its own " +
			"address by sending that header: `allow`/`deny`, `limit_req` and `limit_conn` keys, " +
			"`geo`, and the access log all see the address the client made up. List only the " +
			"addresses of your load balancers or CDN, or take the address from the PROXY protocol " +
			"(`real_ip_header proxy_protocol`), which only the peer can set.",
		Bad:  "set_real_ip_from 0.0.0.0/0;\nreal_ip_header X-Forwarded-For;\n",
		Good: "set_real_ip_from 10.0.0.0/8;\nreal_ip_header X-Forwarded-For;\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_realip_module.html#set_real_ip_from",
	},
}

// trustsEveryone reports whether a set_real_ip_from argument is a prefix
// of length 0 (0.0.0.0/0, ::/0): every peer address is in it.
func trustsEveryone(arg string) bool {
	pfx, err := netip.ParsePrefix(arg)
	return err == nil && pfx.Bits() == 0
}

func runRealIPSpoofable(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		// Stream's realip reads the PROXY protocol only, which the peer
		// alone can set.
		if len(d.Args()) != 1 || !trustsEveryone(d.Args()[0].Value) || ctx&directives.StreamContexts != 0 {
			return
		}
		// The header in effect where the list is (real_ip_header is
		// merged outward, X-Real-IP when none is set), or one a block
		// inside sets.
		bs := analyzer.Levels(stack)
		header := "X-Real-IP"
		at := p.InEffect(bs, "real_ip_header")
		if at != nil && len(at.Args()) == 1 {
			header = at.Args()[0].Value
		}
		if strings.EqualFold(header, "proxy_protocol") {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q trusts every address, so any client sets its own address with the %q header", "set_real_ip_from", d.Args()[0].Value, header)
		diag.Detail = "$remote_addr, allow/deny, limit_req and limit_conn keys and the access log then use an address the client chose; list only your proxies' addresses, or use real_ip_header proxy_protocol"
		if at != nil {
			diag.Related = append(diag.Related, parser.Related{File: at.File, Range: at.Name().Range, Message: "the header read"})
		}
	}, "set_real_ip_from")
}
