package ipaddr

import (
	"net/netip"
	"testing"
)

// TestParse checks Parse against netip.ParseAddr on addresses and on
// names, including names made only of hex digits.
func TestParse(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "::1", "fe80::1%eth0", "::ffff:10.0.0.1", "1.2.3", "cafe", "backend",
		"app.internal", "", "localhost", "[::1]", "10.0.0.1:80", "FE80::A", "1.2.3.4%x", "dead:beef::g"} {
		want, err := netip.ParseAddr(s)
		got, ok := Parse(s)
		if ok != (err == nil) || got != want {
			t.Errorf("Parse(%q) = %v, %v; netip.ParseAddr: %v, %v", s, got, ok, want, err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Parse("backend") }); n != 0 {
		t.Errorf("Parse of a host name allocates %v times, want 0", n)
	}
}
