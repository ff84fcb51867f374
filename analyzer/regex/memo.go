package regex

import "regexp/syntax"

// Memo remembers one rule's answers to a question it asks of many
// directives with few distinct values (a pattern repeated on every server
// of a big configuration), so that each is computed once. It holds at
// most MemoMax answers (or Max, when set) and starts over when full, so
// its memory does not grow with the configuration. The zero value is
// ready; one rule's run uses it from one goroutine.
type Memo[K comparable, V any] struct {
	m map[K]V
	// Max, when set, bounds the memo below MemoMax (a parsed tree is a
	// few kilobytes: a memo of trees keeps fewer).
	Max int
}

// MemoMax bounds a Memo: a few hundred kilobytes at most.
const MemoMax = 4096

// Get returns compute(k), computed once per distinct k.
func (m *Memo[K, V]) Get(k K, compute func(K) V) V {
	if v, ok := m.m[k]; ok {
		return v
	}
	if m.m == nil {
		m.m = map[K]V{}
	} else if len(m.m) >= MemoMax || m.Max > 0 && len(m.m) >= m.Max {
		clear(m.m)
	}
	v := compute(k)
	m.m[k] = v
	return v
}

// Key is a regex as nginx compiles it: the expression, and whether it is
// matched without case ("~*").
type Key struct {
	Expr     string
	Caseless bool
}

// VerdictMemo is a Memo of verdicts on regexes: regexp/syntax.Parse builds
// a tree several times the pattern's size, and the rules that parsed
// every location regex again made most of a run's garbage.
type VerdictMemo[V any] struct {
	memo Memo[Key, V]
}

// Get returns verdict(re) for the regex expr read as nginx reads it (re
// is nil when Go's parser does not accept it, see Parse), computed once
// per distinct expr and caseless.
func (m *VerdictMemo[V]) Get(expr string, caseless bool, verdict func(re *syntax.Regexp) V) V {
	return m.memo.Get(Key{expr, caseless}, func(k Key) V { return verdict(Parse(k.Expr, k.Caseless)) })
}
