package rules

import (
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// BuiltinVariableRedefined reports a configuration variable (set, map,
// geo, a regex's named group, ...) named like one of nginx's own
// variables that nginx does not let a configuration change.
var BuiltinVariableRedefined = &analyzer.Rule{
	Code: "NL2056", Name: "builtin-variable-redefined", Title: "a variable defined with the name of one of nginx's own", Severity: parser.Error,
	Run: runBuiltinVariableRedefined,
	Doc: analyzer.Doc{
		Text: "`set`, `map`, `geo`, `split_clients`, `perl_set`, `auth_request_set`, `js_set`, `js_var`, " +
			"`set_by_lua*` and the " +
			"named groups of a regex (`(?<name>...)`) each add a variable to nginx's table " +
			"(`ngx_http_add_variable`). When the name, compared without regard to case, is already " +
			"one of nginx's own variables that is not marked changeable, nginx refuses to start: " +
			"`the duplicate \"host\" variable`. Only a few of nginx's own variables may be changed " +
			"this way: `$args`, `$limit_rate`, `$proxy_host`, `$proxy_port`, the browser module's " +
			"`$msie`, `$modern_browser` and `$ancient_browser`, the userid module's `$uid_reset`, and " +
			"the `$ssl_*` variables of the ssl " +
			"modules. Variables of a prefix family (`$http_*`, `$arg_*`, `$cookie_*`, ...) are not in " +
			"that table, so `set $arg_page 1;` is accepted. Pick another name.\n\n" +
			"The variable must exist in the target build: with a build named, its module must be " +
			"there (for a shared object, loaded); with no build named, a finding on a module that " +
			"`./configure` leaves out by default (geoip, realip, ...) is a warning.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n        set $host example.com;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        set $canonical_host example.com;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#set",
	},
}

// changeableModules are the modules whose variables are all registered
// changeable (NGX_HTTP_VAR_CHANGEABLE, NGX_STREAM_VAR_CHANGEABLE).
var changeableModules = map[string]bool{"ngx_http_ssl_module": true, "ngx_stream_ssl_module": true}

// changeableVariables are the other changeable variables of nginx's
// modules (ngx_http_variables.c, ngx_http_proxy_module.c,
// ngx_http_browser_module.c, ngx_http_referer_module.c,
// ngx_http_userid_filter_module.c).
var changeableVariables = map[string]bool{
	"args": true, "limit_rate": true, "proxy_host": true, "proxy_port": true,
	"msie": true, "modern_browser": true, "ancient_browser": true, "invalid_referer": true, "uid_reset": true,
}

// ownVariables maps nginx's own variables (not a prefix family, not a
// third-party module's, found in nginx's source) by namespace and name.
var ownVariables = sync.OnceValue(func() [2]map[string]*directives.Variable {
	m := [2]map[string]*directives.Variable{{}, {}}
	for _, v := range directives.AllVariables() {
		if v.Prefix || v.ThirdParty || len(v.SourceModules) == 0 {
			continue
		}
		ns := nsHTTP
		if v.Stream {
			ns = nsStream
		}
		m[ns][v.Name] = v
	}
	return m
})

func runBuiltinVariableRedefined(p *analyzer.Pass) {
	ix := p.Index()
	builtin := variableFacts(p).builtin
	check := func(e *analyzer.Entry, f *parser.File, r parser.Range, name string) {
		ns := nsHTTP
		if e.Context()&directives.StreamContexts != 0 {
			ns = nsStream
		}
		lower := strings.ToLower(name)
		v := ownVariables()[ns][lower]
		if v == nil || !builtin.exact[ns][lower] || changeableVariables[lower] {
			return
		}
		for _, m := range variableModules(v) {
			if changeableModules[m] {
				return
			}
		}
		diag := p.Reportf(f, r, "the duplicate %q variable", name)
		diag.Detail = "$" + lower + " is nginx's own variable (" + v.Module + "), which a configuration cannot redefine: nginx refuses to start; pick another name"
		if p.Target.Modules == nil {
			inDefault := false
			for _, m := range variableModules(v) {
				inDefault = inDefault || buildinfo.InDefaultBuild(m)
			}
			if !inDefault {
				diag.Severity = parser.Warning
				diag.Detail = "$" + lower + " is a variable of " + v.Module + ", which ./configure leaves out by default: a build with it refuses to start; name the target (--nginx-build) for nginx's verdict, or pick another name"
			}
		}
	}
	for _, name := range symbols.VariableDefiners() {
		for _, i := range ix.Named(name) {
			e := &ix.Entries[i]
			d := e.Directive
			j, ok := symbols.DefiningArg(d)
			if !ok {
				continue
			}
			w := d.Args()[j]
			if len(w.Value) < 2 || w.Value[0] != '$' {
				continue
			}
			check(e, d.File, w.Range, w.Value[1:])
		}
	}
	capture := func(e *analyzer.Entry) {
		symbols.CaptureNames(e, func(w parser.Word, name string, at int) {
			r := w.Range
			if at >= 0 {
				r = w.SubRange(e.Directive.File, at, len(name))
			}
			check(e, e.Directive.File, r, name)
		})
	}
	for _, name := range symbols.RegexDirectives() {
		for _, i := range ix.Named(name) {
			capture(&ix.Entries[i])
		}
	}
	for _, i := range ix.Named("map") {
		for j, end := i+1, ix.End(i); j < end; j++ {
			if ix.Entries[j].Parent == i {
				capture(&ix.Entries[j])
			}
		}
	}
}
