package taint

import (
	"cmp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Value says what a value may hold.
type Value struct {
	// User: the client chooses some of it.
	User bool
	// LF, CR: it may hold a line feed or a carriage return (a decoded
	// %0A / %0D), which splits headers or the upstream request.
	LF, CR bool
	// Slash: it always starts with "/", so it cannot change the host of
	// a URL it follows.
	Slash bool
	// Wide: it may hold characters that end or re-point a host name
	// (".", ":", "@", "/", "?", "#", "\\"), so it can name any host, not
	// just pick one label next to fixed text.
	Wide bool
	// Known: we know where the value comes from; an unknown variable
	// (set by a module we do not model) is never reported.
	Known bool
}

// Or is what a value that may be t or u may hold.
func (t Value) Or(u Value) Value {
	return Value{User: t.User || u.User, LF: t.LF || u.LF, CR: t.CR || u.CR,
		Slash: t.Slash && u.Slash, Wide: t.Wide || u.Wide, Known: t.Known || u.Known}
}

// Builtin describes nginx's own variables. Headers and query
// arguments arrive raw (nginx rejects CR and LF in header lines and does
// not decode arguments), while $uri is the decoded path and can hold any
// byte the client percent-encodes.
func Builtin(name string) (Value, bool) {
	switch {
	case name == "uri" || name == "document_uri" || name == "request_filename" || name == "fastcgi_path_info":
		return Value{User: true, LF: true, CR: true, Slash: name != "fastcgi_path_info", Wide: true, Known: true}, true
	case name == "request_uri":
		return Value{User: true, Slash: true, Wide: true, Known: true}, true
	case name == "request_body":
		return Value{User: true, LF: true, CR: true, Wide: true, Known: true}, true
	case name == "args" || name == "query_string" || name == "request" || name == "remote_user" ||
		name == "content_type" || name == "cookie" ||
		strings.HasPrefix(name, "arg_") || strings.HasPrefix(name, "http_") || strings.HasPrefix(name, "cookie_"):
		return Value{User: true, Wide: true, Known: true}, true
	case name == "host" || name == "server_name" || name == "scheme" || name == "server_port" ||
		name == "remote_addr" || name == "binary_remote_addr" || name == "server_addr" ||
		name == "request_method" || name == "is_args" || name == "proxy_host" || name == "proxy_port" ||
		name == "realpath_root" || name == "document_root" || name == "hostname" || name == "status" ||
		name == "upstream_addr" || name == "proxy_add_x_forwarded_for" || name == "https" ||
		name == "server_protocol" || name == "request_id" || name == "msec" || name == "time_iso8601" ||
		name == "time_local" || name == "connection" || name == "nginx_version" || name == "pid":
		return Value{Known: true}, true
	}
	return Value{}, false
}

// rawSubject reports whether a regex subject never holds CR or LF, so a
// capture of it cannot either, whatever the pattern. Header values
// ($host, $http_*) qualify: nginx rejects CR and LF in header lines, and
// in HTTP/2 and HTTP/3 header values too.
func rawSubject(name string) bool {
	t, ok := Builtin(name)
	return ok && t.Known && !t.LF && !t.CR
}

// Scope is a regex match that sets captures for the directives inside
// it: a regex location, an "if" with "~" or "~*", a map key, a rewrite.
type Scope struct {
	Re *syntax.Regexp
	// Subject is the variable matched, without "$" ("" for none known).
	Subject string
}

// captureTaint says what group n (or the named group) of m may hold.
func captureTaint(env *Env, m Scope, n int, name string, stack []*parser.Directive) (Value, bool) {
	g := regex.Group(m.Re, n, name)
	if g == nil {
		return Value{}, false
	}
	subj := env.Var(m.Subject, stack)
	t := Value{User: subj.User || !subj.Known, Known: true}
	if !rawSubject(m.Subject) {
		t.LF = regex.MayContain(g, regex.RuneSet{Rune: '\n'})
		t.CR = regex.MayContain(g, regex.RuneSet{Rune: '\r'})
	}
	other, _ := regex.MayStart(g, regex.RuneSet{Rune: '/', Other: true})
	t.Slash = !other
	for _, r := range ".:@/?#\\" {
		t.Wide = t.Wide || regex.MayContain(g, regex.RuneSet{Rune: r})
	}
	return t, true
}

// locationRegex returns the regex of a "location ~ re" block, or nil.
func (env *Env) locationRegex(d *parser.Directive) *syntax.Regexp {
	if !d.Is("location") {
		return nil
	}
	loc, err := parser.LocationSpec(d)
	if err != nil || !loc.IsRegex {
		return nil
	}
	return env.Regex(loc.Path, loc.CaseInsensitive)
}

// ifRegex returns the matched variable and regex of "if ($v ~ re)", or
// false. Negated matches set no captures.
func (env *Env) ifRegex(d *parser.Directive) (string, *syntax.Regexp, bool) {
	v, op, expr, ok := symbols.IfMatch(d)
	if !ok {
		return "", nil, false
	}
	re := env.Regex(expr, strings.HasSuffix(op, "*"))
	if re == nil {
		return "", nil, false
	}
	return v, re, op[0] != '!'
}

// scopeAt returns the innermost regex whose captures are visible in a
// directive with the given enclosing blocks.
func (env *Env) scopeAt(stack []*parser.Directive) (Scope, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		d := stack[i]
		if re := env.locationRegex(d); re != nil {
			return Scope{Re: re, Subject: "uri"}, true
		}
		if d.Is("if") {
			if v, re, ok := env.ifRegex(d); ok {
				return Scope{Re: re, Subject: v}, true
			}
		}
	}
	return Scope{}, false
}

