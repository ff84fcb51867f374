package rules

import (
	"regexp/syntax"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds what several security rules share: a compiled view of
// nginx regexes (PCRE, read with Go's regexp/syntax, which accepts the
// subset real configs use) and a small taint tracker that says what a
// variable may hold when a directive uses it.

// taint says what a value may hold.
type taint struct {
	// user: the client chooses some of it.
	user bool
	// lf, cr: it may hold a line feed or a carriage return (a decoded
	// %0A / %0D), which splits headers or the upstream request.
	lf, cr bool
	// slash: it always starts with "/", so it cannot change the host of
	// a URL it follows.
	slash bool
	// wide: it may hold characters that end or re-point a host name
	// (".", ":", "@", "/", "?", "#", "\\"), so it can name any host, not
	// just pick one label next to fixed text.
	wide bool
	// known: we know where the value comes from; an unknown variable
	// (set by a module we do not model) is never reported.
	known bool
}

func (t taint) or(u taint) taint {
	return taint{user: t.user || u.user, lf: t.lf || u.lf, cr: t.cr || u.cr,
		slash: t.slash && u.slash, wide: t.wide || u.wide, known: t.known || u.known}
}

// builtinTaint describes nginx's own variables. Headers and query
// arguments arrive raw (nginx rejects CR and LF in header lines and does
// not decode arguments), while $uri is the decoded path and can hold any
// byte the client percent-encodes.
func builtinTaint(name string) (taint, bool) {
	switch {
	case name == "uri" || name == "document_uri" || name == "request_filename" || name == "fastcgi_path_info":
		return taint{user: true, lf: true, cr: true, slash: name != "fastcgi_path_info", wide: true, known: true}, true
	case name == "request_uri":
		return taint{user: true, slash: true, wide: true, known: true}, true
	case name == "request_body":
		return taint{user: true, lf: true, cr: true, wide: true, known: true}, true
	case name == "args" || name == "query_string" || name == "request" || name == "remote_user" ||
		name == "content_type" || name == "cookie" ||
		strings.HasPrefix(name, "arg_") || strings.HasPrefix(name, "http_") || strings.HasPrefix(name, "cookie_"):
		return taint{user: true, wide: true, known: true}, true
	case name == "host" || name == "server_name" || name == "scheme" || name == "server_port" ||
		name == "remote_addr" || name == "binary_remote_addr" || name == "server_addr" ||
		name == "request_method" || name == "is_args" || name == "proxy_host" || name == "proxy_port" ||
		name == "realpath_root" || name == "document_root" || name == "hostname" || name == "status" ||
		name == "upstream_addr" || name == "proxy_add_x_forwarded_for" || name == "https" ||
		name == "server_protocol" || name == "request_id" || name == "msec" || name == "time_iso8601" ||
		name == "time_local" || name == "connection" || name == "nginx_version" || name == "pid":
		return taint{known: true}, true
	}
	return taint{}, false
}

// rawSubject reports whether a regex subject never holds CR or LF, so a
// capture of it cannot either, whatever the pattern. Header values
// ($host, $http_*) qualify: nginx rejects CR and LF in header lines, and
// in HTTP/2 and HTTP/3 header values too.
func rawSubject(name string) bool {
	t, ok := builtinTaint(name)
	return ok && t.known && !t.lf && !t.cr
}

// regexScope is a regex match that sets captures for the directives
// inside it: a regex location, an "if" with "~" or "~*", or a map key.
type regexScope struct {
	re      *syntax.Regexp
	subject string // variable matched, without "$"
}

// captureTaint says what group n (or the named group) of m may hold.
func captureTaint(env *taintEnv, m regexScope, n int, name string, stack []*parser.Directive) (taint, bool) {
	g := regex.Group(m.re, n, name)
	if g == nil {
		return taint{}, false
	}
	subj := env.varTaint(m.subject, stack)
	t := taint{user: subj.user || !subj.known, known: true}
	if !rawSubject(m.subject) {
		t.lf = regex.MayContain(g, regex.RuneSet{Rune: '\n'})
		t.cr = regex.MayContain(g, regex.RuneSet{Rune: '\r'})
	}
	other, _ := regex.MayStart(g, regex.RuneSet{Rune: '/', Other: true})
	t.slash = !other
	for _, r := range ".:@/?#\\" {
		t.wide = t.wide || regex.MayContain(g, regex.RuneSet{Rune: r})
	}
	return t, true
}

// locationRegex returns the regex of a "location ~ re" block, or nil.
func (env *taintEnv) locationRegex(d *parser.Directive) *syntax.Regexp {
	if !d.Is("location") {
		return nil
	}
	loc, err := parser.LocationSpec(d)
	if err != nil || !loc.IsRegex {
		return nil
	}
	return env.regex(loc.Path, loc.CaseInsensitive)
}

// ifRegex returns the matched variable and regex of "if ($v ~ re)", or
// false. Negated matches set no captures.
func (env *taintEnv) ifRegex(d *parser.Directive) (string, *syntax.Regexp, bool) {
	v, op, expr, ok := ifMatch(d)
	if !ok {
		return "", nil, false
	}
	re := env.regex(expr, strings.HasSuffix(op, "*"))
	if re == nil {
		return "", nil, false
	}
	return v, re, op[0] != '!'
}

// ifMatch splits the condition of "if ($v op expr)" when op is one of the
// regex operators; v is returned without "$".
func ifMatch(d *parser.Directive) (v, op, expr string, ok bool) {
	if !d.Is("if") {
		return "", "", "", false
	}
	w := d.Args
	if len(w) > 0 && w[0].Value == "(" {
		w = w[1:]
	}
	closed := false
	if len(w) > 0 && w[len(w)-1].Value == ")" && w[len(w)-1].Quote(d.File) == 0 {
		w, closed = w[:len(w)-1], true
	}
	if len(w) < 3 {
		return "", "", "", false
	}
	a := make([]string, len(w))
	for i, x := range w {
		a[i] = x.Value
	}
	a[0] = strings.TrimPrefix(a[0], "(")
	// The closing parenthesis sticks to an unquoted last word.
	if last := w[len(w)-1]; !closed && last.Quote(d.File) == 0 {
		a[len(a)-1] = strings.TrimSuffix(a[len(a)-1], ")")
	}
	op = a[1]
	if !strings.HasPrefix(a[0], "$") || (op != "~" && op != "~*" && op != "!~" && op != "!~*") {
		return "", "", "", false
	}
	return strings.ToLower(strings.TrimPrefix(a[0], "$")), op, strings.Join(a[2:], " "), true
}

// scopeAt returns the innermost regex whose captures are visible in a
// directive with the given enclosing blocks.
func (env *taintEnv) scopeAt(stack []*parser.Directive) (regexScope, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		d := stack[i]
		if re := env.locationRegex(d); re != nil {
			return regexScope{re: re, subject: "uri"}, true
		}
		if d.Is("if") {
			if v, re, ok := env.ifRegex(d); ok {
				return regexScope{re: re, subject: v}, true
			}
		}
	}
	return regexScope{}, false
}

