package ngxparse

import "math"

// InetAddr is ngx_inet_addr: dotted decimal with exactly three dots,
// octets up to 255, leading zeros and empty octets ("1..2.3" is 1.0.2.3)
// allowed. Like nginx it refuses 255.255.255.255, which collides with
// INADDR_NONE; nginx then hands that text to the resolver.
func InetAddr(s string) (b [4]byte, ok bool) {
	var addr, octet uint32
	dots := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			octet = octet*10 + uint32(c-'0')
			if octet > 255 {
				return b, false
			}
		case c == '.':
			addr = addr<<8 + octet
			octet = 0
			dots++
		default:
			return b, false
		}
	}
	if dots != 3 {
		return b, false
	}
	addr = addr<<8 + octet
	if addr == math.MaxUint32 {
		return b, false
	}
	return [4]byte{byte(addr >> 24), byte(addr >> 16), byte(addr >> 8), byte(addr)}, true
}

// Inet6Addr is a line-by-line port of ngx_inet6_addr, quirks included:
// one leading ':' is skipped (":1:2:3:4:5:6:7:8" is accepted), a trailing
// ':' after a group following "::" counts as a zero group ("1::2:" is
// 1::2:0), and zone ids ("%eth0") are refused. The grammar path implements
// the same language differently, so fuzzing compares the two.
func Inet6Addr(p string) (addr [16]byte, ok bool) {
	if len(p) == 0 {
		return addr, false
	}
	var (
		zero    = -1 // index in addr where "::" was seen
		digit   = -1 // index in p just after the last ':'
		nibbles = 0
		word    = 0
		n       = 8 // 16-bit words still to fill
		a       = 0 // next index in addr
		i       = 0
	)
	if p[0] == ':' {
		i = 1
	}
loop:
	for ; i < len(p); i++ {
		c := p[i]
		if c == ':' {
			if nibbles > 0 {
				digit = i + 1
				addr[a], addr[a+1] = byte(word>>8), byte(word)
				a += 2
				n--
				if n != 0 {
					nibbles, word = 0, 0
					continue
				}
			} else if zero < 0 {
				digit = i + 1
				zero = a
				continue
			}
			return addr, false
		}
		if c == '.' && nibbles > 0 {
			if n < 2 || digit < 0 {
				return addr, false
			}
			b, ok := InetAddr(p[digit:])
			if !ok {
				return addr, false
			}
			addr[a], addr[a+1] = b[0], b[1]
			a += 2
			n--
			word = int(b[2])<<8 | int(b[3])
			break loop
		}
		if nibbles++; nibbles > 4 {
			return addr, false
		}
		switch {
		case c >= '0' && c <= '9':
			word = word*16 + int(c-'0')
		case (c|0x20) >= 'a' && (c|0x20) <= 'f':
			word = word*16 + int((c|0x20)-'a') + 10
		default:
			return addr, false
		}
	}
	if nibbles == 0 && zero < 0 {
		return addr, false
	}
	addr[a], addr[a+1] = byte(word>>8), byte(word)
	a += 2
	n--
	if n != 0 {
		if zero >= 0 {
			// Move the groups written after "::" to the end and zero the gap.
			copy(addr[zero+2*n:], addr[zero:a])
			clear(addr[zero : zero+2*n])
			return addr, true
		}
	} else if zero < 0 {
		return addr, true
	}
	return addr, false
}

// ParseAddr is ngx_parse_addr: an IPv4 (ngx_inet_addr) or IPv6
// (ngx_inet6_addr) literal, without port, brackets or zone.
func ParseAddr(s string) bool {
	if _, ok := InetAddr(s); ok {
		return true
	}
	_, ok := Inet6Addr(s)
	return ok
}

// ParseAddrPort is ngx_parse_addr_port: an address as ParseAddr, or one
// followed by ":port" (1 to 65535), the IPv6 one then in brackets
// ("[::1]:80"). portlessBrackets accepts an IPv6 address in brackets
// without a port ("[::1]"), as nginx does from 1.27.3 on.
func ParseAddrPort(s string, portlessBrackets bool) bool {
	if ParseAddr(s) {
		return true
	}
	var host string
	var port string
	if len(s) > 0 && s[0] == '[' {
		end := -1
		for i := 1; i < len(s); i++ {
			if s[i] == ']' {
				end = i
				break
			}
		}
		if end == len(s)-1 && portlessBrackets {
			return ParseAddr(s[1:end])
		}
		if end < 0 || end == len(s)-1 || s[end+1] != ':' {
			return false
		}
		host, port = s[1:end], s[end+2:]
	} else {
		i := 0
		for i < len(s) && s[i] != ':' {
			i++
		}
		if i == len(s) {
			return false
		}
		host, port = s[:i], s[i+1:]
	}
	n, ok := Atoi(port)
	if !ok || n < 1 || n > 65535 {
		return false
	}
	return ParseAddr(host)
}

// CIDR is what PtoCIDR makes of a word.
type CIDR int

const (
	// CIDRInvalid is a word ngx_ptocidr refuses (NGX_ERROR): nginx
	// reports it as an invalid parameter.
	CIDRInvalid CIDR = iota
	// CIDROK is an address, or a network whose host bits are zero.
	CIDROK
	// CIDRHostBits is a network with host bits set (NGX_DONE): nginx
	// clears them and warns that they are meaningless.
	CIDRHostBits
)

// PtoCIDR is ngx_ptocidr: an IPv4 or IPv6 address with an optional
// "/bits" mask, at most 32 or 128 bits.
func PtoCIDR(s string) CIDR {
	addr, mask, hasMask := s, "", false
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			addr, mask, hasMask = s[:i], s[i+1:], true
			break
		}
	}
	var bytes []byte
	if b, ok := InetAddr(addr); ok {
		bytes = b[:]
	} else if b, ok := Inet6Addr(addr); ok {
		bytes = b[:]
	} else {
		return CIDRInvalid
	}
	if !hasMask {
		return CIDROK
	}
	shift, ok := Atoi(mask)
	if !ok || shift > 8*len(bytes) {
		return CIDRInvalid
	}
	out := CIDROK
	for _, c := range bytes {
		s := min(shift, 8)
		shift -= s
		m := byte(0xff << (8 - s))
		if c&^m != 0 {
			out = CIDRHostBits
		}
	}
	return out
}
