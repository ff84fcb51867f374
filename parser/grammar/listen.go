package grammar

import (
	"net/netip"
	"strings"
)

// AddrKind says which form the address (first argument) of a listen
// directive takes. The zero value is not a valid kind, so a zero Listen is
// recognisably unset.
type AddrKind uint8

const (
	// AddrPort is a bare port such as "80" or a port range "8000-8010";
	// nginx listens on INADDR_ANY (0.0.0.0).
	AddrPort AddrKind = iota + 1
	// AddrWildcard is "*" or "*:80"; also INADDR_ANY.
	AddrWildcard
	// AddrIPv4 is a literal IPv4 address, "127.0.0.1:80" or "127.0.0.1".
	AddrIPv4
	// AddrIPv6 is a bracketed IPv6 literal, "[::1]:80" or "[::]".
	AddrIPv6
	// AddrHost is anything nginx would hand to the resolver, such as
	// "localhost:8080". It may resolve to several addresses.
	AddrHost
	// AddrUnix is a UNIX-domain socket, "unix:/run/nginx.sock".
	AddrUnix
)

var addrKindNames = [...]string{"", "port", "wildcard", "ipv4", "ipv6", "host", "unix"}

// String returns a short lower-case name such as "ipv4", for messages.
func (k AddrKind) String() string {
	if int(k) < len(addrKindNames) && k != 0 {
		return addrKindNames[k]
	}
	return "invalid"
}

// ParamKind identifies one listen parameter. ParamUnknown marks an argument
// nginx rejects with `invalid parameter "X"`.
type ParamKind uint8

// The listen parameters nginx knows in any of the http, stream and mail
// modules. Which ones a given context accepts is decided by Listen.Check.
const (
	ParamUnknown       ParamKind = iota // not a listen parameter at all
	ParamDefaultServer                  // default_server, or its old name default
	ParamBind                           // bind
	ParamSetfib                         // setfib=N
	ParamFastopen                       // fastopen=N
	ParamBacklog                        // backlog=N
	ParamRcvbuf                         // rcvbuf=SIZE
	ParamSndbuf                         // sndbuf=SIZE
	ParamAcceptFilter                   // accept_filter=NAME
	ParamDeferred                       // deferred
	ParamIPv6Only                       // ipv6only=on|off
	ParamReuseport                      // reuseport
	ParamMultipath                      // multipath
	ParamSSL                            // ssl
	ParamHTTP2                          // http2
	ParamQUIC                           // quic
	ParamSoKeepalive                    // so_keepalive=on|off|[idle]:[intvl]:[cnt]
	ParamProxyProtocol                  // proxy_protocol
	ParamUDP                            // udp (stream only)
	numParamKinds
)

var paramNames = [numParamKinds]string{
	"unknown", "default_server", "bind", "setfib", "fastopen", "backlog",
	"rcvbuf", "sndbuf", "accept_filter", "deferred", "ipv6only", "reuseport",
	"multipath", "ssl", "http2", "quic", "so_keepalive", "proxy_protocol", "udp",
}

// String returns the parameter's name as written in nginx.conf (without
// "=value"), which is also how nginx names it in its messages.
func (k ParamKind) String() string {
	if k < numParamKinds {
		return paramNames[k]
	}
	return "invalid"
}

// ParamSet is a bit set of ParamKind. A set is cheaper to test and to
// compare than a list when a rule only asks "is ssl present?".
type ParamSet uint32

// Has reports whether k is in the set.
func (s ParamSet) Has(k ParamKind) bool { return s&(1<<k) != 0 }

// ownSocketParams are the parameters for which nginx sets lsopt.bind in
// ngx_http_core_listen (and its stream/mail twins): a listen using any of
// them gets its own socket instead of sharing the wildcard one.
const ownSocketParams = 1<<ParamBind | 1<<ParamBacklog | 1<<ParamRcvbuf |
	1<<ParamSndbuf | 1<<ParamAcceptFilter | 1<<ParamDeferred |
	1<<ParamIPv6Only | 1<<ParamSetfib | 1<<ParamSoKeepalive |
	1<<ParamFastopen | 1<<ParamReuseport | 1<<ParamMultipath

