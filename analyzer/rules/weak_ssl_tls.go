package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// WeakSSLTLS reports obsolete protocol versions and weak cipher suites.
var WeakSSLTLS = &analyzer.Rule{
	Code: "NL3010", Name: "weak-ssl-tls", Title: "obsolete TLS protocol or weak cipher enabled", Severity: parser.Warning,
	Run: runWeakSSLTLS,
	Doc: analyzer.Doc{
		Text: "SSLv2 and SSLv3 are broken (DROWN, POODLE); TLS 1.0 and 1.1 are deprecated (RFC 8996) " +
			"and refused by current browsers. RC4, DES and 3DES, MD5-based, export-grade, NULL and " +
			"anonymous (aNULL, ADH) cipher suites give no or weak protection. Enable " +
			"`ssl_protocols TLSv1.2 TLSv1.3;` and either keep nginx's default `ssl_ciphers` or use a " +
			"current recommendation such as Mozilla's intermediate list. Ciphers excluded with `!` " +
			"or `-` are not reported.",
		Bad:  "server {\n    listen 443 ssl;\n    ssl_protocols TLSv1 TLSv1.1 TLSv1.2;\n    ssl_ciphers RC4:HIGH;\n}\n",
		Good: "server {\n    listen 443 ssl;\n    ssl_protocols TLSv1.2 TLSv1.3;\n    ssl_ciphers HIGH:!aNULL:!MD5;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_protocols",
	},
}

var weakProtocols = map[string]bool{"sslv2": true, "sslv3": true, "tlsv1": true, "tlsv1.1": true}

// weakCipher reports whether an OpenSSL cipher-string token (not an
// exclusion) enables a weak suite.
func weakCipher(tok string) bool {
	t := strings.ToUpper(strings.TrimPrefix(tok, "+"))
	switch t {
	case "RC4", "DES", "3DES", "MD5", "NULL", "ENULL", "ANULL", "EXPORT", "EXP", "LOW", "EXPORT40", "EXPORT56", "ADH", "AECDH", "SEED", "IDEA", "RC2":
		return true
	}
	for _, part := range strings.Split(t, "-") {
		switch part {
		case "RC4", "DES", "3DES", "MD5", "NULL", "EXP", "EXPORT", "ADH", "AECDH", "RC2", "IDEA", "SEED", "ANON":
			return true
		case "CBC3":
			return true
		}
	}
	return strings.Contains(t, "DES-CBC3")
}

func runWeakSSLTLS(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		switch d.Name.Value {
		case "ssl_protocols", "proxy_ssl_protocols", "grpc_ssl_protocols", "uwsgi_ssl_protocols":
			var weak, kept []string
			for _, a := range d.Args {
				if weakProtocols[strings.ToLower(a.Value)] {
					weak = append(weak, a.Value)
				} else {
					kept = append(kept, d.File.Src[a.Range.Start:a.Range.End])
				}
			}
			if len(weak) > 0 {
				diag := p.ReportDirective(d, "%q enables obsolete %s", d.Name.Value, strings.Join(weak, ", "))
				diag.Detail = "SSLv2/SSLv3 are broken and TLS 1.0/1.1 deprecated (RFC 8996); use \"TLSv1.2 TLSv1.3\""
				// The fix keeps the strong versions listed; a list of
				// only weak ones becomes the modern pair.
				if len(kept) == 0 {
					kept = []string{"TLSv1.2", "TLSv1.3"}
				}
				args := parser.Range{Start: d.Args[0].Range.Start, End: d.Args[len(d.Args)-1].Range.End}
				diag.Edits = []parser.Edit{{File: d.File, Range: args, NewText: strings.Join(kept, " ")}}
			}
		case "ssl_ciphers", "proxy_ssl_ciphers", "grpc_ssl_ciphers", "uwsgi_ssl_ciphers":
			if len(d.Args) != 1 {
				return
			}
			var weak, kept []string
			for _, tok := range strings.FieldsFunc(d.Args[0].Value, func(r rune) bool { return r == ':' || r == ',' || r == ' ' }) {
				if !strings.HasPrefix(tok, "!") && !strings.HasPrefix(tok, "-") && weakCipher(tok) {
					weak = append(weak, tok)
					continue
				}
				kept = append(kept, tok)
			}
			if len(weak) > 0 {
				diag := p.Reportf(d.File, d.Args[0].Range, "%q enables weak ciphers: %s", d.Name.Value, strings.Join(weak, ", "))
				diag.Detail = "remove them, exclude them with \"!\", or use nginx's default cipher list"
				// The fix drops the weak suites and keeps the rest as
				// written; with nothing strong left, nginx's default.
				if !hasEnabling(kept) {
					kept = []string{"HIGH", "!aNULL", "!MD5"}
				}
				diag.Edits = []parser.Edit{replaceArgEdit(d.File, d.Args[0], strings.Join(kept, ":"))}
			}
		}
	}, "ssl_protocols", "proxy_ssl_protocols", "grpc_ssl_protocols", "uwsgi_ssl_protocols", "ssl_ciphers", "proxy_ssl_ciphers", "grpc_ssl_ciphers", "uwsgi_ssl_ciphers")
}

// hasEnabling reports whether a cipher list enables anything (a token
// that is not an exclusion).
func hasEnabling(toks []string) bool {
	for _, t := range toks {
		if !strings.HasPrefix(t, "!") && !strings.HasPrefix(t, "-") {
			return true
		}
	}
	return false
}
