package routing

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Table is the routing of one configuration's http servers.
type Table struct {
	// Servers are the http servers in order; a server's number in the
	// routing answers is its index here.
	Servers []*parser.Server
	// Ports are the TCP ports of http listens.
	Ports []*Port
	// Unsure lists what the model cannot decide from the configuration
	// alone (listens on host names, dual-stack wildcards, "$hostname",
	// regexes Go cannot compile); a comparison involving them is never
	// called equivalent.
	Unsure []string

	byPort map[portKey]*Port
	// runs are the ports that stand for a run of ports (a port range,
	// costmodel.Port), by family, in order of their first port.
	runs map[costmodel.Family][]*Port
}

type portKey struct {
	fam  costmodel.Family
	port int
}

// Port is one TCP port of one address family and its listed addresses.
type Port struct {
	Family costmodel.Family
	Port   int
	// Last is the last port of the run of ports Port stands for, every
	// one routed alike (a port range); Port for one port.
	Last int
	// Addrs are the listed addresses in order of appearance.
	Addrs []*Addr
	// Wildcard is the port's 0.0.0.0 or [::] address, nil if none: it
	// serves the connections to every address not listed.
	Wildcard *Addr

	byKey map[string]*Addr
	// byIP finds an IP address's entry without formatting its key.
	byIP map[netip.Addr]*Addr
}

// Addr is one listened address with the servers nginx chooses among.
type Addr struct {
	Key string
	IP  netip.Addr
	// Servers are the numbers of the servers listening here, in order.
	Servers []int
	// Default is the server of requests no name matches.
	Default int
	// SSL, HTTP2 and ProxyProtocol are the address's options, combined
	// over every listen on it (ngx_http_add_addresses ORs them).
	SSL, HTTP2, ProxyProtocol bool
	// names is the address's name tables. With one server here
	// ngx_http_optimize_servers builds none and every request goes to
	// it; the names are filed all the same, for what names a request
	// (Probes, the route command's URLs).
	names *Names
}

// Build makes the routing table of the http servers of m, with the
// listens grouped as res (the cost model of m) groups them, each address
// read as Addresses reads it.
func Build(m *parser.Model, res *costmodel.Result) *Table {
	t := &Table{byPort: map[portKey]*Port{}}
	num := map[*parser.Server]int{}
	for _, s := range m.Servers {
		if s.Protocol == parser.HTTP {
			num[s] = len(t.Servers)
			t.Servers = append(t.Servers, s)
		}
	}
	for _, s := range t.Servers {
		for _, n := range s.Names() {
			if n.Spec().Hostname {
				t.unsure("server %s uses $hostname, the machine's name", serverRef(s))
			}
		}
	}
	var ra Address
	for _, cp := range res.Ports {
		if cp.Protocol != parser.HTTP || cp.UDP {
			continue
		}
		switch cp.Family {
		case costmodel.Host:
			t.unsure("%s: a listen on a host name, resolved when nginx starts", cp.Name())
			continue
		}
		p := &Port{Family: cp.Family, Port: cp.Port, Last: cp.Last(), byKey: map[string]*Addr{}, byIP: map[netip.Addr]*Addr{}}
		for _, ca := range cp.Addrs {
			replay(&ra, ca, false, nil)
			if ra.Servers == 0 {
				continue
			}
			a := &Addr{Key: ca.Key, IP: addrIP(ca.Key), Default: num[ra.Default]}
			for s := range ra.EachServer() {
				a.Servers = append(a.Servers, num[s])
			}
			for i := range ca.Instances {
				if l := ca.Instances[i].Listen; l != nil && l.Spec != nil {
					sp := l.Spec
					a.SSL = a.SSL || sp.Has(grammar.ParamSSL)
					a.HTTP2 = a.HTTP2 || sp.Has(grammar.ParamHTTP2)
					a.ProxyProtocol = a.ProxyProtocol || sp.Has(grammar.ParamProxyProtocol)
					if cp.Family == costmodel.IPv6 && ca.Wildcard && sp.Has(grammar.ParamIPv6Only) && !sp.IPv6Only {
						t.unsure("%s: ipv6only=off also takes IPv4 connections", ca.Key)
					}
				}
			}
			a.names = newNames(len(a.Servers))
			for s := range ra.EachServer() {
				a.names.addServer(s, num[s])
			}
			a.names.compile(t.unsure)
			p.Addrs = append(p.Addrs, a)
			p.byKey[a.Key] = a
			want := netip.AddrPortFrom(a.IP, uint16(cp.Port)).String()
			if p.Last > p.Port {
				want += "-" + strconv.Itoa(p.Last) // a run of ports
			}
			if a.IP.IsValid() && a.Key == want {
				p.byIP[a.IP] = a
			}
			if ca.Wildcard {
				p.Wildcard = a
			}
		}
		if len(p.Addrs) > 0 {
			t.Ports = append(t.Ports, p)
			t.byPort[portKey{p.Family, p.Port}] = p
			if p.Last > p.Port {
				if t.runs == nil {
					t.runs = map[costmodel.Family][]*Port{}
				}
				t.runs[p.Family] = append(t.runs[p.Family], p)
			}
		}
	}
	for _, rs := range t.runs {
		slices.SortFunc(rs, func(a, b *Port) int { return a.Port - b.Port })
	}
	return t
}

// port returns the port, or the run of ports, that holds port.
func (t *Table) port(fam costmodel.Family, port int) *Port {
	if p := t.byPort[portKey{fam, port}]; p != nil {
		return p
	}
	rs := t.runs[fam]
	i, _ := slices.BinarySearchFunc(rs, port, func(p *Port, n int) int { return p.Port - n })
	if i > 0 && rs[i-1].Last >= port {
		return rs[i-1]
	}
	return nil
}

