package regex

import (
	"maps"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// This file decides whether a backtracking engine such as PCRE can take
// super-linear time on a regex, from the regex's ambiguity: how many ways
// its automaton can read one string. A backtracking matcher that fails
// tries every way, so (after Weideman, van der Merwe, Berglund and Watson,
// "Analyzing matching time behavior of backtracking regular expression
// matchers by using ambiguity of NFA", 2016):
//
//   - exponential: some state q can go from q back to q reading a string w
//     in two different ways. Pumping w n times gives 2^n ways to read w^n,
//     and a subject that then fails to match makes PCRE try them all
//     ((a+)+, (a|ab)+, (.|x)+);
//   - polynomial: two different states p and q with p -> p, p -> q and
//     q -> q each reading the same w. A subject of n copies of w has about
//     n^2 ways ((.*.*end): two adjacent quantifiers that read the same
//     characters), unless PCRE makes the second loop possessive (nothing
//     after it can start the way it does: \d+\d+x).
//
// The automaton is the position (Glushkov) automaton over bytes (nginx
// compiles its regexes for 8-bit subjects), with each transition counted
// as often as the regex gives a way to take it: (a+)+ goes from a to a in
// two ways, through the inner and through the outer repetition, which a
// set of transitions would hide. Anchors and word boundaries are read as
// empty (an over-approximation); a bounded repetition is unrolled, so it
// makes no loop; a regex too big to unroll is not judged.

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(lo, hi int) {
	for c := max(lo, 0); c <= min(hi, 255); c++ {
		s[c>>6] |= 1 << (c & 63)
	}
}

func (s byteSet) and(t byteSet) byteSet {
	return byteSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

func (s byteSet) empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

func (s byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// pick returns a byte of the set, a printable one when there is one.
func (s byteSet) pick() byte {
	for _, c := range []byte("aA0/x.-_ ") {
		if s.has(c) {
			return c
		}
	}
	for c := 33; c < 127; c++ {
		if s.has(byte(c)) {
			return byte(c)
		}
	}
	for i, w := range s {
		if w != 0 {
			return byte(i*64 + bits.TrailingZeros64(w))
		}
	}
	return 0
}

// maxPositions bounds the automaton a regex unrolls to; a larger one is
// not judged (nginx's regexes are short; the analysis is quadratic in
// the positions of one loop).
const maxPositions = 400

// positionNFA is a regex's position automaton: state 0 is the start,
// state i > 0 reads a byte of label[i]. follow[i][j] counts the ways to go
// from i to j (capped at 2: two is already ambiguous).
type positionNFA struct {
	label  []byteSet
	follow []map[int32]uint8
	// next lists the states follow[i] reaches, in increasing order: the
	// searches walk it rather than the map, so that the subject a
	// finding shows is the same on every run.
	next  [][]int32
	final []bool
}

// countSet is a set of positions with the number of ways to reach each.
type countSet map[int32]uint8

func (c countSet) add(other countSet) {
	for k, v := range other {
		c[k] = min(c[k]+v, 2)
	}
}

type fragment struct {
	first, last countSet
	nullable    bool
}

// buildNFA returns the position automaton of re, or false when it is
// larger than maxPositions.
func buildNFA(re *syntax.Regexp) (*positionNFA, bool) {
	n := &positionNFA{label: []byteSet{{}}, follow: []map[int32]uint8{{}}}
	f, ok := n.build(re)
	if !ok {
		return nil, false
	}
	n.link(countSet{0: 1}, f.first)
	n.final = make([]bool, len(n.label))
	for p := range f.last {
		n.final[p] = true
	}
	n.final[0] = f.nullable
	n.next = make([][]int32, len(n.follow))
	for i, m := range n.follow {
		n.next[i] = slices.Sorted(maps.Keys(m))
	}
	return n, true
}

func (n *positionNFA) position(s byteSet) (int32, bool) {
	if len(n.label) >= maxPositions {
		return 0, false
	}
	n.label = append(n.label, s)
	n.follow = append(n.follow, map[int32]uint8{})
	return int32(len(n.label) - 1), true
}

// link adds a transition from every position of from to every one of to,
// counting the ways.
func (n *positionNFA) link(from, to countSet) {
	for p, a := range from {
		for q, b := range to {
			n.follow[p][q] = min(n.follow[p][q]+a*b, 2)
		}
	}
}

func leaf(p int32) fragment {
	return fragment{first: countSet{p: 1}, last: countSet{p: 1}}
}

func emptyFragment() fragment {
	return fragment{first: countSet{}, last: countSet{}, nullable: true}
}

func (n *positionNFA) build(re *syntax.Regexp) (fragment, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		f := emptyFragment()
		for _, r := range re.Rune {
			var s byteSet
			addRune(&s, r, re.Flags&syntax.FoldCase != 0)
			p, ok := n.position(s)
			if !ok {
				return f, false
			}
			f = n.concat(f, leaf(p))
		}
		return f, true
	case syntax.OpCharClass:
		var s byteSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			s.add(int(lo), int(min(hi, 255)))
			if hi > 127 {
				s.add(128, 255) // a multi-byte character: some high bytes
			}
		}
		p, ok := n.position(s)
		return leaf(p), ok
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		var s byteSet
		s.add(0, 255)
		if re.Op == syntax.OpAnyCharNotNL {
			s[0] &^= 1 << '\n'
		}
		p, ok := n.position(s)
		return leaf(p), ok
	case syntax.OpCapture:
		return n.build(re.Sub[0])
	case syntax.OpConcat:
		f := emptyFragment()
		for _, sub := range re.Sub {
			g, ok := n.build(sub)
			if !ok {
				return f, false
			}
			f = n.concat(f, g)
		}
		return f, true
	case syntax.OpAlternate:
		f := fragment{first: countSet{}, last: countSet{}}
		for _, sub := range re.Sub {
			g, ok := n.build(sub)
			if !ok {
				return f, false
			}
			f.first.add(g.first)
			f.last.add(g.last)
			f.nullable = f.nullable || g.nullable
		}
		return f, true
	case syntax.OpStar, syntax.OpPlus:
		g, ok := n.build(re.Sub[0])
		if !ok {
			return g, false
		}
		n.link(g.last, g.first)
		g.nullable = g.nullable || re.Op == syntax.OpStar
		return g, true
	case syntax.OpQuest:
		g, ok := n.build(re.Sub[0])
		g.nullable = true
		return g, ok
	case syntax.OpRepeat:
		// Unrolled: x{2,4} is x x x? x?, x{2,} is x x x*. A bound too
		// big to unroll counts as unbounded, which can only add ways.
		hi := re.Max
		if hi > 32 {
			hi = -1
		}
		f := emptyFragment()
		for i := 0; i < max(re.Min, 1) || i < hi; i++ {
			if i >= re.Min && (hi < 0 || i >= hi) {
				break
			}
			g, ok := n.build(re.Sub[0])
			if !ok {
				return f, false
			}
			if i >= re.Min {
				g.nullable = true
			}
			f = n.concat(f, g)
		}
		if hi < 0 {
			g, ok := n.build(re.Sub[0])
			if !ok {
				return f, false
			}
			n.link(g.last, g.first)
			g.nullable = true
			f = n.concat(f, g)
		}
		return f, true
	}
	// Anchors, word boundaries, the empty match: read as empty.
	return emptyFragment(), true
}

// concat joins a and b: a's last positions lead to b's first.
func (n *positionNFA) concat(a, b fragment) fragment {
	n.link(a.last, b.first)
	f := fragment{first: countSet{}, last: countSet{}, nullable: a.nullable && b.nullable}
	f.first.add(a.first)
	if a.nullable {
		f.first.add(b.first)
	}
	f.last.add(b.last)
	if b.nullable {
		f.last.add(a.last)
	}
	return f
}

func addRune(s *byteSet, r rune, fold bool) {
	if r > 127 {
		s.add(128, 255)
		return
	}
	s.add(int(r), int(r))
	if fold {
		if 'a' <= r && r <= 'z' {
			s.add(int(r-32), int(r-32))
		} else if 'A' <= r && r <= 'Z' {
			s.add(int(r+32), int(r+32))
		}
	}
}

// sccs returns the strongly connected component of every state (Tarjan)
// and whether each component has a cycle.
func (n *positionNFA) sccs() (comp []int32, cyclic []bool) {
	size := len(n.label)
	comp = make([]int32, size)
	index := make([]int32, size)
	low := make([]int32, size)
	on := make([]bool, size)
	for i := range index {
		index[i] = -1
	}
	var stack []int32
	next := int32(0)
	var visit func(v int32)
	visit = func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range n.next[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			c := int32(len(cyclic))
			selfLoop := false
			members := 0
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = c
				members++
				if _, ok := n.follow[w][w]; ok {
					selfLoop = true
				}
				if w == v {
					break
				}
			}
			cyclic = append(cyclic, members > 1 || selfLoop)
		}
	}
	for v := range size {
		if index[v] < 0 {
			visit(int32(v))
		}
	}
	return comp, cyclic
}

