package rules

import (
	"fmt"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CertificateExpired reports a certificate nginx serves that has expired
// or is not valid yet.
var CertificateExpired = &analyzer.Rule{
	Code: "NL2070", Name: "certificate-expired", Title: "certificate expired or not yet valid", Severity: parser.Warning,
	Run:     runCertificateExpired,
	Host:    true,
	Options: certFilesOption,
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate files of this machine. nginx starts with an expired certificate (`nginx -t` " +
			"says nothing), and every client then refuses the connection (`certificate has expired`); " +
			"one not valid yet (a clock or an issuing mistake) is refused the same way. The server's " +
			"certificate and every certificate of its chain (an expired intermediate breaks " +
			"verification too) are checked against this machine's clock, at the `ssl_certificate` " +
			"line. Renew it (`certbot renew`, or your CA) and reload nginx. `certificate-expiring` " +
			"warns before it comes to this.",
		Bad:  "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name expired.example;\n        ssl_certificate \"data:" + exampleExpiredCert + "\";\n        ssl_certificate_key /etc/ssl/private/expired.example.key;\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_certificate",
	},
}

func runCertificateExpired(p *analyzer.Pass) {
	now := time.Now()
	for _, pair := range sharedCertAudit(p).pairs {
		if pair.chain == nil {
			continue
		}
		c, state := pair.chain.Expiry(now)
		which := certWhich(pair, c)
		switch state {
		case certfile.Expired:
			reportCert(p, pair, "nginx starts with it, but clients refuse the connection (certificate has expired): renew it and reload nginx",
				"%s expired on %s (%s ago)", which, c.NotAfter.UTC().Format("2006-01-02 15:04 MST"), days(now.Sub(c.NotAfter)))
		case certfile.NotYetValid:
			reportCert(p, pair, "nginx starts with it, but clients refuse the connection (certificate is not yet valid): check this machine's clock and the certificate's dates",
				"%s is not valid before %s (in %s)", which, c.NotBefore.UTC().Format("2006-01-02 15:04 MST"), days(c.NotBefore.Sub(now)))
		}
	}
}

// days words a duration in days ("3 days", "less than a day").
func days(d time.Duration) string {
	n := int(d.Hours() / 24)
	switch {
	case n < 1:
		return "less than a day"
	case n == 1:
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}
