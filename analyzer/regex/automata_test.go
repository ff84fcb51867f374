package regex

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// accepts runs an automaton on s.
func accepts(a Automaton, s string) bool {
	st := a.start()
	for i := 0; i < len(s); i++ {
		st = a.step(st, s[i])
	}
	return a.accepts(st)
}

// randomRegex draws a small regex over a few bytes.
func randomRegex(r *rand.Rand, depth int) string {
	atoms := []string{"a", "b", "/", `\.`, ".", "[ab]", "[^/]", "x", "A"}
	if depth <= 0 {
		return atoms[r.IntN(len(atoms))]
	}
	switch r.IntN(7) {
	case 0:
		return randomRegex(r, depth-1) + randomRegex(r, depth-1)
	case 1:
		return "(" + randomRegex(r, depth-1) + "|" + randomRegex(r, depth-1) + ")"
	case 2:
		return "(" + randomRegex(r, depth-1) + ")*"
	case 3:
		return "(" + randomRegex(r, depth-1) + ")+"
	case 4:
		return "(" + randomRegex(r, depth-1) + ")?"
	case 5:
		return "(" + randomRegex(r, depth-1) + "){1,2}"
	}
	return atoms[r.IntN(len(atoms))]
}

func anchor(r *rand.Rand, re string) string {
	if r.IntN(3) == 0 {
		re = "^" + re
	}
	if r.IntN(3) == 0 {
		re += "$"
	}
	return re
}

// strings up to n bytes over alphabet, each once.
func allStrings(alphabet string, n int) []string {
	out := []string{""}
	layer := []string{""}
	for range n {
		var next []string
		for _, s := range layer {
			for i := 0; i < len(alphabet); i++ {
				next = append(next, s+alphabet[i:i+1])
			}
		}
		out = append(out, next...)
		layer = next
	}
	return out
}

// TestRegexAutomaton: the automaton of a regex accepts exactly the
// subjects Go's regexp finds a match in, for random regexes and every
// short subject without a final newline (where Go's $ and PCRE's agree);
// the final newline is TestRegexAutomatonDollar's.
func TestRegexAutomaton(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 29))
	subjects := allStrings("ab/.xA\n", 4)
	for range 300 {
		pattern := anchor(r, randomRegex(r, 3))
		caseless := r.IntN(4) == 0
		rx := Compile(pattern, caseless)
		n, why := rx.langNFA()
		if n == nil {
			t.Fatalf("%q: %s", pattern, why)
		}
		a := newRegexAuto(n)
		expr := pattern
		if caseless {
			expr = "(?i)" + expr
		}
		gore := regexp.MustCompile(expr)
		for _, s := range subjects {
			if strings.HasSuffix(s, "\n") {
				continue
			}
			if got, want := accepts(a, s), gore.MatchString(s); got != want {
				t.Fatalf("%q (caseless %v) on %q: automaton %v, regexp %v", pattern, caseless, s, got, want)
			}
		}
	}
}

// TestRegexAutomatonDollar: PCRE's "$" also matches before a final
// newline, and only there ("a$" does not match "a\n\n"; "a$\n" matches
// "a\n"); \z and \s are not compared.
func TestRegexAutomatonDollar(t *testing.T) {
	for _, c := range []struct {
		pattern, subject string
		want             bool
	}{
		{`a$`, "a", true},
		{`a$`, "a\n", true},
		{`a$`, "a\n\n", false},
		{`a$`, "ab", false},
		{`a$\n`, "a\n", true},
		{`a$\n`, "a\nb", false},
		{`^a$`, "a\n", true},
		{`^a$`, "ba\n", false},
		{`\.php$`, "/x.php\n", true},
		{`\.php$`, "/x.php\nx", false},
		{`$`, "", true},
		{`^$`, "\n", true},
		{`^$`, "\n\n", false},
		{`(a$|b)`, "a\n", true},
		{`(a$|b)c`, "a\n", false},
		{`^/a`, "x/a", false},
		{`(?i)ABC`, "xabc", true},
		{`[^a]`, "\n", true},
		{`.`, "\n", false},
		{`(?s).`, "\n", true},
	} {
		n, why := Compile(c.pattern, false).langNFA()
		if n == nil {
			t.Fatalf("%q: %s", c.pattern, why)
		}
		if got := accepts(newRegexAuto(n), c.subject); got != c.want {
			t.Errorf("%q on %q: %v, want %v", c.pattern, c.subject, got, c.want)
		}
	}
	for _, p := range []string{`a\z`, `\s`, `a{,2}`, `\bx`, `(?m)^a`, `(a)\1`} {
		if n, _ := Compile(p, false).langNFA(); n != nil {
			t.Errorf("%q: compared, want unsure", p)
		}
	}
	// A caseless byte above 0x7f is itself only, as in PCRE's C locale.
	n, why := Compile("^\xe0a", true).langNFA()
	if n == nil {
		t.Fatalf("a caseless byte above 0x7f: %s", why)
	}
	for s, want := range map[string]bool{"\xe0a": true, "\xe0A": true, "\xc0a": false} {
		if got := accepts(newRegexAuto(n), s); got != want {
			t.Errorf("~* ^\\xe0a on %q: %v, want %v", s, got, want)
		}
	}
}

