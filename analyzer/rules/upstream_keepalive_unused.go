package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UpstreamKeepaliveUnused reports requests to an upstream with keepalive
// that close the upstream connection anyway.
var UpstreamKeepaliveUnused = &analyzer.Rule{
	Code: "NL4012", Name: "upstream-keepalive-unused", Title: "upstream keepalive that the requests sent to it cannot use", Severity: parser.Warning,
	Run: runUpstreamKeepaliveUnused,
	Doc: analyzer.Doc{
		Text: "`keepalive` in an `upstream` keeps idle connections to its servers for the next request, " +
			"but only a request that lets the connection live can reuse it. Before nginx 1.29.7 " +
			"`proxy_pass` speaks HTTP/1.0 and sends `Connection: close` unless the location says " +
			"`proxy_http_version 1.1;` and `proxy_set_header Connection \"\";` (1.29.7 made both the " +
			"default); `fastcgi_pass` always needs `fastcgi_keep_conn on;`. Otherwise every request " +
			"opens a new connection and the pool stays empty. Remember that a level with any " +
			"`proxy_set_header` of its own inherits none from outside. For nginx 1.29.7 and newer only " +
			"an explicit `proxy_http_version 1.0` or `Connection close` is reported; with no target " +
			"named, the findings that depend on the version are information.",
		Bad: "events {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n        keepalive 16;\n    }\n" +
			"    server {\n        listen 80;\n        location / {\n            proxy_pass http://backend;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n        keepalive 16;\n    }\n" +
			"    server {\n        listen 80;\n        location / {\n            proxy_http_version 1.1;\n" +
			"            proxy_set_header Connection \"\";\n            proxy_pass http://backend;\n        }\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#keepalive",
	},
}

// proxyHTTP11Since is the release from which proxy_pass speaks HTTP/1.1
// and clears Connection by default.
const proxyHTTP11Since = "1.29.7"

func runUpstreamKeepaliveUnused(p *analyzer.Pass) {
	ix := p.Index()
	pooled := map[string]*parser.Directive{} // http upstream name (lower case) -> its keepalive
	for _, i := range ix.Named("keepalive") {
		e := &ix.Entries[i]
		if e.Context() != directives.Upstream || e.Parent < 0 {
			continue
		}
		if up := ix.Entries[e.Parent].Directive; len(up.Args()) == 1 {
			pooled[strings.ToLower(up.Args()[0].Value)] = e.Directive
		}
	}
	if len(pooled) == 0 {
		return
	}
	// The directives a pass inherits, by the block they are in.
	version := byParent(ix, "proxy_http_version")
	keepConn := byParent(ix, "fastcgi_keep_conn")
	headers := map[int32][]*parser.Directive{}
	for _, i := range ix.Named("proxy_set_header") {
		headers[ix.Entries[i].Parent] = append(headers[ix.Entries[i].Parent], ix.Entries[i].Directive)
	}
	target := p.Target
	newDefaults := target.Known() && !target.Lacks(proxyHTTP11Since)
	for _, name := range []string{"proxy_pass", "fastcgi_pass"} {
		for _, i := range ix.Named(name) {
			e := &ix.Entries[i]
			if e.Context()&directives.StreamContexts != 0 || len(e.Directive.Args()) != 1 {
				continue
			}
			// An address without a port and variables may name an
			// upstream block.
			u, ok := symbols.ParsePass(e.Directive, false)
			if !ok || !u.NoPort {
				continue
			}
			host := u.Text
			ka := pooled[u.Host]
			if ka == nil {
				continue
			}
			pool := fmt.Sprintf("upstream %q keeps idle connections (%s)", host, strings.Join(append([]string{ka.Name().Value}, ka.ArgValues()...), " "))
			if name == "fastcgi_pass" {
				if d := inherited(ix, keepConn, i); d == nil || len(d.Args()) != 1 || !strings.EqualFold(d.Args()[0].Value, "on") {
					diag := p.ReportDirective(e.Directive, "%s, but without fastcgi_keep_conn on nginx closes each FastCGI connection after the response", pool)
					diag.Detail = "add fastcgi_keep_conn on; where this fastcgi_pass is"
				}
				continue
			}
			reportProxyKeepalive(p, e.Directive, pool, inherited(ix, version, i), connectionHeader(ix, headers, i), target, newDefaults)
		}
	}
}

