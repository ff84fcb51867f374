package symbols

import (
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file reads what a directive defines or names as nginx does: the
// address of a *_pass, the shared memory zone a directive adds, the
// variable a directive defines, the regexes nginx compiles and their
// named groups. The rules (analyzer/rules) and the table read them from
// here, so that both decide alike.

// PassAddress is the address a *_pass names.
type PassAddress struct {
	// Host is the host lower-cased, as ngx_http_upstream_add compares
	// it; Text the host as written.
	Host, Text string
	// Port is the port written (0 for none; proxy_pass's scheme gives
	// its own, 80 or 443).
	Port int
	// NoPort: the address has no port, so it may name an upstream block
	// (nginx refuses "upstream may not have port" for a block's name).
	NoPort bool
	// Word is the argument.
	Word parser.Word
}

// ParsePass reads the host and port of a *_pass without variables, as
// its handler does (ngxparse.ParsePass); ok is false for what it cannot
// judge (unix sockets, IPv6 literals, variables, a scheme the directive
// does not take, an address nginx refuses, which another rule reports).
// stream is whether d is inside stream {}.
func ParsePass(d *parser.Directive, stream bool) (PassAddress, bool) {
	if len(d.Args()) != 1 || strings.Contains(d.Args()[0].Value, "$") {
		return PassAddress{}, false
	}
	w := d.Args()[0]
	pp, ok := ngxparse.ParsePass(d.Name().Value, stream, w.Value)
	if !ok || pp.Vars || pp.BadPrefix || pp.Err != "" || pp.Unix || strings.HasPrefix(pp.Host, "[") {
		return PassAddress{}, false
	}
	return PassAddress{Host: strings.ToLower(pp.Host), Text: pp.Host, Port: pp.Port, NoPort: pp.NoPort, Word: w}, true
}

// passName returns the upstream name the *_pass d names: the host as
// written and its byte offset in the argument's value. ok is false for
// an address that cannot name an upstream block (ParsePass's, and one
// with a port).
func passName(d *parser.Directive, stream bool) (host string, at int, ok bool) {
	u, ok := ParsePass(d, stream)
	if !ok || !u.NoPort {
		return "", 0, false
	}
	if i := strings.Index(u.Word.Value, "://"); i >= 0 {
		at = i + 3
	}
	if !strings.HasPrefix(u.Word.Value[at:], u.Text) {
		return "", 0, false
	}
	return u.Text, at, true
}

// ZoneRef is one directive that adds a shared memory zone
// (ngx_shared_memory_add): a definition with a size, or a use.
type ZoneRef struct {
	Name string
	// Tag is the module that owns the zone (nginx compares tags).
	Tag string
	// Sized: the directive gives the zone a size (defines it).
	Sized bool
	D     *parser.Directive
	// Word is the argument that names the zone.
	Word parser.Word
}

// zoneDirectives are the directives ZoneOf reads.
var zoneDirectives = []string{"limit_req_zone", "limit_conn_zone", "limit_req", "limit_conn",
	"proxy_cache_path", "fastcgi_cache_path", "scgi_cache_path", "uwsgi_cache_path",
	"proxy_cache", "fastcgi_cache", "scgi_cache", "uwsgi_cache", "zone", "ssl_session_cache", "lua_shared_dict"}

// ZoneDirectives returns the names of the directives that may add a
// shared memory zone (ZoneOf).
func ZoneDirectives() []string { return slices.Clone(zoneDirectives) }

// ZoneOf returns the zone the directive of e adds, if any.
func ZoneOf(e *analyzer.Entry) (ZoneRef, bool) {
	d := e.Directive
	stream := e.Context()&directives.StreamContexts != 0
	proto := "http "
	if stream {
		proto = "stream "
	}
	byPrefix := func(prefix, tag string) (ZoneRef, bool) {
		for _, a := range d.Args() {
			if v, ok := strings.CutPrefix(a.Value, prefix); ok {
				name, size, _ := strings.Cut(v, ":")
				return ZoneRef{Name: name, Tag: tag, Sized: size != "" || !strings.Contains(v, ":"), D: d, Word: a}, true
			}
		}
		return ZoneRef{}, false
	}
	switch name := d.Name().Value; name {
	case "limit_req_zone":
		return byPrefix("zone=", proto+"limit_req")
	case "limit_conn_zone":
		return byPrefix("zone=", proto+"limit_conn")
	case "limit_req":
		r, ok := byPrefix("zone=", proto+"limit_req")
		r.Sized = false
		return r, ok
	case "limit_conn":
		if len(d.Args()) == 2 {
			return ZoneRef{Name: d.Args()[0].Value, Tag: proto + "limit_conn", D: d, Word: d.Args()[0]}, true
		}
	case "proxy_cache_path", "fastcgi_cache_path", "scgi_cache_path", "uwsgi_cache_path":
		return byPrefix("keys_zone=", strings.TrimSuffix(name, "_path"))
	case "proxy_cache", "fastcgi_cache", "scgi_cache", "uwsgi_cache":
		// "off", and a zone chosen by a variable, add no zone at startup.
		if len(d.Args()) == 1 && d.Args()[0].Value != "off" && !strings.Contains(d.Args()[0].Value, "$") {
			return ZoneRef{Name: d.Args()[0].Value, Tag: name, D: d, Word: d.Args()[0]}, true
		}
	case "zone":
		if e.Context()&(directives.Upstream|directives.StreamUpstream) != 0 {
			if len(d.Args()) >= 1 {
				return ZoneRef{Name: d.Args()[0].Value, Tag: proto + "upstream", Sized: len(d.Args()) >= 2, D: d, Word: d.Args()[0]}, true
			}
		}
	case "lua_shared_dict":
		// lua-nginx-module's (and stream-lua's) dictionaries are zones
		// of their module's own.
		if len(d.Args()) == 2 {
			return ZoneRef{Name: d.Args()[0].Value, Tag: proto + "lua", Sized: true, D: d, Word: d.Args()[0]}, true
		}
	case "ssl_session_cache":
		for _, a := range d.Args() {
			if v, ok := strings.CutPrefix(a.Value, "shared:"); ok {
				name, _, _ := strings.Cut(v, ":")
				return ZoneRef{Name: name, Tag: proto + "ssl", Sized: true, D: d, Word: a}, true
			}
		}
	}
	return ZoneRef{}, false
}

// zoneName returns the zone e adds with the name's byte offset in the
// argument's value; ok is false for none, or a name not written as it
// is read.
func zoneName(e *analyzer.Entry) (r ZoneRef, at int, ok bool) {
	r, ok = ZoneOf(e)
	if !ok || r.Name == "" {
		return r, 0, false
	}
	v := r.Word.Value
	switch {
	case strings.HasPrefix(v, r.Name):
	case strings.HasPrefix(v, "shared:"):
		at = len("shared:")
	default:
		at = strings.IndexByte(v, '=') + 1
	}
	return r, at, strings.HasPrefix(v[at:], r.Name)
}

// definers are the directives that define the variable their argument
// "$name" names, by the argument's index (geo, whose source is
// optional, is read apart).
var definers = map[string]int{
	"set":              0,
	"auth_request_set": 0,
	"map":              1,
	"split_clients":    1,
	"perl_set":         0,
	"js_set":           0,
	"js_var":           0,
	"set_by_lua":       0,
	"set_by_lua_block": 0,
	"set_by_lua_file":  0,
}

// DefiningArg returns the index of d's argument that names the variable
// d defines (its "$name": set, map, geo, split_clients, perl_set, js_set,
// js_var, auth_request_set, set_by_lua*, and the third-party directives
// the tables say define one); ok is false when d defines none or has too
// few arguments.
func DefiningArg(d *parser.Directive) (i int, ok bool) {
	if d.Is("geo") {
		// geo [$src] $dst
		switch len(d.Args()) {
		case 1, 2:
			return len(d.Args()) - 1, true
		}
		return 0, false
	}
	i, ok = definerArgs()[d.Name().Value]
	return i, ok && i < len(d.Args())
}

// definerArgs is definers with the third-party directives the tables say
// define a variable by an argument (set-misc's set_md5 $x ...), read from
// the tables once: DefiningArg is asked for every directive of a
// configuration.
var definerArgs = sync.OnceValue(func() map[string]int {
	m := maps.Clone(definers)
	for _, row := range directives.All() {
		if i, ok := row.DefinesArg(); ok {
			if _, seen := m[row.Name]; !seen {
				m[row.Name] = i
			}
		}
	}
	return m
})

// VariableDefiners returns the names of the nginx directives DefiningArg
// answers for without the tables, sorted.
func VariableDefiners() []string {
	out := []string{"geo"}
	for name := range definers {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Regex is one argument of a directive that is a regex nginx compiles.
type Regex struct {
	// Range and Quote are those of the regex's word (not the word
	// itself, whose value is Expr or holds it).
	Range parser.Range
	Expr  string
	Quote byte
	// Caseless: "~*" and the like.
	Caseless bool
	// NoVars is set for a regex whose named groups define no variables
	// (compiled with ngx_regex_compile rather than
	// ngx_http_regex_compile).
	NoVars bool
}

// RegexDirectives are the directives with regex arguments (RegexArgs),
// besides the keys of map blocks.
func RegexDirectives() []string { return slices.Clone(regexDirectives) }

var regexDirectives = []string{"location", "rewrite", "server_name", "valid_referers", "if", "proxy_redirect",
	"proxy_cookie_domain", "proxy_cookie_path", "fastcgi_split_path_info"}

// RegexArgs yields the arguments of e's directive that are regexes nginx
// compiles (location ~, rewrite, if, server_name ~, a map's key, ...):
// their named groups are variables, and the captures $1-$9 after them
// their groups. (A sequence rather than a slice: it is read several times
// per run, and a slice per directive would be garbage each time.)
func RegexArgs(e *analyzer.Entry, yield func(Regex) bool) {
	d := e.Directive
	args := d.Args()
	switch {
	case e.Context()&(directives.Map|directives.StreamMap) != 0:
		// A map entry: the key is the directive's name.
		if n := d.Name().Value; strings.HasPrefix(n, "~") && !d.Is("~") {
			yield(Regex{Range: d.Name().Range, Quote: d.Name().Quote(d.File), Expr: strings.TrimPrefix(strings.TrimPrefix(n, "~"), "*"), Caseless: strings.HasPrefix(n, "~*")})
		}
		return
	case e.Context() == 0:
		return
	}
	switch d.Name().Value {
	case "location":
		if len(args) >= 2 && (args[0].Value == "~" || args[0].Value == "~*") {
			yield(Regex{Range: args[1].Range, Quote: args[1].Quote(d.File), Expr: args[1].Value, Caseless: args[0].Value == "~*"})
		} else if len(args) == 1 && len(args[0].Value) > 1 && args[0].Value[0] == '~' {
			// "location ~^/x" is nginx's "~" followed by the regex.
			v := args[0].Value[1:]
			caseless := false
			if v[0] == '*' {
				v, caseless = v[1:], true
			}
			if v != "" {
				yield(Regex{Range: args[0].Range, Quote: args[0].Quote(d.File), Expr: v, Caseless: caseless})
			}
		}
	case "rewrite":
		if len(args) >= 2 {
			yield(Regex{Range: args[0].Range, Quote: args[0].Quote(d.File), Expr: args[0].Value})
		}
	case "server_name":
		for _, a := range args {
			if len(a.Value) > 1 && a.Value[0] == '~' && !yield(Regex{Range: a.Range, Quote: a.Quote(d.File), Expr: a.Value[1:]}) {
				return
			}
		}
	case "valid_referers":
		for _, a := range args {
			// ngx_http_add_regex_referer compiles with
			// ngx_regex_compile: caseless, and its named groups define
			// no variables.
			if len(a.Value) > 1 && a.Value[0] == '~' && !yield(Regex{Range: a.Range, Quote: a.Quote(d.File), Expr: a.Value[1:], Caseless: true, NoVars: true}) {
				return
			}
		}
	case "if":
		if c, ok := SplitIf(d); ok && c.Op != "" && c.Op[len(c.Op)-1] != '=' && c.Op[0] != '-' && c.Op != "!-" {
			yield(Regex{Range: c.RHSWord.Range, Quote: c.RHSWord.Quote(d.File), Expr: c.RHS, Caseless: strings.HasSuffix(c.Op, "*")})
		}
	case "fastcgi_split_path_info":
		// Compiled with ngx_regex_compile: no variables from its groups.
		if len(args) == 1 {
			yield(Regex{Range: args[0].Range, Quote: args[0].Quote(d.File), Expr: args[0].Value, NoVars: true})
		}
	case "proxy_redirect", "proxy_cookie_domain", "proxy_cookie_path":
		if len(args) == 2 && len(args[0].Value) > 1 && args[0].Value[0] == '~' {
			v := args[0].Value[1:]
			caseless := false
			if v[0] == '*' {
				v, caseless = v[1:], true
			}
			yield(Regex{Range: args[0].Range, Quote: args[0].Quote(d.File), Expr: v, Caseless: caseless})
		}
	}
}

// Regexes yields every regex argument of the configuration ix indexes
// (RegexArgs) with its entry. It reads the index again each time rather
// than keep a list for the run: the list was the largest fact a dense
// configuration kept (40 bytes a regex location).
func Regexes(ix *analyzer.Index) iter.Seq2[*analyzer.Entry, Regex] {
	return func(yield func(*analyzer.Entry, Regex) bool) {
		more := true
		each := func(e *analyzer.Entry) {
			RegexArgs(e, func(r Regex) bool {
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

// IfCond is an if condition split as ngx_http_rewrite_if_condition does.
type IfCond struct {
	// LHS is the first operand with the parenthesis removed, LHSWord its
	// word; Op the operator ("" for a lone variable); RHS the last
	// operand (its ")" removed), RHSWord its word.
	LHS, Op, RHS     string
	LHSWord, RHSWord parser.Word
}

// SplitIf follows ngx_http_rewrite_if_condition; ok is false for a
// condition nginx rejects (a rule reports those).
func SplitIf(d *parser.Directive) (IfCond, bool) {
	a := d.Args()
	if len(a) == 0 || a[0].Value == "" || a[0].Value[0] != '(' {
		return IfCond{}, false
	}
	val := make([]string, len(a))
	for i, w := range a {
		val[i] = w.Value
	}
	cur, last := 0, len(a)-1
	if val[0] == "(" {
		cur = 1
	} else {
		val[0] = val[0][1:]
	}
	if val[last] == "" || val[last][len(val[last])-1] != ')' {
		return IfCond{}, false
	}
	if val[last] == ")" {
		last--
	} else {
		val[last] = val[last][:len(val[last])-1]
	}
	if cur > last {
		return IfCond{}, false
	}
	c := IfCond{LHS: val[cur], LHSWord: a[cur]}
	if len(c.LHS) > 1 && c.LHS[0] == '$' {
		if cur == last {
			return c, true
		}
		if cur+2 != last {
			return IfCond{}, false
		}
		c.Op, c.RHS, c.RHSWord = val[cur+1], val[last], a[last]
		switch c.Op {
		case "=", "!=", "~", "~*", "!~", "!~*":
			return c, true
		}
		return IfCond{}, false
	}
	if (len(c.LHS) == 2 && c.LHS[0] == '-' || len(c.LHS) == 3 && c.LHS[:2] == "!-") && cur+1 == last {
		c.Op, c.RHS, c.RHSWord = "-", val[last], a[last]
		return c, true
	}
	return IfCond{}, false
}

// IfMatch returns the variable (lower-cased, without "$"), the operator
// and the regex of "if ($v op re)" when op is one of the regex operators
// (~, ~*, !~, !~*), the condition read as nginx reads it (SplitIf).
func IfMatch(d *parser.Directive) (v, op, expr string, ok bool) {
	if !d.Is("if") {
		return "", "", "", false
	}
	c, ok := SplitIf(d)
	if !ok {
		return "", "", "", false
	}
	switch c.Op {
	case "~", "~*", "!~", "!~*":
		return strings.ToLower(c.LHS[1:]), c.Op, c.RHS, true
	}
	return "", "", "", false
}

// CaptureNames calls fn with each variable a named group of a regex of
// e defines (the regexes nginx compiles with ngx_http_regex_compile):
// the word the regex is written in, the group's name, and the name's
// offset in the word's value (-1 when the regex is not a slice of the
// value as written).
func CaptureNames(e *analyzer.Entry, fn func(w parser.Word, name string, at int)) {
	d := e.Directive
	RegexArgs(e, func(r Regex) bool {
		if r.NoVars {
			return true
		}
		w := d.Name()
		for _, a := range d.Args() {
			if a.Range == r.Range {
				w = a
			}
		}
		if w.Range != r.Range {
			return true
		}
		// The regex is the value with a prefix ("~", "~*") or a suffix
		// (an "if" condition's ")") cut off.
		base := -1
		switch {
		case strings.HasSuffix(w.Value, r.Expr):
			base = len(w.Value) - len(r.Expr)
		case strings.HasPrefix(w.Value, r.Expr):
			base = 0
		}
		regex.NamedGroups(r.Expr, func(name string, at int) {
			if base < 0 {
				fn(w, name, -1)
			} else {
				fn(w, name, base+at)
			}
		})
		return true
	})
}

// certificateDirectives are the directives whose argument is a
// certificate, key, CA or CRL file nginx reads at startup.
var certificateDirectives = func() map[string]bool {
	m := map[string]bool{}
	for _, prefix := range []string{"", "proxy_", "grpc_", "uwsgi_"} {
		for _, name := range []string{"ssl_certificate", "ssl_certificate_key", "ssl_trusted_certificate", "ssl_crl"} {
			m[prefix+name] = true
		}
	}
	m["ssl_client_certificate"] = true
	return m
}()

// IsCertificate reports whether the argument of the directive name is a
// certificate, key, CA or CRL file (a Certificate symbol).
func IsCertificate(name string) bool { return certificateDirectives[name] }

// ReadsFile reports whether the one argument of the directive name is a
// file nginx opens at startup, by a path relative to the conf prefix
// (ngx_conf_full_name): a certificate, a key, a CA or CRL, a password
// file.
func ReadsFile(name string) bool {
	return certificateDirectives[name] || name == "auth_basic_user_file" || name == "ssl_password_file" ||
		name == "ssl_dhparam" || name == "ssl_stapling_file" || name == "ssl_session_ticket_key"
}
