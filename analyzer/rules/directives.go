package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// notYetAllowed reports d when every table row that allows it in ctx
// appeared after the targeted nginx.
func notYetAllowed(p *analyzer.Pass, d *parser.Directive, ctx directives.Context) {
	rows := directives.Lookup(d.Name.Value)
	if p.Target.Lacks(firstSince(rows)) {
		return // unknown to that nginx altogether: unknown-directive says so
	}
	var newest *directives.Directive
	for _, r := range rows {
		if !r.AllowedIn(ctx) {
			continue
		}
		since := firstSince([]*directives.Directive{r})
		if !p.Target.Lacks(since) {
			return // some row allowed it here already
		}
		newest = r
	}
	if newest == nil {
		return
	}
	since := firstSince([]*directives.Directive{newest})
	diag := p.ReportDirective(d, "%q directive is not allowed here in nginx %s", d.Name.Value, p.Target.NginxVersion())
	diag.Detail = fmt.Sprintf("%s accepts it in %s since nginx %s; here is %s", newest.Module, strings.ReplaceAll(newest.Contexts.String(), ",", ", "), since, ctx)
	assumeTarget(p, diag)
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
			if best == "" || directives.CompareVersions(v, best) < 0 {
				best = v
			}
		}
	}
	return best
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

// stringSet is the set of a list option's strings.
func stringSet(list []string) map[string]bool {
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out
}
