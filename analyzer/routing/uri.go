package routing

import (
	"errors"
	"fmt"
	"strings"
)

// Target is a request target as nginx reads it from the request line:
// the URI locations are matched against, decoded and normalized, and the
// query string apart.
type Target struct {
	// Raw is the target as the client sent it ($request_uri).
	Raw string
	// URI is the path after %XX decoding, merging of slashes and
	// resolution of "." and ".." segments ($uri); the fragment and the
	// query string are not part of it.
	URI string
	// Args is the query string without its "?" ($args).
	Args string
	// Quoted is set when the path held a %XX escape, Plus when it held a
	// "+" (nginx's quoted_uri and plus_in_uri): rewrite then escapes the
	// captures it copies into a redirect or a query string.
	Quoted, Plus bool
}

// ErrBadRequest wraps the reasons nginx answers a request target with
// 400 Bad Request.
var ErrBadRequest = errors.New("400 Bad Request")

func badTarget(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}

// ParseTarget reads an origin-form request target ("/path?query") as
// nginx 1.22 to 1.31 do: the states of ngx_http_parse_request_line that
// find the query string and tell a plain path from one that needs
// ngx_http_parse_complex_uri, then that normalization (with
// merge_slashes as given; nginx takes it from the default server of
// the address the connection arrived on, as it has not read Host yet).
// A target nginx refuses gives an error wrapping ErrBadRequest.
func ParseTarget(raw string, mergeSlashes bool) (Target, error) {
	t := Target{Raw: raw}
	if raw == "" || raw[0] != '/' {
		return t, badTarget("the request target %q does not start with \"/\"", raw)
	}
	// The request line: where the query string starts and whether the
	// path is plain.
	argsAt := -1
	complex := false
	const (
		afterSlash = iota
		checkURI
		inURI
	)
	state := afterSlash
	for i := 1; i < len(raw); i++ {
		c := raw[i]
		if c <= ' ' || c == 0x7f {
			// A space or a line end would end the target; anything
			// below it nginx refuses.
			return t, badTarget("the request target holds the byte %#02x", c)
		}
		switch state {
		case afterSlash, checkURI:
			switch c {
			case '/':
				if state == afterSlash {
					complex, state = true, inURI
				} else {
					state = afterSlash
				}
			case '.':
				if state == afterSlash {
					complex, state = true, inURI
				}
			case '%':
				t.Quoted, state = true, inURI
			case '?':
				argsAt, state = i+1, inURI
			case '#':
				complex, state = true, inURI
			case '+':
				t.Plus = true
			default:
				state = checkURI
			}
		case inURI:
			if c == '#' {
				complex = true
			}
		}
	}
	if !complex && !t.Quoted {
		if argsAt >= 0 {
			t.URI, t.Args = raw[:argsAt-1], raw[argsAt:]
		} else {
			t.URI = raw
		}
		return t, nil
	}
	return t, t.complexURI(raw, mergeSlashes)
}

