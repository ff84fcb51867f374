package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CertificateChain reports a certificate chain out of order, with a
// certificate that does not belong, or without its intermediate.
var CertificateChain = &analyzer.Rule{
	Code: "NL2073", Name: "certificate-chain", Title: "certificate chain out of order or incomplete", Severity: parser.Warning,
	Run:     runCertificateChain,
	Host:    true,
	Options: certFilesOption,
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate files of this machine. nginx sends the certificates of an `ssl_certificate` " +
			"file as they are, without checking them: the server's first, then its chain. Reported at " +
			"the `ssl_certificate` line: a certificate not issued by the one after it (out of order; " +
			"the one that issued it is elsewhere in the file), a certificate that issued none of the " +
			"others, and a file with the server's certificate alone whose issuer is neither in the " +
			"file nor a root this machine trusts (its trust store, plus the `ssl_trusted_certificate` " +
			"and `ssl_client_certificate` files of the configuration): the intermediate is missing. " +
			"Browsers that cached the intermediate still connect, which hides the mistake; other " +
			"clients (curl, mobile apps, API clients) fail with `unable to get local issuer " +
			"certificate`. A chain that ends in a CA certificate is taken as complete (the root is " +
			"the client's to have). A server certificate issued straight by a private root is " +
			"reported too unless that root is named in `ssl_trusted_certificate`.",
		Bad: "# with --check-files: shop.example's certificate without the intermediate CA that issued it\n" +
			"events {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name shop.example;\n        ssl_certificate \"data:" +
			exampleLeafCert + "\";\n        ssl_certificate_key /etc/ssl/private/shop.example.key;\n    }\n}\n",
		Good: "# with --check-files: the server's certificate, then the intermediate that issued it\n" +
			"events {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name shop.example;\n        ssl_certificate \"data:" +
			exampleLeafCert + "\n" + exampleIntermediateCert + "\";\n        ssl_certificate_key /etc/ssl/private/shop.example.key;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/configuring_https_servers.html#chains",
	},
}

func runCertificateChain(p *analyzer.Pass) {
	a := sharedCertAudit(p)
	for _, pair := range a.pairs {
		if pair.chain == nil {
			continue
		}
		for _, pr := range pair.chain.Order() {
			reportCert(p, pair, pr.Detail, "ssl_certificate %q: %s", certArg(pair.cert), pr.Message)
		}
		if pr := pair.chain.Incomplete(a.roots); pr != nil {
			reportCert(p, pair, pr.Detail, "ssl_certificate %q: %s", certArg(pair.cert), pr.Message)
		}
	}
}