// Set is one "set $v value" with the blocks around it.
type Set struct {
	Directive *parser.Directive
	Stack     []*parser.Directive
}

// MapEntry is one line of a map (or geo) block: the key and the value it
// yields.
type MapEntry struct {
	Key, Value string
	// Subject is the variable the map reads, without "$" ("" for a key
	// made of several).
	Subject string
	// Literal: the value is text as written (geo does not expand
	// variables in its values).
	Literal bool
}

// Env resolves variables for one configuration: set and map
// definitions are collected once per run (shared by the rules);
// each rule's results are memoised in its own env and cycles cut.
type Env struct {
	*definitions
	busy    map[string]bool
	mapMemo map[string]Value
	// regexes are the parsed regexes of the env's rule, each distinct
	// pattern parsed once (a location regex is read again for every
	// capture used inside it). The trees are only read.
	regexes regex.Memo[regex.Key, *syntax.Regexp]
	// raw says, per block, where a rewrite makes $uri the raw request
	// URI (see RawURIRewrite).
	raw *analyzer.PerBlock[RawRewrites]
	// named says that a location or if of the configuration may name
	// a capture: else a variable is never one, and its use need not
	// read every enclosing block's regex (the square of the depth for
	// a variable used at every level of a deep chain).
	named bool
}

// mayNameCaptures says whether the regex of any location or if may name
// a capture, by its text: "?<", "?P<" or "?'".
var mayNameCaptures = &analyzer.Result[struct{}, bool]{
	Name: "named captures",
	Compute: func(p *analyzer.Pass, _ struct{}) bool {
		ix := p.Index()
		for _, i := range ix.Named("location", "if") {
			for _, a := range ix.Entries[i].Directive.Args() {
				if strings.Contains(a.Value, "?<") || strings.Contains(a.Value, "?P<") || strings.Contains(a.Value, "?'") {
					return true
				}
			}
		}
		return false
	},
}

// maxRegexTrees bounds Env.regexes: a tree is a few kilobytes.
const maxRegexTrees = 256

// Regex is regex.Parse(expr, caseless), parsed once per distinct pattern.
func (env *Env) Regex(expr string, caseless bool) *syntax.Regexp {
	return env.regexes.Get(regex.Key{Expr: expr, Caseless: caseless}, func(k regex.Key) *syntax.Regexp { return regex.Parse(k.Expr, k.Caseless) })
}

