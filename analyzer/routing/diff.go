package routing

import (
	"fmt"
	"iter"
	"net/netip"
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Probes is the request set that tells configurations apart by what
// they do with requests: on every port and address any of them listens
// on (and one address none lists, where a wildcard takes it), every
// host their servers name (exact names, a host under and beside each
// wildcard, an example of each regex), an unknown host and no Host;
// and for each, the paths of every location of the servers those
// requests reach (a prefix itself, below it and without its final
// slash; an exact path; an example of each regex), "/" and a path no
// location names; each also with a doubled first slash when some block
// of the configurations says "merge_slashes off".
//
// The requests are yielded one by one, so that a configuration of tens
// of thousands of servers is compared without holding its million
// requests.
func Probes(models ...*Model) iter.Seq[HTTPRequest] {
	return func(yield func(HTTPRequest) bool) { probes(models, nil, yield) }
}

// probes yields the request set; b (nil: none) is charged the work of
// finding the paths of servers, which stops when it is spent.
func probes(models []*Model, b *Bound, yield func(HTTPRequest) bool) {
	var ports []portKey
	seenPort := map[portKey]bool{}
	for _, m := range models {
		for _, p := range m.Table.Ports {
			k := portKey{p.Family, p.Port}
			if !seenPort[k] {
				seenPort[k] = true
				ports = append(ports, k)
			}
		}
	}
	// Each server's paths are found once, however many hosts and
	// addresses reach it.
	known := make([]serverPathMemo, len(models))
	for _, k := range ports {
		// The addresses: every one listed, and one none lists when a
		// wildcard takes the others.
		var conns []HTTPRequest
		seen := map[string]bool{}
		wild := false
		for _, m := range models {
			p := m.Table.byPort[k]
			if p == nil {
				continue
			}
			wild = wild || p.Wildcard != nil
			for _, a := range p.Addrs {
				if a == p.Wildcard || seen[a.Key] {
					continue
				}
				seen[a.Key] = true
				r := HTTPRequest{Request: Request{Addr: a.IP, Port: k.port}}
				if k.fam == costmodel.Unix {
					r.Request = Request{Unix: a.Key}
				}
				conns = append(conns, r)
			}
		}
		if wild {
			listed := map[netip.Addr]bool{}
			for _, c := range conns {
				listed[c.Addr] = true
			}
			conns = append(conns, HTTPRequest{Request: Request{Addr: unlisted(k, listed), Port: k.port}})
		}
		for _, c := range conns {
			var addrs []*Addr
			for _, m := range models {
				a := m.Table.Address(c.Addr, c.Port)
				if c.Unix != "" {
					a = m.Table.unixAddr(c.Unix)
				}
				if a != nil {
					addrs = append(addrs, a)
				}
			}
			hosts := append(candidates(addrs...), regexHosts(addrs...)...)
			hosts = append(hosts, "")
			for _, a := range addrs {
				c.HTTPS = c.HTTPS || a.SSL
			}
			for _, h := range hosts {
				r := c
				if h == "" {
					r.NoHost = true
				} else {
					r.Host = h
				}
				paths := map[string]bool{"/": true, "/nginx-lint-probe": true}
				doubled := false
				for mi, m := range models {
					if n := m.Table.Route(r.Request); n >= 0 {
						for _, p := range known[mi].of(m, n, b) {
							paths[p] = true
						}
					}
					doubled = doubled || m.slashesOff
				}
				if doubled {
					// merge_slashes of the address's default server
					// decides how "//x" is searched.
					for p := range paths {
						if strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") {
							paths["/"+p] = true
						}
					}
				}
				sorted := make([]string, 0, len(paths))
				for p := range paths {
					sorted = append(sorted, p)
				}
				sort.Strings(sorted)
				for _, p := range sorted {
					q := r
					q.Target = p
					if !yield(q) {
						return
					}
				}
			}
		}
	}
}

// Unlisted reports whether ip is one of the addresses Probes uses for
// "an address no configuration lists" (192.0.2.0/24, TEST-NET-1, and
// fd6e:6c00::/24), which a wildcard listen takes.
func Unlisted(ip netip.Addr) bool {
	if ip.Is4() {
		b := ip.As4()
		return b[0] == 192 && b[1] == 0 && b[2] == 2
	}
	b := ip.As16()
	return b[0] == 0xfd && b[1] == 0x6e && b[2] == 0x6c
}

// serverPathMemo holds the paths of the servers of one model that
// requests have reached (serverPaths).
type serverPathMemo map[int][]string

