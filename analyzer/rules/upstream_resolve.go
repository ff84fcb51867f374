package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// resolveSince is the release that gave an open-source upstream's server
// the resolve parameter (before, invalid-parameter refuses it).
const resolveSince = "1.27.3"

// checkUpstreamResolve makes the first check of
// ngx_http_upstream_init_round_robin (and the stream one) on an upstream
// whose server names are resolved at run time: a server with "resolve" and
// a host name needs the upstream's "zone". nginx reports it after the whole
// configuration is read, naming the upstream's file and line in the
// message; the finding stays at the upstream. The check after it, a
// resolver for such a server, is stale-dns-cache's.
func checkUpstreamResolve(p *analyzer.Pass) {
	if p.Target.Lacks(resolveSince) {
		return
	}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if d.Block == nil || len(d.Args) != 1 || ctx&(directives.HTTP|directives.Stream) == 0 {
			return
		}
		body := p.Body(d)
		if missingInclude(p.Config, d.Block.Directives) {
			return // the missing file may hold the zone
		}
		var named *parser.Directive // the first server resolved at run time
		zone := false
		for _, c := range body {
			switch c.Name.Value {
			case "zone":
				zone = true
			case "server":
				if named == nil && resolvedAtRunTime(c) {
					named = c
				}
			}
		}
		if named == nil {
			return
		}
		if !zone {
			diag := p.ReportDirective(d, "resolving names at run time requires upstream \"%s\" to be in shared memory", d.Args[0].Value)
			diag.Detail = "a server with \"resolve\" keeps its addresses in the upstream's shared memory zone: add \"zone " +
				d.Args[0].Value + " 64k;\" to the upstream, or drop resolve"
			diag.Related = []parser.Related{{File: named.File, Range: named.Name.Range, Message: "resolved at run time"}}
		}
	}, "upstream")
}

// resolvedAtRunTime reports whether an upstream's server has "resolve"
// and a name to resolve: ngx_http_upstream_server keeps the host only
// when the address is no IP literal or unix socket.
func resolvedAtRunTime(d *parser.Directive) bool {
	if len(d.Args) < 2 {
		return false
	}
	resolve := false
	for _, a := range d.Args[1:] {
		resolve = resolve || a.Value == "resolve"
	}
	if !resolve {
		return false
	}
	u := ngxparse.ParseURL(d.Args[0].Value, false, 80)
	return u.Err == "" && !u.Unix && !u.Addr && u.Host != ""
}
