package regex

import (
	"fmt"
	"strings"
	"unicode"
)

// PCRE in nginx (no UTF mode, the C locale's tables) folds ASCII letters
// only: under ~* the byte 0xC3 matches 0xC3 and not 0xE3. Go's (?i) folds
// the Latin-1 letters latin1 maps such bytes to (Ã U+00C3 and ã U+00E3).
// A caseless pattern that names bytes above 0x7f is therefore run with
// those bytes mapped to U+E080..U+E0FF, in the pattern and the subject:
// Private Use Area code points have no case.

const puaBase = 0xE000

// toPUA maps the bytes above 0x7f of s to U+E080..U+E0FF.
func toPUA(s string) string {
	var b strings.Builder
	b.Grow(len(s) * 3)
	for i := 0; i < len(s); i++ {
		if s[i] < 0x80 {
			b.WriteByte(s[i])
		} else {
			b.WriteRune(puaBase + rune(s[i]))
		}
	}
	return b.String()
}

// fromPUA is toPUA's inverse.
func fromPUA(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r >= puaBase+0x80 && r <= puaBase+0xff {
			b = append(b, byte(r-puaBase))
		} else {
			b = append(b, byte(r))
		}
	}
	return string(b)
}

// puaPattern rewrites a pattern for Go's regexp with its bytes above 0x7f
// (written as such or as \x escapes) mapped as toPUA maps a subject's. It
// reads the pattern as Go's regexp/syntax does, and gives up (ok false)
// on anything it does not know to mean the same after the mapping: flags
// Go does not know, properties other than a general category, escapes Go
// refuses. A general category (\p{L}, \PN, [\p{Nd}x]) is written as the
// class of the bytes PCRE gives it without UTF mode (the code point of
// the byte's value), ignoring case as PCRE2 10.42 does; a caseless
// \p{Lu}, \p{Ll} or \p{Lt} (mayFold: the pattern is caseless or may
// turn caseless) gives up, as PCRE2 from 10.45 reads them as \p{L&}.
func puaPattern(p string, mayFold bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c >= 0x80:
			writePUA(&b, rune(c))
			i++
		case c == '[':
			n, ok := puaClass(&b, p[i:], mayFold)
			if !ok {
				return "", false
			}
			i += n
		case c == '\\' && strings.HasPrefix(p[i:], `\Q`):
			lit := p[i+2:]
			if j := strings.Index(lit, `\E`); j >= 0 {
				lit = lit[:j]
				i += 2 + j + 2
			} else {
				i = len(p)
			}
			for k := 0; k < len(lit); k++ {
				if lit[k] >= 0x80 {
					writePUA(&b, rune(lit[k]))
				} else {
					fmt.Fprintf(&b, `\x{%x}`, lit[k])
				}
			}
		case c == '\\':
			if i+1 >= len(p) {
				return "", false
			}
			if p[i+1] == 'x' {
				v, n, ok := hexEscape(p[i:])
				if !ok {
					return "", false
				}
				writeChar(&b, v)
				i += n
				continue
			}
			if d := p[i+1]; d == 'p' || d == 'P' {
				in, n, ok := property(p[i:], mayFold)
				if !ok {
					return "", false
				}
				b.WriteByte('[')
				writeBytes(&b, in)
				b.WriteByte(']')
				i += n
				continue
			}
			if p[i+1] >= 0x80 {
				return "", false
			}
			b.WriteString(p[i : i+2])
			i += 2
		case c == '(' && strings.HasPrefix(p[i:], "(?"):
			if !groupSyntax(p[i+2:]) && !goFlags(p[i+2:]) {
				return "", false
			}
			b.WriteString("(?")
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}

