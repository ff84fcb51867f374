package routing

import (
	"iter"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Address is what nginx makes of the listens on one address:port of a
// protocol (ngx_http_add_addresses and ngx_http_add_server, or their
// stream twins, which nginx 1.25.5 and later shape the same way): which
// servers share it, which one is the default, and (Names) their server
// names. The cost model has grouped the listens into addresses in the
// order nginx adds them (the implied listens of servers without one
// last); an address's outcome depends only on its own listens, so
// replaying each address's list is replaying the configuration.
type Address struct {
	// Cost is the cost model's address: its key ("127.0.0.1:80", as
	// nginx prints it) and its listens in the order nginx adds them.
	Cost *costmodel.Addr
	// UDP: a datagram socket (an http listen with quic, a stream listen
	// with udp), whose servers are apart from the TCP socket's.
	UDP bool
	// Servers is how many servers listen here. A server nested anywhere
	// but directly in its http, stream or mail block is left out: nginx
	// stops at it before opening any socket.
	Servers int
	// First and Second are the first listens of the first two servers
	// (nil when there are fewer).
	First, Second *costmodel.Instance
	// DefaultBy is the listen that made its server the default
	// (default_server), nil when none did; Default is the default server:
	// DefaultBy's, else the first.
	DefaultBy *parser.Directive
	Default   *parser.Server
	// Protocols are the protocol parameters any of its listens gives
	// (ssl, http2, proxy_protocol).
	Protocols Protocols
}

// Key is the address as nginx prints it ("0.0.0.0:80").
func (a *Address) Key() string { return a.Cost.Key }

// EachServer yields the servers that listen on a, each once, in order.
func (a *Address) EachServer() iter.Seq[*parser.Server] {
	return func(yield func(*parser.Server) bool) {
		for s := range a.Cost.Servers() {
			if !s.Misplaced && !yield(s) {
				return
			}
		}
	}
}

// Names files the server names of a's servers as ngx_http_server_names
// does. nginx builds the names only for an address several servers
// share, and so should a caller: with one server every request goes to
// it. The servers are numbered by their order on the address.
func (a *Address) Names() *Names {
	n := 0
	for s := range a.EachServer() {
		n += max(1, len(s.Names()))
	}
	names := newNames(n)
	i := 0
	for s := range a.EachServer() {
		names.addServer(s, i)
		i++
	}
	return names
}

// Addresses yields every address of protocol proto in the cost model r,
// in nginx's order. The *Address is one value, filled again for each
// address: a caller copies what it keeps.
func Addresses(r *costmodel.Result, proto parser.Protocol) iter.Seq[*Address] {
	return func(yield func(*Address) bool) {
		var a Address
		for _, port := range r.Ports {
			if port.Protocol != proto {
				continue
			}
			for _, ca := range port.Addrs {
				replay(&a, ca, port.UDP, nil)
				if a.Servers > 0 && !yield(&a) {
					return
				}
			}
		}
	}
}

// ProblemKind is what nginx says about a listen on a shared address.
type ProblemKind uint8

// The kinds of problems.
const (
	// DuplicateListen: the server already listens on the address; nginx
	// refuses "a duplicate listen".
	DuplicateListen ProblemKind = iota + 1
	// DuplicateOptions: socket options (backlog=, reuseport, bind, ...)
	// on a second listen of the address; nginx refuses "duplicate listen
	// options".
	DuplicateOptions
	// DuplicateDefault: a second default_server on the address; nginx
	// refuses "a duplicate default server".
	DuplicateDefault
	// ProtocolsRedefined: ssl, http2 or proxy_protocol on some listens of
	// the address but not others; they belong to the socket. nginx 1.25.5
	// and later warn "protocol options redefined".
	ProtocolsRedefined
)

// Protocols are the protocol parameters of an address, which nginx
// ORs over its listens (addr->opt).
type Protocols uint8

// The protocol parameters.
const (
	ProxyProtocol Protocols = 1 << iota
	SSL
	HTTP2
)

// Problem is a listen nginx refuses or warns about on a shared address.
type Problem struct {
	Kind ProblemKind
	// At is the listen nginx stops at or warns about; First the earlier
	// listen that explains it: the server's first listen there, the
	// listen with the socket options, the default server's, the first
	// with protocol parameters.
	At, First *parser.Directive
	// Addr is the address as nginx prints it ("0.0.0.0:80"; a port
	// range's ports, "127.0.0.1:1-65535", when its runs say the same),
	// Cost the cost model's (of the first run).
	Addr string
	Cost *costmodel.Addr
	// Protocols is, for ProtocolsRedefined, what every server on the
	// address gets; for the others, the listen's own.
	Protocols Protocols
}

// Problems replays every listen of protocol proto in the cost model r as
// nginx adds them, and returns what it refuses or warns about.
func Problems(r *costmodel.Result, proto parser.Protocol) []Problem {
	problems, _ := Replay(r, proto, nil)
	return problems
}

// Replay replays every listen of protocol proto in the cost model r once,
// as nginx adds them: it returns what nginx refuses or warns about, and a
// copy of each address keep keeps (nil: none), in nginx's order. The rules
// of a run read one replay: a configuration of 20,000 addresses with one
// server each keeps none of them for a rule about shared addresses.
func Replay(r *costmodel.Result, proto parser.Protocol, keep func(Address) bool) (problems []Problem, kept []Address) {
	var a Address
	for _, port := range r.Ports {
		if port.Protocol != proto {
			continue
		}
		for _, ca := range port.Addrs {
			replay(&a, ca, port.UDP, &problems)
			// keep takes a copy: a pointer would move a to the heap, and
			// every address's writes to it would pass the write barrier.
			if a.Servers > 0 && keep != nil && keep(a) {
				kept = append(kept, a)
			}
		}
	}
	return mergeProblems(problems), kept
}

// mergeProblems says once what the runs of ports of one listen (a port
// range cut by other listens) say alike, with the ports they span as its
// Addr.
func mergeProblems(problems []Problem) []Problem {
	if len(problems) == 0 {
		return problems
	}
	found := make([]Run[Problem], len(problems))
	for i, pr := range problems {
		found[i] = Run[Problem]{pr, pr.Cost}
	}
	merged, addrs := MergeRuns(found, func(a, b Problem) bool {
		return a.Kind == b.Kind && a.At == b.At && a.First == b.First && a.Protocols == b.Protocols
	})
	for i := range merged {
		merged[i].Addr = addrs[i]
	}
	return merged
}

// addrState is what nginx has accumulated on one ngx_http_conf_addr_t
// while reading listens in order.
type addrState struct {
	// last is the last server that used the address, lastListen its
	// listen (nil for an implied one): a server's listens come together,
	// so only the last server can repeat.
	last       *parser.Server
	lastListen *parser.Directive
	// optsBy is the listen whose socket options the socket uses.
	optsBy *parser.Directive
	// protoOr is what nginx keeps in addr->opt: every protocol bit any
	// listen so far gave.
	protoOr Protocols
	// protocols, protocolsSet and changed mirror the fields of the same
	// names that nginx uses to decide when to warn.
	protocols    Protocols
	protocolsSet bool
	changed      bool
	// protoBy is the first listen that gave a protocol parameter.
	protoBy *parser.Directive
}

// replay fills a with what nginx makes of the listens of ca (udp: its
// port's sockets are datagram ones), and adds the problems to out when
// out is not nil. Listens whose arguments do not parse are not in the
// cost model: another rule reports them.
func replay(a *Address, ca *costmodel.Addr, udp bool, out *[]Problem) {
	*a = Address{Cost: ca, UDP: udp}
	var st addrState
	for i := range ca.Instances {
		in := &ca.Instances[i]
		if in.Server.Misplaced {
			continue
		}
		var d *parser.Directive
		var spec *grammar.Listen
		if in.Listen != nil {
			d, spec = in.Listen.Directive, in.Listen.Spec
		}
		if in.Server != st.last {
			a.Servers++
			switch a.Servers {
			case 1:
				a.First, a.Default = in, in.Server
			case 2:
				a.Second = in
			}
		}
		p, ok := st.add(a, in.Server, d, spec)
		if ok && out != nil {
			*out = append(*out, p)
		}
		a.Protocols |= p.Protocols
	}
}

// add replays one listen d of server s (d nil for an implied listen), as
// ngx_http_add_addresses and ngx_http_add_server do, and returns what
// nginx says about it.
func (st *addrState) add(a *Address, s *parser.Server, d *parser.Directive, l *grammar.Listen) (Problem, bool) {
	var set, dflt bool
	var protocols Protocols
	if l != nil {
		set = l.ForcesOwnSocket()
		dflt = l.Has(grammar.ParamDefaultServer)
		if l.Has(grammar.ParamProxyProtocol) {
			protocols |= ProxyProtocol
		}
		if l.Has(grammar.ParamSSL) {
			protocols |= SSL
		}
		if l.Has(grammar.ParamHTTP2) {
			protocols |= HTTP2
		}
	}
	addr := a.Cost.Key
	if st.last == nil {
		// ngx_http_add_address: a new socket takes this listen's options.
		st.last, st.lastListen = s, d
		if set {
			st.optsBy = d
		}
		if dflt {
			a.DefaultBy, a.Default = d, s
		}
		if protocols != 0 {
			st.protoBy = d
		}
		st.protoOr = protocols
		return Problem{Protocols: protocols}, false
	}
	// ngx_http_add_server: a server may use a socket once. A server's
	// listens are replayed together, so only the last server can repeat.
	if st.last == s {
		if d != nil {
			return Problem{Kind: DuplicateListen, At: d, First: st.lastListen, Addr: addr, Cost: a.Cost, Protocols: protocols}, true
		}
		return Problem{Protocols: protocols}, false
	}
	st.last, st.lastListen = s, d

	prev := st.protoOr
	if set {
		if st.optsBy != nil {
			return Problem{Kind: DuplicateOptions, At: d, First: st.optsBy, Addr: addr, Cost: a.Cost, Protocols: protocols}, true
		}
		st.optsBy = d
	}
	if dflt {
		if a.DefaultBy != nil {
			return Problem{Kind: DuplicateDefault, At: d, First: a.DefaultBy, Addr: addr, Cost: a.Cost, Protocols: protocols}, true
		}
		a.DefaultBy, a.Default = d, s
	}
	// The warning logic of ngx_http_add_addresses (nginx 1.25.5+), kept
	// as nginx has it so that we warn exactly when nginx does.
	warn := false
	union := protocols | prev
	switch {
	case union != prev: // this listen adds protocols
		warn = st.optsBy != nil && !set || st.changed || union != protocols
		st.protocols, st.protocolsSet, st.changed = prev, true, true
	case union != protocols: // this listen lacks some
		warn = set || st.protocolsSet && protocols != st.protocols
		st.protocols, st.protocolsSet = protocols, true
	default:
		warn = set && st.changed || st.protocolsSet && protocols != st.protocols
		st.protocols, st.protocolsSet = protocols, true
	}
	st.protoOr = union
	if st.protoBy == nil && protocols != 0 {
		st.protoBy = d
	}
	if warn && d != nil {
		return Problem{Kind: ProtocolsRedefined, At: d, First: st.protoBy, Addr: addr, Cost: a.Cost, Protocols: union}, true
	}
	return Problem{Protocols: protocols}, false
}