// definitions are the set and map definitions of a configuration. They are
// read by several rules at once and never written after Compute.
type definitions struct {
	// sets are indexed by variable, then by the location or server they
	// run in (nil for sets outside any), so a use looks only at its own
	// enclosing blocks however many locations set the same variable.
	sets map[string]map[*parser.Directive][]Set
	maps map[string][]MapEntry
}

// variableDefs collects every set, map and geo of the configuration's
// http variables, once per run: the symbol table's definitions (names
// folded as nginx folds them; stream {} keeps its own variables, which
// the rules that read these, all about http, do not see), every
// inclusion of a file apart, in reading order.
var variableDefs = &analyzer.Result[struct{}, *definitions]{
	Name: "set and map definitions",
	Compute: func(p *analyzer.Pass, _ struct{}) *definitions {
		defs := &definitions{sets: map[string]map[*parser.Directive][]Set{}, maps: map[string][]MapEntry{}}
		ix, tab := p.Index(), symbols.Of(p)
		// The stacks of the sets are kept, in arrays they share (taken in
		// reading order): a copy per set would cost the square of the
		// depth of a configuration nested thousands deep with a set at
		// every level.
		type setAt struct {
			i    int32
			name string
		}
		var setsAt []setAt
		for _, sym := range tab.Symbols(symbols.Variable) {
			if sym.Stream {
				continue
			}
			name := sym.Name
			for _, i := range tab.DefinedBy(sym) {
				d := ix.Entries[i].Directive
				switch {
				case d.Is("set") && len(d.Args()) == 2:
					setsAt = append(setsAt, setAt{i, name})
				case d.Is("map") && d.Block != nil && len(d.Args()) == 2:
					subject := strings.ToLower(strings.TrimPrefix(d.Args()[0].Value, "$"))
					if len(script.Split(d.Args()[0].Value)) != 1 {
						subject = "" // a composite key: captures come from several variables
					}
					hasDefault := false
					for _, e := range d.Block.Directives {
						if len(e.Args()) == 1 {
							defs.maps[name] = append(defs.maps[name], MapEntry{Key: e.Name().Value, Value: e.Args()[0].Value, Subject: subject})
							hasDefault = hasDefault || e.Is("default")
						}
					}
					if !hasDefault {
						// Without a default the map is empty when no key
						// matches: it may add nothing before what follows.
						defs.maps[name] = append(defs.maps[name], MapEntry{Key: "default", Literal: true})
					}
				case d.Is("geo") && d.Block != nil:
					hasDefault := false
					for _, e := range d.Block.Directives {
						if len(e.Args()) != 1 || e.Is("proxy") || e.Is("delete") || e.Is("include") {
							continue // parameters, not values
						}
						defs.maps[name] = append(defs.maps[name], MapEntry{Key: e.Name().Value, Value: e.Args()[0].Value, Literal: true})
						hasDefault = hasDefault || e.Is("default")
					}
					if !hasDefault {
						defs.maps[name] = append(defs.maps[name], MapEntry{Key: "default", Literal: true})
					}
				}
			}
		}
		slices.SortStableFunc(setsAt, func(a, b setAt) int { return cmp.Compare(a.i, b.i) })
		stacks := analyzer.NewKeptStacks(ix)
		for _, at := range setsAt {
			stack := stacks.At(at.i)
			byScope := defs.sets[at.name]
			if byScope == nil {
				byScope = map[*parser.Directive][]Set{}
				defs.sets[at.name] = byScope
			}
			scope := outerScope(stack)
			byScope[scope] = append(byScope[scope], Set{Directive: ix.Entries[at.i].Directive, Stack: stack})
		}
		return defs
	},
}

// NewEnv returns a rule's own resolver over the run's definitions.
func NewEnv(p *analyzer.Pass) *Env {
	return &Env{definitions: variableDefs.Get(p, struct{}{}), busy: map[string]bool{}, mapMemo: map[string]Value{},
		regexes: regex.Memo[regex.Key, *syntax.Regexp]{Max: maxRegexTrees}, raw: analyzer.NewPerBlock(p, RawRewritesOf),
		named: mayNameCaptures.Get(p, struct{}{})}
}

