package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// NginxAdvisory reports the nginx security advisories that apply to the
// targeted version and to what the configuration uses.
var NginxAdvisory = &analyzer.Rule{
	Code: "NL3032", Name: "nginx-advisory", Title: "the targeted nginx has a security advisory for what the configuration uses", Severity: parser.Error,
	Run: runNginxAdvisory,
	Doc: analyzer.Doc{
		Text: "nginx.org lists every security advisory with the versions it affects. With a target " +
			"(`--nginx-build`, `--nginx`, `--nginx-version`, or `nginx-build`/`nginx-version` in " +
			"`.nginx-lint.yaml`), nginx-lint reports each advisory whose vulnerable versions include " +
			"the target, once, at the directive that uses the affected feature (HTTP/2, HTTP/3, " +
			"`resolver`, `mp4`, `slice`, `ssi`, `dav_methods`, gRPC and HTTP/2 proxying, scgi and " +
			"uwsgi, `charset`, the mail proxy, TLS and upstream TLS); advisories in nginx's core, " +
			"which no configuration avoids, are left to your package manager. Without a target it reports, as information, the recent advisories " +
			"(fixed in 1.24 or later) for the features the configuration uses, with the versions that " +
			"fix them. Distributions backport fixes without changing the version number (Debian's " +
			"1.22.1 carries many): check your vendor's advisory before dismissing a finding. " +
			"The table is generated from nginx.org's security_advisories.xml; `cve-config-pattern` " +
			"covers the advisories a specific configuration pattern triggers.",
		Bad:  "events {}\nhttp {\n    resolver 127.0.0.1;\n    server {\n        listen 80;\n        location / {\n            mp4;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        location / {\n            root /srv;\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/security_advisories.html",
	},
}

// advisory is one of nginx's security advisories (advisories_gen.go).
type advisory struct {
	title, severity, cve string
	good, vulnerable     []string
}

// advisoryFeature names what a configuration must use to be reached by
// each advisory, from the advisories' texts. "core" is nginx's core
// (request parsing, the range filter, ...), which no configuration avoids:
// not the configuration's finding. A test keeps every advisory of the
// generated table here. The three advisories cve-config-pattern checks
// precisely are left to it.
var advisoryFeature = map[string]string{
	"CVE-2026-42533": "-", "CVE-2026-9256": "-", "CVE-2026-42945": "-",
	"CVE-2026-60005": "slice", "CVE-2026-56434": "ssi",
	"CVE-2026-42530": "http3", "CVE-2026-40460": "http3", "CVE-2024-32760": "http3", "CVE-2024-31079": "http3",
	"CVE-2024-35200": "http3", "CVE-2024-34161": "http3", "CVE-2024-24989": "http3", "CVE-2024-24990": "http3",
	"CVE-2026-42055": "grpc", "CVE-2026-42926": "proxy-http2",
	"CVE-2026-48142": "charset", "CVE-2026-42934": "charset",
	"CVE-2026-42946": "scgi-uwsgi", "CVE-2026-40701": "ocsp-resolver", "CVE-2026-27654": "dav",
	"CVE-2026-27784": "mp4", "CVE-2026-32647": "mp4", "CVE-2024-7347": "mp4", "CVE-2022-41741": "mp4",
	"CVE-2022-41742": "mp4", "CVE-2018-16845": "mp4", "CVE-2012-2089": "mp4",
	"CVE-2026-27651": "mail", "CVE-2026-28753": "mail", "CVE-2025-53859": "mail", "CVE-2014-3556": "mail",
	"CVE-2026-28755": "stream-ssl", "CVE-2026-1642": "upstream-ssl",
	"CVE-2025-23419": "ssl-verify-client", "CVE-2014-3616": "ssl", "CVE-2009-3555": "ssl",
	"CVE-2021-23017": "resolver", "CVE-2016-0742": "resolver", "CVE-2016-0746": "resolver",
	"CVE-2016-0747": "resolver", "CVE-2011-4315": "resolver",
	"CVE-2019-9511": "http2", "CVE-2019-9513": "http2", "CVE-2019-9516": "http2",
	"CVE-2018-16843": "http2", "CVE-2018-16844": "http2",
	"CVE-2014-0133": "spdy", "CVE-2014-0088": "spdy",
	"CVE-2013-2070": "proxy", "CVE-2012-1180": "proxy", "CVE-2009-3898": "dav",
	"CVE-2017-7529": "core", "CVE-2016-4450": "core", "CVE-2013-4547": "core", "CVE-2013-2028": "core",
	"CVE-2009-4487": "core", "CVE-2009-2629": "core", "CVE-2009-3896": "core",
}