func (memo *serverPathMemo) of(m *Model, n int, b *Bound) []string {
	if ps, ok := (*memo)[n]; ok {
		return ps
	}
	if *memo == nil {
		*memo = serverPathMemo{}
	}
	set := map[string]bool{}
	m.serverPaths(n, set, b)
	ps := make([]string, 0, len(set))
	for p := range set {
		ps = append(ps, p)
	}
	(*memo)[n] = ps
	return ps
}

// regexHosts are examples of the addresses' server_name regexes.
func regexHosts(as ...*Addr) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range as {
		for _, r := range a.names.regex {
			if ex, ok := regex.Example(r.Pattern, r.caseless); ok && !seen[ex] {
				if _, valid := NormalizeHost(ex); valid {
					seen[ex] = true
					out = append(out, ex)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// serverPaths adds the paths that reach server n's locations: each
// prefix itself, below it and without its final slash; each exact
// path; an example of each regex (a location's or a rewrite's); and
// below each prefix, an example of each regex that is not anchored at
// the start, which is where a prefix and a regex compete. Each such
// pair is charged to b, and they stop when it is spent.
func (m *Model) serverPaths(n int, paths map[string]bool, b *Bound) {
	var prefixes []string
	seenPrefix := map[string]bool{}
	var floating []*regex.Regex // regexes not anchored at the start
	example := func(re *regex.Regex) {
		ex, ok := regex.Example(re.Pattern, re.Caseless)
		if !ok {
			return
		}
		for _, p := range []string{ex, "/" + ex, "/nginx-lint-probe" + ex} {
			if _, ok, _ := re.Match(p); ok && strings.HasPrefix(p, "/") {
				paths[p] = true
				break
			}
		}
		if !strings.HasPrefix(re.Pattern, "^") {
			floating = append(floating, re)
		}
	}
	rewrites := func(lv *level) {
		for _, o := range lv.prog {
			if o.kind == opRewrite && o.re != nil {
				example(o.re)
			}
		}
	}
	add := func(l *Location) {
		rewrites(l.conf)
		switch {
		case l.Spec.Named:
		case l.regex != nil:
			example(l.regex)
		default:
			p := l.Spec.Path
			if p == "" || p[0] != '/' {
				return
			}
			paths[p] = true
			if l.Spec.Modifier != grammar.ModExact { // below it, and without its slash
				below := strings.TrimSuffix(p, "/") + "/nginx-lint-probe"
				paths[below] = true
				if !seenPrefix[below] { // a prefix nested levels repeat is asked once
					seenPrefix[below] = true
					prefixes = append(prefixes, below)
				}
				if len(p) > 1 && strings.HasSuffix(p, "/") {
					paths[p[:len(p)-1]] = true
				}
			}
		}
	}
	var walk func(l *Location)
	walk = func(l *Location) {
		var each func(t *treeNode)
		each = func(t *treeNode) {
			if t == nil {
				return
			}
			each(t.left)
			for _, x := range []*Location{t.exact, t.inclusive} {
				if x != nil {
					add(x)
					walk(x)
				}
			}
			each(t.tree)
			each(t.right)
		}
		each(l.static)
		for _, r := range l.regexes {
			add(r)
			walk(r)
		}
	}
	root := m.Locations(n)
	rewrites(root.conf)
	walk(root)
	for _, re := range floating {
		ex, ok := regex.Example(re.Pattern, re.Caseless)
		if !ok {
			continue
		}
		for _, p := range prefixes {
			if b.spent(1) {
				return
			}
			if _, ok, _ := re.Match(p + ex); ok {
				paths[p+ex] = true
			}
		}
	}
}

// Change is a request two configurations answer differently.
type Change struct {
	Request       HTTPRequest
	Before, After *Answer
	// What lists what changed: "server", "location", "chain",
	// "handler", "status".
	What []string
}

// Diff answers each request under both models and returns those whose
// server, location, redirect chain, handler or status differ, and the
// number of requests. Servers and locations are compared by what they
// are, not by number or line: a server by its names (and its place
// among servers of the same names), a location by its modifier and path
// and those of the locations around it, a handler by its directive as
// written.
func Diff(before, after *Model, reqs iter.Seq[HTTPRequest]) (changes []Change, n int) {
	n = DiffEach(before, after, reqs, func(c Change) { changes = append(changes, c) })
	return changes, n
}

// DiffEach is Diff that hands each change to each as it is found
// instead of keeping them all with their answers, and returns the
// number of requests: a caller that keeps less of a change (a report
// of it) holds less than every answer of a large diff.
func DiffEach(before, after *Model, reqs iter.Seq[HTTPRequest], each func(Change)) (n int) {
	return DiffBounded(before, after, reqs, nil, each)
}

// DiffBounded is DiffEach that charges the work of each answer to b
// (nil: none), whose Probes give reqs: the request set ends when b is
// spent, and b.Cut then says the comparison is partial.
func DiffBounded(before, after *Model, reqs iter.Seq[HTTPRequest], b *Bound, each func(Change)) (n int) {
	bi, ai := before.identities(), after.identities()
	for r := range reqs {
		n++
		if c, ok := compareOne(before, after, bi, ai, b, r); ok {
			if b != nil {
				b.Work += ChangeWork
			}
			each(c)
		}
	}
	return n
}

// FirstChange is Diff that stops at the first change accept does not
// take (accept nil takes none): that change, nil when there is none, and
// the number of requests answered. The optimizer proves its rewrites so.
func FirstChange(before, after *Model, reqs iter.Seq[HTTPRequest], accept func(Change) bool) (*Change, int) {
	return FirstChangeBounded(before, after, reqs, nil, accept)
}

// FirstChangeBounded is FirstChange that charges the work of each
// answer to b (nil: none), whose Probes give reqs: when b.Cut is set
// after it returns no change, the proof is incomplete.
func FirstChangeBounded(before, after *Model, reqs iter.Seq[HTTPRequest], b *Bound, accept func(Change) bool) (*Change, int) {
	bi, ai := before.identities(), after.identities()
	n := 0
	for r := range reqs {
		n++
		if c, ok := compareOne(before, after, bi, ai, b, r); ok && (accept == nil || !accept(c)) {
			return &c, n
		}
	}
	return nil, n
}

// compareOne answers r under both models; ok when the answers differ.
func compareOne(before, after *Model, bi, ai []string, bound *Bound, r HTTPRequest) (Change, bool) {
	a, b := before.Route(r), after.Route(r)
	bound.charge(a, b)
	var what []string
	if serverID(bi, a.Server) != serverID(ai, b.Server) {
		what = append(what, "server")
	}
	if !sameLocation(a.Location, b.Location) {
		what = append(what, "location")
	}
	if !sameChain(a, b) {
		what = append(what, "chain")
	}
	if a.Handler.Kind != b.Handler.Kind || a.Handler.Target != b.Handler.Target || !sameDirective(a.Handler.Directive, b.Handler.Directive) {
		what = append(what, "handler")
	}
	if a.Status != b.Status {
		what = append(what, "status")
	}
	if len(what) == 0 {
		return Change{}, false
	}
	return Change{Request: r, Before: a, After: b, What: what}, true
}

// identities names the servers of m as Diff compares them.
func (m *Model) identities() []string {
	ids := make([]string, len(m.Table.Servers))
	count := map[string]int{}
	for i, s := range m.Table.Servers {
		var names []string
		for _, n := range s.Names() {
			names = append(names, n.Directive.Args()[n.Arg].Value)
		}
		id := strings.Join(names, " ")
		count[id]++
		if count[id] > 1 {
			id += fmt.Sprintf(" #%d", count[id])
		}
		ids[i] = id
	}
	return ids
}

func serverID(ids []string, n int) string {
	if n < 0 || n >= len(ids) {
		return "(refused)"
	}
	return ids[n]
}

// sameLocation says a and b are the same location by what they are:
// modifier and path, and those of the locations around them (nil: the
// server level).
func sameLocation(a, b *Location) bool {
	for {
		if a == nil || b == nil {
			return a == b
		}
		if (a.Directive == nil) != (b.Directive == nil) {
			return false
		}
		if a.Directive == nil {
			return true
		}
		if a.Spec.Path != b.Spec.Path || a.Spec.Named != b.Spec.Named || !a.Spec.Named && a.Spec.Modifier != b.Spec.Modifier {
			return false
		}
		a, b = a.Parent, b.Parent
	}
}

// sameChain says the redirect chains are the same: the URIs, the
// locations on the way (the last is compared on its own) and the
// directives that moved the request.
func sameChain(a, b *Answer) bool {
	if len(a.Steps) != len(b.Steps) {
		return false
	}
	for i := range a.Steps {
		x, y := &a.Steps[i], &b.Steps[i]
		if x.URI != y.URI || x.Args != y.Args || x.How != y.How || !sameDirective(x.Via, y.Via) {
			return false
		}
		if i < len(a.Steps)-1 && !sameLocation(x.Location, y.Location) {
			return false
		}
	}
	return true
}

// sameDirective says a and b are the same directive as written,
// wherever they are.
func sameDirective(a, b *parser.Directive) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a == b {
		return true
	}
	if a.Name().Value != b.Name().Value || len(a.Args()) != len(b.Args()) {
		return false
	}
	for i := range a.Args() {
		if a.Args()[i].Value != b.Args()[i].Value {
			return false
		}
	}
	return true
}