// Backtracking is what the analysis found: a growth class, and the parts
// of a subject that shows it: Prefix, then Pump repeated, then Suffix.
type Backtracking struct {
	// Exponential: about 2^n steps on n pumps; otherwise about n^2.
	Exponential          bool
	Prefix, Pump, Suffix string
}

// Attack returns a subject with the pump repeated n times.
func (b *Backtracking) Attack(n int) string {
	return b.Prefix + strings.Repeat(b.Pump, n) + b.Suffix
}

// AnalyzeBacktracking returns how a backtracking matcher can blow up on
// re (read as nginx reads expr, caseless or not), or nil when it cannot
// (or the regex is too big to judge). match decides whether a subject
// matches at all: a pumped subject that matches is found quickly, so an
// attack needs a suffix that makes it fail.
func AnalyzeBacktracking(re *syntax.Regexp, match func(string) bool) *Backtracking {
	n, ok := buildNFA(re)
	if !ok {
		return nil
	}
	comp, cyclic := n.sccs()
	if b, q := n.exponential(comp, cyclic); b != nil && n.finish(b, q, match) {
		return b
	}
	if b, q := n.polynomial(comp, cyclic); b != nil && n.finish(b, q, match) {
		return b
	}
	return nil
}

// pair is a state of the product automaton: two runs reading the same
// string, and whether they have parted on the way (so a return of both
// to one state is two different runs).
type pair struct {
	a, b  int32
	apart bool
}

