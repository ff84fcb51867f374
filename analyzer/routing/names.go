package routing

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Names is the server names of one address as ngx_http_server_names
// files them: exact names and wildcards in nginx's hash
// (ngx_hash_add_key, by grammar.HashKeys), where the first server to
// claim a key keeps it and a later claim is refused ("conflicting server
// name ... ignored"), and the regexes in the order they are written. The
// conflicting-server-name rule reads its Clashes, the routing table its
// lookups: one filing for both.
type Names struct {
	claims map[grammar.HashKey]Claim
	head   []wild // "*.example.com" and ".example.com": Domain "example.com"
	tail   []wild // "www.example.*": Domain "www.example"
	regex  []rx
	// Clashes are the names nginx refuses on the address, in the order
	// it files them.
	Clashes []Clash
}

// Claim is where a key of the hash was claimed.
type Claim struct {
	// Server is the number of the server that claims it.
	Server int
	// Directive is the server_name (the server block for the name ""
	// of a server without server_name), Arg the argument's index (-1 for
	// that implicit name).
	Directive *parser.Directive
	Arg       int
	// dot: the exact key of a ".example.com", which the hash keeps to
	// refuse a later example.com but does not look up (the wildcard
	// matches example.com itself).
	dot bool
}

// Range is where the claim is written: the argument, or the server
// block's name for the implicit "".
func (c Claim) Range() parser.Range {
	if c.Arg < 0 {
		return c.Directive.Name().Range
	}
	return c.Directive.Args()[c.Arg].Range
}

// Clash is a name the hash refuses: At claims a key First already has.
type Clash struct {
	At, First Claim
	// Name is the name as nginx stores it ("" for the implicit name).
	Name string
}

type wild struct {
	Domain string
	Server int
	// dot: ".example.com", which matches example.com too.
	dot bool
}

type rx struct {
	Pattern string
	// caseless: compiled without case (grammar.ServerName's
	// CaseInsensitive).
	caseless bool
	re       *regex.Regex
	Server   int
}

// newNames returns an empty table sized for n names: an address shared
// by every server of a big configuration holds all their names, and
// growing the map step by step allocated three times its size.
func newNames(n int) *Names {
	return &Names{claims: make(map[grammar.HashKey]Claim, n)}
}

// addServer files the names of server s, numbered n, in the order nginx
// does: a server without server_name has the name "" (as
// ngx_http_core_merge_srv_conf gives it).
func (t *Names) addServer(s *parser.Server, n int) {
	names := s.Names()
	if len(names) == 0 {
		t.add(grammar.ParseServerName(""), Claim{Server: n, Directive: s.Directive, Arg: -1})
		return
	}
	for _, sn := range names {
		t.add(sn.Spec(), Claim{Server: n, Directive: sn.Directive, Arg: sn.Arg})
	}
}

// add files one name as ngx_hash_add_key does; a regex goes to the end
// of the list, never refused.
func (t *Names) add(sn grammar.ServerName, c Claim) {
	if sn.Kind == grammar.NameRegex {
		t.regex = append(t.regex, rx{Pattern: sn.Name, caseless: sn.CaseInsensitive, Server: c.Server})
		return
	}
	keys, nk := sn.HashKeys()
	dot := sn.Kind == grammar.NameDotWildcard
	for _, k := range keys[:nk] {
		if first, dup := t.claims[k]; dup {
			t.Clashes = append(t.Clashes, Clash{At: c, First: first, Name: sn.Name})
			// ngx_hash_add_key stops at the first clash: the keys before
			// it stay taken, the name is not looked up.
			return
		}
		c.dot = dot
		t.claims[k] = c
		switch k.Table {
		case '*':
			t.head = append(t.head, wild{k.Name, c.Server, dot})
		case '.':
			t.tail = append(t.tail, wild{k.Name, c.Server, false})
		}
	}
}

// compile compiles the regexes for lookups as analyzer/regex reads
// nginx's PCRE (the same reading gives the captures a request leaves);
// unsure is told of each that it cannot run as PCRE does.
func (t *Names) compile(unsure func(format string, args ...any)) {
	for i := range t.regex {
		r := &t.regex[i]
		r.re = regex.Compile(r.Pattern, r.caseless)
		if why := r.re.Err(); why != "" {
			unsure("server_name ~%s: not a regular expression this model can run (%s)", r.Pattern, why)
		}
	}
}

// matches says the regex takes the host h; a regex that cannot tell for
// h as PCRE would takes it too, so that the request's reading of its
// captures (Regex.Match) says why the answer is unsure.
func (r *rx) matches(h string) bool {
	if r.re == nil || r.re.Err() != "" {
		return false
	}
	_, ok, why := r.re.Match(h)
	return ok || why != ""
}

// exact returns the server of the exact name h, if one has it (the
// exact key of a ".example.com" is no name nginx looks up).
func (t *Names) exact(h string) (int, bool) {
	c, ok := t.claims[grammar.HashKey{Table: '=', Name: h}]
	return c.Server, ok && !c.dot
}

// lookup finds the server of a normalized host as
// ngx_http_find_virtual_server does: the exact name, then the longest
// head wildcard, then the longest tail wildcard, then the regexes in
// order (r is the regex that took it); ok is false when none matches.
func (t *Names) lookup(h string) (server int, r *rx, ok bool) {
	if n, ok := t.exact(h); ok {
		return n, nil, true
	}
	best, bestLen := -1, -1
	for _, w := range t.head {
		under := len(h) > len(w.Domain) && strings.HasSuffix(h, w.Domain) && h[len(h)-len(w.Domain)-1] == '.'
		if (under || w.dot && h == w.Domain) && len(w.Domain) > bestLen {
			best, bestLen = w.Server, len(w.Domain)
		}
	}
	if best >= 0 {
		return best, nil, true
	}
	for _, w := range t.tail {
		if len(h) > len(w.Domain)+1 && strings.HasPrefix(h, w.Domain) && h[len(w.Domain)] == '.' && len(w.Domain) > bestLen {
			best, bestLen = w.Server, len(w.Domain)
		}
	}
	if best >= 0 {
		return best, nil, true
	}
	for i := range t.regex {
		if r := &t.regex[i]; r.matches(h) {
			return r.Server, r, true
		}
	}
	return 0, nil, false
}

// named says a normalized host is one of the names filed, as written
// (an exact name, ".example.com"'s example.com, under a wildcard, or a
// regex's match), whether or not the hash would take it there.
func (t *Names) named(h string) bool {
	if _, ok := t.claims[grammar.HashKey{Table: '=', Name: h}]; ok {
		return true
	}
	for _, w := range t.head {
		if strings.HasSuffix(h, "."+w.Domain) {
			return true
		}
	}
	for _, w := range t.tail {
		if strings.HasPrefix(h, w.Domain+".") {
			return true
		}
	}
	for i := range t.regex {
		if t.regex[i].matches(h) {
			return true
		}
	}
	return false
}