func (t *Table) unsure(format string, args ...any) {
	if len(t.Unsure) < 20 {
		t.Unsure = append(t.Unsure, fmt.Sprintf(format, args...))
	}
}

// addrIP reads the address of a socket key ("127.0.0.1:80", "[::1]:80").
func addrIP(key string) netip.Addr {
	if i := strings.LastIndexByte(key, ':'); i >= 0 {
		// A run of ports: "127.0.0.1:1000-1999".
		if j := strings.IndexByte(key[i:], '-'); j >= 0 {
			key = key[:i+j]
		}
	}
	if ap, err := netip.ParseAddrPort(key); err == nil {
		return ap.Addr()
	}
	return netip.Addr{}
}

func serverRef(s *parser.Server) string {
	if s.Directive == nil || s.Directive.File == nil {
		return "block"
	}
	return fmt.Sprintf("at %s:%d", s.Directive.File.Path, s.Directive.Line())
}

// Request is what nginx routes by.
type Request struct {
	// Addr is the local address the client connected to.
	Addr netip.Addr
	Port int
	// Host is the Host header (or, for TLS, the SNI name); NoHost says
	// there is none (HTTP/1.0 without Host).
	Host   string
	NoHost bool
	// Unix is the socket ("unix:/run/app.sock") of a request to a UNIX
	// socket, which Addr and Port then do not name.
	Unix string
}

func (r Request) String() string {
	h := "without Host"
	if !r.NoHost {
		h = "with Host " + strconv.Quote(r.Host)
	}
	if r.Unix != "" {
		return fmt.Sprintf("a request to %s %s", r.Unix, h)
	}
	return fmt.Sprintf("a request to %s %s", netip.AddrPortFrom(r.Addr, uint16(r.Port)), h)
}

// Refused is the answer for a connection nothing listens for.
const Refused = -1

// Address returns the address entry that takes a connection to ip:port:
// the listed one, else the port's wildcard, else nil (refused).
func (t *Table) Address(ip netip.Addr, port int) *Addr {
	fam := costmodel.IPv4
	if ip.Is6() && !ip.Is4In6() {
		fam = costmodel.IPv6
	}
	p := t.port(fam, port)
	if p == nil {
		return nil
	}
	if a := p.byIP[ip.Unmap()]; a != nil {
		return a
	}
	return p.Wildcard
}

// unixAddr returns the entry of a UNIX socket, nil if none listens there.
func (t *Table) unixAddr(key string) *Addr {
	if p := t.byPort[portKey{costmodel.Unix, 0}]; p != nil {
		return p.byKey[key]
	}
	return nil
}

// Route returns the number of the server that handles r, or Refused.
func (t *Table) Route(r Request) int {
	a := t.Address(r.Addr, r.Port)
	if r.Unix != "" {
		a = t.unixAddr(r.Unix)
	}
	if a == nil {
		return Refused
	}
	if r.NoHost {
		return a.NoHost()
	}
	return a.Lookup(r.Host)
}

// RouteTLS returns the server whose certificate the handshake with SNI
// name sni uses (ngx_http_ssl_servername looks it up as a Host) and the
// server that then handles the request with Host host.
func (t *Table) RouteTLS(ip netip.Addr, port int, sni, host string) (handshake, request int) {
	a := t.Address(ip, port)
	if a == nil {
		return Refused, Refused
	}
	handshake = a.NoHost()
	if sni != "" {
		handshake = a.Lookup(sni)
	}
	return handshake, a.Lookup(host)
}

// NormalizeHost validates and normalizes a Host header as
// ngx_http_validate_host does: the port is cut, one trailing dot
// dropped, letters lower-cased. ok is false for a host nginx refuses
// with 400 (the default server answers it).
func NormalizeHost(h string) (string, bool) {
	dot := -2
	n := len(h)
	literal, rest := false, false
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c == '.':
			if dot == i-1 {
				return "", false
			}
			dot = i
		case c == ':':
			if !literal && !rest {
				n, rest = i, true
			}
		case c == '[':
			if i == 0 {
				literal = true
			}
		case c == ']':
			if literal && !rest {
				n, rest = i+1, true
			}
		case c == '/' || c <= 0x20 || c == 0x7f:
			return "", false
		}
	}
	if dot == n-1 {
		n--
	}
	if n <= 0 {
		return "", false
	}
	return strings.ToLower(h[:n]), true
}

// NoHost returns the server of a request without Host: nginx looks up
// the empty name (ngx_http_process_request_header), which the servers
// without server_name (or with server_name "") hold, else the default.
func (a *Addr) NoHost() int {
	if len(a.Servers) > 1 {
		if n, ok := a.names.exact(""); ok {
			return n
		}
	}
	return a.Default
}

// Lookup returns the server of a Host header on the address, as
// ngx_http_find_virtual_server finds it.
func (a *Addr) Lookup(host string) int {
	h, ok := NormalizeHost(host)
	if !ok {
		return a.Default
	}
	n, _ := a.lookup(h)
	return n
}

// candidates are the hosts that can tell two addresses' tables apart:
// every name they hold, a host under and beside each wildcard, and one
// that no table holds.
func candidates(as ...*Addr) []string {
	seen := map[string]bool{}
	var out []string
	add := func(h string) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	for _, a := range as {
		if a == nil {
			continue
		}
		for k := range a.names.claims {
			if k.Table == '=' {
				add(k.Name)
			}
		}
		for _, w := range a.names.head {
			add(w.Domain)
			add("nginx-lint-probe." + w.Domain)
		}
		for _, w := range a.names.tail {
			add(w.Domain + ".nginx-lint-probe")
		}
	}
	sort.Strings(out)
	out = append(out, "unknown.nginx-lint.invalid")
	return out
}