// includes says whether every subject b matches is matched by one of as,
// by Search.
func includes(b *Regex, as ...*Regex) (yes, sure bool) {
	ab, _ := b.Automaton()
	if ab == nil {
		return false, false
	}
	var neg []Automaton
	for _, a := range as {
		aa, _ := a.Automaton()
		if aa == nil {
			return false, false
		}
		neg = append(neg, aa)
	}
	found, complete := Search([]Automaton{ab}, neg, 1, SearchBudget, 1)
	if len(found) > 0 {
		return false, true
	}
	return complete, complete
}

// TestIncludes: Search agrees with every subject up to 5 bytes over the
// regexes' alphabet: when it finds no subject b matches and none of as
// does, there is none; the examples of inclusion by several regexes hold
// (what unreachable-location reports).
func TestIncludes(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 29))
	subjects := allStrings("ab/.x", 5)
	yes, no := 0, 0
	for range 400 {
		b := Compile(anchor(r, randomRegex(r, 2)), false)
		var as []*Regex
		for range 1 + r.IntN(3) {
			as = append(as, Compile(anchor(r, randomRegex(r, 2)), false))
		}
		inc, sure := includes(b, as...)
		if !sure {
			t.Fatalf("%q in %v: unsure", b.Pattern, as)
		}
		var counter string
		found := false
		for _, x := range subjects {
			if _, ok, _ := b.Match(x); !ok {
				continue
			}
			taken := false
			for _, a := range as {
				if _, ok, _ := a.Match(x); ok {
					taken = true
					break
				}
			}
			if !taken {
				counter, found = x, true
				break
			}
		}
		if inc && found {
			t.Fatalf("%q in %v: included, but %q is matched by it alone", b.Pattern, patterns(as), counter)
		}
		if inc {
			yes++
		} else {
			no++
		}
	}
	if yes < 20 || no < 20 {
		t.Errorf("the draws are lopsided: %d included, %d not", yes, no)
	}
	for _, c := range []struct {
		b    string
		as   []string
		want bool
	}{
		{`/api/v1`, []string{`/api`}, true},
		{`/api`, []string{`/api/v1`}, false},
		{`\.css$`, []string{`\.(css|js)$`}, true},
		{`\.(css|js)$`, []string{`\.css$`, `\.js$`}, true},
		{`\.(css|js)$`, []string{`\.css$`}, false},
		{`^/static/.*\.png$`, []string{`\.(png|jpg)$`}, true},
		{`^/a+$`, []string{`^/a`}, true},
		{`^/a*$`, []string{`^/a`}, false},
		{`^/img/[0-9]+\.png$`, []string{`^/img/`}, true},
	} {
		var as []*Regex
		for _, a := range c.as {
			as = append(as, Compile(a, false))
		}
		got, sure := includes(Compile(c.b, false), as...)
		if !sure || got != c.want {
			t.Errorf("%q in %q: %v (sure %v), want %v", c.b, c.as, got, sure, c.want)
		}
	}
}

func patterns(rs []*Regex) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Pattern)
	}
	return out
}

// TestMadeCaselessHighBytes: the strings a rewrite makes from a caseless
// regex naming bytes above 0x7f hold its captures' bytes as they are and
// the replacement's own bytes (read with pua, as the regex is).
func TestMadeCaselessHighBytes(t *testing.T) {
	re := Compile(`^/\xc3(?i)(a[\xe0-\xef]+)$`, true)
	if !re.pua {
		t.Fatal("not read with pua")
	}
	a, ok := Made(re, []Piece{{Lit: "/x\xe9/"}, {Capture: 1}})
	if !ok {
		t.Fatal("no automaton")
	}
	for s, want := range map[string]bool{
		"/x\xe9/a\xe0": true, "/x\xe9/A\xef\xe0": true, "/x\xc9/a\xe0": false, "/x\xe9/a\xc0": false, "/x\xe9/a": false,
	} {
		if got := accepts(a, s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