// setDef is one "set $v value" with the blocks around it.
type setDef struct {
	d     *parser.Directive
	stack []*parser.Directive
}

// mapEntry is one line of a map block: the key and the value it yields.
type mapEntry struct {
	key, value string
	subject    string
	// literal: the value is text as written (geo does not expand
	// variables in its values).
	literal bool
}

// taintEnv resolves variables for one configuration: set and map
// definitions are collected once per run (taintDefs, shared by the rules);
// each rule's results are memoised in its own env and cycles cut.
type taintEnv struct {
	*taintDefs
	busy    map[string]bool
	mapMemo map[string]taint
	// regexes are the parsed regexes of the env's rule, each distinct
	// pattern parsed once (a location regex is read again for every
	// capture used inside it). The trees are only read.
	regexes regex.Memo[regex.Key, *syntax.Regexp]
	// raw says, per block, where a rewrite makes $uri the raw request
	// URI (see rawURIRewrite).
	raw *analyzer.PerBlock[rawRewrites]
}

// maxRegexTrees bounds taintEnv.regexes: a tree is a few kilobytes.
const maxRegexTrees = 256

// regex is regex.Parse(expr, caseless), parsed once per distinct pattern.
func (env *taintEnv) regex(expr string, caseless bool) *syntax.Regexp {
	return env.regexes.Get(regex.Key{Expr: expr, Caseless: caseless}, func(k regex.Key) *syntax.Regexp { return regex.Parse(k.Expr, k.Caseless) })
}

