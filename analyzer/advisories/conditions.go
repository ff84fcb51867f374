package advisories

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Core and ByPattern are the Features that are no Condition.
const (
	// Core is nginx's core (request parsing, the range filter, ...),
	// which no configuration avoids: not the configuration's finding.
	Core = "core"
	// ByPattern is an advisory a configuration pattern reaches, which
	// the rule cve-config-pattern checks precisely (Patterns).
	ByPattern = "-"
)

// Features names what a configuration must use to be reached by each
// advisory, by CVE, from the advisories' texts (the release's change log
// and the CVE record): a key of Conditions, Core or ByPattern. A test
// keeps every advisory of the generated table here.
var Features = map[string]string{
	"CVE-2026-42533": "-", "CVE-2026-9256": "-", "CVE-2026-42945": "-",
	"CVE-2026-15176": "-", "CVE-2026-93479": "-", "CVE-2026-125283": "-",
	"CVE-2026-60005": "-", "CVE-2026-56434": "ssi",
	"CVE-2026-42530": "http3", "CVE-2026-40460": "http3", "CVE-2024-32760": "http3", "CVE-2024-31079": "http3",
	"CVE-2024-35200": "http3", "CVE-2024-34161": "http3", "CVE-2024-24989": "http3", "CVE-2024-24990": "http3",
	"CVE-2026-95101": "http3", "CVE-2026-121810": "http3", "CVE-2026-90439": "http3",
	"CVE-2026-42055": "h2-upstream-huge-headers", "CVE-2026-42926": "proxy-h2-set-body",
	"CVE-2026-48142": "charset-from-utf8-unbuffered", "CVE-2026-42934": "charset-from-utf8-unbuffered",
	"CVE-2026-42946": "scgi-uwsgi", "CVE-2026-40701": "ocsp-client-verify", "CVE-2026-27654": "dav",
	"CVE-2026-27784": "mp4", "CVE-2026-32647": "mp4", "CVE-2024-7347": "mp4", "CVE-2022-41741": "mp4",
	"CVE-2022-41742": "mp4", "CVE-2018-16845": "mp4", "CVE-2012-2089": "mp4",
	"CVE-2026-27651": "mail", "CVE-2026-28753": "mail", "CVE-2025-53859": "mail", "CVE-2014-3556": "mail",
	"CVE-2026-113425": "mail",
	"CVE-2026-28755":  "stream-ocsp", "CVE-2026-1642": "upstream-ssl",
	"CVE-2026-120967": "stream-verify-client", "CVE-2026-120993": "stream-dyncert-ppv2", "CVE-2026-123640": "ssl-preread",
	"CVE-2026-97629": "ssl-ticket-rotation", "CVE-2026-118899": "http-tls13", "CVE-2026-97205": "ssi-aio",
	"CVE-2025-23419": "ssl-verify-client", "CVE-2014-3616": "ssl", "CVE-2009-3555": "ssl",
	"CVE-2021-23017": "resolver", "CVE-2016-0742": "resolver", "CVE-2016-0746": "resolver",
	"CVE-2016-0747": "resolver", "CVE-2011-4315": "resolver", "CVE-2026-123634": "resolver-subrequests",
	"CVE-2019-9511": "http2", "CVE-2019-9513": "http2", "CVE-2019-9516": "http2",
	"CVE-2018-16843": "http2", "CVE-2018-16844": "http2", "CVE-2026-123007": "http2", "CVE-2026-123633": "http2",
	"CVE-2014-0133": "spdy", "CVE-2014-0088": "spdy",
	"CVE-2013-2070": "proxy", "CVE-2012-1180": "proxy", "CVE-2009-3898": "dav",
	"CVE-2017-7529": "core", "CVE-2016-4450": "core", "CVE-2013-4547": "core", "CVE-2013-2028": "core",
	"CVE-2009-4487": "core", "CVE-2009-2629": "core", "CVE-2009-3896": "core",
}

// Condition is what reaches an advisory: in words (for the finding's
// detail) and as a search that returns the directive to report at, nil
// when the configuration does not reach it. The search gets the target
// version, for defaults that changed (ssl_protocols).
type Condition struct {
	What string
	Find func(p *analyzer.Pass, version string) *parser.Directive
}