// AbsoluteTarget reads an absolute-form request target
// ("http://host:port/path?query") as ngx_http_parse_request_line does:
// a scheme of letters, digits, "+", "-" and "." that starts with a
// letter (any scheme: nginx does not look at it), "://", the host (an
// "[...]" literal or letters, digits, "." and "-") and an optional port.
// It returns the host, which nginx validates and takes over the Host
// header, and the origin-form rest ($request_uri: "/" when the path is
// empty, "?query" when only a query follows). ok is false for an
// origin-form target; a target nginx refuses gives an error wrapping
// ErrBadRequest.
func AbsoluteTarget(raw string) (host, rest string, ok bool, err error) {
	if raw == "" || raw[0] == '/' {
		return "", "", false, nil
	}
	isLetter := func(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	if !isLetter(raw[0]) {
		return "", "", true, badTarget("the request target %q does not start with \"/\" or a scheme", raw)
	}
	i := 1
	for i < len(raw) && (isLetter(raw[i]) || isDigit(raw[i]) || raw[i] == '+' || raw[i] == '-' || raw[i] == '.') {
		i++
	}
	if !strings.HasPrefix(raw[i:], "://") {
		return "", "", true, badTarget("the request target %q has no \"://\" after its scheme", raw)
	}
	i += 3
	start := i
	if i < len(raw) && raw[i] == '[' {
		for i < len(raw) && raw[i] != ']' {
			c := raw[i]
			if !isLetter(c) && !isDigit(c) && !strings.ContainsRune("[:-._~!$&'()*+,;=", rune(c)) {
				return "", "", true, badTarget("the host of the request target %q holds %q", raw, c)
			}
			i++
		}
		if i == len(raw) {
			return "", "", true, badTarget("the host of the request target %q has no \"]\"", raw)
		}
		i++
	} else {
		for i < len(raw) && (isLetter(raw[i]) || isDigit(raw[i]) || raw[i] == '.' || raw[i] == '-') {
			i++
		}
	}
	host = raw[start:i]
	if i < len(raw) && raw[i] == ':' {
		i++
		for i < len(raw) && isDigit(raw[i]) {
			i++
		}
	}
	switch {
	case i == len(raw):
		rest = "/"
	case raw[i] == '/' || raw[i] == '?':
		rest = raw[i:]
	default:
		return "", "", true, badTarget("the request target %q holds %q after its host", raw, raw[i])
	}
	return host, rest, true, nil
}

// complexURI is ngx_http_parse_complex_uri: %XX decoding (a decoded '%',
// '#' or '?' is taken as a plain byte, any other as if written, so %2F
// is a slash and %2E a dot; %00 is refused), merge_slashes, "." and ".."
// segments (a ".." above the root is refused), the fragment dropped and
// the query string cut at the first '?' or '#'.
func (t *Target) complexURI(raw string, mergeSlashes bool) error {
	const (
		usual = iota
		slash
		dot
		dotDot
	)
	state := usual
	u := make([]byte, 0, len(raw))
	// up resolves a ".." segment: u ends in "/..", and is cut back to
	// just after the slash that starts the segment before it.
	up := func() bool {
		n := len(u) - 4
		for ; n >= 0; n-- {
			if u[n] == '/' {
				u = u[:n+1]
				return true
			}
		}
		return false
	}
	args := func(at int) {
		rest := raw[at:]
		if k := strings.IndexByte(rest, '#'); k >= 0 {
			rest = rest[:k]
		}
		t.Args = rest
	}
	i := 0
	for i < len(raw) {
		c := raw[i]
		i++
		// A %XX escape is decoded first; the byte it stands for is
		// then read in the state the '%' was met in.
		if c == '%' {
			t.Quoted = true
			if i+2 > len(raw) {
				return badTarget("an incomplete %%XX escape in %q", raw)
			}
			hi, ok1 := unhex(raw[i])
			lo, ok2 := unhex(raw[i+1])
			if !ok1 || !ok2 {
				return badTarget("an invalid %%XX escape in %q", raw)
			}
			i += 2
			c = hi<<4 | lo
			switch c {
			case 0:
				return badTarget("%%00 in the path")
			case '%', '#', '?':
				// Kept as a plain byte, and the state becomes usual.
				u = append(u, c)
				state = usual
				continue
			case '+':
				t.Plus = true
			}
		} else {
			switch c {
			case '?':
				// The query string starts here (after ".", "..", the
				// segment is resolved first).
				switch state {
				case dot:
					u = u[:len(u)-1]
				case dotDot:
					if !up() {
						return badTarget("\"..\" above the root in %q", raw)
					}
				}
				args(i)
				t.URI = string(u)
				return nil
			case '#':
				switch state {
				case dot:
					u = u[:len(u)-1]
				case dotDot:
					if !up() {
						return badTarget("\"..\" above the root in %q", raw)
					}
				}
				t.URI = string(u)
				return nil
			case '+':
				t.Plus = true
			}
		}
		switch state {
		case usual:
			switch c {
			case '/':
				state = slash
			}
			u = append(u, c)
		case slash:
			switch {
			case c == '/':
				if !mergeSlashes {
					u = append(u, c)
				}
			case c == '.':
				state = dot
				u = append(u, c)
			default:
				state = usual
				u = append(u, c)
			}
		case dot:
			switch c {
			case '/':
				// "/./": drop the dot, stay after a slash.
				u = u[:len(u)-1]
				state = slash
			case '.':
				state = dotDot
				u = append(u, c)
			default:
				state = usual
				u = append(u, c)
			}
		case dotDot:
			switch c {
			case '/':
				if !up() {
					return badTarget("\"..\" above the root in %q", raw)
				}
				state = slash
			default:
				state = usual
				u = append(u, c)
			}
		}
	}
	switch state {
	case dot:
		u = u[:len(u)-1]
	case dotDot:
		if !up() {
			return badTarget("\"..\" above the root in %q", raw)
		}
	}
	t.URI = string(u)
	return nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return c | 0x20 - 'a' + 10, true
	}
	return 0, false
}
