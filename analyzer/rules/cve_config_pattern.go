package rules

import (
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
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
			"This rule knows three, and reports them only when `--nginx-build` (or `--nginx`) names " +
			"a version that is affected; without a named build it stays silent, since the newest " +
			"nginx is fixed. Distributions backport fixes without changing the version, so check " +
			"your vendor's advisory before dismissing a finding.\n\n" +
			"- CVE-2026-42945 (nginx 0.6.27 to 1.30.0; fixed in 1.30.1 and 1.31.0): a `rewrite` " +
			"whose replacement holds `?`, followed in the same block by a `set` or `rewrite` that " +
			"reads an unnamed capture `$1`..`$9`, overflows a heap buffer in the worker.\n" +
			"- CVE-2026-9256 (up to 1.30.1, and 1.31.0; fixed in 1.30.2 and 1.31.1): the same " +
			"flaw on the redirect path, a redirecting `rewrite` whose replacement holds both `?` and " +
			"an unnamed capture.\n" +
			"- CVE-2026-42533 (1.9.8 to 1.30.3, and 1.31.0 to 1.31.2; fixed in 1.30.4 and 1.31.3): " +
			"a regex with an unnamed capture group in an http `map`, evaluated in a cloned " +
			"subrequest (`slice`, `proxy_cache_background_update`), leaves a stale capture count; " +
			"a later `$1`..`$9` reads uninitialized memory.\n\n" +
			"Upgrade, or use named captures (`(?<name>...)`, read as `$name`), which take another " +
			"code path. (The examples below are for an affected build such as 1.22.1.)",
		Bad:  "location ~ ^/api/(.*)$ {\n    rewrite ^/api/(.*)$ /internal?migrated=true;\n    set $endpoint $1;\n}\n",
		Good: "location ~ ^/api/(.*)$ {\n    rewrite ^/api/(?<rest>.*)$ /internal?migrated=true;\n    set $endpoint $rest;\n}\n",
		URL:  "https://nginx.org/en/security_advisories.html",
	},
}

// cveRange says which versions a CVE affects: from since, below fixed on
// the stable branch, and on the mainline branch (from mainline[0]) below
// mainline[1]. A mainline fixed at its first release has mainline[1] equal
// to mainline[0].
type cveRange struct {
	id, since, fixed string
	mainline         [2]string
}

var (
	cveRewriteArgs     = cveRange{"CVE-2026-42945", "0.6.27", "1.30.1", [2]string{"1.31.0", "1.31.0"}}
	cveRewriteRedirect = cveRange{"CVE-2026-9256", "0.6.27", "1.30.2", [2]string{"1.31.0", "1.31.1"}}
	cveMapCaptures     = cveRange{"CVE-2026-42533", "1.9.8", "1.30.4", [2]string{"1.31.0", "1.31.3"}}
)

// affects reports whether the targeted nginx has the flaw.
func (c cveRange) affects(t *analyzer.Target) bool {
	if !t.AtLeast(c.since) {
		return false
	}
	if t.AtLeast(c.mainline[0]) {
		return !t.AtLeast(c.mainline[1])
	}
	return !t.AtLeast(c.fixed)
}

// fixedIn names the releases that fix the flaw.
func (c cveRange) fixedIn() string {
	if c.mainline[1] == c.mainline[0] {
		return c.fixed + " and " + c.mainline[0]
	}
	return c.fixed + " and " + c.mainline[1]
}

// firstUnnamedRef returns the first $1..$9 in s, "" if none.
func firstUnnamedRef(s string) string {
	for _, r := range script.Split(s) {
		if len(r.Name) == 1 && r.Name[0] >= '1' && r.Name[0] <= '9' {
			return "$" + r.Name
		}
	}
	return ""
}

// redirectingRewrite reports whether a rewrite answers with a redirect:
// a redirect or permanent flag, or a replacement that starts with a
// scheme (nginx then redirects whatever the flag).
func redirectingRewrite(d *parser.Directive) bool {
	if len(d.Args) >= 3 {
		if f := d.Args[2].Value; f == "redirect" || f == "permanent" {
			return true
		}
	}
	r := d.Args[1].Value
	return strings.HasPrefix(r, "http://") || strings.HasPrefix(r, "https://") || strings.HasPrefix(r, "$scheme")
}

// hasUnnamedCapture reports whether re has a capture group without a name.
func hasUnnamedCapture(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture && re.Name == "" {
		return true
	}
	for _, s := range re.Sub {
		if hasUnnamedCapture(s) {
			return true
		}
	}
	return false
}

