package routing

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Kind says how a request's routing differs between two configurations.
type Kind int

// The kinds of difference.
const (
	// Changed: another server handles the request.
	Changed Kind = iota + 1
	// NowRefused: the connection was served and is refused after.
	NowRefused
	// NowAccepted: the connection was refused and is served after.
	NowAccepted
	// Unproven: the tables differ in a way the probes did not show (two
	// regex lists, say); the model cannot call them equivalent.
	Unproven
)

// Difference is one request that two configurations route apart.
type Difference struct {
	Kind    Kind
	Request Request
	// Before and After are the server numbers (Refused for none).
	Before, After int
	// Other says the request stands for every address of the port that
	// neither configuration lists.
	Other bool
	// AlsoUnknownHost says a request with a Host no server there names
	// goes the same way as this one without Host.
	AlsoUnknownHost bool
	Note            string
}

// Describe words the difference with the servers of both tables.
func (d Difference) Describe(before, after *Table) string {
	req := d.Request.String()
	if d.AlsoUnknownHost {
		req += " or with an unknown Host"
	}
	if d.Other {
		req = fmt.Sprintf("a request to any unlisted address of port %d", d.Request.Port)
		if !d.Request.NoHost {
			req += fmt.Sprintf(" with Host %q", d.Request.Host)
		}
	}
	switch d.Kind {
	case NowRefused:
		return fmt.Sprintf("%s, handled by server %s, is refused", req, before.Ref(d.Before))
	case NowAccepted:
		return fmt.Sprintf("%s, refused before, goes to server %s", req, after.Ref(d.After))
	case Unproven:
		return fmt.Sprintf("%s: %s", req, d.Note)
	}
	return fmt.Sprintf("%s goes to server %s instead of %s", req, after.Ref(d.After), before.Ref(d.Before))
}

// Ref names server n: its first name and where it is written.
func (t *Table) Ref(n int) string {
	if n < 0 || n >= len(t.Servers) {
		return "(none)"
	}
	s := t.Servers[n]
	name := "#" + fmt.Sprint(n+1)
	if ns := s.Names(); len(ns) > 0 && ns[0].Directive.Args()[ns[0].Arg].Value != "" {
		name = ns[0].Directive.Args()[ns[0].Arg].Value
	}
	return name + " (" + serverRef(s) + ")"
}

// Compare lists the requests that a and b route apart, at most max
// (all when max ≤ 0), in the order of a's ports and addresses. Servers
// are matched by number: the rewrites of this project keep the servers
// in order and add new ones only at the end. A comparison where either
// table is Unsure yields an Unproven difference first.
func Compare(a, b *Table, max int) []Difference {
	var out []Difference
	full := func() bool { return max > 0 && len(out) >= max }
	addDiff := func(d Difference) {
		if !full() {
			out = append(out, d)
		}
	}
	if len(a.Unsure) > 0 || len(b.Unsure) > 0 {
		note := append(slices.Clone(a.Unsure), b.Unsure...)[0]
		addDiff(Difference{Kind: Unproven, Note: note})
	}
	type pk = portKey
	var ports []pk
	seen := map[pk]bool{}
	for _, t := range []*Table{a, b} {
		for _, p := range t.Ports {
			k := pk{p.Family, p.Port}
			if !seen[k] {
				seen[k] = true
				ports = append(ports, k)
			}
		}
	}
	for _, k := range ports {
		pa, pb := a.byPort[k], b.byPort[k]
		if k.fam == costmodel.Unix {
			compareUnix(a, b, pa, pb, addDiff)
			continue
		}
		// Every listed address of either, then one that neither lists.
		var ips []netip.Addr
		ipSeen := map[netip.Addr]bool{}
		wild := false
		for _, p := range []*Port{pa, pb} {
			if p == nil {
				continue
			}
			wild = wild || p.Wildcard != nil
			for _, ad := range p.Addrs {
				if ad != p.Wildcard && ad.IP.IsValid() && !ipSeen[ad.IP] {
					ipSeen[ad.IP] = true
					ips = append(ips, ad.IP)
				}
			}
		}
		other := netip.Addr{}
		if wild {
			other = unlisted(k, ipSeen)
			ips = append(ips, other)
		}
		for _, ip := range ips {
			if full() {
				return out
			}
			aa, ab := a.Address(ip, k.port), b.Address(ip, k.port)
			isOther := ip == other
			switch {
			case aa == nil && ab == nil:
				continue
			case aa == nil || ab == nil:
				kind, before, after := NowAccepted, Refused, Refused
				if ab == nil {
					kind, before = NowRefused, aa.NoHost()
				} else {
					after = ab.NoHost()
				}
				addDiff(Difference{Kind: kind, Request: Request{Addr: ip, Port: k.port, NoHost: true}, Before: before, After: after, Other: isOther})
				continue
			}
			if d, ok := compareAddr(aa, ab); !ok {
				d.Request.Addr, d.Request.Port, d.Other = ip, k.port, isOther
				addDiff(d)
			}
		}
	}
	return out
}

