//go:build unix

package costmodel_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// BenchmarkCompute20k models the benchmark's layouts at 20,000 servers
// (L1c: 20,000 ports; L2c: 20,000 IPs on one port; L3c: 20,000 names on
// one address, whose server_names hash is simulated). The goal is under
// 5 ms per Compute. Besides wall time it reports CPU time per operation,
// which a busy shared machine inflates less.
func BenchmarkCompute20k(b *testing.B) {
	for _, name := range []string{"L1c", "L2c", "L3c"} {
		l, _ := layout.ParseName(name)
		m := layoutModel(b, layout.Options{Layout: l, N: 20000})
		b.Run(name, func(b *testing.B) {
			start := cpuTime()
			n := 0
			for b.Loop() {
				costmodel.Compute(m, costmodel.Options{})
				n++
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(n)/1e6, "cpu-ms/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
