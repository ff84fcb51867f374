package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownZone reports a shared memory zone that is used but never given
// a size, and a zone name used by two different modules.
var UnknownZone = &analyzer.Rule{
	Code: "NL2038", Name: "unknown-zone", Title: "shared memory zone is not defined", Severity: parser.Error,
	Run: runUnknownZone,
	Doc: analyzer.Doc{
		Text: "`limit_req zone=x`, `limit_conn x`, `proxy_cache x` (and `fastcgi_cache`, `scgi_cache`, " +
			"`uwsgi_cache`) and an upstream's `zone x` without a size use a shared memory zone that " +
			"another directive must create with a size: `limit_req_zone ... zone=x:10m`, " +
			"`limit_conn_zone ... zone=x:10m`, `proxy_cache_path ... keys_zone=x:10m`, an upstream's " +
			"`zone x 64k`. Where it is anywhere in the configuration does not matter. Without it nginx " +
			"refuses to start: `zero size shared memory zone \"x\"` (with no line number), or " +
			"`\"proxy_cache\" zone \"x\" is unknown`. A zone name is also global across modules: " +
			"`limit_req_zone ... zone=x:10m` and `limit_conn x 1` clash (`the shared memory zone \"x\" is " +
			"already declared for a different use`).",
		Bad:  "events {}\nhttp {\n    limit_req_zone $binary_remote_addr zone=one:10m rate=1r/s;\n    server {\n        listen 80;\n        limit_req zone=on;\n    }\n}\n",
		Good: "events {}\nhttp {\n    limit_req_zone $binary_remote_addr zone=one:10m rate=1r/s;\n    server {\n        listen 80;\n        limit_req zone=one;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_limit_req_module.html#limit_req_zone",
	},
}

// zoneRef is one directive that adds a shared memory zone
// (ngx_shared_memory_add): a definition with a size, or a use.
type zoneRef struct {
	name string
	// tag is the module that owns the zone (nginx compares tags).
	tag   string
	sized bool
	d     *parser.Directive
	word  parser.Word
}

// zoneOf returns the zone a directive adds, if any.
func zoneOf(e *analyzer.Entry) (zoneRef, bool) {
	d := e.Directive
	stream := e.Context()&directives.StreamContexts != 0
	proto := "http "
	if stream {
		proto = "stream "
	}
	byPrefix := func(prefix, tag string) (zoneRef, bool) {
		for _, a := range d.Args {
			if v, ok := strings.CutPrefix(a.Value, prefix); ok {
				name, size, _ := strings.Cut(v, ":")
				return zoneRef{name: name, tag: tag, sized: size != "" || !strings.Contains(v, ":"), d: d, word: a}, true
			}
		}
		return zoneRef{}, false
	}
	switch name := d.Name.Value; name {
	case "limit_req_zone":
		return byPrefix("zone=", proto+"limit_req")
	case "limit_conn_zone":
		return byPrefix("zone=", proto+"limit_conn")
	case "limit_req":
		r, ok := byPrefix("zone=", proto+"limit_req")
		r.sized = false
		return r, ok
	case "limit_conn":
		if len(d.Args) == 2 {
			return zoneRef{name: d.Args[0].Value, tag: proto + "limit_conn", d: d, word: d.Args[0]}, true
		}
	case "proxy_cache_path", "fastcgi_cache_path", "scgi_cache_path", "uwsgi_cache_path":
		return byPrefix("keys_zone=", strings.TrimSuffix(name, "_path"))
	case "proxy_cache", "fastcgi_cache", "scgi_cache", "uwsgi_cache":
		// "off", and a zone chosen by a variable, add no zone at startup.
		if len(d.Args) == 1 && d.Args[0].Value != "off" && !strings.Contains(d.Args[0].Value, "$") {
			return zoneRef{name: d.Args[0].Value, tag: name, d: d, word: d.Args[0]}, true
		}
	case "zone":
		if e.Context()&(directives.Upstream|directives.StreamUpstream) != 0 {
			if len(d.Args) >= 1 {
				return zoneRef{name: d.Args[0].Value, tag: proto + "upstream", sized: len(d.Args) >= 2, d: d, word: d.Args[0]}, true
			}
		}
	case "ssl_session_cache":
		for _, a := range d.Args {
			if v, ok := strings.CutPrefix(a.Value, "shared:"); ok {
				name, _, _ := strings.Cut(v, ":")
				return zoneRef{name: name, tag: proto + "ssl", sized: true, d: d, word: a}, true
			}
		}
	}
	return zoneRef{}, false
}

func runUnknownZone(p *analyzer.Pass) {
	if !wholeConfig(p) {
		return
	}
	ix := p.Index()
	type zone struct {
		tag   string
		sized bool
		first *zoneRef
		uses  []zoneRef
	}
	zones := map[string]*zone{}
	var order []string
	for _, i := range ix.Named("limit_req_zone", "limit_conn_zone", "limit_req", "limit_conn", "proxy_cache_path",
		"fastcgi_cache_path", "scgi_cache_path", "uwsgi_cache_path", "proxy_cache", "fastcgi_cache", "scgi_cache",
		"uwsgi_cache", "zone", "ssl_session_cache") {
		e := &ix.Entries[i]
		if e.Context() == 0 {
			continue
		}
		r, ok := zoneOf(e)
		if !ok || r.name == "" {
			continue
		}
		z := zones[r.name]
		if z == nil {
			rc := r
			z = &zone{tag: r.tag, first: &rc}
			zones[r.name] = z
			order = append(order, r.name)
		} else if z.tag != r.tag {
			diag := p.Reportf(r.d.File, r.word.Range, "the shared memory zone %q is already declared for a different use", r.name)
			diag.Detail = "zone names are shared by all modules: " + z.first.d.Name.Value + " uses it already; give each its own name"
			diag.Related = []parser.Related{{File: z.first.d.File, Range: z.first.word.Range, Message: "first declared here by " + z.first.d.Name.Value}}
			continue
		}
		if r.sized {
			z.sized = true
		} else {
			z.uses = append(z.uses, r)
		}
	}
	for _, name := range order {
		z := zones[name]
		if z.sized {
			continue
		}
		for _, u := range z.uses {
			var diag *parser.Diagnostic
			switch u.d.Name.Value {
			case "proxy_cache", "fastcgi_cache", "scgi_cache", "uwsgi_cache":
				diag = p.Reportf(u.d.File, u.word.Range, "%q zone %q is unknown", u.d.Name.Value, name)
				diag.Detail = "no " + u.d.Name.Value + "_path defines keys_zone=" + name + ":SIZE; nginx refuses to start (it reports this at the end of http)"
			default:
				diag = p.Reportf(u.d.File, u.word.Range, "zero size shared memory zone %q", name)
				diag.Detail = "no " + zoneDefiner(u.d.Name.Value) + " gives zone " + name + " a size; nginx refuses to start"
			}
		}
	}
}

// zoneDefiner names the directive that would create the zone a use
// refers to.
func zoneDefiner(use string) string {
	switch use {
	case "limit_req":
		return "limit_req_zone"
	case "limit_conn":
		return "limit_conn_zone"
	}
	return "zone with a size in another upstream"
}