// groupSyntax says the text after "(?" opens a group, (?: or a named
// one, and does not set flags.
func groupSyntax(s string) bool {
	s = strings.TrimPrefix(s, "P")
	switch {
	case strings.HasPrefix(s, ":"):
		return true
	case strings.HasPrefix(s, "<") && len(s) > 1:
		c := s[1]
		return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return false
}

// goFlags says the text after "(?" sets flags that Go and PCRE read
// alike, (?i), (?-i:, (?sU)...: i, m, s and U mean the same in both
// (PCRE's x, n, J and ^ are not Go's).
func goFlags(s string) bool {
	j := strings.IndexAny(s, ":)")
	if j < 0 {
		return false
	}
	for _, c := range s[:j] {
		if !strings.ContainsRune("imsU-", c) {
			return false
		}
	}
	return true
}

// setsCaseless says the pattern may turn caseless matching on with an
// inline flag, (?i) or (?i:...).
func setsCaseless(p string) bool {
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			i++
		case strings.HasPrefix(p[i:], "(?") && !groupSyntax(p[i+2:]):
			flags := p[i+2:]
			if j := strings.IndexAny(flags, ":)"); j >= 0 {
				flags = flags[:j]
			}
			if strings.IndexByte(flags, 'i') >= 0 {
				return true
			}
		}
	}
	return false
}

// writePUA writes a byte above 0x7f, mapped, as an escape.
func writePUA(b *strings.Builder, c rune) {
	fmt.Fprintf(b, `\x{%x}`, puaBase+c)
}

// writeChar writes byte c as an escape, mapped if above 0x7f.
func writeChar(b *strings.Builder, c rune) {
	if c >= 0x80 {
		writePUA(b, c)
	} else {
		fmt.Fprintf(b, `\x{%x}`, c)
	}
}

// hexEscape reads \xHH or \x{H...} at the start of s, as Go reads it: its
// value (a byte, or ok is false) and length.
func hexEscape(s string) (v rune, n int, ok bool) {
	if len(s) < 3 || s[0] != '\\' || s[1] != 'x' {
		return 0, 0, false
	}
	if s[2] == '{' {
		j := strings.IndexByte(s, '}')
		if j < 4 || j > 3+8 {
			return 0, 0, false
		}
		for _, c := range []byte(s[3:j]) {
			h := unhex(c)
			if h < 0 {
				return 0, 0, false
			}
			v = v*16 + h
		}
		if v > 0xff {
			// PCRE refuses it without UTF mode.
			return 0, 0, false
		}
		return v, j + 1, true
	}
	if len(s) < 4 {
		return 0, 0, false
	}
	x, y := unhex(s[2]), unhex(s[3])
	if x < 0 || y < 0 {
		return 0, 0, false
	}
	return x*16 + y, 4, true
}

