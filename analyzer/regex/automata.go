package regex

import (
	"encoding/binary"
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
)

// This file holds automata of the sets of subjects that regexes match
// and of sets of paths, for questions about every URI at once (the
// request model's Sets: does every URI a regex matches also match
// earlier ones, which URIs reach a location, give one that does). Each
// set is a deterministic Automaton over bytes built on the fly (a
// regex's by the subset construction from its Thompson NFA, with PCRE's
// "$"), and a question is a breadth-first search of the product of some
// automata for a string that all the "positive" ones accept and none of
// the "negative" ones does (Search). The search is bounded: when it runs
// out of states it says so, and the callers then say nothing rather than
// guess.

// byteSet is redos.go's.

// nfaKind is what an NFA state does.
type nfaKind uint8

const (
	nByte  nfaKind = iota // consume a byte of set, go to out
	nSplit                // go to out and out1
	nEps                  // go to out
	nBegin                // go to out at the start of the subject only (^, \A)
	nEnd                  // go to out at the end or before a final newline (PCRE's $)
	nMatch
)

type nfaState struct {
	kind      nfaKind
	out, out1 int32
	set       byteSet
}

// nfa is the Thompson NFA of a regex.
type nfa struct {
	states []nfaState
	start  int32
}

// maxNFAStates bounds the NFA of one regex ("x{1,1000}" is a thousand
// copies of x).
const maxNFAStates = 4096

type patch struct {
	state  int32
	second bool
}

type frag struct {
	start int32
	outs  []patch
}

type nfaBuilder struct {
	states []nfaState
	err    string
	// pua: the tree reads bytes above 0x7f as U+E080..U+E0FF (Regex.pua),
	// else as U+0080..U+00FF.
	pua bool
}

