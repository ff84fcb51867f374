package valuecheck

import (
	"math"
	"strconv"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

func TestAtoi(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"007", 7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", 0, false},
		{"", 0, false}, {"-1", 0, false}, {"+1", 0, false}, {"1 ", 0, false}, {"1k", 0, false}, {"$x", 0, false},
	} {
		got, ok := Atoi(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Atoi(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in       string
		size     int64
		sizeOK   bool
		offset   int64
		offsetOK bool
	}{
		{"512", 512, true, 512, true},
		{"16k", 16 << 10, true, 16 << 10, true},
		{"16K", 16 << 10, true, 16 << 10, true},
		{"1m", 1 << 20, true, 1 << 20, true},
		{"1M", 1 << 20, true, 1 << 20, true},
		{"2g", 0, false, 2 << 30, true},
		{"2G", 0, false, 2 << 30, true},
		{"10mb", 0, false, 0, false},
		{"k", 0, false, 0, false},
		{"", 0, false, 0, false},
		{"1.5m", 0, false, 0, false},
		{"-1", 0, false, 0, false},
		{"$size", 0, false, 0, false},
		// Overflow after scaling, as in nginx's max check.
		{"9007199254740991k", 9007199254740991 << 10, true, 9007199254740991 << 10, true},
		{"9007199254740992k", 0, false, 0, false},
		{strconv.FormatInt(math.MaxInt64/(1<<30)+1, 10) + "g", 0, false, 0, false},
	} {
		if got, ok := ParseSize(tt.in); got != tt.size || ok != tt.sizeOK {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.size, tt.sizeOK)
		}
		if got, ok := ParseOffset(tt.in); got != tt.offset || ok != tt.offsetOK {
			t.Errorf("ParseOffset(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.offset, tt.offsetOK)
		}
	}
}

func TestParseTime(t *testing.T) {
	const day = 24 * 3600
	for _, tt := range []struct {
		in     string
		msec   int64
		msecOK bool
		sec    int64
		secOK  bool
	}{
		{"10", 10000, true, 10, true},
		{"10s", 10000, true, 10, true},
		{"500ms", 500, true, 0, false},
		{"1m30s", 90000, true, 90, true},
		{"1h 30m", 5400000, true, 5400, true},
		{"1h  30m  ", 5400000, true, 5400, true},
		{"1d", day * 1000, true, day, true},
		{"2w", 14 * day * 1000, true, 14 * day, true},
		{"1M", 0, false, 30 * day, true},
		{"1y", 0, false, 365 * day, true},
		{"1y1M1w1d1h1m1s", 0, false, 365*day + 30*day + 7*day + day + 3600 + 60 + 1, true},
		{"1s500ms", 1500, true, 0, false},
		{"1m1h", 0, false, 0, false}, // decreasing order only
		{"1s1s", 0, false, 0, false}, // each unit once
		{"1h 1", 3601000, true, 3601, true},
		{"1s 1", 2000, true, 2, true}, // spaces after a unit are skipped
		{"1 2 3", 0, false, 0, false}, // a second bare number with a unit-space
		{"30S", 0, false, 0, false},
		{"", 0, false, 0, false},
		{"s", 0, false, 0, false},
		{"ms", 0, false, 0, false},
		{"1x", 0, false, 0, false},
		{"$t", 0, false, 0, false},
		{"-1", 0, false, 0, false},
		{"9223372036854775807", 0, false, math.MaxInt64, true},
		{"9223372036854775", 9223372036854775000, true, 9223372036854775, true},
		{"9223372036854776", 0, false, 9223372036854776, true},
		{"99999999999999999999", 0, false, 0, false},
	} {
		if got, ok := ParseTime(tt.in, false); got != tt.msec || ok != tt.msecOK {
			t.Errorf("ParseTime(%q, ms) = %d, %v; want %d, %v", tt.in, got, ok, tt.msec, tt.msecOK)
		}
		if got, ok := ParseTime(tt.in, true); got != tt.sec || ok != tt.secOK {
			t.Errorf("ParseTime(%q, sec) = %d, %v; want %d, %v", tt.in, got, ok, tt.sec, tt.secOK)
		}
	}
}

func TestCheck(t *testing.T) {
	tokens := &directives.ValueSpec{Kind: directives.ValueEnum, Values: []string{"off", "on", "build"}, ValuesSince: []string{"", "", "1.21.1"}}
	next := &directives.ValueSpec{Kind: directives.ValueBitmask, Values: []string{"error", "timeout", "http_429"}, ValuesSince: []string{"", "", "1.11.13"}}
	newKind := &directives.ValueSpec{Kind: directives.ValueEnum, Since: "1.31.4", Values: []string{"off", "on", "v2"}}
	rate := &directives.ValueSpec{Since: "1.27.0", Older: &directives.ValueSpec{Kind: directives.ValueSize, Since: "1.7.7"}}
	for _, tt := range []struct {
		name    string
		spec    *directives.ValueSpec
		args    []string
		version string
		msg     string
		arg     int
		detail  string
	}{
		{"gzip", &directives.ValueSpec{Kind: directives.ValueFlag}, []string{"ON"}, "", "", 0, ""},
		{"gzip", &directives.ValueSpec{Kind: directives.ValueFlag}, []string{"yes"}, "", `invalid value "yes" in "gzip" directive, it must be "on" or "off"`, 0, ""},
		{"x", &directives.ValueSpec{Kind: directives.ValueNum}, []string{"1k"}, "", `"x" directive invalid number`, 0, ""},
		{"gzip_comp_level", &directives.ValueSpec{Kind: directives.ValueNum, Low: 1, High: 9, Bounded: true}, []string{"0"}, "", "value must be between 1 and 9", 0, ""},
		{"y", &directives.ValueSpec{Kind: directives.ValueNum, Low: 1, High: -1, Bounded: true}, []string{"0"}, "", "value must be equal to or greater than 1", 0, ""},
		{"y", &directives.ValueSpec{Kind: directives.ValueNum, Low: 1, High: -1, Bounded: true}, []string{"99999"}, "", "", 0, ""},
		{"s", &directives.ValueSpec{Kind: directives.ValueSize}, []string{"1g"}, "", `"s" directive invalid value`, 0, ""},
		{"o", &directives.ValueSpec{Kind: directives.ValueOff}, []string{"1g"}, "", "", 0, ""},
		{"t", &directives.ValueSpec{Kind: directives.ValueMsec}, []string{"1y"}, "", `"t" directive invalid value`, 0, ""},
		{"t", &directives.ValueSpec{Kind: directives.ValueSec}, []string{"1y"}, "", "", 0, ""},
		{"b", &directives.ValueSpec{Kind: directives.ValueBufs}, []string{"8", "0"}, "", `"b" directive invalid value`, 1, ""},
		{"b", &directives.ValueSpec{Kind: directives.ValueBufs}, []string{"8", "4k"}, "", "", 0, ""},
		{"server_tokens", tokens, []string{"Build"}, "", "", 0, ""},
		{"server_tokens", tokens, []string{"maybe"}, "", `invalid value "maybe"`, 0, `it must be "off", "on" or "build" (since 1.21.1)`},
		{"server_tokens", tokens, []string{"build"}, "1.20.2", `invalid value "build"`, 0, `nginx accepts "build" from 1.21.1 on; nginx 1.20.2: it must be "off" or "on"`},
		{"server_tokens", tokens, []string{"build"}, "1.21.1", "", 0, ""},
		{"proxy_next_upstream", next, []string{"error", "nope", "bad"}, "", `invalid value "nope"`, 1, ""},
		{"proxy_next_upstream", next, []string{"ERROR", "http_429"}, "1.10.3", `invalid value "http_429"`, 1, ""},
		// The handler itself is newer than the target: not checked.
		{"proxy_protocol", newKind, []string{"on"}, "1.22.1", "", 0, ""},
		{"proxy_protocol", newKind, []string{"v3"}, "1.22.1", "", 0, ""},
		{"proxy_protocol", newKind, []string{"v3"}, "", `invalid value "v3"`, 0, ""},
		{"p", &directives.ValueSpec{Kind: directives.ValuePath}, []string{"/x", "1", "2", "2"}, "", "", 0, ""},
		{"p", &directives.ValueSpec{Kind: directives.ValuePath}, []string{"/x", "1", "0"}, "", `"p" directive invalid value`, 2, ""},
		{"p", &directives.ValueSpec{Kind: directives.ValuePath}, []string{"/x", "5", "6"}, "", `"p" directive invalid value`, 2, ""},
		{"a", &directives.ValueSpec{Kind: directives.ValueAccess}, []string{"user:rw", "All:r"}, "", `invalid value "All:r"`, 1, ""},
		{"a", &directives.ValueSpec{Kind: directives.ValueAccess}, []string{"group:rw"}, "", "", 0, ""},
		{"request_pool_size", &directives.ValueSpec{Kind: directives.ValueSize, Post: "ngx_http_core_pool_size"}, []string{"96"}, "", "the pool size must be no less than 112", 0, ""},
		{"request_pool_size", &directives.ValueSpec{Kind: directives.ValueSize, Post: "ngx_http_core_pool_size"}, []string{"4k"}, "", "", 0, ""},
		{"gzip_hash", &directives.ValueSpec{Kind: directives.ValueSize, Post: "ngx_http_gzip_hash"}, []string{"256"}, "", `"gzip_hash" directive must be 512, 1k, 2k, 4k, 8k, 16k, 32k, 64k, or 128k`, 0, ""},
		{"gzip_hash", &directives.ValueSpec{Kind: directives.ValueSize, Post: "ngx_http_gzip_hash"}, []string{"128k"}, "", "", 0, ""},
		{"http2_streams_index_size", &directives.ValueSpec{Kind: directives.ValueNum, Post: "ngx_http_v2_streams_index_mask"}, []string{"30"}, "", `"http2_streams_index_size" directive must be a power of two`, 0, ""},
		{"str", &directives.ValueSpec{Kind: directives.ValueStr}, []string{"$anything"}, "", "", 0, ""},
		// A size until 1.27.0, then a handler of its own (variables).
		{"proxy_limit_rate", rate, []string{"$rate"}, "", "", 0, ""},
		{"proxy_limit_rate", rate, []string{"$rate"}, "1.22.1", `"proxy_limit_rate" directive invalid value`, 0, ""},
		{"proxy_limit_rate", rate, []string{"1m"}, "1.22.1", "", 0, ""},
		{"proxy_limit_rate", rate, []string{"$rate"}, "1.7.0", "", 0, ""},
		{"none", nil, []string{"x"}, "", "", 0, ""},
	} {
		err := Check(tt.name, tt.spec, tt.args, tt.version)
		switch {
		case tt.msg == "" && err != nil:
			t.Errorf("%s %q (nginx %q): unexpected %q", tt.name, tt.args, tt.version, err.Message)
		case tt.msg != "" && err == nil:
			t.Errorf("%s %q (nginx %q): no error, want %q", tt.name, tt.args, tt.version, tt.msg)
		case err != nil && (err.Message != tt.msg || err.Arg != tt.arg || tt.detail != "" && err.Detail != tt.detail):
			t.Errorf("%s %q (nginx %q): %q at %d (%s), want %q at %d (%s)", tt.name, tt.args, tt.version, err.Message, err.Arg, err.Detail, tt.msg, tt.arg, tt.detail)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"1.22.1", "1.22.1", 0}, {"1.22.1", "1.29.4", -1}, {"1.9.13", "1.22.0", -1}, {"1.22", "1.22.0", 0}, {"2.0.0", "1.99.99", 1},
	} {
		if got := directives.CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func FuzzCheck(f *testing.F) {
	f.Add("1h30m", "16k")
	f.Add("", "9999999999999999999999m")
	specs := []*directives.ValueSpec{
		{Kind: directives.ValueNum}, {Kind: directives.ValueSize}, {Kind: directives.ValueOff}, {Kind: directives.ValueMsec},
		{Kind: directives.ValueSec}, {Kind: directives.ValueBufs}, {Kind: directives.ValuePath}, {Kind: directives.ValueAccess},
		{Kind: directives.ValueEnum, Values: []string{"a"}}, {Kind: directives.ValueBitmask, Values: []string{"a"}},
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, s := range specs {
			Check("x", s, []string{a, b}, "")
			Check("x", s, []string{a}, "1.0")
		}
	})
}