// reportProxyKeepalive reports a proxy_pass to a pooled upstream whose
// requests do not keep the connection: HTTP/1.0, or Connection: close,
// set explicitly or left to the defaults of nginx before 1.29.7.
func reportProxyKeepalive(p *analyzer.Pass, d *parser.Directive, pool string, version *parser.Directive, conn connHeader, target *analyzer.Target, newDefaults bool) {
	var fix []string
	explicit := false
	switch {
	case version != nil && len(version.Args()) == 1 && version.Args()[0].Value == "1.0":
		fix, explicit = append(fix, "proxy_http_version 1.1; (not 1.0)"), true
	case version == nil && !newDefaults:
		fix = append(fix, "proxy_http_version 1.1;")
	}
	switch {
	case conn.set && strings.EqualFold(conn.value, "close"):
		fix, explicit = append(fix, `proxy_set_header Connection ""; (not close)`), true
	case !conn.set && !newDefaults:
		fix = append(fix, `proxy_set_header Connection "";`)
	}
	if len(fix) == 0 {
		return
	}
	var diag *parser.Diagnostic
	switch {
	case explicit:
		diag = p.ReportDirective(d, "%s, but the requests sent here close the connection", pool)
	case target.Known():
		diag = p.ReportDirective(d, "%s, but nginx %s sends these requests with HTTP/1.0 or Connection: close", pool, target.NginxVersion())
		p.AssumeTarget(diag) // the defaults of that release
	default:
		diag = p.ReportDirective(d, "%s, but an nginx before %s sends these requests with HTTP/1.0 or Connection: close", pool, proxyHTTP11Since)
		if diag.Severity == p.Rule.Severity {
			// Whether it applies depends on a version nobody named.
			diag.Severity = parser.Info
		}
	}
	diag.Detail = "every request opens a new upstream connection; set " + strings.Join(fix, " and ") +
		" where this proxy_pass is (a level with any proxy_set_header of its own inherits none from outside)"
}

// byParent maps each block to the last directive name in it.
func byParent(ix *analyzer.Index, name string) map[int32]*parser.Directive {
	out := map[int32]*parser.Directive{}
	for _, i := range ix.Named(name) {
		out[ix.Entries[i].Parent] = ix.Entries[i].Directive
	}
	return out
}

// inherited returns the directive of by that entry i's blocks give it:
// the one in its own block, else the nearest enclosing one.
func inherited(ix *analyzer.Index, by map[int32]*parser.Directive, i int32) *parser.Directive {
	for b := ix.Entries[i].Parent; ; b = ix.Entries[b].Parent {
		if d, ok := by[b]; ok {
			return d
		}
		if b < 0 {
			return nil
		}
	}
}

// connHeader is the Connection header a request carries to the upstream.
type connHeader struct {
	set   bool // a proxy_set_header Connection applies
	value string
}

// connectionHeader applies proxy_set_header's inheritance: the nearest
// level with any proxy_set_header gives all of them.
func connectionHeader(ix *analyzer.Index, headers map[int32][]*parser.Directive, i int32) connHeader {
	for b := ix.Entries[i].Parent; ; b = ix.Entries[b].Parent {
		if ds, ok := headers[b]; ok {
			for _, d := range ds {
				if len(d.Args()) == 2 && strings.EqualFold(d.Args()[0].Value, "Connection") {
					return connHeader{set: true, value: d.Args()[1].Value}
				}
			}
			return connHeader{}
		}
		if b < 0 {
			return connHeader{}
		}
	}
}
