// Package valuecheck parses directive arguments exactly as nginx's
// generic set handlers do (ngx_conf_set_*_slot with ngx_atoi,
// ngx_parse_size, ngx_parse_offset and ngx_parse_time), so that a linter
// can report the value errors `nginx -t` reports, with nginx's own
// messages.
//
// The parsers work on the argument as nginx receives it: generic handlers
// never expand variables, so "$x" is just an invalid size or time.
package valuecheck

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
)

// Atoi is ngx_atoi (and ngx_atosz, ngx_atoof, which differ only in the
// type): decimal digits only, no sign, no overflow past NGX_MAX_INT_T_VALUE.
func Atoi(s string) (int64, bool) {
	n, ok := ngxparse.Atoi(s)
	return int64(n), ok
}

// ParseSize is ngx_parse_size: a number with an optional k/K or m/M
// suffix.
func ParseSize(s string) (int64, bool) {
	n, ok := ngxparse.ParseSize(s)
	return int64(n), ok
}

// ParseOffset is ngx_parse_offset: as ParseSize, also with g/G.
func ParseOffset(s string) (int64, bool) {
	n, ok := ngxparse.ParseOffset(s)
	return int64(n), ok
}

// ParseTime is ngx_parse_time (ngxparse.ParseTime): sec selects seconds
// (ngx_conf_set_sec_slot) over milliseconds (ngx_conf_set_msec_slot).
func ParseTime(s string, sec bool) (int64, bool) {
	n, ok := ngxparse.ParseTime(s, sec)
	return int64(n), ok
}

// EqualFold is ngx_strcasecmp's equality (ASCII letters only).
func EqualFold(a, b string) bool { return directives.EqualFoldASCII(a, b) }

// Error is a value nginx rejects.
type Error struct {
	// Arg is the index of the offending argument (0 is the first after
	// the directive name).
	Arg int
	// Message is nginx's message, without the " in FILE:LINE" nginx
	// appends.
	Message string
	// Detail says what nginx accepts.
	Detail string
}

// Check returns the error nginx reports for directive name with the
// given arguments when its handler is spec, or nil when nginx accepts
// them. version is the targeted nginx release ("" for the newest): the
// handler that held in that release is used (spec.For), a value added
// later is rejected, and a directive whose handler in that release is
// not known is not checked. The argument count is not checked (that is
// the argument-count rule's job); missing arguments are not an error
// here.
func Check(name string, spec *directives.ValueSpec, args []string, version string) *Error {
	spec = spec.For(version)
	if spec == nil || len(args) == 0 {
		return nil
	}
	invalid := func(arg int, detail string) *Error {
		return &Error{Arg: arg, Message: fmt.Sprintf("%q directive invalid value", name), Detail: detail}
	}
	switch spec.Kind {
	case directives.ValueFlag:
		if !EqualFold(args[0], "on") && !EqualFold(args[0], "off") {
			return &Error{Message: fmt.Sprintf("invalid value %q in %q directive, it must be \"on\" or \"off\"", args[0], name)}
		}
	case directives.ValueNum:
		n, ok := Atoi(args[0])
		if !ok {
			return &Error{Message: fmt.Sprintf("%q directive invalid number", name), Detail: "a number is decimal digits only, without sign or unit"}
		}
		if spec.Bounded {
			if spec.High == -1 && n < spec.Low {
				return &Error{Message: fmt.Sprintf("value must be equal to or greater than %d", spec.Low)}
			}
			if spec.High != -1 && (n < spec.Low || n > spec.High) {
				return &Error{Message: fmt.Sprintf("value must be between %d and %d", spec.Low, spec.High)}
			}
		}
		return checkPost(name, spec.Post, n)
	case directives.ValueSize:
		n, ok := ParseSize(args[0])
		if !ok {
			return invalid(0, "a size is a number with an optional k or m suffix (512, 16k, 1m)")
		}
		return checkPost(name, spec.Post, n)
	case directives.ValueOff:
		if _, ok := ParseOffset(args[0]); !ok {
			return invalid(0, "a size is a number with an optional k, m or g suffix (512, 16k, 1m, 2g)")
		}
	case directives.ValueMsec:
		if _, ok := ParseTime(args[0], false); !ok {
			return invalid(0, "a time is numbers with units in decreasing order, each once: w d h m s ms (no unit: seconds), as 1m30s or 500ms")
		}
	case directives.ValueSec:
		if _, ok := ParseTime(args[0], true); !ok {
			return invalid(0, "a time is numbers with units in decreasing order, each once: y M w d h m s (no unit: seconds), as 1h30m")
		}
	case directives.ValueBufs:
		if len(args) < 2 {
			return nil
		}
		if n, ok := Atoi(args[0]); !ok || n == 0 {
			return invalid(0, "the number of buffers must be a positive number")
		}
		if n, ok := ParseSize(args[1]); !ok || n == 0 {
			return invalid(1, "the buffer size must be a positive size (4k, 8k)")
		}
	case directives.ValueEnum:
		return checkValue(spec, args[0], 0, version)
	case directives.ValueBitmask:
		for i, a := range args {
			if err := checkValue(spec, a, i, version); err != nil {
				return err
			}
		}
	case directives.ValuePath:
		total := 0
		for i, a := range args[1:] {
			level, ok := Atoi(a)
			if !ok || level == 0 {
				return invalid(i+1, "each directory level is a positive number of characters")
			}
			if level > 10 {
				return invalid(i+1, "the levels may have at most 10 characters in all")
			}
			total += int(level) + 1
		}
		if total > 10+len(args)-1 {
			return invalid(len(args)-1, "the levels may have at most 10 characters in all")
		}
	case directives.ValueAccess:
		for i, a := range args {
			var rest string
			var ok bool
			for _, p := range []string{"user:", "group:", "all:"} {
				if rest, ok = strings.CutPrefix(a, p); ok {
					break
				}
			}
			if !ok || (rest != "rw" && rest != "r") {
				return &Error{Arg: i, Message: fmt.Sprintf("invalid value %q", a), Detail: "each permission is user:, group: or all: followed by r or rw"}
			}
		}
	}
	return nil
}