func runCVEConfigPattern(p *analyzer.Pass) {
	if !p.Target.Known() {
		return
	}
	v := p.Target.NginxVersion()
	args, redirect, maps := cveRewriteArgs.affects(p.Target), cveRewriteRedirect.affects(p.Target), cveMapCaptures.affects(p.Target)
	if !args && !redirect && !maps {
		return
	}
	// The blocks in which a rewrite with "?" in its replacement has run,
	// in reading order: a later set or rewrite there that reads $N is the
	// trigger.
	argsSet := map[*parser.Directive]*parser.Directive{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if d.Is("map") {
			if maps && innermost(stack, "http") != nil {
				checkMapCaptures(p, d, v)
			}
			return
		}
		if len(stack) == 0 {
			return
		}
		parent := stack[len(stack)-1]
		if d.Is("rewrite") && len(d.Args) >= 2 && redirect && redirectingRewrite(d) &&
			strings.Contains(d.Args[1].Value, "?") && firstUnnamedRef(d.Args[1].Value) != "" {
			reportCVE(p, d, d.Args[1], cveRewriteRedirect, v,
				"a redirecting rewrite whose replacement holds \"?\" and "+firstUnnamedRef(d.Args[1].Value))
			return
		}
		if !args {
			return
		}
		if !(d.Is("set") && len(d.Args) == 2 || d.Is("rewrite") && len(d.Args) >= 2) {
			return
		}
		if q := argsSet[parent]; q != nil {
			if ref := firstUnnamedRef(d.Args[1].Value); ref != "" {
				reportCVE(p, d, d.Args[1], cveRewriteArgs, v,
					"\""+d.Name.Value+"\" reads "+ref+" after the rewrite with \"?\" on line "+strconv.Itoa(q.File.Position(int(q.Name.Range.Start)).Line))
				return
			}
		}
		if d.Is("rewrite") && strings.Contains(d.Args[1].Value, "?") {
			if _, seen := argsSet[parent]; !seen {
				argsSet[parent] = d
			}
		}
	}, "rewrite", "set", "map")
}

func checkMapCaptures(p *analyzer.Pass, m *parser.Directive, v string) {
	for _, e := range p.Body(m) {
		expr, ci, ok := mapRegexKey(e)
		if !ok {
			continue
		}
		re := regex.Parse(expr, ci)
		if re == nil || !hasUnnamedCapture(re) {
			continue
		}
		reportCVE(p, e, e.Name, cveMapCaptures, v, "a map regex with an unnamed capture group")
		return
	}
}

func reportCVE(p *analyzer.Pass, d *parser.Directive, at parser.Word, c cveRange, v, what string) {
	diag := p.Reportf(d.File, at.Range, "%s: nginx %s is affected by %s", what, v, c.id)
	p.AssumeTarget(diag)
	diag.Detail = "upgrade to nginx " + c.fixedIn() + " or later (or a vendor build with the fix), " +
		"or use named captures (?<name>...) read as $name"
}

// Advisory is a known nginx vulnerability that a configuration pattern
// triggers, as cve-config-pattern reports it.
type Advisory struct {
	ID string `json:"id"`
	// Fixed names the releases that fix it.
	Fixed string `json:"fixed"`
	// Pattern says which configuration reaches it.
	Pattern string `json:"pattern"`
}

// cveAdvisories are the ranges cve-config-pattern knows, with what
// reaches each.
var cveAdvisories = []struct {
	r       cveRange
	pattern string
}{
	{cveRewriteArgs, "a rewrite whose replacement holds \"?\", then a set or rewrite reading $1..$9 in the same block"},
	{cveRewriteRedirect, "a redirecting rewrite whose replacement holds both \"?\" and $1..$9"},
	{cveMapCaptures, "an unnamed capture group in an http map regex, read in a cloned subrequest (slice, proxy_cache_background_update)"},
}

// Advisories lists the vulnerabilities of open-source nginx version
// whose trigger is a configuration pattern, for an audit of a build
// whatever its configuration.
func Advisories(version string) []Advisory {
	if version == "" {
		return nil
	}
	var out []Advisory
	t := &analyzer.Target{Version: version}
	for _, a := range cveAdvisories {
		if a.r.affects(t) {
			out = append(out, Advisory{ID: a.r.id, Fixed: a.r.fixedIn(), Pattern: a.pattern})
		}
	}
	return out
}
