package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// NginxAdvisory reports the nginx security advisories that apply to the
// targeted version and to what the configuration uses.
var NginxAdvisory = &analyzer.Rule{
	Code: "NL3032", Name: "nginx-advisory", Title: "the targeted nginx has a security advisory for what the configuration uses", Severity: parser.Error,
	Run: runNginxAdvisory,
	Doc: analyzer.Doc{
		Text: "nginx.org lists every security advisory with the versions it affects. For the " +
			"targeted nginx (`--nginx-build`, `--nginx`, `--nginx-version`, or `nginx-build`/" +
			"`nginx-version` in `.nginx-lint.yaml`), nginx-lint reports each advisory whose " +
			"vulnerable versions include the target, once, at the directive that reaches it, under " +
			"the conditions the advisory states: HTTP/2 or HTTP/3 turned on, a `resolver`, `mp4`, " +
			"`slice` with unnamed captures, `ssi` (with `aio`), `dav_methods`, scgi and uwsgi, the " +
			"mail proxy, `ssl_verify_client` with `ssl_ocsp` and a resolver, a `charset_map` " +
			"recoding from UTF-8 with `proxy_buffering off`, `proxy_set_body` or huge header " +
			"buffers with `proxy_http_version 2`, TLS session tickets, TLSv1.3, the stream " +
			"module's client certificates and `ssl_preread`, upstream TLS. Advisories in nginx's " +
			"core, which no configuration avoids, are left to your package manager; " +
			"`cve-config-pattern` covers the advisories a specific configuration pattern triggers. " +
			"With no target named the newest release nginx-lint knows is assumed, which no " +
			"advisory of the table affects; a target newer than that is said once (the " +
			"advisories published after the table's date are not checked). Distributions " +
			"backport fixes without changing the version number (Debian's 1.22.1 carries many): " +
			"check your vendor's advisory before dismissing a finding. The table is generated " +
			"from nginx.org's security_advisories.xml and nginx-lint's record of the advisories " +
			"published after it (docs/security.md says how). The examples are for nginx 1.22.1.",
		Bad:  "events {}\nhttp {\n    resolver 127.0.0.1;\n    server {\n        listen 80;\n        location / {\n            mp4;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        location / {\n            root /srv;\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/security_advisories.html",
	},
}

// advisory is one of nginx's security advisories (advisories_gen.go).
type advisory struct {
	title, severity, cve string
	good, vulnerable     []string
	// url is the F5 article ("" when unknown), source where the entry
	// was read ("nginx.org" for its page).
	url, source string
}

// vulnerableIn reports whether version (the target's, or one a test
// names) is among the advisory's vulnerable versions and not among its
// fixed ones: "1.16.1+" fixes the 1.16 branch
// from 1.16.1, and the highest fixed version fixes everything after it.
func (a *advisory) vulnerableIn(version string) bool {
	in := false
	for _, r := range a.vulnerable {
		if r == "all" {
			in = true
			break
		}
		lo, hi, ok := strings.Cut(r, "-")
		if !ok {
			hi = lo
		}
		if directives.CompareVersions(version, lo) >= 0 && directives.CompareVersions(version, hi) <= 0 {
			in = true
		}
	}
	if !in {
		return false
	}
	top := ""
	for _, g := range a.good {
		g = strings.TrimSuffix(g, "+")
		if top == "" || directives.CompareVersions(g, top) > 0 {
			top = g
		}
	}
	for _, g := range a.good {
		g = strings.TrimSuffix(g, "+")
		if directives.CompareVersions(version, g) >= 0 && (g == top || branch(version) == branch(g)) {
			return false
		}
	}
	return true
}

// branch is a version's major.minor.
func branch(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// fixedIn says which releases fix the advisory.
func (a *advisory) fixedIn() string {
	var out []string
	for _, g := range a.good {
		out = append(out, strings.TrimSuffix(g, "+"))
	}
	return strings.Join(out, " or ")
}

func runNginxAdvisory(p *analyzer.Pass) {
	// With no target named, the newest release the tables know, which no
	// advisory of the table affects.
	version := p.Target.NginxVersion()
	for i := range advisoryTable {
		a := &advisoryTable[i]
		feature := advisoryFeature[a.cve]
		if feature == "-" || feature == "core" || a.severity == "none" || !a.vulnerableIn(version) {
			continue
		}
		cond, ok := advisoryConditions[feature]
		if !ok {
			continue
		}
		at := cond.find(p, version)
		if at == nil {
			continue
		}
		diag := p.ReportDirective(at, "nginx %s is affected by %s (%s, %s)", version, a.cve, a.title, a.severity)
		p.AssumeTarget(diag)
		diag.Detail = "reached by " + cond.what + "; fixed in nginx " + a.fixedIn() +
			"; distributions backport fixes without changing the version, so check your vendor's advisory (" + a.link() + ")"
	}
}

// link is where to read the advisory: its F5 article, else nginx.org's
// page.
func (a *advisory) link() string {
	if a.url != "" {
		return a.url
	}
	return "https://nginx.org/en/security_advisories.html"
}

// UnknownRelease returns what to say, once, about a target version newer
// than every release nginx-lint knows ("" when it knows the version's
// branch up to it): its advisories and directives are not in the tables.
func UnknownRelease(version string) string {
	if version == "" || !directives.NewerThanKnown(version) {
		return ""
	}
	return "nginx " + version + ": nginx-lint knows releases up to " + strings.Join(directives.NewestKnown(), " and ") +
		"; advisories after " + advisoriesThrough + " are not checked"
}
