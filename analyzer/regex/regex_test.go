package regex

import (
	"regexp/syntax"
	"testing"
)

func mustParse(t *testing.T, expr string) *syntax.Regexp {
	t.Helper()
	re := Parse(expr, false)
	if re == nil {
		t.Fatalf("cannot parse %q", expr)
	}
	return re
}

func TestRegexCharacterQuestions(t *testing.T) {
	for _, c := range []struct {
		expr          string
		lf, cr, slash bool // group 1 may hold LF, CR; may start with a non-slash
	}{
		{`^/a/(.*)$`, false, true, true},
		{`^/a/([^/]+)$`, true, true, true},
		{`^/a/([^\r\n]*)$`, false, false, true},
		{`^/a(/.*)$`, false, true, false},
		{`^/a/(\W*)$`, true, true, true},
		{`^/a/(en|fr)$`, false, false, true},
		{`(?s)^/a/(.*)$`, true, true, true},
	} {
		g := Group(mustParse(t, c.expr), 1, "")
		if g == nil {
			t.Fatalf("%s: no group 1", c.expr)
		}
		other, _ := MayStart(g, RuneSet{Rune: '/', Other: true})
		got := [3]bool{MayContain(g, RuneSet{Rune: '\n'}), MayContain(g, RuneSet{Rune: '\r'}), other}
		if want := [3]bool{c.lf, c.cr, c.slash}; got != want {
			t.Errorf("%s: lf, cr, non-slash start = %v, want %v", c.expr, got, want)
		}
	}
}
