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

// addrSet is a set of addresses of one Family: sorted disjoint ranges.
type addrSet []addrRange

// Family is an address family of clients.
type Family uint8

// The families of clients.
const (
	IPv4 Family = iota
	IPv6
	Unix
)

// String names the Family for messages.
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
	fam    Family // of r, when neither All nor Unix
	r      addrRange
}

// ParseRule reads an allow or deny as ngx_http_access_rule does: "all",
// "unix:", an address or a network (whose host bits nginx clears). ok is
// false for an argument nginx refuses (invalid-parameter reports it); the
// Rule then matches no client.
func ParseRule(d *parser.Directive) (rule Rule, ok bool) {
	rule = Rule{Directive: d, Allow: d.Is("allow")}
	if len(d.Args()) != 1 {
		return rule, false
	}
	arg := d.Args()[0].Value
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

// Phase is the access phase of one place as nginx runs it
// (ngx_http_core_access_phase), with each module's configuration merged
// as that module's merge function does:
//
//   - the access module's rules: the nearest level that has any allow or
//     deny, as a whole (ngx_http_access_merge_loc_conf); for a client the
//     first rule that matches answers OK or FORBIDDEN, none DECLINED;
//   - auth_basic's realm and auth_basic_user_file, merged apart: with both
//     an anonymous client gets 401, without either the module DECLINES;
//   - auth_request (off: DECLINED) and the other authentication modules,
//     each from its own nearest level: an anonymous client is refused;
//   - satisfy all: every handler must not refuse (FORBIDDEN or 401 ends
//     the request); satisfy any: the first OK lets the client in at once,
//     a refusal is remembered and the request refused at the end unless
//     a later handler says OK, and when all DECLINE the client gets in;
//   - internal: the location answers only internal redirects (merged, so
//     a location inside an internal one is internal too).
type Phase struct {
	// Rules is the allow/deny list in force, ListAt the block it is
	// written in (nil: none).
	Rules  []Rule
	ListAt *parser.Directive
	// Guards are the authentication directives in force that refuse an
	// anonymous client (auth_basic with its user file, auth_request, ...).
	Guards     []*parser.Directive
	SatisfyAny bool
	// Internal: the location answers only internal redirects.
	Internal bool
}

// clients is what the access module answers the clients of one Family:
// the addresses it allows (OK), denies (FORBIDDEN) and has no rule for
// (DECLINED), and the rule that allows most of the public addresses.
type clients struct {
	ok, deny, none addrSet
	admitted       *parser.Directive
}

// byRules runs the access list for Family f as ngx_http_access_inet and
// _inet6 do: in order, the first rule that matches the client decides.
func (a *Phase) byRules(f Family) clients {
	var c clients
	rest := everyone(f) // clients no earlier rule matched
	var best *big.Int
	for _, r := range a.Rules {
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
		if !r.Allow {
			c.deny = append(c.deny, matched...)
			continue
		}
		c.ok = append(c.ok, matched...)
		if n := matched.public().size(); best == nil || n.Cmp(best) > 0 {
			best, c.admitted = n, r.Directive
		}
	}
	c.none = rest
	return c
}

// admits returns the clients of Family f that pass the access phase
// without credentials, and the rule that lets most of them in (nil when
// they get in because no rule matches them).
func (a *Phase) admits(f Family) (addrSet, *parser.Directive) {
	c := a.byRules(f)
	guarded := len(a.Guards) > 0
	var in addrSet
	if a.SatisfyAny {
		// The access module's OK ends the phase; a client it declines
		// needs every other handler to decline as well.
		in = append(in, c.ok...)
		if !guarded {
			in = append(in, c.none...)
		}
	} else if !guarded {
		in = append(append(in, c.ok...), c.none...)
	}
	admitted := c.admitted
	if n := c.none.public().size(); !guarded && (admitted == nil || n.Cmp(c.ok.public().size()) > 0) {
		admitted = nil
	}
	return in, admitted
}

// AllowsEveryone reports whether the access list answers OK to every
// client of both families.
func (a *Phase) AllowsEveryone() bool {
	for f := IPv4; f <= IPv6; f++ {
		c := a.byRules(f)
		if len(c.deny) > 0 || len(c.none) > 0 {
			return false
		}
	}
	return len(a.Rules) > 0
}

// FirstDeny returns the first deny of the list in force, nil if none.
func (a *Phase) FirstDeny() *parser.Directive {
	for _, r := range a.Rules {
		if !r.Allow {
			return r.Directive
		}
	}
	return nil
}

// authDirectives are the access-phase modules that ask the client who it
// is: nginx's, NGINX Plus's and the third-party ones nginx-lint knows.
// auth_basic needs auth_basic_user_file as well.
var authDirectives = []string{"auth_basic", "auth_request", "auth_jwt", "auth_oidc", "auth_ldap", "auth_pam", "auth_gss", "auth_digest", "auth_spnego"}

// Level is what one block says about access (ReadLevel): a summary for
// analyzer.NewPerBlock.
type Level struct {
	rules    []Rule
	hasRules bool
	// auth holds the first directive of each authentication module the
	// block sets ("off" included), and auth_basic_user_file.
	auth     map[string]*parser.Directive
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
		case d.Is("satisfy") && len(d.Args()) == 1:
			b.satisfy = strings.ToLower(d.Args()[0].Value)
		case d.Is("internal"):
			b.internal = true
		case len(d.Args()) > 0 && (d.Is("auth_basic_user_file") || isAuthDirective(d)):
			if b.auth == nil {
				b.auth = map[string]*parser.Directive{}
			}
			if _, ok := b.auth[d.Name().Value]; !ok {
				b.auth[d.Name().Value] = d
			}
		}
	}
	return b
}