// tree is the regex's expression as Go's regexp/syntax reads it, as
// Compile runs it (nil when it does not).
func (r *Regex) tree() *syntax.Regexp {
	flags := syntax.Perl
	if r.Caseless {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(r.expr, flags)
	if err != nil {
		return nil
	}
	return re
}

// addRange adds to set the bytes whose runes (as the tree reads bytes)
// are in lo..hi.
func (b *nfaBuilder) addRange(set *byteSet, lo, hi rune) {
	if lo <= 0x7f {
		set.add(int(lo), int(min(hi, 0x7f)))
	}
	base := rune(0)
	if b.pua {
		base = puaBase
	}
	lo, hi = max(lo, base+0x80), min(hi, base+0xff)
	if lo <= hi {
		set.add(int(lo-base), int(hi-base))
	}
}

// runeOf is the rune that stands for byte c in the tree.
func (b *nfaBuilder) runeOf(c byte) rune {
	if c >= 0x80 && b.pua {
		return puaBase + rune(c)
	}
	return rune(c)
}

func (b *nfaBuilder) add(s nfaState) int32 {
	if len(b.states) >= maxNFAStates {
		b.err = "the regex is too large to compare"
		return 0
	}
	b.states = append(b.states, s)
	return int32(len(b.states) - 1)
}

func (b *nfaBuilder) patch(ps []patch, to int32) {
	for _, p := range ps {
		if int(p.state) >= len(b.states) {
			continue
		}
		if p.second {
			b.states[p.state].out1 = to
		} else {
			b.states[p.state].out = to
		}
	}
}

func (b *nfaBuilder) byteState(set byteSet) frag {
	s := b.add(nfaState{kind: nByte, set: set})
	return frag{s, []patch{{s, false}}}
}

func (b *nfaBuilder) compile(re *syntax.Regexp) frag {
	if b.err != "" {
		return frag{}
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return b.byteState(byteSet{})
	case syntax.OpEmptyMatch:
		s := b.add(nfaState{kind: nEps})
		return frag{s, []patch{{s, false}}}
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		var f frag
		for i, r := range re.Rune {
			var set byteSet
			b.addRange(&set, r, r)
			// PCRE folds ASCII letters only in nginx's C locale; a
			// caseless regex naming bytes above 0x7f is read with pua
			// (Compile) or refused (buildLangNFA).
			if fold && 'a' <= r && r <= 'z' {
				set.add(int(r-32), int(r-32))
			} else if fold && 'A' <= r && r <= 'Z' {
				set.add(int(r+32), int(r+32))
			}
			g := b.byteState(set)
			if i == 0 {
				f = g
			} else {
				b.patch(f.outs, g.start)
				f.outs = g.outs
			}
		}
		if len(re.Rune) == 0 {
			s := b.add(nfaState{kind: nEps})
			return frag{s, []patch{{s, false}}}
		}
		return f
	case syntax.OpCharClass:
		var set byteSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			b.addRange(&set, re.Rune[i], re.Rune[i+1])
		}
		return b.byteState(set)
	case syntax.OpAnyCharNotNL:
		var set byteSet
		set.add(0, 255)
		set[0] &^= 1 << '\n'
		return b.byteState(set)
	case syntax.OpAnyChar:
		var set byteSet
		set.add(0, 255)
		return b.byteState(set)
	case syntax.OpBeginText:
		s := b.add(nfaState{kind: nBegin})
		return frag{s, []patch{{s, false}}}
	case syntax.OpEndText:
		s := b.add(nfaState{kind: nEnd})
		return frag{s, []patch{{s, false}}}
	case syntax.OpCapture:
		return b.compile(re.Sub[0])
	case syntax.OpStar:
		s := b.add(nfaState{kind: nSplit})
		sub := b.compile(re.Sub[0])
		if b.err != "" {
			return frag{}
		}
		b.states[s].out = sub.start
		b.patch(sub.outs, s)
		return frag{s, []patch{{s, true}}}
	case syntax.OpPlus:
		sub := b.compile(re.Sub[0])
		s := b.add(nfaState{kind: nSplit, out: sub.start})
		b.patch(sub.outs, s)
		return frag{sub.start, []patch{{s, true}}}
	case syntax.OpQuest:
		sub := b.compile(re.Sub[0])
		s := b.add(nfaState{kind: nSplit, out: sub.start})
		return frag{s, append(sub.outs, patch{s, true})}
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			s := b.add(nfaState{kind: nEps})
			return frag{s, []patch{{s, false}}}
		}
		f := b.compile(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			g := b.compile(sub)
			b.patch(f.outs, g.start)
			f.outs = g.outs
		}
		return f
	case syntax.OpAlternate:
		f := b.compile(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			g := b.compile(sub)
			s := b.add(nfaState{kind: nSplit, out: f.start, out1: g.start})
			f = frag{s, append(f.outs, g.outs...)}
		}
		return f
	}
	// ^ and $ in multiline mode, \b and \B look at the bytes around
	// them; repeats are expanded by Simplify.
	b.err = fmt.Sprintf("%s is not compared", opName(re.Op))
	return frag{}
}

func opName(op syntax.Op) string {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine:
		return "multiline ^ or $"
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return `\b or \B`
	}
	return "this regex"
}

// Automaton returns a new automaton of the subjects the regex matches
// somewhere (as ngx_regex_exec runs it), or nil and why its set of
// subjects cannot be computed exactly as PCRE matches them (a pattern Go
// reads otherwise, \s, \z, \b, multiline anchors, a caseless byte above
// 0x7f). The NFA is made once per Regex; each automaton keeps the states
// it builds, for one goroutine.
func (r *Regex) Automaton() (Automaton, string) {
	n, why := r.langNFA()
	if n == nil {
		return nil, why
	}
	return newRegexAuto(n), ""
}

// langNFA builds the NFA of the regex, or says why its set of subjects
// cannot be computed exactly as PCRE matches them.
func (r *Regex) langNFA() (*nfa, string) {
	r.nfaOnce.Do(func() { r.nfa, r.nfaWhy = buildLangNFA(r) })
	return r.nfa, r.nfaWhy
}

