//go:build !unix

package lsp

import "time"

// cpuTime is zero where getrusage is missing: the benchmarks then report
// wall time only.
func cpuTime() time.Duration { return 0 }