// exponential looks, in each cyclic component, for a state q from which
// two different runs read the same string back to q.
func (n *positionNFA) exponential(comp []int32, cyclic []bool) (*Backtracking, int32) {
	for q := int32(1); q < int32(len(n.label)); q++ {
		if !cyclic[comp[q]] {
			continue
		}
		c := comp[q]
		// A breadth-first search of the product automaton inside the
		// component, from (q, q), for (q, q) again with the runs apart:
		// they took different states, or two ways of one transition.
		start := pair{q, q, false}
		prev := map[pair]pair{start: start}
		via := map[pair]byte{}
		queue := []pair{start}
		for len(queue) > 0 && len(prev) < 40000 {
			s := queue[0]
			queue = queue[1:]
			for _, a2 := range n.next[s.a] {
				ca := n.follow[s.a][a2]
				if comp[a2] != c {
					continue
				}
				for _, b2 := range n.next[s.b] {
					if comp[b2] != c {
						continue
					}
					common := n.label[a2].and(n.label[b2])
					if common.empty() {
						continue
					}
					t := pair{a2, b2, s.apart || a2 != b2 || s.a == s.b && a2 == b2 && ca > 1}
					if t.a == q && t.b == q && t.apart {
						return &Backtracking{Exponential: true, Prefix: n.pathTo(q), Pump: spell(prev, via, s, start) + string(common.pick())}, q
					}
					if _, seen := prev[t]; seen {
						continue
					}
					prev[t], via[t] = s, common.pick()
					queue = append(queue, t)
				}
			}
		}
	}
	return nil, 0
}

