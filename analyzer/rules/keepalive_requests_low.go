package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// keepaliveRequestsMin is keepalive-requests-low's threshold.
var keepaliveRequestsMin = analyzer.IntOption("min", 1000, "The lowest keepalive_requests not reported (nginx's default since 1.19.10).")

// KeepaliveRequestsLow reports a keepalive_requests below nginx's
// current default.
var KeepaliveRequestsLow = &analyzer.Rule{
	Code: "NL4009", Name: "keepalive-requests-low", Title: "keepalive_requests below nginx's default of 1000", Severity: parser.Info,
	Run:     runKeepaliveRequestsLow,
	Options: []analyzer.Option{keepaliveRequestsMin.Decl()},
	Doc: analyzer.Doc{
		Text: "After `keepalive_requests` requests nginx closes a keep-alive connection, and the client " +
			"opens a new one (a new TLS handshake for HTTPS). nginx raised the default from 100 to 1000 " +
			"in 1.19.10 because browsers multiplexing over HTTP/2 reached 100 quickly; a 100 copied from " +
			"an old tutorial brings the reconnects back. The same holds for `keepalive_requests` in an " +
			"`upstream`. The threshold is the option `min` (default 1000).",
		Bad:  "http {\n    keepalive_requests 100;\n}\n",
		Good: "http {\n    keepalive_requests 1000;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#keepalive_requests",
	},
}

func runKeepaliveRequestsLow(p *analyzer.Pass) {
	min := keepaliveRequestsMin.Get(p)
	ix := p.Index()
	for _, i := range ix.Named("keepalive_requests") {
		d := ix.Entries[i].Directive
		if len(d.Args()) != 1 {
			continue
		}
		if n, ok := ngxparse.Atoi(d.Args()[0].Value); ok && n < min {
			diag := p.Reportf(d.File, d.Args()[0].Range, "keepalive_requests %d closes each keep-alive connection after %d requests; nginx's default is 1000", n, n)
			diag.Detail = "clients, HTTP/2 browsers above all, reconnect (and repeat the TLS handshake) that much more often; remove the directive or raise it"
		}
	}
}