// Conditions are the conditions of Features, each as the advisory states
// it.
var Conditions = map[string]Condition{
	"slice":      {"the slice directive", anyNamed("slice")},
	"ssi":        {"ssi on", namedOn("ssi")},
	"mp4":        {"the mp4 directive", anyNamed("mp4")},
	"spdy":       {"SPDY", anyNamed("spdy_headers_comp")},
	"dav":        {"dav_methods", anyNamed("dav_methods")},
	"mail":       {"the mail proxy", anyNamed("mail")},
	"http2":      {"HTTP/2", httpVersionOn("http2", grammar.ParamHTTP2)},
	"http3":      {"HTTP/3", httpVersionOn("http3", grammar.ParamQUIC)},
	"proxy":      {"proxying", anyNamed("proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass")},
	"ssl":        {"TLS", useSSL},
	"resolver":   {"a resolver", anyNamed("resolver")},
	"scgi-uwsgi": {"scgi_pass or uwsgi_pass", anyNamed("scgi_pass", "uwsgi_pass")},
	"ssl-verify-client": {"ssl_verify_client", func(p *analyzer.Pass, _ string) *parser.Directive {
		return firstWhere(p, func(d *parser.Directive) bool { return !d.ArgIs("off") }, "ssl_verify_client")
	}},
	"upstream-ssl":                 {"proxying to an upstream over TLS", upstreamSSL},
	"stream-ocsp":                  {"ssl_ocsp in the stream module", streamNamed("ssl_ocsp")},
	"ocsp-client-verify":           {"ssl_verify_client on or optional with ssl_ocsp on or leaf, and a resolver", ocspClientVerify},
	"charset-from-utf8-unbuffered": {"a charset_map recoding from UTF-8 (source_charset utf-8, charset another one) on a response proxied with proxy_buffering off", charsetFromUTF8Unbuffered},
	"h2-upstream-huge-headers":     {"ignore_invalid_headers off and large_client_header_buffers over 2 MB, proxying to an HTTP/2 (proxy_http_version 2) or gRPC backend", h2UpstreamHugeHeaders},
	"proxy-h2-set-body":            {"proxy_set_body with proxy_http_version 2", proxyH2SetBody},
	"stream-verify-client":         {"ssl_verify_client in the stream module", streamNamed("ssl_verify_client")},
	"stream-dyncert-ppv2":          {"a stream ssl_certificate loaded from variables with proxy_protocol v2", streamDynCertPPv2},
	"ssl-preread":                  {"ssl_preread on", namedOn("ssl_preread")},
	"ssl-ticket-rotation":          {"TLS session tickets whose keys nginx rotates (ssl_session_cache shared, no ssl_session_ticket_key)", sslTicketRotation},
	"http-tls13":                   {"an HTTPS server with TLSv1.3 enabled", httpTLS13},
	"ssi-aio":                      {"ssi on with aio", ssiAIO},
	"resolver-subrequests":         {"a resolver that resolves names at run time (a *_pass with variables, or an upstream server with resolve) where subrequests run (auth_request, ssi, mirror, slice, addition)", resolverSubrequests},
}

// firstWhere returns the first directive of the names that ok accepts.
func firstWhere(p *analyzer.Pass, ok func(*parser.Directive) bool, names ...string) *parser.Directive {
	ix := p.Index()
	for _, i := range ix.Named(names...) {
		if d := ix.Entries[i].Directive; ok(d) {
			return d
		}
	}
	return nil
}

// anyNamed finds the first directive of the names.
func anyNamed(names ...string) func(*analyzer.Pass, string) *parser.Directive {
	return func(p *analyzer.Pass, _ string) *parser.Directive {
		return firstWhere(p, func(*parser.Directive) bool { return true }, names...)
	}
}

// namedOn finds the first "name on".
func namedOn(name string) func(*analyzer.Pass, string) *parser.Directive {
	return func(p *analyzer.Pass, _ string) *parser.Directive {
		return firstWhere(p, func(d *parser.Directive) bool { return d.ArgIs("on") }, name)
	}
}