func buildLangNFA(r *Regex) (*nfa, string) {
	if r.err != "" {
		return nil, r.err
	}
	p := r.Pattern
	switch {
	case strings.Contains(p, `\z`):
		// Go reads \z and $ alike (OpEndText); PCRE's $ also matches
		// before a final newline.
		return nil, `"\z" is not compared`
	case strings.Contains(p, `\s`) || strings.Contains(p, `\S`):
		return nil, `PCRE's "\s" takes a vertical tab, Go's does not`
	case strings.Contains(p, "{,"):
		return nil, `PCRE2 10.43 reads "{,n}" as a repeat, older ones as text`
	case (r.Caseless || setsCaseless(p)) && !r.pua && r.foldsHigh():
		return nil, "a caseless match of a byte above 0x7f"
	}
	re := r.tree()
	if re == nil {
		return nil, "Go's regexp/syntax does not read it"
	}
	re = re.Simplify()
	b := &nfaBuilder{pua: r.pua}
	f := b.compile(re)
	m := b.add(nfaState{kind: nMatch})
	b.patch(f.outs, m)
	if b.err != "" {
		return nil, b.err
	}
	return &nfa{states: b.states, start: f.start}, ""
}

// Automaton is a deterministic automaton over bytes, built as it is
// walked: states are small numbers it hands out. An Automaton is used by
// one goroutine. The ones of this package are the only ones: Search
// reads their alphabets.
type Automaton interface {
	start() int32
	step(s int32, c byte) int32
	accepts(s int32) bool
	// fate is +1 when the state accepts every continuation, -1 when it
	// accepts none, 0 otherwise (or not known).
	fate(s int32) int8
	// alphabet names the byte sets the automaton tells apart.
	alphabet(add func(*byteSet))
}

// regexAuto is the automaton of the subjects a regex matches somewhere,
// as ngx_regex_exec runs it: a DFA made from the NFA by the subset
// construction. A state holds the NFA states alive at this point of the
// subject in three kinds: those valid whatever follows; those reached
// through a "$" here, valid only if the subject ends here or with a
// final "\n" (PCRE's "$"); and whether a match was found that is valid
// if the subject ends here.
type regexAuto struct {
	n      *nfa
	states []rstate
	index  map[string]int32
	mark   []uint32
	gen    uint32
	stack  []int32
	key    []byte
	// startLive: a match may start after the first byte (the regex is
	// not anchored with ^ everywhere).
	startLive bool
}

type rstate struct {
	done   bool    // a match was found: every continuation is matched
	s, e   []int32 // byte states, valid anywhere / after a "$" here
	me, mf bool    // a match valid if the subject ends here (after a "$" here, or a "$" before a final "\n")
	next   []int32 // by byte, -1 when not yet computed
}

func newRegexAuto(n *nfa) *regexAuto {
	a := &regexAuto{n: n, index: map[string]int32{}, mark: make([]uint32, len(n.states))}
	a.states = append(a.states, rstate{done: true}) // 0: done
	set, ends, m := a.closure([]int32{n.start}, false, false)
	a.startLive = len(set) > 0 || len(ends) > 0 || m
	return a
}

func (a *regexAuto) closure(seeds []int32, atStart, passEnd bool) (set, ends []int32, match bool) {
	a.gen++
	stack := append(a.stack[:0], seeds...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.mark[i] == a.gen {
			continue
		}
		a.mark[i] = a.gen
		st := &a.n.states[i]
		switch st.kind {
		case nByte:
			set = append(set, i)
		case nMatch:
			match = true
		case nSplit:
			stack = append(stack, st.out1, st.out)
		case nEps:
			stack = append(stack, st.out)
		case nBegin:
			if atStart {
				stack = append(stack, st.out)
			}
		case nEnd:
			if passEnd {
				stack = append(stack, st.out)
			} else {
				ends = append(ends, st.out)
			}
		}
	}
	a.stack = stack
	slices.Sort(set)
	return set, ends, match
}

// intern returns the number of the state, adding it when new.
func (a *regexAuto) intern(st rstate) int32 {
	if st.done {
		return 0
	}
	k := a.key[:0]
	k = append(k, b2b(st.me)|b2b(st.mf)<<1)
	k = binary.AppendUvarint(k, uint64(len(st.s)))
	for _, i := range st.s {
		k = binary.AppendUvarint(k, uint64(i))
	}
	for _, i := range st.e {
		k = binary.AppendUvarint(k, uint64(i))
	}
	a.key = k
	if id, ok := a.index[string(k)]; ok {
		return id
	}
	id := int32(len(a.states))
	a.states = append(a.states, st)
	a.index[string(k)] = id
	return id
}

