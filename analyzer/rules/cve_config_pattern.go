package rules

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/advisories"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CVEConfigPattern reports configuration patterns that trigger a known
// nginx vulnerability, when the targeted build is affected.
var CVEConfigPattern = &analyzer.Rule{
	Code: "NL3027", Name: "cve-config-pattern", Title: "configuration pattern that triggers a known nginx vulnerability in the targeted build", Severity: parser.Error,
	Run: runCVEConfigPattern,
	Doc: analyzer.Doc{
		Text: "Some nginx vulnerabilities are reached only through a particular configuration. " +
			"This rule knows these, and reports them only when the target (`--nginx-build`, " +
			"`--nginx`, `--nginx-version`) is a version the advisory affects; with no target the " +
			"newest release nginx-lint knows is assumed, which all of them spare. The versions " +
			"are the advisories' own (nginx-advisory's table). Distributions backport fixes " +
			"without changing the version, so check your vendor's advisory before dismissing a " +
			"finding.\n\n" +
			"- CVE-2026-42945: a `rewrite` whose replacement holds `?`, followed in the same block " +
			"by a `set` or `rewrite` that reads an unnamed capture `$1`..`$9`, overflows a heap " +
			"buffer in the worker.\n" +
			"- CVE-2026-9256: the same flaw on the redirect path, a redirecting `rewrite` whose " +
			"replacement holds both `?` and an unnamed capture.\n" +
			"- CVE-2026-42533: a string expression reads a capture (`$1`, or a named group of a map " +
			"regex) before a variable of an http `map` whose regex has captures: evaluating the map " +
			"replaces the captures between the length nginx measured and the bytes it copies; or " +
			"the map is `volatile` (not cacheable) and the expression also reads a capture.\n" +
			"- CVE-2026-93479: the same shape where 1.30.4 and 1.31.3 did not fix it, in `root` " +
			"and in `log_format`.\n" +
			"- CVE-2026-60005: unnamed captures read (`$1`..`$9`) where `slice` or a background " +
			"cache update (`proxy_cache_background_update on`) clones the request: the clone reads " +
			"captures it never set.\n" +
			"- CVE-2026-15176: `alias` with a `rewrite` whose replacement reads `$request_filename`.\n" +
			"- CVE-2026-125283: `alias` with `try_files` that reads a variable of a map whose regex " +
			"has captures.\n\n" +
			"Upgrade; named captures (`(?<name>...)`, read as `$name`) avoid the first and fifth. " +
			"(The examples below are for an affected build such as 1.22.1.)",
		Bad:  "location ~ ^/api/(.*)$ {\n    rewrite ^/api/(.*)$ /internal?migrated=true;\n    set $endpoint $1;\n}\n",
		Good: "location ~ ^/api/(.*)$ {\n    rewrite ^/api/(?<rest>.*)$ /internal?migrated=true;\n    set $endpoint $rest;\n}\n",
		URL:  "https://nginx.org/en/security_advisories.html",
	},
}

// The advisories cve-config-pattern checks (advisories.Patterns says what
// reaches each).
const (
	cveRewriteArgs     = "CVE-2026-42945"
	cveRewriteRedirect = "CVE-2026-9256"
	cveMapCaptures     = "CVE-2026-42533"
	cveMapRootLog      = "CVE-2026-93479"
	cveSliceCaptures   = "CVE-2026-60005"
	cveAliasRewrite    = "CVE-2026-15176"
	cveAliasTryFiles   = "CVE-2026-125283"
)

// firstUnnamedRef returns the first $1..$9 in s, "" if none.
func firstUnnamedRef(s string) string {
	for _, r := range script.Split(s) {
		if len(r.Name) == 1 && r.Name[0] >= '1' && r.Name[0] <= '9' {
			return "$" + r.Name
		}
	}
	return ""
}

// httpMap is what CVE-2026-42533 asks of an http map: whether a regex of
// it captures, whether it is volatile, and its regexes' group names.
type httpMap struct {
	captures, volatile bool
}

// httpMaps reads the http maps whose regexes capture, by the variable
// they define, and the named groups of those regexes.
func httpMaps(p *analyzer.Pass) (maps map[string]httpMap, groups map[string]bool) {
	maps, groups = map[string]httpMap{}, map[string]bool{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if d.Block == nil || len(d.Args()) != 2 || analyzer.Innermost(stack, "http") == nil {
			return
		}
		var m httpMap
		for _, e := range p.Body(d) {
			if e.Is("volatile") && len(e.Args()) == 0 {
				m.volatile = true
			}
			expr, ci, ok := mapRegexKey(e)
			if !ok {
				continue
			}
			if re := regex.Parse(expr, ci); re != nil && re.MaxCap() > 0 {
				m.captures = true
				regex.NamedGroups(expr, func(name string, _ int) { groups[strings.ToLower(name)] = true })
			}
		}
		if m.captures {
			maps[strings.ToLower(strings.TrimPrefix(d.Args()[1].Value, "$"))] = m
		}
	}, "map")
	return maps, groups
}

