package rules

import (
	"fmt"
	"strings"

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
		Doc: "Directive names to accept, for third-party modules (the settings' custom-directives adds to it)."}},
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
		if dataBlock(e.Context) || custom[name] {
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

// DirectiveNotAllowed reports a known directive in a block where nginx
// does not accept it.
var DirectiveNotAllowed = &analyzer.Rule{
	Code: "NL2002", Name: "directive-not-allowed", Title: "directive is not allowed in this block", Severity: parser.Error,
	Run: runDirectiveNotAllowed,
	Doc: analyzer.Doc{
		Text: "Each directive is accepted only in some blocks (`proxy_pass` in `location`, `listen` in " +
			"`server`, ...). nginx refuses to start with `\"x\" directive is not allowed here`. The " +
			"message lists where the directive belongs.",
		Bad:  "events {}\nhttp {\n    listen 80;\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n",
	},
}

func runDirectiveNotAllowed(p *analyzer.Pass) {
	// The targeted nginx's version (from nginx -V): a block that accepts
	// the directive only in later versions does not count.
	version := p.Target.Version
	p.WalkEntries(func(e *analyzer.Entry, _ []*parser.Directive) {
		d, ctx := e.Directive, e.Context
		if dataBlock(ctx) || !e.Known {
			return
		}
		if e.Row != nil {
			if version != "" {
				notYetAllowed(p, d, ctx, version)
			}
			return
		}
		rows := directives.Lookup(d.Name.Value)
		var where directives.Context
		for _, r := range rows {
			where |= r.Contexts
		}
		diag := p.ReportDirective(d, "%q directive is not allowed here", d.Name.Value)
		diag.Detail = fmt.Sprintf("it is allowed in: %s; here is %s", strings.ReplaceAll(where.String(), ",", ", "), ctx)
	})
}

// InvalidArguments reports argument counts and flag values nginx rejects.
var InvalidArguments = &analyzer.Rule{
	Code: "NL2003", Name: "invalid-arguments", Title: "wrong number or kind of arguments", Severity: parser.Error,
	Run: runInvalidArguments,
	Doc: analyzer.Doc{
		Text: "Every directive takes a fixed number of arguments (nginx: `invalid number of arguments " +
			"in \"x\" directive`), and on/off flags take exactly `on` or `off` (`invalid value`).",
		Bad:  "events {}\nhttp {\n    gzip yes;\n    server {\n        root;\n    }\n}\n",
		Good: "events {}\nhttp {\n    gzip on;\n    server {\n        root /srv;\n    }\n}\n",
	},
}

func runInvalidArguments(p *analyzer.Pass) {
	p.WalkEntries(func(e *analyzer.Entry, _ []*parser.Directive) {
		d, row := e.Directive, e.Row
		if dataBlock(e.Context) || d.RawBlock || d.Unterminated || row == nil || !row.ArgsKnown {
			return
		}
		if !row.Args.Accepts(len(d.Args)) {
			diag := p.ReportDirective(d, "invalid number of arguments in %q directive", d.Name.Value)
			if row.Syntax != "" {
				diag.Detail = "syntax: " + row.Syntax
			}
			return
		}
		if row.Args.IsFlag() && len(d.Args) == 1 {
			v := d.Args[0].Value
			if !strings.EqualFold(v, "on") && !strings.EqualFold(v, "off") {
				p.Reportf(d.File, d.Args[0].Range, "invalid value %q in %q directive, it must be \"on\" or \"off\"", v, d.Name.Value)
			}
		}
	})
}

// notYetAllowed reports d when every table row that allows it in ctx
// appeared after nginx version.
func notYetAllowed(p *analyzer.Pass, d *parser.Directive, ctx directives.Context, version string) {
	rows := directives.Lookup(d.Name.Value)
	if first := firstSince(rows); first != "" && analyzer.CompareVersions(version, first) < 0 {
		return // unknown to that nginx altogether: unknown-directive says so
	}
	var newest *directives.Directive
	for _, r := range rows {
		if !r.AllowedIn(ctx) {
			continue
		}
		since := firstSince([]*directives.Directive{r})
		if since == "" || analyzer.CompareVersions(version, since) >= 0 {
			return // some row allowed it here already
		}
		newest = r
	}
	if newest == nil {
		return
	}
	since := firstSince([]*directives.Directive{newest})
	diag := p.ReportDirective(d, "%q directive is not allowed here in nginx %s", d.Name.Value, version)
	diag.Detail = fmt.Sprintf("%s accepts it in %s since nginx %s; here is %s", newest.Module, strings.ReplaceAll(newest.Contexts.String(), ",", ", "), since, ctx)
}

// firstSince returns the earliest version any row of a directive appeared
// in ("1.3.0,1.2.1" lists a backport), or "" when some row does not say
// (it may be older than the docs' records).
func firstSince(rows []*directives.Directive) string {
	best := ""
	for _, r := range rows {
		if r.Since == "" || r.ThirdParty {
			return ""
		}
		for _, v := range strings.Split(r.Since, ",") {
			if best == "" || analyzer.CompareVersions(v, best) < 0 {
				best = v
			}
		}
	}
	return best
}

// inBuild reports whether any row's source module is in the build.
func inBuild(rows []*directives.Directive, modules map[string]bool) bool {
	for _, r := range rows {
		for _, m := range r.SourceModules {
			if modules[m] {
				return true
			}
		}
	}
	return false
}

func rowModules(rows []*directives.Directive) string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		m := r.Module
		if len(r.SourceModules) > 0 {
			m = r.SourceModules[0]
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return strings.Join(out, " or ")
}

// dataBlock reports whether ctx is unknown or the body of a map or geo,
// whose lines are data entries rather than directives.
func dataBlock(ctx directives.Context) bool {
	return ctx == 0 || ctx&(directives.Map|directives.Geo|directives.StreamMap|directives.StreamGeo) != 0
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or ")
}

// stringSet reads a rule option that is a list of strings.
func stringSet(v any) map[string]bool {
	out := map[string]bool{}
	switch x := v.(type) {
	case []string:
		for _, s := range x {
			out[s] = true
		}
	case []any:
		for _, s := range x {
			if str, ok := s.(string); ok {
				out[str] = true
			}
		}
	}
	return out
}
