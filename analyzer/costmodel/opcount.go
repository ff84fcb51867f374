package costmodel

import "sync/atomic"

// opCounter, when set, counts the steps Compute takes: servers, listens
// and addresses visited, links followed in a port's address list, names
// hashed. Like analyzer.CountOps it measures the model's work
// independently of the machine, so that the scaling test can hold the
// cost rules, which read the model, to linear growth too.
var opCounter atomic.Pointer[atomic.Int64]

// SetOpCounter makes Compute add its step counts to c until it is called
// with nil (analyzer.SetOpCounter calls it). For tests that check how the
// model scales.
func SetOpCounter(c *atomic.Int64) { opCounter.Store(c) }

// countOps adds n steps to the counter, if one is set.
func countOps(n int) {
	if c := opCounter.Load(); c != nil {
		c.Add(int64(n))
	}
}
