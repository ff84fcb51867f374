package directives

import "strings"

// ValueKind is the generic nginx set handler a directive's ngx_command_t
// entry names, which fixes what its arguments may be. The generator reads
// it from the C sources; a directive whose handler is any other function
// (even one that calls a generic handler) has no ValueSpec.
type ValueKind uint8

// Value kinds, one per generic handler of ngx_conf_file.c and ngx_file.c.
const (
	// ValueCustom is the zero kind: a directive-specific handler.
	ValueCustom ValueKind = iota
	// ValueFlag is ngx_conf_set_flag_slot: "on" or "off", any case.
	ValueFlag
	// ValueStr is ngx_conf_set_str_slot: any string.
	ValueStr
	// ValueStrArray is ngx_conf_set_str_array_slot: any string, repeatable.
	ValueStrArray
	// ValueKeyval is ngx_conf_set_keyval_slot: two strings.
	ValueKeyval
	// ValueNum is ngx_conf_set_num_slot: a decimal number (ngx_atoi).
	ValueNum
	// ValueSize is ngx_conf_set_size_slot: a size with an optional k or m
	// suffix (ngx_parse_size).
	ValueSize
	// ValueOff is ngx_conf_set_off_slot: a size with an optional k, m or g
	// suffix (ngx_parse_offset).
	ValueOff
	// ValueMsec is ngx_conf_set_msec_slot: a time, in milliseconds
	// (ngx_parse_time(s, 0)).
	ValueMsec
	// ValueSec is ngx_conf_set_sec_slot: a time, in seconds
	// (ngx_parse_time(s, 1)).
	ValueSec
	// ValueBufs is ngx_conf_set_bufs_slot: a positive number and a
	// positive size.
	ValueBufs
	// ValueEnum is ngx_conf_set_enum_slot: one of Values, any case.
	ValueEnum
	// ValueBitmask is ngx_conf_set_bitmask_slot: each argument one of
	// Values, any case.
	ValueBitmask
	// ValuePath is ngx_conf_set_path_slot: a path and up to three
	// directory levels whose digits sum to at most 10.
	ValuePath
	// ValueAccess is ngx_conf_set_access_slot: user:, group: or all:
	// followed by r or rw.
	ValueAccess
)

var valueKindNames = [...]string{"custom", "flag", "str", "str_array", "keyval", "num", "size", "off", "msec", "sec", "bufs", "enum", "bitmask", "path", "access"}

// String returns the handler's short name ("size" for
// ngx_conf_set_size_slot), "custom" for ValueCustom.
func (k ValueKind) String() string {
	if int(k) < len(valueKindNames) {
		return valueKindNames[k]
	}
	return "custom"
}

// ValueSpec is the typed argument schema of a directive whose handler is
// generic: what nginx accepts as its value. It is shared by the tables;
// do not modify it.
type ValueSpec struct {
	// Kind is the generic handler.
	Kind ValueKind
	// Since is the first nginx release from which the directive has had
	// this handler, when it had another one (or none) in an earlier
	// release the generator scanned; "" when it always had it. Earlier
	// releases may accept other values.
	Since string
	// Values are the names of an enum's or bitmask's value table, in
	// source order (nginx compares them case-insensitively).
	Values []string
	// ValuesSince is parallel to Values: the first nginx release that
	// accepts each value, "" for as long as the handler itself. Nil when
	// every value is as old as the handler.
	ValuesSince []string
	// Low and High bound a number when Bounded (ngx_conf_check_num_bounds);
	// High -1 means no upper bound.
	Low, High int64
	Bounded   bool
	// Post names any other post handler of the directive (a function
	// name from the source, or "deprecated"); value checks that depend
	// on it are up to the checker.
	Post string
	// Older is the generic handler the directive had in the releases
	// before Since, when it had one: proxy_limit_rate was a size until
	// 1.27.0, when it learnt variables (its spec is then of kind
	// ValueCustom, with Since and Older only).
	Older *ValueSpec
}

// For returns the spec that holds in nginx version ("" for the newest):
// s itself, or an Older one, or nil when the version predates every
// handler the tables know (nothing can then be said of its values).
func (s *ValueSpec) For(version string) *ValueSpec {
	for s != nil && version != "" && s.Since != "" && CompareVersions(version, s.Since) < 0 {
		s = s.Older
	}
	return s
}

// CompareVersions compares dotted release numbers ("1.25.1"), returning
// -1, 0 or 1; a missing or non-numeric part counts as 0.
func CompareVersions(a, b string) int {
	for a != "" || b != "" {
		var x, y string
		x, a, _ = strings.Cut(a, ".")
		y, b, _ = strings.Cut(b, ".")
		xn, yn := atoiPrefix(x), atoiPrefix(y)
		if xn != yn {
			if xn < yn {
				return -1
			}
			return 1
		}
	}
	return 0
}

func atoiPrefix(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9' && n < 1<<40; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// ValueSince returns the first nginx release that accepts the enum or
// bitmask value v (compared as nginx does, ignoring case), "" when it is
// as old as the handler, and false when v is not a value at all.
func (s *ValueSpec) ValueSince(v string) (since string, ok bool) {
	for i, name := range s.Values {
		if len(name) == len(v) && EqualFoldASCII(name, v) {
			if s.ValuesSince != nil {
				return s.ValuesSince[i], true
			}
			return "", true
		}
	}
	return "", false
}

// EqualFoldASCII is ngx_strcasecmp's equality: ASCII letters only.
func EqualFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
