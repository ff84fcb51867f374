package grammar

import (
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The listen argument language is parsed from the arguments joined and
// terminated by NUL ("addr\x00param\x00...\x00"). NUL cannot occur inside
// an argument (ParseListenGrammar refuses it), so it marks argument
// boundaries unambiguously and every production can end at an End token.

// inetRules tokenise an IPv4 / host-name address and a port spec. They are
// kept apart from the IPv6 rules because the same characters mean different
// things there (hex digits, and '/' vs '?' being treated differently).
var inetRules = []lexer.Rule{
	{Name: "Num", Pattern: `[0-9]+`},
	{Name: "Colon", Pattern: `:`},
	{Name: "Dash", Pattern: `-`},
	{Name: "Dot", Pattern: `\.`},
	{Name: "Star", Pattern: `\*`},
	{Name: "Slash", Pattern: `/`},
	{Name: "Query", Pattern: `\?`},
	{Name: "Word", Pattern: `[^0-9:\-.*/?\x00]+`},
}

// pushing returns rules that behave like rs but switch to state. The Root
// state needs this: nginx dispatches on the first bytes ("unix:", "[" or
// anything else) and participle's lexer cannot push a state on an empty
// match, so the first inet token itself performs the switch.
func pushing(rs []lexer.Rule, state string) []lexer.Rule {
	out := make([]lexer.Rule, len(rs))
	for i, r := range rs {
		r.Action = lexer.Push(state)
		out[i] = r
	}
	return out
}

var listenLexer = lexer.MustStateful(lexer.Rules{
	"Root": append([]lexer.Rule{
		{Name: "Unix", Pattern: `(?i)unix:`, Action: lexer.Push("Path")},
		{Name: "LBrack", Pattern: `\[`, Action: lexer.Push("V6")},
		{Name: "End", Pattern: `\x00`, Action: lexer.Push("Param")},
	}, pushing(inetRules, "Inet")...),
	"Inet": append([]lexer.Rule{
		{Name: "End", Pattern: `\x00`, Action: lexer.Push("Param")},
	}, inetRules...),
	"Path": {
		{Name: "End", Pattern: `\x00`, Action: lexer.Push("Param")},
		{Name: "PathText", Pattern: `[^\x00]+`},
	},
	"V6": {
		// After ']' nginx parses ":port" like the inet case.
		{Name: "RBrack", Pattern: `\]`, Action: lexer.Push("Inet")},
		{Name: "End", Pattern: `\x00`, Action: lexer.Push("Param")},
		{Name: "Hex", Pattern: `[0-9A-Fa-f]+`},
		{Name: "Colon", Pattern: `:`},
		{Name: "Dot", Pattern: `\.`},
		{Name: "V6Junk", Pattern: `[^0-9A-Fa-f:.\]\x00]+`},
	},
	"Param": {
		{Name: "End", Pattern: `\x00`},
		{Name: "Eq", Pattern: `=`, Action: lexer.Push("Value")},
		{Name: "Key", Pattern: `[^=\x00]+`},
	},
	"Value": {
		// A value runs to the end of its argument, '=' included, as with
		// nginx's ngx_strncmp(value, "name=", len) prefix tests.
		{Name: "End", Pattern: `\x00`, Action: lexer.Pop()},
		{Name: "Text", Pattern: `[^\x00]+`},
	},
})

// The grammar. Productions are permissive where nginx is: every input
// parses, and the alternatives that nginx rejects (BadHost, Bad, Junk,
// Other) are captured so that the conversion below can word the error as
// nginx does. Alternatives are tried in order with backtracking.

// listenArgs is the whole directive: the address, then one ParamArg per
// parameter argument.
type listenArgs struct {
	Addr *address    `parser:"@@? End"`
	Args []*paramArg `parser:"@@*"`
}

// paramArg is one parameter argument; an empty argument has no Param.
type paramArg struct {
	P   *param `parser:"@@?"`
	End bool   `parser:"@End"`
}

// param is a flag (alone in its argument), a known name=value, or
// anything else (an unknown parameter).
type param struct {
	Flag  string   `parser:"  @('default_server' | 'default' | 'bind' | 'deferred' | 'reuseport' | 'multipath' | 'ssl' | 'http2' | 'quic' | 'proxy_protocol' | 'udp') (?= End)"`
	Key   string   `parser:"| @('setfib' | 'fastopen' | 'backlog' | 'rcvbuf' | 'sndbuf' | 'accept_filter' | 'ipv6only' | 'so_keepalive') Eq"`
	Value string   `parser:"  @Text?"`
	Other []string `parser:"| @(~End)+"`
}

// address is one of the three families ngx_parse_url dispatches to.
type address struct {
	Unix *unixAddr `parser:"  @@"`
	V6   *ipv6Addr `parser:"| @@"`
	Inet *inetAddr `parser:"| @@"`
}

// unixAddr is "unix:" (any case) and a path.
type unixAddr struct {
	Prefix string `parser:"@Unix"`
	Path   string `parser:"@PathText?"`
}

// ipv6Addr is "[", the address, and "]" with an optional tail.
type ipv6Addr struct {
	Body  []string  `parser:"LBrack @(Hex | Colon | Dot | V6Junk)*"`
	Close bool      `parser:"( @RBrack"`
	Tail  *ipv6Tail `parser:"  @@? )?"`
}

// ipv6Tail is what follows "]": a '/' anywhere is a URI (invalid host), then
// either ":" PortSpec or junk (also invalid host). Unlike the inet case '?'
// is not a URI marker here, which is nginx's behaviour.
type ipv6Tail struct {
	BadHost []string  `parser:"  (?= (~(Slash | End))* Slash) @(~End)+"`
	Colon   bool      `parser:"| @Colon"`
	Port    *portSpec `parser:"  @@?"`
	Junk    []string  `parser:"| @(~End)+"`
}

// portSpec is a PortRange, or anything else (an invalid port).
type portSpec struct {
	Range *portRange `parser:"  @@"`
	Bad   []string   `parser:"| @(~End)+"`
}

// portRange is a port or "first-last" filling the rest of the argument.
type portRange struct {
	First string `parser:"@Num"`
	Last  string `parser:"( Dash @Num )? (?= End)"`
}

// inetAddr is, in nginx's order: a URI character anywhere is an invalid host; otherwise the first
// ':' splits host from port; otherwise a number (range) is a bare port;
// otherwise it is a host with the default port.
type inetAddr struct {
	BadHost  []string   `parser:"  (?= (~(Slash | Query | End))* (Slash | Query)) @(~End)+"`
	HostPort *hostPort  `parser:"| @@"`
	PortOnly *portRange `parser:"| @@"`
	Host     *inetHost  `parser:"| @@"`
}

// hostPort is host:port split at the first ':'.
type hostPort struct {
	Host  *inetHost `parser:"@@?"`
	Colon bool      `parser:"@Colon"`
	Port  *portSpec `parser:"@@?"`
}

// inetHost is "*", a dotted quad, or a host name.
type inetHost struct {
	Star bool      `parser:"  @Star (?= Colon | End)"`
	IPv4 *ipv4Addr `parser:"| @@"`
	Name []string  `parser:"| @(Num | Dash | Dot | Star | Word)+"`
}

// ipv4Addr is four possibly empty decimal octets, as ngx_inet_addr
// allows; values over 255 make it a host name in the conversion.
type ipv4Addr struct {
	A string `parser:"@Num? Dot"`
	B string `parser:"@Num? Dot"`
	C string `parser:"@Num? Dot"`
	D string `parser:"@Num? (?= Colon | End)"`
}

// listenParser is built on first use so that programs that never take the
// slow path do not pay for building it.
var listenParser = sync.OnceValue(func() *participle.Parser[listenArgs] {
	return participle.MustBuild[listenArgs](
		participle.Lexer(listenLexer),
		// Inputs are one short directive, so unbounded backtracking is
		// cheap and keeps the grammar free of hand-computed lookahead.
		participle.UseLookahead(-1),
	)
})

// ListenGrammarEBNF returns the listen grammar of record in EBNF, for
// documentation.
func ListenGrammarEBNF() string { return listenParser().String() }

// flagKinds maps the flag parameters to their kinds.
var flagKinds = map[string]ParamKind{
	"default_server": ParamDefaultServer, "default": ParamDefaultServer,
	"bind": ParamBind, "deferred": ParamDeferred, "reuseport": ParamReuseport,
	"multipath": ParamMultipath, "ssl": ParamSSL, "http2": ParamHTTP2,
	"quic": ParamQUIC, "proxy_protocol": ParamProxyProtocol, "udp": ParamUDP,
}

// sunPathLen is sizeof(sockaddr_un.sun_path) on Linux, the limit nginx
// applies (including the terminating NUL) to UNIX-domain socket paths.
const sunPathLen = 108

// ParseListenGrammar parses listen arguments with the participle grammar
// alone. It is the reference implementation that ParseListen's fast path is
// checked against, exported so tests and fuzzers outside the package can
// compare the two. It is over a hundred times slower than ParseListen;
// use ParseListen.
func ParseListenGrammar(args []string) (*Listen, error) {
	if len(args) == 0 {
		return nil, &Error{Arg: -1, Msg: `invalid number of arguments in "listen" directive`}
	}
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			// nginx would compare parameters only up to the NUL; a NUL in a
			// configuration is always a mistake, so refuse it outright.
			return nil, newError(i, "unexpected NUL byte in ", a, "")
		}
	}
	src := strings.Join(args, "\x00") + "\x00"
	ast, err := listenParser().ParseString("", src)
	if err != nil || len(ast.Args) != len(args)-1 {
		// Unreachable: every alternative has a catch-all. Kept as an error
		// rather than a panic so a grammar bug cannot crash the linter.
		return nil, grammarBug(src, err)
	}
	l := &Listen{}
	if e := convAddr(l, args[0], ast.Addr); e != nil {
		return nil, e
	}
	if e := convParams(l, args, ast.Args); e != nil {
		return nil, e
	}
	return l, nil
}

