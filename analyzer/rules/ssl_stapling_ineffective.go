package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// SSLStaplingIneffective reports ssl_stapling on where it cannot work: a
// Let's Encrypt certificate (Let's Encrypt ended OCSP) or no resolver to
// reach the responder.
var SSLStaplingIneffective = &analyzer.Rule{
	Code: "NL3026", Name: "ssl-stapling-ineffective", Title: "ssl_stapling on where it cannot staple", Severity: parser.Warning,
	// Stapling that does not work costs a round trip to the CA; it
	// exposes nothing, so it is no security finding.
	Group: analyzer.Correctness,
	Run:   runSSLStaplingIneffective,
	Doc: analyzer.Doc{
		Text: "OCSP stapling needs an OCSP responder and a way to reach it. Let's Encrypt " +
			"ended its OCSP service in 2025: its certificates carry no responder URL, so with " +
			"`ssl_stapling on` nginx logs a warning for every such certificate and staples " +
			"nothing. Elsewhere nginx resolves the responder's host name with `resolver`; " +
			"without one (and without `ssl_stapling_responder` or `ssl_stapling_file`) stapling " +
			"fails at run time with \"no resolver defined\". Turn stapling off for Let's Encrypt " +
			"certificates, and define a resolver where stapling is meant to work.",
		Bad:  "server {\n    listen 443 ssl;\n    ssl_certificate     /etc/letsencrypt/live/example.com/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem;\n    ssl_stapling on;\n}\n",
		Good: "server {\n    listen 443 ssl;\n    ssl_certificate     /etc/letsencrypt/live/example.com/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem;\n    ssl_stapling off;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_stapling",
	},
}

func runSSLStaplingIneffective(p *analyzer.Pass) {
	if len(p.Index().Named("ssl_stapling")) == 0 {
		return
	}
	// The http level is read once per http block, not once per server.
	outer := map[*parser.Directive]staplingScope{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if d.Block == nil || analyzer.Innermost(stack, "stream") != nil || analyzer.Innermost(stack, "mail") != nil {
			return
		}
		// A server of a snippet has no http block to inherit from.
		var hs staplingScope
		if h := analyzer.Innermost(stack, "http"); h != nil {
			var ok bool
			if hs, ok = outer[h]; !ok {
				hs = readStaplingScope(p.Body(h))
				outer[h] = hs
			}
		}
		s := readStaplingScope(p.Body(d))
		on := s.stapling
		if on == nil {
			on = hs.stapling
		}
		if on == nil || len(on.Args()) != 1 || !strings.EqualFold(on.Args()[0].Value, "on") {
			return
		}
		certs := s.certs
		if len(certs) == 0 {
			certs = hs.certs
		}
		if len(certs) == 0 {
			return // not a TLS server as far as can be seen
		}
		// Report where the server says "on"; when it inherits the
		// setting, at its certificate (the reason the inherited "on"
		// fails here), or at the inherited "on" when both come from http.
		at := on
		if on != s.stapling && len(s.certs) > 0 {
			at = s.certs[0]
		}
		for _, c := range certs {
			if letsEncryptCert(c) {
				if on != s.stapling && len(s.certs) > 0 {
					at = c
				}
				diag := p.ReportDirective(at, "%q %q with the Let's Encrypt certificate %q: Let's Encrypt ended OCSP, there is nothing to staple", "ssl_stapling", "on", c.Args()[0].Value)
				diag.Detail = "turn ssl_stapling off in this server; nginx logs a warning for the certificate on every start"
				return
			}
		}
		// A stapling file needs no responder; a responder URL may carry
		// an address (and one with a name still needs the resolver, but
		// that is for nginx to say).
		if s.resolver == nil && hs.resolver == nil && s.responder == nil && hs.responder == nil && s.file == nil && hs.file == nil {
			diag := p.ReportDirective(at, "%q %q without a %q: nginx cannot reach the OCSP responder", "ssl_stapling", "on", "resolver")
			diag.Detail = "define a resolver (or ssl_stapling_responder with an address) in this server or http"
		}
	}, "server")
}

// staplingScope is what one block sets of the directives stapling depends
// on (nil: not set there).
type staplingScope struct {
	stapling, responder, resolver, file *parser.Directive
	certs                               []*parser.Directive
}

// readStaplingScope reads what a block's directives set of them.
func readStaplingScope(dirs []*parser.Directive) staplingScope {
	var s staplingScope
	for _, d := range dirs {
		switch {
		case d.Is("ssl_stapling"):
			s.stapling = d
		case d.Is("ssl_stapling_responder"):
			s.responder = d
		case d.Is("ssl_stapling_file"):
			s.file = d
		case d.Is("resolver"):
			s.resolver = d
		case d.Is("ssl_certificate"):
			s.certs = append(s.certs, d)
		}
	}
	return s
}

// letsEncryptCert reports whether a certificate's path names Let's
// Encrypt, which ended OCSP.
func letsEncryptCert(d *parser.Directive) bool {
	return len(d.Args()) == 1 && strings.Contains(strings.ToLower(d.Args()[0].Value), "letsencrypt")
}
