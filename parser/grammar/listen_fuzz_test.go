package grammar

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fuzzSeeds are (address, space-separated parameters) pairs covering every
// shape either implementation distinguishes.
var fuzzSeeds = [][2]string{
	{"80", ""}, {"0080", ""}, {"0", ""}, {"65535", ""}, {"65536", ""}, {"99999999999999999999", ""},
	{"8000-8010", ""}, {"90-80", ""}, {"80-", ""}, {"-80", ""}, {"80-0", ""}, {"a-80", ""},
	{"*", ""}, {"*:80", "ssl"}, {"**", ""}, {"*:", ""}, {"*.x:80", ""},
	{"127.0.0.1:80", "default_server ssl http2"}, {"127.0.0.1", "default"}, {"0.0.0.0:443", "quic reuseport"},
	{"010.0.0.1:080", ""}, {"1..2.3", ""}, {"...", ""}, {"1.2.3.", ""}, {"256.0.0.1", ""}, {"1.2.3.4.5", ""},
	{"255.255.255.255", ""}, {"255.255.255.254:1", ""}, {"127.0.0.1:", ""}, {"127.0.0.1:0", ""},
	{"127.0.0.1:99999", ""}, {"127.0.0.1:80:81", ""}, {"127.0.0.1:80-90", ""}, {":80", ""}, {"", ""},
	{"localhost:8080", ""}, {"Example.COM", ""}, {"a/b", ""}, {"a?b:80", ""}, {"::1", ""},
	{"[::1]:80", "ssl"}, {"[::]", "ipv6only=on"}, {"[::ffff:1.2.3.4]:80", ""}, {"[::1.2.3.4]", ""},
	{"[1:2:3:4:5:6:7:8]", ""}, {"[:1:2:3:4:5:6:7:8]", ""}, {"[1::2:]", ""}, {"[1::]", ""}, {"[::]:443", ""},
	{"[1:2:3:4:5:6:7::]", ""}, {"[1:2:3:4:5:6::1.2.3.4]", ""}, {"[1:2:3:4:5:6:7:1.2.3.4]", ""},
	{"[::ffff:255.255.255.255]", ""}, {"[::1%eth0]", ""}, {"[::12345]", ""}, {"[:::]", ""}, {"[:]", ""},
	{"[]", ""}, {"[::1", ""}, {"[::1]x", ""}, {"[::1]:", ""}, {"[::1]:80/", ""}, {"[::1]:80?", ""},
	{"[::1]:80-81", ""}, {"[FE80::A]", ""}, {"[::0001.2.3.4]", ""},
	{"unix:/tmp/x", ""}, {"UNIX:/a:b", ""}, {"unix:", ""}, {"unix", ""},
	{"80", "bind backlog=511 rcvbuf=64k sndbuf=1M setfib=1 fastopen=0 accept_filter=dataready deferred"},
	{"80", "ipv6only=off reuseport so_keepalive=on multipath proxy_protocol udp"},
	{"80", "so_keepalive=off"}, {"80", "so_keepalive=30m::10"}, {"80", "so_keepalive=1h30m:75s:9"},
	{"80", "so_keepalive=::"}, {"80", "so_keepalive=1:: so_keepalive=::"}, {"80", "so_keepalive=500ms"},
	{"80", "backlog=0"}, {"80", "backlog=-1"}, {"80", "setfib=1=2"}, {"80", "rcvbuf=1g"}, {"80", "sndbuf=k"},
	{"80", "ipv6only=ox"}, {"80", "ipv6only=maybe"}, {"80", "foo"}, {"80", "SSL"}, {"80", "ssl=on"},
	{"80", "backlog"}, {"80", "a  b"}, {"80", "="}, {"80", "accept_filter="}, {"80", "ssl ssl ssl ssl ssl"},
}

// FuzzListenFastPath checks that ParseListen's hand-written fast path and
// the reference grammar agree: whenever the fast path accepts an input its
// result must equal the grammar's, and ParseListen must return exactly
// what the grammar returns, errors included. It also checks invariants of
// every successful parse and that the grammar never fails internally.
// fuzzArena is shared by the inputs of FuzzListenFastPath.
var fuzzArena Arena

