package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// SSLECDHCurvePQ reports post-quantum key-exchange groups in
// ssl_ecdh_curve without the "?" that lets OpenSSL skip unknown groups.
var SSLECDHCurvePQ = &analyzer.Rule{
	Code: "NL3025", Name: "ssl-ecdh-curve-pq", Title: "post-quantum group in ssl_ecdh_curve without the ? prefix", Severity: parser.Warning,
	Run: runSSLECDHCurvePQ,
	Doc: analyzer.Doc{
		Text: "Post-quantum hybrid groups (`X25519MLKEM768`, `SecP256r1MLKEM768`, the draft " +
			"`X25519Kyber768Draft00`) are known only to recent TLS libraries (OpenSSL 3.5+, " +
			"BoringSSL, OQS builds). An OpenSSL that does not know a listed group rejects the " +
			"whole list, and nginx fails to start or to reload (`SSL_CTX_set1_curves_list() " +
			"failed`) after a library downgrade or on another host. From OpenSSL 3.3 a leading " +
			"`?` marks a group as optional. The Kyber drafts are obsolete: clients moved to " +
			"ML-KEM, so list `?X25519MLKEM768` instead.",
		Bad:  "ssl_ecdh_curve X25519MLKEM768:X25519:prime256v1;\n",
		Good: "ssl_ecdh_curve ?X25519MLKEM768:X25519:prime256v1;\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_ecdh_curve",
	},
}

func runSSLECDHCurvePQ(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		if len(d.Args()) != 1 || script.HasVars(d.Args()[0].Value) {
			return
		}
		var bare []string
		for _, g := range strings.Split(d.Args()[0].Value, ":") {
			if pqGroup(g) && !strings.HasPrefix(g, "?") {
				bare = append(bare, g)
			}
		}
		if len(bare) == 0 {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q lists %s without %q: a TLS library that does not know it rejects the whole list", "ssl_ecdh_curve", strings.Join(bare, ", "), "?")
		diag.Detail = "prefix post-quantum groups with \"?\" (OpenSSL 3.3+) so nginx still starts where they are unknown"
		for _, g := range bare {
			if strings.Contains(strings.ToUpper(g), "KYBER") {
				diag.Detail += "; " + g + " is an obsolete draft, use X25519MLKEM768"
				break
			}
		}
	}, "ssl_ecdh_curve")
}

// pqGroup reports whether a group name of ssl_ecdh_curve is a post-quantum
// (hybrid) key exchange, which older TLS libraries do not know.
func pqGroup(g string) bool {
	u := strings.ToUpper(g)
	return strings.Contains(u, "MLKEM") || strings.Contains(u, "KYBER")
}
