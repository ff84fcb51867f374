package regex

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Ordered is a list of regexes that nginx tries in order until one
// matches (the regex locations of a level, server_name regexes, a map's
// regexes), asked which of them may match a subject without running
// each: one deterministic automaton of all of them, built as subjects
// walk it, tells which regexes may still match after each byte. Once
// the states a subject goes through are built, asking it costs a step
// per byte, so a list of n regexes asked n subjects costs about n
// states, not n² matches.
//
// A state of the automaton is the state of each regex's own Automaton.
// Only the regexes with a match under way are listed: the others are
// idle (nothing under way, the start of the subject behind), which is
// dead for a regex anchored at the start, and a byte wakes only the
// idle regexes that can begin a match with it. Once a regex has matched
// whatever follows, every later one leaves the state (the first match
// wins). A regex without an exact automaton (Automaton says why) is
// always offered.
//
// Building states is bounded by the work Work allows: past it the
// automaton is dropped and every regex is offered, as a plain loop
// would try them. The answer is the same either way; only the work
// differs. An Ordered is safe for use by several goroutines.
type Ordered struct {
	rs []*Regex

	mu    sync.Mutex
	autos []*regexAuto // nil for a regex without an exact automaton
	idle  []int32      // each regex's idle state
	// floating are the regexes whose idle state is not dead (they may
	// begin a match after the start), in order: the ones a byte can
	// wake.
	floating []int32
	opaque   []int32 // the regexes without an automaton, in order
	// idleAccepts are the regexes whose idle state accepts ("$"), in
	// order.
	idleAccepts []int32
	wake        [256][]opair // the idle regexes byte c moves, and where
	woken       [256]bool
	states      []ostate
	index       map[string]int32
	next        map[uint64]int32 // state<<8 | byte → state
	key         []byte
	work        int
	limit       int
	off         bool // the work ran out: offer every regex
	built       bool
	asked       int // subjects asked before the automaton was built
	offered     atomic.Int64
}

// ostate is a state of the automaton of an Ordered: the regexes with a
// match under way, each with the state of its own automaton, in order,
// and the first regex that has matched whatever follows (-1 when none
// has). The regexes before first that are not listed are idle.
type ostate struct {
	live  []opair
	first int32
}

type opair struct {
	re, s int32
}

// OrderedWork is the default bound on the work of an Ordered, in regex
// automaton states carried or woken from one state of the whole list to
// the next: some 0.5 s of CPU and 100 MB at most.
const OrderedWork = 4_000_000

// orderedWarm is the number of subjects an Ordered offers every regex
// before it builds its automaton.
const orderedWarm = 16

// NewOrdered returns the list rs, to be asked in that order; work bounds
// the work of its automaton (0: OrderedWork).
func NewOrdered(rs []*Regex, work int) *Ordered {
	if work <= 0 {
		work = OrderedWork
	}
	return &Ordered{rs: rs, limit: work}
}

// Len is the number of regexes in the list.
func (o *Ordered) Len() int { return len(o.rs) }

// Work is the work spent on the automaton so far, and whether it ran
// out (every regex is then offered).
func (o *Ordered) Work() (work int, spent bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.work, o.off
}

// Offered is the number of regexes Candidates has offered so far, over
// every subject: with a loop over the list, that is the number of
// regexes tried before the first that matches, for each subject.
func (o *Ordered) Offered() int { return int(o.offered.Load()) }

// Candidates calls try with the indexes of the regexes of the list that
// may match s, in order, until try returns true. A regex it does not
// offer does not match s, and its Match says so without doubt (ok and
// why both unset), so a caller that runs Match on each offered regex
// and stops at the first that matches or is unsure gets the answer a
// loop over the whole list gets.
func (o *Ordered) Candidates(s string, try func(i int) bool) {
	cands, from := o.candidates(s)
	offered := 0
	defer func() { o.offered.Add(int64(offered)) }()
	last := -1
	for _, i := range cands {
		offered++
		if try(int(i)) {
			return
		}
		last = int(i)
	}
	// A regex the automaton said matches that Match refuses (they
	// should agree) leaves the regexes after it, which the automaton
	// dropped, to be tried in order.
	if from >= 0 {
		for i := max(from, last+1); i < len(o.rs); i++ {
			offered++
			if try(i) {
				return
			}
		}
	}
}

