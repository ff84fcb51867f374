package grammar

import (
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"net/netip"
	"strconv"
	"strings"
	"unsafe"
)

// The listenAllocN types let the fast path return a Listen and its Params
// with a single allocation: Listen.Params points into the same object,
// which the garbage collector keeps alive through the interior pointer.
// Sizes 1 and 2 cover the usual "ssl" or "default_server" listens without
// paying for four slots.
type (
	listenAlloc1 struct {
		l      Listen
		params [1]Param
	}
	listenAlloc2 struct {
		l      Listen
		params [2]Param
	}
	listenAlloc4 struct {
		l      Listen
		params [4]Param
	}
)

// newListen allocates a Listen together with room for n Params. The
// returned slice has length and capacity n (nil for n == 0), so nobody can
// append past it into memory it does not own.
func newListen(n int) (*Listen, []Param) {
	switch {
	case n == 0:
		return &Listen{}, nil
	case n == 1:
		a := &listenAlloc1{}
		return &a.l, a.params[:]
	case n == 2:
		a := &listenAlloc2{}
		return &a.l, a.params[:]
	case n <= 4:
		a := &listenAlloc4{}
		return &a.l, a.params[:n:n]
	}
	return &Listen{}, make([]Param, n)
}

// An Arena hands out the Listens (and their parameter lists) of many
// ParseListenIn calls from shared chunks, for a caller that parses a whole
// configuration: twenty thousand listens then cost a few dozen allocations
// instead of twenty thousand. A Listen from an arena keeps its chunk
// alive. The zero Arena is ready to use; a nil *Arena allocates each
// Listen on its own. An Arena is not safe for concurrent use.
type Arena struct {
	listens []Listen
	params  []Param
}

// arenaListens Listens fill a 32 KiB size class, the largest chunk. The
// chunks start small and double up to it (and to arenaParams Params), so
// that the model of a small file (the language server keeps one per open
// file) does not hold 32 KiB for its one listen.
const (
	arenaListens = 32 << 10 / int(unsafe.Sizeof(Listen{}))
	arenaParams  = 1024
)

// alloc returns a zero Listen and room for n Params (nil for none).
func (a *Arena) alloc(n int) (*Listen, []Param) {
	if a == nil {
		return newListen(n)
	}
	if len(a.listens) == cap(a.listens) {
		a.listens = make([]Listen, 0, min(max(2*cap(a.listens), 4), arenaListens))
	}
	a.listens = a.listens[:len(a.listens)+1]
	l := &a.listens[len(a.listens)-1]
	if n == 0 {
		return l, nil
	}
	if cap(a.params)-len(a.params) < n {
		a.params = make([]Param, 0, max(n, min(max(2*cap(a.params), 16), arenaParams)))
	}
	i := len(a.params)
	a.params = a.params[:i+n]
	return l, a.params[i : i+n : i+n]
}

// release gives back the last alloc(n), cleared for the next one: the
// fast path declined and the grammar allocates its own result.
func (a *Arena) release(n int) {
	if a == nil {
		return
	}
	a.listens[len(a.listens)-1] = Listen{}
	a.listens = a.listens[:len(a.listens)-1]
	if n > 0 {
		clear(a.params[len(a.params)-n:])
		a.params = a.params[:len(a.params)-n]
	}
}

// parseListenFast handles the shapes that make up nearly every real
// configuration: "port", "IPv4:port", "IPv4", "*:port", "*", "[IPv6]:port"
// and "[IPv6]", followed by flag parameters and the simple name=value ones.
// It never reports errors: anything unusual, invalid or merely rare (port
// ranges, host names, unix sockets, unknown parameters, so_keepalive
// tunables) makes it decline (ok == false), and the caller falls back to the
// grammar, which is the reference for messages as well as results.
func parseListenFast(a *Arena, args []string) (l *Listen, ok bool) {
	if len(args) == 0 {
		return nil, false
	}
	n := len(args) - 1
	l, ps := a.alloc(n)
	if !fastAddr(l, args[0]) {
		a.release(n)
		return nil, false
	}
	for i, s := range args[1:] {
		k, ok := fastParam(l, s)
		if !ok {
			a.release(n)
			return nil, false
		}
		ps[i] = Param{Kind: k, Arg: i + 1, Text: s}
		l.Set |= 1 << k
	}
	l.Params = ps
	return l, true
}

// fastAddr fills in the address fields of l from s, or reports false.
func fastAddr(l *Listen, s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '[' {
		return fastIPv6(l, s)
	}
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		if port, ok := fastPort(s); ok {
			l.Kind = AddrPort
			l.IP = netip.IPv4Unspecified()
			l.Port = port
			l.Key = "0.0.0.0:" + strconv.Itoa(port)
			return true
		}
		return fastHost(l, s, s, 80, true)
	}
	port, ok := fastPort(s[colon+1:])
	if !ok {
		return false
	}
	return fastHost(l, s, s[:colon], port, false)
}