// grammarBug turns an unexpected participle failure into an *Error that
// points at the argument the parser stopped in.
func grammarBug(src string, err error) *Error {
	arg, msg := -1, "listen grammar: parse tree does not match the arguments"
	if err != nil {
		msg = "listen grammar: " + err.Error()
		if pe, ok := err.(participle.Error); ok {
			if off := pe.Position().Offset; off >= 0 && off <= len(src) {
				arg = strings.Count(src[:off], "\x00")
			}
		}
	}
	return &Error{Arg: arg, Msg: msg}
}

// convAddr fills in the address fields from the parse tree of s.
func convAddr(l *Listen, s string, a *address) *Error {
	switch {
	case a == nil:
		return addrError("no host", s)
	case a.Unix != nil:
		path := a.Unix.Path
		if path == "" {
			return addrError("no path in the unix domain socket", s)
		}
		if len(path)+1 > sunPathLen {
			return addrError("too long path in the unix domain socket", s)
		}
		l.Kind, l.Host, l.Key = AddrUnix, path, "unix:"+path
		return nil
	case a.V6 != nil:
		return convV6(l, s, a.V6)
	default:
		return convInet(l, s, a.Inet)
	}
}

// addrError words an ngx_parse_url failure the way ngx_http_core_listen
// reports it.
func addrError(what, addr string) *Error {
	return newError(0, what+" in ", addr, "")
}

