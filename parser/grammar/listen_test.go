package grammar

import (
	"errors"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"net/netip"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// cmpOpts lets go-cmp compare netip.Addr, whose fields are unexported.
var cmpOpts = cmp.Options{cmp.Comparer(func(a, b netip.Addr) bool { return a == b })}

var any4 = netip.IPv4Unspecified()

func ip(s string) netip.Addr { return netip.MustParseAddr(s) }

func prm(k ParamKind, arg int, text string) Param { return Param{Kind: k, Arg: arg, Text: text} }

func set(ks ...ParamKind) ParamSet {
	var s ParamSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// portOnly, wildcard, ipv4, ... build the expected address part of a Listen.
func portOnly(port int) *Listen {
	return &Listen{Kind: AddrPort, IP: any4, Port: port, Key: "0.0.0.0:" + itoa(port)}
}

func itoa(n int) string { return portKey(n, 0) }

type listenCase struct {
	name string
	args []string
	want *Listen
	err  *Error
}

func addrErr(msg, addr string) *Error { return &Error{Arg: 0, Msg: msg + ` in "` + addr + `"`} }

var listenCases = []listenCase{
	// Address forms.
	{"port", []string{"80"}, portOnly(80), nil},
	{"port leading zeros", []string{"0080"}, portOnly(80), nil},
	{"port 1", []string{"1"}, portOnly(1), nil},
	{"port 65535", []string{"65535"}, portOnly(65535), nil},
	{"port 0", []string{"0"}, nil, addrErr("invalid port", "0")},
	{"port 65536", []string{"65536"}, nil, addrErr("invalid port", "65536")},
	{"port range", []string{"8000-8010"}, &Listen{Kind: AddrPort, IP: any4, Port: 8000, LastPort: 8010, Key: "0.0.0.0:8000-8010"}, nil},
	{"port range single", []string{"80-80"}, &Listen{Kind: AddrPort, IP: any4, Port: 80, LastPort: 80, Key: "0.0.0.0:80-80"}, nil},
	{"port range reversed", []string{"90-80"}, nil, addrErr("invalid port range", "90-80")},
	{"port range zero end", []string{"80-0"}, nil, addrErr("invalid port", "80-0")},
	{"port range zero start", []string{"0-80"}, nil, addrErr("invalid port", "0-80")},
	{"port range too big", []string{"80-70000"}, nil, addrErr("invalid port", "80-70000")},
	// ngx_atoi refuses these, so nginx resolves them as host names.
	{"dangling dash is a host", []string{"80-"}, &Listen{Kind: AddrHost, Host: "80-", Port: 80, PortDefaulted: true, Key: "80-:80"}, nil},
	{"leading dash is a host", []string{"-80"}, &Listen{Kind: AddrHost, Host: "-80", Port: 80, PortDefaulted: true, Key: "-80:80"}, nil},
	{"overflowing port is a host", []string{"99999999999999999999"}, &Listen{Kind: AddrHost, Host: "99999999999999999999", Port: 80, PortDefaulted: true, Key: "99999999999999999999:80"}, nil},
	{"overflowing range end is a host", []string{"80-99999999999999999999"}, &Listen{Kind: AddrHost, Host: "80-99999999999999999999", Port: 80, PortDefaulted: true, Key: "80-99999999999999999999:80"}, nil},
	{"wildcard", []string{"*"}, &Listen{Kind: AddrWildcard, Host: "*", IP: any4, Port: 80, PortDefaulted: true, Key: "0.0.0.0:80"}, nil},
	{"wildcard port", []string{"*:8080"}, &Listen{Kind: AddrWildcard, Host: "*", IP: any4, Port: 8080, Key: "0.0.0.0:8080"}, nil},
	{"wildcard range", []string{"*:80-81"}, &Listen{Kind: AddrWildcard, Host: "*", IP: any4, Port: 80, LastPort: 81, Key: "0.0.0.0:80-81"}, nil},
	{"wildcard bad port", []string{"*:http"}, nil, addrErr("invalid port", "*:http")},
	{"ipv4 port", []string{"127.0.0.1:80"}, &Listen{Kind: AddrIPv4, Host: "127.0.0.1", IP: ip("127.0.0.1"), Port: 80, Key: "127.0.0.1:80"}, nil},
	{"ipv4 default port", []string{"127.0.0.1"}, &Listen{Kind: AddrIPv4, Host: "127.0.0.1", IP: ip("127.0.0.1"), Port: 80, PortDefaulted: true, Key: "127.0.0.1:80"}, nil},
	{"ipv4 any", []string{"0.0.0.0:443"}, &Listen{Kind: AddrIPv4, Host: "0.0.0.0", IP: any4, Port: 443, Key: "0.0.0.0:443"}, nil},
	{"ipv4 65535", []string{"127.0.0.1:65535"}, &Listen{Kind: AddrIPv4, Host: "127.0.0.1", IP: ip("127.0.0.1"), Port: 65535, Key: "127.0.0.1:65535"}, nil},
	{"ipv4 port 0", []string{"127.0.0.1:0"}, nil, addrErr("invalid port", "127.0.0.1:0")},
	{"ipv4 port 65536", []string{"127.0.0.1:65536"}, nil, addrErr("invalid port", "127.0.0.1:65536")},
	{"ipv4 port 99999", []string{"127.0.0.1:99999"}, nil, addrErr("invalid port", "127.0.0.1:99999")},
	{"ipv4 empty port", []string{"127.0.0.1:"}, nil, addrErr("invalid port", "127.0.0.1:")},
	{"ipv4 second colon", []string{"127.0.0.1:80:81"}, nil, addrErr("invalid port", "127.0.0.1:80:81")},
	{"ipv4 dangling range", []string{"127.0.0.1:80-"}, nil, addrErr("invalid port", "127.0.0.1:80-")},
	{"ipv4 range reversed", []string{"127.0.0.1:8010-8000"}, nil, addrErr("invalid port range", "127.0.0.1:8010-8000")},
	// ngx_inet_addr quirks: leading zeros are decimal, empty octets are 0.
	{"ipv4 leading zeros", []string{"010.000.0.1:080"}, &Listen{Kind: AddrIPv4, Host: "010.000.0.1", IP: ip("10.0.0.1"), Port: 80, Key: "10.0.0.1:80"}, nil},
	{"ipv4 empty octet", []string{"1..2.3"}, &Listen{Kind: AddrIPv4, Host: "1..2.3", IP: ip("1.0.2.3"), Port: 80, PortDefaulted: true, Key: "1.0.2.3:80"}, nil},
	{"ipv4 octet 256 is a host", []string{"256.1.1.1"}, &Listen{Kind: AddrHost, Host: "256.1.1.1", Port: 80, PortDefaulted: true, Key: "256.1.1.1:80"}, nil},
	{"ipv4 five octets is a host", []string{"1.2.3.4.5:80"}, &Listen{Kind: AddrHost, Host: "1.2.3.4.5", Port: 80, Key: "1.2.3.4.5:80"}, nil},
	{"INADDR_NONE is a host", []string{"255.255.255.255:80"}, &Listen{Kind: AddrHost, Host: "255.255.255.255", Port: 80, Key: "255.255.255.255:80"}, nil},
	{"no host", []string{":80"}, nil, addrErr("no host", ":80")},
	{"port checked before host", []string{":x"}, nil, addrErr("invalid port", ":x")},
	{"empty address", []string{""}, nil, addrErr("no host", "")},
	{"hostname port", []string{"localhost:8080"}, &Listen{Kind: AddrHost, Host: "localhost", Port: 8080, Key: "localhost:8080"}, nil},
	{"hostname default port", []string{"Example.COM"}, &Listen{Kind: AddrHost, Host: "Example.COM", Port: 80, PortDefaulted: true, Key: "example.com:80"}, nil},
	{"hostname with star", []string{"*.example.com:80"}, &Listen{Kind: AddrHost, Host: "*.example.com", Port: 80, Key: "*.example.com:80"}, nil},
	{"hostname bad port", []string{"localhost:http"}, nil, addrErr("invalid port", "localhost:http")},
	{"uri is invalid host", []string{"localhost/x"}, nil, addrErr("invalid host", "localhost/x")},
	{"query is invalid host", []string{"host?x:80"}, nil, addrErr("invalid host", "host?x:80")},
	{"uri after port is invalid host", []string{"127.0.0.1:80/"}, nil, addrErr("invalid host", "127.0.0.1:80/")},
	{"unbracketed ipv6", []string{"::1"}, nil, addrErr("invalid port", "::1")},
	{"ipv6 port", []string{"[::1]:80"}, &Listen{Kind: AddrIPv6, Host: "::1", IP: ip("::1"), Port: 80, Key: "[::1]:80"}, nil},
	{"ipv6 any default port", []string{"[::]"}, &Listen{Kind: AddrIPv6, Host: "::", IP: ip("::"), Port: 80, PortDefaulted: true, Key: "[::]:80"}, nil},
	{"ipv6 normalised key", []string{"[2001:DB8:0:0::1]:8443"}, &Listen{Kind: AddrIPv6, Host: "2001:DB8:0:0::1", IP: ip("2001:db8::1"), Port: 8443, Key: "[2001:db8::1]:8443"}, nil},
	{"ipv6 full", []string{"[1:2:3:4:5:6:7:8]:80"}, &Listen{Kind: AddrIPv6, Host: "1:2:3:4:5:6:7:8", IP: ip("1:2:3:4:5:6:7:8"), Port: 80, Key: "[1:2:3:4:5:6:7:8]:80"}, nil},
	{"ipv6 mapped ipv4", []string{"[::ffff:192.0.2.1]:80"}, &Listen{Kind: AddrIPv6, Host: "::ffff:192.0.2.1", IP: ip("::ffff:192.0.2.1"), Port: 80, Key: "[::ffff:192.0.2.1]:80"}, nil},
	{"ipv6 range", []string{"[::1]:8000-8010"}, &Listen{Kind: AddrIPv6, Host: "::1", IP: ip("::1"), Port: 8000, LastPort: 8010, Key: "[::1]:8000-8010"}, nil},
	// ngx_inet6_addr quirks: one leading ':' is skipped, and a trailing ':'
	// after a "::" adds a zero group.
	{"ipv6 single leading colon", []string{"[:1:2:3:4:5:6:7:8]"}, &Listen{Kind: AddrIPv6, Host: ":1:2:3:4:5:6:7:8", IP: ip("1:2:3:4:5:6:7:8"), Port: 80, PortDefaulted: true, Key: "[1:2:3:4:5:6:7:8]:80"}, nil},
	{"ipv6 trailing colon", []string{"[1::2:]"}, &Listen{Kind: AddrIPv6, Host: "1::2:", IP: ip("1::2:0"), Port: 80, PortDefaulted: true, Key: "[1::2:0]:80"}, nil},
	{"ipv6 zone id", []string{"[fe80::1%eth0]:80"}, nil, addrErr("invalid IPv6 address", "[fe80::1%eth0]:80")},
	{"ipv6 two gaps", []string{"[1::2::3]"}, nil, addrErr("invalid IPv6 address", "[1::2::3]")},
	{"ipv6 nine groups", []string{"[1:2:3:4:5:6:7:8:9]"}, nil, addrErr("invalid IPv6 address", "[1:2:3:4:5:6:7:8:9]")},
	{"ipv6 gap with eight groups", []string{"[1:2:3:4:5:6:7::]"}, nil, addrErr("invalid IPv6 address", "[1:2:3:4:5:6:7::]")},
	{"ipv6 long group", []string{"[::12345]"}, nil, addrErr("invalid IPv6 address", "[::12345]")},
	{"ipv6 embedded INADDR_NONE", []string{"[::ffff:255.255.255.255]"}, nil, addrErr("invalid IPv6 address", "[::ffff:255.255.255.255]")},
	{"ipv6 ipv4 literal", []string{"[127.0.0.1]"}, nil, addrErr("invalid IPv6 address", "[127.0.0.1]")},
	{"ipv6 missing bracket", []string{"[::1"}, nil, addrErr("invalid host", "[::1")},
	{"ipv6 junk after bracket", []string{"[::1]80"}, nil, addrErr("invalid host", "[::1]80")},
	{"ipv6 uri", []string{"[::1]:80/x"}, nil, addrErr("invalid host", "[::1]:80/x")},
	{"ipv6 query is a bad port", []string{"[::1]:80?"}, nil, addrErr("invalid port", "[::1]:80?")},
	{"ipv6 empty port", []string{"[::1]:"}, nil, addrErr("invalid port", "[::1]:")},
	{"ipv6 port 0", []string{"[::1]:0"}, nil, addrErr("invalid port", "[::1]:0")},
	{"ipv6 empty", []string{"[]:80"}, nil, addrErr("no host", "[]:80")},
	{"ipv6 nested bracket", []string{"[[::1]]"}, nil, addrErr("invalid host", "[[::1]]")},
	{"unix", []string{"unix:/var/run/nginx.sock"}, &Listen{Kind: AddrUnix, Host: "/var/run/nginx.sock", Key: "unix:/var/run/nginx.sock"}, nil},
	{"unix upper case with colon", []string{"UNIX:/tmp/a:b"}, &Listen{Kind: AddrUnix, Host: "/tmp/a:b", Key: "unix:/tmp/a:b"}, nil},
	{"unix relative", []string{"unix:sock"}, &Listen{Kind: AddrUnix, Host: "sock", Key: "unix:sock"}, nil},
	{"unix no path", []string{"unix:"}, nil, addrErr("no path in the unix domain socket", "unix:")},
	{"unix longest path", []string{"unix:/" + strings.Repeat("a", 106)}, &Listen{Kind: AddrUnix, Host: "/" + strings.Repeat("a", 106), Key: "unix:/" + strings.Repeat("a", 106)}, nil},
	{"unix path too long", []string{"unix:/" + strings.Repeat("a", 107)}, nil, addrErr("too long path in the unix domain socket", "unix:/"+strings.Repeat("a", 107))},
	{"unix without colon is a host", []string{"unix"}, &Listen{Kind: AddrHost, Host: "unix", Port: 80, PortDefaulted: true, Key: "unix:80"}, nil},

	// Parameters.
	{"flags", []string{"443", "default_server", "ssl", "http2", "quic", "proxy_protocol", "udp"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 443, Key: "0.0.0.0:443",
		Params: []Param{prm(ParamDefaultServer, 1, "default_server"), prm(ParamSSL, 2, "ssl"), prm(ParamHTTP2, 3, "http2"), prm(ParamQUIC, 4, "quic"), prm(ParamProxyProtocol, 5, "proxy_protocol"), prm(ParamUDP, 6, "udp")},
		Set:    set(ParamDefaultServer, ParamSSL, ParamHTTP2, ParamQUIC, ParamProxyProtocol, ParamUDP),
	}, nil},
	{"old default", []string{"80", "default"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamDefaultServer, 1, "default")}, Set: set(ParamDefaultServer),
	}, nil},
	{"socket options", []string{"127.0.0.1:8080", "bind", "backlog=511", "rcvbuf=64k", "sndbuf=1M", "setfib=1", "fastopen=0", "accept_filter=dataready", "deferred", "ipv6only=off", "reuseport", "so_keepalive=on", "multipath"}, &Listen{
		Kind: AddrIPv4, Host: "127.0.0.1", IP: ip("127.0.0.1"), Port: 8080, Key: "127.0.0.1:8080",
		Params: []Param{prm(ParamBind, 1, "bind"), prm(ParamBacklog, 2, "backlog=511"), prm(ParamRcvbuf, 3, "rcvbuf=64k"), prm(ParamSndbuf, 4, "sndbuf=1M"), prm(ParamSetfib, 5, "setfib=1"), prm(ParamFastopen, 6, "fastopen=0"), prm(ParamAcceptFilter, 7, "accept_filter=dataready"), prm(ParamDeferred, 8, "deferred"), prm(ParamIPv6Only, 9, "ipv6only=off"), prm(ParamReuseport, 10, "reuseport"), prm(ParamSoKeepalive, 11, "so_keepalive=on"), prm(ParamMultipath, 12, "multipath")},
		Set:    set(ParamBind, ParamBacklog, ParamRcvbuf, ParamSndbuf, ParamSetfib, ParamFastopen, ParamAcceptFilter, ParamDeferred, ParamIPv6Only, ParamReuseport, ParamSoKeepalive, ParamMultipath),
		Opts:   &ListenOpts{Backlog: 511, RcvBuf: 64 << 10, SndBuf: 1 << 20, Setfib: 1, AcceptFilter: "dataready", KeepAlive: KeepAlive{On: true}},
	}, nil},
	{"ipv6only on", []string{"[::]:80", "ipv6only=on"}, &Listen{
		Kind: AddrIPv6, Host: "::", IP: ip("::"), Port: 80, Key: "[::]:80",
		Params: []Param{prm(ParamIPv6Only, 1, "ipv6only=on")}, Set: set(ParamIPv6Only), IPv6Only: true,
	}, nil},
	{"last value wins", []string{"80", "backlog=1", "backlog=2"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamBacklog, 1, "backlog=1"), prm(ParamBacklog, 2, "backlog=2")}, Set: set(ParamBacklog), Opts: &ListenOpts{Backlog: 2},
	}, nil},
	{"empty accept_filter", []string{"80", "accept_filter="}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamAcceptFilter, 1, "accept_filter=")}, Set: set(ParamAcceptFilter),
		Opts: &ListenOpts{}, // present though empty, as for so_keepalive=off
	}, nil},
	{"so_keepalive tunables", []string{"80", "so_keepalive=30m::10"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamSoKeepalive, 1, "so_keepalive=30m::10")}, Set: set(ParamSoKeepalive),
		Opts: &ListenOpts{KeepAlive: KeepAlive{On: true, Idle: 1800, Count: 10}},
	}, nil},
	{"so_keepalive all tunables", []string{"80", "so_keepalive=1h30m:75s:9"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamSoKeepalive, 1, "so_keepalive=1h30m:75s:9")}, Set: set(ParamSoKeepalive),
		Opts: &ListenOpts{KeepAlive: KeepAlive{On: true, Idle: 5400, Interval: 75, Count: 9}},
	}, nil},
	// nginx keeps earlier tunables, so the second (all-empty) value passes
	// its "all zero" check.
	{"so_keepalive cumulative", []string{"80", "so_keepalive=1::", "so_keepalive=::"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamSoKeepalive, 1, "so_keepalive=1::"), prm(ParamSoKeepalive, 2, "so_keepalive=::")}, Set: set(ParamSoKeepalive),
		Opts: &ListenOpts{KeepAlive: KeepAlive{On: true, Idle: 1}},
	}, nil},
	{"so_keepalive off", []string{"80", "so_keepalive=off"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamSoKeepalive, 1, "so_keepalive=off")}, Set: set(ParamSoKeepalive),
		Opts: &ListenOpts{},
	}, nil},
	{"unknown parameters", []string{"80", "foo", "SSL", "ssl=on", "", "backlog", "ipv6only=maybe"}, &Listen{
		Kind: AddrPort, IP: any4, Port: 80, Key: "0.0.0.0:80",
		Params: []Param{prm(ParamUnknown, 1, "foo"), prm(ParamUnknown, 2, "SSL"), prm(ParamUnknown, 3, "ssl=on"), prm(ParamUnknown, 4, ""), prm(ParamUnknown, 5, "backlog"), prm(ParamUnknown, 6, "ipv6only=maybe")},
		Opts:   &ListenOpts{Unknown: []Param{prm(ParamUnknown, 1, "foo"), prm(ParamUnknown, 2, "SSL"), prm(ParamUnknown, 3, "ssl=on"), prm(ParamUnknown, 4, ""), prm(ParamUnknown, 5, "backlog"), prm(ParamUnknown, 6, "ipv6only=maybe")}},
		Set:    set(ParamUnknown),
	}, nil},
	{"backlog 0", []string{"80", "backlog=0"}, nil, &Error{1, `invalid backlog "backlog=0"`}},
	{"backlog word", []string{"80", "ssl", "backlog=abc"}, nil, &Error{2, `invalid backlog "backlog=abc"`}},
	{"backlog negative", []string{"80", "backlog=-1"}, nil, &Error{1, `invalid backlog "backlog=-1"`}},
	{"setfib negative", []string{"80", "setfib=-1"}, nil, &Error{1, `invalid setfib "setfib=-1"`}},
	{"setfib overflow", []string{"80", "setfib=99999999999999999999"}, nil, &Error{1, `invalid setfib "setfib=99999999999999999999"`}},
	{"fastopen empty", []string{"80", "fastopen="}, nil, &Error{1, `invalid fastopen "fastopen="`}},
	{"rcvbuf gigabytes", []string{"80", "rcvbuf=1g"}, nil, &Error{1, `invalid rcvbuf "rcvbuf=1g"`}},
	{"sndbuf bare unit", []string{"80", "sndbuf=k"}, nil, &Error{1, `invalid sndbuf "sndbuf=k"`}},
	{"ipv6only bad flags", []string{"[::]:80", "ipv6only=ox"}, nil, &Error{1, `invalid ipv6only flags "ox"`}},
	{"so_keepalive empty", []string{"80", "so_keepalive=::"}, nil, &Error{1, `invalid so_keepalive value: "::"`}},
	{"so_keepalive zeros", []string{"80", "so_keepalive=0:0:0"}, nil, &Error{1, `invalid so_keepalive value: "0:0:0"`}},
	{"so_keepalive word", []string{"80", "so_keepalive=yes"}, nil, &Error{1, `invalid so_keepalive value: "yes"`}},
	{"so_keepalive extra field", []string{"80", "so_keepalive=1:2:3:4"}, nil, &Error{1, `invalid so_keepalive value: "1:2:3:4"`}},
	{"so_keepalive ms", []string{"80", "so_keepalive=500ms"}, nil, &Error{1, `invalid so_keepalive value: "500ms"`}},
	{"address error wins", []string{"80-0", "backlog=0"}, nil, addrErr("invalid port", "80-0")},
	{"first bad value wins", []string{"80", "backlog=0", "setfib=x"}, nil, &Error{1, `invalid backlog "backlog=0"`}},
	{"NUL byte", []string{"80", "ssl\x00"}, nil, &Error{1, "unexpected NUL byte in \"ssl\x00\""}},
	{"no arguments", []string{}, nil, &Error{-1, `invalid number of arguments in "listen" directive`}},
}