func isAuthDirective(d *parser.Directive) bool {
	for _, n := range authDirectives {
		if d.Name().Value == n {
			return true
		}
	}
	return false
}

// accessLevel reports whether a block of stack is a level of the access
// phase's settings.
func accessLevel(b *parser.Directive) bool {
	return b.Is("location") || b.Is("server") || b.Is("http") || b.Is("limit_except")
}

// At returns the access phase in force at the innermost block
// of stack, each module's settings from the nearest level that sets them.
func At(blocks *analyzer.PerBlock[Level], stack []*parser.Directive) Phase {
	var a Phase
	rulesFound := false
	satisfy := ""
	auth := map[string]*parser.Directive{}
	for i := len(stack) - 1; i >= 0; i-- {
		if !accessLevel(stack[i]) {
			continue
		}
		b := blocks.Of(stack, stack[i])
		if !rulesFound && b.hasRules {
			a.Rules, a.ListAt, rulesFound = b.rules, stack[i], true
		}
		for name, d := range b.auth {
			if _, ok := auth[name]; !ok {
				auth[name] = d
			}
		}
		if satisfy == "" {
			satisfy = b.satisfy
		}
		a.Internal = a.Internal || b.internal && stack[i].Is("location")
	}
	a.SatisfyAny = satisfy == "any"
	// The handlers in nginx's order of modules do not matter for an
	// anonymous client: each that is on refuses it.
	for _, name := range authDirectives {
		d := auth[name]
		if d == nil || strings.EqualFold(d.Args()[0].Value, "off") {
			continue
		}
		if name == "auth_basic" && auth["auth_basic_user_file"] == nil {
			continue // ngx_http_auth_basic_handler declines without a file
		}
		a.Guards = append(a.Guards, d)
	}
	return a
}

// Restricted reports whether anything of the access phase is set: an
// allow/deny list or an authentication that refuses.
func (a *Phase) Restricted() bool { return a.ListAt != nil || len(a.Guards) > 0 }

// Exposure says how clients of Family f reach a place guarded by a, ""
// when they cannot without a password or a trusted address.
func (a *Phase) Exposure(f Family) string {
	if a.Internal {
		return ""
	}
	in, admitted := a.admits(f)
	if in.public().size().Cmp(openThreshold[f]) < 0 {
		return ""
	}
	why := "no allow/deny restricts them"
	switch {
	case admitted != nil:
		why = fmt.Sprintf("%q at line %d lets them in", strings.Join(append([]string{admitted.Name().Value}, admitted.ArgValues()...), " "), admitted.Line())
	case a.ListAt != nil:
		why = "no rule matches them, and nginx lets in a client no rule matches"
	}
	if len(a.Guards) > 0 {
		why += fmt.Sprintf(", and with \"satisfy any\" that skips %q", a.Guards[0].Name().Value)
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
		if len(d.Args()) == 0 {
			continue
		}
		addr := d.Args()[0].Value
		switch {
		case strings.HasPrefix(addr, "unix:"):
			add(Unix)
		case strings.HasPrefix(addr, "["):
			add(IPv6)
			for _, a := range d.Args()[1:] {
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