// candidates returns the regexes that may match s, in order, and the
// index from which every regex must be tried after them (-1: none).
func (o *Ordered) candidates(s string) ([]int32, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.built {
		// Building costs about as much as a few loops over the list:
		// a list asked a few subjects is looped over.
		if o.asked < orderedWarm {
			o.asked++
			return nil, 0
		}
		o.build()
	}
	// PCRE's "$" also matches before a final newline, where Match is
	// unsure; the automaton knows, but offering every regex keeps Match's
	// word.
	if o.off || strings.HasSuffix(s, "\n") {
		return nil, 0
	}
	id := int32(0)
	for i := 0; i < len(s); i++ {
		id = o.step(id, s[i])
		if o.off {
			return nil, 0
		}
	}
	st := &o.states[id]
	end := int32(len(o.rs))
	if st.first >= 0 {
		end = st.first
	}
	// The regexes that accept here: listed ones whose state accepts, idle
	// ones whose idle state does, and those without an automaton.
	var acc []int32
	for _, p := range st.live {
		if o.autos[p.re].accepts(p.s) {
			acc = append(acc, p.re)
		}
	}
	live := st.live
	for _, re := range o.idleAccepts {
		if re >= end {
			break
		}
		for len(live) > 0 && live[0].re < re {
			live = live[1:]
		}
		if len(live) == 0 || live[0].re != re {
			acc = append(acc, re)
		}
	}
	for _, re := range o.opaque {
		if re >= end {
			break
		}
		acc = append(acc, re)
	}
	slices.Sort(acc)
	from := -1
	if st.first >= 0 {
		acc = append(acc, st.first)
		from = int(st.first) + 1
	}
	return acc, from
}

// build makes the automaton of every regex and the start state.
func (o *Ordered) build() {
	o.built = true
	o.autos = make([]*regexAuto, len(o.rs))
	o.idle = make([]int32, len(o.rs))
	o.index = map[string]int32{}
	o.next = map[uint64]int32{}
	st := ostate{first: -1}
	for i, r := range o.rs {
		a, _ := r.Automaton()
		ra, ok := a.(*regexAuto)
		var idle int32
		if ok {
			idle = ra.idle()
		}
		if !ok || idle == 0 {
			// Without an automaton, or one that matches anywhere but
			// at the start: offered always.
			o.opaque = append(o.opaque, int32(i))
			continue
		}
		o.autos[i], o.idle[i] = ra, idle
		if ra.accepts(idle) {
			o.idleAccepts = append(o.idleAccepts, int32(i))
		}
		if ra.fate(idle) >= 0 {
			o.floating = append(o.floating, int32(i))
		}
		s := ra.start()
		if s == 0 { // matches every subject
			st.first = int32(i)
			break
		}
		if s != idle {
			st.live = append(st.live, opair{int32(i), s})
		}
	}
	o.work = len(o.rs)
	o.intern(st)
}

// woke returns the idle regexes that byte c moves out of their idle
// state, in order, with the state it moves them to.
func (o *Ordered) woke(c byte) []opair {
	if !o.woken[c] {
		o.woken[c] = true
		for _, i := range o.floating {
			if s := o.autos[i].step(o.idle[i], c); s != o.idle[i] {
				o.wake[c] = append(o.wake[c], opair{i, s})
			}
		}
		o.work += len(o.floating)
	}
	return o.wake[c]
}

// step returns the state after byte c from state id.
func (o *Ordered) step(id int32, c byte) int32 {
	k := uint64(id)<<8 | uint64(c)
	if nx, ok := o.next[k]; ok {
		return nx
	}
	wake := o.woke(c)
	from := &o.states[id]
	o.work += len(from.live) + len(wake)
	if o.work > o.limit {
		o.off = true
		o.states, o.index, o.next, o.autos, o.wake = nil, nil, nil, nil, [256][]opair{}
		return 0
	}
	st := ostate{first: from.first}
	end := int32(len(o.rs))
	if from.first >= 0 {
		end = from.first
	}
	// Merge the listed regexes, stepped, with the idle ones c wakes, in
	// order, up to the first that matches whatever follows.
	live := from.live
	for len(live) > 0 || len(wake) > 0 {
		var p opair
		switch {
		case len(wake) == 0 || len(live) > 0 && live[0].re <= wake[0].re:
			if len(wake) > 0 && wake[0].re == live[0].re {
				wake = wake[1:]
			}
			p = live[0]
			live = live[1:]
			p.s = o.autos[p.re].step(p.s, c)
		default:
			p = wake[0]
			wake = wake[1:]
		}
		if p.re >= end {
			break
		}
		if p.s == 0 {
			// Matched whatever follows: the regexes after it are never
			// reached.
			st.first = p.re
			break
		}
		if p.s != o.idle[p.re] && o.autos[p.re].fate(p.s) >= 0 {
			st.live = append(st.live, p)
		}
	}
	nx := o.intern(st)
	o.next[k] = nx
	return nx
}

// intern returns the number of the state, adding it when new.
func (o *Ordered) intern(st ostate) int32 {
	k := binary.AppendVarint(o.key[:0], int64(st.first))
	for _, p := range st.live {
		k = binary.AppendUvarint(k, uint64(p.re))
		k = binary.AppendUvarint(k, uint64(p.s))
	}
	o.key = k
	if id, ok := o.index[string(k)]; ok {
		return id
	}
	id := int32(len(o.states))
	o.states = append(o.states, st)
	o.index[string(k)] = id
	return id
}
