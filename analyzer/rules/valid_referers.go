package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/referer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ValidReferers reports valid_referers that accept requests with no
// Referer at all, or with one the client chose ("blocked").
var ValidReferers = &analyzer.Rule{
	Code: "NL3008", Name: "valid-referers", Title: "valid_referers accepts a missing Referer", Severity: parser.Warning,
	Run: runValidReferers,
	Doc: analyzer.Doc{
		Text: "`none` in `valid_referers` marks requests without a `Referer` header as valid. Browsers " +
			"omit the header in many situations an attacker controls (`Referrer-Policy: no-referrer`, " +
			"`rel=noreferrer` links, HTTPS to HTTP navigation), so a referer check with `none` does not " +
			"protect against hot-linking or cross-site requests. `blocked` accepts any `Referer` whose " +
			"value does not start with `http://` or `https://` (a proxy that deletes the scheme, or a " +
			"client that sends `Referer: x`): the client picks a value that passes. Drop `none` and " +
			"`blocked`, or use a real defence (tokens, `secure_link`) where it matters.",
		Bad:  "location /images/ {\n    valid_referers none server_names;\n    if ($invalid_referer) {\n        return 403;\n    }\n}\n",
		Good: "location /images/ {\n    valid_referers server_names;\n    if ($invalid_referer) {\n        return 403;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_referer_module.html#valid_referers",
	},
}

func runValidReferers(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		if !d.Is("valid_referers") {
			return
		}
		for _, a := range d.Args() {
			switch a.Value {
			case "none":
				diag := p.Reportf(d.File, a.Range, "%q accepts requests without a Referer (%q)", "valid_referers", "none")
				diag.Detail = "clients can suppress the Referer header at will; remove \"none\" unless a missing header must pass"
				return
			case "blocked":
				diag := p.Reportf(d.File, a.Range, "%q accepts any Referer without a scheme (%q): the client chooses it", "valid_referers", "blocked")
				diag.Detail = "\"Referer: anything\" passes; remove \"blocked\" unless a proxy in front strips the scheme, and then check the value it keeps"
				return
			}
		}
	}, "valid_referers")
}

// reportReferers reports the valid_referers problems of one kind (the
// referer engine's): invalid-parameter, duplicate-directive and
// setting-conflict each report theirs.
func reportReferers(p *analyzer.Pass, kind referer.Kind) {
	for _, f := range referer.Problems(p) {
		if f.Kind != kind {
			continue
		}
		diag := p.Reportf(f.Directive.File, f.Word.Range, "%s", f.Message)
		switch {
		case kind == referer.Empty:
			diag.Detail = "with \"none\" or \"blocked\" nginx needs a host name or wildcard in the block's valid_referers (a regex does not count); add the hosts to allow"
		case f.Merged:
			if r := mergeReportedAt(p.Index()); r != nil {
				diag.Related = append(diag.Related, *r)
			}
			diag.Detail = "\"server_names\" adds the server's names to valid_referers, and one of them is already there; nginx finds it when it merges the block"
		case kind == referer.Conflict:
			diag.Detail = "valid_referers already has this host (names are compared without case, a URI part after \"/\" aside, and \".example.com\" stands for example.com and *.example.com); remove one"
		default:
			diag.Detail = "valid_referers takes a host name, \"*.example.com\", \".example.com\" or \"www.example.*\": one \"*\" at most, only at either end, and no empty label"
		}
	}
}
