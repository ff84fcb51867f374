package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownZone reports a shared memory zone that is used but never given
// a size, and a zone name used by two different modules.
var UnknownZone = &analyzer.Rule{
	Code: "NL2038", Name: "unknown-zone", Title: "shared memory zone is not defined", Severity: parser.Error,
	Refuses: true,
	Run:     runUnknownZone,
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

func runUnknownZone(p *analyzer.Pass) {
	if !p.WholeConfig() {
		return
	}
	ix := p.Index()
	type zone struct {
		tag   string
		sized bool
		first *symbols.ZoneRef
		uses  []symbols.ZoneRef
	}
	zones := map[string]*zone{}
	var order []string
	for _, i := range ix.Named(symbols.ZoneDirectives()...) {
		e := &ix.Entries[i]
		if e.Context() == 0 {
			continue
		}
		r, ok := symbols.ZoneOf(e)
		if !ok || r.Name == "" {
			continue
		}
		z := zones[r.Name]
		if z == nil {
			rc := r
			z = &zone{tag: r.Tag, first: &rc}
			zones[r.Name] = z
			order = append(order, r.Name)
		} else if z.tag != r.Tag {
			diag := p.Reportf(r.D.File, r.Word.Range, "the shared memory zone %q is already declared for a different use", r.Name)
			diag.Detail = "zone names are shared by all modules: " + z.first.D.Name().Value + " uses it already; give each its own name"
			diag.Related = []parser.Related{{File: z.first.D.File, Range: z.first.Word.Range, Message: "first declared here by " + z.first.D.Name().Value}}
			continue
		}
		if r.Sized {
			z.sized = true
		} else {
			z.uses = append(z.uses, r)
		}
	}
	at := mergeReportedAt(ix)
	for _, name := range order {
		z := zones[name]
		if z.sized {
			continue
		}
		for _, u := range z.uses {
			var diag *parser.Diagnostic
			switch u.D.Name().Value {
			case "proxy_cache", "fastcgi_cache", "scgi_cache", "uwsgi_cache":
				diag = p.Reportf(u.D.File, u.Word.Range, "%q zone %q is unknown", u.D.Name().Value, name)
				diag.Detail = "no " + u.D.Name().Value + "_path defines keys_zone=" + name + ":SIZE; nginx refuses to start"
				if at != nil {
					diag.Related = append(diag.Related, *at)
				}
			default:
				diag = p.Reportf(u.D.File, u.Word.Range, "zero size shared memory zone %q", name)
				diag.Detail = "no " + zoneDefiner(u.D.Name().Value) + " gives zone " + name + " a size; nginx refuses to start"
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
