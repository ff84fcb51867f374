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
