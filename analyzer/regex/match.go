package regex

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Regex is a regular expression as nginx runs it on a request: PCRE
// without UTF mode, so a pattern and a subject are bytes, not characters. It runs
// with Go's regexp where the two mean the same; where they might not for
// a given subject, Match says so instead of answering.
//
// Bytes above 0x7f are mapped to the code points of the same value
// (Latin-1) in the pattern and the subject alike, so that "." and
// classes take one byte, as PCRE does, and not one UTF-8 character.
// A caseless pattern (~* or an inline (?i)) that names such bytes maps
// them instead to Private Use Area code points (pua), which Go does not
// fold, as PCRE in nginx's C locale folds ASCII letters only.
type Regex struct {
	// Pattern is the regex as written in the configuration.
	Pattern string
	// Caseless is set for ~* (and server_name ~ with (?i), map ~*...).
	Caseless bool
	re       *regexp.Regexp
	// expr is the pattern as re reads it (without the (?i) of ~*): the
	// automata parse it.
	expr string
	// pua: re reads bytes above 0x7f as U+E080..U+E0FF (puaPattern).
	pua bool
	// err says why Go's regexp cannot run the pattern as PCRE does
	// (backreferences, lookaround, possessive quantifiers, \Z, ...).
	err string

	// The NFA of the subjects it matches (automata.go), made on first use.
	nfaOnce sync.Once
	nfa     *nfa
	nfaWhy  string
}

// Compile compiles a pattern nginx reads with PCRE, for matching. A pattern
// Go's regexp does not accept, or reads another way, is kept: Match
// then reports it unsure.
func Compile(pattern string, caseless bool) *Regex {
	r := &Regex{Pattern: pattern, Caseless: caseless}
	expr := latin1(pattern)
	if strings.Contains(pattern, `\`) {
		if why := unlikeInGo(pattern); why != "" {
			r.err = why
			return r
		}
	}
	if caseless {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		r.err = fmt.Sprintf("Go's regexp does not read it as PCRE does (%v)", unwrapSyntax(err))
		return r
	}
	mayFold := caseless || setsCaseless(pattern)
	if mayFold && caseProperty(pattern) {
		r.err = `PCRE2 10.42 matches a caseless \p{Lu}, \p{Ll} or \p{Lt} with case, 10.45 without`
		return r
	}
	r.re, r.expr = re, latin1(pattern)
	if mayFold && r.foldsHigh() {
		if p, ok := puaPattern(pattern, mayFold); ok {
			expr := p
			if caseless {
				expr = "(?i)" + p
			}
			if re, err := regexp.Compile(expr); err == nil {
				r.re, r.expr, r.pua = re, p, true
			}
		}
	}
	return r
}

// unlikeInGo finds escapes Go's regexp accepts with another meaning
// than PCRE gives them: \v (PCRE: any vertical space; Go: the
// vertical tab) and \NN (PCRE: a backreference when there are that many
// groups; Go: an octal code).
func unlikeInGo(p string) string {
	for i := 0; i+1 < len(p); i++ {
		if p[i] != '\\' {
			continue
		}
		switch c := p[i+1]; {
		case c == 'Q':
			// Both quote up to \E.
			j := strings.Index(p[i+2:], `\E`)
			if j < 0 {
				return ""
			}
			i += 2 + j + 1
			continue
		case c == 'v':
			return `PCRE's "\v" is any vertical space, Go's the vertical tab`
		case c >= '1' && c <= '9' && i+2 < len(p) && p[i+2] >= '0' && p[i+2] <= '9':
			return fmt.Sprintf(`PCRE reads "\%c%c" as a backreference or an octal code, Go as an octal code`, c, p[i+2])
		}
		i++
	}
	return ""
}

func unwrapSyntax(err error) string {
	s := err.Error()
	return strings.TrimPrefix(s, "error parsing regexp: ")
}

// latin1 maps the bytes above 0x7f of s to the code points of the same
// value, so that Go's regexp sees one rune per byte.
func latin1(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) * 2)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// fromLatin1 is latin1's inverse.
func fromLatin1(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

// Captures are what a match leaves for $1..$9 and the named groups.
type Captures struct {
	// Values are the whole match and the groups, $0, $1, ... ("" for a
	// group that took no part).
	Values []string
	// Names are the groups' names ("" for a numbered one), parallel to
	// Values.
	Names []string
}

// Get returns capture n ("" when there is none).
func (c *Captures) Get(n int) string {
	if c == nil || n >= len(c.Values) {
		return ""
	}
	return c.Values[n]
}

// Err says why the regex cannot be run as PCRE runs it ("" when it can).
func (r *Regex) Err() string { return r.err }

// Match runs the regex on s. why is set, and the rest meaningless, when
// the answer for this subject might not be PCRE's.
func (r *Regex) Match(s string) (c *Captures, ok bool, why string) {
	if r.re == nil {
		return nil, false, fmt.Sprintf("regex %q: %s", r.Pattern, r.err)
	}
	if why := r.unlike(s); why != "" {
		return nil, false, fmt.Sprintf("regex %q on %q: %s", r.Pattern, s, why)
	}
	subject, back := latin1(s), fromLatin1
	if r.pua {
		subject, back = toPUA(s), fromPUA
	}
	idx := r.re.FindStringSubmatchIndex(subject)
	if idx == nil {
		return nil, false, ""
	}
	c = &Captures{Values: make([]string, len(idx)/2), Names: r.re.SubexpNames()}
	for i := range c.Values {
		if idx[2*i] >= 0 {
			c.Values[i] = back(subject[idx[2*i]:idx[2*i+1]])
		}
	}
	return c, true, ""
}

// unlike says why PCRE might answer otherwise than Go on s: a final
// newline ($ matches before it in PCRE), a vertical tab (in PCRE's \s),
// letters above 0x7f under caseless matching, by ~* or an inline flag
// (Go folds À and à, PCRE's C locale does not), unless the pattern is
// read with pua.
func (r *Regex) unlike(s string) string {
	if strings.HasSuffix(s, "\n") && strings.Contains(r.Pattern, "$") {
		return `PCRE's "$" also matches before a final newline`
	}
	if strings.IndexByte(s, '\v') >= 0 && strings.Contains(r.Pattern, `\s`) {
		return `PCRE's "\s" takes a vertical tab, Go's does not`
	}
	if (r.Caseless || setsCaseless(r.Pattern)) && !r.pua && r.foldsHigh() {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return "a caseless match of a byte above 0x7f"
			}
		}
	}
	return ""
}

