package symbols

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file finds where a configuration uses variables, as nginx's
// configuration phase does: the arguments that nginx compiles as scripts
// or complex values (ngx_http_script_compile,
// ngx_http_compile_complex_value) name variables, and nginx resolves
// every name once all of http{} (or stream{}) is read
// (ngx_http_variables_init_vars). A variable defined anywhere (set, map,
// geo, a regex's named group...) is therefore known everywhere in its
// http or stream block, whatever the order. The unknown-variable,
// invalid-variable-name, variable-case and builtin-variable-redefined
// rules read it; the table holds what defines each variable.

// VarUse is one variable an argument names.
type VarUse struct {
	Directive *parser.Directive
	// Name is the name as written, without "$" (nginx looks it up
	// lower-cased).
	Name string
	// Range is the "$name" in its word (the whole word when it is
	// written with escapes), where a finding points.
	Range parser.Range
	// Stream is set for a use inside stream {}, whose variables are
	// another table than http's.
	Stream bool
}

// ScriptError is an argument nginx's script compiler rejects.
type ScriptError struct {
	Directive *parser.Directive
	Word      parser.Word
	// Offset is the byte of the value where the refused "$" is.
	Offset int
	// Message is nginx's ("invalid variable name", ...).
	Message string
}

// VarUses is what the arguments nginx compiles say about variables.
type VarUses struct {
	// Uses are the variables named, except those skip left out.
	Uses []VarUse
	// Errors are the scripts nginx refuses.
	Errors []ScriptError

	skip func(name string, stream bool) bool
}

// ReadUses reads the variables every compiled argument of the
// configuration ix indexes names, and the scripts nginx refuses. skip
// (nil: none) leaves out names nobody will ask about, such as the
// target's built-in variables: a big configuration names millions of
// variables, nearly all built in ($uri, $remote_addr, ...). It is given
// the name lower-cased, as nginx looks it up.
func ReadUses(ix *analyzer.Index, skip func(name string, stream bool) bool) *VarUses {
	vf := &VarUses{skip: skip}
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

// use records the variable name whose "$" is at byte off of w's value.
func (vf *VarUses) use(d *parser.Directive, w parser.Word, off int, name string, stream bool) {
	if vf.skip != nil && vf.skip(strings.ToLower(name), stream) {
		return
	}
	vf.Uses = append(vf.Uses, VarUse{Directive: d, Name: name, Range: w.SubRange(d.File, off, 1+len(name)), Stream: stream})
}

func (vf *VarUses) fail(d *parser.Directive, w parser.Word, off int, msg string) {
	vf.Errors = append(vf.Errors, ScriptError{Directive: d, Word: w, Offset: off, Message: msg})
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

// mapEntry reads one line of a map block: a value with "$" is a complex
// value.
func (vf *VarUses) mapEntry(e *analyzer.Entry) {
	d := e.Directive
	if e.Context()&(directives.Map|directives.StreamMap) == 0 {
		return
	}
	stream := e.Context()&directives.StreamContexts != 0
	if !d.Is("include") && !d.Is("hostnames") && !d.Is("volatile") && len(d.Args()) == 1 {
		vf.script(d, d.Args()[0], stream)
	}
}

// entry reads the variables one directive uses (the symbol table holds
// those it defines).
func (vf *VarUses) entry(e *analyzer.Entry) {
	d := e.Directive
	stream := e.Context()&directives.StreamContexts != 0
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
	name := d.Name().Value
	if name == "if" {
		vf.ifUses(d, stream)
		return
	}
	if name == "geo" {
		if i, ok := DefiningArg(d); ok && i == 1 {
			vf.script(d, d.Args()[0], stream)
		}
		return
	}
	spec, ok := compiledArgs[name]
	if !ok {
		return
	}
	switch spec.kind {
	case kindLogFormat:
		vf.logFormat(d, stream)
		return
	case kindWhole:
		// ngx_http_charset: "$name" is looked up whole.
		if len(d.Args()) == 1 && len(d.Args()[0].Value) > 1 && d.Args()[0].Value[0] == '$' {
			vf.use(d, d.Args()[0], 0, d.Args()[0].Value[1:], stream)
		}
		return
	case kindAccessLog:
		for j, a := range d.Args() {
			switch {
			case j == 0 && !strings.HasPrefix(a.Value, "syslog:"):
				vf.script(d, a, stream)
			case j > 1 && strings.HasPrefix(a.Value, "if="):
				vf.scriptFrom(d, a, 3, stream)
			}
		}
		return
	}
	if spec.at != nil {
		for _, j := range spec.at {
			if j < len(d.Args()) {
				vf.script(d, d.Args()[j], stream)
			}
		}
		return
	}
	for j := spec.from; j < len(d.Args()); j++ {
		a := d.Args()[j]
		if spec.kind == kindRegexOK && strings.HasPrefix(a.Value, "~") {
			continue
		}
		vf.script(d, a, stream)
	}
}

// script reads a word as ngx_http_script_compile does.
func (vf *VarUses) script(d *parser.Directive, w parser.Word, stream bool) {
	vf.scriptFrom(d, w, 0, stream)
}

// scriptFrom reads w.Value[start:] as ngx_http_script_compile does
// (script.Tokens), up to the first error, where nginx stops.
func (vf *VarUses) scriptFrom(d *parser.Directive, w parser.Word, start int, stream bool) {
	s := w.Value[start:]
	if strings.IndexByte(s, '$') < 0 {
		return
	}
	for t := range script.Tokens(s) {
		switch t.Kind {
		case script.Invalid:
			vf.fail(d, w, start+t.Start, t.Err)
			return
		case script.Variable:
			vf.use(d, w, start+t.Start, t.Name, stream)
		}
	}
}

// logFormat reads log_format's format strings as
// ngx_http_log_compile_format does (script.LogFormatTokens).
func (vf *VarUses) logFormat(d *parser.Directive, stream bool) {
	args := d.Args()
	j := 1
	if j < len(args) && strings.HasPrefix(args[j].Value, "escape=") {
		j++
	}
	for ; j < len(args); j++ {
		w := args[j]
		for t := range script.LogFormatTokens(w.Value) {
			switch t.Kind {
			case script.Invalid:
				vf.fail(d, w, t.Start, t.Err)
				return
			case script.Variable:
				vf.use(d, w, t.Start, t.Name, stream)
			}
		}
	}
}

// ifUses records the variables of an if condition: "$name" operands are
// looked up whole (ngx_http_rewrite_variable), the right side of = and !=
// and the operand of -f and the like are complex values.
func (vf *VarUses) ifUses(d *parser.Directive, stream bool) {
	c, ok := SplitIf(d)
	if !ok {
		return
	}
	if c.Op != "-" {
		off := strings.IndexByte(c.LHSWord.Value, '$')
		vf.use(d, c.LHSWord, off, c.LHS[1:], stream)
	}
	switch c.Op {
	case "=", "!=", "-":
		w := c.RHSWord
		w.Value = c.RHS
		vf.script(d, w, stream)
	}
}
