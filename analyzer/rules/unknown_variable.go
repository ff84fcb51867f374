package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/modules"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownVariable reports a variable that no module of the build and no
// directive of the configuration defines.
var UnknownVariable = &analyzer.Rule{
	Code: "NL2035", Name: "unknown-variable", Title: "variable is not defined", Severity: parser.Error,
	Refuses: true,
	Run:     runUnknownVariable,
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
	if !p.WholeConfig() {
		return
	}
	vf := variableFacts(p)
	checkImplicitVariables(p, vf)
	if len(vf.Uses) == 0 {
		return
	}
	mf := modules.Of(p)
	// A module nginx-lint does not know may define the variable: one a
	// load_module loads or the build has, or one whose directives the
	// configuration uses (an unknown directive that is no typo).
	maybe := mf.UnknownModuleSays(p)
	if maybe == "" {
		if d := unknownModuleDirective(p); d != nil {
			maybe = fmt.Sprintf("the module of %q (%s:%d)", d.Name().Value, filepath.Base(d.File.Path), d.Line())
		}
	}
	tab := symbols.Of(p)
	for _, u := range vf.Uses {
		name := strings.ToLower(u.Name)
		if tab.Defined(symbols.VariableSymbol(name, u.Stream)) {
			continue
		}
		// nginx lower-cases the name it reports (ngx_http_get_variable_index).
		diag := p.Reportf(u.Directive.File, u.Range, "unknown \"%s\" variable", name)
		var byVersion bool
		diag.Detail, byVersion = unknownVarDetail(p, mf, name, namespace(u.Stream))
		if byVersion {
			p.AssumeTarget(diag)
		}
		if maybe != "" && len(directives.LookupVariables(name)) == 0 {
			diag.Severity = parser.Warning
			diag.Detail += "; but " + maybe + ", which nginx-lint does not know, may define it " +
				"(declare it under custom-variables in .nginx-lint.yaml)"
		}
	}
}

// unknownModuleDirective returns a directive no module nginx-lint knows
// defines and that is no near miss of a known one, nil when there is none:
// the sign of a module nginx-lint does not know.
func unknownModuleDirective(p *analyzer.Pass) *parser.Directive {
	ix := p.Index()
	for _, name := range ix.Names() {
		if len(directives.Lookup(name)) > 0 || p.CustomDirectives[name] {
			continue
		}
		for _, i := range ix.Named(name) {
			e := &ix.Entries[i]
			if e.Context() == 0 || directives.DataBlock(e.Context()) {
				continue
			}
			if len(directives.Suggest(name)) == 0 {
				return e.Directive
			}
			break
		}
	}
	return nil
}

// unknownVarDetail says why a name is unknown: a variable of a missing or
// unloaded module or of a later version (byVersion), or none at all.
func unknownVarDetail(p *analyzer.Pass, mf *modules.Loaded, name string, ns varNamespace) (detail string, byVersion bool) {
	for _, v := range directives.LookupVariables(name) {
		if v.Stream != (ns == nsStream) {
			continue
		}
		if since := variableSince(v); p.Target.Lacks(since) {
			return "nginx " + p.Target.NginxVersion() + " predates " + v.String() + " (since " + since + "); nginx refuses to start", true
		}
		for _, m := range variableModules(v) {
			if a := mf.Missing(p.Target, m, v.ThirdParty); a != nil {
				return v.String() + " comes from " + a.Why + "; nginx refuses to start", false
			}
			if v.Tags.Has("if-module-used") {
				return v.String() + " exists only where a directive of " + m + " is used; nginx refuses to start", false
			}
		}
		if p.Target.Modules != nil {
			return v.String() + " comes from " + v.Module + ", which this build lacks; nginx refuses to start", false
		}
	}
	where, other := "http", "stream"
	if ns == nsStream {
		where, other = "stream", "http"
	}
	if vs := directives.LookupVariables(name); len(vs) > 0 {
		// Only the other family has it ($upstream_addr in stream {}).
		return vs[0].String() + " is a variable of " + other + ", not of " + where + "; nginx refuses to start", false
	}
	return "no module and no set, map, geo, split_clients, perl_set, js_set or named regex group in " + where +
		" defines it; nginx refuses to start (check the spelling)", false
}

// variableModules is the modules that register a variable: its source
// modules, else the docs' module.
func variableModules(v *directives.Variable) []string {
	if len(v.SourceModules) > 0 {
		return v.SourceModules
	}
	return []string{v.Module}
}

// variableSince is the first nginx release that has v, "" when unknown.
func variableSince(v *directives.Variable) string {
	if v.Stream {
		return streamVariableSince[v.Name]
	}
	return httpVariableSince[v.Name]
}

// handlerless are variables nginx registers without a get handler (a
// placeholder for the module's own use, ngx_http_proxy_module.c): a
// configuration that names them gets "unknown variable".
var handlerless = map[string]bool{"proxy_add_via": true, "memcached_key": true}