// taintDefs are the set and map definitions of a configuration. They are
// read by several rules at once and never written after Compute.
type taintDefs struct {
	// sets are indexed by variable, then by the location or server they
	// run in (nil for sets outside any), so a use looks only at its own
	// enclosing blocks however many locations set the same variable.
	sets map[string]map[*parser.Directive][]setDef
	maps map[string][]mapEntry
}

// variableDefs collects every set, map and geo of the configuration's
// http variables, once per run: the symbol table's definitions (names
// folded as nginx folds them; stream {} keeps its own variables, which
// the rules that read these, all about http, do not see), every
// inclusion of a file apart, in reading order.
var variableDefs = &analyzer.Result[struct{}, *taintDefs]{
	Name: "set and map definitions",
	Compute: func(p *analyzer.Pass, _ struct{}) *taintDefs {
		defs := &taintDefs{sets: map[string]map[*parser.Directive][]setDef{}, maps: map[string][]mapEntry{}}
		ix, tab := p.Index(), symbols.Of(p)
		var stack []*parser.Directive
		for _, sym := range tab.Symbols(symbols.Variable) {
			if sym.Stream {
				continue
			}
			name := sym.Name
			for _, i := range tab.DefinedBy(sym) {
				d := ix.Entries[i].Directive
				switch {
				case d.Is("set") && len(d.Args) == 2:
					stack = ix.Stack(i, stack)
					byScope := defs.sets[name]
					if byScope == nil {
						byScope = map[*parser.Directive][]setDef{}
						defs.sets[name] = byScope
					}
					scope := outerScope(stack)
					byScope[scope] = append(byScope[scope], setDef{d: d, stack: append([]*parser.Directive(nil), stack...)})
				case d.Is("map") && d.Block != nil && len(d.Args) == 2:
					subject := strings.ToLower(strings.TrimPrefix(d.Args[0].Value, "$"))
					if len(script.Split(d.Args[0].Value)) != 1 {
						subject = "" // a composite key: captures come from several variables
					}
					hasDefault := false
					for _, e := range d.Block.Directives {
						if len(e.Args) == 1 {
							defs.maps[name] = append(defs.maps[name], mapEntry{key: e.Name.Value, value: e.Args[0].Value, subject: subject})
							hasDefault = hasDefault || e.Is("default")
						}
					}
					if !hasDefault {
						// Without a default the map is empty when no key
						// matches: it may add nothing before what follows.
						defs.maps[name] = append(defs.maps[name], mapEntry{key: "default", literal: true})
					}
				case d.Is("geo") && d.Block != nil:
					hasDefault := false
					for _, e := range d.Block.Directives {
						if len(e.Args) != 1 || e.Is("proxy") || e.Is("delete") || e.Is("include") {
							continue // parameters, not values
						}
						defs.maps[name] = append(defs.maps[name], mapEntry{key: e.Name.Value, value: e.Args[0].Value, literal: true})
						hasDefault = hasDefault || e.Is("default")
					}
					if !hasDefault {
						defs.maps[name] = append(defs.maps[name], mapEntry{key: "default", literal: true})
					}
				}
			}
		}
		return defs
	},
}

// newTaintEnv returns a rule's own resolver over the run's definitions.
func newTaintEnv(p *analyzer.Pass) *taintEnv {
	return &taintEnv{taintDefs: variableDefs.Get(p, struct{}{}), busy: map[string]bool{}, mapMemo: map[string]taint{},
		regexes: regex.Memo[regex.Key, *syntax.Regexp]{Max: maxRegexTrees}, raw: analyzer.NewPerBlock(p, rawRewritesOf)}
}

// visibleSets returns the sets of variable name that run for a
// directive inside stack: those in an enclosing location or server (an
// "if" within them included) and those outside any.
func (env *taintEnv) visibleSets(name string, stack []*parser.Directive) []setDef {
	byScope := env.sets[name]
	if byScope == nil {
		return nil
	}
	out := byScope[nil]
	for _, b := range stack {
		if b.Is("location") || b.Is("server") {
			out = append(out[:len(out):len(out)], byScope[b]...)
		}
	}
	return out
}

// outerScope returns the innermost location or server of stack, or nil.
func outerScope(stack []*parser.Directive) *parser.Directive {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].Is("location") || stack[i].Is("server") {
			return stack[i]
		}
	}
	return nil
}

