package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// MergeSlashesBypass reports "merge_slashes off" in a server where a
// prefix location denies access: a doubled slash walks around it.
var MergeSlashesBypass = &analyzer.Rule{
	Code: "NL3039", Name: "merge-slashes-bypass", Title: "merge_slashes off lets \"//path\" bypass a location that denies", Severity: parser.Warning,
	Run: runMergeSlashesBypass,
	Doc: analyzer.Doc{
		Text: "nginx merges the slashes of a request's path before it picks a location " +
			"(`merge_slashes on`, the default), so `//admin/` is `/admin/`. With `merge_slashes off` " +
			"the path stays `//admin/`, which `location /admin/` (or `= /admin`, or a regex anchored " +
			"at `^/admin`) does not match: the request goes to another location, and the `deny`, " +
			"`auth_basic`, `auth_request` or `return 403` that guarded `/admin/` does not apply. " +
			"Backends that merge slashes themselves then serve the page. Keep `merge_slashes on`, or " +
			"guard the path where the doubled slash also lands (a regex such as `^/+admin/`).",
		Bad:  "server {\n    listen 80;\n    merge_slashes off;\n    location /admin/ {\n        deny all;\n    }\n    location / {\n        proxy_pass http://127.0.0.1:8080;\n    }\n}\n",
		Good: "server {\n    listen 80;\n    location /admin/ {\n        deny all;\n    }\n    location / {\n        proxy_pass http://127.0.0.1:8080;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#merge_slashes",
	},
}

// guards returns the directive by which a location refuses requests
// (deny all, auth_basic, auth_request, a 401/403/404/444 return), nil when
// it does not.
func guards(p *analyzer.Pass, loc *parser.Directive) *parser.Directive {
	for _, d := range p.Body(loc) {
		switch {
		case d.Is("deny") && len(d.Args()) == 1 && d.Args()[0].Value == "all":
			return d
		case (d.Is("auth_basic") || d.Is("auth_request")) && len(d.Args()) == 1 && !d.ArgIs("off"):
			return d
		case d.Is("return") && len(d.Args()) >= 1:
			switch d.Args()[0].Value {
			case "401", "403", "404", "444":
				return d
			}
		}
	}
	return nil
}

// slashSensitive reports whether a location's match fails for the path
// with its first slash doubled: a prefix or exact path of a first segment,
// or a regex anchored on "^/" and a segment.
func slashSensitive(spec grammar.Location) bool {
	switch {
	case spec.Named:
		return false
	case spec.IsRegex:
		return strings.HasPrefix(spec.Path, "^/") && len(spec.Path) > 2 && spec.Path[2] != '/' && spec.Path[2] != '+' && spec.Path[2] != '*' && spec.Path[2] != '?' && spec.Path[2] != '.'
	default:
		return len(spec.Path) > 1 && spec.Path[0] == '/' && spec.Path[1] != '/'
	}
}

func runMergeSlashesBypass(p *analyzer.Pass) {
	if len(p.Index().Named("merge_slashes")) == 0 {
		return
	}
	for _, s := range p.Model().Servers {
		if s.Protocol != parser.HTTP {
			continue
		}
		off := mergeSlashesIn(p, s)
		if off == nil {
			continue
		}
		var walk func(locs []parser.Location)
		walk = func(locs []parser.Location) {
			for i := range locs {
				l := &locs[i]
				if l.Err() == nil && slashSensitive(l.Spec()) {
					if g := guards(p, l.Directive); g != nil {
						path := l.Spec().Path
						if l.Spec().IsRegex {
							path = strings.TrimPrefix(path, "^")
						}
						diag := p.ReportDirective(l.Directive, "with %q, a request for %q does not match %q, so its %q does not apply", "merge_slashes off", "/"+path, "location "+strings.Join(l.Directive.ArgValues(), " "), g.Name().Value)
						diag.Detail = "the doubled slash sends the request to another location; keep merge_slashes on, or guard the path with a regex that allows repeated slashes (^/+admin/)"
						diag.Related = append(diag.Related, parser.Related{File: off.File, Range: off.Name().Range, Message: "merge_slashes is off here"})
					}
				}
				walk(l.Locations())
			}
		}
		walk(s.Locations())
	}
}

// mergeSlashesIn returns the "merge_slashes off" in effect for server s
// (its own, or its http block's), nil when slashes are merged.
func mergeSlashesIn(p *analyzer.Pass, s *parser.Server) *parser.Directive {
	blocks := append(append([]*parser.Directive(nil), p.Model().HTTP...), s.Directive)
	if d := p.InEffect(blocks[len(blocks)-1:], "merge_slashes"); d != nil {
		if d.ArgIs("off") {
			return d
		}
		return nil
	}
	if d := p.InEffect(blocks[:len(blocks)-1], "merge_slashes"); d.ArgIs("off") {
		return d
	}
	return nil
}
