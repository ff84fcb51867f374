package rules

import "regexp/syntax"

// regexMemo remembers one rule's verdict on each distinct regex it met,
// so that a pattern repeated on every server of a big configuration
// (`location ~ \.php$`) is parsed once: regexp/syntax.Parse builds a tree
// several times the pattern's size, and the rules that parsed every
// location regex again made most of a run's garbage. It holds at most
// regexMemoMax verdicts and starts over when full, so its memory does not
// grow with the configuration. The zero value is ready; one rule's run
// uses it from one goroutine.
type regexMemo[V any] struct {
	m map[regexKey]V
}

type regexKey struct {
	expr     string
	caseless bool
}

// regexMemoMax bounds a regexMemo: a few hundred kilobytes at most.
const regexMemoMax = 4096

// get returns verdict(re) for the regex expr read as nginx reads it (re
// is nil when Go's parser does not accept it, see nginxRegex), computed
// once per distinct expr and caseless.
func (m *regexMemo[V]) get(expr string, caseless bool, verdict func(re *syntax.Regexp) V) V {
	k := regexKey{expr, caseless}
	if v, ok := m.m[k]; ok {
		return v
	}
	if m.m == nil {
		m.m = map[regexKey]V{}
	} else if len(m.m) == regexMemoMax {
		clear(m.m)
	}
	v := verdict(nginxRegex(expr, caseless))
	m.m[k] = v
	return v
}