// foldsHigh says a caseless pattern may name bytes above 0x7f, which Go
// folds as Latin-1 letters and PCRE (in nginx's C locale) does not: the
// bytes themselves, \x, octal and \o escapes, and Unicode properties
// (PCRE ignores case for \p, Go does not).
func (r *Regex) foldsHigh() bool {
	p := r.Pattern
	for i := 0; i < len(p); i++ {
		if p[i] >= 0x80 {
			return true
		}
		if p[i] == '\\' && i+1 < len(p) {
			switch c := p[i+1]; {
			case c == 'x' || c == 'p' || c == 'P' || c == 'o' || c == '2' || c == '3':
				return true
			}
			i++
		}
	}
	return false
}

// Example returns a string the regex matches, for probing: the
// shortest reading of each part (the first alternative, the fewest
// repetitions, the first byte of a class); ok is false when none is
// found that the regex matches as nginx would.
func Example(pattern string, caseless bool) (string, bool) {
	re, err := syntax.Parse(latin1(pattern), syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			for _, c := range r.Rune {
				b.WriteRune(c)
			}
		case syntax.OpCharClass:
			if len(r.Rune) >= 2 {
				c := r.Rune[0]
				// A printable byte, preferably a letter.
				for i := 0; i+1 < len(r.Rune); i += 2 {
					lo, hi := r.Rune[i], r.Rune[i+1]
					if lo <= 'a' && 'a' <= hi {
						c = 'a'
						break
					}
					if lo > ' ' && lo < 0x7f {
						c = lo
					}
				}
				b.WriteRune(c)
			}
		case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
			b.WriteByte('x')
		case syntax.OpCapture:
			walk(r.Sub[0])
		case syntax.OpPlus:
			walk(r.Sub[0])
		case syntax.OpRepeat:
			for range r.Min {
				walk(r.Sub[0])
			}
		case syntax.OpConcat:
			for _, s := range r.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			walk(r.Sub[0])
		}
	}
	walk(re)
	ex := fromLatin1(b.String())
	rx := Compile(pattern, caseless)
	if _, ok, why := rx.Match(ex); !ok || why != "" {
		return "", false
	}
	return ex, true
}
