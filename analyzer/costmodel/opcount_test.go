package costmodel_test

import (
	"sync/atomic"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// TestComputeScalesLinearly counts Compute's steps (Options.Ops) on each
// listen layout and naming at 2,000 and 8,000 servers: the model prices
// nginx's quadratic address search, but must not do one itself, so four
// times the servers may cost at most five times the steps.
func TestComputeScalesLinearly(t *testing.T) {
	steps := func(o layout.Options) int64 {
		m := layoutModel(t, o)
		var n atomic.Int64
		costmodel.Compute(m, costmodel.Options{Ops: &n})
		return n.Load()
	}
	for _, l := range layout.All() {
		small := steps(layout.Options{Layout: l, N: 2000})
		large := steps(layout.Options{Layout: l, N: 8000})
		t.Logf("%s: %d → %d steps (%.2f×)", l, small, large, float64(large)/float64(max(small, 1)))
		if small < 2000 || large > 5*small {
			t.Errorf("%s: %d steps for 2,000 servers, %d for 8,000 (%.1f×; at least one a server, at most 5× allowed)",
				l, small, large, float64(large)/float64(max(small, 1)))
		}
	}
}
