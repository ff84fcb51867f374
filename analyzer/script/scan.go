package script

import (
	"iter"
	"strings"
)

// Kind is what a token of a script is.
type Kind uint8

// The kinds of tokens.
const (
	// Literal is text nginx copies as it is.
	Literal Kind = iota
	// Variable is "$name" or "${name}".
	Variable
	// Capture is "$1" to "$9": a group of the last regex matched
	// (ngx_http_script_add_capture_code). Only a script has them; in a
	// log format "$1" is the variable "1".
	Capture
	// Invalid is a "$" nginx refuses: at the end, with no name after it,
	// or "${name" without its "}". Err holds nginx's message.
	Invalid
)

// Token is one piece of a script.
type Token struct {
	Kind Kind
	// Start and End are the token's bytes in the script: the literal
	// text, "$name", "${name}", "$1", or for Invalid what nginx read
	// before it refused ("$", "${", "${name").
	Start, End int
	// Text is the script's bytes from Start to End.
	Text string
	// Name is a Variable's name as written (nginx looks it up
	// lower-cased) or a Capture's digit; "" for the other kinds.
	Name string
	// Err is nginx's message for an Invalid token.
	Err string
}

// Tokens yields the tokens of s as ngx_http_script_compile reads it: "$"
// and a digit from 1 to 9 is a capture (so "$1abc" is capture 1, then
// the text "abc"), "$" or "${" and a name of letters, digits and "_" is a
// variable ("${name}" needs its "}"), and anything else is text. nginx
// stops at the first Invalid token; Tokens goes on after it, so that a
// caller may read the rest as text.
func Tokens(s string) iter.Seq[Token] {
	return func(yield func(Token) bool) { scan(s, false, yield) }
}

// LogFormatTokens yields the tokens of a log_format format string as
// ngx_http_log_compile_format reads it: as a script, except that a digit
// starts a name like any other ("$1" is the variable "1"), and a "$" with
// no name is an invalid parameter.
func LogFormatTokens(s string) iter.Seq[Token] {
	return func(yield func(Token) bool) { scan(s, true, yield) }
}

// scan is the one scanner behind Tokens and LogFormatTokens.
func scan(s string, logFormat bool, yield func(Token) bool) {
	lit := 0 // start of the text not yet yielded
	emit := func(t Token) bool {
		if lit < t.Start && !yield(Token{Kind: Literal, Start: lit, End: t.Start, Text: s[lit:t.Start]}) {
			return false
		}
		lit = t.End
		t.Text = s[t.Start:t.End]
		return yield(t)
	}
	invalid := func(at int) string {
		if logFormat {
			return `invalid parameter "` + s[at:] + `"`
		}
		return "invalid variable name"
	}
	for i := strings.IndexByte(s, '$'); i >= 0 && i < len(s); {
		at := i
		i++
		switch {
		case i == len(s):
			emit(Token{Kind: Invalid, Start: at, End: i, Err: invalid(at)})
			return
		case !logFormat && s[i] >= '1' && s[i] <= '9':
			i++
			if !emit(Token{Kind: Capture, Start: at, End: i, Name: s[i-1 : i]}) {
				return
			}
		default:
			bracket := s[i] == '{'
			if bracket {
				if i++; i == len(s) {
					emit(Token{Kind: Invalid, Start: at, End: i, Err: invalid(at)})
					return
				}
			}
			n := i
			for i < len(s) && IsNameChar(s[i]) {
				i++
			}
			name := s[n:i]
			var t Token
			switch {
			case bracket && (i == len(s) || s[i] != '}'):
				t = Token{Kind: Invalid, Start: at, End: i, Err: `the closing bracket in "` + name + `" variable is missing`}
			case bracket:
				i++
				fallthrough
			default:
				t = Token{Kind: Variable, Start: at, End: i, Name: name}
				if name == "" {
					t = Token{Kind: Invalid, Start: at, End: i, Err: invalid(at)}
				}
			}
			if !emit(t) {
				return
			}
		}
		if j := strings.IndexByte(s[i:], '$'); j >= 0 {
			i += j
		} else {
			i = len(s)
		}
	}
	if lit < len(s) {
		yield(Token{Kind: Literal, Start: lit, End: len(s), Text: s[lit:]})
	}
}

// IsNameChar reports whether c may be in a variable's name: a letter, a
// digit or "_", as nginx's script compiler reads names.
func IsNameChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Split cuts a script into text and the variables and captures it uses,
// for the rules that ask what a value may hold. Text is one Literal token
// between two uses, what nginx refuses included (a "$" with no name is
// text here), and a Variable's Name is lower-cased as nginx looks it up
// ($HTTP_HOST is $http_host).
func Split(s string) []Token {
	var out []Token
	for t := range Tokens(s) {
		switch {
		case t.Kind == Literal || t.Kind == Invalid:
			if n := len(out); n > 0 && out[n-1].Kind == Literal {
				out[n-1].End, out[n-1].Text = t.End, s[out[n-1].Start:t.End]
				continue
			}
			t.Kind, t.Err = Literal, ""
		case t.Kind == Variable:
			t.Name = strings.ToLower(t.Name)
		}
		out = append(out, t)
	}
	return out
}

// HasVars reports whether script s uses a variable or a capture. (It
// allocates nothing: rules ask it of every argument of some directives.)
func HasVars(s string) bool {
	if strings.IndexByte(s, '$') < 0 {
		return false
	}
	for t := range Tokens(s) {
		if t.Kind == Variable || t.Kind == Capture {
			return true
		}
	}
	return false
}
