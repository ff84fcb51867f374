package routing

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/script"
)

// Script is a value with variables as nginx's script compiler reads it
// (script.Tokens, ngx_http_script_compile): "$name" and "${name}" with
// names of letters, digits and "_", "$1".."$9" a single-digit capture
// (so "$12" is capture 1 then "2"), everything else literal (what nginx
// refuses too, kept as written). For rewrite's replacement the first "?"
// starts the query string.
type Script struct {
	// Source is the value as written (after nginx's unquoting).
	Source string
	parts  []scriptPart
	// args is set when a part is the "?" that starts a query string
	// (compiled with args: rewrite's replacement).
	args bool
}

type scriptPart struct {
	lit     string
	name    string // a variable, lower-cased as nginx looks it up
	capture int    // 1..9 for "$N", 0 otherwise
	argsSep bool   // the "?" of rewrite's replacement
}

// compileScript reads src; withArgs makes its first "?" the start of
// the query string.
func compileScript(src string, withArgs bool) *Script {
	s := &Script{Source: src}
	for t := range script.Tokens(src) {
		switch t.Kind {
		case script.Capture:
			s.parts = append(s.parts, scriptPart{capture: int(t.Name[0] - '0')})
		case script.Variable:
			s.parts = append(s.parts, scriptPart{name: strings.ToLower(t.Name)})
		default:
			// Text, and what nginx refuses ("invalid variable name"),
			// kept as written.
			s.text(t.Text, withArgs)
		}
	}
	return s
}

// text adds literal text; with withArgs its first "?" (the script's
// first) starts the query string, as ngx_http_script_compile's
// compile_args makes it.
func (s *Script) text(lit string, withArgs bool) {
	if withArgs && !s.args {
		if i := strings.IndexByte(lit, '?'); i >= 0 {
			if i > 0 {
				s.parts = append(s.parts, scriptPart{lit: lit[:i]})
			}
			s.args = true
			s.parts = append(s.parts, scriptPart{argsSep: true})
			lit = lit[i+1:]
		}
	}
	if lit != "" {
		s.parts = append(s.parts, scriptPart{lit: lit})
	}
}

// Literal reports whether the script has no variables, and its value.
func (s *Script) Literal() (string, bool) {
	for _, p := range s.parts {
		if p.name != "" || p.capture > 0 {
			return "", false
		}
	}
	return s.Source, true
}

// Variables returns the names of the variables the script reads.
func (s *Script) Variables() []string {
	var out []string
	for _, p := range s.parts {
		if p.name != "" {
			out = append(out, p.name)
		}
	}
	return out
}

// unsure is a reason the model cannot answer.
type unsure struct{ why string }

func (u *unsure) Error() string { return u.why }

// internalError is a failure nginx answers with 500 (its log says why):
// the request is finalized with it, which an error_page 500 can take.
type internalError struct{ why string }

func (e *internalError) Error() string { return e.why }

// evalEnv is what a script reads: variables and the captures of the
// last regex that matched.
type evalEnv interface {
	variable(name string) (string, error)
	capture(n int) string
}

// escaping says how captures are copied (ngx_http_script_copy_capture_code):
// escaped for a query string when the request's URI had an escape or a
// "+", in a redirect or after the "?" of a rewrite.
type escaping struct {
	redirect bool // rewrite's redirect (e->quote)
	request  bool // the request's quoted_uri or plus_in_uri
}

// eval computes the script's value. With args set (rewrite's
// replacement), uri and args are the parts before and after its "?".
func (s *Script) eval(env evalEnv, esc escaping) (uri, args string, hasArgs bool, err error) {
	var b strings.Builder
	var a strings.Builder
	out := &b
	inArgs := false
	for _, p := range s.parts {
		switch {
		case p.argsSep:
			inArgs, hasArgs = true, true
			out = &a
		case p.capture > 0:
			c := env.capture(p.capture)
			if (inArgs || esc.redirect) && esc.request {
				c = escapeURI(c, escapeArgs)
			}
			out.WriteString(c)
		case p.name != "":
			v, err := env.variable(p.name)
			if err != nil {
				return "", "", false, err
			}
			out.WriteString(v)
		default:
			out.WriteString(p.lit)
		}
	}
	return b.String(), a.String(), hasArgs, nil
}

// value is eval for a plain complex value.
func (s *Script) value(env evalEnv) (string, error) {
	if v, ok := s.Literal(); ok {
		return v, nil
	}
	v, _, _, err := s.eval(env, escaping{})
	return v, err
}

// The escape sets of ngx_escape_uri.
const (
	escapeURIPath = iota // NGX_ESCAPE_URI
	escapeArgs           // NGX_ESCAPE_ARGS
)

// escapeURI is ngx_escape_uri for its URI and ARGS sets: controls,
// space, bytes above 0x7e and " # % < > ? \ ^ ` { | } as %XX; the ARGS
// set also & + ;.
func escapeURI(s string, set int) string {
	esc := func(c byte) bool {
		if c <= ' ' || c >= 0x7f {
			return true
		}
		switch c {
		case '"', '#', '%', '<', '>', '?', '\\', '^', '`', '{', '|', '}':
			return true
		case '&', '+', ';':
			return set == escapeArgs
		}
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if esc(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if esc(c) {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// unescapeRedirect is ngx_unescape_uri with NGX_UNESCAPE_REDIRECT, which
// rewrite applies to a redirect's target: up to the first "?" (written
// or decoded), a %XX escape of a byte between '%' and DEL (both
// excluded) is decoded and any other kept; a '%' before a non-hex byte
// is dropped, and so is a '%' with one hex digit and the byte after it.
func unescapeRedirect(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '?':
			return string(append(b, s[i:]...))
		case c != '%':
			b = append(b, c)
			continue
		}
		if i+1 >= len(s) {
			break
		}
		hi, ok := unhex(s[i+1])
		if !ok {
			b = append(b, s[i+1])
			i++
			continue
		}
		if i+2 >= len(s) {
			break
		}
		lo, ok := unhex(s[i+2])
		i += 2
		if !ok {
			continue
		}
		d := hi<<4 | lo
		switch {
		case d == '?' && s[i] > '9':
			return string(append(append(b, '?'), s[i+1:]...))
		case d > '%' && d < 0x7f:
			b = append(b, d)
		default:
			b = append(b, s[i-2:i+1]...)
		}
	}
	return string(b)
}
