package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// SSLCertificateMissing reports TLS that nginx cannot set up for want of
// a certificate or its key.
var SSLCertificateMissing = &analyzer.Rule{
	Code: "NL2040", Name: "ssl-certificate-missing", Title: "TLS without a certificate or key", Severity: parser.Error,
	Run: runSSLCertificateMissing,
	Doc: analyzer.Doc{
		Text: "nginx refuses to start when the default server of an address with `listen ... ssl` has no " +
			"`ssl_certificate` (its own or inherited from `http`) and no `ssl_reject_handshake on` " +
			"(`no \"ssl_certificate\" is defined for the \"listen ... ssl\" directive`, at the server's " +
			"line); when a server has more certificates than `ssl_certificate_key`s (`no " +
			"\"ssl_certificate_key\" is defined for certificate \"...\"`); for `ssl on` without a " +
			"certificate; and, with lua-nginx-module, for `ssl_certificate_by_lua*` or " +
			"`ssl_client_hello_by_lua*` in a server without TLS (`no ssl configured for the server`). " +
			"A stream or mail server with `listen ... ssl` (or mail's `starttls on`) needs a certificate " +
			"in the server or its stream or mail block, at that directive's line. " +
			"Other servers on the address need no certificate of their own: they borrow the default " +
			"server's until SNI picks them.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name example.com;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name example.com;\n        ssl_certificate /etc/nginx/example.com.crt;\n        ssl_certificate_key /etc/nginx/example.com.key;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/configuring_https_servers.html",
	},
}

// tlsConf is what one http server (or http itself) says about TLS.
type tlsConf struct {
	certs, keys []*parser.Directive
	reject      bool
	// rejectSet is set when ssl_reject_handshake appears (on or off).
	rejectSet bool
	sslOn     *parser.Directive
	luaCert   *parser.Directive
	// The files a TLS context loads besides certificates (the last of
	// each directive), and whether client certificates are verified.
	dhparam, trusted, crl, client *parser.Directive
	verify                        *parser.Directive
}

// tlsFacts is the TLS settings of every http server, read once per run.
type tlsFacts struct {
	confs   map[*parser.Directive]*tlsConf
	http    *tlsConf
	servers []int32
}

// tlsDirectives are the directives tlsFacts reads.
var tlsDirectives = []string{"ssl_certificate", "ssl_certificate_key", "ssl_reject_handshake", "ssl",
	"ssl_certificate_by_lua_block", "ssl_certificate_by_lua_file", "ssl_client_hello_by_lua_block",
	"ssl_client_hello_by_lua_file", "ssl_dhparam", "ssl_trusted_certificate", "ssl_crl",
	"ssl_client_certificate", "ssl_verify_client"}

// tlsFactsResult is collectTLS once per run.
var tlsFactsResult = &analyzer.Result[struct{}, *tlsFacts]{
	Name:    "TLS facts",
	Compute: func(p *analyzer.Pass, _ struct{}) *tlsFacts { return collectTLS(p.Index()) },
}

func sharedTLSFacts(p *analyzer.Pass) *tlsFacts { return tlsFactsResult.Get(p, struct{}{}) }

func collectTLS(ix *analyzer.Index) *tlsFacts {
	t := &tlsFacts{confs: map[*parser.Directive]*tlsConf{}}
	get := func(d *parser.Directive) *tlsConf {
		c := t.confs[d]
		if c == nil {
			c = &tlsConf{}
			t.confs[d] = c
		}
		return c
	}
	for _, name := range tlsDirectives {
		for _, i := range ix.Named(name) {
			e := &ix.Entries[i]
			if e.Context()&directives.StreamContexts != 0 || e.Context() == 0 || e.Parent < 0 {
				continue
			}
			// The enclosing server, or http.
			owner := ix.Entries[e.Parent].Directive
			if !owner.Is("server") && !owner.Is("http") {
				continue
			}
			c := get(owner)
			d := e.Directive
			switch d.Name().Value {
			case "ssl_certificate":
				c.certs = append(c.certs, d)
			case "ssl_certificate_key":
				c.keys = append(c.keys, d)
			case "ssl_reject_handshake":
				c.rejectSet = true
				c.reject = len(d.Args()) == 1 && d.Args()[0].Value == "on"
			case "ssl":
				if len(d.Args()) == 1 && d.Args()[0].Value == "on" {
					c.sslOn = d
				}
			case "ssl_dhparam":
				c.dhparam = d
			case "ssl_trusted_certificate":
				c.trusted = d
			case "ssl_crl":
				c.crl = d
			case "ssl_client_certificate":
				c.client = d
			case "ssl_verify_client":
				c.verify = d
			default:
				c.luaCert = d
			}
		}
	}
	// The http block whose settings servers inherit.
	for _, i := range ix.Named("http") {
		if ix.Entries[i].Parent < 0 {
			t.http = t.confs[ix.Entries[i].Directive]
		}
	}
	if t.http == nil {
		t.http = &tlsConf{}
	}
	if len(t.confs) > 0 {
		// Without any TLS directive no server needs a look.
		for _, i := range ix.Named("server") {
			e := &ix.Entries[i]
			if e.Parent >= 0 && ix.Entries[e.Parent].Directive.Is("http") && e.Directive.Block != nil {
				t.servers = append(t.servers, i)
			}
		}
	}
	return t
}

