package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// IfIsEvil reports "if" blocks in a location that do more than return or
// rewrite ... last.
var IfIsEvil = &analyzer.Rule{
	Code: "NL2010", Name: "if-is-evil", Title: "unsafe directive inside if in a location", Severity: parser.Warning,
	Run: runIfIsEvil,
	Doc: analyzer.Doc{
		Text: "An `if` inside a `location` is an implicit nested location: when its condition holds, " +
			"the request is served with the `if` block's configuration, which inherits some settings " +
			"and not others. Directives inside it (`proxy_pass`, `add_header`, `try_files`, " +
			"`root`, ...) then behave surprisingly: headers of the outer location vanish, " +
			"`try_files` is skipped, two `if`s that both match keep only the last one's settings. " +
			"The only directives that are safe there are `return` and `rewrite` with `last`, " +
			"`redirect` or `permanent` (or a replacement starting with `http://`, `https://` or " +
			"`$scheme`, which nginx always answers with a redirect), which leave the location at once. Move the condition into a `map`, or use `return`/" +
			"`rewrite ... last` to jump to a named or separate location. `if` directly in a " +
			"`server` block is not affected.",
		Bad:  "events {}\nhttp {\n    server {\n        location / {\n            if ($http_x_debug) {\n                add_header X-Debug on;\n            }\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        location / {\n            if ($http_x_debug) {\n                return 403;\n            }\n        }\n    }\n}\n",
		URL:  "https://www.nginx.com/resources/wiki/start/topics/depth/ifisevil/",
	},
}

func runIfIsEvil(p *analyzer.Pass) {
	p.WalkContext(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if ctx != directives.IfInLocation || len(stack) == 0 || safeInIf(d) {
			return
		}
		// Directives of an included file have their own stack top: the
		// if itself, which is where the advice belongs.
		ifd := stack[len(stack)-1]
		diag := p.ReportDirective(d, "%q inside \"if\" in a location is unsafe; only return and a rewrite that stops or redirects are", d.Name().Value)
		diag.Detail = "the if block is an implicit location with its own configuration; move the logic into a map, or return/rewrite to another location"
		diag.Related = []parser.Related{{File: ifd.File, Range: ifd.Name().Range, Message: "the if block"}}
	})
}

// safeInIf reports whether d is one of the directives that leave the
// location at once (return, a rewrite that stops or redirects), or an include, whose directives are checked one by
// one where they land.
func safeInIf(d *parser.Directive) bool {
	switch d.Name().Value {
	case "return", "include":
		return true
	case "rewrite":
		// last, redirect and permanent end the location's processing;
		// so does a replacement that starts with a scheme, which nginx
		// always answers with a redirect (even with "break").
		if len(d.Args()) < 2 {
			return false
		}
		if r := d.Args()[1].Value; strings.HasPrefix(r, "http://") || strings.HasPrefix(r, "https://") || strings.HasPrefix(r, "$scheme") {
			return true
		}
		if len(d.Args()) == 3 {
			switch d.Args()[2].Value {
			case "last", "redirect", "permanent":
				return true
			}
		}
	}
	return false
}