// mapCaptureShape returns what makes expression s the CVE-2026-42533
// shape ("" when it is not): a capture read before the variable of a map
// whose regex captures, or a capture and a volatile map's variable.
func mapCaptureShape(s string, maps map[string]httpMap, groups map[string]bool) string {
	capture := ""
	volatile, volatileCapture := "", ""
	for _, r := range script.Split(s) {
		if r.Name == "" {
			continue
		}
		if len(r.Name) == 1 && r.Name[0] >= '1' && r.Name[0] <= '9' || groups[r.Name] {
			if capture == "" {
				capture = "$" + r.Name
			}
			if volatileCapture == "" {
				volatileCapture = "$" + r.Name
			}
			continue
		}
		m, ok := maps[r.Name]
		if !ok {
			continue
		}
		if capture != "" {
			return "reads " + capture + " before $" + r.Name + ", whose map's regex replaces the captures"
		}
		if m.volatile && volatile == "" {
			volatile = "$" + r.Name
		}
	}
	if volatile != "" && volatileCapture != "" {
		return "reads " + volatileCapture + " and " + volatile + ", a volatile map's variable whose regex replaces the captures"
	}
	return ""
}

func runCVEConfigPattern(p *analyzer.Pass) {
	// With no target named, the newest release the tables know.
	v := p.Target.NginxVersion()
	on := map[string]bool{}
	anyOn := false
	for _, c := range advisories.Patterns {
		if advisories.Affects(c.CVE, v) {
			on[c.CVE] = true
			anyOn = true
		}
	}
	if !anyOn {
		return
	}
	if on[cveRewriteArgs] || on[cveRewriteRedirect] {
		checkRewriteCaptures(p, v, on)
	}
	if on[cveMapCaptures] || on[cveMapRootLog] {
		checkMapCaptures(p, v, on)
	}
	if on[cveSliceCaptures] {
		checkSliceCaptures(p, v)
	}
	if on[cveAliasRewrite] || on[cveAliasTryFiles] {
		checkAlias(p, v, on)
	}
}

// checkRewriteCaptures reports CVE-2026-42945 and CVE-2026-9256.
func checkRewriteCaptures(p *analyzer.Pass, v string, on map[string]bool) {
	// The blocks in which a rewrite with "?" in its replacement has run,
	// in reading order: a later set or rewrite there that reads $N is the
	// trigger.
	argsSet := map[*parser.Directive]*parser.Directive{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(stack) == 0 {
			return
		}
		parent := stack[len(stack)-1]
		if d.Is("rewrite") && len(d.Args()) >= 2 && on[cveRewriteRedirect] && routing.Redirects(d) &&
			strings.Contains(d.Args()[1].Value, "?") && firstUnnamedRef(d.Args()[1].Value) != "" {
			reportCVE(p, d, d.Args()[1], cveRewriteRedirect, v,
				"a redirecting rewrite whose replacement holds \"?\" and "+firstUnnamedRef(d.Args()[1].Value))
			return
		}
		if !on[cveRewriteArgs] {
			return
		}
		if !(d.Is("set") && len(d.Args()) == 2 || d.Is("rewrite") && len(d.Args()) >= 2) {
			return
		}
		if q := argsSet[parent]; q != nil {
			if ref := firstUnnamedRef(d.Args()[1].Value); ref != "" {
				reportCVE(p, d, d.Args()[1], cveRewriteArgs, v,
					"\""+d.Name().Value+"\" reads "+ref+" after the rewrite with \"?\" on line "+strconv.Itoa(q.File.Position(int(q.Name().Range.Start)).Line))
				return
			}
		}
		if d.Is("rewrite") && strings.Contains(d.Args()[1].Value, "?") {
			if _, seen := argsSet[parent]; !seen {
				argsSet[parent] = d
			}
		}
	}, "rewrite", "set")
}