// Param is one parameter argument (args[1:]) of a listen directive.
type Param struct {
	// Kind is what the argument is; ParamUnknown for anything nginx rejects
	// as `invalid parameter`.
	Kind ParamKind
	// Arg is the index of the argument in the slice given to ParseListen.
	Arg int
	// Text is the argument exactly as given, e.g. "backlog=511" or "default".
	Text string
}

// Value returns the text after the first '=' ("511" for "backlog=511"), or
// "" for flag parameters.
func (p Param) Value() string {
	if i := strings.IndexByte(p.Text, '='); i >= 0 {
		return p.Text[i+1:]
	}
	return ""
}

// KeepAlive is the so_keepalive parameter. nginx keeps the three tunables in
// separate fields that a later so_keepalive=on or =off does not reset, and
// this type mirrors that.
type KeepAlive struct {
	// On is true for so_keepalive=on or any tunable form, false for =off.
	On bool
	// Idle is TCP_KEEPIDLE in seconds, 0 when not given.
	Idle int
	// Interval is TCP_KEEPINTVL in seconds, 0 when not given.
	Interval int
	// Count is TCP_KEEPCNT, 0 when not given.
	Count int
}

// Listen is the typed form of one listen directive's arguments. A *Listen
// returned by this package (and especially one shared through the
// model's memo of argument lists) must be treated as immutable: its strings, slices and Opts may be shared.
//
// One Listen is allocated per distinct directive, so its size matters:
// the values of rarely used parameters live behind Opts, and the fields
// are ordered pointers first (the garbage collector scans an object only
// up to its last pointer) with the small ones packed into the last word.
type Listen struct {
	// Host is the address without the port, as written: "" for AddrPort, "*"
	// for AddrWildcard, "127.0.0.1", "::1" (no brackets), "localhost", or the
	// socket path (without "unix:") for AddrUnix.
	Host string
	// Key is the canonical socket address used to group listens: family,
	// normalised address and port, e.g. "0.0.0.0:80" (for "80", "*:80" and
	// "0.0.0.0:80" alike), "[::]:80", "127.0.0.1:8080", "0.0.0.0:8000-8010",
	// "localhost:8080" (host names lower-cased, not resolved), "unix:/x".
	Key string
	// Params lists every parameter argument in order, unknown ones included.
	// It is nil when there are none.
	Params []Param
	// Opts holds the values of the rare parameters (see ListenOpts). It is
	// non-nil exactly when at least one of them, or an unknown parameter,
	// was given. The accessor methods (Backlog, KeepAlive, ...) spare
	// callers the nil check.
	Opts *ListenOpts
	// IP is the parsed address for AddrPort and AddrWildcard (0.0.0.0),
	// AddrIPv4 and AddrIPv6, and the zero netip.Addr otherwise.
	IP netip.Addr
	// Port is the port, or the first port of a range; 0 for AddrUnix.
	Port int
	// LastPort is the end of a port range such as "8000-8010", 0 otherwise.
	LastPort int
	// Set records which kinds appear in Params (ParamUnknown included).
	Set ParamSet
	// Kind is the form of the address argument.
	Kind AddrKind
	// PortDefaulted is true when no port was written and nginx's http
	// default of 80 was used. The stream and mail modules have no default
	// port, so there the address is incomplete.
	PortDefaulted bool
	// IPv6Only is the value of ipv6only=, valid when Set.Has(ParamIPv6Only);
	// nginx's default when absent is on.
	IPv6Only bool
}