func b2b(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (a *regexAuto) start() int32 {
	s, ends, ms := a.closure([]int32{a.n.start}, true, false)
	if ms {
		return 0
	}
	e, _, me := a.closure(ends, true, true)
	return a.intern(rstate{s: s, e: e, me: me})
}

func (a *regexAuto) step(id int32, c byte) int32 {
	if id == 0 {
		return 0
	}
	if nx := a.states[id].next; nx != nil && nx[c] >= 0 {
		return nx[c]
	}
	st := a.states[id]
	var t []int32
	for _, i := range st.s {
		if a.n.states[i].set.has(c) {
			t = append(t, a.n.states[i].out)
		}
	}
	t = append(t, a.n.start)
	s, ends, ms := a.closure(t, false, false)
	out := int32(0)
	if !ms {
		e, _, me := a.closure(ends, false, true)
		var mf bool
		if c == '\n' {
			var u []int32
			for _, i := range st.e {
				if a.n.states[i].set.has(c) {
					u = append(u, a.n.states[i].out)
				}
			}
			_, _, mf = a.closure(u, false, true)
			mf = mf || st.me
		}
		out = a.intern(rstate{s: s, e: e, me: me, mf: mf})
	}
	if a.states[id].next == nil {
		nx := make([]int32, 256)
		for i := range nx {
			nx[i] = -1
		}
		a.states[id].next = nx
	}
	a.states[id].next[c] = out
	return out
}

func (a *regexAuto) accepts(id int32) bool {
	st := &a.states[id]
	return st.done || st.me || st.mf
}

func (a *regexAuto) fate(id int32) int8 {
	st := &a.states[id]
	switch {
	case st.done:
		return 1
	case len(st.s) == 0 && len(st.e) == 0 && !st.me && !st.mf && !a.startLive:
		return -1
	}
	return 0
}

func (a *regexAuto) alphabet(add func(*byteSet)) {
	for i := range a.n.states {
		if a.n.states[i].kind == nByte {
			add(&a.n.states[i].set)
		}
	}
	var nl byteSet
	nl.add('\n', '\n')
	add(&nl)
}

// trieAuto is the automaton of a level's exact and prefix locations
// (or of plain prefixes): its state is where the subject is in the trie
// of their paths (-1 once it left it) and the deepest prefix location
// the subject starts with; accept decides from the exact location the
// whole subject names (-1 for none) and that prefix (-1 for none).
type trieAuto struct {
	nodes  []trieNode
	accept func(exact, prefix int32) bool
	states [][2]int32
	index  map[[2]int32]int32
}

type trieNode struct {
	next          map[byte]int32
	exact, prefix int32
}

// TrieEntry is a path of a Trie: an exact location's or a prefix
// location's.
type TrieEntry struct {
	Path  string
	Exact bool
}

func newTrieAuto(entries []TrieEntry, accept func(exact, prefix int32) bool) *trieAuto {
	t := &trieAuto{nodes: []trieNode{{exact: -1, prefix: -1}}, accept: accept, index: map[[2]int32]int32{}}
	for i, e := range entries {
		n := int32(0)
		for j := 0; j < len(e.Path); j++ {
			c := e.Path[j]
			nx, ok := t.nodes[n].next[c]
			if !ok {
				if t.nodes[n].next == nil {
					t.nodes[n].next = map[byte]int32{}
				}
				nx = int32(len(t.nodes))
				t.nodes = append(t.nodes, trieNode{exact: -1, prefix: -1})
				t.nodes[n].next[c] = nx
			}
			n = nx
		}
		// The first of two of a kind is kept, as the location tree
		// keeps it.
		if e.Exact && t.nodes[n].exact < 0 {
			t.nodes[n].exact = int32(i)
		} else if !e.Exact && t.nodes[n].prefix < 0 {
			t.nodes[n].prefix = int32(i)
		}
	}
	return t
}

func (t *trieAuto) intern(node, last int32) int32 {
	k := [2]int32{node, last}
	if id, ok := t.index[k]; ok {
		return id
	}
	id := int32(len(t.states))
	t.states = append(t.states, k)
	t.index[k] = id
	return id
}

func (t *trieAuto) start() int32 { return t.intern(0, t.nodes[0].prefix) }

func (t *trieAuto) step(s int32, c byte) int32 {
	node, last := t.states[s][0], t.states[s][1]
	if node < 0 {
		return s
	}
	nx, ok := t.nodes[node].next[c]
	if !ok {
		return t.intern(-1, last)
	}
	if p := t.nodes[nx].prefix; p >= 0 {
		last = p
	}
	return t.intern(nx, last)
}

func (t *trieAuto) accepts(s int32) bool {
	node, last := t.states[s][0], t.states[s][1]
	exact := int32(-1)
	if node >= 0 {
		exact = t.nodes[node].exact
	}
	return t.accept(exact, last)
}

func (t *trieAuto) fate(s int32) int8 {
	node, last := t.states[s][0], t.states[s][1]
	if node >= 0 {
		return 0
	}
	if t.accept(-1, last) {
		return 1
	}
	return -1
}

func (t *trieAuto) alphabet(add func(*byteSet)) {
	for i := range t.nodes {
		for c := range t.nodes[i].next {
			var s byteSet
			s.add(int(c), int(c))
			add(&s)
		}
	}
}

// Prefixes is the automaton of the strings that start with one of the
// prefixes (none: of nothing; "": of every string).
func Prefixes(prefixes ...string) Automaton {
	es := make([]TrieEntry, len(prefixes))
	for i, p := range prefixes {
		es[i] = TrieEntry{Path: p}
	}
	return newTrieAuto(es, func(_, prefix int32) bool { return prefix >= 0 })
}

// Trie is the automaton of the exact and prefix locations of a level:
// a string's state is where it is in the trie of their paths and the
// deepest prefix entry it starts with, and accept decides from the
// number of the exact entry the whole string equals (-1 for none) and
// of that prefix entry (-1 for none). Of two entries of one path and
// kind, the first counts.
func Trie(entries []TrieEntry, accept func(exact, prefix int32) bool) Automaton {
	return newTrieAuto(entries, accept)
}

// NormalPaths is the automaton of the URIs a client's request can leave
// after ngx_http_parse_complex_uri, printable (nice: with no segment
// that starts with a dot either), for examples; see normalAuto.
func NormalPaths(nice bool) Automaton { return normalAuto{nice} }

// normalAuto accepts the URIs a client's request can leave after
// ngx_http_parse_complex_uri: no "//", "/./" or "/../" in them, no
// final "/." or "/..", no NUL, and (for readable examples) nothing
// below 0x20 or above 0x7e but letters of the path. It is used for
// examples only, never to prove that a location is unreachable.
type normalAuto struct {
	// nice also refuses segments that start with a dot.
	nice bool
}

// States: 0 start, 1 after "/", 2 after "/.", 3 after "/..", 4 inside a
// segment, 5 dead.
func (normalAuto) start() int32 { return 0 }

func (a normalAuto) step(s int32, c byte) int32 {
	if s == 5 || c < 0x21 || c > 0x7e || c == '?' || c == '#' || c == '%' {
		return 5
	}
	switch {
	case s == 0:
		if c == '/' {
			return 1
		}
		return 5
	case c == '/':
		if s == 1 || s == 2 || s == 3 {
			return 5
		}
		return 1
	case c == '.' && s == 1:
		if a.nice {
			return 5
		}
		return 2
	case c == '.' && s == 2:
		return 3
	}
	return 4
}

func (normalAuto) accepts(s int32) bool { return s == 1 || s == 4 }

func (normalAuto) fate(s int32) int8 {
	if s == 5 {
		return -1
	}
	return 0
}

func (normalAuto) alphabet(add func(*byteSet)) {
	var s byteSet
	s.add('/', '/')
	add(&s)
	s = byteSet{}
	s.add('.', '.')
	add(&s)
	s = byteSet{}
	s.add(0x21, 0x7e)
	add(&s)
	for _, c := range "?#%" {
		s = byteSet{}
		s.add(int(c), int(c))
		add(&s)
	}
}

// preferred is the order in which the search tries bytes: the examples
// it finds read as paths.
var preferred = func() []byte {
	var out []byte
	seen := [256]bool{}
	for _, s := range []string{"abcdefghijklmnopqrstuvwxyz", "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "/-._~"} {
		for i := 0; i < len(s); i++ {
			out = append(out, s[i])
			seen[s[i]] = true
		}
	}
	for c := 0x21; c < 0x7f; c++ {
		if !seen[c] {
			out = append(out, byte(c))
			seen[c] = true
		}
	}
	for c := 0x80; c < 0x100; c++ {
		out = append(out, byte(c))
		seen[c] = true
	}
	for c := 0; c < 0x21; c++ {
		if !seen[c] {
			out = append(out, byte(c))
		}
	}
	out = append(out, 0x7f)
	return out
}()

// SearchBudget is a bound on the product states one search goes
// through that answers the questions of a configuration's locations in
// milliseconds.
const SearchBudget = 20000

// Search looks for strings that every Automaton of pos accepts and no
// Automaton of neg does, shortest first, and returns up to want of
// them. Each product state is gone through by up to paths strings (1
// finds a string per state; more give other strings for examples).
// complete is false when it stopped for the budget (of product states
// gone through) before it had want strings: an empty answer then proves
// nothing.
func Search(pos, neg []Automaton, want, budget, paths int) (found []string, complete bool) {
	found, complete, _ = SearchMetered(pos, neg, want, budget, paths)
	return found, complete
}

// SearchMetered is Search that also returns the work it did, in steps
// of one Automaton: an automaton stepped on one byte, or an eighth of
// the bytes of one of its byte sets, as the alphabet is refined. A caller that asks many questions
// of one configuration (one per regex location, each against all the
// earlier regexes: quadratic in the regexes) bounds their sum with it.
func SearchMetered(pos, neg []Automaton, want, budget, paths int) (found []string, complete bool, steps int) {
	all := append(slices.Clip(pos), neg...)
	k := len(all)
	classes := 0
	defer func() { steps += classes * 256 / 8 }()
	// The alphabet: bytes no Automaton tells apart form one class, tried
	// once with its preferred byte.
	var class [256]int32
	n := int32(1)
	var ids []int32
	for _, a := range all {
		a.alphabet(func(s *byteSet) {
			classes++
			if cap(ids) < int(2*n) {
				ids = make([]int32, 2*n)
			}
			ids = ids[:2*n]
			for i := range ids {
				ids[i] = -1
			}
			next := int32(0)
			for c := 0; c < 256; c++ {
				k := 2 * class[c]
				if s.has(byte(c)) {
					k++
				}
				if ids[k] < 0 {
					ids[k] = next
					next++
				}
				class[c] = ids[k]
			}
			n = next
		})
	}
	var reps []byte
	seen := make([]bool, n)
	for _, c := range preferred {
		if !seen[class[c]] {
			seen[class[c]] = true
			reps = append(reps, c)
		}
	}
	type node struct {
		parent int32
		c      byte
	}
	var nodes []node
	var states []int32 // k per node
	index := map[string]int32{}
	var key []byte
	add := func(st []int32, parent int32, c byte) {
		key = key[:0]
		for _, s := range st {
			key = binary.AppendUvarint(key, uint64(s))
		}
		if index[string(key)] >= int32(paths) {
			return
		}
		index[string(key)]++
		nodes = append(nodes, node{parent, c})
		states = append(states, st...)
	}
	first := make([]int32, k)
	for i, a := range all {
		first[i] = a.start()
	}
	add(first, -1, 0)
	str := func(i int32) string {
		var b []byte
		for ; nodes[i].parent >= 0; i = nodes[i].parent {
			b = append(b, nodes[i].c)
		}
		slices.Reverse(b)
		return string(b)
	}
	next := make([]int32, k)
	for i := int32(0); int(i) < len(nodes); i++ {
		steps += k * (len(reps) + 1)
		if len(nodes) > budget {
			return found, false, steps
		}
		st := states[int(i)*k : int(i)*k+k]
		hopeless := false
		ok := true
		for j, a := range all {
			f := a.fate(st[j])
			if j < len(pos) {
				hopeless = hopeless || f < 0
				ok = ok && a.accepts(st[j])
			} else {
				hopeless = hopeless || f > 0
				ok = ok && !a.accepts(st[j])
			}
		}
		if hopeless {
			continue
		}
		if ok {
			found = append(found, str(i))
			if len(found) >= want {
				return found, true, steps
			}
		}
		for _, c := range reps {
			st := states[int(i)*k : int(i)*k+k]
			for j, a := range all {
				next[j] = a.step(st[j], c)
			}
			add(next, i, c)
		}
	}
	return found, true, steps
}

// fullAuto is the automaton of the strings an NFA matches whole (from
// its first byte to its last), for an NFA without ^ and $: the URIs a
// rewrite's replacement can make, built from its text and the groups
// of its regex.
type fullAuto struct {
	a *regexAuto
}

func newFullAuto(n *nfa) (*fullAuto, bool) {
	for i := range n.states {
		if k := n.states[i].kind; k == nBegin || k == nEnd {
			return nil, false
		}
	}
	return &fullAuto{a: &regexAuto{n: n, index: map[string]int32{}, mark: make([]uint32, len(n.states)),
		states: []rstate{{done: true}}}}, true
}

// Its states reuse regexAuto's table: s holds the byte states, me that
// the NFA matched here; state 0 (done) is never used.
func (f *fullAuto) start() int32 {
	s, _, m := f.a.closure([]int32{f.a.n.start}, true, false)
	return f.a.intern(rstate{s: s, me: m})
}

func (f *fullAuto) step(id int32, c byte) int32 {
	a := f.a
	if nx := a.states[id].next; nx != nil && nx[c] >= 0 {
		return nx[c]
	}
	var t []int32
	for _, i := range a.states[id].s {
		if a.n.states[i].set.has(c) {
			t = append(t, a.n.states[i].out)
		}
	}
	s, _, m := a.closure(t, false, false)
	out := a.intern(rstate{s: s, me: m})
	if a.states[id].next == nil {
		nx := make([]int32, 256)
		for i := range nx {
			nx[i] = -1
		}
		a.states[id].next = nx
	}
	a.states[id].next[c] = out
	return out
}

func (f *fullAuto) accepts(id int32) bool { return f.a.states[id].me }

func (f *fullAuto) fate(id int32) int8 {
	if st := &f.a.states[id]; len(st.s) == 0 && !st.me {
		return -1
	}
	return 0
}

func (f *fullAuto) alphabet(add func(*byteSet)) { f.a.alphabet(add) }

// Piece is a part of the text a rewrite's replacement makes: literal
// text, capture Capture of the regex (1..9), or Any string (a
// variable).
type Piece struct {
	Lit     string
	Capture int
	Any     bool
}

// Made is the automaton of the strings made of pieces (in an internal
// rewrite nginx copies captures as they are): each capture any string
// its group of r matches, each Any any string. ok is false when r's
// subjects cannot be computed as PCRE matches them, or a group holds an
// anchor.
func Made(r *Regex, pieces []Piece) (Automaton, bool) {
	if n, _ := r.langNFA(); n == nil {
		return nil, false
	}
	tree := r.tree()
	if tree == nil {
		return nil, false
	}
	b := &nfaBuilder{pua: r.pua}
	groups := map[int]*syntax.Regexp{}
	var walk func(t *syntax.Regexp)
	walk = func(t *syntax.Regexp) {
		if t.Op == syntax.OpCapture {
			groups[t.Cap] = t.Sub[0]
		}
		for _, sub := range t.Sub {
			walk(sub)
		}
	}
	walk(tree)
	var parts []*syntax.Regexp
	for _, p := range pieces {
		switch {
		case p.Capture > 0:
			if g := groups[p.Capture]; g != nil {
				parts = append(parts, g)
			}
		case p.Any:
			parts = append(parts, &syntax.Regexp{Op: syntax.OpStar, Sub: []*syntax.Regexp{{Op: syntax.OpAnyChar}}})
		default:
			lit := &syntax.Regexp{Op: syntax.OpLiteral}
			for i := 0; i < len(p.Lit); i++ {
				lit.Rune = append(lit.Rune, b.runeOf(p.Lit[i]))
			}
			parts = append(parts, lit)
		}
	}
	whole := (&syntax.Regexp{Op: syntax.OpConcat, Sub: parts}).Simplify()
	f := b.compile(whole)
	m := b.add(nfaState{kind: nMatch})
	b.patch(f.outs, m)
	if b.err != "" {
		return nil, false
	}
	fa, ok := newFullAuto(&nfa{states: b.states, start: f.start})
	if !ok {
		return nil, false
	}
	return fa, true
}
