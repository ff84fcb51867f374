package rules

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownDirective reports names no nginx module (nor lua-nginx-module or
// headers-more) defines.
var UnknownDirective = &analyzer.Rule{
	Code: "NL2001", Name: "unknown-directive", Title: "directive is not known to nginx", Severity: parser.Warning,
	Run: runUnknownDirective,
	Options: []analyzer.Option{{Name: "custom", Type: analyzer.StringListOption, Default: "[]",
		Doc: "Directive names to accept, for third-party modules (besides the settings' custom-directives)."}},
	Doc: analyzer.Doc{
		Text: "nginx refuses to start on a directive no loaded module defines (`unknown directive`). " +
			"Usually a typo; the message suggests the closest known names. Directives of third-party " +
			"modules nginx-lint does not know can be declared in `.nginx-lint.yaml`. A warning by " +
			"default, since a custom build may have more modules; an error with `--strict`.",
		Bad:  "events {}\nhttp {\n    server {\n        location / {\n            proxy_passs http://127.0.0.1:8080;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        location / {\n            proxy_pass http://127.0.0.1:8080;\n        }\n    }\n}\n",
	},
}

func runUnknownDirective(p *analyzer.Pass) {
	custom := stringSet(p.Options["custom"])
	// The targeted build's modules (from nginx -V): a known directive of
	// a missing module is unknown to that nginx; and its version:
	// directives newer than it are unknown to it.
	modules, version := p.Target.Modules, p.Target.Version
	p.WalkEntries(func(e *analyzer.Entry, _ []*parser.Directive) {
		d, name := e.Directive, e.Directive.Name.Value
		if dataBlock(e.Context()) || custom[name] || p.CustomDirectives[name] {
			return
		}
		if e.Known {
			if modules == nil && version == "" {
				return
			}
			rows := directives.Lookup(name)
			// The version first: a build older than the directive lacks
			// its module too, and the version is the reason.
			if since := firstSince(rows); version != "" && since != "" && analyzer.CompareVersions(version, since) < 0 {
				diag := p.ReportDirective(d, "unknown directive %q: nginx %s predates it (since %s)", name, version, since)
				diag.Detail = "upgrade nginx or use the older form; nginx " + version + " refuses to start with this directive. " +
					"Distribution packages sometimes backport newer directives (Debian's 1.22.1 accepts max_headers, for one): " +
					"if nginx -t accepts it, declare it as a custom directive"
			} else if modules != nil && !inBuild(rows, modules) {
				diag := p.ReportDirective(d, "unknown directive %q: this nginx build lacks its module", name)
				diag.Detail = "it comes from " + rowModules(rows) + ", which nginx -V does not list; add the module (--with-... or load_module) or remove the directive"
			}
			return
		}
		diag := p.ReportDirective(d, "unknown directive %q", name)
		if s := directives.Suggest(name); len(s) > 0 {
			diag.Message += fmt.Sprintf("; did you mean %s?", quoteList(s))
			if len(s) == 1 {
				diag.Edits = []parser.Edit{{File: d.File, Range: d.Name.Range, NewText: s[0]}}
			}
		}
	})
}
