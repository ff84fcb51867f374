package directives

import "testing"

func TestContextStrings(t *testing.T) {
	for i := range numContexts {
		c := Context(1) << i
		got, ok := ParseContext(c.String())
		if !ok || got != c {
			t.Errorf("ParseContext(%q) = %v, %v; want bit %d", c.String(), got, ok, i)
		}
	}
	if s := (HTTP | Server | IfInLocation).String(); s != "http,server,if-in-location" {
		t.Errorf("String = %q", s)
	}
	if s := Context(0).String(); s != "" {
		t.Errorf("empty String = %q", s)
	}
	if s := (Main | 1<<31).String(); s != "main,0x80000000" {
		t.Errorf("String with unknown bit = %q", s)
	}
	if _, ok := ParseContext("if"); ok {
		t.Error(`ParseContext("if") succeeded; the data expands it`)
	}
	if c, err := ParseContexts("stream-map,main"); err != nil || c != Main|StreamMap {
		t.Errorf("ParseContexts = %v, %v", c, err)
	}
	if _, err := ParseContexts("http,bogus"); err == nil {
		t.Error("ParseContexts accepted an unknown word")
	}
	if !(HTTP | Server).Has(Server) || (HTTP).Has(HTTP|Server) {
		t.Error("Has")
	}
}

func TestArgRule(t *testing.T) {
	tests := []struct {
		rule ArgRule
		word string
		ok   []int // counts in 0..9 that are accepted
	}{
		{0, "", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{NoArgs, "NOARGS", []int{0}},
		{Take1, "TAKE1", []int{1}},
		{Take7, "TAKE7", []int{7}},
		{Take12, "TAKE12", []int{1, 2}},
		{Take13, "TAKE13", []int{1, 3}},
		{Take23, "TAKE23", []int{2, 3}},
		{Take123, "TAKE123", []int{1, 2, 3}},
		{Take1234, "TAKE1234", []int{1, 2, 3, 4}},
		{NoArgs | Take1, "NOARGS|TAKE1", []int{0, 1}},
		{NoArgs | Take12, "NOARGS|TAKE12", []int{0, 1, 2}},
		{Flag, "FLAG", []int{1}},
		{OneMore, "1MORE", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{TwoMore, "2MORE", []int{2, 3, 4, 5, 6, 7, 8, 9}},
		{AnyArgs, "ANY", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
	}
	for _, tt := range tests {
		if s := tt.rule.String(); s != tt.word {
			t.Errorf("%#x.String() = %q, want %q", uint16(tt.rule), s, tt.word)
		}
		if r, ok := ParseArgRule(tt.word); !ok || r != tt.rule {
			t.Errorf("ParseArgRule(%q) = %v, %v", tt.word, r, ok)
		}
		for n := -1; n <= 9; n++ {
			want := false
			for _, k := range tt.ok {
				want = want || k == n
			}
			if got := tt.rule.Accepts(n); got != want {
				t.Errorf("%v.Accepts(%d) = %v, want %v", tt.rule, n, got, want)
			}
		}
	}
	for _, bad := range []string{"BLOCK+TAKE1", "TAKE", "TAKE8", "TAKE21", "TAKE11", "TAKE0", "NOARGS|NOARGS", "take1", "MORE"} {
		if _, ok := ParseArgRule(bad); ok {
			t.Errorf("ParseArgRule(%q) succeeded", bad)
		}
	}
	if !Flag.IsFlag() || Take1.IsFlag() || !Take1.Known() || ArgRule(0).Known() {
		t.Error("IsFlag/Known")
	}
}