// merged returns a server's settings after ngx_http_ssl_merge_srv_conf.
func (t *tlsFacts) merged(s *parser.Directive) tlsConf {
	c := t.confs[s]
	if c == nil {
		c = &tlsConf{}
	}
	http := t.http
	m := *c
	if len(m.certs) == 0 {
		m.certs = http.certs
	}
	if len(m.keys) == 0 {
		m.keys = http.keys
	}
	if !c.rejectSet {
		m.reject = http.reject
	}
	for _, f := range []struct{ dst, src **parser.Directive }{
		{&m.sslOn, &http.sslOn}, {&m.luaCert, &http.luaCert}, {&m.dhparam, &http.dhparam}, {&m.trusted, &http.trusted},
		{&m.crl, &http.crl}, {&m.client, &http.client}, {&m.verify, &http.verify},
	} {
		if *f.dst == nil {
			*f.dst = *f.src
		}
	}
	return m
}

// hasContext reports whether nginx creates a TLS context for the merged
// server (and so loads its files).
func (m *tlsConf) hasContext() bool {
	return len(m.certs) > 0 || m.reject || m.sslOn != nil
}

func runSSLCertificateMissing(p *analyzer.Pass) {
	if !p.WholeConfig() {
		return
	}
	streamMailTLS(p)
	ix := p.Index()
	t := sharedTLSFacts(p)
	merged := t.merged
	reported := map[*parser.Directive]bool{}
	once := func(d *parser.Directive) bool {
		if reported[d] {
			return false
		}
		reported[d] = true
		return true
	}
	for _, i := range t.servers {
		e := &ix.Entries[i]
		m := merged(e.Directive)
		switch {
		case m.sslOn != nil && len(m.certs) == 0 && !m.reject:
			if once(m.sslOn) {
				diag := p.ReportDirective(m.sslOn, `no "ssl_certificate" is defined for the "ssl" directive`)
				diag.Detail = "add ssl_certificate and ssl_certificate_key to the server (and prefer listen ... ssl to the deprecated ssl on)"
			}
		case len(m.certs) > len(m.keys):
			last := m.certs[len(m.certs)-1]
			if once(last) && len(last.Args()) > 0 {
				diag := p.ReportDirective(last, "no \"ssl_certificate_key\" is defined for certificate \"%s\"", last.Args()[0].Value)
				diag.Detail = "each ssl_certificate needs an ssl_certificate_key, in the same order; nginx refuses to start"
			}
		}
		if m.luaCert != nil && len(m.certs) == 0 && !m.reject && m.sslOn == nil && once(m.luaCert) {
			diag := p.ReportDirective(m.luaCert, "no ssl configured for the server")
			diag.Detail = "lua-nginx-module needs the server to have TLS set up (ssl_certificate and ssl_certificate_key), even if the Lua code picks the certificate"
		}
	}
	// ngx_http_ssl_init: the default server of every address with ssl
	// needs a certificate or ssl_reject_handshake.
	// A server is reported once, naming every address (and run of ports
	// of a range) it is the default server of.
	var missing []routing.Run[*parser.Directive]
	shared := sharedAddresses(p, parser.HTTP)
	for i := range shared {
		a := &shared[i]
		if a.Protocols&routing.SSL == 0 {
			continue
		}
		dflt := a.Default
		if reported[dflt.Directive] {
			continue
		}
		m := merged(dflt.Directive)
		if len(m.certs) > 0 || m.reject {
			continue
		}
		missing = append(missing, routing.Run[*parser.Directive]{Item: dflt.Directive, Addr: a.Cost})
	}
	self := func(d *parser.Directive) *parser.Directive { return d }
	servers, addrs := routing.MergeRunsPer(missing, self, func(a, b *parser.Directive) bool { return a == b })
	for i, s := range servers {
		diag := p.ReportDirective(s, `no "ssl_certificate" is defined for the "listen ... ssl" directive`)
		diag.Detail = "this server is the default server of " + addrs[i] + ", which has ssl: give it ssl_certificate and ssl_certificate_key, or ssl_reject_handshake on"
	}
}

// streamMailTLS reports the stream and mail servers that turn TLS on
// without a certificate: ngx_stream_ssl_merge_conf and
// ngx_mail_ssl_merge_conf refuse a "listen ... ssl" (and mail's
// "starttls on|only") when neither the server nor its stream or mail
// block has an ssl_certificate, at that directive's line.
func streamMailTLS(p *analyzer.Pass) {
	// What each stream or mail block says, read once.
	outer := map[*parser.Directive]bool{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if d.Block == nil || len(stack) == 0 {
			return
		}
		parent := stack[len(stack)-1]
		if !parent.Is("stream") && !parent.Is("mail") {
			return
		}
		has, ok := outer[parent]
		if !ok {
			has = hasCertificate(p.Body(parent))
			outer[parent] = has
		}
		dirs := p.Body(d)
		if has || hasCertificate(dirs) {
			return
		}
		for _, x := range dirs {
			switch {
			case x.Is("listen") && len(x.Args()) > 0:
				if spec, err := grammar.ParseListen(x.ArgValues()); err == nil && spec.Has(grammar.ParamSSL) {
					p.ReportDirective(x, "no %q is defined for the %q directive", "ssl_certificate", "listen ... ssl").Detail =
						"add ssl_certificate and ssl_certificate_key to this server or to the " + parent.Name().Value + " block; nginx refuses to start"
					return
				}
			case x.Is("starttls") && parent.Is("mail") && len(x.Args()) == 1 && !strings.EqualFold(x.Args()[0].Value, "off"):
				p.ReportDirective(x, "no %q is defined for the %q directive", "ssl_certificate", "starttls").Detail =
					"add ssl_certificate and ssl_certificate_key to this server or to the mail block; nginx refuses to start"
				return
			}
		}
	}, "server")
}

func hasCertificate(dirs []*parser.Directive) bool {
	for _, d := range dirs {
		if d.Is("ssl_certificate") {
			return true
		}
	}
	return false
}
