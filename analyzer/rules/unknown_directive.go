package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/modules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// customDirectives are directive names unknown-directive accepts.
var customDirectives = analyzer.StringListOption("custom", []string{}, "Directive names to accept, for third-party modules (besides the settings' custom-directives).")

// UnknownDirective reports names the targeted nginx does not know: no
// module of the build, and no module the configuration loads, defines them.
var UnknownDirective = &analyzer.Rule{
	Code: "NL2001", Name: "unknown-directive", Title: "directive is not known to nginx", Severity: parser.Error,
	Fixable: true,
	Run:     runUnknownDirective,
	Options: []analyzer.Option{customDirectives.Decl()},
	Doc: analyzer.Doc{
		Text: "nginx refuses to start on a directive no module of the build or loaded with `load_module` " +
			"defines (`unknown directive`). nginx-lint reports an error, at the directive, when:\n\n" +
			"- the name is a near miss of a known directive (`liten`, `server_nmae`, `ssl_dh_param`): the " +
			"message suggests the closest names;\n" +
			"- the directive was removed from nginx (`limit_zone`, removed in 1.7.6), or is newer than the " +
			"targeted nginx (`http2 on;` for 1.22);\n" +
			"- its module is not in the targeted build (`--nginx-build`, `--nginx`), or is a shared object " +
			"of the build that no `load_module` loads, or is a third-party module (echo, lua, set-misc, " +
			"geoip2, ...) that neither the build nor a `load_module` brings;\n" +
			"- the build is known and no module the configuration loads could define it;\n" +
			"- no build is named and no module nginx-lint knows defines it: a stock nginx refuses it, and so " +
			"does every build of the modules nginx-lint knows.\n\n" +
			"It stays a warning, saying why, only when the configuration itself names a module nginx-lint " +
			"does not know that could define it: a `load_module` of an object nginx-lint does not know, or " +
			"a named build (`nginx -V`) with an `--add-module` nginx-lint does not know. nginx-lint knows nginx's modules, njs, " +
			"nginx-acme and about thirty third-party modules (their directives are read from their sources: lua, stream-lua, " +
			"headers-more, echo, set-misc, memc, srcache, redis2, NDK, geoip2, brotli, zstd, vts, nchan, " +
			"fancyindex, dav-ext, cache-purge, subs-filter, upload-progress, auth-pam, auth-ldap, " +
			"modsecurity, postgres, drizzle, ...). Declare the directives of others in `.nginx-lint.yaml` " +
			"(`custom-directives`), or name the build that has them (`nginx-build`).",
		Bad:  "events {}\nhttp {\n    server {\n        location / {\n            proxy_passs http://127.0.0.1:8080;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        location / {\n            proxy_pass http://127.0.0.1:8080;\n        }\n    }\n}\n",
	},
}

func runUnknownDirective(p *analyzer.Pass) {
	custom := stringSet(customDirectives.Get(p))
	var mf *modules.Loaded // computed at the first unknown name
	// The verdict on a known name is the same wherever it is: a name
	// found present once is not looked at again.
	present := map[string]bool{}
	p.WalkEntries(func(e *analyzer.Entry, stack []*parser.Directive) {
		d, name := e.Directive, e.Directive.Name().Value
		if directives.DataBlock(e.Context()) || custom[name] || p.CustomDirectives[name] {
			return
		}
		if mf == nil {
			mf = modules.Of(p)
		}
		if e.Known {
			if present[name] {
				return
			}
			diag := reportKnownUnknown(p, mf, d)
			if diag == nil {
				present[name] = true
			} else if name == "ssl" {
				// "ssl on;" means the ssl parameter on every listen.
				diag.Edits = sslOnEdits(d, p.ServerOf(sameFileParent(d, stack)))
			}
			return
		}
		diag := p.ReportDirective(d, "unknown directive %q", name)
		s := directives.Suggest(name)
		if len(s) > 0 {
			diag.Message += fmt.Sprintf("; did you mean %s?", quoteList(s))
			// The fix renames to the one candidate, when the target has
			// it: not newer than the target, its module present.
			if len(s) == 1 && p.FixAllowed(diag, directives.FirstSince(directives.Lookup(s[0]))) && !missingAll(p, mf, directives.Lookup(s[0])) {
				diag.Edits = []parser.Edit{{File: d.File, Range: d.Name().Range, NewText: s[0]}}
			}
			diag.Detail = "a near miss of a known directive; nginx refuses to start on it. " +
				"If a third-party module defines it, declare it under custom-directives in .nginx-lint.yaml"
			return
		}
		if !directiveLike(name) {
			diag.Detail = "no module names a directive this way (directive names are letters, digits and " +
				"underscores); nginx refuses to start. A comment starts with #"
			return
		}
		if who := mf.UnknownModuleSays(p); who != "" {
			diag.Severity = parser.Warning
			diag.Detail = "no module nginx-lint knows defines it; " + who + " may. " +
				"If so, declare it under custom-directives in .nginx-lint.yaml; if not, nginx refuses to start"
			return
		}
		if p.Target.Modules != nil && mf.Complete {
			diag.Detail = "no module of this nginx build (nginx -V) and no module the configuration loads defines it; " +
				"nginx refuses to start"
			return
		}
		// nginx's verdict by default: a stock nginx, and every build of
		// the modules nginx-lint knows, refuses it. Only the user knows of
		// a module compiled in that the configuration does not name.
		diag.Detail = "no module of nginx or of the third-party modules nginx-lint knows defines it; " +
			"nginx refuses to start. If a module nginx-lint does not know defines it, declare its " +
			"directives under custom-directives in .nginx-lint.yaml, or name the build " +
			"(nginx-build in .nginx-lint.yaml, or --nginx-build with its nginx -V output)"
	})
}

