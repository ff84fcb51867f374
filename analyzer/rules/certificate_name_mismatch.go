package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// CertificateNameMismatch reports server names a server's certificate
// does not cover.
var CertificateNameMismatch = &analyzer.Rule{
	Code: "NL2074", Name: "certificate-name-mismatch", Title: "certificate does not cover the server's names", Severity: parser.Warning,
	Run:     runCertificateNameMismatch,
	Host:    true,
	Options: certFilesOption,
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate files of this machine. A client that asks for a `server_name` of a TLS " +
			"server (one with `listen ... ssl` or `quic`) checks that the certificate names it: " +
			"an exact name must be among the certificate's subjectAltNames (a wildcard `*.example.com` " +
			"there covers one label), `*.example.com` needs that wildcard, `.example.com` both " +
			"`example.com` and the wildcard. Clients ignore the common name. nginx starts with any " +
			"certificate; the client fails with `certificate is not valid for` the name. Reported at " +
			"the `ssl_certificate` line, with the names it lacks and those it has; regex names, " +
			"`www.example.*`, `\"\"` and placeholders such as `_` are not checked. Add the names to the " +
			"certificate (certbot `-d`), or serve them from a server with a certificate of their own.",
		Bad:  "# with --check-files: the certificate is for a.example and www.a.example\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example b.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example www.a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/configuring_https_servers.html#certificate_with_several_names",
	},
}

func runCertificateNameMismatch(p *analyzer.Pass) {
	a := sharedCertAudit(p)
	if len(a.pairs) == 0 {
		return
	}
	servers := map[*parser.Directive]*parser.Server{}
	for _, s := range p.Model().Servers {
		servers[s.Directive] = s
	}
	for _, pair := range a.pairs {
		if pair.chain == nil {
			continue
		}
		leaf := pair.chain.Leaf()
		for _, sd := range pair.servers {
			s := servers[sd]
			if s == nil || !servesTLS(s) {
				continue
			}
			var missing []string
			var at *parser.Directive
			for _, n := range s.Names() {
				covered, ok := certfile.Covers(leaf, n.Spec())
				if ok && !covered {
					missing = append(missing, n.Directive.Args()[n.Arg].Value)
					if at == nil {
						at = n.Directive
					}
				}
			}
			if len(missing) == 0 {
				continue
			}
			d := reportCert(p, pair, "add the names to the certificate (certbot -d NAME), or serve them from a server with a certificate of its own: clients refuse it for them (certificate is not valid for the name)",
				"certificate %q does not cover server_name %s (it covers %s)", certArg(pair.cert), quoteAnd(missing), certfile.Names(leaf))
			d.Related = append(d.Related, parser.Related{File: at.File, Range: at.Name().Range, Message: "the server's names"})
		}
	}
}

// servesTLS reports whether a server accepts TLS: a listen with ssl or
// quic, or the old "ssl on".
func servesTLS(s *parser.Server) bool {
	for _, l := range s.Listens() {
		if l.Spec != nil && (l.Spec.Has(grammar.ParamSSL) || l.Spec.Has(grammar.ParamQUIC)) {
			return true
		}
	}
	if s.Directive.Block != nil {
		for _, d := range s.Directive.Block.Directives {
			if d.Is("ssl") && len(d.Args()) == 1 && d.Args()[0].Value == "on" {
				return true
			}
		}
	}
	return false
}

// quoteAnd quotes names for a message: "a", "b" and "c".
func quoteAnd(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
