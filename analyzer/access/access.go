package access

import (
	"fmt"
	"math/big"
	"net/netip"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// addrRange is the addresses lo..hi of one family, inclusive.
type addrRange struct{ lo, hi netip.Addr }

// addrSet is a set of addresses of one family: sorted disjoint ranges.
type addrSet []addrRange

// Family is an address family of clients.
type Family uint8

// The families of clients.
const (
	IPv4 Family = iota
	IPv6
	Unix
)

// String names the family for messages.
func (f Family) String() string {
	switch f {
	case IPv4:
		return "IPv4"
	case IPv6:
		return "IPv6"
	}
	return "unix-socket"
}

// everyone returns the whole address space of a family.
func everyone(f Family) addrSet {
	if f == IPv4 {
		return addrSet{{netip.AddrFrom4([4]byte{}), netip.AddrFrom4([4]byte{255, 255, 255, 255})}}
	}
	var top [16]byte
	for i := range top {
		top[i] = 0xff
	}
	return addrSet{{netip.AddrFrom16([16]byte{}), netip.AddrFrom16(top)}}
}

// prefixRange returns the addresses of a prefix.
func prefixRange(p netip.Prefix) addrRange {
	p = p.Masked()
	lo := p.Addr()
	b := lo.AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	hi, _ := netip.AddrFromSlice(b)
	return addrRange{lo, hi}
}

// minus returns s without the addresses of r.
func (s addrSet) minus(r addrRange) addrSet {
	var out addrSet
	for _, x := range s {
		if x.hi.Less(r.lo) || r.hi.Less(x.lo) {
			out = append(out, x)
			continue
		}
		if x.lo.Less(r.lo) {
			out = append(out, addrRange{x.lo, r.lo.Prev()})
		}
		if r.hi.Less(x.hi) {
			out = append(out, addrRange{r.hi.Next(), x.hi})
		}
	}
	return out
}

// intersect returns the addresses of s in r.
func (s addrSet) intersect(r addrRange) addrSet {
	var out addrSet
	for _, x := range s {
		lo, hi := x.lo, x.hi
		if lo.Less(r.lo) {
			lo = r.lo
		}
		if r.hi.Less(hi) {
			hi = r.hi
		}
		if !hi.Less(lo) {
			out = append(out, addrRange{lo, hi})
		}
	}
	return out
}

// size returns the number of addresses of s.
func (s addrSet) size() *big.Int {
	n := new(big.Int)
	for _, x := range s {
		d := new(big.Int).Sub(new(big.Int).SetBytes(x.hi.AsSlice()), new(big.Int).SetBytes(x.lo.AsSlice()))
		n.Add(n, d.Add(d, big.NewInt(1)))
	}
	return n
}

// privateRanges are the addresses that are no client on the internet:
// private, loopback, link-local, shared (CGNAT), documentation, unique
// local IPv6.
var privateRanges = func() []addrRange {
	var out []addrRange
	for _, p := range []string{"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3",
		"::/8", "fc00::/7", "fe80::/10", "2001:db8::/32", "ff00::/8"} {
		out = append(out, prefixRange(netip.MustParsePrefix(p)))
	}
	return out
}()

// public returns the addresses of s that can be clients on the internet.
func (s addrSet) public() addrSet {
	for _, r := range privateRanges {
		s = s.minus(r)
	}
	return s
}

// openThreshold is how many public addresses make a client set "every
// client" rather than a list of trusted hosts: a /8 of IPv4, a /32 of IPv6
// (a whole provider).
var openThreshold = [2]*big.Int{new(big.Int).Lsh(big.NewInt(1), 24), new(big.Int).Lsh(big.NewInt(1), 96)}

// Rule is one allow or deny.
type Rule struct {
	Directive *parser.Directive
	Allow     bool
	All       bool // "all"
	Unix      bool // "unix:"
	// Prefix is the network (an address is a network of one), its host
	// bits cleared as nginx clears them; not valid for All, Unix and an
	// argument nginx refuses.
	Prefix netip.Prefix
	fam    Family // of r, when neither all nor unix
	r      addrRange
}

// ParseRule reads an allow or deny as ngx_http_access_rule does: "all",
// "unix:", an address or a network (whose host bits nginx clears). ok is
// false for an argument nginx refuses (invalid-parameter reports it); the
// Rule then matches no client.
func ParseRule(d *parser.Directive) (rule Rule, ok bool) {
	rule = Rule{Directive: d, Allow: d.Is("allow")}
	if len(d.Args) != 1 {
		return rule, false
	}
	arg := d.Args[0].Value
	switch {
	case arg == "all":
		rule.All = true
		return rule, true
	case arg == "unix:":
		rule.Unix = true
		return rule, true
	}
	var p netip.Prefix
	if strings.Contains(arg, "/") {
		var err error
		if p, err = netip.ParsePrefix(arg); err != nil {
			return rule, false
		}
	} else {
		a, err := netip.ParseAddr(arg)
		if err != nil {
			return rule, false
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	if p.Addr().Is4In6() {
		// nginx reads ::ffff:a.b.c.d as an IPv6 rule; an IPv4 client
		// on a dual-stack socket is compared as IPv4.
		rule.fam = IPv6
	} else if p.Addr().Is6() {
		rule.fam = IPv6
	}
	rule.Prefix, rule.r = p.Masked(), prefixRange(p)
	return rule, true
}

// Access is who gets into one place: per family, the clients the access
// list lets in, and why the rest is open or closed.
type Access struct {
	in       [2]addrSet // IPv4, IPv6 clients the allow/deny list lets in
	unixIn   bool
	admitted [2]*parser.Directive // the rule that lets most of a family in; nil: no rule matched them
	// Auth is the directive of an authentication in force ("off" is
	// none).
	Auth     *parser.Directive
	satisfy  string // "all" (the default) or "any"
	internal bool   // the location is internal
	// Restricted: an allow or deny is in force.
	Restricted bool
}

// evalAccess runs an access list the way nginx does.
func evalAccess(rules []Rule) Access {
	var a Access
	a.Restricted = len(rules) > 0
	for f := IPv4; f <= IPv6; f++ {
		rest := everyone(f) // clients no earlier rule matched
		var best *big.Int
		for _, r := range rules {
			if r.Unix || !r.All && r.fam != f {
				continue
			}
			matched := rest
			if !r.All {
				matched = rest.intersect(r.r)
				rest = rest.minus(r.r)
			} else {
				rest = nil
			}
			if r.Allow {
				a.in[f] = append(a.in[f], matched...)
				if n := matched.public().size(); best == nil || n.Cmp(best) > 0 {
					best, a.admitted[f] = n, r.Directive
				}
			}
		}
		// A client no rule matched is let in.
		if n := rest.public().size(); best == nil || n.Cmp(best) > 0 {
			a.admitted[f] = nil
		}
		a.in[f] = append(a.in[f], rest...)
	}
	a.unixIn = true
	for _, r := range rules {
		if r.Unix || r.All {
			a.unixIn = r.Allow
			break
		}
	}
	return a
}

// open reports whether clients of family f get in as if unrestricted:
// more public addresses than openThreshold.
func (a *Access) open(f Family) bool {
	return a.in[f].public().size().Cmp(openThreshold[f]) >= 0
}

// authDirectives are the access-phase modules that ask the client who it
// is: nginx's, NGINX Plus's and the third-party ones nginx-lint knows.
var authDirectives = []string{"auth_basic", "auth_request", "auth_jwt", "auth_oidc", "auth_ldap", "auth_pam", "auth_gss", "auth_digest", "auth_spnego"}

// Level is what one block says about access (ReadLevel): a summary for
// analyzer.NewPerBlock.
type Level struct {
	rules    []Rule
	hasRules bool
	auth     *parser.Directive // the first auth directive, "off" included
	satisfy  string
	internal bool
}

// ReadLevel reads the allow, deny, satisfy, internal and authentication
// directives of a block's body.
func ReadLevel(body []*parser.Directive) Level {
	var b Level
	for _, d := range body {
		switch {
		case d.Is("allow") || d.Is("deny"):
			b.hasRules = true
			if r, ok := ParseRule(d); ok {
				b.rules = append(b.rules, r)
			}
		case d.Is("satisfy") && len(d.Args) == 1:
			b.satisfy = strings.ToLower(d.Args[0].Value)
		case d.Is("internal"):
			b.internal = true
		default:
			if b.auth == nil && len(d.Args) > 0 {
				for _, n := range authDirectives {
					if d.Name.Value == n {
						b.auth = d
					}
				}
			}
		}
	}
	return b
}

// At returns the access in force in the innermost block of stack: the
// allow/deny list, the authentication and satisfy of the nearest level
// that sets them (nginx merges each apart from the others).
func At(blocks *analyzer.PerBlock[Level], stack []*parser.Directive) Access {
	var rules []Rule
	var auth *parser.Directive
	rulesFound, authFound := false, false
	satisfy, internal := "", false
	for i := len(stack) - 1; i >= 0; i-- {
		if !stack[i].Is("location") && !stack[i].Is("server") && !stack[i].Is("http") && !stack[i].Is("limit_except") {
			continue
		}
		b := blocks.Of(stack, stack[i])
		if !rulesFound && b.hasRules {
			rules, rulesFound = b.rules, true
		}
		if !authFound && b.auth != nil {
			auth, authFound = b.auth, true
		}
		if satisfy == "" {
			satisfy = b.satisfy
		}
		internal = internal || b.internal && stack[i].Is("location")
	}
	a := evalAccess(rules)
	a.Restricted = rulesFound
	if auth != nil && !strings.EqualFold(auth.Args[0].Value, "off") {
		a.Auth = auth
	}
	a.satisfy = satisfy
	if a.satisfy == "" {
		a.satisfy = "all"
	}
	a.internal = internal
	return a
}

// Exposure says how clients of family f reach a place guarded by a, ""
// when they cannot without a password or a trusted address.
func (a *Access) Exposure(f Family) string {
	if a.internal {
		return ""
	}
	if a.Auth != nil && a.satisfy != "any" {
		return "" // a password (or token) is needed whatever the address
	}
	if !a.open(f) {
		return ""
	}
	why := "no allow/deny restricts them"
	switch {
	case a.admitted[f] != nil:
		why = fmt.Sprintf("%q at line %d lets them in", strings.Join(append([]string{a.admitted[f].Name.Value}, a.admitted[f].ArgValues()...), " "), a.admitted[f].Line())
	case a.Restricted:
		why = "no rule matches them, and nginx lets in a client no rule matches"
	}
	if a.Auth != nil {
		why += fmt.Sprintf(", and with \"satisfy any\" that skips %q", a.Auth.Name.Value)
	}
	return fmt.Sprintf("every %s client: %s", f, why)
}

// ListenFamilies returns the client families a server's listens accept:
// "listen 80" and IPv4 addresses take IPv4, an IPv6 address IPv6 (both
// with ipv6only=off), a host name whatever it resolves to, a unix socket
// local clients only. A server without listen gets *:80.
func ListenFamilies(s *parser.Server) (fams []Family) {
	seen := map[Family]bool{}
	add := func(f Family) {
		if !seen[f] {
			seen[f] = true
			fams = append(fams, f)
		}
	}
	ls := s.Listens()
	if len(ls) == 0 {
		add(IPv4)
	}
	for _, l := range ls {
		d := l.Directive
		if len(d.Args) == 0 {
			continue
		}
		addr := d.Args[0].Value
		switch {
		case strings.HasPrefix(addr, "unix:"):
			add(Unix)
		case strings.HasPrefix(addr, "["):
			add(IPv6)
			for _, a := range d.Args[1:] {
				if a.Value == "ipv6only=off" {
					add(IPv4)
				}
			}
		default:
			host, _, found := strings.Cut(addr, ":")
			if !found {
				host = addr
			}
			if _, err := netip.ParseAddr(host); err == nil || isPort(host) || host == "*" {
				add(IPv4)
			} else {
				add(IPv4) // a host name: whatever it resolves to
				add(IPv6)
			}
		}
	}
	return fams
}

func isPort(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
