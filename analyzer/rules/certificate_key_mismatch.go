package rules

import (
	"errors"
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CertificateKeyMismatch reports a certificate or key file nginx cannot
// load, and a key that is not the certificate's.
var CertificateKeyMismatch = &analyzer.Rule{
	Code: "NL2072", Name: "certificate-key-mismatch", Title: "certificate key does not match, or the files cannot be loaded", Severity: parser.Error,
	Run:     runCertificateKeyMismatch,
	Host:    true,
	Options: certFilesOption,
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate and key files of this machine. nginx refuses to start when the " +
			"`ssl_certificate_key` paired with an `ssl_certificate` (the first with the first, and so " +
			"on, inherited from `http` when the server sets none) is not the key of the file's first " +
			"certificate (`SSL_CTX_use_PrivateKey(\"...\") failed (SSL: ... key values mismatch)`), and " +
			"when a file holds no certificate or key it can read (`PEM_read_bio_X509_AUX() failed`, " +
			"`PEM_read_bio_PrivateKey() failed`). The usual causes: a renewed certificate next to the " +
			"old key, the two files of two sites swapped, or a chain file with the intermediate first " +
			"(the finding then says which certificate of the file the key matches). A key under a " +
			"passphrase (`ssl_password_file`) is not checked.",
		Bad:  "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleOtherKey + "\";\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_certificate_key",
	},
}

func runCertificateKeyMismatch(p *analyzer.Pass) {
	for _, pair := range sharedCertAudit(p).pairs {
		if pair.certErr != nil {
			reportCert(p, pair, "nginx refuses to start: the file must hold the server's certificate in PEM (-----BEGIN CERTIFICATE-----), then its chain",
				"cannot load certificate %q: %v", certArg(pair.cert), pair.certErr)
			continue
		}
		if pair.key == nil {
			continue // ssl-certificate-missing: no key for the certificate
		}
		if pair.keyErr != nil {
			if errors.Is(pair.keyErr, certfile.ErrEncrypted) {
				continue
			}
			d := p.Reportf(pair.key.File, certRange(pair.key), "cannot load certificate key %q: %v", certArg(pair.key), pair.keyErr)
			d.Detail = "nginx refuses to start: the file must hold the private key in PEM (-----BEGIN PRIVATE KEY-----)"
			continue
		}
		if pair.pub == nil || pair.chain == nil || certfile.KeyMatches(pair.chain.Leaf(), pair.pub) {
			continue
		}
		d := p.Reportf(pair.key.File, certRange(pair.key), "ssl_certificate_key %q is not the key of ssl_certificate %q: nginx refuses to start (SSL_CTX_use_PrivateKey() failed: key values mismatch)",
			certArg(pair.key), certArg(pair.cert))
		d.Detail = "pair each certificate with its own key (openssl x509 -noout -pubkey -in CERT and openssl pkey -pubout -in KEY print the same key)"
		for i, c := range pair.chain.Certs[1:] {
			if certfile.KeyMatches(c, pair.pub) {
				d.Detail = fmt.Sprintf("the key is that of certificate %d of the file (%s): the server's certificate must come first, then its chain", i+2, certfile.Name(c))
				break
			}
		}
		d.Related = append(d.Related, parser.Related{File: pair.cert.File, Range: certRange(pair.cert), Message: "the certificate, whose first certificate is " + certfile.Name(pair.chain.Leaf())})
	}
}