func TestParseListen(t *testing.T) {
	for _, tc := range listenCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, impl := range []struct {
				name  string
				parse func([]string) (*Listen, error)
			}{{"ParseListen", ParseListen}, {"ParseListenGrammar", ParseListenGrammar}} {
				got, err := impl.parse(tc.args)
				if tc.err != nil {
					var e *Error
					if !errors.As(err, &e) {
						t.Fatalf("%s(%q) error = %v, want *Error %q", impl.name, tc.args, err, tc.err.Msg)
					}
					if diff := cmp.Diff(tc.err, e); diff != "" {
						t.Errorf("%s(%q) error mismatch (-want +got):\n%s", impl.name, tc.args, diff)
					}
					if got != nil {
						t.Errorf("%s(%q) returned a Listen with an error", impl.name, tc.args)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s(%q) unexpected error %v", impl.name, tc.args, err)
				}
				if diff := cmp.Diff(tc.want, got, cmpOpts); diff != "" {
					t.Errorf("%s(%q) mismatch (-want +got):\n%s", impl.name, tc.args, diff)
				}
			}
		})
	}
}

// TestFastPathCoverage pins down which shapes the fast path must handle;
// losing one would silently cost ~100x on real configurations.
func TestFastPathCoverage(t *testing.T) {
	for _, args := range [][]string{
		{"80"}, {"443", "ssl"}, {"*:80"}, {"*"}, {"127.0.0.1:8080"}, {"127.0.0.1"},
		{"0.0.0.0:80", "default_server"}, {"[::]:80"}, {"[::]"}, {"[::1]:443", "ssl", "http2"},
		{"[2001:db8::1]:443", "quic", "reuseport"}, {"80", "default"},
		{"443", "ssl", "default_server", "backlog=4096", "rcvbuf=64k", "sndbuf=1m", "setfib=0", "fastopen=256"},
		{"80", "bind", "deferred", "ipv6only=on", "so_keepalive=off", "accept_filter=httpready", "multipath", "proxy_protocol"},
	} {
		if _, ok := parseListenFast(nil, args); !ok {
			t.Errorf("fast path declined %q", args)
		}
	}
	for _, args := range [][]string{
		{"localhost:80"}, {"unix:/x"}, {"80-90"}, {"80", "foo"}, {"80", "so_keepalive=1::"},
		{"80", "backlog=0"}, {"99999"}, {"[fe80::1%1]"},
	} {
		if _, ok := parseListenFast(nil, args); ok {
			t.Errorf("fast path accepted %q, which it should leave to the grammar", args)
		}
	}
}