// compareUnix compares the UNIX sockets of two tables, by path.
func compareUnix(a, b *Table, pa, pb *Port, addDiff func(Difference)) {
	var keys []string
	seen := map[string]bool{}
	for _, p := range []*Port{pa, pb} {
		if p == nil {
			continue
		}
		for _, ad := range p.Addrs {
			if !seen[ad.Key] {
				seen[ad.Key] = true
				keys = append(keys, ad.Key)
			}
		}
	}
	for _, key := range keys {
		aa, ab := a.unixAddr(key), b.unixAddr(key)
		r := Request{Unix: key, NoHost: true}
		switch {
		case ab == nil:
			addDiff(Difference{Kind: NowRefused, Request: r, Before: aa.NoHost(), After: Refused})
		case aa == nil:
			addDiff(Difference{Kind: NowAccepted, Request: r, Before: Refused, After: ab.NoHost()})
		default:
			if d, ok := compareAddr(aa, ab); !ok {
				d.Request.Unix = key
				addDiff(d)
			}
		}
	}
}

// unlisted picks an address of the port's family that no table lists.
func unlisted(k portKey, listed map[netip.Addr]bool) netip.Addr {
	if k.fam == costmodel.IPv6 {
		for i := 1; ; i++ {
			b := [16]byte{0xfd, 0x6e, 0x6c, 15: byte(i)}
			if ip := netip.AddrFrom16(b); !listed[ip] {
				return ip
			}
		}
	}
	for i := 1; ; i++ {
		ip := netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}) // TEST-NET-1
		if !listed[ip] {
			return ip
		}
	}
}

// compareAddr compares two addresses' routing: the default server, every
// candidate host; then, for a proof, the wildcard and regex tables must
// be equal (the exact names are all among the candidates).
func compareAddr(a, b *Addr) (Difference, bool) {
	if x, y := a.NoHost(), b.NoHost(); x != y {
		const unknown = "unknown.nginx-lint.invalid"
		also := a.Lookup(unknown) == x && b.Lookup(unknown) == y
		return Difference{Kind: Changed, Request: Request{NoHost: true}, Before: x, After: y, AlsoUnknownHost: also}, false
	}
	if a.Default != b.Default {
		// The default server also answers the 400 of a Host nginx
		// refuses, whatever the names.
		return Difference{Kind: Changed, Request: Request{Host: "invalid..host"}, Before: a.Default, After: b.Default}, false
	}
	for _, h := range candidates(a, b) {
		if x, y := a.Lookup(h), b.Lookup(h); x != y {
			return Difference{Kind: Changed, Request: Request{Host: h}, Before: x, After: y}, false
		}
	}
	if len(a.Servers) == 1 && len(b.Servers) == 1 {
		return Difference{}, true
	}
	if !tablesEqual(a, b) {
		return Difference{Kind: Unproven, Request: Request{NoHost: true}, Before: a.Default, After: b.Default,
			Note: "the wildcard or regex names differ; no probe showed a difference, but the model cannot prove there is none"}, false
	}
	return Difference{}, true
}

// tablesEqual compares the wildcard and regex tables as nginx matches
// them: wildcards as sets, regexes as ordered lists. A one-server
// address matches no names at all.
func tablesEqual(a, b *Addr) bool {
	x, y := a.names, b.names
	if len(a.Servers) == 1 || len(b.Servers) == 1 {
		// One side ignores names: equal only if the other's names all
		// lead to its default, which the candidates checked for exact
		// names but cannot for patterns.
		return len(x.head)+len(x.tail)+len(x.regex) == 0 && len(y.head)+len(y.tail)+len(y.regex) == 0
	}
	same := func(x, y []wild) bool {
		if len(x) != len(y) {
			return false
		}
		m := map[string]int{}
		for _, w := range x {
			m[w.Domain] = w.Server
		}
		for _, w := range y {
			if s, ok := m[w.Domain]; !ok || s != w.Server {
				return false
			}
		}
		return true
	}
	if !same(x.head, y.head) || !same(x.tail, y.tail) || len(x.regex) != len(y.regex) {
		return false
	}
	for i := range x.regex {
		if x.regex[i].Pattern != y.regex[i].Pattern || x.regex[i].Server != y.regex[i].Server {
			return false
		}
	}
	return true
}

// Equivalent reports whether a and b route every request alike.
func Equivalent(a, b *Table) bool { return len(Compare(a, b, 1)) == 0 }

// KeepsNamedRequests reports whether every request that carries one of
// the exact names of the server a listed address routes it to in a is
// routed to the same server in b: the requests that still arrive when
// every client sends the Host of its server. It returns the first that
// is not, by port, address, server and name.
func KeepsNamedRequests(a, b *Table) (Difference, bool) {
	for _, p := range a.Ports {
		for _, ad := range p.Addrs {
			for _, n := range ad.Servers {
				for _, h := range exactNames(a.Servers[n]) {
					if h == "" || ad.Lookup(h) != n {
						continue
					}
					r := Request{Addr: ad.IP, Port: p.Port, Host: h}
					switch {
					case p.Family == costmodel.Unix:
						r.Unix = ad.Key
					case ad == p.Wildcard:
						r.Addr = unlisted(portKey{p.Family, p.Port}, map[netip.Addr]bool{})
					}
					if got := b.Route(r); got != n {
						kind := Changed
						if got == Refused {
							kind = NowRefused
						}
						return Difference{Kind: kind, Request: r, Before: n, After: got}, false
					}
				}
			}
		}
	}
	return Difference{}, true
}

// exactNames lists the hosts a server names exactly: its exact names and
// the domains of its ".example.com" names, as the hash keys them.
func exactNames(s *parser.Server) []string {
	var out []string
	for _, n := range s.Names() {
		keys, nk := n.Spec().HashKeys()
		for _, k := range keys[:nk] {
			if k.Table == '=' {
				out = append(out, k.Name)
			}
		}
	}
	return out
}