// streamNamed finds the first directive called name in the stream module
// that is not "off".
func streamNamed(name string) func(*analyzer.Pass, string) *parser.Directive {
	return func(p *analyzer.Pass, _ string) *parser.Directive {
		ix := p.Index()
		for _, i := range ix.Named(name) {
			if e := &ix.Entries[i]; e.Context()&directives.StreamContexts != 0 && !e.Directive.ArgIs("off") {
				return e.Directive
			}
		}
		return nil
	}
}

// withArg returns the first directive called name whose first argument
// starts with prefix.
func withArg(p *analyzer.Pass, name, prefix string) *parser.Directive {
	return firstWhere(p, func(d *parser.Directive) bool {
		return len(d.Args()) > 0 && strings.HasPrefix(strings.ToLower(d.Args()[0].Value), prefix)
	}, name)
}

// listenWith returns the first listen with the parameter.
func listenWith(p *analyzer.Pass, param grammar.ParamKind) *parser.Directive {
	for _, s := range p.Model().Servers {
		for _, l := range s.Listens() {
			if l.Spec != nil && l.Spec.Has(param) {
				return l.Directive
			}
		}
	}
	return nil
}

// httpVersionOn finds HTTP/2 or HTTP/3 turned on: "http2 on" (or http3),
// or a listen with the parameter that turns it on.
func httpVersionOn(name string, param grammar.ParamKind) func(*analyzer.Pass, string) *parser.Directive {
	return func(p *analyzer.Pass, version string) *parser.Directive {
		// "http2 on" where the target predates the directive is no
		// HTTP/2: nginx refuses it (unknown-directive says so).
		if rows := directives.Lookup(name); len(rows) > 0 && !p.Target.Lacks(rows[0].Since) {
			if d := namedOn(name)(p, ""); d != nil {
				return d
			}
		}
		return listenWith(p, param)
	}
}

func useSSL(p *analyzer.Pass, _ string) *parser.Directive {
	if d := anyNamed("ssl_certificate")(p, ""); d != nil {
		return d
	}
	return listenWith(p, grammar.ParamSSL)
}

func upstreamSSL(p *analyzer.Pass, _ string) *parser.Directive {
	if d := withArg(p, "proxy_pass", "https://"); d != nil {
		return d
	}
	return withArg(p, "grpc_pass", "grpcs://")
}

// serverLevels drops the locations of levels: where a server setting
// (ignore_invalid_headers, large_client_header_buffers) is read.
func serverLevels(bs []*parser.Directive) []*parser.Directive {
	var out []*parser.Directive
	for _, b := range bs {
		if !b.Is("location") {
			out = append(out, b)
		}
	}
	return out
}

// eachServer calls fn for every server block of the protocol ("http" or
// "stream") with the blocks it inherits from (its http or stream block,
// then itself) until fn returns a directive, which it returns.
func eachServer(p *analyzer.Pass, protocol string, fn func(blocks []*parser.Directive) *parser.Directive) *parser.Directive {
	var found *parser.Directive
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if found != nil || d.Block == nil || len(stack) == 0 || !stack[len(stack)-1].Is(protocol) {
			return
		}
		found = fn([]*parser.Directive{stack[len(stack)-1], d})
	}, "server")
	return found
}

// eachUse calls fn for every directive of the names with the blocks it
// inherits settings from, until fn returns a directive, which it
// returns.
func eachUse(p *analyzer.Pass, fn func(d *parser.Directive, blocks []*parser.Directive) *parser.Directive, names ...string) *parser.Directive {
	var found *parser.Directive
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if found == nil {
			found = fn(d, analyzer.Levels(stack))
		}
	}, names...)
	return found
}

// ocspClientVerify: CVE-2026-40701 needs a server that verifies client
// certificates (ssl_verify_client on or optional) with OCSP (ssl_ocsp on
// or leaf) and a resolver to reach the responder.
func ocspClientVerify(p *analyzer.Pass, _ string) *parser.Directive {
	if len(p.Index().Named("ssl_ocsp")) == 0 {
		return nil
	}
	return eachServer(p, "http", func(bs []*parser.Directive) *parser.Directive {
		ocsp := p.InEffect(bs, "ssl_ocsp")
		verify := p.InEffect(bs, "ssl_verify_client")
		if ocsp == nil || ocsp.ArgIs("off") || !(verify.ArgIs("on") || verify.ArgIs("optional")) {
			return nil
		}
		if p.InEffect(bs, "resolver") == nil {
			return nil
		}
		return ocsp
	})
}

