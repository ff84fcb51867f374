package regex

import (
	"testing"
)

// TestCheck spells out PCRE2 10.42's answer for one pattern of each kind
// (recorded from nginx; TestNginxDifferential asks nginx itself).
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		pattern, msg string
		offset       int
	}{
		{`^/api/(?<v>\d+)/(.*)$`, "", 0},
		{`^/([a-z]`, "missing closing parenthesis", 8},
		{`a)`, "unmatched closing parenthesis", 1},
		{`*a`, "quantifier does not follow a repeatable item", 0},
		{`^*`, "quantifier does not follow a repeatable item", 1},
		{`a{3,2}`, "numbers out of order in {} quantifier", 5},
		{`a{99999}`, "number too big in {} quantifier", 7},
		{`[z-a]`, "range out of order in character class", 3},
		{`[\d-z]`, "invalid range in character class", 3},
		{`[[:foo:]]`, "unknown POSIX class name", 3},
		{`\i`, `unrecognized character follows \`, 1},
		{`a\`, `\ at end of pattern`, 2},
		{`(a)\2`, "reference to non-existent subpattern", 4},
		{`(?<n>a)(?<n>b)`, "two named subpatterns have the same name (PCRE2_DUPNAMES not set)", 12},
		{`(?<=a+)`, "lookbehind assertion is not fixed length", 0},
		{`(?<=a|bc)x`, "", 0},
		{`(?z)`, "unrecognized character after (? or (?-", 2},
		{`\x{100}`, `character code point value in \x{} or \o{} is too large`, 6},
		{`a++b*+c?+`, "", 0},
		{`\Qa(b\E)`, "unmatched closing parenthesis", 7},
		{`(?x) a b # c`, "", 0},
		{`a(?#x)*`, "", 0},
	} {
		err := Check(c.pattern)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%q: got %q at %d, want no error", c.pattern, err.Msg, err.Offset)
		case c.msg != "" && err == nil:
			t.Errorf("%q: no error, want %q", c.pattern, c.msg)
		case c.msg != "" && (err.Msg != c.msg || err.Offset != c.offset):
			t.Errorf("%q: got %q at %d, want %q at %d", c.pattern, err.Msg, err.Offset, c.msg, c.offset)
		}
	}
}

// FuzzCheck: any input gets an answer, never a panic, and an error's
// offset lies within the pattern.
func FuzzCheck(f *testing.F) {
	for _, s := range curated {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := Check(s); err != nil && (err.Offset < 0 || err.Offset > len(s)) {
			t.Fatalf("%q: offset %d outside the pattern", s, err.Offset)
		}
		Groups(s)
	})
}