// reportKnownUnknown reports a directive of the tables that the targeted
// nginx does not have: removed, newer than it, or of a module it lacks.
// It returns the finding, or nil.
func reportKnownUnknown(p *analyzer.Pass, mf *modules.Loaded, d *parser.Directive) *parser.Diagnostic {
	name := d.Name().Value
	rows := directives.Lookup(name)
	// The version first: a build older than the directive lacks its
	// module too, and the version is the reason.
	if since := directives.FirstSince(rows); p.Target.Lacks(since) {
		version := p.Target.NginxVersion()
		diag := p.ReportDirective(d, "unknown directive %q: nginx %s predates it (since %s)", name, version, since)
		diag.Detail = "upgrade nginx or use the older form; nginx " + version + " refuses to start with this directive. " +
			"Distribution packages sometimes backport newer directives (Debian's 1.22.1 accepts max_headers, for one): " +
			"if nginx -t accepts it, declare it as a custom directive"
		p.AssumeTarget(diag)
		return diag
	}
	if removed := removedIn(rows); removed != "" && !p.Target.Lacks(removed) {
		target := "the newest nginx"
		if p.Target.Known() {
			target = "nginx " + p.Target.NginxVersion()
		}
		diag := p.ReportDirective(d, "unknown directive %q: removed in nginx %s", name, removed)
		diag.Detail = target + " refuses to start on it"
		if r := removedReplacements[name]; r != "" {
			diag.Detail += "; " + r
		}
		p.AssumeTarget(diag)
		return diag
	}
	var why, maybe *modules.Absence
	plusOnly := true
	for _, r := range rows {
		if r.Tags.Has("commercial") {
			continue // NGINX Plus: see below
		}
		plusOnly = false
		var a *modules.Absence
		for _, m := range rowSourceModules(r) {
			if a = mf.Missing(p.Target, m, r.ThirdParty); a == nil {
				sa := mf.StrictMissing(p.Target, m, r.ThirdParty)
				if sa == nil {
					return nil // one of its modules is there
				}
				if maybe == nil {
					maybe = sa
				}
			}
		}
		if why == nil {
			why = a
		}
	}
	if plusOnly {
		// Only NGINX Plus has it. An open-source build (named, or the
		// newest nginx by default) refuses it; only a named NGINX Plus
		// build (nginx -V says nginx-plus) has it.
		if p.Target.Modules != nil && !p.Target.Known() {
			return nil
		}
		diag := p.ReportDirective(d, "unknown directive %q: only NGINX Plus has it", name)
		diag.Detail = "open-source nginx refuses to start on it"
		if p.Target.Modules == nil {
			diag.Detail += "; if this configuration is for NGINX Plus, name the build (--nginx-build with its nginx -V)"
		}
		return diag
	}
	if maybe != nil {
		// Only an include that finds no file on this machine can load
		// its module: nginx's verdict depends on what it holds there.
		diag := p.ReportDirective(d, "unknown directive %q: its module is not loaded here", name)
		diag.Severity = parser.Warning
		diag.Detail = fmt.Sprintf("%s; the include at %s:%d finds no file here and may load it. If it does not, nginx refuses to start",
			maybe.Why, filepath.Base(mf.Open.File.Path), mf.Open.Line())
		return diag
	}
	if why == nil {
		return nil
	}
	if !why.NotLoaded {
		diag := p.ReportDirective(d, "unknown directive %q: this nginx build lacks its module", name)
		diag.Detail = why.Why + "; nginx refuses to start. Add the module to the build, or remove the directive"
		return diag
	}
	diag := p.ReportDirective(d, "unknown directive %q: its module is not loaded", name)
	diag.Detail = why.Why + "; nginx refuses to start. Load it (load_module modules/" +
		rowModule(rows) + ".so;) or remove the directive"
	return diag
}

// rowSourceModules is the modules that define a row: its source modules,
// else the docs' module.
func rowSourceModules(r *directives.Directive) []string {
	if len(r.SourceModules) > 0 {
		return r.SourceModules
	}
	return []string{r.Module}
}

// rowModule names the module of the first row, for a load_module hint.
func rowModule(rows []*directives.Directive) string {
	for _, r := range rows {
		return rowSourceModules(r)[0]
	}
	return ""
}

// removedIn returns the release that removed the directive, when every
// row of it is removed; "" when one still exists.
func removedIn(rows []*directives.Directive) string {
	removed := ""
	for _, r := range rows {
		v, ok := r.Tags.Value("removed-in")
		if !ok {
			return ""
		}
		if removed == "" || directives.CompareVersions(v, removed) > 0 {
			removed = v
		}
	}
	return removed
}

// removedReplacements says what replaced a removed directive, from
// nginx's changelog.
var removedReplacements = map[string]string{
	"limit_zone": `use limit_conn_zone (limit_conn_zone $binary_remote_addr zone=NAME:SIZE;)`,
	"ssl":        `use the "ssl" parameter of listen (listen 443 ssl;)`,
}

// directiveLike reports whether name could be a module's directive: the
// names of nginx's and of every third-party module's commands are ASCII
// letters, digits and underscores.
func directiveLike(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return name != ""
}

// missingAll reports whether no row's module is in the configuration
// linted for the target.
func missingAll(p *analyzer.Pass, mf *modules.Loaded, rows []*directives.Directive) bool {
	for _, r := range rows {
		for _, m := range rowSourceModules(r) {
			if mf.Missing(p.Target, m, r.ThirdParty) == nil {
				return false
			}
		}
	}
	return len(rows) > 0
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or ")
}
