package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CertificateWeak reports a certificate with a key or signature OpenSSL
// refuses as weak.
var CertificateWeak = &analyzer.Rule{
	Code: "NL3050", Name: "certificate-weak", Title: "certificate with a weak key or a SHA-1 signature", Severity: parser.Error,
	Run:     runCertificateWeak,
	Host:    true,
	Options: certFilesOption,
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate files of this machine. OpenSSL at security level 2 (the default of Debian, " +
			"Ubuntu and RHEL, and of OpenSSL itself since 3.2) refuses a certificate whose RSA or DSA " +
			"key is under 2048 bits or whose elliptic curve is under 224 bits (`SSL_CTX_use_certificate() " +
			"failed (SSL: ... ee key too small)`), and one signed with SHA-1 or MD5 by its CA (`ca md " +
			"too weak`, for the server's certificate or one of its chain): nginx then refuses to start. " +
			"A self-signed root's own signature is not checked. With an older OpenSSL at level 1 " +
			"nginx starts, and clients refuse the certificate instead. Reported at the " +
			"`ssl_certificate` line: issue a new certificate with an RSA key of 2048 bits or more (or " +
			"ECDSA P-256) signed with SHA-256.",
		Bad:  "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name old.example;\n        ssl_certificate \"data:" + exampleWeakCert + "\";\n        ssl_certificate_key /etc/ssl/private/old.example.key;\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		URL:  "https://docs.openssl.org/3.0/man3/SSL_CTX_set_security_level/",
	},
}

func runCertificateWeak(p *analyzer.Pass) {
	for _, pair := range sharedCertAudit(p).pairs {
		if pair.chain == nil {
			continue
		}
		for i, c := range pair.chain.Certs {
			why := certfile.Weakness(c, i == 0)
			if why == "" {
				continue
			}
			call := "SSL_CTX_use_certificate"
			if i > 0 {
				call = "SSL_CTX_set0_chain"
			}
			reportCert(p, pair, "issue a new certificate with an RSA key of 2048 bits or more (or ECDSA P-256), signed with SHA-256; OpenSSL at security level 2 (Debian, Ubuntu, RHEL, OpenSSL 3.2+) refuses this one",
				"%s: %s: nginx refuses to start (%s() failed)", certWhich(pair, c), why, call)
			break
		}
	}
}
