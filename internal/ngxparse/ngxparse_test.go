package ngxparse

import (
	"fmt"
	"strings"
	"testing"
)

// The cases follow ngx_ptocidr and ngx_parse_addr_port in
// src/core/ngx_inet.c; the analyzer's handler differential checks them
// against the real nginx.
func TestPtoCIDR(t *testing.T) {
	for s, want := range map[string]CIDR{
		"10.0.0.0/8": CIDROK, "10.0.0.1": CIDROK, "10.0.0.0/32": CIDROK, "0.0.0.0/0": CIDROK,
		"10.0.0.1/8": CIDRHostBits, "10.0.0.0/33": CIDRInvalid, "10.0.0.0/": CIDRInvalid,
		"10.0.0/8": CIDRInvalid, "::/0": CIDROK, "2001:db8::/32": CIDROK, "2001:db8::1/32": CIDRHostBits,
		"::1/129": CIDRInvalid, "all": CIDRInvalid, "10.0.0.0/-1": CIDRInvalid, "1.2.3.4/0": CIDRHostBits,
	} {
		if got := PtoCIDR(s); got != want {
			t.Errorf("PtoCIDR(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestParseAddrPort(t *testing.T) {
	for s, want := range map[string]bool{
		"127.0.0.1": true, "127.0.0.1:80": true, "::1": true, "[::1]:80": true, "[::1]": false,
		"127.0.0.1:0": false, "127.0.0.1:65536": false, "localhost": false, "localhost:80": false,
		"1.2.3.4:x": false, "[::1]80": false, "": false, "255.255.255.255": false,
	} {
		if got := ParseAddrPort(s, false); got != want {
			t.Errorf("ParseAddrPort(%q) = %v, want %v", s, got, want)
		}
	}
	if !ParseAddrPort("[::1]", true) || ParseAddrPort("[::1", true) || ParseAddrPort("[localhost]", true) {
		t.Error("ParseAddrPort: an IPv6 address in brackets without a port, from 1.27.3")
	}
}

func TestTimeAndSize(t *testing.T) {
	for _, c := range []struct {
		s    string
		sec  bool
		want int
		ok   bool
	}{
		{"65", false, 65000, true}, {"65x", false, 0, false}, {"1m30s", true, 90, true},
		{"500ms", true, 0, false}, {"500ms", false, 500, true}, {"1y", false, 0, false}, {"1y", true, 365 * 86400, true},
	} {
		if got, ok := ParseTime(c.s, c.sec); got != c.want || ok != c.ok {
			t.Errorf("ParseTime(%q, %v) = %d, %v; want %d, %v", c.s, c.sec, got, ok, c.want, c.ok)
		}
	}
	if n, ok := ParseSize("16k"); !ok || n != 16384 {
		t.Errorf("ParseSize(16k) = %d, %v", n, ok)
	}
	if _, ok := ParseSize("2g"); ok {
		t.Error("ParseSize(2g) accepted")
	}
	if n, ok := ParseOffset("2g"); !ok || n != 2<<30 {
		t.Errorf("ParseOffset(2g) = %d, %v", n, ok)
	}
}

// TestParseURL follows ngx_parse_url (src/core/ngx_inet.c) for the
// addresses of upstream servers, *_pass and resolvers.
func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		url     string
		uriPart bool
		defPort int
		want    URL
	}{
		{"127.0.0.1:8080", false, 0, URL{Host: "127.0.0.1", Port: 8080, Addr: true}},
		{"backend", false, 0, URL{Host: "backend", NoPort: true}},
		{"backend", true, 80, URL{Host: "backend", Port: 80, NoPort: true}},
		{"backend/x", true, 80, URL{Host: "backend", Port: 80, NoPort: true, URI: "/x"}},
		{"backend?a=1", true, 80, URL{Host: "backend", Port: 80, NoPort: true, URI: "?a=1"}},
		{"backend/a:b", true, 80, URL{Host: "backend", Port: 80, NoPort: true, URI: "/a:b"}},
		{"backend/x", false, 0, URL{Err: "invalid host"}},
		{"backend:0", false, 0, URL{Err: "invalid port"}},
		{"backend:65536", false, 0, URL{Err: "invalid port"}},
		{"backend:", false, 0, URL{Err: "invalid port"}},
		{":80", false, 0, URL{Err: "no host"}},
		{"[::1]:9000", false, 0, URL{Host: "[::1]", Port: 9000, Addr: true}},
		{"[::1]", false, 0, URL{Host: "[::1]", NoPort: true, Addr: true}},
		{"[::1", false, 0, URL{Err: "invalid host"}},
		{"[::1]x", false, 0, URL{Err: "invalid host"}},
		{"[]:80", false, 0, URL{Err: "no host"}},
		{"[fe80::1%eth0]:80", false, 0, URL{Err: "invalid IPv6 address"}},
		{"[::1]:80/x", true, 0, URL{Host: "[::1]", Port: 80, URI: "/x", Addr: true}},
		{"unix:/run/a.sock", false, 0, URL{Host: "/run/a.sock", Unix: true}},
		{"UNIX:/run/a.sock:/uri", true, 0, URL{Host: "/run/a.sock", URI: "/uri", Unix: true}},
		{"unix:", false, 0, URL{Unix: true, Err: "no path in the unix domain socket"}},
		{"unix:/" + strings.Repeat("a", 107), false, 0, URL{Unix: true, Host: "/" + strings.Repeat("a", 107), Err: "too long path in the unix domain socket"}},
	} {
		got := ParseURL(tc.url, tc.uriPart, tc.defPort)
		if tc.want.Err != "" {
			// Only the error counts once there is one.
			got = URL{Err: got.Err, Unix: tc.want.Unix && got.Unix, Host: tc.want.Host}
		}
		if got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.url, got, tc.want)
		}
	}
}

