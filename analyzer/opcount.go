package analyzer

import (
	"sync/atomic"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// opCounter, when set, counts the directives handed to rules: entries
// walked or looked up by name through the index, enclosing blocks
// listed, block bodies read (rules report those with CountOps). It
// measures a rule's work independently of the machine's speed and load;
// the scaling test compares it across input sizes. Unset, counting costs
// one atomic load per call.
var opCounter atomic.Pointer[atomic.Int64]

// SetOpCounter makes the analyzer, and the cost model the cost rules
// read, add their operation counts to c until it is called with nil. For
// tests that check how rules scale.
func SetOpCounter(c *atomic.Int64) {
	opCounter.Store(c)
	costmodel.SetOpCounter(c)
}

// CountOps adds n operations (directives looked at) to the counter set
// with SetOpCounter, if any.
func CountOps(n int) {
	if c := opCounter.Load(); c != nil {
		c.Add(int64(n))
	}
}
