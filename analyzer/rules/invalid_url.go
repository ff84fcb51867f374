package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// InvalidURL reports upstream addresses nginx cannot use: in proxy_pass,
// fastcgi_pass, grpc_pass, uwsgi_pass, scgi_pass, memcached_pass, the
// stream proxy_pass and an upstream's server.
var InvalidURL = &analyzer.Rule{
	Code: "NL2016", Name: "invalid-url", Title: "upstream address nginx cannot use", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidURL,
	Doc: analyzer.Doc{
		Text: "nginx parses the address of every `*_pass` and upstream `server` when it reads the " +
			"configuration and refuses to start when:\n\n" +
			"- `proxy_pass` does not start with `http://` or `https://` (`invalid URL prefix`);\n" +
			"- the port is not 1-65535, the host is empty, an IPv6 address is malformed, or a path " +
			"follows an address that cannot have one (`invalid port in upstream \"X\"`, ...);\n" +
			"- `fastcgi_pass`, `grpc_pass`, `uwsgi_pass`, `scgi_pass`, `memcached_pass`, memc's " +
			"`memc_pass` or the stream `proxy_pass` name a host without a port and no `upstream` block " +
			"of that name exists (`no port in upstream \"X\"`; only `proxy_pass` has a default port), " +
			"and a stream upstream's `server` has no port;\n" +
			"- a `proxy_pass` host without a port is a near miss of an `upstream` block's name " +
			"(`http://realy` beside `upstream really`): nginx asks DNS, which does not know the typo " +
			"(`host not found in upstream \"realy\"`); the message says which upstream was meant. " +
			"A name near no upstream (a container's service name) is left to the deployment's DNS;\n" +
			"- a `*_pass` gives a port to a name that an `upstream` block defines (`upstream \"X\" may " +
			"not have port 8080`);\n" +
			"- `proxy_pass` has a URI part (even a lone `/`) in a regex location, a named location, " +
			"inside `if` or inside `limit_except`, where nginx cannot know what to replace;\n" +
			"- an upstream `service=` server lacks `resolve`, has a port, or is an IP address.\n\n" +
			"Addresses with variables are resolved per request and not checked. Host names are not " +
			"resolved (that depends on the machine): nginx may still fail with `host not found`.",
		Bad: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        location ~ \\.php$ {\n" +
			"            fastcgi_pass php-fpm;\n        }\n        location ~ ^/api/ {\n" +
			"            proxy_pass http://127.0.0.1:9000/;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        location ~ \\.php$ {\n" +
			"            fastcgi_pass php-fpm:9000;\n        }\n        location ~ ^/api/ {\n" +
			"            proxy_pass http://127.0.0.1:9000;\n        }\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_pass",
	},
}

// implicitUpstream is an upstream a *_pass creates by naming an address
// that no upstream block defines.
type implicitUpstream struct {
	d     *parser.Directive
	arg   parser.Word
	host  string
	proto parser.Protocol
}

func runInvalidURL(p *analyzer.Pass) {
	m := p.Model()
	target := p.Target
	// Upstream block names by protocol, compared case-insensitively as
	// ngx_http_upstream_add does.
	defined := map[parser.Protocol]map[string]bool{parser.HTTP: {}, parser.Stream: {}}
	for _, u := range m.Upstreams {
		if defined[u.Protocol] == nil {
			continue // an upstream misplaced outside http and stream
		}
		defined[u.Protocol][asciiLower(u.Name)] = true
		checkUpstreamAddrs(p, u, target)
	}
	// known holds, per protocol, the hosts of the upstreams that exist so
	// far: every upstream block, and the implicit upstreams of earlier
	// *_pass directives. ngx_http_upstream_add hands a *_pass without a
	// port any earlier upstream of its host, whatever its port, so only a
	// host nobody named before lacks one (stream: see below).
	known := map[parser.Protocol]map[string]bool{parser.HTTP: {}, parser.Stream: {}}
	for proto, names := range defined {
		for n := range names {
			known[proto][n] = true
		}
	}
	// noPort: the addresses nginx refuses without a port; nearMisses:
	// proxy_pass hosts without a port (they might name an upstream).
	var noPort, nearMisses []implicitUpstream
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if directives.DataBlock(ctx) || len(d.Args()) != 1 {
			return
		}
		name, arg := d.Name().Value, d.Args()[0]
		url := arg.Value
		proto := parser.HTTP
		if ctx&(directives.StreamServer|directives.Stream|directives.StreamUpstream) != 0 {
			proto = parser.Stream
		}
		if name == "proxy_pass" && proto == parser.HTTP {
			host, portless := checkProxyPass(p, d, stack, defined[parser.HTTP])
			if host != "" {
				if portless && !defined[parser.HTTP][host] {
					nearMisses = append(nearMisses, implicitUpstream{d, arg, host, proto})
				}
				known[proto][host] = true
			}
			return
		}
		pp, ok := ngxparse.ParsePass(name, proto == parser.Stream, url)
		if !ok || pp.Vars {
			return
		}
		u := pp.URL
		if u.Err != "" {
			p.Reportf(d.File, arg.Range, "%s in upstream \"%s\"", u.Err, pp.Address)
			return
		}
		if upstreamHasPort(p, d, arg, u, defined[proto]) || u.Unix {
			return
		}
		host := asciiLower(u.Host)
		if u.NoPort && !known[proto][host] {
			noPort = append(noPort, implicitUpstream{d, arg, u.Host, proto})
		}
		// ngx_stream_upstream_add, unlike http's, matches ports exactly:
		// only a portless upstream serves a later portless proxy_pass.
		if proto == parser.HTTP || u.NoPort {
			known[proto][host] = true
		}
	}, directives.PassDirectives()...)
	if len(p.Config.Context) > 0 {
		// A fragment: the upstream blocks its *_pass directives name are
		// likely defined in a file we do not see.
		noPort, nearMisses = nil, nil
	}
	for _, iu := range noPort {
		diag := p.Reportf(iu.d.File, iu.arg.Range, "no port in upstream \"%s\"", iu.host)
		diag.Detail = iu.d.Name().Value + " has no default port, and no upstream block or earlier address is named \"" + iu.host +
			"\"; add the port (" + iu.host + ":9000) or define the upstream"
		if near := upstreamNearMiss(m, iu.host, iu.proto); len(near) > 0 {
			diag.Message += "; did you mean " + quoteList(near) + "?"
		}
	}
	for _, iu := range nearMisses {
		near := upstreamNearMiss(m, iu.host, iu.proto)
		if len(near) == 0 {
			continue
		}
		diag := p.Reportf(iu.d.File, iu.arg.Range, "host not found in upstream \"%s\"; did you mean %s?", iu.host, quoteList(near))
		diag.Detail = "no upstream block is named \"" + iu.host + "\", so nginx looks the name up in DNS at startup and " +
			"refuses to start when it does not resolve; the upstream block " + quoteList(near) + " is one letter or so away"
	}
}

