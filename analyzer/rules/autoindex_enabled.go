package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AutoindexEnabled reports directory listings.
var AutoindexEnabled = &analyzer.Rule{
	Code: "NL3021", Name: "autoindex-enabled", Title: "directory listing enabled", Severity: parser.Warning,
	Run: runAutoindexEnabled,
	Doc: analyzer.Doc{
		Text: "`autoindex on` lists the files of any directory a request reaches that has no index " +
			"file: backups, configuration, `.git` or upload directories become browsable, and every " +
			"file name is an invitation. Turn it off, or keep it to a location that serves only " +
			"files meant to be listed (and suppress this finding there with a reason).",
		Bad:  "location /files/ {\n    root /srv;\n    autoindex on;\n}\n",
		Good: "location /files/ {\n    root /srv;\n    autoindex off;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_autoindex_module.html#autoindex",
	},
}

func runAutoindexEnabled(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || !strings.EqualFold(d.Args()[0].Value, "on") {
			return
		}
		where := "this block"
		if loc := analyzer.Innermost(stack, "location"); loc != nil {
			where = "location " + strings.Join(loc.ArgValues(), " ")
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q lists the files of every directory under %s", "autoindex", d.Args()[0].Value, where)
		diag.Detail = "directory listings expose file names an attacker would otherwise have to guess; turn it off unless the listing is the point"
	}, "autoindex")
}