// convV6 follows ngx_parse_inet6_url's order of checks: closing bracket,
// URI, port, empty address, address syntax.
func convV6(l *Listen, s string, v *ipv6Addr) *Error {
	if !v.Close {
		return addrError("invalid host", s)
	}
	port, last, defaulted := 80, 0, true
	if t := v.Tail; t != nil {
		if !t.Colon {
			return addrError("invalid host", s)
		}
		var msg string
		if port, last, msg = convPortSpec(t.Port); msg != "" {
			return addrError(msg, s)
		}
		defaulted = false
	}
	body := strings.Join(v.Body, "")
	if body == "" {
		return addrError("no host", s)
	}
	b, ok := refInet6(body)
	if !ok {
		return addrError("invalid IPv6 address", s)
	}
	l.Kind, l.Host, l.IP = AddrIPv6, body, netip.AddrFrom16(b)
	l.Port, l.LastPort, l.PortDefaulted = port, last, defaulted
	l.Key = "[" + l.IP.String() + "]:" + portKey(port, last)
	return nil
}

// convPortSpec checks an explicit port (after ':'), where anything but
// 1..65535 (or a range of such) is "invalid port".
func convPortSpec(p *portSpec) (first, last int, msg string) {
	if p == nil || p.Range == nil {
		return 0, 0, "invalid port"
	}
	if p.Range.Last != "" {
		n, ok := refAtoi(p.Range.Last)
		if !ok || n < 1 || n > 65535 {
			return 0, 0, "invalid port"
		}
		last = n
	}
	n, ok := refAtoi(p.Range.First)
	if !ok || n < 1 || n > 65535 {
		return 0, 0, "invalid port"
	}
	if last != 0 && n > last {
		return 0, 0, "invalid port range"
	}
	return n, last, ""
}

