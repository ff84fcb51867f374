package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownVariable reports a variable that no module of the build and no
// directive of the configuration defines.
var UnknownVariable = &analyzer.Rule{
	Code: "NL2035", Name: "unknown-variable", Title: "variable is not defined", Severity: parser.Error,
	Run: runUnknownVariable,
	Doc: analyzer.Doc{
		Text: "nginx refuses to start (`unknown \"x\" variable`) when an argument it compiles names a " +
			"variable that neither a module of the build (`$host`, `$arg_*`, `$http_*`, ...) nor the " +
			"configuration defines (`set`, `map`, `geo`, `split_clients`, `perl_set`, `js_set`, " +
			"`auth_request_set`, a regex's named group `(?<name>...)`). Names are case-insensitive, " +
			"and a definition anywhere in `http {}` (or `stream {}`) counts everywhere in it, " +
			"whatever the order: nginx resolves the names once the whole block is read, which is " +
			"also why its message has no line number. nginx-lint reports every use. With " +
			"`--nginx-build` or `--nginx` the variables follow that build's modules and version " +
			"(`$is_request_port` needs 1.29.3, `$proxy_protocol_tlv_*` 1.23.2). " +
			"Arguments nginx takes literally (`server_name`, `listen`, ...) are not checked, nor " +
			"are the variables of directives nginx-lint does not know, which it counts as defined.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n        return 200 \"$remote_adr\\n\";\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        return 200 \"$remote_addr\\n\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/varindex.html",
	},
}

func runUnknownVariable(p *analyzer.Pass) {
	if !wholeConfig(p) {
		return
	}
	vf := variableFacts(p)
	if len(vf.uses) == 0 {
		return
	}
	for _, u := range vf.uses {
		name := strings.ToLower(u.name)
		if vf.defined[u.ns][name] {
			continue
		}
		// nginx lower-cases the name it reports (ngx_http_get_variable_index).
		diag := p.Reportf(u.d.File, u.r, "unknown \"%s\" variable", name)
		diag.Detail = unknownVarDetail(name, u.ns, p.Target.Modules, p.Target.Version)
	}
}

// unknownVarDetail says why a name is unknown: a variable of a missing
// module or a later version, or none at all.
func unknownVarDetail(name string, ns varNamespace, modules map[string]bool, version string) string {
	for _, v := range directives.LookupVariables(name) {
		if v.Stream != (ns == nsStream) {
			continue
		}
		if since := variableSince[v.Name]; version != "" && since != "" && analyzer.CompareVersions(version, since) < 0 {
			return "nginx " + version + " predates " + v.String() + " (since " + since + "); nginx refuses to start"
		}
		if modules != nil {
			return v.String() + " comes from " + v.Module + ", which this build lacks; nginx refuses to start"
		}
	}
	where := "http"
	if ns == nsStream {
		where = "stream"
	}
	return "no module and no set, map, geo, split_clients, perl_set, js_set or named regex group in " + where +
		" defines it; nginx refuses to start (check the spelling)"
}

// builtinVars is the embedded variables of one build, per namespace.
type builtinVars struct {
	exact    [2]map[string]bool
	prefixes [2][]string
}

// newBuiltinVars keeps the table's variables whose module is in modules
// (all when nil) and whose release is not after version (all when "").
// Variables the table knows only from the docs (NGINX Plus ones) count
// only when no build is given.
func newBuiltinVars(modules map[string]bool, version string) *builtinVars {
	b := &builtinVars{exact: [2]map[string]bool{{}, {}}}
	for _, v := range directives.AllVariables() {
		if modules != nil {
			in := false
			for _, m := range v.SourceModules {
				in = in || modules[m]
			}
			if !in {
				continue
			}
		}
		if since := variableSince[v.Name]; version != "" && since != "" && analyzer.CompareVersions(version, since) < 0 {
			continue
		}
		ns := nsHTTP
		if v.Stream {
			ns = nsStream
		}
		if v.Prefix {
			b.prefixes[ns] = append(b.prefixes[ns], v.Name)
		} else {
			b.exact[ns][v.Name] = true
		}
	}
	return b
}

func (b *builtinVars) has(name string, ns varNamespace) bool {
	if b.exact[ns][name] {
		return true
	}
	for _, p := range b.prefixes[ns] {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