// fastHost handles the "*" and IPv4 hosts; s is the whole address argument,
// reused as the key when it is already canonical.
func fastHost(l *Listen, s, host string, port int, defaulted bool) bool {
	l.Host = host
	l.Port = port
	l.PortDefaulted = defaulted
	if host == "*" {
		l.Kind = AddrWildcard
		l.IP = netip.IPv4Unspecified()
		l.Key = "0.0.0.0:" + strconv.Itoa(port)
		return true
	}
	b, ok := ngxparse.InetAddr(host)
	if !ok {
		return false
	}
	l.Kind = AddrIPv4
	l.IP = netip.AddrFrom4(b)
	if !defaulted && canonicalIPv4(host) && s[len(host)+1] != '0' {
		// "127.0.0.1:80" is its own key: saves an allocation per listen.
		l.Key = s
	} else {
		l.Key = l.IP.String() + ":" + strconv.Itoa(port)
	}
	return true
}

// fastIPv6 handles "[IPv6]" and "[IPv6]:port".
func fastIPv6(l *Listen, s string) bool {
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return false
	}
	port, defaulted := 80, true
	if rest := s[end+1:]; rest != "" {
		if rest[0] != ':' {
			return false
		}
		var ok bool
		if port, ok = fastPort(rest[1:]); !ok {
			return false
		}
		defaulted = false
	}
	b, ok := ngxparse.Inet6Addr(s[1:end])
	if !ok {
		return false
	}
	l.Kind = AddrIPv6
	l.Host = s[1:end]
	l.IP = netip.AddrFrom16(b)
	l.Port = port
	l.PortDefaulted = defaulted
	l.Key = "[" + l.IP.String() + "]:" + strconv.Itoa(port)
	return true
}

// fastPort accepts a plain decimal port 1..65535 (leading zeros allowed, as
// ngx_atoi allows them). Ten digits is far below int overflow, so longer
// input can simply be declined.
func fastPort(s string) (int, bool) {
	if len(s) == 0 || len(s) > 10 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > 65535 {
		return 0, false
	}
	return n, true
}

// canonicalIPv4 reports whether a string ngxInetAddr accepted is already in
// dotted-quad canonical form: no empty octets and no leading zeros.
func canonicalIPv4(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if n := i - start; n == 0 || n > 3 || (n > 1 && s[start] == '0') {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// fastParam recognises one parameter, stores its value in l and returns its
// kind; it declines unknown parameters and invalid values.
func fastParam(l *Listen, s string) (ParamKind, bool) {
	switch s {
	case "default_server", "default":
		return ParamDefaultServer, true
	case "ssl":
		return ParamSSL, true
	case "http2":
		return ParamHTTP2, true
	case "quic":
		return ParamQUIC, true
	case "proxy_protocol":
		return ParamProxyProtocol, true
	case "bind":
		return ParamBind, true
	case "deferred":
		return ParamDeferred, true
	case "reuseport":
		return ParamReuseport, true
	case "multipath":
		return ParamMultipath, true
	case "udp":
		return ParamUDP, true
	case "ipv6only=on":
		l.IPv6Only = true
		return ParamIPv6Only, true
	case "ipv6only=off":
		l.IPv6Only = false
		return ParamIPv6Only, true
	case "so_keepalive=on":
		l.mutOpts().KeepAlive.On = true
		return ParamSoKeepalive, true
	case "so_keepalive=off":
		l.mutOpts().KeepAlive.On = false
		return ParamSoKeepalive, true
	}
	eq := strings.IndexByte(s, '=')
	if eq < 0 {
		return 0, false
	}
	// Every name=value parameter left is a rare one, kept in Opts. Should
	// the argument be declined, the wasted allocation is nothing next to
	// the grammar parse that follows.
	v, o := s[eq+1:], l.mutOpts()
	var ok bool
	switch s[:eq] {
	case "setfib":
		o.Setfib, ok = ngxparse.Atoi(v)
		return ParamSetfib, ok
	case "fastopen":
		o.Fastopen, ok = ngxparse.Atoi(v)
		return ParamFastopen, ok
	case "backlog":
		o.Backlog, ok = ngxparse.Atoi(v)
		return ParamBacklog, ok && o.Backlog != 0
	case "rcvbuf":
		o.RcvBuf, ok = ngxparse.ParseSize(v)
		return ParamRcvbuf, ok
	case "sndbuf":
		o.SndBuf, ok = ngxparse.ParseSize(v)
		return ParamSndbuf, ok
	case "accept_filter":
		// The NUL check keeps the fast path out of the one place where
		// nginx's C strings and Go strings would disagree.
		o.AcceptFilter = v
		return ParamAcceptFilter, strings.IndexByte(v, 0) < 0
	}
	return 0, false
}
