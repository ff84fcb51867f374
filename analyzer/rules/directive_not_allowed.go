package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/modules"
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
		if directives.DataBlock(ctx) || !e.Known {
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
		rows := directives.Lookup(d.Name().Value)
		if absentFromTarget(p, rows) {
			return // nginx knows no such directive: unknown-directive's
		}
		var where directives.Context
		for _, r := range rows {
			where |= r.Contexts
		}
		diag := p.ReportDirective(d, "%q directive is not allowed here", d.Name().Value)
		diag.Detail = fmt.Sprintf("it is allowed in: %s; here is %s", strings.ReplaceAll(where.String(), ",", ", "), ctx)
	})
}

// absentFromTarget reports whether the targeted nginx lacks every module
// of rows, or predates them: nginx then says "unknown directive" wherever
// the directive stands, and unknown-directive reports it.
func absentFromTarget(p *analyzer.Pass, rows []*directives.Directive) bool {
	if p.Target.Lacks(directives.FirstSince(rows)) {
		return true
	}
	return p.Target.Modules != nil && missingAll(p, modules.Of(p), rows)
}

// notYetAllowed reports d when every table row that allows it in ctx
// appeared after the targeted nginx.
func notYetAllowed(p *analyzer.Pass, d *parser.Directive, ctx directives.Context) {
	rows := directives.Lookup(d.Name().Value)
	if p.Target.Lacks(directives.FirstSince(rows)) {
		return // unknown to that nginx altogether: unknown-directive says so
	}
	var newest *directives.Directive
	for _, r := range rows {
		if !r.AllowedIn(ctx) {
			continue
		}
		since := directives.FirstSince([]*directives.Directive{r})
		if !p.Target.Lacks(since) {
			return // some row allowed it here already
		}
		newest = r
	}
	if newest == nil {
		return
	}
	since := directives.FirstSince([]*directives.Directive{newest})
	diag := p.ReportDirective(d, "%q directive is not allowed here in nginx %s", d.Name().Value, p.Target.NginxVersion())
	diag.Detail = fmt.Sprintf("%s accepts it in %s since nginx %s; here is %s", newest.Module, strings.ReplaceAll(newest.Contexts.String(), ",", ", "), since, ctx)
	p.AssumeTarget(diag)
}