// TestParsePass: each *_pass handler strips its own schemes and gives
// ngx_parse_url its own options (ngx_http_proxy_pass and friends).
func TestParsePass(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream bool
		arg    string
		want   string // scheme|address|host:port|uri (vars: and varscheme: before it with Vars), prefix, err:..., none
	}{
		{"proxy_pass", false, "http://backend", "http://|backend|backend:80|"},
		{"proxy_pass", false, "HTTPS://Backend:8443/x?y", "https://|Backend:8443/x?y|Backend:8443|/x?y"},
		{"proxy_pass", false, "backend", "prefix"},
		// With variables, the split the written text decides (the port
		// only when written in digits; the default of the scheme).
		{"proxy_pass", false, "$scheme://$host", "vars:varscheme:|$host|$host:0|"},
		{"proxy_pass", false, "$http_proxy_scheme://some/file.conf", "vars:varscheme:|some/file.conf|some:0|/file.conf"},
		{"proxy_pass", false, "http://$host/x", "vars:http://|$host/x|$host:80|/x"},
		{"proxy_pass", false, "https://$host:8443$request_uri", "vars:https://|$host:8443$request_uri|$host:0|"},
		{"proxy_pass", false, "https://b.example.com:8443/$1?a=$2", "vars:https://|b.example.com:8443/$1?a=$2|b.example.com:8443|/$1?a=$2"},
		{"proxy_pass", false, "$backend/api", "vars:|$backend/api|$backend:0|/api"},
		{"proxy_pass", false, "$backend", "vars:|$backend|$backend:0|"},
		{"proxy_pass", false, "http://unix:/run/$app.sock:/x", "vars:http://|unix:/run/$app.sock:/x|/run/$app.sock:0|/x"},
		{"proxy_pass", false, "http://[::1]:$port/$uri", "vars:http://|[::1]:$port/$uri|[::1]:0|/$uri"},
		{"grpc_pass", false, "grpcs://$host:50051", "vars:grpcs://|$host:50051|$host:50051|"},
		{"grpc_pass", false, "$scheme://$host:50051", "vars:varscheme:|$host:50051|$host:50051|"},
		{"fastcgi_pass", false, "unix:/run/php/$arg_v.sock", "vars:|unix:/run/php/$arg_v.sock|/run/php/$arg_v.sock:0|"},
		{"scgi_pass", false, "127.0.0.1:$arg_port", "vars:|127.0.0.1:$arg_port|127.0.0.1:0|"},
		{"proxy_pass", true, "$upstream:8090", "vars:|$upstream:8090|$upstream:8090|"},
		{"proxy_pass", true, "backend:9000", "|backend:9000|backend:9000|"},
		{"proxy_pass", true, "http://backend", "err:invalid host"},
		{"grpc_pass", false, "grpcs://backend:50051", "grpcs://|backend:50051|backend:50051|"},
		{"grpc_pass", false, "backend", "|backend|backend:0|"},
		{"grpc_pass", false, "backend/x", "err:invalid host"},
		{"uwsgi_pass", false, "suwsgi://unix:/run/u.sock", "suwsgi://|unix:/run/u.sock|/run/u.sock:0|"},
		{"fastcgi_pass", false, "127.0.0.1:9000", "|127.0.0.1:9000|127.0.0.1:9000|"},
		{"fastcgi_pass", false, "http://127.0.0.1:9000", "err:invalid host"},
		// memcached_pass takes no variables: "$" is part of the host.
		{"memcached_pass", false, "$memcached:11211", "|$memcached:11211|$memcached:11211|"},
		{"memc_pass", false, "$backend", "vars:|$backend|$backend:0|"},
		{"memc_pass", false, "127.0.0.1:11211", "|127.0.0.1:11211|127.0.0.1:11211|"},
		{"scgi_pass", true, "x", "none"},
		{"root", false, "x", "none"},
	} {
		p, ok := ParsePass(tc.name, tc.stream, tc.arg)
		var got string
		switch {
		case !ok:
			got = "none"
		case p.BadPrefix:
			got = "prefix"
		case p.Vars:
			vs := ""
			if p.VarScheme {
				vs = "varscheme:"
			}
			got = fmt.Sprintf("vars:%s%s|%s|%s:%d|%s", vs, p.Scheme, p.Address, p.Host, p.Port, p.URI)
		case p.Err != "":
			got = "err:" + p.Err
		default:
			got = fmt.Sprintf("%s|%s|%s:%d|%s", p.Scheme, p.Address, p.Host, p.Port, p.URI)
		}
		if got != tc.want {
			t.Errorf("%s %q (stream %v): %s, want %s", tc.name, tc.arg, tc.stream, got, tc.want)
		}
	}
}