// convInet follows ngx_parse_inet_url for listen addresses.
func convInet(l *Listen, s string, in *inetAddr) *Error {
	switch {
	case in.BadHost != nil:
		return addrError("invalid host", s)
	case in.HostPort != nil:
		first, last, msg := convPortSpec(in.HostPort.Port)
		if msg != "" {
			return addrError(msg, s)
		}
		if in.HostPort.Host == nil {
			return addrError("no host", s)
		}
		setInetHost(l, in.HostPort.Host, first, last, false)
		return nil
	case in.PortOnly != nil:
		return convPortOnly(l, s, in.PortOnly)
	default:
		setInetHost(l, in.Host, 80, 0, true)
		return nil
	}
}

// convPortOnly is nginx's "test value as port only" step. A number too big
// for ngx_atoi is not an error there: the text silently becomes a host name
// for the resolver, and so it does here.
func convPortOnly(l *Listen, s string, r *portRange) *Error {
	text := r.First
	pending, last := "", 0
	if r.Last != "" {
		text += "-" + r.Last
		n, ok := refAtoi(r.Last)
		if !ok {
			setName(l, text, 80, 0, true)
			return nil
		}
		if n < 1 || n > 65535 {
			pending = "invalid port"
		} else {
			last = n
		}
	}
	n, ok := refAtoi(r.First)
	switch {
	case !ok:
		setName(l, text, 80, 0, true)
		return nil
	case pending != "":
		return addrError(pending, s)
	case n < 1 || n > 65535:
		return addrError("invalid port", s)
	case last != 0 && n > last:
		return addrError("invalid port range", s)
	}
	l.Kind, l.IP, l.Port, l.LastPort = AddrPort, netip.IPv4Unspecified(), n, last
	l.Key = "0.0.0.0:" + portKey(n, last)
	return nil
}

// setInetHost fills in a "*", IPv4 or host-name address.
func setInetHost(l *Listen, h *inetHost, port, last int, defaulted bool) {
	switch {
	case h.Star:
		l.Kind, l.Host, l.IP = AddrWildcard, "*", netip.IPv4Unspecified()
		l.Port, l.LastPort, l.PortDefaulted = port, last, defaulted
		l.Key = "0.0.0.0:" + portKey(port, last)
	case h.IPv4 != nil:
		q := h.IPv4
		text := q.A + "." + q.B + "." + q.C + "." + q.D
		b, ok := refIPv4([4]string{q.A, q.B, q.C, q.D})
		if !ok {
			setName(l, text, port, last, defaulted)
			return
		}
		l.Kind, l.Host, l.IP = AddrIPv4, text, netip.AddrFrom4(b)
		l.Port, l.LastPort, l.PortDefaulted = port, last, defaulted
		l.Key = l.IP.String() + ":" + portKey(port, last)
	default:
		setName(l, strings.Join(h.Name, ""), port, last, defaulted)
	}
}

// setName fills in an address nginx would resolve. Host names are
// case-insensitive, so the key is lower-cased.
func setName(l *Listen, name string, port, last int, defaulted bool) {
	l.Kind, l.Host = AddrHost, name
	l.Port, l.LastPort, l.PortDefaulted = port, last, defaulted
	l.Key = strings.ToLower(name) + ":" + portKey(port, last)
}

// portKey formats a port or port range for Listen.Key.
func portKey(port, last int) string {
	if last == 0 {
		return strconv.Itoa(port)
	}
	return strconv.Itoa(port) + "-" + strconv.Itoa(last)
}