// featureUse returns the first directive that uses a feature, nil when
// the configuration does not use it.
func featureUse(p *analyzer.Pass, feature string) *parser.Directive {
	ix := p.Index()
	first := func(names ...string) *parser.Directive {
		for _, i := range ix.Named(names...) {
			return ix.Entries[i].Directive
		}
		return nil
	}
	listenWith := func(param grammar.ParamKind) *parser.Directive {
		for _, s := range p.Model().Servers {
			for _, l := range s.Listens() {
				if l.Spec != nil && l.Spec.Has(param) {
					return l.Directive
				}
			}
		}
		return nil
	}
	withArg := func(name, prefix string) *parser.Directive {
		for _, i := range ix.Named(name) {
			d := ix.Entries[i].Directive
			if len(d.Args) > 0 && strings.HasPrefix(d.Args[0].Value, prefix) {
				return d
			}
		}
		return nil
	}
	switch feature {
	case "slice", "ssi", "mp4", "charset", "resolver", "spdy":
		return first(map[string]string{"spdy": "spdy_headers_comp"}[feature] + feature)
	case "http2":
		if d := first("http2"); d != nil {
			return d
		}
		return listenWith(grammar.ParamHTTP2)
	case "http3":
		if d := first("http3"); d != nil {
			return d
		}
		return listenWith(grammar.ParamQUIC)
	case "grpc":
		return first("grpc_pass")
	case "proxy-http2":
		return withArg("proxy_http_version", "2")
	case "scgi-uwsgi":
		return first("scgi_pass", "uwsgi_pass")
	case "ocsp-resolver":
		if first("resolver") != nil {
			return first("ssl_stapling", "ssl_ocsp")
		}
	case "dav":
		return first("dav_methods")
	case "mail":
		return first("mail")
	case "stream-ssl":
		for _, i := range ix.Named("ssl_ocsp") {
			if e := &ix.Entries[i]; e.Context()&directives.StreamContexts != 0 {
				return e.Directive
			}
		}
	case "ssl-verify-client":
		return first("ssl_verify_client")
	case "upstream-ssl":
		if d := withArg("proxy_pass", "https://"); d != nil {
			return d
		}
		return withArg("grpc_pass", "grpcs://")
	case "ssl":
		if d := first("ssl_certificate"); d != nil {
			return d
		}
		return listenWith(grammar.ParamSSL)
	case "proxy":
		return first("proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass")
	}
	return nil
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

// recent reports whether a stable branch from 1.24 on got the fix: the
// advisories worth a word when no target is named.
func (a *advisory) recent() bool {
	for _, g := range a.good {
		if directives.CompareVersions(strings.TrimSuffix(g, "+"), "1.24.0") >= 0 {
			return true
		}
	}
	return false
}

func runNginxAdvisory(p *analyzer.Pass) {
	version := p.Target.NamedVersion()
	for i := range advisoryTable {
		a := &advisoryTable[i]
		feature, ok := advisoryFeature[a.cve]
		if feature == "-" || a.severity == "none" {
			continue
		}
		if version != "" && !a.vulnerableIn(version) || version == "" && !a.recent() {
			continue
		}
		if !ok || feature == "core" {
			continue
		}
		at := featureUse(p, feature)
		if at == nil {
			continue
		}
		msg := fmt.Sprintf("%s (%s, %s)", a.cve, a.title, a.severity)
		var diag *parser.Diagnostic
		if version != "" {
			diag = p.ReportDirective(at, "nginx %s is affected by %s", version, msg)
		} else {
			diag = p.ReportDirective(at, "affected if your nginx is older than %s: %s", a.fixedIn(), msg)
		}
		if version == "" {
			diag.Severity = parser.Info
		}
		p.AssumeTarget(diag)
		diag.Detail = "fixed in nginx " + a.fixedIn() + "; distributions backport fixes without changing the version, so check your vendor's advisory (https://nginx.org/en/security_advisories.html)"
	}
}
