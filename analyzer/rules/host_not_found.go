package rules

import (
	"context"
	"net"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// HostNotFound reports, when asked to, the host names nginx resolves at
// startup that do not resolve here.
var HostNotFound = &analyzer.Rule{
	Code: "NL2044", Name: "host-not-found", Title: "host name nginx resolves at startup does not resolve here", Severity: parser.Error,
	Run:     runHostNotFound,
	Host:    true,
	Options: []analyzer.Option{analyzer.CheckFilesOption.Decl()},
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`), like `missing-file`: " +
			"a name that does not resolve in a repository's CI says nothing about the servers. On the " +
			"host itself nginx resolves, once at startup, the host of a `proxy_pass` (and `fastcgi_pass`, " +
			"`grpc_pass`, ...) that names no `upstream` block, of an upstream's `server` without " +
			"`resolve`, of a `listen` and of a `resolver`, and refuses to start when one does not " +
			"resolve: `host not found in upstream \"backend.internal\"`. Names with variables are " +
			"resolved per request and not checked.",
		Bad:  "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://backend.invalid:8080;\n        }\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n    }\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://backend;\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#server",
	},
}

// lookupTimeout bounds one name lookup.
const lookupTimeout = 3 * time.Second

func runHostNotFound(p *analyzer.Pass) {
	if !p.WholeConfig() {
		return
	}
	ix := p.Index()
	resolved := map[string]bool{}
	resolves := func(host string) bool {
		if ok, seen := resolved[host]; seen {
			return ok
		}
		ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
		addrs, err := net.DefaultResolver.LookupHost(ctx, host)
		cancel()
		ok := err == nil && len(addrs) > 0
		resolved[host] = ok
		return ok
	}
	report := func(d *parser.Directive, w parser.Word, host, msg string) {
		if host == "" || net.ParseIP(host) != nil || resolves(host) {
			return
		}
		diag := p.Reportf(d.File, w.Range, "%s", msg)
		diag.Detail = host + " does not resolve on this machine; nginx resolves it at startup and refuses to start"
	}
	for _, name := range directives.PassDirectives() {
		for _, i := range ix.Named(name) {
			e := &ix.Entries[i]
			if e.Context() == 0 || len(e.Directive.Args()) == 0 {
				continue
			}
			// An upstream block, which a *_pass names instead of a host.
			u, ok := symbols.ParsePass(e.Directive, nsOf(e) == nsStream)
			if !ok || symbols.Of(p).Defined(symbols.UpstreamSymbol(u.Host, nsOf(e) == nsStream)) {
				continue
			}
			report(e.Directive, u.Word, u.Text, `host not found in upstream "`+u.Text+`"`)
		}
	}
	for _, i := range ix.Named("server") {
		e := &ix.Entries[i]
		d := e.Directive
		if e.Parent < 0 || len(d.Args()) == 0 || d.Block != nil || !ix.Entries[e.Parent].Directive.Is("upstream") {
			continue
		}
		resolve := false
		for _, a := range d.Args()[1:] {
			resolve = resolve || a.Value == "resolve"
		}
		if addr := d.Args()[0].Value; !resolve && !strings.Contains(addr, "$") {
			report(d, d.Args()[0], hostOf(addr), `host not found in upstream "`+addr+`"`)
		}
	}
	for _, i := range ix.Named("listen") {
		d := ix.Entries[i].Directive
		if len(d.Args()) == 0 || ix.Entries[i].Context() == 0 {
			continue
		}
		addr := d.Args()[0].Value
		if !strings.Contains(addr, ":") && !strings.Contains(addr, ".") {
			continue // a port alone, or a malformed word
		}
		host := hostOf(addr)
		if host == "*" {
			continue
		}
		report(d, d.Args()[0], host, `host not found in "`+addr+`" of the "listen" directive`)
	}
	for _, i := range ix.Named("resolver") {
		d := ix.Entries[i].Directive
		for _, a := range d.Args() {
			if strings.Contains(a.Value, "=") {
				continue // valid=, ipv6=, status_zone=
			}
			report(d, a, hostOf(a.Value), `host not found in resolver "`+a.Value+`"`)
		}
	}
}

// nsOf is the variable namespace (http or stream) of an entry.
func nsOf(e *analyzer.Entry) varNamespace {
	if e.Context()&directives.StreamContexts != 0 {
		return nsStream
	}
	return nsHTTP
}

// hostOf returns the host of "host", "host:port", "[v6]:port" or
// "unix:/path" ("" for the last two: nothing to resolve).
func hostOf(addr string) string {
	if strings.HasPrefix(addr, "unix:") || strings.HasPrefix(addr, "[") {
		return ""
	}
	if h, _, ok := strings.Cut(addr, ":"); ok {
		return h
	}
	return addr
}
