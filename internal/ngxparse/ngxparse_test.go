package ngxparse

import "testing"

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