// upstreamNearMiss returns the upstream blocks of proto whose name host
// (no upstream's own) misspells: within didyoumean's edit distance, for a
// name of four letters or more (shorter names are too often another
// host's: "app" beside "api").
func upstreamNearMiss(m *parser.Model, host string, proto parser.Protocol) []string {
	if len(host) < 4 {
		return nil
	}
	lower := asciiLower(host)
	var names []string
	for _, u := range m.Upstreams {
		if u.Protocol != proto {
			continue
		}
		if asciiLower(u.Name) == lower {
			return nil
		}
		if bound := didyoumean.MaxEdits(len(lower)); didyoumean.Distance(lower, asciiLower(u.Name), bound, nil) <= bound {
			names = append(names, u.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// upstreamHasPort reports (and returns true) a *_pass that gives a port
// to the name of an upstream block.
func upstreamHasPort(p *analyzer.Pass, d *parser.Directive, arg parser.Word, u ngxparse.URL, defined map[string]bool) bool {
	if u.NoPort || u.Unix || !defined[asciiLower(u.Host)] {
		return false
	}
	p.Reportf(d.File, arg.Range, "upstream \"%s\" may not have port %d", u.Host, u.Port).Detail =
		"\"" + u.Host + "\" is an upstream block, whose servers carry the ports; drop \":" + strconv.Itoa(u.Port) + "\""
	return true
}

// checkProxyPass follows ngx_http_proxy_pass. It returns the host of the
// implicit upstream the directive creates, or "", and whether no port was
// written.
func checkProxyPass(p *analyzer.Pass, d *parser.Directive, stack []*parser.Directive, defined map[string]bool) (string, bool) {
	arg := d.Args()[0]
	pp, _ := ngxparse.ParsePass("proxy_pass", false, arg.Value)
	switch {
	case pp.Vars:
		return "", false
	case pp.BadPrefix:
		p.Reportf(d.File, arg.Range, "invalid URL prefix").Detail = "proxy_pass takes http:// or https:// and an address, e.g. http://127.0.0.1:8080"
		return "", false
	}
	u := pp.URL
	if u.Err != "" {
		p.Reportf(d.File, arg.Range, "%s in upstream \"%s\"", u.Err, pp.Address)
		return "", false
	}
	if upstreamHasPort(p, d, arg, u, defined) {
		return "", false
	}
	host := ""
	if !u.Unix {
		host = asciiLower(u.Host)
	}
	if u.URI == "" || len(stack) == 0 {
		return host, u.NoPort
	}
	inner := stack[len(stack)-1]
	where := ""
	switch inner.Name().Value {
	case "if":
		where = "inside \"if\""
	case "limit_except":
		where = "inside \"limit_except\""
	case "location":
		if l, err := parser.LocationSpec(inner); err == nil {
			if l.IsRegex {
				where = "in the regex location \"" + l.Path + "\""
			} else if l.Named {
				where = "in the named location \"" + l.Path + "\""
			}
		}
	}
	if where == "" {
		return host, u.NoPort
	}
	p.Reportf(d.File, arg.Range, "\"proxy_pass\" cannot have URI part in location given by regular expression, "+
		"or inside named location, or inside \"if\" statement, or inside \"limit_except\" block").Detail =
		"the URI part \"" + u.URI + "\" replaces the matched location prefix, and there is none " + where +
			"; drop it (rewrite the URI with rewrite ... break if needed)"
	return "", false
}

// checkUpstreamAddrs checks the address of each server of u as
// ngx_http_upstream_server and ngx_stream_upstream_server do.
func checkUpstreamAddrs(p *analyzer.Pass, u *parser.Upstream, target *analyzer.Target) {
	defPort := 80
	if u.Protocol == parser.Stream {
		defPort = 0
	}
	for _, d := range u.Servers {
		if len(d.Args()) == 0 {
			continue
		}
		resolve, service := false, false
		for _, a := range d.Args()[1:] {
			resolve = resolve || a.Value == "resolve"
			service = service || strings.HasPrefix(a.Value, "service=")
		}
		if target.Lacks("1.27.3") {
			// invalid-parameter reports both as unknown to that nginx.
			resolve, service = false, false
		}
		arg := d.Args()[0]
		if service && !resolve {
			p.Reportf(d.File, arg.Range, "service upstream \"%s\" requires \"resolve\" parameter", arg.Value)
			continue
		}
		url := ngxparse.ParseURL(arg.Value, false, defPort)
		switch {
		case url.Err != "":
			p.Reportf(d.File, arg.Range, "%s in upstream \"%s\"", url.Err, arg.Value)
		case u.Protocol == parser.Stream && url.NoPort && !url.Unix && !service:
			p.Reportf(d.File, arg.Range, "no port in upstream \"%s\"", arg.Value).Detail =
				"a stream upstream server needs a port: " + arg.Value + ":PORT"
		case service && !url.NoPort:
			p.Reportf(d.File, arg.Range, "service upstream \"%s\" may not have port", arg.Value).Detail =
				"service= looks the ports up in DNS SRV records"
		case service && (url.Addr || url.Unix):
			p.Reportf(d.File, arg.Range, "service upstream \"%s\" requires domain name", arg.Value)
		}
	}
}
