package rules

import (
	"strings"
	"testing"
)

func TestIfConditionError(t *testing.T) {
	for _, tc := range []struct {
		cond string // the arguments of if, space-separated
		arg  int
		msg  string
	}{
		{"($a)", 0, ""},
		{"( $a )", 0, ""},
		{"($a = b)", 0, ""},
		{"($a != \"\")", 0, ""},
		{"($a ~ ^x)", 0, ""},
		{"($a ~* ^x)", 0, ""},
		{"($a !~ ^x)", 0, ""},
		{"($a !~* ^x)", 0, ""},
		{"(-f /x)", 0, ""},
		{"(!-d /x)", 0, ""},
		{"( -e /x )", 0, ""},
		{"(!-x /x)", 0, ""},
		{"($a == b)", 1, `unexpected "==" in condition`},
		{"($a ! b)", 1, `unexpected "!" in condition`},
		{"(a)", 0, `invalid condition "a"`},
		{"$a", 0, `invalid condition "$a"`},
		{"($a", 0, `invalid condition "$a"`},
		{"$a)", 0, `invalid condition "$a)"`},
		{"()", 0, `invalid condition ")"`},
		{"( )", 1, `invalid condition ")"`},
		{"(", 0, `invalid condition "("`},
		{"($a = b c)", 0, `invalid condition "$a"`},
		{"($a =)", 0, `invalid condition "$a"`},
		{"(-f)", 0, `invalid condition "-f"`},
		{"(-q /x)", 0, `invalid condition "-q"`},
		{"(!-q /x)", 0, `invalid condition "!-q"`},
		{"(-f /x /y)", 0, `invalid condition "-f"`},
		{"($)", 0, `invalid condition "$"`},
	} {
		arg, msg := ifConditionError(strings.Fields(tc.cond))
		if msg != tc.msg || (msg != "" && arg != tc.arg) {
			t.Errorf("if %s: got %d %q, want %d %q", tc.cond, arg, msg, tc.arg, tc.msg)
		}
	}
}

func TestParseNginxURL(t *testing.T) {
	for _, tc := range []struct {
		url     string
		uriPart bool
		defPort int
		want    nginxURL
	}{
		{"127.0.0.1:8080", false, 0, nginxURL{host: "127.0.0.1", port: 8080, addr: true}},
		{"backend", false, 0, nginxURL{host: "backend", noPort: true}},
		{"backend", true, 80, nginxURL{host: "backend", port: 80, noPort: true}},
		{"backend/x", true, 80, nginxURL{host: "backend", port: 80, noPort: true, uri: "/x"}},
		{"backend?a=1", true, 80, nginxURL{host: "backend", port: 80, noPort: true, uri: "?a=1"}},
		{"backend/a:b", true, 80, nginxURL{host: "backend", port: 80, noPort: true, uri: "/a:b"}},
		{"backend/x", false, 0, nginxURL{err: "invalid host"}},
		{"backend:0", false, 0, nginxURL{err: "invalid port"}},
		{"backend:65536", false, 0, nginxURL{err: "invalid port"}},
		{"backend:", false, 0, nginxURL{err: "invalid port"}},
		{":80", false, 0, nginxURL{err: "no host"}},
		{"[::1]:9000", false, 0, nginxURL{host: "[::1]", port: 9000, addr: true}},
		{"[::1]", false, 0, nginxURL{host: "[::1]", noPort: true, addr: true}},
		{"[::1", false, 0, nginxURL{err: "invalid host"}},
		{"[::1]x", false, 0, nginxURL{err: "invalid host"}},
		{"[]:80", false, 0, nginxURL{err: "no host"}},
		{"[fe80::1%eth0]:80", false, 0, nginxURL{err: "invalid IPv6 address"}},
		{"[::1]:80/x", true, 0, nginxURL{host: "[::1]", port: 80, uri: "/x", addr: true}},
		{"unix:/run/a.sock", false, 0, nginxURL{host: "/run/a.sock", unix: true}},
		{"UNIX:/run/a.sock:/uri", true, 0, nginxURL{host: "/run/a.sock", uri: "/uri", unix: true}},
		{"unix:", false, 0, nginxURL{unix: true, err: "no path in the unix domain socket"}},
		{"unix:/" + strings.Repeat("a", 107), false, 0, nginxURL{unix: true, host: "/" + strings.Repeat("a", 107), err: "too long path in the unix domain socket"}},
	} {
		got := parseNginxURL(tc.url, tc.uriPart, tc.defPort)
		if tc.want.err != "" {
			// Only the error counts once there is one.
			got = nginxURL{err: got.err, unix: tc.want.unix && got.unix, host: tc.want.host}
		}
		if got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.url, got, tc.want)
		}
	}
}

func TestGeoAddresses(t *testing.T) {
	for _, tc := range []struct {
		s           string
		cidr, rangE bool
	}{
		{"10.0.0.0/8", true, false},
		{"10.0.0.1", true, false},
		{"1..2.3", true, false}, // ngx_inet_addr reads it as 1.0.2.3
		{"10.0.0.0/33", false, false},
		{"10.0.0.0/", false, false},
		{"10.0.0.256", false, false},
		{"255.255.255.255", true, false},
		{"::1/128", true, false},
		{"::1/129", false, false},
		{"2001:db8::/32", true, false},
		{"value", false, false},
		{"10.0.0.1-10.0.0.9", false, true},
		{"10.0.0.9-10.0.0.1", false, false},
		{"10.0.0.1-255.255.255.255", false, false},
		{"10.0.0.1-", false, false},
	} {
		if got := geoCIDR(tc.s); got != tc.cidr {
			t.Errorf("geoCIDR(%q) = %v", tc.s, got)
		}
		if got := geoRange(tc.s); got != tc.rangE {
			t.Errorf("geoRange(%q) = %v", tc.s, got)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		s  string
		n  int
		ok bool
	}{
		{"50%", 5000, true}, {"0.5%", 50, true}, {"12.55%", 1255, true}, {"100%", 10000, true},
		{"12.555%", 0, false}, {"0%", 0, false}, {"%", 0, false}, {"50", 0, false}, {"1.2.3%", 0, false},
		{"a%", 0, false}, {".5%", 50, true},
	} {
		n, ok := percent(tc.s)
		if ok != tc.ok || (ok && n != tc.n) {
			t.Errorf("percent(%q) = %d, %v; want %d, %v", tc.s, n, ok, tc.n, tc.ok)
		}
	}
}

func TestCacheLevels(t *testing.T) {
	for s, want := range map[string]bool{
		"": true, "1": true, "2": true, "1:2": true, "1:2:2": true, "2:2:2": true,
		"3": false, "0": false, "1:": false, "1:2:2:2": false, "1:3": false, "12": false, "1::2": false,
	} {
		if got := cacheLevels(s); got != want {
			t.Errorf("cacheLevels(%q) = %v", s, got)
		}
	}
}
