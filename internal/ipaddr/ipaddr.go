// Package ipaddr reads IP address literals in words that are more often
// host names.
package ipaddr

import "net/netip"

// Parse is netip.ParseAddr for a word that is often a host name
// ("backend", "app.internal"): a word with a character no address
// literal has before its zone is refused at once, without the error value
// ParseAddr allocates (the rules ask this of every proxy_pass of a
// configuration).
func Parse(s string) (netip.Addr, bool) {
	for i := 0; i < len(s) && s[i] != '%'; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.') {
			return netip.Addr{}, false
		}
	}
	a, err := netip.ParseAddr(s)
	return a, err == nil
}
