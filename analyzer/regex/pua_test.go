package regex

import (
	"regexp"
	"slices"
	"testing"
)

// TestCaselessHighBytes holds PCRE2's answers (pcre2test, default
// tables, as nginx runs it) for caseless regexes naming bytes above 0x7f:
// PCRE folds ASCII letters only, Go's (?i) would fold Ã and ã too.
func TestCaselessHighBytes(t *testing.T) {
	for _, c := range []struct {
		pattern  string
		caseless bool
		subject  string
		want     []string // the captures, nil for no match
	}{
		{`\xc3`, true, "/\xc3\xa9", []string{"\xc3"}},
		{`\xc3`, true, "/\xe3", nil},
		{"\xc3", true, "/\xe3", nil},
		{"\xc3", true, "/\xc3", []string{"\xc3"}},
		{`\x{c3}`, true, "\xe3", nil},
		{`\Q` + "\xc3" + `\E`, true, "\xe3", nil},
		{`[\x7b-\xff]`, true, "s", nil},
		{`[\x7b-\xff]`, true, "S", nil},
		{`[\x7b-\xff]`, true, "k", nil},
		{`[\x7b-\xff]`, true, "K", nil},
		{`[\x7b-\xff]`, true, "\xe3", []string{"\xe3"}},
		{`[\x7b-\xff]`, true, "{", []string{"{"}},
		{`^/(\xc3)(.)`, true, "/\xc3\xa9", []string{"/\xc3\xa9", "\xc3", "\xa9"}},
		{`^/(?<n>\xc3)(.)`, true, "/\xc3\xa9", []string{"/\xc3\xa9", "\xc3", "\xa9"}},
		{`[^\xc3]`, true, "\xe3", []string{"\xe3"}},
		{`[^\xc3]`, true, "\xc3", nil},
		{`[^a\xc3]`, true, "A", nil},
		{`[^a\xc3]`, true, "\xe3", []string{"\xe3"}},
		{`\xc3a`, true, "\xc3A", []string{"\xc3A"}},
		{`[\xc0-\xde]`, true, "\xe3", nil},
		{`[\xc0-\xde]`, true, "\xc3", []string{"\xc3"}},
		{`.\xe9$`, true, "/caf\xc9", nil},
		{`.\xe9$`, true, "/caf\xe9", []string{"f\xe9"}},
		{`[\w\xe0-\xff]+$`, true, "/A\xc0", nil},
		{`[\w\xe0-\xff]+$`, true, "/a\xe0", []string{"a\xe0"}},
		{`\xc3`, false, "\xe3", nil},
		{`\xc3`, false, "\xc3", []string{"\xc3"}},
		{`(?s)\xc3`, false, "\xe3", nil},
		{`(?:\xc3)`, true, "\xe3", nil},
		// Inline flags: PCRE's (?i) folds ASCII letters only too.
		{`(?i)\xc3`, false, "\xe3", nil},
		{`(?i)\xc3`, true, "\xc3", []string{"\xc3"}},
		{`a(?i:\xc3b)`, false, "a\xc3B", []string{"a\xc3B"}},
		{`a(?i:\xc3)b`, false, "a\xc3B", nil},
		{`(?i)a(?-i)\xe3b`, false, "A\xe3b", []string{"A\xe3b"}},
		// A general category without UTF mode: the byte's code point.
		{`\p{L}\xc3`, true, "\xaa\xc3", []string{"\xaa\xc3"}},
		{`\p{L}\xc3`, true, "\xd7\xc3", nil},
		{`[\p{L}0]+`, true, "/\xb5a0\xd7", []string{"\xb5a0"}},
		{`\PL\xc3`, true, "\xd7\xc3", []string{"\xd7\xc3"}},
		{`[^\p{Nd}]`, true, "0\xb2", []string{"\xb2"}},
	} {
		caps, ok, why := Compile(c.pattern, c.caseless).Match(c.subject)
		if why != "" {
			t.Errorf("%q (caseless %v) on %q: unsure (%s)", c.pattern, c.caseless, c.subject, why)
			continue
		}
		var got []string
		if ok {
			got = caps.Values
		}
		if !slices.Equal(got, c.want) || ok != (c.want != nil) {
			t.Errorf("%q (caseless %v) on %q: %q, want %q", c.pattern, c.caseless, c.subject, got, c.want)
		}
	}
	// Kept unsure: a caseless \p{Lu}, \p{Ll} or \p{Lt} (PCRE2 10.42 takes
	// them with case, 10.45 as \p{L&}), scripts (PCRE2's versions read
	// a script name as the script or its extensions), flags Go does not
	// know.
	for _, c := range []struct {
		pattern  string
		caseless bool
	}{
		{`\p{Lu}\xc3`, true},
		{`(?i)\p{Ll}\xc3`, false},
		{`[\p{Lt}]\xc3`, true},
		{`\p{Latin}\xc3`, true},
		{`(?x)\xc3 `, true},
	} {
		if _, _, why := Compile(c.pattern, c.caseless).Match("\xe3"); why == "" {
			t.Errorf("%q (caseless %v): sure, want unsure", c.pattern, c.caseless)
		}
	}
}

// TestPUAPatternMeansTheSame checks the rewrite against the Latin-1
// reading on subjects where the two must agree: a case-sensitive match
// of every byte.
func TestPUAPatternMeansTheSame(t *testing.T) {
	for _, p := range []string{
		`\xc3`, "a\xc3b", `[\x7b-\xff]`, `[^a\xc3]`, `[]\xe0-\xef-]`, `[\d\xe0-]+`, `[[:alpha:]\xff]`,
		`\Q.` + "\xe9" + `\E`, `(?:\xc3|\x{e3})`, `(?P<x>[\x00-\x{ff}])`, `[\0-\x7f]`, `[\]\-\xc0]`, `[\t-\xa0]`,
		`(?s).\xc3`, `\p{L}\xc3`, `\PL`, `\P{^L}`, `[\p{L}\xc3]`, `[^\P{Nd}]`, `\p{Lu}+`, `(?U)\xc3+`,
	} {
		expr, ok := puaPattern(p, false)
		if !ok {
			t.Errorf("%q: not rewritten", p)
			continue
		}
		a, b := Compile(p, false), &Regex{Pattern: p, re: mustCompile(t, expr), pua: true}
		for c := 0; c < 256; c++ {
			s := "x" + string([]byte{byte(c)}) + "y"
			ca, oka, _ := a.Match(s)
			cb, okb, _ := b.Match(s)
			if oka != okb || oka && !slices.Equal(ca.Values, cb.Values) {
				t.Errorf("%q on %q: Latin-1 %v %q, PUA (%s) %v %q", p, s, oka, ca, expr, okb, cb)
			}
		}
	}
	for _, p := range []string{`(?x)\xc3`, `\p{Greek}`, `\p{Any}`, `\p{L&}`, `[\b\xc3]`, `\x{100}`, `[\1]`, `(?=a)\xc3`} {
		if expr, ok := puaPattern(p, false); ok {
			t.Errorf("%q: rewritten as %q, want refused", p, expr)
		}
	}
}

func mustCompile(t *testing.T, expr string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
	return re
}
