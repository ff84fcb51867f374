// Package ngxparse holds nginx's parsers of numbers, sizes, times and
// addresses (ngx_atoi, ngx_parse_size, ngx_parse_offset, ngx_parse_time,
// ngx_inet_addr, ngx_inet6_addr, ngx_parse_addr, ngx_parse_addr_port and
// ngx_ptocidr), once, for the grammar, the value checks and the rules.
// Each reads a word exactly as nginx does, quirks included, on the 64-bit
// platforms nginx-lint targets (ngx_int_t, size_t and off_t are 64 bits,
// like Go's int).
package ngxparse

import "math"

// Atoi is ngx_atoi (and ngx_atosz, ngx_atoof, which differ only in the
// type): decimal digits only, no sign, no overflow past math.MaxInt.
func Atoi(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	const cutoff, cutlim = math.MaxInt / 10, math.MaxInt % 10
	var v int
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int(c - '0')
		if v >= cutoff && (v > cutoff || d > cutlim) {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// ParseSize is ngx_parse_size: a number with an optional k/K or m/M
// suffix.
func ParseSize(s string) (int, bool) {
	return parseScaled(s, false)
}

// ParseOffset is ngx_parse_offset: as ParseSize, also with g/G.
func ParseOffset(s string) (int, bool) {
	return parseScaled(s, true)
}

func parseScaled(s string, giga bool) (int, bool) {
	if s == "" {
		return 0, false
	}
	scale := int(1)
	switch s[len(s)-1] {
	case 'k', 'K':
		scale = 1 << 10
	case 'm', 'M':
		scale = 1 << 20
	case 'g', 'G':
		if giga {
			scale = 1 << 30
		}
	}
	if scale != 1 {
		s = s[:len(s)-1]
	}
	v, ok := Atoi(s)
	if !ok || v > math.MaxInt/scale {
		return 0, false
	}
	return v * scale, true
}

// ParseTime is ngx_parse_time: numbers with units y M w d h m s ms (no
// unit: seconds), the units in decreasing order, each at most once,
// separated by optional spaces. sec selects seconds (ngx_conf_set_sec_slot)
// over milliseconds (ngx_conf_set_msec_slot); a millisecond time accepts
// neither y nor M, and a seconds time not ms, exactly as nginx.
func ParseTime(s string, sec bool) (int, bool) {
	const (
		stStart = iota
		stYear
		stMonth
		stWeek
		stDay
		stHour
		stMin
		stSec
		stMsec
		stLast
	)
	step := stMonth
	if sec {
		step = stStart
	}
	var value, total int
	valid := false
	const cutoff, cutlim = math.MaxInt / 10, math.MaxInt % 10
	for i := 0; i < len(s); {
		c := s[i]
		if c >= '0' && c <= '9' {
			d := int(c - '0')
			if value >= cutoff && (value > cutoff || d > cutlim) {
				return 0, false
			}
			value = value*10 + d
			valid = true
			i++
			continue
		}
		i++
		var max, scale int
		switch c {
		case 'y':
			if step > stStart {
				return 0, false
			}
			step, max, scale = stYear, math.MaxInt/(60*60*24*365), 60*60*24*365
		case 'M':
			if step >= stMonth {
				return 0, false
			}
			step, max, scale = stMonth, math.MaxInt/(60*60*24*30), 60*60*24*30
		case 'w':
			if step >= stWeek {
				return 0, false
			}
			step, max, scale = stWeek, math.MaxInt/(60*60*24*7), 60*60*24*7
		case 'd':
			if step >= stDay {
				return 0, false
			}
			step, max, scale = stDay, math.MaxInt/(60*60*24), 60*60*24
		case 'h':
			if step >= stHour {
				return 0, false
			}
			step, max, scale = stHour, math.MaxInt/(60*60), 60*60
		case 'm':
			if i < len(s) && s[i] == 's' {
				if sec || step >= stMsec {
					return 0, false
				}
				i++
				step, max, scale = stMsec, math.MaxInt, 1
				break
			}
			if step >= stMin {
				return 0, false
			}
			step, max, scale = stMin, math.MaxInt/60, 60
		case 's':
			if step >= stSec {
				return 0, false
			}
			step, max, scale = stSec, math.MaxInt, 1
		case ' ':
			if step >= stSec {
				return 0, false
			}
			step, max, scale = stLast, math.MaxInt, 1
		default:
			return 0, false
		}
		if step != stMsec && !sec {
			scale *= 1000
			max /= 1000
		}
		if value > max {
			return 0, false
		}
		value *= scale
		if total > math.MaxInt-value {
			return 0, false
		}
		total += value
		value = 0
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	if !valid {
		return 0, false
	}
	if !sec {
		if value > math.MaxInt/1000 {
			return 0, false
		}
		value *= 1000
	}
	if total > math.MaxInt-value {
		return 0, false
	}
	return total + value, true
}
