package didyoumean

import (
	"slices"
	"testing"
)

var commands = []string{"lint", "parse", "fmt", "rules", "explain", "build-info", "lsp", "cost", "calibrate", "help", "version"}

var ruleNames = []string{"weak-ssl-tls", "add-header-redefinition", "add-header-multiline", "add-header-content-type",
	"unknown-directive", "version-disclosure", "syntax-error", "ssrf", "NL3010", "NL3011", "NL2001"}

func TestClosest(t *testing.T) {
	tests := []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"lnit", commands, []string{"lint"}},
		{"LNIT", commands, []string{"lint"}},
		{"hlep", commands, []string{"help"}},
		{"verison", commands, []string{"version"}},
		{"calibarte", commands, []string{"calibrate"}},
		{"cots", commands, []string{"cost"}},
		{"lint", commands, nil},       // known: nothing to suggest
		{"nginx.conf", commands, nil}, // a file name, not a typo
		{"x", commands, nil},
		{"zzzzzz", commands, nil},
		// Word overlap: the words of the name in another order, or some
		// of them.
		{"ssl-weak", ruleNames, []string{"weak-ssl-tls"}},
		{"weak-ssl", ruleNames, []string{"weak-ssl-tls"}},
		{"weak_ssl", ruleNames, []string{"weak-ssl-tls"}},
		{"ssl", ruleNames, []string{"weak-ssl-tls"}},
		{"header-add-multiline", ruleNames, []string{"add-header-multiline"}},
		{"unknown-directives", ruleNames, []string{"unknown-directive"}},
		{"version-disclosur", ruleNames, []string{"version-disclosure"}},
		// Fewer words left over rank first.
		{"header", ruleNames, []string{"add-header-multiline", "add-header-redefinition", "add-header-content-type"}},
		{"nl3010", ruleNames, nil}, // a known code in another case
		{"NL301", ruleNames, []string{"NL3010", "NL3011"}},
		{"rulez", []string{"prefix", "include-paths", "custom-directives", "rules"}, []string{"rules"}},
		{"", commands, nil},
	}
	for _, tt := range tests {
		got := Closest(tt.name, tt.candidates)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		d    int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"lnit", "lint", 1},
		{"ca", "abc", 3}, // optimal string alignment, not full Damerau
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
		// Bounded below the answer: bound+1, with or without a buffer.
		for _, buf := range [][]int{nil, make([]int, 3*64)} {
			if got := Distance(tt.a, tt.b, tt.d-1, buf); tt.d > 0 && got != tt.d {
				t.Errorf("Distance(%q, %q, bound %d) = %d, want %d (bound+1)", tt.a, tt.b, tt.d-1, got, tt.d)
			}
			if got := Distance(tt.a, tt.b, 10, buf); got != tt.d {
				t.Errorf("Distance(%q, %q, bound 10) = %d, want %d", tt.a, tt.b, got, tt.d)
			}
		}
	}
}

func TestSuffix(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, `, did you mean "a"?`},
		{[]string{"a", "b"}, `, did you mean "a" or "b"?`},
		{[]string{"a", "b", "c"}, `, did you mean "a", "b" or "c"?`},
	} {
		if got := Suffix(tt.in); got != tt.want {
			t.Errorf("Suffix(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