// ListenOpts holds the values of the listen parameters that few
// configurations use, so that a Listen without them does not pay for the
// space. Each value is valid only when the matching parameter is in
// Listen.Set; when a parameter repeats, the last value wins, as in nginx.
type ListenOpts struct {
	// Unknown lists the parameters that are no listen parameter in any
	// context (nil when there are none); Check reports them.
	Unknown []Param
	// AcceptFilter is the accept_filter= name (ParamAcceptFilter).
	AcceptFilter string
	// Setfib is the value of setfib= (ParamSetfib).
	Setfib int
	// Fastopen is the value of fastopen= (ParamFastopen).
	Fastopen int
	// Backlog is the value of backlog= (ParamBacklog).
	Backlog int
	// RcvBuf is rcvbuf= in bytes (ParamRcvbuf).
	RcvBuf int
	// SndBuf is sndbuf= in bytes (ParamSndbuf).
	SndBuf int
	// KeepAlive is so_keepalive= (ParamSoKeepalive).
	KeepAlive KeepAlive
}

// optParams are the parameter kinds whose presence makes Listen.Opts
// non-nil; both parsers must agree on it for their results to compare
// equal.
const optParams = 1<<ParamUnknown | 1<<ParamSetfib | 1<<ParamFastopen |
	1<<ParamBacklog | 1<<ParamRcvbuf | 1<<ParamSndbuf |
	1<<ParamAcceptFilter | 1<<ParamSoKeepalive

// noOpts stands in for a nil Listen.Opts in the accessors.
var noOpts ListenOpts

// opts returns l.Opts, or a zero ListenOpts when there is none; the result
// must not be modified.
func (l *Listen) opts() *ListenOpts {
	if l.Opts != nil {
		return l.Opts
	}
	return &noOpts
}

// mutOpts returns l.Opts, allocating it first if needed. Only the parsers
// call it, while the Listen is still private to them.
func (l *Listen) mutOpts() *ListenOpts {
	if l.Opts == nil {
		l.Opts = new(ListenOpts)
	}
	return l.Opts
}

// Unknown returns the parameters that are no listen parameter in any
// context, in argument order, or nil when there are none; Check reports
// them. The slice is shared and must not be modified.
func (l *Listen) Unknown() []Param { return l.opts().Unknown }

// Setfib returns the value of setfib=, valid when l.Has(ParamSetfib).
func (l *Listen) Setfib() int { return l.opts().Setfib }

// Fastopen returns the value of fastopen=, valid when l.Has(ParamFastopen).
func (l *Listen) Fastopen() int { return l.opts().Fastopen }

// Backlog returns the value of backlog=, valid when l.Has(ParamBacklog).
func (l *Listen) Backlog() int { return l.opts().Backlog }

// RcvBuf returns rcvbuf= in bytes, valid when l.Has(ParamRcvbuf).
func (l *Listen) RcvBuf() int { return l.opts().RcvBuf }

// SndBuf returns sndbuf= in bytes, valid when l.Has(ParamSndbuf).
func (l *Listen) SndBuf() int { return l.opts().SndBuf }

// AcceptFilter returns the accept_filter= name, valid when
// l.Has(ParamAcceptFilter).
func (l *Listen) AcceptFilter() string { return l.opts().AcceptFilter }

// KeepAlive returns so_keepalive=, valid when l.Has(ParamSoKeepalive).
func (l *Listen) KeepAlive() KeepAlive { return l.opts().KeepAlive }

// Has reports whether parameter k was given. It is shorthand for
// l.Set.Has(k).
func (l *Listen) Has(k ParamKind) bool { return l.Set.Has(k) }

// ForcesOwnSocket reports whether nginx gives this listen a socket of its
// own (it sets "bind" implicitly): true when any of bind, backlog, rcvbuf,
// sndbuf, accept_filter, deferred, ipv6only, setfib, so_keepalive, fastopen,
// reuseport or multipath is present. Such socket options may only appear
// once per address:port, which is what linters check with it.
func (l *Listen) ForcesOwnSocket() bool { return l.Set&ownSocketParams != 0 }

// Wildcard reports whether the listen is on the unspecified address
// (0.0.0.0 or [::]); nginx lets specific-address listens on the same port
// share such a socket unless they force their own.
func (l *Listen) Wildcard() bool {
	switch l.Kind {
	case AddrPort, AddrWildcard:
		return true
	case AddrIPv4, AddrIPv6:
		return l.IP.IsUnspecified()
	}
	return false
}