// spell returns the bytes read from start to s along prev.
func spell(prev map[pair]pair, via map[pair]byte, s, start pair) string {
	var out []byte
	for s != start {
		out = append(out, via[s])
		s = prev[s]
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// triple is a state of the automaton that runs three copies at once.
type triple struct{ a, b, c int32 }

// polynomial looks for two states p != q in different cyclic components
// with p -> p, p -> q and q -> q each reading one string w: the runs that
// move from p to q at any point of w^n are about n^2.
func (n *positionNFA) polynomial(comp []int32, cyclic []bool) (*Backtracking, int32) {
	for p := int32(1); p < int32(len(n.label)); p++ {
		if !cyclic[comp[p]] {
			continue
		}
		for q := int32(1); q < int32(len(n.label)); q++ {
			if q == p || !cyclic[comp[q]] || comp[q] == comp[p] || n.possessive(q, comp) {
				continue
			}
			start, goal := triple{p, p, q}, triple{p, q, q}
			prev := map[triple]triple{start: start}
			via := map[triple]byte{}
			queue := []triple{start}
			for len(queue) > 0 && len(prev) < 40000 {
				s := queue[0]
				queue = queue[1:]
				for _, a2 := range n.next[s.a] {
					if comp[a2] != comp[p] {
						continue
					}
					for _, b2 := range n.next[s.b] {
						ab := n.label[a2].and(n.label[b2])
						if ab.empty() {
							continue
						}
						for _, c2 := range n.next[s.c] {
							if comp[c2] != comp[q] {
								continue
							}
							common := ab.and(n.label[c2])
							if common.empty() {
								continue
							}
							t := triple{a2, b2, c2}
							if _, seen := prev[t]; seen {
								continue
							}
							prev[t], via[t] = s, common.pick()
							if t == goal {
								var out []byte
								for x := t; x != start; x = prev[x] {
									out = append(out, via[x])
								}
								for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
									out[i], out[j] = out[j], out[i]
								}
								return &Backtracking{Prefix: n.pathTo(p), Pump: string(out)}, q
							}
							queue = append(queue, t)
						}
					}
				}
			}
		}
	}
	return nil, 0
}

// possessive reports whether PCRE makes the loop at q possessive: nothing
// that can follow it can start with a byte it reads (PCRE2's
// auto-possessification turns \d+x into \d++x). A possessive loop gives
// nothing back, so the boundary before it is not searched by
// backtracking; the time spent rescanning it is still quadratic, but not
// what this check is about.
func (n *positionNFA) possessive(q int32, comp []int32) bool {
	for _, t := range n.next[q] {
		if comp[t] != comp[q] && !n.label[t].and(n.label[q]).empty() {
			return false
		}
	}
	return true
}

// pathTo returns a shortest string that leads from the start to state q.
func (n *positionNFA) pathTo(q int32) string {
	prev := map[int32]int32{0: 0}
	queue := []int32{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s == q {
			break
		}
		for _, t := range n.next[s] {
			if _, seen := prev[t]; !seen {
				prev[t] = s
				queue = append(queue, t)
			}
		}
	}
	var out []byte
	for s := q; s != 0; s = prev[s] {
		out = append(out, n.label[s].pick())
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// failing are the characters tried at the end of a pumped subject to make
// it fail. A newline alone is not among them: PCRE's $ matches before a
// final newline.
var failing = []string{"!", "#", "%", "~", "\"", "'", "\n\n", ""}

// finish picks an ending with which the pumped subject does not match, so
// that a backtracking matcher tries every way; false when none does. The
// ending is tried with the rest of the regex before it (what leads from
// the pumped state to a match), since PCRE fails at once a subject that
// lacks a character every match needs (the "h" of /path$) without
// backtracking at all.
func (n *positionNFA) finish(b *Backtracking, from int32, match func(string) bool) bool {
	if b.Pump == "" {
		return false
	}
	rest := n.completion(from)
	var tails []string
	for _, f := range failing {
		tails = append(tails, rest+f)
		if rest != "" {
			tails = append(tails, rest[:len(rest)-1]+f)
		}
	}
	tails = append(tails, failing...)
	for _, s := range tails {
		b.Suffix = s
		if !match(b.Attack(12)) && !match(b.Attack(13)) {
			return true
		}
	}
	return false
}

// completion returns a shortest string that leads from state q to a match.
func (n *positionNFA) completion(q int32) string {
	prev := map[int32]int32{q: q}
	queue := []int32{q}
	end := int32(-1)
	for len(queue) > 0 && end < 0 {
		s := queue[0]
		queue = queue[1:]
		if n.final[s] {
			end = s
			break
		}
		for _, t := range n.next[s] {
			if _, seen := prev[t]; !seen {
				prev[t] = s
				queue = append(queue, t)
			}
		}
	}
	if end < 0 {
		return ""
	}
	var out []byte
	for s := end; s != q; s = prev[s] {
		out = append(out, n.label[s].pick())
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// Matcher returns the match function AnalyzeBacktracking needs for a
// regex nginx reads from expr: Go's regexp, which agrees with PCRE on
// whether a subject matches for the regexes Go accepts.
func Matcher(expr string, caseless bool) func(string) bool {
	if caseless {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return func(string) bool { return true }
	}
	// PCRE's $ also matches before a final newline, Go's does not: a
	// subject counts as matching when either reading says so.
	return func(s string) bool {
		return re.MatchString(s) || strings.HasSuffix(s, "\n") && re.MatchString(s[:len(s)-1])
	}
}

// Unfactored parses expr for the ambiguity analysis. Go's parser rewrites
// alternations (x|. becomes one character class, ab|ac becomes a(?:b|c)),
// which keeps the language but not the ways to read a string, and PCRE
// does no such thing: (.|x)+ backtracks exponentially in PCRE. An empty
// group at the start of every alternative keeps the parser from merging
// them; the analysis reads it as empty.
func Unfactored(expr string, caseless bool) *syntax.Regexp {
	var b strings.Builder
	b.Grow(len(expr) + 16)
	b.WriteString("()")
	class := false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '\\' && i+1 < len(expr):
			b.WriteString(expr[i : i+2])
			i++
			continue
		case class:
			if c == ']' {
				class = false
			}
		case c == '[':
			class = true
			b.WriteByte(c)
			// A ] first in a class is a literal.
			if j := i + 1; j < len(expr) && expr[j] == '^' {
				b.WriteByte('^')
				i = j
			}
			if j := i + 1; j < len(expr) && expr[j] == ']' {
				b.WriteByte(']')
				i = j
			}
			continue
		case c == '|':
			b.WriteString("|()")
			continue
		case c == '(':
			// The group's opening: (, (?:, (?P<name>, (?<name>, (?i:. A
			// flag group (?i) holds nothing.
			j := i + 1
			if j < len(expr) && expr[j] == '?' {
				for j++; j < len(expr) && expr[j] != ':' && expr[j] != '>' && expr[j] != ')'; j++ {
				}
				if j < len(expr) && expr[j] == ')' {
					b.WriteString(expr[i : j+1])
					i = j
					continue
				}
				j++
			}
			b.WriteString(expr[i:min(j, len(expr))])
			b.WriteString("()")
			i = min(j, len(expr)) - 1
			continue
		}
		b.WriteByte(c)
	}
	if re := Parse(b.String(), caseless); re != nil {
		return re
	}
	return Parse(expr, caseless)
}