// charsetFromUTF8Unbuffered: CVE-2026-42934 and CVE-2026-48142 need a
// response recoded from UTF-8 by a charset_map (source_charset utf-8,
// charset another one that a charset_map pairs with utf-8), proxied
// unbuffered (proxy_buffering off) so that a character can arrive split
// over several small buffers.
func charsetFromUTF8Unbuffered(p *analyzer.Pass, _ string) *parser.Directive {
	ix := p.Index()
	if len(ix.Named("charset_map")) == 0 || len(ix.Named("source_charset")) == 0 {
		return nil
	}
	mapped := map[string]bool{}
	for _, i := range ix.Named("charset_map") {
		d := ix.Entries[i].Directive
		if len(d.Args()) != 2 {
			continue
		}
		a, b := strings.ToLower(d.Args()[0].Value), strings.ToLower(d.Args()[1].Value)
		if b == "utf-8" {
			mapped[a] = true
		} else if a == "utf-8" {
			mapped[b] = true
		}
	}
	return eachUse(p, func(_ *parser.Directive, bs []*parser.Directive) *parser.Directive {
		if !p.InEffect(bs, "proxy_buffering").ArgIs("off") || !p.InEffect(bs, "source_charset").ArgIs("utf-8") {
			return nil
		}
		charset := p.InEffect(bs, "charset")
		if charset == nil || len(charset.Args()) != 1 {
			return nil
		}
		if c := strings.ToLower(charset.Args()[0].Value); c == "off" || c == "utf-8" || !mapped[c] {
			return nil
		}
		return charset
	}, "proxy_pass")
}

// maxHTTP2Field is NGX_HTTP_V2_MAX_FIELD: the longest header field the
// HTTP/2 and gRPC proxies encode (127 + 2^21 - 1 bytes). Only a header
// buffer larger than that lets a longer field reach the encoder.
const maxHTTP2Field = 127 + 1<<21 - 1

// h2UpstreamHugeHeaders: CVE-2026-42055 needs "ignore_invalid_headers
// off" and large_client_header_buffers larger than a field the HTTP/2
// encoder holds, proxying to an HTTP/2 or gRPC backend.
func h2UpstreamHugeHeaders(p *analyzer.Pass, _ string) *parser.Directive {
	ix := p.Index()
	if len(ix.Named("ignore_invalid_headers")) == 0 || len(ix.Named("large_client_header_buffers")) == 0 {
		return nil
	}
	return eachUse(p, func(d *parser.Directive, bs []*parser.Directive) *parser.Directive {
		if d.Is("proxy_pass") && !p.InEffect(bs, "proxy_http_version").ArgIs("2") {
			return nil
		}
		srv := serverLevels(bs)
		if !p.InEffect(srv, "ignore_invalid_headers").ArgIs("off") {
			return nil
		}
		l := p.InEffect(srv, "large_client_header_buffers")
		if l == nil || len(l.Args()) != 2 {
			return nil
		}
		if n, ok := ngxparse.ParseSize(l.Args()[1].Value); ok && n > maxHTTP2Field {
			return d
		}
		return nil
	}, "proxy_pass", "grpc_pass")
}

// proxyH2SetBody: CVE-2026-42926 needs proxy_set_body where the request
// goes to an HTTP/2 backend (proxy_http_version 2).
func proxyH2SetBody(p *analyzer.Pass, _ string) *parser.Directive {
	if len(p.Index().Named("proxy_set_body")) == 0 {
		return nil
	}
	return eachUse(p, func(_ *parser.Directive, bs []*parser.Directive) *parser.Directive {
		if p.InEffect(bs, "proxy_set_body") == nil {
			return nil
		}
		if v := p.InEffect(bs, "proxy_http_version"); v.ArgIs("2") {
			return v
		}
		return nil
	}, "proxy_pass")
}

// streamDynCertPPv2: CVE-2026-120993 needs a stream server whose
// certificate is loaded per connection (ssl_certificate with variables)
// and that sends the PROXY protocol version 2 upstream.
func streamDynCertPPv2(p *analyzer.Pass, _ string) *parser.Directive {
	if len(p.Index().Named("proxy_protocol")) == 0 {
		return nil
	}
	return eachServer(p, "stream", func(bs []*parser.Directive) *parser.Directive {
		pp := p.InEffect(bs, "proxy_protocol")
		cert := p.InEffect(bs, "ssl_certificate")
		if !pp.ArgIs("v2") || cert == nil || len(cert.Args()) == 0 || !strings.Contains(cert.Args()[0].Value, "$") {
			return nil
		}
		return pp
	})
}