// Context is the configuration block a listen directive appears in; the
// accepted parameters differ between them.
type Context uint8

const (
	// ContextHTTP is http { server { listen ...; } }.
	ContextHTTP Context = iota + 1
	// ContextStream is stream { server { listen ...; } }.
	ContextStream
	// ContextMail is mail { server { listen ...; } }.
	ContextMail
)

// Parameters each context accepts, copied from the if-chains of
// ngx_http_core_listen, ngx_stream_core_listen and ngx_mail_core_listen.
const (
	httpParams = 1<<ParamDefaultServer | 1<<ParamBind | 1<<ParamSetfib |
		1<<ParamFastopen | 1<<ParamBacklog | 1<<ParamRcvbuf | 1<<ParamSndbuf |
		1<<ParamAcceptFilter | 1<<ParamDeferred | 1<<ParamIPv6Only |
		1<<ParamReuseport | 1<<ParamMultipath | 1<<ParamSSL | 1<<ParamHTTP2 |
		1<<ParamQUIC | 1<<ParamSoKeepalive | 1<<ParamProxyProtocol
	streamParams = httpParams&^(1<<ParamHTTP2|1<<ParamQUIC) | 1<<ParamUDP
	mailParams   = 1<<ParamBind | 1<<ParamBacklog | 1<<ParamRcvbuf |
		1<<ParamSndbuf | 1<<ParamIPv6Only | 1<<ParamMultipath | 1<<ParamSSL |
		1<<ParamSoKeepalive | 1<<ParamProxyProtocol
)

// datagramConflicts lists, in nginx's order, the parameters that cannot be
// combined with quic (http) or udp (stream).
var datagramConflicts = [...]ParamKind{
	ParamFastopen, ParamBacklog, ParamAcceptFilter, ParamDeferred,
	ParamMultipath, ParamSSL, ParamHTTP2, ParamSoKeepalive, ParamProxyProtocol,
}

// Check returns what nginx would reject in this listen when it appears in
// ctx: parameters that context does not know (`invalid parameter "udp"`,
// including the old "default" outside http) and parameters that conflict
// with quic or udp (`"ssl" parameter is incompatible with "quic"`). nginx
// stops at the first problem; Check reports all of them: the invalid
// parameters in argument order, then the conflicts in nginx's order, each
// pointing at the (last) offending argument. It returns nil when there is
// nothing to report.
//
// Platform-specific refusals (setfib outside FreeBSD, accept_filter outside
// FreeBSD, ...) are not reported: the linter cannot know the target system.
func (l *Listen) Check(ctx Context) []*Error {
	var allowed ParamSet
	switch ctx {
	case ContextHTTP:
		allowed = httpParams
	case ContextStream:
		allowed = streamParams
	case ContextMail:
		allowed = mailParams
	}
	var errs []*Error
	for _, p := range l.Params {
		ok := allowed.Has(p.Kind)
		if p.Kind == ParamDefaultServer && p.Text == "default" && ctx != ContextHTTP {
			// Only http still accepts the pre-0.8.21 spelling.
			ok = false
		}
		if !ok {
			errs = append(errs, newError(p.Arg, "invalid parameter ", p.Text, ""))
		}
	}
	var with ParamKind
	switch {
	case ctx == ContextHTTP && l.Has(ParamQUIC):
		with = ParamQUIC
	case ctx == ContextStream && l.Has(ParamUDP):
		with = ParamUDP
	}
	if with != 0 {
		for _, k := range datagramConflicts {
			if l.Has(k) && allowed.Has(k) {
				errs = append(errs, newError(l.lastArg(k), "", k.String(),
					` parameter is incompatible with "`+with.String()+`"`))
			}
		}
	}
	return errs
}

// lastArg returns the argument index of the last parameter of kind k, the
// one whose value nginx keeps.
func (l *Listen) lastArg(k ParamKind) int {
	for i := len(l.Params) - 1; i >= 0; i-- {
		if l.Params[i].Kind == k {
			return l.Params[i].Arg
		}
	}
	return -1
}

