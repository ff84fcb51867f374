package rules

import "regexp/syntax"

// memo remembers one rule's answers to a question it asks of many
// directives with few distinct values (a pattern repeated on every server
// of a big configuration), so that each is computed once. It holds at
// most memoMax answers (or max, when set) and starts over when full, so
// its memory does not grow with the configuration. The zero value is
// ready; one rule's run uses it from one goroutine.
type memo[K comparable, V any] struct {
	m   map[K]V
	max int
}

// memoMax bounds a memo: a few hundred kilobytes at most.
const memoMax = 4096

// get returns compute(k), computed once per distinct k.
func (m *memo[K, V]) get(k K, compute func(K) V) V {
	if v, ok := m.m[k]; ok {
		return v
	}
	if m.m == nil {
		m.m = map[K]V{}
	} else if len(m.m) >= memoMax || m.max > 0 && len(m.m) >= m.max {
		clear(m.m)
	}
	v := compute(k)
	m.m[k] = v
	return v
}

// regexMemo is a memo of verdicts on regexes: regexp/syntax.Parse builds
// a tree several times the pattern's size, and the rules that parsed
// every location regex again made most of a run's garbage.
type regexMemo[V any] struct {
	memo memo[regexKey, V]
}

type regexKey struct {
	expr     string
	caseless bool
}

// get returns verdict(re) for the regex expr read as nginx reads it (re
// is nil when Go's parser does not accept it, see nginxRegex), computed
// once per distinct expr and caseless.
func (m *regexMemo[V]) get(expr string, caseless bool, verdict func(re *syntax.Regexp) V) V {
	return m.memo.get(regexKey{expr, caseless}, func(k regexKey) V { return verdict(nginxRegex(k.expr, k.caseless)) })
}
