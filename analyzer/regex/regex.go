package regex

import (
	"regexp/syntax"
	"strings"
)

// Parse parses an nginx (PCRE) regex with Go's regexp/syntax. It returns
// nil for syntax Go's parser does not know (look-arounds, possessive
// quantifiers, ...), and callers then stay quiet rather than guess.
func Parse(expr string, caseless bool) *syntax.Regexp {
	flags := syntax.Perl
	if caseless {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(expr, flags)
	if err != nil {
		return nil
	}
	return re
}

// RuneSet is a question about one character of a match: does it equal
// Rune (or, with Other, differ from it).
type RuneSet struct {
	Rune  rune
	Other bool // any rune except Rune
}

// leafHas reports whether a single-character node can produce a rune of s.
func leafHas(re *syntax.Regexp, s RuneSet) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpAnyCharNotNL:
		return s.Other || s.Rune != '\n'
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if s.Other {
				if lo != s.Rune || hi != s.Rune {
					return true
				}
			} else if lo <= s.Rune && s.Rune <= hi {
				return true
			}
		}
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				if s.Other {
					return true
				}
				if strings.EqualFold(string(c), string(s.Rune)) {
					return true
				}
				continue
			}
			if (c == s.Rune) != s.Other {
				return true
			}
		}
	}
	return false
}

// MayContain reports whether a string matched by re may contain a rune
// of s.
func MayContain(re *syntax.Regexp, s RuneSet) bool {
	if leafHas(re, s) {
		return true
	}
	for _, sub := range re.Sub {
		if MayContain(sub, s) {
			return true
		}
	}
	return false
}

// MayStart reports whether a non-empty match of re may start with a rune
// of s, and whether re matches the empty string (so what follows it may
// start the match instead).
func MayStart(re *syntax.Regexp, s RuneSet) (can, nullable bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return false, true
		}
		first := *re
		first.Rune = re.Rune[:1]
		return leafHas(&first, s), false
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpCharClass:
		return leafHas(re, s), false
	case syntax.OpCapture:
		return MayStart(re.Sub[0], s)
	case syntax.OpStar, syntax.OpQuest:
		c, _ := MayStart(re.Sub[0], s)
		return c, true
	case syntax.OpPlus:
		return MayStart(re.Sub[0], s)
	case syntax.OpRepeat:
		c, n := MayStart(re.Sub[0], s)
		return c, n || re.Min == 0
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			c, n := MayStart(sub, s)
			can = can || c
			if !n {
				return can, false
			}
		}
		return can, true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			c, n := MayStart(sub, s)
			can, nullable = can || c, nullable || n
		}
		return can, nullable
	}
	// Empty-width assertions and empty matches.
	return false, true
}

// Group returns the capture group with index n (1-based, when n > 0) or
// the named group name (compared without case, as nginx's variable names
// are), nil when re has none.
func Group(re *syntax.Regexp, n int, name string) *syntax.Regexp {
	if re.Op == syntax.OpCapture && ((n > 0 && re.Cap == n) || (name != "" && strings.EqualFold(re.Name, name))) {
		return re
	}
	for _, sub := range re.Sub {
		if c := Group(sub, n, name); c != nil {
			return c
		}
	}
	return nil
}

// BeforeGroup returns the node matched just before group n in its
// concatenation, or nil when the group starts its sequence.
func BeforeGroup(re *syntax.Regexp, n int) *syntax.Regexp {
	for i, sub := range re.Sub {
		if sub.Op == syntax.OpCapture && sub.Cap == n {
			if re.Op == syntax.OpConcat && i > 0 {
				return re.Sub[i-1]
			}
			return nil
		}
		if b := BeforeGroup(sub, n); b != nil {
			return b
		}
		if Group(sub, n, "") != nil {
			return nil
		}
	}
	return nil
}

// NamedGroups calls fn with each named group of a regex, (?<name>...),
// (?'name'...) and (?P<name>...), and the name's offset in expr. (PCRE's
// group names are letters, digits and "_", the characters of an nginx
// variable name: ngx_http_regex_compile makes each a variable.)
func NamedGroups(expr string, fn func(name string, at int)) {
	for i := 0; i+2 < len(expr); i++ {
		if expr[i] == '\\' {
			i++
			continue
		}
		if expr[i] != '(' || expr[i+1] != '?' {
			continue
		}
		j := i + 2
		if j < len(expr) && expr[j] == 'P' {
			j++
		}
		if j >= len(expr) || expr[j] != '<' && expr[j] != '\'' {
			continue
		}
		j++
		k := j
		for k < len(expr) && nameChar(expr[k]) {
			k++
		}
		if k > j && k < len(expr) && (expr[k] == '>' || expr[k] == '\'') {
			fn(expr[j:k], j)
		}
	}
}

// nameChar reports whether c may be in a group's name.
func nameChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
