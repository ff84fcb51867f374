package regex

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// firstByLoop is what nginx does with an ordered list: the first regex
// that matches s, and whether Match was unsure there (-1: none).
func firstByLoop(rs []*Regex, s string) (int, bool) {
	for i, r := range rs {
		_, ok, why := r.Match(s)
		if why != "" {
			return i, true
		}
		if ok {
			return i, false
		}
	}
	return -1, false
}

func firstByOrdered(o *Ordered, rs []*Regex, s string) (first int, unsure bool, tried int) {
	first = -1
	o.Candidates(s, func(i int) bool {
		tried++
		_, ok, why := rs[i].Match(s)
		if why != "" || ok {
			first, unsure = i, why != ""
			return true
		}
		return false
	})
	return first, unsure, tried
}

// randomPattern is a small regex over the bytes subjects are made of,
// with anchors, classes, groups, repeats, and now and then a construct
// without an exact automaton (\s, a backreference) or one Match is
// unsure of ($ before a final newline).
func randomPattern(rng *rand.Rand, depth int) string {
	atoms := []string{"a", "b", "/", `\.`, "[ab]", "[^/]", ".", `\d`, "1", "A", `\s`, "(a)\\1"}
	var b strings.Builder
	n := 1 + rng.IntN(3)
	for range n {
		switch k := rng.IntN(10); {
		case k < 6 || depth > 2:
			b.WriteString(atoms[rng.IntN(len(atoms))])
		case k < 8:
			fmt.Fprintf(&b, "(%s|%s)", randomPattern(rng, depth+1), randomPattern(rng, depth+1))
		default:
			fmt.Fprintf(&b, "(?:%s)", randomPattern(rng, depth+1))
		}
		switch rng.IntN(6) {
		case 0:
			b.WriteString("*")
		case 1:
			b.WriteString("+")
		case 2:
			b.WriteString("?")
		}
	}
	return b.String()
}

// edgePatterns match the empty string somewhere, only at the end, or
// begin with "^" in one alternative only.
var edgePatterns = []string{"$", "^$", "b*$", "(^a|b)", "a|$", "", "^", "x*", "(?i)B$", `\n$`, "^/?$", "(a|^/)b"}

// TestOrderedAsLoop: the first regex of a list that matches a subject,
// or that Match is unsure of, is the same asked through Ordered as
// tried one by one, on random lists and subjects (anchored and not,
// caseless, with regexes that have no automaton and subjects ending in
// a newline), also when the work bound runs out part way.
func TestOrderedAsLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 5000))
	subjectBytes := "ab/.1A\n\v"
	for list := range 300 {
		var rs []*Regex
		for range 1 + rng.IntN(30) {
			p := randomPattern(rng, 0)
			switch rng.IntN(4) {
			case 0:
				p = "^" + p
			case 1:
				p += "$"
			case 2:
				p = "^/" + p + "$"
			}
			if rng.IntN(8) == 0 {
				p = edgePatterns[rng.IntN(len(edgePatterns))]
			}
			rs = append(rs, Compile(p, rng.IntN(4) == 0))
		}
		work := 0
		if list%3 == 0 {
			work = 1 + rng.IntN(200)
		}
		o := NewOrdered(rs, work)
		for range 200 {
			var s strings.Builder
			for range rng.IntN(8) {
				s.WriteByte(subjectBytes[rng.IntN(len(subjectBytes))])
			}
			if rng.IntN(2) == 0 {
				s2 := "/" + s.String()
				s.Reset()
				s.WriteString(s2)
			}
			want, wantUnsure := firstByLoop(rs, s.String())
			got, gotUnsure, _ := firstByOrdered(o, rs, s.String())
			if got != want || gotUnsure != wantUnsure {
				var ps []string
				for _, r := range rs {
					ps = append(ps, fmt.Sprintf("%q/%v", r.Pattern, r.Caseless))
				}
				t.Fatalf("list %v, subject %q: Ordered says %d (unsure %v), the loop %d (unsure %v)", ps, s.String(), got, gotUnsure, want, wantUnsure)
			}
		}
	}
}

// TestOrderedWork: n regexes of the shapes that made diff quadratic,
// each asked with subjects of its own, try one regex per subject (once
// the automaton is built)
// and build automaton states in proportion to n (times the digits of
// the numbers that tell them apart), where a loop would try n²/2
// regexes: each with its own literal start (regex locations of one
// level), and not anchored, with a final "$" (extensions), asked under
// many paths.
func TestOrderedWork(t *testing.T) {
	shapes := []struct {
		name    string
		pattern string
		subject func(i int) []string
	}{
		{"anchored", "^/r%d/(a|aa)+(b|bb)*c$", func(i int) []string { return []string{fmt.Sprintf("/r%d/aac", i)} }},
		{"floating", `\.ext%d$`, func(i int) []string {
			return []string{fmt.Sprintf("/nginx-lint-probe.ext%d", i), fmt.Sprintf("/p%d/nginx-lint-probe.ext%d", i%97, i)}
		}},
	}
	for _, sh := range shapes {
		for _, n := range []int{500, 5000} {
			rs := make([]*Regex, n)
			for i := range rs {
				rs[i] = Compile(fmt.Sprintf(sh.pattern, i), false)
			}
			o := NewOrdered(rs, 0)
			tried, asked := 0, 0
			for i := range rs {
				for _, s := range sh.subject(i) {
					first, _, k := firstByOrdered(o, rs, s)
					if first != i {
						t.Fatalf("%s: regex %d, want %d", s, first, i)
					}
					tried += k
					asked++
				}
			}
			work, spent := o.Work()
			t.Logf("%s, %d regexes: work %d", sh.name, n, work)
			// The first orderedWarm subjects are looped over.
			if spent || tried > asked+orderedWarm*orderedWarm || work > 100*n {
				t.Errorf("%s, %d regexes: %d tried for %d subjects, %d work (spent %v); want about one each and at most %d work", sh.name, n, tried, asked, work, spent, 100*n)
			}
		}
	}
}