// Map returns the lines of the map or geo blocks that define variable
// name (lower-cased), nil when none does.
func (env *Env) Map(name string) []MapEntry { return env.maps[name] }

// VisibleSets returns the sets of variable name that run for a
// directive inside stack: those in an enclosing location or server (an
// "if" within them included) and those outside any.
func (env *Env) VisibleSets(name string, stack []*parser.Directive) []Set {
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

// Var says what variable name may hold when used inside stack.
func (env *Env) Var(name string, stack []*parser.Directive) Value {
	if len(name) == 1 && name[0] >= '1' && name[0] <= '9' {
		if m, ok := env.scopeAt(stack); ok {
			t, _ := captureTaint(env, m, int(name[0]-'0'), "", stack)
			return t
		}
		return Value{}
	}
	if env.busy[name] {
		return Value{}
	}
	env.busy[name] = true
	defer delete(env.busy, name)
	var out Value
	found := false
	for _, s := range env.VisibleSets(name, stack) {
		t := env.Of(s.Directive.Args()[1].Value, s.Stack)
		out, found = pick(out, t, found), true
	}
	if entries, ok := env.maps[name]; ok {
		t := env.mapTaint(name, entries)
		out, found = pick(out, t, found), true
	}
	if found {
		return out
	}
	for i := len(stack) - 1; i >= 0 && env.named; i-- {
		var re *syntax.Regexp
		subject := "uri"
		if re = env.locationRegex(stack[i]); re == nil && stack[i].Is("if") {
			var matched bool
			if subject, re, matched = env.ifRegex(stack[i]); !matched {
				re = nil // a negated match sets no captures
			}
		}
		if re != nil && regex.Group(re, 0, name) != nil {
			t, _ := captureTaint(env, Scope{Re: re, Subject: subject}, 0, name, stack)
			return t
		}
	}
	if name == "uri" || name == "document_uri" {
		// After "rewrite ^ $request_uri" on every way here, $uri is the
		// raw, still percent-encoded request URI: no CR or LF. A rewrite
		// inside an "if" leaves the decoded path on the other requests.
		if always, _ := RawURIRewrite(env.raw, stack); always != nil {
			t, _ := Builtin("request_uri")
			return t
		}
	}
	t, _ := Builtin(name)
	return t
}

// pick merges t into the union acc, or starts it when nothing was found.
func pick(acc, t Value, found bool) Value {
	if !found {
		return t
	}
	return acc.Or(t)
}

// mapTaint is the union of what a map's values may hold, each value read
// with the captures of its own regex key.
func (env *Env) mapTaint(name string, entries []MapEntry) Value {
	if t, ok := env.mapMemo[name]; ok {
		return t
	}
	var out Value
	for i, e := range entries {
		var stack []*parser.Directive
		var t Value
		key := e.Key
		if e.Literal {
			// Fixed text: the client chooses none of it.
			t = Value{Known: e.Value != "", Slash: strings.HasPrefix(e.Value, "/")}
		} else if strings.HasPrefix(key, "~") && e.Subject != "" {
			caseless := strings.HasPrefix(key, "~*")
			key = strings.TrimPrefix(strings.TrimPrefix(key, "~"), "*")
			if re := env.Regex(key, caseless); re != nil {
				t = env.OfWith(e.Value, stack, &Scope{Re: re, Subject: e.Subject}, false)
			}
		} else {
			t = env.OfWith(e.Value, stack, nil, false)
		}
		out = pick(out, t, i > 0)
	}
	env.mapMemo[name] = out
	return out
}

// Of says what an argument with variables may hold in stack.
func (env *Env) Of(s string, stack []*parser.Directive) Value {
	return env.OfWith(s, stack, nil, false)
}

// OfWith is Of where the captures of m (a map key or a
// rewrite regex) take precedence over the enclosing blocks' captures;
// with clean set they count as harmless (rewrite escapes them).
func (env *Env) OfWith(s string, stack []*parser.Directive, m *Scope, clean bool) Value {
	parts := script.Split(s)
	out := Value{Slash: len(parts) > 0 && strings.HasPrefix(parts[0].Text, "/")}
	first := true
	for _, p := range parts {
		if p.Name == "" {
			out.Known = true
			first = false
			continue
		}
		var t Value
		if m != nil && (len(p.Name) == 1 && p.Name[0] >= '1' && p.Name[0] <= '9' || regex.Group(m.Re, 0, p.Name) != nil) {
			n := 0
			if len(p.Name) == 1 {
				n = int(p.Name[0] - '0')
			}
			t, _ = captureTaint(env, *m, n, p.Name, stack)
			if clean {
				t = Value{Known: true}
			}
		} else {
			t = env.Var(p.Name, stack)
		}
		out.User, out.LF, out.CR, out.Wide = out.User || t.User, out.LF || t.LF, out.CR || t.CR, out.Wide || t.Wide
		out.Known = out.Known || t.Known
		if first {
			out.Slash = t.Slash
		}
		first = false
	}
	return out
}

// RawRewrites is what one block says about rewrites to the raw request
// URI: its own (rewrite ... $request_uri) whose regex matches every URI,
// and what makes one run on some requests only: an "if" among its
// directives that has one, or its own whose regex does not match every
// URI (^(.*)$ fails on a path with a line feed).
type RawRewrites struct {
	Rewrite, InIf *parser.Directive
}

// RawRewritesOf summarizes a block body for RawURIRewrite (a summary
// for analyzer.NewPerBlock).
func RawRewritesOf(body []*parser.Directive) RawRewrites {
	var out RawRewrites
	for _, x := range body {
		switch {
		case out.Rewrite == nil && isRawRewrite(x) && matchesEveryURI(x.Args()[0].Value):
			out.Rewrite = x
		case out.InIf == nil && isRawRewrite(x):
			out.InIf = x
		case out.InIf == nil && x.Is("if"):
			for _, y := range x.Children() {
				if isRawRewrite(y) {
					out.InIf = x
					break
				}
			}
		}
	}
	return out
}

func isRawRewrite(x *parser.Directive) bool {
	return x.Is("rewrite") && len(x.Args()) >= 2 && strings.Contains(x.Args()[1].Value, "$request_uri")
}

// everyURI are decoded paths a regex must match for its rewrite to run on
// every request: the plain ones and those the client made hold a CR or LF
// (%0D%0A), which "." and an end anchor do not cross.
var everyURI = []string{"/", "/a", "/a/b.c", "/a\nb", "/a\r\nb/", "/\n"}

// matchesEveryURI reports whether a rewrite's regex matches every decoded
// request path ("^", "^/", "(.*)", "^/(.*)" do; "^(.*)$" and "^/api/" do
// not), as nginx's PCRE reads it (no dot-all, "$" at the end).
func matchesEveryURI(expr string) bool {
	ci := strings.HasPrefix(expr, "(?i)")
	re := regex.Compile(strings.TrimPrefix(expr, "(?i)"), ci)
	for _, u := range everyURI {
		// A subject the regex cannot tell as PCRE would counts as not
		// matching: the rule then stays quiet.
		if _, ok, why := re.Match(u); !ok || why != "" {
			return false
		}
	}
	return true
}

// RawURIRewrite returns a "rewrite ... $request_uri" that runs before a
// directive at stack on every request (in its block, or an enclosing one
// up to the location, or the server's, which runs before any location is
// chosen), else nil and an "if" of those blocks that has one: the rewrite
// then runs on some requests only.
func RawURIRewrite(blocks *analyzer.PerBlock[RawRewrites], stack []*parser.Directive) (always, inIf *parser.Directive) {
	if len(stack) == 0 {
		r := blocks.Of(stack, nil)
		return r.Rewrite, r.InIf
	}
	inLocation := true
	for i := len(stack) - 1; i >= 0; i-- {
		b := stack[i]
		if !inLocation && !b.Is("server") {
			continue
		}
		r := blocks.Of(stack, b)
		if r.Rewrite != nil {
			return r.Rewrite, nil
		}
		if inIf == nil {
			inIf = r.InIf
		}
		if b.Is("location") {
			inLocation = false
		}
		if b.Is("server") {
			break
		}
	}
	return nil, inIf
}
