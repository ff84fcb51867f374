package main

import (
	"os"
	"runtime/debug"
)

// bigInput is the amount of input past which a run tunes the collector
// for memory rather than speed (see bigInputGC).
const bigInput = 32 << 20

// memoryPerInputByte sets the soft memory limit of a big run, per byte
// read. The parse tree and the lint's shared results of a dense
// configuration (BenchmarkPeakRSS's: 118 MiB, 300,000 servers of short
// directives) peak at about 10 bytes live per byte of input; the limit
// leaves the collector a tenth more, instead of the 100% GOGC gives.
const memoryPerInputByte = 11

// bigInputMemoryLimit sets a soft memory limit (debug.SetMemoryLimit)
// for a run that has read more than bigInput bytes. With GOGC alone the
// heap grows to twice what is live before a collection (the 118 MiB
// configuration peaked at 2.1 GB of RSS for 1.2 GB live); under the
// limit the collector runs before the heap passes memoryLimitFor(read),
// at the cost of more collections (that configuration took 7.0 s instead
// of 5.0 s, for 1.4 GB instead of 2.3 GB). The runtime keeps a limit from taking more than about
// half the CPU, so an input whose live heap is larger than the limit runs
// slower instead of failing. A GOMEMLIMIT or GOGC set by the user wins.
func bigInputMemoryLimit(read int64) {
	if read <= bigInput {
		return
	}
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