// varTaint says what variable name may hold when used inside stack.
func (env *taintEnv) varTaint(name string, stack []*parser.Directive) taint {
	if len(name) == 1 && name[0] >= '1' && name[0] <= '9' {
		if m, ok := env.scopeAt(stack); ok {
			t, _ := captureTaint(env, m, int(name[0]-'0'), "", stack)
			return t
		}
		return taint{}
	}
	if env.busy[name] {
		return taint{}
	}
	env.busy[name] = true
	defer delete(env.busy, name)
	var out taint
	found := false
	for _, s := range env.visibleSets(name, stack) {
		t := env.valueTaint(s.d.Args[1].Value, s.stack)
		out, found = pick(out, t, found), true
	}
	if entries, ok := env.maps[name]; ok {
		t := env.mapTaint(name, entries)
		out, found = pick(out, t, found), true
	}
	if found {
		return out
	}
	for i := len(stack) - 1; i >= 0; i-- {
		var re *syntax.Regexp
		subject := "uri"
		if re = env.locationRegex(stack[i]); re == nil && stack[i].Is("if") {
			var matched bool
			if subject, re, matched = env.ifRegex(stack[i]); !matched {
				re = nil // a negated match sets no captures
			}
		}
		if re != nil && regex.Group(re, 0, name) != nil {
			t, _ := captureTaint(env, regexScope{re: re, subject: subject}, 0, name, stack)
			return t
		}
	}
	if name == "uri" || name == "document_uri" {
		// After "rewrite ^ $request_uri" on every way here, $uri is the
		// raw, still percent-encoded request URI: no CR or LF. A rewrite
		// inside an "if" leaves the decoded path on the other requests.
		if always, _ := rawURIRewrite(env.raw, stack); always != nil {
			t, _ := builtinTaint("request_uri")
			return t
		}
	}
	t, _ := builtinTaint(name)
	return t
}

// pick merges t into the union acc, or starts it when nothing was found.
func pick(acc, t taint, found bool) taint {
	if !found {
		return t
	}
	return acc.or(t)
}

// mapTaint is the union of what a map's values may hold, each value read
// with the captures of its own regex key.
func (env *taintEnv) mapTaint(name string, entries []mapEntry) taint {
	if t, ok := env.mapMemo[name]; ok {
		return t
	}
	var out taint
	for i, e := range entries {
		var stack []*parser.Directive
		var t taint
		key := e.key
		if e.literal {
			// Fixed text: the client chooses none of it.
			t = taint{known: e.value != "", slash: strings.HasPrefix(e.value, "/")}
		} else if strings.HasPrefix(key, "~") && e.subject != "" {
			caseless := strings.HasPrefix(key, "~*")
			key = strings.TrimPrefix(strings.TrimPrefix(key, "~"), "*")
			if re := env.regex(key, caseless); re != nil {
				t = env.valueTaintWith(e.value, stack, &regexScope{re: re, subject: e.subject}, false)
			}
		} else {
			t = env.valueTaintWith(e.value, stack, nil, false)
		}
		out = pick(out, t, i > 0)
	}
	env.mapMemo[name] = out
	return out
}

// valueTaint says what an argument with variables may hold in stack.
func (env *taintEnv) valueTaint(s string, stack []*parser.Directive) taint {
	return env.valueTaintWith(s, stack, nil, false)
}

// valueTaintWith is valueTaint where the captures of m (a map key or a
// rewrite regex) take precedence over the enclosing blocks' captures;
// with clean set they count as harmless (rewrite escapes them).
func (env *taintEnv) valueTaintWith(s string, stack []*parser.Directive, m *regexScope, clean bool) taint {
	parts := script.Split(s)
	out := taint{slash: len(parts) > 0 && strings.HasPrefix(parts[0].Text, "/")}
	first := true
	for _, p := range parts {
		if p.Name == "" {
			out.known = true
			first = false
			continue
		}
		var t taint
		if m != nil && (len(p.Name) == 1 && p.Name[0] >= '1' && p.Name[0] <= '9' || regex.Group(m.re, 0, p.Name) != nil) {
			n := 0
			if len(p.Name) == 1 {
				n = int(p.Name[0] - '0')
			}
			t, _ = captureTaint(env, *m, n, p.Name, stack)
			if clean {
				t = taint{known: true}
			}
		} else {
			t = env.varTaint(p.Name, stack)
		}
		out.user, out.lf, out.cr, out.wide = out.user || t.user, out.lf || t.lf, out.cr || t.cr, out.wide || t.wide
		out.known = out.known || t.known
		if first {
			out.slash = t.slash
		}
		first = false
	}
	return out
}