// implicitVariables are variables a directive reads by name without
// writing them: ngx_http_memcached_pass asks for the index of
// $memcached_key, which no module defines (the docs list it as the key's
// variable; the configuration sets it), so memcached_pass without a
// definition of it is nginx's "unknown variable".
var implicitVariables = map[string]implicitVariable{"memcached_pass": {"memcached_key", "ngx_http_memcached_module"}}

// implicitVariable is the variable a directive reads and the directive's
// module: where the build lacks it, the directive is unknown-directive's.
type implicitVariable struct{ name, module string }

// checkImplicitVariables reports the directives of implicitVariables
// whose variable nothing defines, once per directive name: nginx stops at
// the first.
func checkImplicitVariables(p *analyzer.Pass, vf *varFacts) {
	tab := symbols.Of(p)
	ix := p.Index()
	for dir, iv := range implicitVariables {
		name := iv.name
		if !p.Target.HasModule(iv.module) || vf.builtin.has(name, nsHTTP) || tab.Defined(symbols.VariableSymbol(name, false)) {
			continue
		}
		for _, i := range ix.Named(dir) {
			e := &ix.Entries[i]
			if e.Context()&directives.StreamContexts != 0 {
				continue
			}
			diag := p.ReportDirective(e.Directive, "unknown \"%s\" variable", name)
			diag.Detail = fmt.Sprintf("%s reads the key from $%s, which no set, map or other directive defines; "+
				"nginx refuses to start: set it where the request is known (set $%s $uri;)", dir, name, name)
			if modules.Of(p).UnknownModuleSays(p) != "" || unknownModuleDirective(p) != nil {
				diag.Severity = parser.Warning
				diag.Detail += "; but a module nginx-lint does not know may define it"
			}
			break
		}
	}
}

// usedModules returns the modules whose directives the configuration uses.
func usedModules(ix *analyzer.Index) map[string]bool {
	out := map[string]bool{}
	for _, name := range ix.Names() {
		for _, r := range directives.Lookup(name) {
			for _, m := range rowSourceModules(r) {
				out[m] = true
			}
		}
	}
	return out
}

// varNamespace separates http variables from stream ones: nginx keeps
// one table per protocol.
type varNamespace uint8

const (
	nsHTTP varNamespace = iota
	nsStream
)

// namespace is the table of a variable of stream {} (stream) or http {}.
func namespace(stream bool) varNamespace {
	if stream {
		return nsStream
	}
	return nsHTTP
}

// varFacts is what the configuration's compiled arguments say about
// variables (symbols.ReadUses), the target's built-in variables left out.
type varFacts struct {
	*symbols.VarUses
	// builtin is the target's built-in variables, which Uses leaves out.
	builtin *builtinVars
}

// variableFacts reads the uses of variables once per run, for the rules
// about variables.
func variableFacts(p *analyzer.Pass) *varFacts { return varFactsResult.Get(p, struct{}{}) }

var varFactsResult = &analyzer.Result[struct{}, *varFacts]{
	Name: "variable uses",
	Compute: func(p *analyzer.Pass, _ struct{}) *varFacts {
		b := newBuiltinVars(p)
		skip := func(name string, stream bool) bool { return b.has(name, namespace(stream)) }
		return &varFacts{symbols.ReadUses(p.Index(), skip), b}
	},
}

// builtinVars is the embedded variables of one build, per namespace.
type builtinVars struct {
	exact    [2]map[string]bool
	prefixes [2][]string
}

// newBuiltinVars keeps the table's variables whose module the
// configuration has for its target (all when no build is named; a shared
// object or a third-party module only where a load_module loads it) and
// whose release is not after the target's, and the settings'
// custom-variables. Variables the table knows only from the docs (NGINX
// Plus ones) count only when no build is given.
func newBuiltinVars(p *analyzer.Pass) *builtinVars {
	mf := modules.Of(p)
	modules := p.Target.Modules
	b := &builtinVars{exact: [2]map[string]bool{{}, {}}}
	var used map[string]bool // modules whose directives the configuration uses
	for _, v := range directives.AllVariables() {
		if modules != nil && len(v.SourceModules) == 0 {
			continue
		}
		present := false
		for _, m := range variableModules(v) {
			present = present || mf.Missing(p.Target, m, v.ThirdParty) == nil
		}
		if present && v.Tags.Has("if-module-used") {
			// memc registers $memc_key only where memc_pass is used.
			if used == nil {
				used = usedModules(p.Index())
			}
			present = false
			for _, m := range variableModules(v) {
				present = present || used[m]
			}
		}
		if !present {
			continue
		}
		if p.Target.Lacks(variableSince(v)) || handlerless[v.Name] && !v.Stream {
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
	for _, name := range p.CustomVariables {
		for ns := range b.exact {
			if prefix, ok := strings.CutSuffix(name, "*"); ok {
				b.prefixes[ns] = append(b.prefixes[ns], prefix)
			} else {
				b.exact[ns][name] = true
			}
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