func FuzzListenFastPath(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	for _, tc := range listenCases {
		if len(tc.args) > 0 {
			f.Add(tc.args[0], strings.Join(tc.args[1:], " "))
		}
	}
	f.Fuzz(func(t *testing.T, addr, params string) {
		args := []string{addr}
		if params != "" {
			args = append(args, strings.Split(params, " ")...)
		}
		ref, refErr := ParseListenGrammar(args)
		if fast, ok := parseListenFast(nil, args); ok {
			if refErr != nil {
				t.Fatalf("%q: fast path accepted, grammar says %v", args, refErr)
			}
			if diff := cmp.Diff(ref, fast, cmpOpts); diff != "" {
				t.Fatalf("%q: fast path and grammar differ (-grammar +fast):\n%s", args, diff)
			}
		}
		got, gotErr := ParseListen(args)
		// From an arena shared by every input: a declined fast path
		// must leave its slot clean for the next one.
		inArena, _ := ParseListenIn(&fuzzArena, args)
		if diff := cmp.Diff(got, inArena, cmpOpts); diff != "" {
			t.Fatalf("%q: ParseListenIn differs from ParseListen:\n%s", args, diff)
		}
		if (gotErr == nil) != (refErr == nil) {
			t.Fatalf("%q: ParseListen error %v, grammar error %v", args, gotErr, refErr)
		}
		if refErr != nil {
			var e *Error
			if !errors.As(refErr, &e) {
				t.Fatalf("%q: error %T is not *Error", args, refErr)
			}
			if strings.HasPrefix(e.Msg, "listen grammar:") {
				t.Fatalf("%q: grammar failed internally: %v", args, e)
			}
			if e.Arg < 0 || e.Arg >= len(args) || e.Msg == "" {
				t.Fatalf("%q: bad error %#v", args, e)
			}
			if diff := cmp.Diff(refErr, gotErr); diff != "" {
				t.Fatalf("%q: errors differ:\n%s", args, diff)
			}
			return
		}
		if diff := cmp.Diff(ref, got, cmpOpts); diff != "" {
			t.Fatalf("%q: ParseListen and grammar differ:\n%s", args, diff)
		}
		checkListenInvariants(t, args, got)
	})
}

// checkListenInvariants verifies properties every successful parse has.
func checkListenInvariants(t *testing.T, args []string, l *Listen) {
	t.Helper()
	if l.Kind < AddrPort || l.Kind > AddrUnix || l.Key == "" {
		t.Fatalf("%q: bad kind or key: %+v", args, l)
	}
	if l.Kind != AddrUnix && (l.Port < 1 || l.Port > 65535 || (l.LastPort != 0 && l.LastPort < l.Port)) {
		t.Fatalf("%q: bad port: %+v", args, l)
	}
	switch l.Kind {
	case AddrIPv4, AddrPort, AddrWildcard:
		if !l.IP.Is4() || !strings.HasPrefix(l.Key, l.IP.String()+":") {
			t.Fatalf("%q: IPv4 key %q does not match IP %v", args, l.Key, l.IP)
		}
	case AddrIPv6:
		if !l.IP.Is6() || !strings.HasPrefix(l.Key, "["+l.IP.String()+"]:") {
			t.Fatalf("%q: IPv6 key %q does not match IP %v", args, l.Key, l.IP)
		}
	default:
		if l.IP.IsValid() {
			t.Fatalf("%q: %v address has an IP", args, l.Kind)
		}
	}
	if len(l.Params) != len(args)-1 {
		t.Fatalf("%q: %d params for %d arguments", args, len(l.Params), len(args)-1)
	}
	unknown := 0
	for i, p := range l.Params {
		if p.Arg != i+1 || p.Text != args[i+1] {
			t.Fatalf("%q: param %d is %+v", args, i, p)
		}
		if !l.Set.Has(p.Kind) {
			t.Fatalf("%q: Set lacks %v", args, p.Kind)
		}
		if p.Kind == ParamUnknown {
			if unknown >= len(l.Unknown()) || l.Unknown()[unknown] != p {
				t.Fatalf("%q: Unknown does not list %+v", args, p)
			}
			unknown++
		}
	}
	if unknown != len(l.Unknown()) {
		t.Fatalf("%q: Unknown has extra entries", args)
	}
	if (l.Opts != nil) != (l.Set&optParams != 0) {
		t.Fatalf("%q: Opts is %v for parameters %b", args, l.Opts, l.Set)
	}
}
