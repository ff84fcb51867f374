package rules

import (
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file finds where a configuration uses and defines variables, as
// nginx's configuration phase does: the arguments that nginx compiles as
// scripts or complex values (ngx_http_script_compile,
// ngx_http_compile_complex_value) name variables, and nginx resolves
// every name once all of http{} (or stream{}) is read
// (ngx_http_variables_init_vars). A variable defined anywhere (set, map,
// geo, a regex's named group...) is therefore known everywhere in its
// http or stream block, whatever the order. The unknown-variable and
// invalid-variable-name rules share the result.

// varNamespace separates http variables from stream ones: nginx keeps
// one table per protocol.
type varNamespace uint8

const (
	nsHTTP varNamespace = iota
	nsStream
)

// varUse is one variable an argument names that is not a built-in
// variable of the target build. A big configuration names millions of
// variables, nearly all built in ($uri, $remote_addr, ...), which are
// therefore not kept; and a use keeps the range a finding would point at
// (the "$name" in the word) rather than the word.
type varUse struct {
	d    *parser.Directive
	name string
	r    parser.Range
	ns   varNamespace
}

// use records the variable name whose "$" is at byte off of w's value.
func (vf *varFacts) use(d *parser.Directive, w parser.Word, off int, name string, ns varNamespace) {
	// nginx looks names up lower-cased (ngx_http_get_variable_index).
	if vf.builtin.has(strings.ToLower(name), ns) {
		return
	}
	vf.uses = append(vf.uses, varUse{d: d, name: name, r: wordSubRange(d.File, w, off, 1+len(name)), ns: ns})
}

// varSyntaxError is an argument nginx's script compiler rejects.
type varSyntaxError struct {
	d       *parser.Directive
	word    parser.Word
	off     int
	message string
}

// varFacts is what the configuration says about variables.
type varFacts struct {
	uses []varUse
	errs []varSyntaxError
	// builtin is the target's built-in variables, which uses leaves out.
	builtin *builtinVars
}

// argSpec says which arguments of a directive nginx compiles.
type argSpec struct {
	// from is the first compiled argument; at, when set, lists the
	// only ones instead.
	from int
	at   []int
	// kind is how the argument is read.
	kind argKind
}

type argKind uint8

const (
	kindScript    argKind = iota // ngx_http_script_compile / complex value
	kindLogFormat                // ngx_http_log_compile_format
	kindAccessLog                // a path (script unless syslog:) and if=
	kindRegexOK                  // script, but "~regex" arguments are regexes
	kindWhole                    // "$name" names a variable whole (charset)
)

func compiled(from int) argSpec { return argSpec{from: from} }
func compiledAt(at ...int) argSpec {
	return argSpec{at: at}
}

// compiledArgs lists the directives whose arguments nginx 1.22 compiles
// for variables (checked against nginx by TestVariableDirectivesNginx).
// Directives that take their argument literally (server_name, listen,
// ssl_protocols, ...) are absent: a "$" there is just a character.
var compiledArgs = map[string]argSpec{
	"set":                       compiledAt(1),
	"return":                    compiled(0),
	"rewrite":                   compiledAt(1),
	"root":                      compiled(0),
	"alias":                     compiled(0),
	"try_files":                 compiled(0),
	"index":                     compiled(0),
	"error_page":                compiled(0),
	"add_header":                compiledAt(1),
	"add_trailer":               compiledAt(1),
	"expires":                   compiled(0),
	"proxy_pass":                compiled(0),
	"fastcgi_pass":              compiled(0),
	"uwsgi_pass":                compiled(0),
	"scgi_pass":                 compiled(0),
	"grpc_pass":                 compiled(0),
	"proxy_set_header":          compiledAt(1),
	"grpc_set_header":           compiledAt(1),
	"fastcgi_param":             compiledAt(1),
	"uwsgi_param":               compiledAt(1),
	"scgi_param":                compiledAt(1),
	"proxy_set_body":            compiled(0),
	"proxy_method":              compiled(0),
	"proxy_cache_key":           compiled(0),
	"fastcgi_cache_key":         compiled(0),
	"uwsgi_cache_key":           compiled(0),
	"scgi_cache_key":            compiled(0),
	"proxy_cache":               compiled(0),
	"fastcgi_cache":             compiled(0),
	"uwsgi_cache":               compiled(0),
	"scgi_cache":                compiled(0),
	"proxy_cache_bypass":        compiled(0),
	"proxy_no_cache":            compiled(0),
	"fastcgi_cache_bypass":      compiled(0),
	"fastcgi_no_cache":          compiled(0),
	"uwsgi_cache_bypass":        compiled(0),
	"uwsgi_no_cache":            compiled(0),
	"scgi_cache_bypass":         compiled(0),
	"scgi_no_cache":             compiled(0),
	"proxy_store":               compiled(0),
	"fastcgi_store":             compiled(0),
	"uwsgi_store":               compiled(0),
	"scgi_store":                compiled(0),
	"proxy_ssl_name":            compiled(0),
	"grpc_ssl_name":             compiled(0),
	"uwsgi_ssl_name":            compiled(0),
	"proxy_ssl_certificate":     compiled(0),
	"proxy_ssl_certificate_key": compiled(0),
	"grpc_ssl_certificate":      compiled(0),
	"grpc_ssl_certificate_key":  compiled(0),
	"uwsgi_ssl_certificate":     compiled(0),
	"uwsgi_ssl_certificate_key": compiled(0),
	"ssl_certificate":           compiled(0),
	"ssl_certificate_key":       compiled(0),
	"proxy_bind":                compiled(0),
	"fastcgi_bind":              compiled(0),
	"uwsgi_bind":                compiled(0),
	"scgi_bind":                 compiled(0),
	"grpc_bind":                 compiled(0),
	"memcached_bind":            compiled(0),
	"charset":                   {kind: kindWhole},
	"proxy_redirect":            {kind: kindRegexOK},
	"proxy_cookie_domain":       {kind: kindRegexOK},
	"proxy_cookie_path":         {kind: kindRegexOK},
	"limit_req_zone":            compiledAt(0),
	"limit_conn_zone":           compiledAt(0),
	"limit_rate":                compiled(0),
	"limit_rate_after":          compiled(0),
	"proxy_limit_rate":          compiled(0),
	"proxy_upload_rate":         compiled(0), // stream
	"proxy_download_rate":       compiled(0), // stream
	"auth_basic":                compiled(0),
	"auth_basic_user_file":      compiled(0),
	"auth_request_set":          compiledAt(1),
	"secure_link":               compiled(0),
	"secure_link_md5":           compiled(0),
	"sub_filter":                compiled(0),
	"hash":                      compiledAt(0),
	"map":                       compiledAt(0),
	"split_clients":             compiledAt(0),
	"access_log":                {kind: kindAccessLog},
	"log_format":                {kind: kindLogFormat, from: 1},
	"perl_set":                  argSpec{at: []int{}},
	"js_set":                    argSpec{at: []int{}},
	"js_var":                    compiled(1),
	"set_by_lua":                argSpec{at: []int{}},
	"set_by_lua_block":          argSpec{at: []int{}},
	"set_by_lua_file":           argSpec{at: []int{}},
}

// regexArgs yields the arguments of d that are regexes nginx compiles,
// as symbols.RegexArgs reads them, in the form the regex-syntax rule
// and the variable facts read.
func regexArgs(e *analyzer.Entry, yield func(regexArg) bool) {
	symbols.RegexArgs(e, func(r symbols.Regex) bool {
		return yield(regexArg{rng: r.Range, quote: r.Quote, expr: r.Expr, caseless: r.Caseless, noVars: r.NoVars})
	})
}

// regexArg is one regex argument.
type regexArg struct {
	// rng and quote are those of the regex's word (not the word itself,
	// whose value is expr or holds it).
	rng      parser.Range
	expr     string
	quote    byte
	caseless bool
	// noVars is set for a regex whose named groups define no variables.
	noVars bool
}

// variableFacts computes the uses and definitions of variables once per
// run, in one pass over the index.
func variableFacts(p *analyzer.Pass) *varFacts { return varFactsResult.Get(p, struct{}{}) }

var varFactsResult = &analyzer.Result[struct{}, *varFacts]{
	Name: "variable uses and definitions",
	Compute: func(p *analyzer.Pass, _ struct{}) *varFacts {
		return collectVariables(p.Index(), newBuiltinVars(p))
	},
}

// regexes yields every regex argument of the configuration with its
// entry, for the regex-syntax rule and for the variables their named
// groups define. It reads the index again each time rather than keep a
// list for the run: the list was the largest fact a dense configuration
// kept (40 bytes a regex location), and the two readers are one rule and
// the variable facts, computed once.
func regexes(ix *analyzer.Index) iter.Seq2[*analyzer.Entry, regexArg] {
	return func(yield func(*analyzer.Entry, regexArg) bool) {
		more := true
		each := func(e *analyzer.Entry) {
			regexArgs(e, func(r regexArg) bool {
				more = yield(e, r)
				return more
			})
		}
		for _, name := range regexDirectives {
			for _, i := range ix.Named(name) {
				if each(&ix.Entries[i]); !more {
					return
				}
			}
		}
		// Map entries are named by their keys: visit the map blocks' bodies.
		for _, i := range ix.Named("map") {
			for j, end := i+1, ix.End(i); j < end; j++ {
				if ix.Entries[j].Parent == i {
					if each(&ix.Entries[j]); !more {
						return
					}
				}
			}
		}
	}
}

// regexDirectives are the directives with regex arguments (regexArgs).
var regexDirectives = symbols.RegexDirectives()

func collectVariables(ix *analyzer.Index, builtin *builtinVars) *varFacts {
	vf := &varFacts{builtin: builtin}
	// Only the directives that can matter are visited, by name, so that
	// a configuration of a hundred thousand listens costs nothing here.
	visit := func(name string) {
		for _, i := range ix.Named(name) {
			vf.entry(&ix.Entries[i])
		}
	}
	for name := range compiledArgs {
		visit(name)
	}
	visit("if")
	visit("geo")
	// Map entries are named by their keys: visit the map blocks' bodies.
	for _, i := range ix.Named("map") {
		for j, end := i+1, ix.End(i); j < end; j++ {
			if ix.Entries[j].Parent == i {
				vf.mapEntry(&ix.Entries[j])
			}
		}
	}
	return vf
}

// mapEntry reads one line of a map block: a value with "$" is a complex
// value.
func (vf *varFacts) mapEntry(e *analyzer.Entry) {
	d := e.Directive
	if e.Context()&(directives.Map|directives.StreamMap) == 0 {
		return
	}
	ns := nsHTTP
	if e.Context()&directives.StreamContexts != 0 {
		ns = nsStream
	}
	if !d.Is("include") && !d.Is("hostnames") && !d.Is("volatile") && len(d.Args) == 1 {
		vf.script(d, d.Args[0], ns)
	}
}

// entry reads the variables one directive uses (the symbol table holds
// those it defines).
func (vf *varFacts) entry(e *analyzer.Entry) {
	d := e.Directive
	ns := nsHTTP
	if e.Context()&directives.StreamContexts != 0 {
		ns = nsStream
	}
	if e.Context() == 0 || e.Context()&(directives.Map|directives.StreamMap|directives.Geo|directives.StreamGeo) != 0 {
		return
	}
	if d.RawBlock() || !e.Known {
		// A Lua block's body is Lua, not nginx variables; a directive
		// nginx-lint does not know may well define the variables it
		// names (set-misc's set_* and the like), which the symbol table
		// counts as defined rather than guess.
		return
	}
	name := d.Name.Value
	if name == "if" {
		vf.ifUses(d, ns)
		return
	}
	if name == "geo" {
		if i, ok := symbols.DefiningArg(d); ok && i == 1 {
			vf.script(d, d.Args[0], ns)
		}
		return
	}
	spec, ok := compiledArgs[name]
	if !ok {
		return
	}
	switch spec.kind {
	case kindLogFormat:
		vf.logFormat(d, ns)
		return
	case kindWhole:
		// ngx_http_charset: "$name" is looked up whole.
		if len(d.Args) == 1 && len(d.Args[0].Value) > 1 && d.Args[0].Value[0] == '$' {
			vf.use(d, d.Args[0], 0, d.Args[0].Value[1:], ns)
		}
		return
	case kindAccessLog:
		for j, a := range d.Args {
			switch {
			case j == 0 && !strings.HasPrefix(a.Value, "syslog:"):
				vf.script(d, a, ns)
			case j > 1 && strings.HasPrefix(a.Value, "if="):
				vf.scriptFrom(d, a, 3, ns)
			}
		}
		return
	}
	if spec.at != nil {
		for _, j := range spec.at {
			if j < len(d.Args) {
				vf.script(d, d.Args[j], ns)
			}
		}
		return
	}
	for j := spec.from; j < len(d.Args); j++ {
		a := d.Args[j]
		if spec.kind == kindRegexOK && strings.HasPrefix(a.Value, "~") {
			continue
		}
		vf.script(d, a, ns)
	}
}

func isNameChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// script reads a word as ngx_http_script_compile does.
func (vf *varFacts) script(d *parser.Directive, w parser.Word, ns varNamespace) {
	vf.scriptFrom(d, w, 0, ns)
}

// scriptFrom reads w.Value[start:] as ngx_http_script_compile does: "$"
// then a digit 1-9 is a capture, "${name}" or "$name" (letters, digits,
// "_") a variable; "$" with no name, or "${" without its "}", is an
// error.
func (vf *varFacts) scriptFrom(d *parser.Directive, w parser.Word, start int, ns varNamespace) {
	s := w.Value
	if strings.IndexByte(s[start:], '$') < 0 {
		return
	}
	for i := start; i < len(s); {
		if s[i] != '$' {
			i++
			continue
		}
		at := i
		i++
		if i == len(s) {
			vf.errs = append(vf.errs, varSyntaxError{d, w, at, "invalid variable name"})
			return
		}
		if s[i] >= '1' && s[i] <= '9' {
			i++
			continue
		}
		bracket := false
		if s[i] == '{' {
			bracket = true
			i++
			if i == len(s) {
				vf.errs = append(vf.errs, varSyntaxError{d, w, at, "invalid variable name"})
				return
			}
		}
		n := i
		for i < len(s) {
			if s[i] == '}' && bracket {
				break
			}
			if !isNameChar(s[i]) {
				break
			}
			i++
		}
		name := s[n:i]
		if bracket {
			if i == len(s) || s[i] != '}' {
				vf.errs = append(vf.errs, varSyntaxError{d, w, at, `the closing bracket in "` + name + `" variable is missing`})
				return
			}
			i++
		}
		if name == "" {
			vf.errs = append(vf.errs, varSyntaxError{d, w, at, "invalid variable name"})
			return
		}
		vf.use(d, w, at, name, ns)
	}
}

// logFormat reads log_format's format strings as
// ngx_http_log_compile_format does: like a script, but a digit is part of
// a name ($1 is the variable "1") and a lone "$" is an invalid parameter.
func (vf *varFacts) logFormat(d *parser.Directive, ns varNamespace) {
	args := d.Args
	j := 1
	if j < len(args) && strings.HasPrefix(args[j].Value, "escape=") {
		j++
	}
	for ; j < len(args); j++ {
		w := args[j]
		s := w.Value
		for i := 0; i < len(s); {
			if s[i] != '$' {
				i++
				continue
			}
			at := i
			i++
			bracket := false
			if i < len(s) && s[i] == '{' {
				bracket = true
				i++
			}
			if i == len(s) {
				vf.errs = append(vf.errs, varSyntaxError{d, w, at, `invalid parameter "` + s[at:] + `"`})
				return
			}
			n := i
			for i < len(s) && !(s[i] == '}' && bracket) && isNameChar(s[i]) {
				i++
			}
			name := s[n:i]
			if bracket {
				if i == len(s) || s[i] != '}' {
					vf.errs = append(vf.errs, varSyntaxError{d, w, at, `the closing bracket in "` + name + `" variable is missing`})
					return
				}
				i++
			}
			if name == "" {
				vf.errs = append(vf.errs, varSyntaxError{d, w, at, `invalid parameter "` + s[at:] + `"`})
				return
			}
			vf.use(d, w, at, name, ns)
		}
	}
}

// ifUses records the variables of an if condition: "$name" operands are
// looked up whole (ngx_http_rewrite_variable), the right side of = and !=
// and the operand of -f and the like are complex values.
func (vf *varFacts) ifUses(d *parser.Directive, ns varNamespace) {
	c, ok := symbols.SplitIf(d)
	if !ok {
		return
	}
	if c.Op != "-" {
		off := strings.IndexByte(c.LHSWord.Value, '$')
		vf.use(d, c.LHSWord, off, c.LHS[1:], ns)
	}
	switch c.Op {
	case "=", "!=", "-":
		w := c.RHSWord
		w.Value = c.RHS
		vf.script(d, w, ns)
	}
}

// wordSubRange returns the range of value[off:off+n] in w when the word
// is written without escapes, else the whole word.
func wordSubRange(f *parser.File, w parser.Word, off, n int) parser.Range {
	raw := w.Raw(f)
	start := w.Range.Start
	if w.Quote(f) != 0 && len(raw) >= 2 {
		raw = raw[1 : len(raw)-1]
		start++
	}
	if raw != w.Value || off < 0 || off+n > len(raw) {
		return w.Range
	}
	return parser.Range{Start: start + int32(off), End: start + int32(off+n)}
}

// wholeConfig reports whether the pass sees the whole configuration:
// a main file (not a fragment, whose includer may define what it uses)
// whose includes were all found. The rules that look for a definition
// anywhere in the configuration (a variable, a zone, a log format, a
// certificate) stay quiet otherwise, since the missing part may hold it.
// An include glob that matched nothing counts as missing when its
// directory does not exist either: a checkout of /etc/nginx/nginx.conf
// without its conf.d, say; so does a file only the deployment host has
// (Config.Elsewhere: Debian's modules-enabled links).
func wholeConfig(p *analyzer.Pass) bool { return wholeConfigResult.Get(p, struct{}{}) }

var wholeConfigResult = &analyzer.Result[struct{}, bool]{
	Name:    "whole configuration",
	Compute: func(p *analyzer.Pass, _ struct{}) bool { return isWholeConfig(p) },
}

func isWholeConfig(p *analyzer.Pass) bool {
	c := p.Config
	if len(c.Context) > 0 || len(c.Elsewhere) > 0 {
		return false // a fragment, or files only the deployment host has
	}
	for _, d := range c.Diagnostics {
		if d.Name == parser.NameIncludeNotFound || d.Name == parser.NameUnreadable || d.Name == parser.NameIncludeCycle {
			return false
		}
	}
	ix := p.Index()
	for _, i := range ix.Named("include") {
		d := ix.Entries[i].Directive
		if len(d.Args) != 1 || len(c.Included(d)) > 0 || !strings.ContainsAny(d.Args[0].Value, "*?[") {
			continue
		}
		dir := filepath.Dir(d.Args[0].Value)
		if !filepath.IsAbs(dir) {
			prefix := c.Prefix
			if prefix == "" && c.Main != nil {
				prefix = filepath.Dir(c.Main.Path)
			}
			dir = filepath.Join(prefix, dir)
		}
		// The directory as the loader sees it: through include-paths
		// and a mirrored tree, not this machine's.
		if p.Glob != nil {
			if m, err := p.Glob(dir); err != nil || len(m) == 0 {
				return false
			}
		} else if _, err := os.Stat(dir); err != nil {
			return false
		}
	}
	return true
}