// ParseListen parses the arguments of one listen directive (args[0] is the
// address, quotes already removed) for any of the http, stream and mail
// contexts. It accepts the union of their parameters; use Check for the
// context-specific rules.
//
// It returns an *Error, and no Listen, when nginx could not even interpret
// the arguments: a bad address (`invalid port in "127.0.0.1:99999"`,
// `no host in ":80"`, `invalid IPv6 address in "[fe80::1%eth0]"`, ...) or a
// bad value of a known parameter (`invalid backlog "backlog=0"`,
// `invalid ipv6only flags "ox"`, `invalid so_keepalive value: "x"`, ...).
// Unknown parameters are not an error here: they are listed by
// Listen.Unknown so that the rest of the directive stays usable, and Check reports them.
//
// Common shapes are handled by a hand-written fast path; everything else,
// including every error, goes through ParseListenGrammar, the reference
// grammar. Both produce identical results (see FuzzListenFastPath).
func ParseListen(args []string) (*Listen, error) {
	return ParseListenIn(nil, args)
}

// ParseListenIn is ParseListen taking the result's memory from a (which
// may be nil).
func ParseListenIn(a *Arena, args []string) (*Listen, error) {
	if l, ok := parseListenFast(a, args); ok {
		return l, nil
	}
	return ParseListenGrammar(args)
}

// paramSince records the listen parameters that appeared in a context
// after nginx 1.18, with the release that added them there, read from the
// if-chains of ngx_http_core_listen, ngx_stream_core_listen and
// ngx_mail_core_listen across nginx's release tags.
var paramSince = [...]struct {
	ctx   Context
	kind  ParamKind
	since string
}{
	{ContextHTTP, ParamQUIC, "1.25.0"},
	{ContextHTTP, ParamMultipath, "1.29.7"},
	{ContextStream, ParamFastopen, "1.21.0"},
	{ContextStream, ParamDefaultServer, "1.25.5"},
	{ContextStream, ParamSetfib, "1.25.5"},
	{ContextStream, ParamAcceptFilter, "1.25.5"},
	{ContextStream, ParamDeferred, "1.25.5"},
	{ContextStream, ParamMultipath, "1.29.7"},
	{ContextMail, ParamProxyProtocol, "1.19.8"},
	{ContextMail, ParamMultipath, "1.29.7"},
}

// ParamSince returns the nginx release that added parameter k to the
// listen directive of ctx, or "" when k is older than nginx 1.18 there
// (or not a parameter of ctx at all: Check says so).
func ParamSince(ctx Context, k ParamKind) string {
	for _, p := range paramSince {
		if p.ctx == ctx && p.kind == k {
			return p.since
		}
	}
	return ""
}

// valueKinds maps the name=value parameters to their kinds.
var valueKinds = map[string]ParamKind{
	"setfib": ParamSetfib, "fastopen": ParamFastopen, "backlog": ParamBacklog,
	"rcvbuf": ParamRcvbuf, "sndbuf": ParamSndbuf, "accept_filter": ParamAcceptFilter,
	"so_keepalive": ParamSoKeepalive,
}

// KindOf returns the kind of a listen parameter argument by its name, as
// nginx's prefix tests see it ("backlog=x" is ParamBacklog whatever its
// value), or ParamUnknown. It lets a caller tell, when ParseListen fails
// on a value, whether the context knows the parameter at all.
func KindOf(text string) ParamKind {
	if k, ok := flagKinds[text]; ok {
		return k
	}
	if strings.HasPrefix(text, "ipv6only=o") {
		return ParamIPv6Only
	}
	if name, _, ok := strings.Cut(text, "="); ok {
		return valueKinds[name]
	}
	return ParamUnknown
}

// Accepts reports whether the listen directive of ctx knows parameter k
// (in the newest nginx; see ParamSince).
func (ctx Context) Accepts(k ParamKind) bool {
	switch ctx {
	case ContextHTTP:
		return ParamSet(httpParams).Has(k)
	case ContextStream:
		return ParamSet(streamParams).Has(k)
	case ContextMail:
		return ParamSet(mailParams).Has(k)
	}
	return false
}
