package costmodel

import (
	"sync"
	"weak"

	"github.com/nginx-lint/nginx-lint/parser"
)

// cache remembers the last results, keyed by the model they were computed
// from and the options. Every rule of one analysis sees the same
// *parser.Model, so the cost rules share one Compute. The model is held
// weakly: once an analysis is done and its model collected, its entry is
// dead and gets replaced.
var cache struct {
	sync.Mutex
	entries [4]cacheEntry
	next    int
}

type cacheEntry struct {
	model weak.Pointer[parser.Model]
	opts  Options
	res   *Result
}

// For returns the cost model of m with opts, computing it at most once
// while m is alive (for the last few models seen). The result must not be
// modified.
func For(m *parser.Model, opts Options) *Result {
	cache.Lock()
	defer cache.Unlock()
	for _, e := range cache.entries {
		if e.res != nil && e.model.Value() == m && e.opts == opts {
			return e.res
		}
	}
	r := Compute(m, opts)
	cache.entries[cache.next] = cacheEntry{model: weak.Make(m), opts: opts, res: r}
	cache.next = (cache.next + 1) % len(cache.entries)
	return r
}