// convParams converts the parameter arguments, stopping at the first bad
// value as nginx does.
func convParams(l *Listen, args []string, gargs []*paramArg) *Error {
	if len(gargs) == 0 {
		return nil
	}
	l.Params = make([]Param, len(gargs))
	for i, ga := range gargs {
		arg := i + 1
		k, e := convParam(l, arg, args[arg], ga.P)
		if e != nil {
			return e
		}
		p := Param{Kind: k, Arg: arg, Text: args[arg]}
		l.Params[i] = p
		l.Set |= 1 << k
		if k == ParamUnknown {
			o := l.mutOpts()
			o.Unknown = append(o.Unknown, p)
		}
	}
	return nil
}

// convParam converts one parameter, storing its value in l.
func convParam(l *Listen, arg int, text string, p *param) (ParamKind, *Error) {
	if p == nil || p.Other != nil {
		return ParamUnknown, nil
	}
	if p.Flag != "" {
		return flagKinds[p.Flag], nil
	}
	v := p.Value
	if p.Key == "ipv6only" {
		// nginx tests the prefix "ipv6only=o"; "ipv6only=yes" is therefore
		// an unknown parameter, while "ipv6only=ox" has bad flags.
		switch {
		case !strings.HasPrefix(v, "o"):
			return ParamUnknown, nil
		case v == "on":
			l.IPv6Only = true
		case v == "off":
			l.IPv6Only = false
		default:
			return 0, newError(arg, "invalid ipv6only flags ", v, "")
		}
		return ParamIPv6Only, nil
	}
	o := l.mutOpts()
	var ok bool
	switch p.Key {
	case "setfib":
		if o.Setfib, ok = refAtoi(v); !ok {
			return 0, newError(arg, "invalid setfib ", text, "")
		}
		return ParamSetfib, nil
	case "fastopen":
		if o.Fastopen, ok = refAtoi(v); !ok {
			return 0, newError(arg, "invalid fastopen ", text, "")
		}
		return ParamFastopen, nil
	case "backlog":
		if o.Backlog, ok = refAtoi(v); !ok || o.Backlog == 0 {
			return 0, newError(arg, "invalid backlog ", text, "")
		}
		return ParamBacklog, nil
	case "rcvbuf":
		if o.RcvBuf, ok = refParseSize(v); !ok {
			return 0, newError(arg, "invalid rcvbuf ", text, "")
		}
		return ParamRcvbuf, nil
	case "sndbuf":
		if o.SndBuf, ok = refParseSize(v); !ok {
			return 0, newError(arg, "invalid sndbuf ", text, "")
		}
		return ParamSndbuf, nil
	case "accept_filter":
		o.AcceptFilter = v
		return ParamAcceptFilter, nil
	default: // "so_keepalive"
		if !convKeepAlive(&o.KeepAlive, v) {
			return 0, newError(arg, "invalid so_keepalive value: ", v, "")
		}
		return ParamSoKeepalive, nil
	}
}

// convKeepAlive parses so_keepalive=on|off|[keepidle]:[keepintvl]:[keepcnt]
// on top of the values already in *ka, as nginx does.
func convKeepAlive(ka *KeepAlive, v string) bool {
	switch v {
	case "on":
		ka.On = true
		return true
	case "off":
		ka.On = false
		return true
	}
	k := *ka
	parts := strings.SplitN(v, ":", 3)
	var ok bool
	if parts[0] != "" {
		if k.Idle, ok = ngxparse.ParseTime(parts[0], true); !ok {
			return false
		}
	}
	if len(parts) > 1 && parts[1] != "" {
		if k.Interval, ok = ngxparse.ParseTime(parts[1], true); !ok {
			return false
		}
	}
	if len(parts) > 2 && parts[2] != "" {
		if k.Count, ok = refAtoi(parts[2]); !ok {
			return false
		}
	}
	if k.Idle == 0 && k.Interval == 0 && k.Count == 0 {
		return false
	}
	k.On = true
	*ka = k
	return true
}

// The helpers below re-implement nginx's number and address syntax
// independently of the fast path's loops (listen_fast.go), so that the
// differential fuzz test compares two implementations rather than one.

