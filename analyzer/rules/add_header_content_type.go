package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AddHeaderContentType reports "add_header Content-Type", which sends a
// second Content-Type header.
var AddHeaderContentType = &analyzer.Rule{
	Code: "NL3020", Name: "add-header-content-type", Title: "add_header Content-Type sends a second Content-Type", Severity: parser.Warning,
	Run: runAddHeaderContentType,
	Doc: analyzer.Doc{
		Text: "nginx always sends a Content-Type of its own: from `types` and `default_type` for files " +
			"and `return`, or the upstream's for proxied responses. `add_header Content-Type` does " +
			"not replace it but adds a second header, and clients and caches disagree on which of " +
			"the two wins, so a response may be read as HTML or script that was meant as text " +
			"(or the reverse). Set the type with `default_type` (inside a `types {}` block emptied " +
			"for the location if the file extension would override it); to replace an upstream's " +
			"type, hide it first with `proxy_hide_header Content-Type;` (or the fastcgi, uwsgi, " +
			"scgi or grpc equivalent), which this rule accepts in the same block or an enclosing one.",
		Bad:  "location /health {\n    add_header Content-Type text/plain;\n    return 200 \"ok\\n\";\n}\n",
		Good: "location /health {\n    default_type text/plain;\n    return 200 \"ok\\n\";\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#default_type",
	},
}

// hideHeaderDirectives drop a header of the upstream's response.
var hideHeaderDirectives = [...]string{"proxy_hide_header", "fastcgi_hide_header", "uwsgi_hide_header", "scgi_hide_header", "grpc_hide_header"}

func runAddHeaderContentType(p *analyzer.Pass) {
	hides := analyzer.NewPerBlock(p, hidesOf)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) < 2 || !strings.EqualFold(d.Args()[0].Value, "Content-Type") || contentTypeHidden(hides, stack) {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "\"add_header Content-Type\" sends a second Content-Type header next to the one nginx sets")
		diag.Detail = "clients disagree on which of the two applies; set the type with \"default_type " + d.Args()[1].Value +
			";\", or hide the upstream's first (proxy_hide_header Content-Type;)"
	}, "add_header")
}

// blockHides says, for each of hideHeaderDirectives, whether a block
// has that directive (hideSome) and whether one of them hides
// Content-Type (hideContentType).
type blockHides [len(hideHeaderDirectives)]uint8

const (
	hideSome uint8 = 1 + iota
	hideContentType
)

func hidesOf(body []*parser.Directive) blockHides {
	var h blockHides
	for k, name := range hideHeaderDirectives {
		for _, d := range body {
			if !d.Is(name) {
				continue
			}
			if len(d.Args()) == 1 && strings.EqualFold(d.Args()[0].Value, "Content-Type") {
				h[k] = hideContentType
				break
			}
			h[k] = hideSome
		}
	}
	return h
}

// contentTypeHidden reports whether a *_hide_header drops the upstream's
// Content-Type where stack ends. Like every list directive, a level
// with its own *_hide_header replaces the outer ones, so for each
// directive only the innermost level that has it counts.
func contentTypeHidden(hides *analyzer.PerBlock[blockHides], stack []*parser.Directive) bool {
	for k := range hideHeaderDirectives {
		for i := len(stack); i >= 0; i-- {
			var b *parser.Directive // the main context after the blocks
			if i > 0 {
				b = stack[i-1]
			}
			if h := hides.Of(stack, b)[k]; h != 0 {
				if h == hideContentType {
					return true
				}
				break
			}
		}
	}
	return false
}