// checkValue checks one enum or bitmask value.
func checkValue(spec *directives.ValueSpec, v string, arg int, version string) *Error {
	since, ok := spec.ValueSince(v)
	if ok && (version == "" || since == "" || directives.CompareVersions(version, since) >= 0) {
		return nil
	}
	e := &Error{Arg: arg, Message: fmt.Sprintf("invalid value %q", v), Detail: "it must be " + valueList(spec, version)}
	if ok {
		e.Detail = fmt.Sprintf("nginx accepts %q from %s on; nginx %s: it must be %s", v, since, version, valueList(spec, version))
	}
	return e
}

// valueList lists the values the targeted nginx accepts; without a
// version, every value, with the release that added it when that is
// later than the handler.
func valueList(spec *directives.ValueSpec, version string) string {
	var vals []string
	for i, v := range spec.Values {
		since := ""
		if spec.ValuesSince != nil {
			since = spec.ValuesSince[i]
		}
		switch {
		case since == "":
			vals = append(vals, fmt.Sprintf("%q", v))
		case version == "":
			vals = append(vals, fmt.Sprintf("%q (since %s)", v, since))
		case directives.CompareVersions(version, since) >= 0:
			vals = append(vals, fmt.Sprintf("%q", v))
		}
	}
	switch len(vals) {
	case 0:
		return "none"
	case 1:
		return vals[0]
	}
	sep := " or "
	if spec.Kind == directives.ValueBitmask {
		sep = " and/or "
	}
	return strings.Join(vals[:len(vals)-1], ", ") + sep + vals[len(vals)-1]
}

// checkPost applies the post handlers of the generic handlers that bound
// a parsed number, as nginx 64-bit Linux builds do. The *_lowat_check
// posts are absent on purpose: on Linux they only warn that send_lowat is
// not supported (the bound they check is FreeBSD's sysctl), and the
// ssl_conf_command checks only warn when OpenSSL lacks the feature.
func checkPost(name, post string, n int64) *Error {
	switch post {
	case "ngx_http_core_pool_size", "ngx_http_v2_pool_size":
		// NGX_MIN_POOL_SIZE and NGX_POOL_ALIGNMENT on 64-bit platforms.
		if n < minPoolSize {
			return &Error{Message: fmt.Sprintf("the pool size must be no less than %d", minPoolSize)}
		}
		if n%poolAlignment != 0 {
			return &Error{Message: fmt.Sprintf("the pool size must be a multiple of %d", poolAlignment)}
		}
	case "ngx_http_gzip_window":
		if !powerOfTwoIn(n, 512, 32<<10) {
			return &Error{Message: fmt.Sprintf("%q directive must be 512, 1k, 2k, 4k, 8k, 16k, or 32k", name)}
		}
	case "ngx_http_gzip_hash":
		if !powerOfTwoIn(n, 512, 128<<10) {
			return &Error{Message: fmt.Sprintf("%q directive must be 512, 1k, 2k, 4k, 8k, 16k, 32k, 64k, or 128k", name)}
		}
	case "ngx_http_v2_recv_buffer_size":
		if n <= 16 { // NGX_HTTP_V2_STATE_BUFFER_SIZE
			return &Error{Message: fmt.Sprintf("%q directive value is too small", name)}
		}
	case "ngx_http_v2_chunk_size":
		if n == 0 {
			return &Error{Message: "the http2 chunk size cannot be zero"}
		}
	case "ngx_http_v2_preread_size":
		if n > 1<<31-1 { // NGX_HTTP_V2_MAX_WINDOW
			return &Error{Message: fmt.Sprintf("the maximum body preread buffer size is %d", 1<<31-1)}
		}
	case "ngx_http_v2_streams_index_mask":
		if n == 0 || n&(n-1) != 0 {
			return &Error{Message: fmt.Sprintf("%q directive must be a power of two", name)}
		}
	}
	return nil
}

const (
	minPoolSize   = 112 // ngx_align(sizeof(ngx_pool_t) + 2 * sizeof(ngx_pool_large_t), 16)
	poolAlignment = 16
)

func powerOfTwoIn(n, lo, hi int64) bool {
	for v := hi; v >= lo; v >>= 1 {
		if n == v {
			return true
		}
	}
	return false
}