// refAtoi is ngx_atoi via strconv: digits only, no sign, no overflow.
func refAtoi(s string) (int, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	return int(n), err == nil
}

// refParseSize is ngx_parse_size.
func refParseSize(s string) (int, bool) {
	// Only the ASCII suffix letters count: strings.ToLower would also fold
	// the Kelvin sign U+212A into 'k'.
	scale := 1
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		s, scale = s[:len(s)-1], 1<<10
	case strings.HasSuffix(s, "m"), strings.HasSuffix(s, "M"):
		s, scale = s[:len(s)-1], 1<<20
	}
	n, ok := refAtoi(s)
	if !ok || n > math.MaxInt/scale {
		return 0, false
	}
	return n * scale, true
}

// refIPv4 checks four decimal octets as ngx_inet_addr does: empty means
// 0, leading zeros are fine, and 255.255.255.255 (INADDR_NONE) is refused.
func refIPv4(parts [4]string) (b [4]byte, ok bool) {
	for i, p := range parts {
		if p == "" {
			continue
		}
		n, err := strconv.ParseUint(p, 10, 8)
		if err != nil {
			return b, false
		}
		b[i] = byte(n)
	}
	return b, b != [4]byte{255, 255, 255, 255}
}

// refIPv4Text is refIPv4 on dotted text.
func refIPv4Text(s string) ([4]byte, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return [4]byte{}, false
	}
	return refIPv4([4]string(parts))
}

// refInet6 accepts the language of ngx_inet6_addr, written as a check on
// ':'-separated fields instead of nginx's character state machine:
//
//   - one leading ':' is dropped;
//   - every field ended by ':' is either empty (the single "::" gap) or 1-4
//     hex digits, and at most 7 of them are groups;
//   - the last field is 1-4 hex digits, or empty if there was a gap (it then
//     counts as a zero group), or a dotted quad (two groups) if at most six
//     groups came before it;
//   - with a gap there are at most 7 groups, without one exactly 8.
func refInet6(s string) (out [16]byte, ok bool) {
	s = strings.TrimPrefix(s, ":")
	var words [8]uint16
	nw, gap := 0, -1
	fields := strings.Split(s, ":")
	lastField := fields[len(fields)-1]
	var v4 [4]byte
	hasV4 := false
	if d := strings.IndexByte(lastField, '.'); d >= 0 {
		// The dotted quad's first octet was read as hex nibbles first.
		if d == 0 || d > 4 {
			return out, false
		}
		if len(fields) < 2 {
			return out, false
		}
		if v4, ok = refIPv4Text(lastField); !ok {
			return out, false
		}
		hasV4 = true
	}
	if strings.Contains(strings.Join(fields[:len(fields)-1], ""), ".") {
		// A '.' before the last ':' means nginx's dotted-quad parse ran into
		// that ':'.
		return out, false
	}
	for _, f := range fields[:len(fields)-1] {
		if f == "" {
			if gap >= 0 {
				return out, false
			}
			gap = nw
			continue
		}
		w, ok := hexWord(f)
		if !ok || nw == 7 {
			return out, false
		}
		words[nw] = w
		nw++
	}
	switch {
	case hasV4:
		if nw > 6 {
			return out, false
		}
		words[nw] = uint16(v4[0])<<8 | uint16(v4[1])
		words[nw+1] = uint16(v4[2])<<8 | uint16(v4[3])
		nw += 2
	case lastField == "":
		if gap < 0 {
			return out, false
		}
		nw++ // words[nw] is already 0
	default:
		w, ok := hexWord(lastField)
		if !ok {
			return out, false
		}
		words[nw] = w
		nw++
	}
	if (gap >= 0 && nw >= 8) || (gap < 0 && nw != 8) {
		return out, false
	}
	if gap < 0 {
		gap = nw
	}
	fill := 8 - nw
	for i := 0; i < nw; i++ {
		j := i
		if i >= gap {
			j += fill
		}
		out[2*j], out[2*j+1] = byte(words[i]>>8), byte(words[i])
	}
	return out, true
}

// hexWord parses one IPv6 group of 1-4 hex digits.
func hexWord(f string) (uint16, bool) {
	if len(f) > 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(f, 16, 16)
	return uint16(n), err == nil
}
