package lsp

import "testing"

// cpu reports, besides the wall time, the process's CPU time per
// operation from now until the returned function is called after n
// operations: on a machine other jobs share, wall time grows with their
// load, CPU time much less.
func cpu(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}