func TestListenKeyReusesArgument(t *testing.T) {
	// The canonical "IPv4:port" form is its own key; the fast path must not
	// allocate a copy.
	arg := "10.1.2.3:8080"
	l, err := ParseListen([]string{arg})
	if err != nil {
		t.Fatal(err)
	}
	if l.Key != arg {
		t.Fatalf("Key = %q, want %q", l.Key, arg)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseListen([]string{arg}) }); n > 1 {
		t.Errorf("ParseListen(%q) allocates %v times, want 1", arg, n)
	}
}

func TestForcesOwnSocket(t *testing.T) {
	for _, p := range []string{"bind", "backlog=10", "rcvbuf=1k", "sndbuf=1k", "accept_filter=x", "deferred", "ipv6only=on", "setfib=1", "so_keepalive=on", "fastopen=1", "reuseport", "multipath"} {
		l, err := ParseListen([]string{"80", p})
		if err != nil {
			t.Fatal(err)
		}
		if !l.ForcesOwnSocket() {
			t.Errorf("listen 80 %s: ForcesOwnSocket() = false, want true", p)
		}
	}
	for _, p := range []string{"ssl", "default_server", "default", "http2", "quic", "proxy_protocol", "udp", "foo"} {
		l, err := ParseListen([]string{"80", p})
		if err != nil {
			t.Fatal(err)
		}
		if l.ForcesOwnSocket() {
			t.Errorf("listen 80 %s: ForcesOwnSocket() = true, want false", p)
		}
	}
}

