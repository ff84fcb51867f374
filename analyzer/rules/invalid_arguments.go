package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// InvalidArguments reports argument counts and flag values nginx rejects.
var InvalidArguments = &analyzer.Rule{
	Code: "NL2003", Name: "invalid-arguments", Title: "wrong number or kind of arguments", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidArguments,
	Doc: analyzer.Doc{
		Text: "Every directive takes a fixed number of arguments (nginx: `invalid number of arguments " +
			"in \"x\" directive`), and on/off flags take exactly `on` or `off` (`invalid value`).",
		Bad:  "events {}\nhttp {\n    gzip yes;\n    server {\n        root;\n    }\n}\n",
		Good: "events {}\nhttp {\n    gzip on;\n    server {\n        root /srv;\n    }\n}\n",
	},
}

func runInvalidArguments(p *analyzer.Pass) {
	p.WalkEntries(func(e *analyzer.Entry, _ []*parser.Directive) {
		d, row := e.Directive, e.Row()
		if directives.DataBlock(e.Context()) || d.RawBlock() || d.Unterminated() || row == nil {
			return
		}
		args, ok := row.ArgRule()
		if !ok {
			return
		}
		if !args.Accepts(len(d.Args())) {
			diag := p.ReportDirective(d, "invalid number of arguments in %q directive", d.Name().Value)
			if row.Syntax != "" {
				diag.Detail = "syntax: " + row.Syntax
			}
			return
		}
		// NGX_CONF_FLAG only counts one argument; "on" or "off" is the
		// flag slot's check, which custom handlers of FLAG commands call
		// too (lua_code_cache). A module that gives a FLAG command
		// another generic slot (fancyindex_css_href has
		// ngx_conf_set_str_slot) takes any word.
		if row.Value != nil {
			if spec := row.Value.For(p.Target.NamedVersion()); spec == nil || spec.Kind != directives.ValueFlag && spec.Kind != directives.ValueCustom {
				return
			}
		}
		if args.IsFlag() && len(d.Args()) == 1 {
			v := d.Args()[0].Value
			if !strings.EqualFold(v, "on") && !strings.EqualFold(v, "off") {
				p.Reportf(d.File, d.Args()[0].Range, "invalid value %q in %q directive, it must be \"on\" or \"off\"", v, d.Name().Value)
			}
		}
	})
}
