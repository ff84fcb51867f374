package analyzer

import (
	"errors"
	"sync/atomic"
)

// countOps adds n operations to the run's counter (Options.Ops), if any:
// the directives handed to rules (entries walked or looked up by name
// through the index, enclosing blocks listed, block bodies read). It
// measures a rule's work independently of the machine's speed and load;
// the scaling test compares it across input sizes. Without a counter it
// costs a nil check.
func (ix *Index) countOps(n int) {
	if ix.ops != nil {
		ix.ops.Add(int64(n))
	}
}

// OpCounter is the run's operation counter (Options.Ops), nil when none:
// for results that count their own steps (the cost model).
func (p *Pass) OpCounter() *atomic.Int64 {
	if p.shared == nil {
		return nil
	}
	return p.shared.ops
}

// CountOps adds n operations (directives looked at) to the run's counter,
// for work a rule does outside the index's walks.
func (p *Pass) CountOps(n int) {
	p.stopIfCancelled()
	if p.shared != nil && p.shared.ops != nil {
		p.shared.ops.Add(int64(n))
	}
}

// errCancelled ends a rule whose run was cancelled (Options.Cancel);
// runSafely recovers it without a finding.
var errCancelled = errors.New("run cancelled")

// cancelEvery: the walks look at Options.Cancel once per this many
// entries, plus one.
const cancelEvery = 1<<12 - 1

// stopIfCancelled ends the rule when the run was cancelled: the walks,
// the findings and the counted steps of every rule pass here, so a rule
// stops within a few thousand steps however long it would run.
func (p *Pass) stopIfCancelled() {
	if p.shared != nil && p.shared.cancelled.Load() {
		panic(errCancelled)
	}
}