func TestWildcard(t *testing.T) {
	for addr, want := range map[string]bool{
		"80": true, "*": true, "*:80": true, "0.0.0.0:80": true, "[::]:80": true,
		"127.0.0.1": false, "[::1]": false, "localhost": false, "unix:/x": false,
	} {
		l, err := ParseListen([]string{addr})
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Wildcard(); got != want {
			t.Errorf("listen %s: Wildcard() = %v, want %v", addr, got, want)
		}
	}
}

func TestListenCheck(t *testing.T) {
	tests := []struct {
		args []string
		ctx  Context
		want []*Error
	}{
		{[]string{"80", "default_server", "ssl", "http2"}, ContextHTTP, nil},
		{[]string{"80", "default", "reuseport"}, ContextHTTP, nil},
		{[]string{"80", "foo", "ssl"}, ContextHTTP, []*Error{{1, `invalid parameter "foo"`}}},
		{[]string{"80", "ipv6only=maybe"}, ContextHTTP, []*Error{{1, `invalid parameter "ipv6only=maybe"`}}},
		{[]string{"53", "udp"}, ContextHTTP, []*Error{{1, `invalid parameter "udp"`}}},
		{[]string{"53", "udp", "reuseport"}, ContextStream, nil},
		{[]string{"80", "default", "http2", "quic"}, ContextStream, []*Error{{1, `invalid parameter "default"`}, {2, `invalid parameter "http2"`}, {3, `invalid parameter "quic"`}}},
		{[]string{"25", "default_server", "reuseport", "ssl", "proxy_protocol"}, ContextMail, []*Error{{1, `invalid parameter "default_server"`}, {2, `invalid parameter "reuseport"`}}},
		{[]string{"443", "quic", "reuseport"}, ContextHTTP, nil},
		{[]string{"443", "quic", "ssl", "backlog=10", "so_keepalive=off"}, ContextHTTP, []*Error{
			{3, `"backlog" parameter is incompatible with "quic"`},
			{2, `"ssl" parameter is incompatible with "quic"`},
			{4, `"so_keepalive" parameter is incompatible with "quic"`},
		}},
		{[]string{"53", "udp", "proxy_protocol"}, ContextStream, []*Error{{2, `"proxy_protocol" parameter is incompatible with "udp"`}}},
		// quic is not a stream parameter, so it only counts as unknown there.
		{[]string{"443", "quic", "ssl"}, ContextStream, []*Error{{1, `invalid parameter "quic"`}}},
	}
	for _, tc := range tests {
		l, err := ParseListen(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, l.Check(tc.ctx)); diff != "" {
			t.Errorf("Check(%q, %d) mismatch (-want +got):\n%s", tc.args, tc.ctx, diff)
		}
	}
}