// sslTicketRotation: CVE-2026-97629 needs session tickets (on by
// default) whose keys nginx makes and rotates itself: an ssl_session_cache
// in shared memory and no ssl_session_ticket_key.
func sslTicketRotation(p *analyzer.Pass, _ string) *parser.Directive {
	if len(p.Index().Named("ssl_session_cache")) == 0 {
		return nil
	}
	return eachServer(p, "http", func(bs []*parser.Directive) *parser.Directive {
		cache := p.InEffect(bs, "ssl_session_cache")
		if cache == nil || p.InEffect(bs, "ssl_session_tickets").ArgIs("off") || p.InEffect(bs, "ssl_session_ticket_key") != nil {
			return nil
		}
		for _, a := range cache.Args() {
			if strings.HasPrefix(a.Value, "shared:") {
				return cache
			}
		}
		return nil
	})
}

// httpTLS13: CVE-2026-118899 needs an HTTPS server of http with TLSv1.3
// enabled: ssl_protocols naming it, or the default, which has it from
// nginx 1.23.4.
func httpTLS13(p *analyzer.Pass, version string) *parser.Directive {
	return eachServer(p, "http", func(bs []*parser.Directive) *parser.Directive {
		var listen *parser.Directive
		for _, d := range p.Body(bs[1]) {
			if d.Is("listen") && d.HasArg("ssl") {
				listen = d
				break
			}
		}
		if listen == nil {
			return nil
		}
		protos := p.InEffect(bs, "ssl_protocols")
		if protos == nil {
			if p.Target.AtLeast("1.23.4") {
				return listen
			}
			return nil
		}
		if protos.HasArg("TLSv1.3") {
			return listen
		}
		return nil
	})
}

// ssiAIO: CVE-2026-97205 needs SSI with asynchronous file I/O in the same
// place (aio on or threads).
func ssiAIO(p *analyzer.Pass, _ string) *parser.Directive {
	if len(p.Index().Named("aio")) == 0 {
		return nil
	}
	// Either may be set further out than the other: look where each is.
	return eachUse(p, func(_ *parser.Directive, bs []*parser.Directive) *parser.Directive {
		ssi := p.InEffect(bs, "ssi")
		if !ssi.ArgIs("on") {
			return nil
		}
		if aio := p.InEffect(bs, "aio"); aio != nil && len(aio.Args()) > 0 && !strings.EqualFold(aio.Args()[0].Value, "off") {
			return ssi
		}
		return nil
	}, "ssi", "aio")
}

// resolverSubrequests: CVE-2026-123634 needs the resolver to resolve the
// same name at once for several subrequests: a resolver in http, names
// resolved at run time (a *_pass address with variables, or an upstream
// server with the resolve parameter), and a module that makes
// subrequests.
func resolverSubrequests(p *analyzer.Pass, _ string) *parser.Directive {
	ix := p.Index()
	var resolver *parser.Directive
	for _, i := range ix.Named("resolver") {
		if e := &ix.Entries[i]; e.Context()&(directives.HTTP|directives.Server|directives.Location) != 0 {
			resolver = e.Directive
			break
		}
	}
	if resolver == nil {
		return nil
	}
	runtime := firstWhere(p, func(d *parser.Directive) bool {
		if d.Is("server") {
			return d.HasArg("resolve")
		}
		return len(d.Args()) > 0 && strings.Contains(d.Args()[0].Value, "$")
	}, "proxy_pass", "fastcgi_pass", "grpc_pass", "uwsgi_pass", "scgi_pass", "memcached_pass", "server")
	if runtime == nil {
		return nil
	}
	sub := firstWhere(p, func(d *parser.Directive) bool {
		return !d.Is("ssi") || d.ArgIs("on")
	}, "auth_request", "ssi", "mirror", "slice", "add_before_body", "add_after_body")
	if sub == nil {
		return nil
	}
	return resolver
}
