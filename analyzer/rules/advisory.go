package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/advisories"
	"github.com/nginx-lint/nginx-lint/parser"
)

// NginxAdvisory reports the nginx security advisories that apply to the
// targeted version and to what the configuration uses, as package
// advisories states them.
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

func runNginxAdvisory(p *analyzer.Pass) {
	// With no target named, the newest release the tables know, which no
	// advisory of the table affects.
	version := p.Target.NginxVersion()
	for i := range advisories.Table {
		a := &advisories.Table[i]
		if a.Severity == "none" || !a.Affects(version) {
			continue
		}
		cond, ok := advisories.Conditions[advisories.Features[a.CVE]]
		if !ok {
			continue // nginx's core, or a pattern cve-config-pattern checks
		}
		at := cond.Find(p, version)
		if at == nil {
			continue
		}
		diag := p.ReportDirective(at, "nginx %s is affected by %s (%s, %s)", version, a.CVE, a.Title, a.Severity)
		p.AssumeTarget(diag)
		diag.Detail = "reached by " + cond.What + "; fixed in nginx " + a.FixedIn() +
			"; distributions backport fixes without changing the version, so check your vendor's advisory (" + a.Link() + ")"
	}
}
