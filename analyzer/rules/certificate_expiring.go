package rules

import (
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

var certExpiryDays = analyzer.IntOption("cert-expiry-days", 21,
	"Report a certificate that expires within this many days (Let's Encrypt's certbot renews 30 days before).")

// CertificateExpiring reports a certificate nginx serves that expires
// soon.
var CertificateExpiring = &analyzer.Rule{
	Code: "NL2071", Name: "certificate-expiring", Title: "certificate expires soon", Severity: parser.Warning,
	Run:     runCertificateExpiring,
	Host:    true,
	Options: []analyzer.Option{analyzer.CheckFilesOption.Decl(), certExpiryDays.Decl()},
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate files of this machine. A certificate of a server (or of its chain) that " +
			"expires within `cert-expiry-days` (21 by default) is reported at its `ssl_certificate` " +
			"line with the date, so that a CI job or a lint on the host catches a renewal that did " +
			"not happen (a certbot timer that stopped, a certificate copied by hand) before clients " +
			"refuse it. Renew it and reload nginx; after the date it is `certificate-expired`.",
		Bad: "# with --check-files; the certificate expires on 2049-12-31, reported from\n" +
			"# cert-expiry-days before (the examples' test sets 36500 days to reach it)\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name shop.example;\n        ssl_certificate \"data:" +
			exampleLeafCert + "\n" + exampleIntermediateCert + "\";\n        ssl_certificate_key /etc/ssl/private/shop.example.key;\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_certificate",
	},
}

func runCertificateExpiring(p *analyzer.Pass) {
	now := time.Now()
	limit := time.Duration(certExpiryDays.Get(p)) * 24 * time.Hour
	for _, pair := range sharedCertAudit(p).pairs {
		if pair.chain == nil {
			continue
		}
		c, state := pair.chain.Expiry(now)
		if state != certfile.Valid || c.NotAfter.Sub(now) > limit {
			continue
		}
		reportCert(p, pair, "renew it and reload nginx before then: clients refuse an expired certificate, though nginx starts with it",
			"%s expires on %s, in %s (cert-expiry-days: %d)", certWhich(pair, c), c.NotAfter.UTC().Format("2006-01-02 15:04 MST"),
			days(c.NotAfter.Sub(now)), certExpiryDays.Get(p))
	}
}