// checkMapCaptures reports CVE-2026-42533 (any string expression of http)
// and CVE-2026-93479 (root and log_format), once each.
func checkMapCaptures(p *analyzer.Pass, v string, on map[string]bool) {
	maps, groups := httpMaps(p)
	if len(maps) == 0 {
		return
	}
	done := map[string]bool{}
	ix := p.Index()
	for i := range ix.Entries {
		e := &ix.Entries[i]
		d := e.Directive
		if len(d.Args()) == 0 || e.Context()&(directives.StreamContexts|directives.Mail|directives.MailServer) != 0 || e.Context() == directives.Main {
			continue
		}
		args := d.Args()
		if d.Is("map") || d.Is("log_format") && len(args) > 1 {
			args = args[1:] // the map's source, the format's name
		}
		for _, a := range args {
			what := mapCaptureShape(a.Value, maps, groups)
			if what == "" {
				continue
			}
			id := cveMapCaptures
			if (d.Is("root") || d.Is("log_format")) && on[cveMapRootLog] {
				id = cveMapRootLog
			}
			if !on[id] || done[id] {
				continue
			}
			done[id] = true
			reportCVE(p, d, a, id, v, "\""+d.Name().Value+"\" "+what)
		}
	}
}

// checkSliceCaptures reports CVE-2026-60005 at the slice or background
// update of a configuration that reads unnamed captures.
func checkSliceCaptures(p *analyzer.Pass, v string) {
	var at *parser.Directive
	for _, name := range []string{"slice", "proxy_cache_background_update", "fastcgi_cache_background_update", "scgi_cache_background_update", "uwsgi_cache_background_update"} {
		for _, i := range p.Index().Named(name) {
			if d := p.Index().Entries[i].Directive; d.Is("slice") || d.ArgIs("on") {
				at = d
				break
			}
		}
		if at != nil {
			break
		}
	}
	if at == nil {
		return
	}
	ix := p.Index()
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if e.Context()&(directives.StreamContexts|directives.Mail|directives.MailServer) != 0 {
			continue
		}
		for _, a := range e.Directive.Args() {
			if ref := firstUnnamedRef(a.Value); ref != "" {
				line := strconv.Itoa(e.Directive.File.Position(int(e.Directive.Name().Range.Start)).Line)
				reportCVE(p, at, at.Name(), cveSliceCaptures, v, "\""+at.Name().Value+"\" with "+ref+" read (line "+line+")")
				return
			}
		}
	}
}

// checkAlias reports CVE-2026-15176 (a rewrite reading $request_filename
// where alias maps the URI) and CVE-2026-125283 (try_files reading a
// variable of a capturing map where alias maps the URI).
func checkAlias(p *analyzer.Pass, v string, on map[string]bool) {
	if len(p.Index().Named("alias")) == 0 {
		return
	}
	var maps map[string]httpMap
	if on[cveAliasTryFiles] {
		maps, _ = httpMaps(p)
	}
	done := map[string]bool{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if analyzer.Innermost(stack, "location") == nil {
			return
		}
		// The alias in effect: the location's, or an outer location's
		// (root and alias are inherited together); a root nearer wins.
		var alias *parser.Directive
		for i := len(stack) - 1; i >= 0 && alias == nil; i-- {
			if !stack[i].Is("location") {
				continue
			}
			var root *parser.Directive
			for _, c := range p.Body(stack[i]) {
				if c.Is("alias") || c.Is("root") {
					root = c
				}
			}
			if root != nil {
				if !root.Is("alias") {
					return
				}
				alias = root
			}
		}
		if alias == nil {
			return
		}
		switch {
		case d.Is("rewrite") && on[cveAliasRewrite] && !done[cveAliasRewrite] && len(d.Args()) >= 2:
			for _, r := range script.Split(d.Args()[1].Value) {
				if r.Name == "request_filename" {
					done[cveAliasRewrite] = true
					reportCVE(p, d, d.Args()[1], cveAliasRewrite, v, "a rewrite reading $request_filename where \"alias\" maps the URI")
					return
				}
			}
		case d.Is("try_files") && on[cveAliasTryFiles] && !done[cveAliasTryFiles]:
			for _, a := range d.Args() {
				for _, r := range script.Split(a.Value) {
					if _, ok := maps[r.Name]; ok && r.Name != "" {
						done[cveAliasTryFiles] = true
						reportCVE(p, d, a, cveAliasTryFiles, v, "\"try_files\" reads $"+r.Name+", a map's variable whose regex captures, where \"alias\" maps the URI")
						return
					}
				}
			}
		}
	}, "rewrite", "try_files")
}

func reportCVE(p *analyzer.Pass, d *parser.Directive, at parser.Word, id, v, what string) {
	diag := p.Reportf(d.File, at.Range, "%s: nginx %s is affected by %s", what, v, id)
	p.AssumeTarget(diag)
	a := advisories.Lookup(id)
	diag.Detail = "reached by " + advisories.PatternOf(id) + "; upgrade to nginx " + a.FixedIn() + " or later (or a vendor build with the fix) (" + a.Link() + ")"
}
