package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// DirectiveNotAllowed reports a known directive in a block where nginx
// does not accept it.
var DirectiveNotAllowed = &analyzer.Rule{
	Code: "NL2002", Name: "directive-not-allowed", Title: "directive is not allowed in this block", Severity: parser.Error,
	Refuses: true,
	Run:     runDirectiveNotAllowed,
	Doc: analyzer.Doc{
		Text: "Each directive is accepted only in some blocks (`proxy_pass` in `location`, `listen` in " +
			"`server`, ...). nginx refuses to start with `\"x\" directive is not allowed here`. The " +
			"message lists where the directive belongs.",
		Bad:  "events {}\nhttp {\n    listen 80;\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n",
	},
}

func runDirectiveNotAllowed(p *analyzer.Pass) {
	p.WalkEntries(func(e *analyzer.Entry, _ []*parser.Directive) {
		d, ctx := e.Directive, e.Context()
		if dataBlock(ctx) || !e.Known {
			return
		}
		if e.Row() != nil {
			// The targeted nginx's version (from nginx -V): a block that
			// accepts the directive only in later versions does not count.
			if p.Target.Known() {
				notYetAllowed(p, d, ctx)
			}
			return
		}
		rows := directives.Lookup(d.Name.Value)
		if absentFromTarget(p, rows) {
			return // nginx knows no such directive: unknown-directive's
		}
		var where directives.Context
		for _, r := range rows {
			where |= r.Contexts
		}
		diag := p.ReportDirective(d, "%q directive is not allowed here", d.Name.Value)
		diag.Detail = fmt.Sprintf("it is allowed in: %s; here is %s", strings.ReplaceAll(where.String(), ",", ", "), ctx)
	})
}

// absentFromTarget reports whether the targeted nginx lacks every module
// of rows, or predates them: nginx then says "unknown directive" wherever
// the directive stands, and unknown-directive reports it.
func absentFromTarget(p *analyzer.Pass, rows []*directives.Directive) bool {
	if p.Target.Lacks(firstSince(rows)) {
		return true
	}
	return p.Target.Modules != nil && missingAll(p, loadedModules(p), rows)
}