func unhex(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// puaClass rewrites the class at the start of s, read as Go's parseClass
// reads it: named and Perl classes are kept, each character is written
// as an escape, mapped, and a range from below 0x80 to above it is split
// in two (the code points between are not bytes, and some of them, ſ and
// the Kelvin sign, fold to ASCII letters). It returns the class's length.
func puaClass(b *strings.Builder, s string, mayFold bool) (int, bool) {
	i := 1
	b.WriteByte('[')
	if i < len(s) && s[i] == '^' {
		b.WriteByte('^')
		i++
	}
	first := true
	for i < len(s) && (s[i] != ']' || first) {
		first = false
		t := s[i:]
		if strings.HasPrefix(t, "[:") {
			if j := strings.Index(t[2:], ":]"); j >= 0 {
				b.WriteString(t[:j+4])
				i += j + 4
				continue
			}
		}
		if len(t) >= 2 && t[0] == '\\' && (t[1] == 'p' || t[1] == 'P') {
			in, n, ok := property(t, mayFold)
			if !ok {
				return 0, false
			}
			writeBytes(b, in)
			i += n
			continue
		}
		if len(t) >= 2 && t[0] == '\\' && strings.IndexByte(`dDsSwW`, t[1]) >= 0 {
			b.WriteString(t[:2])
			i += 2
			continue
		}
		lo, n, ok := classChar(t)
		if !ok {
			return 0, false
		}
		i += n
		hi := lo
		if t := s[i:]; len(t) >= 2 && t[0] == '-' && t[1] != ']' {
			hi, n, ok = classChar(t[1:])
			if !ok || hi < lo {
				return 0, false
			}
			i += 1 + n
		}
		switch {
		case lo == hi:
			writeChar(b, lo)
		case lo < 0x80 && hi >= 0x80:
			writeChar(b, lo)
			b.WriteString(`-\x{7f}`)
			writeChar(b, 0x80)
			b.WriteByte('-')
			writeChar(b, hi)
		default:
			writeChar(b, lo)
			b.WriteByte('-')
			writeChar(b, hi)
		}
	}
	if i >= len(s) {
		return 0, false
	}
	b.WriteByte(']')
	return i + 1, true
}

// classChar reads one character of a class at the start of s: a byte or
// an escape Go and PCRE read alike.
func classChar(s string) (rune, int, bool) {
	if s == "" {
		return 0, 0, false
	}
	if s[0] != '\\' {
		return rune(s[0]), 1, true
	}
	if len(s) < 2 {
		return 0, 0, false
	}
	switch c := s[1]; {
	case c == 'x':
		return hexEscape(s)
	case c == '0':
		v, n := rune(0), 2
		for n < 4 && n < len(s) && '0' <= s[n] && s[n] <= '7' {
			v = v*8 + rune(s[n]-'0')
			n++
		}
		return v, n, true
	case c < 0x80 && !isAlnum(c):
		return rune(c), 2, true
	case c == 'a':
		return '\a', 2, true
	case c == 'f':
		return '\f', 2, true
	case c == 't':
		return '\t', 2, true
	case c == 'n':
		return '\n', 2, true
	case c == 'r':
		return '\r', 2, true
	}
	return 0, 0, false
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// property reads \p{Name}, \p{^Name}, \pN or their \P negations at the
// start of s, for a general category Go's unicode package names as PCRE
// does: the bytes it takes (a byte is the code point of its value
// without UTF mode) and its length. Scripts are not read: PCRE2's
// versions read a script name as the script or its extensions.
func property(s string, mayFold bool) (in [256]bool, n int, ok bool) {
	if len(s) < 3 {
		return in, 0, false
	}
	neg := s[1] == 'P'
	name := s[2:3]
	n = 3
	if s[2] == '{' {
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return in, 0, false
		}
		name, n = s[3:j], j+1
		if strings.HasPrefix(name, "^") {
			neg, name = !neg, name[1:]
		}
	}
	table, known := unicode.Categories[name]
	if !known || mayFold && (name == "Lu" || name == "Ll" || name == "Lt") {
		return in, 0, false
	}
	for c := range in {
		in[c] = unicode.Is(table, rune(c)) != neg
	}
	return in, n, true
}

// writeBytes writes the bytes of in as the ranges of a class, mapped.
func writeBytes(b *strings.Builder, in [256]bool) {
	for c := 0; c < 256; {
		if !in[c] {
			c++
			continue
		}
		// A run stops at 0x80, where the mapping jumps.
		end := c
		for end+1 < 256 && in[end+1] && end+1 != 0x80 {
			end++
		}
		writeChar(b, rune(c))
		if end > c {
			b.WriteByte('-')
			writeChar(b, rune(end))
		}
		c = end + 1
	}
}

// caseProperty says the pattern names \p{Lu}, \p{Ll} or \p{Lt} (or
// their \P negations), which PCRE2 10.42 matches with case in a
// caseless regex and 10.45 reads as \p{L&}; Go folds them.
func caseProperty(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] != '\\' {
			continue
		}
		if p[i+1] == 'p' || p[i+1] == 'P' {
			name := strings.TrimPrefix(p[i+2:], "{")
			name = strings.TrimPrefix(name, "^")
			if strings.HasPrefix(name, "Lu}") || strings.HasPrefix(name, "Ll}") || strings.HasPrefix(name, "Lt}") {
				return true
			}
		}
		i++
	}
	return false
}
