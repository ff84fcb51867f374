package main

import (
	"os"
	"runtime/debug"
)

// memoryPerInputByte sets the soft memory limit of a one-shot run, per
// byte read. The parse tree and the lint's shared results of a dense
// configuration (BenchmarkPeakRSS's: 118 MiB, 300,000 servers of short
// directives) peak at 9.3 bytes live per byte of input; the limit leaves
// the collector a tenth more, instead of the 100% GOGC gives. At 11 the
// run below takes 5.9 s for 1339 MiB.
const memoryPerInputByte = 10

// memoryLimit sets a soft memory limit (debug.SetMemoryLimit) for a
// one-shot run that has read read bytes, so that its memory stays
// proportional to its input whatever GOGC does: GOGC=400 (batchGC) lets
// the heap of a mid-sized input grow to five times what is live, and even
// GOGC=100 (bigInputGC) to twice (the 118 MiB configuration peaked at
// 2025 MiB of RSS for 1103 MiB live). Under the limit the collector runs
// before the heap passes memoryLimitFor(read), at the cost of more
// collections near the end of a run: that configuration took 7.0 s
// instead of 4.4 s, for 1246 MiB instead of 2025 MiB; a 16 MB one 0.61 s
// instead of 0.52 s, for 218 MiB instead of 326 MiB. Small inputs stay
// under the limit's 64 MiB floor and are not affected. The runtime keeps
// a limit from taking more than about half the CPU, so an input whose
// live heap passes the limit (a configuration of still shorter
// directives, a map of a million entries) runs slower instead of
// failing. A GOMEMLIMIT or GOGC set by the user wins.
func memoryLimit(read int64) {
	for _, v := range []string{"GOMEMLIMIT", "GOGC"} {
		if _, set := os.LookupEnv(v); set {
			return
		}
	}
	debug.SetMemoryLimit(memoryLimitFor(read))
}

// memoryLimitFor is the soft limit for a run that has read read bytes:
// the expected peak plus room for the runtime's own structures.
func memoryLimitFor(read int64) int64 { return read*memoryPerInputByte + 64<<20 }
