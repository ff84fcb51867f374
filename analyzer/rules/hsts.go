package rules

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The hsts rule's options.
var (
	hstsRequire   = analyzer.BoolOption("require", false, "Also report HTTPS servers that send no Strict-Transport-Security header (opt-in: not every site can commit to HTTPS only).")
	hstsMinMaxAge = analyzer.IntOption("min-max-age", 15768000, "The shortest max-age, in seconds, not reported as weak (default six months).")
)

// HSTS reports a weak Strict-Transport-Security header and, when asked
// to, HTTPS servers that send none.
var HSTS = &analyzer.Rule{
	Code: "NL3029", Name: "hsts", Title: "Strict-Transport-Security missing or weak", Severity: parser.Info,
	Fixable: true,
	Run:     runHSTS,
	Options: []analyzer.Option{hstsRequire.Decl(), hstsMinMaxAge.Decl()},
	Doc: analyzer.Doc{
		Text: "`Strict-Transport-Security` tells browsers to use HTTPS only for the site, which " +
			"closes the window in which a first plain-HTTP request can be intercepted. A short " +
			"`max-age` lets that protection lapse between visits; six months is the usual floor " +
			"and two years the common recommendation. `max-age=0` withdraws it (on purpose, when " +
			"leaving HTTPS), and is not reported. Send the header with `always`, so error " +
			"responses carry it too. With the option `require`, HTTPS servers (a `listen ... ssl` " +
			"or `quic`) that send no such header at all are reported as well: opt in once the " +
			"site is committed to HTTPS.",
		Bad:  "server {\n    listen 443 ssl;\n    add_header Strict-Transport-Security \"max-age=3600\" always;\n}\n",
		Good: "server {\n    listen 443 ssl;\n    add_header Strict-Transport-Security \"max-age=63072000; includeSubDomains\" always;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_headers_module.html#add_header",
	},
}

// hstsValue returns the value of an HSTS header set by d (add_header or
// more_set_headers), ok false when d sets another header.
func hstsValue(d *parser.Directive) (value string, ok bool) {
	if d.Is("add_header") {
		if len(d.Args()) >= 2 && strings.EqualFold(d.Args()[0].Value, "Strict-Transport-Security") {
			return d.Args()[1].Value, true
		}
		return "", false
	}
	for _, a := range d.Args() {
		name, v, found := strings.Cut(a.Value, ":")
		if found && strings.EqualFold(strings.TrimSpace(name), "Strict-Transport-Security") {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// maxAge reads the max-age directive of an HSTS value; ok false when it
// is absent, malformed or set from a variable.
func maxAge(v string) (int64, bool) {
	for _, part := range strings.Split(v, ";") {
		k, n, found := strings.Cut(strings.TrimSpace(part), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(k), "max-age") {
			continue
		}
		age, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(n), `"`), 10, 64)
		return age, err == nil
	}
	return 0, false
}

func runHSTS(p *analyzer.Pass) {
	minAge := int64(hstsMinMaxAge.Get(p))
	require := hstsRequire.Get(p)
	// Where HSTS is set: by server block, or "everywhere" at http level.
	withHSTS := map[*parser.Directive]bool{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		v, ok := hstsValue(d)
		if !ok {
			return
		}
		if s := analyzer.Innermost(stack, "server"); s != nil {
			withHSTS[s] = true
		} else if h := analyzer.Innermost(stack, "http"); h != nil {
			withHSTS[h] = true
		}
		if script.HasVars(v) {
			return
		}
		age, ok := maxAge(v)
		switch {
		case !ok:
			diag := p.ReportDirective(d, "Strict-Transport-Security %q has no max-age: browsers ignore it", v)
			diag.Detail = "write max-age=63072000 (two years), then includeSubDomains if every subdomain is on HTTPS"
		case age > 0 && age < minAge:
			diag := p.ReportDirective(d, "Strict-Transport-Security max-age=%d is shorter than %d seconds: the protection lapses between visits", age, minAge)
			diag.Detail = "use max-age=63072000 (two years) once the site is sure to stay on HTTPS"
		case d.Is("add_header") && !strings.EqualFold(d.Args()[len(d.Args())-1].Value, "always"):
			diag := p.ReportDirective(d, "Strict-Transport-Security is sent without %q: error and redirect responses carry no HSTS", "always")
			diag.Detail = "add the always parameter"
			// The header's value and name stay; "always" goes after them.
			if len(d.Args()) == 2 {
				end := d.Args()[1].Range.End
				diag.Edits = []parser.Edit{{File: d.File, Range: parser.Range{Start: end, End: end}, NewText: " always"}}
			}
		}
	}, "add_header", "more_set_headers")
	if !require {
		return
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		h := analyzer.Innermost(stack, "http")
		if h == nil && len(stack) > 0 || d.Block == nil || withHSTS[d] || h != nil && withHSTS[h] {
			return
		}
		for _, l := range p.Body(d) {
			if !l.Is("listen") {
				continue
			}
			for _, a := range l.Args()[min(1, len(l.Args())):] {
				if a.Value == "ssl" || a.Value == "quic" {
					diag := p.ReportDirective(d, "HTTPS server without Strict-Transport-Security")
					diag.Detail = "add_header Strict-Transport-Security \"max-age=63072000\" always; (with includeSubDomains if every subdomain is on HTTPS)"
					return
				}
			}
		}
	}, "server")
}