func TestParamValue(t *testing.T) {
	for text, want := range map[string]string{"backlog=511": "511", "ssl": "", "setfib=1=2": "1=2", "accept_filter=": ""} {
		if got := (Param{Text: text}).Value(); got != want {
			t.Errorf("Param{%q}.Value() = %q, want %q", text, got, want)
		}
	}
}

func TestKindStrings(t *testing.T) {
	if got := AddrIPv6.String(); got != "ipv6" {
		t.Errorf("AddrIPv6.String() = %q", got)
	}
	if got := AddrKind(0).String(); got != "invalid" {
		t.Errorf("AddrKind(0).String() = %q", got)
	}
	if got := ParamSoKeepalive.String(); got != "so_keepalive" {
		t.Errorf("ParamSoKeepalive.String() = %q", got)
	}
	if got := ParamKind(200).String(); got != "invalid" {
		t.Errorf("ParamKind(200).String() = %q", got)
	}
}

// TestParseTimeSec: so_keepalive's times are ngx_parse_time(s, 1), read
// with ngxparse.ParseTime.
func TestParseTimeSec(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "30": 30, "30s": 30, "5m": 300, "1h30m": 5400, "1d": 86400, "1w": 604800, "1M": 2592000, "1y": 31536000, "1y 1s": 31536001, "1 2": 3} {
		if got, ok := ngxparse.ParseTime(s, true); !ok || got != want {
			t.Errorf("ParseTime(%q, true) = %d, %v; want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "s", "1ms", "1s1m", "1m1h", "1x", "1s1y", "-1", "99999999999999999999"} {
		if got, ok := ngxparse.ParseTime(s, true); ok {
			t.Errorf("ParseTime(%q, true) = %d, want failure", s, got)
		}
	}
}

func TestListenGrammarEBNF(t *testing.T) {
	ebnf := ListenGrammarEBNF()
	for _, want := range []string{"ListenArgs = ", "PortRange = ", "Param = "} {
		if !strings.Contains(ebnf, want) {
			t.Errorf("EBNF lacks %q:\n%s", want, ebnf)
		}
	}
}

// TestListenSize guards the memory budget: one Listen is allocated per
// distinct listen directive, so a field added carelessly (or a padding
// gap) costs every large configuration.
func TestListenSize(t *testing.T) {
	l, p := unsafe.Sizeof(Listen{}), unsafe.Sizeof(Param{})
	if l > 128 {
		t.Errorf("unsafe.Sizeof(Listen) = %d, over the 128-byte budget", l)
	}
	for _, tc := range []struct {
		name string
		got  uintptr
		n    uintptr
	}{
		{"listenAlloc1", unsafe.Sizeof(listenAlloc1{}), 1},
		{"listenAlloc2", unsafe.Sizeof(listenAlloc2{}), 2},
		{"listenAlloc4", unsafe.Sizeof(listenAlloc4{}), 4},
	} {
		if want := l + tc.n*p; tc.got > want {
			t.Errorf("unsafe.Sizeof(%s) = %d, want at most %d", tc.name, tc.got, want)
		}
	}
}

// TestListenOpts checks the accessors read Opts when present and give zero
// values when it is nil, and that only rare parameters allocate it.
func TestListenOpts(t *testing.T) {
	l, err := ParseListen([]string{"80", "ssl", "default_server"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Opts != nil {
		t.Errorf("listen 80 ssl default_server: Opts = %+v, want nil", l.Opts)
	}
	if l.Backlog() != 0 || l.Setfib() != 0 || l.Fastopen() != 0 || l.RcvBuf() != 0 ||
		l.SndBuf() != 0 || l.AcceptFilter() != "" || l.KeepAlive() != (KeepAlive{}) || l.Unknown() != nil {
		t.Errorf("accessors of a nil Opts are not zero: %+v", l)
	}
	args := []string{"80", "backlog=7", "setfib=2", "fastopen=3", "rcvbuf=4", "sndbuf=5", "accept_filter=x", "so_keepalive=1::", "foo"}
	for _, parse := range []func([]string) (*Listen, error){ParseListen, ParseListenGrammar} {
		l, err := parse(args)
		if err != nil {
			t.Fatal(err)
		}
		got := []any{l.Backlog(), l.Setfib(), l.Fastopen(), l.RcvBuf(), l.SndBuf(), l.AcceptFilter(), l.KeepAlive(), l.Unknown()}
		want := []any{7, 2, 3, 4, 5, "x", KeepAlive{On: true, Idle: 1}, []Param{prm(ParamUnknown, 8, "foo")}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("accessors of %q (-want +got):\n%s", args, diff)
		}
	}
}

// TestArenaReuse: listens from one arena, with declined fast paths (a host
// name, an unknown parameter) in between, equal those parsed on their own,
// and a release leaves nothing behind for the next listen.
func TestArenaReuse(t *testing.T) {
	inputs := [][]string{
		{"127.0.0.1:80", "ssl", "http2"},
		{"localhost:8080", "ssl"},
		{"80", "default_server"},
		{"127.0.0.2:80", "bogus", "ssl"},
		{"[::1]:443", "ssl", "reuseport", "backlog=511"},
		{"8000-8010"},
		{"*:81"},
	}
	var a Arena
	for round := 0; round < arenaListens+5; round++ {
		for _, args := range inputs {
			want, wantErr := ParseListen(args)
			got, gotErr := ParseListenIn(&a, args)
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("%q: errors %v and %v", args, wantErr, gotErr)
			}
			if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
				t.Fatalf("round %d, %q: arena result differs:\n%s", round, args, diff)
			}
		}
	}
}

func TestParamSince(t *testing.T) {
	for _, tc := range []struct {
		ctx  Context
		kind ParamKind
		want string
	}{
		{ContextHTTP, ParamQUIC, "1.25.0"},
		{ContextHTTP, ParamSSL, ""},
		{ContextHTTP, ParamMultipath, "1.29.7"},
		{ContextStream, ParamDefaultServer, "1.25.5"},
		{ContextStream, ParamUDP, ""},
		{ContextMail, ParamProxyProtocol, "1.19.8"},
		{ContextMail, ParamQUIC, ""},
	} {
		if got := ParamSince(tc.ctx, tc.kind); got != tc.want {
			t.Errorf("ParamSince(%d, %s) = %q, want %q", tc.ctx, tc.kind, got, tc.want)
		}
	}
}
